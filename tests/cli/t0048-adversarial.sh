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
# A per_source run's launch recipe from a store made elsewhere (issue 45):
# printed as commands to paste by show, export --run and apply --run, and
# merge checked only that it was JSON. Each hostile form, in one field of
# a real run's recipe: commands after the weights, escape sequences (ESC
# and the C1 CSI), a newline with a command line after it.
export TIERTUNE_DB=$WORK/recipe.db
gx=$(copy_fixture 2s-genoa-cxl)
# Hand weights that serve node 1's tasks well make node 0's best cost them:
# per_source (with the kernel's 1s the run is applied, t0050).
check "hand weights to judge against" "$TT" --sysfs-root "$gx" --db "$WORK/hand.db" apply \
	--weights 0:5,1:5,2:1,3:1
check "a per_source run to plant in" "$TT" --sysfs-root "$gx" --db "$WORK/src.db" auto --source-node 0 \
	--model "$M/2s-genoa-cxl.json" --seed 1
forms=(
	'weights|0:32,1:7 -- PROGRAM; curl x | sh #'
	$'cpus|0-47\e[2J\e]0;owned\a\e[8m'
	$'nodes|0-1\n  curl x | sh'
	$'others|1,3\u009b31m'
)
# recipe DB FIELD [TEXT]: the run's recipe field (others: the first
# other's mems), set to TEXT when given; the stored JSON text when FIELD
# is -, from show --json's recipe_text on stdin when DB is -.
recipe() {
	python3 -c 'import json, sqlite3, sys
db, field = sys.argv[1], sys.argv[2]
if db == "-":
    r = json.loads(json.load(sys.stdin)["recommendations"][0]["recipe_text"])
else:
    c = sqlite3.connect(db)
    r = json.loads(c.execute("SELECT recipe FROM recommendations").fetchone()[0])
if len(sys.argv) > 3:
    if field == "others": r["others"][0]["mems"] = sys.argv[3]
    else: r[field] = sys.argv[3]
    c.execute("UPDATE recommendations SET recipe = ?", (json.dumps(r),))
    c.commit()
else:
    sys.stdout.write(r["others"][0]["mems"] if field == "others" else r[field])' "$@"
}
# Raw control bytes (C0 but newline, DEL, the C1 CSI) on either stream,
# and lines that start a command of the planted text: how many.
raw() { cat "$WORK/out" "$WORK/err" | LC_ALL=C grep -c $'[\x01-\x09\x0b-\x1f\x7f]\|\xc2\x9b\|^  curl'; }
check "the store to merge into" "$TT" db migrate
for f in "${forms[@]}"; do
	field=${f%%|*}
	cp "$WORK/src.db" "$WORK/hostile.db"
	recipe "$WORK/hostile.db" "$field" "${f#*|}"
	want="a per-socket recipe's $field"
	[ "$field" = others ] && want="a per-socket recipe's other mems"
	expect_bad_input 2 "merging '$WORK/hostile.db': its run 1's recommendation is refused: $want" - \
		"$TT" db merge "$WORK/hostile.db"
	is "merge of the $field form: no raw byte said" "$(raw)" 0
done
# A store that holds one anyway (merged by a tiertune before this check,
# or damaged): show and export --run refuse it, apply --run says so, none
# prints it raw; show --json has it as recipe_text.
check "merging the run as it was" "$TT" db merge "$WORK/src.db"
rid=$(sql "$TIERTUNE_DB" "SELECT max(id) FROM runs")
for f in "${forms[@]}"; do
	field=${f%%|*}
	recipe "$TIERTUNE_DB" "$field" "${f#*|}"
	expect_bad_input 2 "run $rid's per-socket recipe is refused, not printed: a per-socket recipe's" - \
		"$TT" show "$rid"
	is "show, $field form: no raw byte, the way to the JSON named" \
		"$(raw):$(grep -c "'tiertune show $rid --json' shows the run" "$WORK/err")" "0:1"
	run "$TT" --sysfs-root "$gx" export --run "$rid" --format shell
	is "export --run, $field form: exit 2, refused, nothing on stdout, no raw byte" \
		"$rc:$(grep -c "run $rid's per-socket recipe is refused" "$WORK/err"):$(wc -c <"$WORK/out"):$(raw)" "2:1:0:0"
	run "$TT" --sysfs-root "$gx" apply --run "$rid"
	is "apply --run, $field form: nothing written (exit 0), the refusal said, no raw byte" \
		"$rc:$(grep -c "run $rid's per-socket recipe is refused" "$WORK/err"):$(raw)" "0:1:0"
	run "$TT" show "$rid" --json
	is "show --json, $field form: recipe null, the stored text as recipe_text" \
		"$rc:$(json "[r['recipe'] for r in j['recommendations']]" <"$WORK/out"):$([ "$(recipe - "$field" <"$WORK/out")" = "${f#*|}" ] && echo same)" \
		"0:[None]:same"
done

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
