#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Files tiertune writes on request (export -o, plot -o): a regular file is
# replaced whole (temp file, rename); anything else is written through, as a
# shell's > would: a FIFO is read by its reader, a symbolic link stays a link
# (to /dev/stdout, /dev/null, a file in a config folder). rename() over them
# replaced the link, the FIFO, and as root a device node, with a regular file.
. "$(dirname "$0")/lib.sh"

root=$(copy_fixture spr-ddr5-2cxl)
exp() { "$TT" --sysfs-root "$root" export --weights 0:5,1:1,2:1 --format json "$@"; }

# A FIFO: the reader gets the document; the FIFO stays a FIFO.
mkfifo "$WORK/fifo"
timeout 20 cat "$WORK/fifo" >"$WORK/read" &
reader=$!
run timeout 20 "$TT" --sysfs-root "$root" export --weights 0:5,1:1,2:1 --format json -o "$WORK/fifo"
wait "$reader"
is "export -o FIFO: written through to its reader, still a FIFO" \
	"$rc:$([ -p "$WORK/fifo" ] && echo fifo):$(python3 -c 'import json,sys; print(json.load(sys.stdin)["schema_version"] > 0)' <"$WORK/read")" \
	"0:fifo:True"

# A link to a regular file: the file gets the document, the link stays.
mkdir "$WORK/conf"
echo old >"$WORK/conf/profile.json"
ln -s conf/profile.json "$WORK/link.json"
run exp -o "$WORK/link.json"
is "export -o LINK: the link stays a link, its file is replaced whole" \
	"$rc:$([ -L "$WORK/link.json" ] && echo link):$(grep -c '"weights"' "$WORK/conf/profile.json"):$(ls "$WORK/conf" | wc -l)" \
	"0:link:1:1"

# A link to a device: written through, never replaced.
ln -s /dev/null "$WORK/null"
run exp -o "$WORK/null"
is "export -o LINK-TO-/dev/null: the link stays, nothing beside it" \
	"$rc:$([ -L "$WORK/null" ] && echo link):$(readlink "$WORK/null"):$(ls "$WORK" | grep -c '^null')" \
	"0:link:/dev/null:1"

# A dangling link and a folder: bad input, named.
ln -s "$WORK/nowhere/x" "$WORK/dangling"
for bad in dangling:"is a symbolic link to nothing" conf:"is a folder"; do
	expect_bad_input 2 "output '$WORK/${bad%%:*}' ${bad#*:}" "$root" \
		"$TT" --sysfs-root "$root" export --weights 0:5,1:1,2:1 --format json -o "$WORK/${bad%%:*}"
done

done_testing
