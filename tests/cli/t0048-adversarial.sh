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
done_testing
