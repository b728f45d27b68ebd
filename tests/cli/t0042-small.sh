#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 23's small items, each at its cause: follow-up commands that repeat
# --db; export --latest in a merged database takes this hardware's run; no
# user output naming files outside the repository; make demo's log plain
# (no terminal escapes, no diff loop lines); tiertop's message naming the
# file it wrote under --sysfs-root; the man page's --json paragraph true of
# runs.
. "$(dirname "$0")/lib.sh"

WI=sys/kernel/mm/mempolicy/weighted_interleave

# auto --db F prints follow-ups that name F; run as printed, they work.
db="$WORK/my runs.db"
# (Xeon Max with CXL, one socket: the two-socket flat model's weights cost
# the other socket's tasks over every node, issue 43, and are no weights.)
run "$TT" --db "$db" auto --source-node 0 --model "$TT_TOP/model/machines/xeon-max-hbm-cxl.json" --budget 60
id=$(sed -n 's/^recorded as run \([0-9]*\).*/\1/p' "$WORK/out")
is "auto --db F: the follow-ups name the database" \
	"$rc:$(grep -c "^  tiertune --db '$db' --sysfs-root DIR apply --run $id " "$WORK/out"):$(grep -c "^  tiertune --db '$db' --sysfs-root DIR export --run $id " "$WORK/out")" \
	"0:1:1"
cmd=$(grep "^  tiertune --db .* export --run $id " "$WORK/out" | sed -e 's/^  tiertune //' -e 's/ --format .*//')
hbm=$(copy_fixture xeon-max-hbm-cxl)
eval "set -- ${cmd//DIR/\"\$hbm\"}"
run "$TT" "$@" --format shell
is "the printed export command, run as printed (DIR a copy), exports run $id" \
	"$rc:$(grep -c "^# SIMULATED: tiertune recommendation from run $id " "$WORK/out")" "0:1"
run "$TT" --db "$db" auto --source-node 0 --model "$TT_TOP/model/machines/spr-ddr5-2cxl.json" --budget 20
is "a run that keeps auto mode: its show command names the database" \
	"$rc:$(grep -c "^  tiertune --db '$db' show [0-9]*$" "$WORK/out")" "0:1"

# A merged database (runs at 1% model noise, so that each recommends
# weights: at 3% and a budget of 40 the gains are within noise): another
# host's newer run is not this root's; export
# --latest takes this hardware's newest. (One-socket machines: a single
# source's weights on Genoa cost the other socket, and are no weights.)
"$TT" --db "$WORK/genoa.db" auto --source-node 0 --model "$TT_TOP/model/machines/clx-ddr4-pmem.json" --budget 40 --noise 0.01 >/dev/null 2>&1
sleep 1.1
"$TT" --db "$WORK/hbm.db" auto --source-node 0 --model "$TT_TOP/model/machines/xeon-max-hbm-cxl.json" --budget 40 --noise 0.01 >/dev/null 2>&1
"$TT" --db "$WORK/genoa.db" db merge "$WORK/hbm.db" >/dev/null
genoa=$(copy_fixture clx-ddr4-pmem)
run "$TT" --db "$WORK/genoa.db" --sysfs-root "$genoa" export --latest --format shell
is "export --latest after db merge: this hardware's run (1), not the newer one of another (2)" \
	"$rc:$(grep -c '^# SIMULATED: tiertune recommendation from run 1 on clx-pmem-01 ' "$WORK/out")" "0:1"
run "$TT" --db "$WORK/genoa.db" --sysfs-root "$hbm" export --latest --format shell
is "and on the other hardware, its own run (2)" \
	"$rc:$(grep -c '^# SIMULATED: tiertune recommendation from run 2 on xmax-cxl-01 ' "$WORK/out")" "0:1"
spr=$(copy_fixture spr-ddr5-2cxl)
expect_bad_input 2 "is from host 'xmax-cxl-01'" "$spr" \
	"$TT" --db "$WORK/genoa.db" --sysfs-root "$spr" export --latest --format shell

# User output names no file outside the repository (the seeds, STYLE.md).
rfc=$(copy_fixture rfc-4node)
out=$("$TT" --sysfs-root "$rfc" topo 2>&1
	"$TT" --sysfs-root "$rfc" topo --json 2>&1
	"$TT" --sysfs-root "$spr" export --weights 0:5,1:2,2:1 --source-node 0 --format shell --interface both 2>&1
	for c in $("$TT" --completion-helper); do "$TT" "$c" --help 2>&1; done
	cat "$TT_TOP/README.md" "$TT_TOP/docs/tiertune.1" "$TT_TOP/docs/json.md")
is "no user output names the seed files or ../shared/" \
	"$(grep -ciE 'seeds? 0[0-9]{2}|\.\./shared/|STYLE\.md' <<<"$out")" 0

# tiertop's w under --sysfs-root: the message names the file it wrote, the
# copy's, not /sys's.
top=$(copy_fixture spr-ddr5-2cxl)
run "$TT_BUILD/tests/top-edit" "$top" w 0:6
is "tiertop's message names the copy's file it wrote" \
	"$rc:$(grep -c "^wrote $top/$WI/node0, " "$WORK/out")" "0:1"

# The man page on --json: every command's document is an object opening
# with schema_version, runs' too, and the page says no command's is a list.
run "$TT" --db "$WORK/genoa.db" runs --json
is "runs --json: an object, schema_version first, its runs a list" \
	"$rc:$(json 'list(j)[0] + " " + type(j["runs"]).__name__' <"$WORK/out")" "0:schema_version list"
is "the man page does not call any --json output a list" \
	"$(awk '/^\.B \\-\\-json/ {on = 1; next} /^\.TP/ {on = 0} on' "$TT_TOP/docs/tiertune.1" | grep -c 'still a list')" 0

# make demo into a log: no terminal escapes, no "recursive directory loop"
# from diff on the fixture's HMAT links, and it ends well.
run env -C "$TT_TOP" bash tests/demo.sh "$TT_BUILD"
is "make demo to a log: exit 0, no escape sequence, no directory loop" \
	"$rc:$(cat "$WORK/out" "$WORK/err" | LC_ALL=C grep -c $'\x1b'):$(grep -c 'recursive directory loop' "$WORK/err"):$(grep -c '(the copy is byte for byte as it was)' "$WORK/out")" \
	"0:0:0:1"

# auto --no-record on the RFC's interface: the apply command it prints names
# tier weights and the source node, and works as printed (it said
# 'apply --weights 4:32,22:1': tiers read as nodes).
rfc4=$(copy_fixture rfc-4node)
run "$TT" --sysfs-root "$rfc4" auto --source-node 0 --model "$TT_TOP/model/machines/2s-genoa-cxl.json" --noise 0.01 --no-record
cmd=$(sed -n 's/^not recorded (--no-record); to apply: tiertune //p' "$WORK/out")
is "auto --no-record on the RFC: the printed apply names tier weights and the source" \
	"$rc:$(grep -c -- '--tier-weights [0-9:,]* --source-node 0$' <<<"$cmd")" "0:1"
eval "set -- $cmd"
run "$TT" "$@"
is "... and run as printed it writes them" "$rc:$(grep -c 'values\? written and read back' "$WORK/out")" "0:1"
done_testing
