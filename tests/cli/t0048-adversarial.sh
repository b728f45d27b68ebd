#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Odd input an adversarial tester found, each refused (exit 2, the input
# named, nothing written) or handled as documented.
. "$(dirname "$0")/lib.sh"

export TIERTUNE_DB="$WORK/adv.db"
M="$TT_TOP/model/machines"

# --max-latency below 1 ns: no memory's loaded latency is under a
# nanosecond, and the bound was shown rounded ('within 0 ns') while a search
# ran to fail. Refused before anything runs.
fx=$(copy_fixture spr-ddr5-4cxl)
B=("$TT" --sysfs-root "$fx" auto --source-node 0 --model "$M/spr-ddr5-4cxl.json" --budget 20)
expect_bad_input 2 "option '--max-latency' value '1e-300' out of range (1-1000000)" "$fx" \
	"${B[@]}" --max-latency 1e-300
expect_bad_input 2 "option '--max-latency' value '0.4' out of range (1-1000000)" "$fx" \
	"${B[@]}" --max-latency 0.4
run "${B[@]}" --max-latency 1 --no-record
is "--max-latency 1: accepted, nothing within it (exit 1), the bound shown as given" \
	"$rc:$(grep -c 'latency bound of 1 ns' "$WORK/err")" "1:1"

# capture --model-from a report whose numbers a cast wrapped or that names a
# node twice: 2^32 was read as source node 0, 2^32+2 threads as 2, node 2^40
# as node 0, and a node listed twice took the second's figures; each wrote a
# model of the wrong machine and exited 0. Now each is refused, no folder.
REP="$TT_TOP/tests/fixtures/reports/qemu-3node-hmat.auto.json"
qfx=$(copy_fixture qemu-3node-hmat)
bad_report() { # name python-statement-on-j
	python3 -c "import json,sys; j=json.load(open(sys.argv[1])); $2; json.dump(j, open(sys.argv[2], 'w'))" \
		"$REP" "$WORK/$1.json"
}
bad_report src32 "j['source_node'] = 2**32"
bad_report thr32 "j['threads'] = 2**32 + 2"
bad_report node40 "j['profile']['nodes'][0]['node'] = 2**40"
bad_report twice "j['profile']['nodes'][1]['node'] = 0"
for c in "src32:names no mix kernel, thread count or source node" \
	"thr32:names no mix kernel, thread count or source node" \
	"node40:profiles node 1099511627776, which the machine captured lacks" \
	"twice:profiles node 0 twice"; do
	expect_bad_input 2 "auto report '$WORK/${c%%:*}.json' ${c#*:}" "$qfx" \
		"$TT" --sysfs-root "$qfx" capture -o "$WORK/cap-${c%%:*}" --model-from "$WORK/${c%%:*}.json"
	is "${c%%:*}: no capture folder left" "$(ls -d "$WORK/cap-${c%%:*}" 2>/dev/null)" ""
done
check "the report as written: captured with its model" \
	"$TT" --sysfs-root "$qfx" capture -o "$WORK/cap-good" --model-from "$REP"
is "its model: source node 0, 2 threads" \
	"$(json "[(s['node'], s['threads']) for s in j['sources']]" <"$WORK/cap-good/model.json")" "[(0, 2)]"

# plot -o naming a folder or a device: the files are PREFIX.png, .svg, .dat
# and .gp beside it, so '-o /dev/null' wrote four files into /dev. Refused,
# nothing written (a FIFO and a folder here stand in for /dev/null).
check "a run to plot" "${B[@]}" --seed 5
mkfifo "$WORK/fifo"
mkdir "$WORK/plots"
expect_bad_input 2 "--output '$WORK/fifo' is a device or FIFO, not a path prefix" - \
	"$TT" plot 1 -o "$WORK/fifo"
expect_bad_input 2 "--output '$WORK/plots' is a folder, not a path prefix" - \
	"$TT" plot 1 -o "$WORK/plots"
is "nothing beside them" "$(ls "$WORK" | grep -cE '^(fifo|plots)[.-]')" 0
# A report given through a symbolic link: input files are opened without
# following one (core/state.c's tt_open_regular), and the refusal said only
# "Too many levels of symbolic links". It says what the path is, and how on.
ln -s "$REP" "$WORK/link.json"
expect_bad_input 2 "cannot read auto report '$WORK/link.json': it is a symbolic link" "$qfx" \
	"$TT" --sysfs-root "$qfx" capture -o "$WORK/cap-link" --model-from "$WORK/link.json"
is "... with the way on, and no folder" \
	"$(grep -c "readlink -f '$WORK/link.json'" "$WORK/err"):$([ -e "$WORK/cap-link" ] && echo left || echo none)" "1:none"
# Small words (issue 45). An unparsable TIERTUNE_LOCK_WAIT was silently
# the default 30 s (the boot unit's 1800 mistyped would give up early):
# refused, naming it, nothing written.
lfx=$(copy_fixture spr-ddr5-2cxl)
for v in 5m -1 86401; do
	expect_bad_input 2 "TIERTUNE_LOCK_WAIT '$v' is not a number of seconds (0-86400)" "$lfx" \
		env TIERTUNE_LOCK_WAIT=$v TIERTUNE_STATE_DIR="$WORK/lock-state" "$TT" --sysfs-root "$lfx" \
		apply --weights 0:5,1:2
done
run env TIERTUNE_LOCK_WAIT= TIERTUNE_STATE_DIR="$WORK/lock-state" "$TT" --sysfs-root "$lfx" apply --weights 0:5,1:2
is "TIERTUNE_LOCK_WAIT empty: the default, applied" "$rc:$(cat "$lfx/sys/kernel/mm/mempolicy/weighted_interleave/node0")" "0:5"
# A zombie (exited, not reaped: no mm, like a kernel thread) was called
# "a kernel thread": a captured tree's, and a live one made here (a shell
# that execs into sleep never reaps its first child).
zfx=$(copy_fixture qemu-3node-hmat)
mkdir -p "$zfx/proc/4300"
printf 'Name:\tworker\nState:\tZ (zombie)\nUid:\t0\t0\t0\t0\n' >"$zfx/proc/4300/status"
: >"$zfx/proc/4300/numa_maps"
expect_bad_input 2 "process 4300 ('worker') has exited (a zombie its parent has not reaped): it has no memory left to move" \
	"$zfx" "$TT" --sysfs-root "$zfx" rebalance --pid 4300 --weights 0:1
sh -c 'sleep 0.1 & exec sleep 30' &
zparent=$!
zpid=
for _ in $(seq 50); do
	zpid=$(pgrep -P $zparent)
	[ -n "$zpid" ] && grep -q '^State:[[:space:]]*Z' "/proc/$zpid/status" 2>/dev/null && break
	sleep 0.1
done
if [ -n "$zpid" ] && grep -q '^State:[[:space:]]*Z' "/proc/$zpid/status" 2>/dev/null; then
	expect_bad_input 2 "process $zpid ('sleep') has exited (a zombie its parent has not reaped)" - \
		"$TT" rebalance --pid "$zpid" --weights "$(local_node):1"
else
	skip "no zombie came of the shell's child in 5 s"
fi
kill $zparent 2>/dev/null
wait $zparent 2>/dev/null
# Root refused by move_pages (here: root of a user namespace of its own,
# the process nobody's outside it) was told to "run as root".
if can_drop && unshare -Ur true 2>/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups sleep 30 &
	npid=$!
	sleep 0.3
	run unshare -Ur "$TT" rebalance --pid $npid --weights "$(local_node):1" --move
	is "root refused by the kernel: exit 3, a hint for root, not 'run as root'" \
		"$rc:$(grep -c 'not permitted to move the pages of process' "$WORK/err"):$(grep -c 'as root here, it is refused by a security module' "$WORK/err"):$(grep -c 'run as root' "$WORK/err")" \
		"3:1:1:0"
	kill $npid 2>/dev/null
	wait $npid 2>/dev/null
else
	skip "a process refused to root needs root, setpriv and unshare -Ur"
fi
done_testing
