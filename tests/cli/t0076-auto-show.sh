#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# One display floor (issue 46 item 1): what auto prints while it runs is
# what show prints of the same run after, number for number and word for
# word (the unit, each vector's mean and 95% interval, the recommendation's
# figure, action, gain and baseline, what the gain column is called), on
# the models, seeds, objectives and actions below; and every figure of
# either is the stored SI value with the documented scale and decimals
# (auto-show.py scale), so that a wrong decimal in show's gain column or
# in the figure table fails here (before, one in show's gain column passed
# t0005, t0011, t0015, t0034 and t0050). Before, auto's table gave a
# latency's interval as a half width to first order (1265.2 ± 543.5 ns
# where show gave 885.0..2218.1) and a bandwidth's ends rounded apart from
# show's (73.80 ± 31.70 against 42.09..105.50).
. "$(dirname "$0")/lib.sh"

M="$TT_TOP/model/machines"
AS="$TT_TOP/tests/cli/auto-show.py"

# case NAME SETUP ARGS...: the report (text) and the same run as JSON, each
# recorded in a database of its own that holds the same runs before it
# (SETUP ran in the first, then copied), so that both are the same run id;
# show of every run the report recorded; both checks.
case_() {
	local name=$1 setup=$2 a=() runs=0 rcs r
	shift 2
	rm -f "$WORK/a.db" "$WORK/j.db"
	if [ "$setup" != - ]; then
		"$TT" --db "$WORK/a.db" "${@:1:$setup}" >/dev/null 2>&1
		shift "$setup"
		cp "$WORK/a.db" "$WORK/j.db"
		runs=$(sql "$WORK/a.db" "SELECT count(*) FROM runs" | tail -1)
	fi
	run "$TT" --db "$WORK/a.db" "$@"
	rcs=$rc
	cp "$WORK/out" "$WORK/$name.txt"
	run "$TT" --db "$WORK/j.db" "$@" --json
	rcs=$rcs$rc
	cp "$WORK/out" "$WORK/$name.json"
	for r in $(sql "$WORK/a.db" "SELECT id FROM runs WHERE id > $runs"); do
		run "$TT" --db "$WORK/a.db" show "$r"
		cp "$WORK/out" "$WORK/$name.s$r"
		run "$TT" --db "$WORK/a.db" show --json "$r"
		cp "$WORK/out" "$WORK/$name.j$r"
		a+=("$r" "$WORK/$name.s$r" "$WORK/$name.j$r")
	done
	is "$name: auto's report is show's, number for number" \
		"$rcs:$(python3 "$AS" same "$WORK/$name.txt" "${a[@]}" 2>&1)" "00:"
	is "$name: every figure of both at its documented scale and decimals" \
		"$(python3 "$AS" scale "$WORK/$name.txt" "$WORK/$name.json" "${a[@]}" 2>&1)" ""
}

# keep_auto: spr with CXL, seed 1 (auto mode on, nothing beats it).
case_ keep-auto - auto --source-node 0 --model "$M/spr-ddr5-2cxl.json" --seed 1
# apply over auto mode: Xeon Max with CXL, seeds 2 and 3.
case_ apply-hbm-2 - auto --source-node 0 --model "$M/xeon-max-hbm-cxl.json" --seed 2
case_ apply-hbm-3 - auto --source-node 0 --model "$M/xeon-max-hbm-cxl.json" --seed 3
# apply over local memory (no weights set): Genoa with CXL.
case_ apply-genoa - auto --source-node 0 --model "$M/2s-genoa-cxl.json" --seed 2
# per_source: two sockets, the best costs the other one.
case_ per-source - auto --source-node 0 --model "$M/2s-spr-6cxl.json" --seed 1
# latency (ns, its gain as the change of latency): bind_local on Genoa,
# and on the spr model at its own traffic.
gx=$(copy_fixture 2s-genoa-cxl)
case_ latency-bind - --sysfs-root "$gx" auto --source-node 0 --model "$M/2s-genoa-cxl.json" \
	--objective latency --traffic-rate 250 --threads 200 --seed 1
case_ latency-spr - auto --source-node 0 --model "$M/spr-ddr5-2cxl.json" --objective latency \
	--traffic-rate 100 --seed 2
# bandwidth under a latency bound.
case_ max-latency - auto --source-node 0 --model "$M/spr-ddr5-2cxl.json" --max-latency 200 --seed 3
# keep_now: the weights the seed-1 run applied, another seed's best no
# better beyond the noise.
cx=$(copy_fixture spr-ddr5-4cxl)
case_ keep-now 10 --sysfs-root "$cx" auto --source-node 0 --model "$M/spr-ddr5-4cxl.json" --seed 1 \
	--apply --sysfs-root "$cx" auto --source-node 0 --model "$M/spr-ddr5-4cxl.json" --seed 2
# every source: each source's section held to its own run; bind_local.
case_ all-sources - auto --all-sources --model "$M/2s-genoa-cxl.json" --seed 1
case_ all-local - auto --all-sources --nodes local --model "$M/2s-genoa-cxl.json" --seed 2
# sweep: the same table and recommendation.
case_ sweep - sweep --source-node 0 --model "$M/spr-ddr5-2cxl.json" --grid 4 --seed 1

done_testing
