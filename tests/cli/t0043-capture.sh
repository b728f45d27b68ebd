#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tiertune capture: a copy of what tiertune reads that --sysfs-root reads
# back as the machine, and hwloc too. Every fixture machine captured from
# its tree gives the tree back file for file, and hwloc reads each fixture
# as the machine tiertune reads; this machine's capture reads
# as this machine (topo --json, hwloc's PUs and nodes, the weights); a
# .tar.gz; the host name anonymised; nothing outside the root reaches the
# copy (links, a FIFO, a file too large); bad input.
. "$(dirname "$0")/lib.sh"

# topo --json without the fields a capture cannot hold still: the root it
# names, and free memory (a live machine's moves between two reads).
topo_json() { # root
	"$TT" --sysfs-root "$1" topo --json | python3 -c 'import json, sys
j = json.load(sys.stdin)
j.pop("sysfs_root", None)
for n in j.get("nodes", []):
    n.pop("mem_free_bytes", None)
print(json.dumps(j, sort_keys=True))'
}
# diff -r of a tree and its capture: the same files and links but the
# SOURCE note, and the processes a fixture holds for tiertop (a capture
# copies none: they are the user's, not the machine's).
tree_diff() { # tree capture
	diff -r --no-dereference -x SOURCE "$@" | grep -vE "^Only in $1/proc: [0-9]+\$"
}
# Links in a tree that lead out of it (none may).
links_out() { # tree
	local top l
	top=$(cd "$1" && pwd -P)
	find "$1" -type l | while read -r l; do
		case "$(realpath -m "$l")" in "$top"/*) ;; *) echo "$l" ;; esac
	done
}

# This machine: read it first, then hold the capture to it.
live_nodes=$(ls -d /sys/devices/system/node/node[0-9]* | wc -l)
run "$TT" capture -o "$WORK/live"
is "capture of this machine: exit 0, files counted" \
	"$rc:$(grep -cE '^captured / into .*/live: [0-9]+ files \([0-9]+ bytes\), [0-9]+ links$' "$WORK/out")" "0:1"
is "topo --json on the capture is this machine's (but for the root and free memory)" \
	"$(topo_json "$WORK/live")" "$(topo_json /)"
is "every node is in the capture ($live_nodes here)" \
	"$(ls -d "$WORK"/live/sys/devices/system/node/node[0-9]* | wc -l)" "$live_nodes"
is "the capture's host name is this machine's" "$(cat "$WORK/live/proc/sys/kernel/hostname")" \
	"$(cat /proc/sys/kernel/hostname)"
wi=/sys/kernel/mm/mempolicy/weighted_interleave
if [ -d "$wi" ]; then
	is "the weights in the capture are the ones sysfs holds" \
		"$(cd "$WORK/live$wi" && grep -r . | sort)" "$(cd "$wi" && grep -r . 2>/dev/null | sort)"
else
	skip "no $wi on this kernel (before 6.9)"
fi
is "only /proc and /sys and a SOURCE note; no process, boot id or DMI table" \
	"$(cd "$WORK/live" && LC_ALL=C ls | tr '\n' ' '):$(cd "$WORK/live/proc" && find . -type f | sort | tr '\n' ' '):$(find "$WORK/live" -path '*dmi*' -o -name boot_id | wc -l)" \
	"SOURCE proc sys :$(cd "$WORK/live/proc" && ls -d ./cpuinfo ./meminfo ./vmstat ./sys/kernel/* 2>/dev/null | sort | tr '\n' ' '):0"
is "no link in the capture leads out of it" "$(links_out "$WORK/live")" ""
is "a SOURCE note says what it is" "$(grep -c '^Captured by tiertune capture .* from this machine' "$WORK/live/SOURCE")" 1
if command -v lstopo-no-graphics >/dev/null; then
	lst() { lstopo-no-graphics --no-io --of console "$@" 2>&1 | grep -oE '(PU|NUMANode|Core|Package) L#[0-9]+' | sort | tr '\n' ' '; }
	run env HWLOC_FSROOT="$WORK/live" lstopo-no-graphics --no-io
	is "hwloc reads the capture: lstopo exits 0 and warns of nothing" "$rc:$(cat "$WORK/err")" "0:"
	is "hwloc sees the same packages, cores, PUs and NUMA nodes as here" \
		"$(HWLOC_FSROOT="$WORK/live" lst)" "$(lst)"
else
	skip "no lstopo-no-graphics (Debian package hwloc)"
	skip "no lstopo-no-graphics (Debian package hwloc)"
fi

# Every fixture machine, captured from its tree: the same files, the same
# links, the same machine (but its processes). hwloc reads each fixture too
# (its CPU topology from tests/fixtures/hwloc-cpus.py): its NUMA nodes and
# PUs are the nodes and CPUs tiertune reads there.
for d in "$FIX"/*/; do
	f=$(basename "$d")
	if command -v lstopo-no-graphics >/dev/null; then
		run env HWLOC_FSROOT="$FIX/$f" lstopo-no-graphics --no-io --only NUMANode
		hw="$rc:$(cat "$WORK/err"):$(wc -l <"$WORK/out"):$(HWLOC_FSROOT="$FIX/$f" lstopo-no-graphics --no-io --only PU | wc -l)"
		is "$f: hwloc reads the fixture, its nodes and CPUs" "$hw" \
			"0::$("$TT" --sysfs-root "$FIX/$f" topo --json | json 'len(j["nodes"])'):$("$TT" --sysfs-root "$FIX/$f" topo --json | json 'sum(len(n["cpus"]) for n in j["nodes"])')"
	else
		skip "no lstopo-no-graphics (Debian package hwloc)"
	fi
	run "$TT" --sysfs-root "$FIX/$f" capture -o "$WORK/cap-$f"
	is "$f: the capture is the tree, file for file and link for link (but the SOURCE note and processes)" \
		"$rc:$(tree_diff "$FIX/$f" "$WORK/cap-$f")" "0:"
	is "$f: and reads as the same machine" "$(topo_json "$WORK/cap-$f")" "$(topo_json "$FIX/$f")"
done
run "$TT" --sysfs-root "$WORK/cap-spr-ddr5-2cxl" capture -o "$WORK/cap-cap"
is "a capture of a capture is the same tree" \
	"$rc:$(diff -r --no-dereference -x SOURCE "$WORK/cap-spr-ddr5-2cxl" "$WORK/cap-cap")" "0:"
run "$TT" --sysfs-root "$WORK/cap-spr-ddr5-2cxl" auto --db "$WORK/c.db" --source-node 0 \
	--model spr-ddr5-2cxl --budget 20
is "a model runs on a capture of its machine (labelled simulated)" \
	"$rc:$(grep -c "^SIMULATED: every figure comes from model '.*spr-ddr5-2cxl.json'" "$WORK/out")" "0:1"
cp -a "$WORK/cap-spr-ddr5-2cxl" "$WORK/cap-w"
spr=$(copy_fixture spr-ddr5-2cxl)
run "$TT" --sysfs-root "$WORK/cap-w" apply --weights 0:5,1:2,2:1 --db "$WORK/w.db"
a=$rc
run "$TT" --sysfs-root "$spr" apply --weights 0:5,1:2,2:1 --db "$WORK/w2.db"
is "apply writes a capture's weights as the fixture's" \
	"$a:$(cat "$WORK"/cap-w/sys/kernel/mm/mempolicy/weighted_interleave/node*)" \
	"$rc:$(cat "$spr"/sys/kernel/mm/mempolicy/weighted_interleave/node*)"

# A .tar.gz, the host name anonymised: nothing in it names the host or
# where it was taken from.
run "$TT" --sysfs-root "$FIX/spr-ddr5-2cxl" capture -o "$WORK/spr.tar.gz" --anonymize
mkdir "$WORK/unpacked"
tar -xzf "$WORK/spr.tar.gz" -C "$WORK/unpacked"
is "capture -o FILE.tar.gz: an archive of the same tree" \
	"$rc:$(tree_diff "$FIX/spr-ddr5-2cxl" "$WORK/unpacked" -x hostname)" "0:"
is "--anonymize: host name 'anonymous', the real one and the root's path in no file" \
	"$(cat "$WORK/unpacked/proc/sys/kernel/hostname"):$(grep -rlE "spr-cxl-07|$FIX" "$WORK/unpacked" | wc -l)" \
	"anonymous:0"
is "no temporary file or folder left beside the archive" "$(ls "$WORK" | grep -c 'tmp')" 0

# What lies outside the root never reaches the copy: a link out (by a
# folder on the way, a file, a bus entry, an absolute one), a FIFO, a file
# over 16 MiB. The capture still succeeds and counts what it refused.
mkdir -p "$WORK/outside/mm/mempolicy/weighted_interleave" "$WORK/outside/pmu/events"
echo SECRET >"$WORK/outside/mm/mempolicy/weighted_interleave/node0"
echo SECRET >"$WORK/outside/pmu/type"
echo SECRET >"$WORK/outside/secret"
bad=$(copy_fixture spr-ddr5-2cxl)
rm -rf "$bad/sys/kernel/mm"
ln -s "$WORK/outside/mm" "$bad/sys/kernel/mm"
ln -s ../../../../../../../outside/secret "$bad/sys/devices/system/node/node0/leak"
ln -s /etc/hostname "$bad/sys/devices/system/node/node0/abs"
ln -s ../../../../../outside/pmu "$bad/sys/bus/event_source/devices/evil"
mkfifo "$bad/sys/devices/system/node/node0/fifo"
truncate -s 17M "$bad/proc/cpuinfo"
run timeout 20 "$TT" --sysfs-root "$bad" capture -o "$WORK/cap-bad"
is "planted links, a FIFO, a 17 MiB file: exit 0, six entries refused" \
	"$rc:$(grep -c '^6 entries refused: links out of the root' "$WORK/out")" "0:1"
is "nothing from outside the root in the copy, no link out of it, no FIFO, no cpuinfo" \
	"$(grep -rl SECRET "$WORK/cap-bad" | wc -l):$(links_out "$WORK/cap-bad"):$(find "$WORK/cap-bad" -type p | wc -l):$(ls "$WORK/cap-bad/proc" | tr "\n" " ")" \
	"0::0:sys vmstat "

# Bad input: the target exists, no -o, a root with no nodes.
expect_bad_input 2 "'$WORK/live' exists: capture makes a new folder" - "$TT" capture -o "$WORK/live"
expect_bad_input 2 "'$WORK/spr.tar.gz' exists" - "$TT" capture -o "$WORK/spr.tar.gz"
expect_bad_input 2 "this command needs --output" - "$TT" capture
mkdir -p "$WORK/empty"
expect_bad_input 3 "no /sys/devices/system/node under '$WORK/empty'" "$WORK/empty" \
	"$TT" --sysfs-root "$WORK/empty" capture -o "$WORK/never"
is "and nothing made" "$(ls "$WORK" | grep -c never)" 0

done_testing
