#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# What auto judges its advice by (issue 33 items 2, 3, 6, 8 and issue 34),
# on the models and fixture copies: the whole machine (upstream weights
# are global, so a single source's weights are measured from every other
# CPU node, and none are recommended that cost one beyond the noise); the
# headline against what the machine runs now, with local DRAM and 1:1
# beside it and the cost of leaving auto mode; the baselines as the kernel
# would run them (auto mode's table over every memory node, all 1 without
# HMAT; the weights set by hand; the fast tier alone); a keep-auto verdict
# exported as a profile that turns auto mode on; --apply's report ending
# with the writes it makes.
. "$(dirname "$0")/lib.sh"

export TIERTUNE_DB="$WORK/judge.db"
M="$TT_TOP/model/machines"
VOC=("$TT_TOP/tests/cli/json-vocabulary.py" "$TT_TOP/docs/json.md")
WSTR="','.join('%s:%s' % (k, d[k]) for k in sorted(d, key=int))"

# --- item 2 (issue 33), issue 43 item 1: the whole machine judged ----------
# Xeon Max flat, node 0, hand weights 0:1,1:1,2:3,3:3: its best (0:11,2:28)
# measured, written, from every CPU node for tasks interleaving over every
# memory node and over their own socket's nodes, each against what those
# tasks get now. A node-1 task over all four nodes goes from 1:1:3:3 to
# 11:1:28:3 (the model: 198 to 118 GB/s, -40%); before, node 1 was judged
# interleaving over nodes 0 and 2 alone, none of its tasks' masks, and the
# weights were applied ("better" there). Node 1 over its own nodes 1,3 keeps
# its weights (apply writes only nodes 0 and 2): the same, not measured.
xx=$(copy_fixture xeon-max-hbm-flat)
G=("$TT" --sysfs-root "$xx" auto --source-node 0 --model "$M/xeon-max-hbm-flat.json" --seed 1)
run "${G[@]}" --no-record --json
is "xmax node 0: every source judged on its own masks, against what those tasks get now" \
	"$rc:$(json "[(o['source_node'], o['nodes'], o['now_from'], o['verdict']) for o in j['other_sources']]" <"$WORK/out")" \
	"0:[(0, [0, 2], 'weights set now', 'within noise'), (1, [0, 1, 2, 3], 'weights set now', 'worse'), (1, [1, 3], 'weights set now', 'same')]"
# (The best is 0:13,2:32 since the comparison with now takes more of the
# budget, issue 43 item 4; 0:11,2:28 before: the same shares within 1%.)
is "... node 1 over every node: the best's 0 and 2 with 1:1, 3:3 kept, against 1:1:3:3, 30-50% less" \
	"$(json "[(o['weights_after'] == dict(o['now_weights'], **j['recommendation']['weights']), o['now_weights'], 0.5 < o['score_mean'] / o['now_score_mean'] < 0.7, o['gain_ci_high'] < 0) for o in j['other_sources'] if o['nodes'] == [0, 1, 2, 3]]" <"$WORK/out")" \
	"[(True, {'0': 1, '1': 1, '2': 3, '3': 3}, True, True)]"
is "... so no global weights: action per_source, nothing apply would write" \
	"$(json "j['recommendation']['action'], j['apply_writes'], j['apply_interface']" <"$WORK/out")" \
	"per_source [] None"
python3 "${VOC[@]}" auto <"$WORK/out" >"$WORK/voc" 2>&1
is "the report with other_sources fits docs/json.md" "$(cat "$WORK/voc")" ""
run "${G[@]}" --no-record
is "the text report: node 1's line over nodes 0-3, then what to do instead" \
	"$rc:$(grep -c '^  source node 1 over nodes 0-3: .* GB/s under 0:[0-9]*,1:1,2:[0-9]*,3:3, .* now (weights set now 0:1,1:1,2:3,3:3), -.* worse; its local DRAM' "$WORK/out"):$(grep -c '^SIMULATED recommendation for source node 0: no global weights' "$WORK/out"):$(grep -c '^  tiertune auto --all-sources --nodes local$' "$WORK/out")" \
	"0:1:1:1"
# (Its words, the numactl line by the host's numactl: t0041.)
is "... a per-socket launch recipe: tiertune run, node 1 on its local memory, cpuset.mems" \
	"$(grep -c '^  tiertune run --source-node 0 --weights 0:[0-9,:]* --apply -- PROGRAM$' "$WORK/out"):$(grep -c '^  numactl --cpunodebind=1 --membind=1,3 -- PROGRAM$' "$WORK/out"):$(grep -c "^cgroup's cpuset.mems=1,3):$" "$WORK/out")" \
	"1:1:1"
is "... and a service's drop-in from export --format systemd" \
	"$(grep -c '^  tiertune export --weights 0:[0-9,:]* --source-node 0 --format systemd -- PROGRAM$' "$WORK/out")" \
	"1"
before=$(tree_sum "$xx")
run "${G[@]}" --apply
is "--apply sets no weights: exit 0, says why, the tree as it was" \
	"$rc:$(grep -c '^--apply: nothing to write: the weights are global, and another source loses' "$WORK/out"):$([ "$(tree_sum "$xx")" = "$before" ] && echo same)" \
	"0:1:same"
runid=$(sql "$TIERTUNE_DB" "SELECT max(id) FROM runs" | tail -1)
# Recorded as what it is (schema v6): per_source with the report's recipe.
# apply --run of it does what the run advises for the global weights, leave
# them: exit 0 as for keep_auto and bind_local, said plainly, the recipe
# after; --json names the action for a script.
is "... its run is recorded as per_source with the recipe (schema v6)" \
	"$(sql "$TIERTUNE_DB" "SELECT action, json_extract(recipe, '\$.cpus'), json_extract(recipe, '\$.others[0].mems') FROM recommendations WHERE run_id = $runid" | tail -1)" \
	"per_source|0-55|1,3"
run "$TT" --sysfs-root "$xx" apply --run "$runid"
is "... apply --run: exit 0, nothing written, says so plainly, then the recipe" \
	"$rc:$([ "$(tree_sum "$xx")" = "$before" ] && echo same):$(grep -c "^run $runid recommends no global weights for source node 0: nothing written$" "$WORK/out"):$(grep -c '^  tiertune run --source-node 0 --weights 0:[0-9,:]* --apply -- PROGRAM$' "$WORK/out"):$(grep -c '^  numactl --cpunodebind=1 --membind=1,3 -- PROGRAM$' "$WORK/out")" \
	"0:same:1:1:1"
run "$TT" --sysfs-root "$xx" apply --run "$runid" --json
is "... apply --run --json: recommended_action per_source, nothing written" \
	"$rc:$(json "j['recommended_action'], j['source_node'], j['written'], j['writes']" <"$WORK/out")" \
	"0:per_source 0 0 []"
run "$TT" --sysfs-root "$xx" export --run "$runid" --format shell
is "... export --run: no weights to export (exit 2), what it recommends and the recipe" \
	"$rc:$(grep -c "run $runid recommends no global weights (its best weights cost another CPU node beyond the noise: a per-socket launch instead) for source node 0: no weights to export" "$WORK/err"):$(grep -c '^  tiertune run --source-node 0 --weights 0:[0-9,:]* --apply -- PROGRAM$' "$WORK/err"):$(wc -c <"$WORK/out")" \
	"2:1:1:0"
run "$TT" show "$runid"
is "... show: the row says per_source, then the recipe and that apply writes nothing" \
	"$rc:$(grep -c ' per_source, ' "$WORK/out"):$(grep -c '^  tiertune auto --all-sources --nodes local$' "$WORK/out"):$(grep -c "^('apply --run $runid' writes nothing for it)$" "$WORK/out")" \
	"0:1:1:1"
# Where no source's tasks lose beyond the noise the weights stand: Genoa,
# node 0, no weights set (the kernel's 1s): its best serves every mask's
# interleaving tasks better than the 1s they get now. (Before, node 1 was
# judged against its local DRAM, which no interleaving task runs: per_source.)
gx=$(copy_fixture 2s-genoa-cxl)
run "$TT" --sysfs-root "$gx" auto --source-node 0 --model "$M/2s-genoa-cxl.json" --seed 1 --no-record --json
is "genoa node 0: node 0 over its socket, node 1 over every node and its own; no loss: apply" \
	"$rc:$(json "[(o['source_node'], o['nodes'], o['now_from'], o['verdict'] in ('within noise', 'better')) for o in j['other_sources']], j['recommendation']['action']" <"$WORK/out")" \
	"0:[(0, [0, 2], 'kernel default 1s', True), (1, [0, 1, 2, 3], 'kernel default 1s', True), (1, [1, 3], 'kernel default 1s', True)] apply"
run "$TT" auto --source-node 0 --model "$M/spr-ddr5-4cxl.json" --seed 1 --no-record --json
is "one CPU node: no other source, other_sources null" \
	"$rc:$(json "j['other_sources']" <"$WORK/out")" "0:None"

# --- item 3: the headline against what the machine runs now ---------------
# Xeon Max with CXL runs the kernel's auto mode: the headline is over it.
run "$TT" auto --source-node 0 --model "$M/xeon-max-hbm-cxl.json" --seed 1 --no-record --json
is "xeon max cxl (auto mode on): the headline is over auto mode, which applying turns off" \
	"$rc:$(json "j['against_now']['over'], j['against_now']['verdict'], j['against_now']['gain'] == [b for b in j['baselines'] if b['name'] == 'auto'][0]['gain'], j['leaves_auto_mode']" <"$WORK/out")" \
	"0:auto better True True"
run "$TT" auto --source-node 0 --model "$M/xeon-max-hbm-cxl.json" --seed 1 --no-record
is "... the text: the gain over auto mode first, local DRAM and 1:1 beside it, the cost of leaving auto mode" \
	"$rc:$(grep -c '^SIMULATED recommendation for source node 0: 0:[0-9,:]*, +[0-9.]*% (95% CI .*) over what the machine runs now (the kernel.s auto mode)$' "$WORK/out"):$(grep -c '^  beside it, vs local DRAM  *+' "$WORK/out"):$(grep -c '^  beside it, vs 1:1 interleave  *+' "$WORK/out"):$(grep -c "^applying turns the kernel's auto mode off: it stops re-deriving the weights when memory is hotplugged" "$WORK/out")" \
	"0:1:1:1:1"
# Xeon Max flat has weights set by hand (1 1 3 3, auto mode off).
run "$TT" auto --source-node 0 --model "$M/xeon-max-hbm-flat.json" --seed 1 --no-record --json
is "xeon max flat (weights set by hand): a baseline of them, the headline over it, auto mode not left" \
	"$rc:$(json "[$WSTR for d in [b['weights'] for b in j['baselines'] if b['name'] == 'now']], j['against_now']['over'], j['leaves_auto_mode']" <"$WORK/out")" \
	"0:['0:1,1:1,2:3,3:3'] now False"
# Genoa: a 6.12 kernel, every weight the kernel's 1: no one interleaves,
# a program runs under the default policy, local memory.
run "$TT" --sysfs-root "$gx" auto --source-node 1 --model "$M/2s-genoa-cxl.json" --seed 1 --no-record --json
is "genoa (no auto mode, weights never set): the headline is over local memory" \
	"$rc:$(json "j['against_now']['over'], [b['name'] for b in j['baselines']]" <"$WORK/out")" \
	"0:local ['local', '1:1', 'auto']"

# --- item 6: baselines the kernel would produce ---------------------------
# --nodes 0,2: the kernel's table is over every memory node (22:4:2:1:1
# on this tree); a policy over 0,2 uses 22:2, i.e. 11:1, not the formula
# on the two nodes alone (28:3).
run "$TT" auto --source-node 0 --nodes 0,2 --model "$M/spr-ddr5-4cxl.json" --seed 1 --no-record --json
is "--nodes 0,2: the auto baseline is the kernel's table over all nodes, restricted" \
	"$rc:$(json "j['auto_from'], [$WSTR for d in [j['auto_weights']]][0], [$WSTR for d in [b['weights'] for b in j['baselines'] if b['name'] == 'auto']]" <"$WORK/out")" \
	"0:hmat 0:22,1:4,2:2,3:1,4:1 ['0:11,2:1']"
# No HMAT: the kernel has no bandwidth table and every weight is 1, what
# ever the profile measured.
run "$TT" --sysfs-root "$gx" auto --source-node 1 --nodes 0,1 --model "$M/2s-genoa-cxl.json" --seed 1 --no-record --json
is "no HMAT: the auto baseline is 1:1, labelled no_hmat" \
	"$rc:$(json "j['auto_from'], [$WSTR for d in [b['weights'] for b in j['baselines'] if b['name'] == 'auto']]" <"$WORK/out")" \
	"0:no_hmat ['0:1,1:1']"
run "$TT" --sysfs-root "$gx" auto --source-node 1 --nodes 0,1 --model "$M/2s-genoa-cxl.json" --seed 1 --no-record
is "... and the text says so" \
	"$(grep -c '^kernel auto mode: no HMAT/CDAT bandwidth here, so the kernel holds 1 for every node' "$WORK/out")" "1"
# A tier faster than the source's DRAM: the fast tier alone (local HBM).
run "$TT" auto --source-node 0 --model "$M/xeon-max-hbm-cxl.json" --seed 1 --no-record --json
is "xeon max cxl: a fast-tier baseline, HBM (node 1) alone" \
	"$rc:$(json "[$WSTR for d in [b['weights'] for b in j['baselines'] if b['name'] == 'fast']]" <"$WORK/out")" \
	"0:['1:1']"
run "$TT" auto --source-node 0 --model "$M/spr-ddr5-2cxl.json" --seed 1 --no-record --json
is "spr with CXL: nothing faster than DRAM, no fast baseline" \
	"$rc:$(json "[b['name'] for b in j['baselines']]" <"$WORK/out")" "0:['local', '1:1', 'auto']"

# --- item 8: a keep-auto verdict exported ---------------------------------
sx=$(copy_fixture spr-ddr5-2cxl)
run "$TT" --sysfs-root "$sx" auto --source-node 0 --model "$M/spr-ddr5-2cxl.json" --seed 1
keep=$(sql "$TIERTUNE_DB" "SELECT max(id) FROM runs" | tail -1)
is "spr with CXL, seed 1: the run keeps auto mode" \
	"$rc:$(sql "$TIERTUNE_DB" "SELECT action FROM recommendations WHERE run_id = $keep" | tail -1)" \
	"0:keep_auto"
run "$TT" --sysfs-root "$sx" export --run "$keep" --format json -o "$WORK/keep.json"
is "export --format json of it: a profile whose recommendation is keep_auto" \
	"$rc:$(json "[(r['source_node'], r['action'], r['weights']) for r in j['recommendations']]" <"$WORK/keep.json")" \
	"0:[(0, 'keep_auto', None)]"
python3 "${VOC[@]}" export <"$WORK/keep.json" >"$WORK/voc" 2>&1
is "... which fits docs/json.md" "$(cat "$WORK/voc")" ""
W="$sx/sys/kernel/mm/mempolicy/weighted_interleave"
run "$TT" --sysfs-root "$sx" apply --weights 0:3,1:1,2:1
run "$TT" --sysfs-root "$sx" apply --profile "$WORK/keep.json"
is "apply --profile (the boot unit) on a tree with weights set: auto mode on, the kernel's weights back" \
	"$rc:$(cat "$W/auto" "$W/node0" "$W/node1" "$W/node2" | tr '\n' ' ')" "0:true 25 3 3 "
run "$TT" --sysfs-root "$sx" apply --profile "$WORK/keep.json"
is "... and again: already as wanted, nothing written" \
	"$rc:$(grep -c 'nothing to write' "$WORK/out" "$WORK/err" | awk -F: '{s += $2} END {print s}')" "0:1"
expect_bad_input 2 "no weights to export" "$sx" "$TT" --sysfs-root "$sx" export --run "$keep" \
	--format shell
grep -q 'hint: --format json exports it as a profile that turns auto mode on' "$WORK/err"
tap $? "... the shell format refuses it, naming the profile that persists it"

# --- issue 34: --apply's report ends with the writes it makes -------------
hx=$(copy_fixture xeon-max-hbm-cxl)
run "$TT" --sysfs-root "$hx" auto --source-node 0 --model "$M/xeon-max-hbm-cxl.json" --seed 1 --apply
is "--apply: no 'apply would write' nor 'to use it: apply --run', the writes last" \
	"$rc:$(grep -c '^apply would write\|to use it:$\|apply --run' "$WORK/out"):$(grep -n '' "$WORK/out" | grep -- '--apply writes its weights now' | cut -d: -f1 | while read -r l; do awk -v l="$l" 'NR > l && /-> /' "$WORK/out" | wc -l; done):$(tail -2 "$WORK/out" | grep -c "written and read back")" \
	"0:0:2:1"
is "... and the weights are written" "$(cat "$hx/sys/kernel/mm/mempolicy/weighted_interleave/auto")" "false"

# --- issue 43 item 3: one action, one gain, against now --------------------
# spr-ddr5-4cxl, auto mode on, seed 6: the best beats auto mode (now) beyond
# the noise, and local DRAM is within the best's noise; before, the action
# was bind_local, giving up the gain over now. One rule: apply, and the
# headline gain is the one over now, the final comparison's. (Seed 5 until
# the comparison was planned for 3% over now, issue 43 item 4: the rounds
# it gives tell local DRAM apart there too.)
cx=$(copy_fixture spr-ddr5-4cxl)
C4=("$TT" --sysfs-root "$cx" auto --source-node 0 --model "$M/spr-ddr5-4cxl.json")
run "${C4[@]}" --seed 6 --no-record --json
is "4cxl seed 6: the best beats now beyond the noise, local within its noise: apply, gain over now" \
	"$rc:$(json "[b['verdict'] for b in j['baselines'] if b['name'] in ('auto', 'local')], j['recommendation']['action'], j['recommendation']['gain_over'], j['recommendation']['gain'] == [b['gain'] for b in j['baselines'] if b['name'] == 'auto'][0]" <"$WORK/out")" \
	"0:['within noise', 'better'] apply auto True"
# Hand weights at the optimum over nodes 0-2 (the model's 25:3:1, set by
# apply): no seed's best is a gain over them beyond the noise, so the
# action keeps them (before: apply, "within noise"), and nothing is
# written. (Until the comparison with now was planned for 3%, issue 43
# item 4, this was seed 1's applied weights over every node: its best
# leaves nodes 3 and 4 out, 1.5-2.5% over them on the model, which the
# rounds now tell.)
run "$TT" --sysfs-root "$cx" apply --weights 0:25,1:3,2:1
before_k=$(tree_sum "$cx")
run "${C4[@]}" --nodes 0,1,2 --seed 2 --json
is "weights set now at the optimum: keep_now, gain 0 over now, nothing apply would write" \
	"$rc:$(json "j['recommendation']['action'], j['recommendation']['gain'], j['recommendation']['gain_over'], j['apply_writes']" <"$WORK/out")" \
	"0:keep_now 0.0 now []"
krun=$(json "j['run']" <"$WORK/out")
run "$TT" --sysfs-root "$cx" apply --run "$krun"
is "apply --run of a keep_now run: nothing written, said" \
	"$rc:$(grep -c 'keeping the weights set now' "$WORK/out"):$(tree_sum "$cx")" "0:1:$before_k"
# A real run's budget (60) cannot tell 3%: the keep says so, and how many
# more measurements would decide.
run "${C4[@]}" --nodes 0,1,2 --seed 3 --budget 60 --no-record
is "at 60 the text says keep the weights set now, and that the budget could not decide (issue 43 item 4)" \
	"$rc:$(grep -c '^SIMULATED recommendation for source node 0: keep the weights set now; inconclusive: the best measured, 0:[0-9:,]*, [-+][0-9.]*% (95% CI [-+][0-9.]*%..+[0-9.]*%) over them: about [0-9]* more measurements would decide (--budget [0-9]*)$' "$WORK/out")" "0:1"

# --- issue 43 item 1: --all-sources judges its merged set -----------------
# Xeon Max flat with hand weights 2:2:1:1: each socket over its own nodes
# finds weights to apply, and their merge costs node 0's tasks over every
# node beyond the noise (the model: -8%): the set is refused, no
# merged_weights, --apply writes nothing. Before, the set was written.
rx=$(copy_fixture xeon-max-hbm-flat)
for nd in 0 1; do echo 2 >"$rx/sys/kernel/mm/mempolicy/weighted_interleave/node$nd"; done
for nd in 2 3; do echo 1 >"$rx/sys/kernel/mm/mempolicy/weighted_interleave/node$nd"; done
RA=("$TT" --sysfs-root "$rx" auto --all-sources --nodes local --model "$M/xeon-max-hbm-flat.json" --seed 1)
run "${RA[@]}" --no-record --json
is "--all-sources: a merged set that costs a socket is refused, no merged_weights" \
	"$rc:$(json "[s['recommendation']['action'] for s in j['sources']], j['merged_weights'], j['refused'].startswith('the merged weights cost source node 0') and j['apply_unavailable'] == j['refused']" <"$WORK/out")" \
	"0:['apply', 'apply'] None True"
before_r=$(tree_sum "$rx")
run "${RA[@]}" --no-record --apply
is "... --apply writes nothing and says why, SIMULATED as every line of a model's run" \
	"$rc:$(grep -c '^SIMULATED: --apply: nothing written: the merged weights cost source node 0' "$WORK/out"):$(tree_sum "$rx")" \
	"0:1:$before_r"
# The judging lines name the set measured, the merged one (nodes 0-3), not
# the last source's own weights (before: 1:..,3:.. on every line).
judged=$(grep -c 'the weights are global: measuring' "$WORK/err")
merged=$(grep -c '^SIMULATED: the weights are global: measuring 0:[0-9]*,1:[0-9]*,2:[0-9]*,3:[0-9]* from node' "$WORK/err")
is "... each judging line names the merged set it measures" "$((judged > 0)):$((judged - merged))" "1:0"
# Genoa --nodes local at a real run's budget (60): the comparison cannot
# tell DRAM and CXL's 2.5% from local DRAM, so both sockets bind to local
# memory and nothing is applicable: no merged_weights, apply_unavailable
# says why (before: the merged weights, and no apply_unavailable).
GA=("$TT" --sysfs-root "$gx" auto --all-sources --nodes local --model "$M/2s-genoa-cxl.json" --seed 1 --no-record --json)
run "${GA[@]}" --budget 60
is "--all-sources, every source keeps: no merged_weights, apply_unavailable names them" \
	"$rc:$(json "j['merged_weights'], j['apply_unavailable']" <"$WORK/out")" \
	"0:None source node 0: bind_local; source node 1: bind_local"
# At a model run's 200 the comparison with now (local DRAM) is planned for
# 3% (issue 43 item 4) and tells the 2.5%: each socket applies, the set is
# written (before: 6 rounds, both bound to local memory, 2.5% left).
run "${GA[@]}"
is "... at 200: both sockets apply DRAM and CXL, the merged set is written" \
	"$rc:$(json "[s['recommendation']['action'] for s in j['sources']], sorted(j['merged_weights']), j.get('apply_unavailable')" <"$WORK/out")" \
	"0:['apply', 'apply'] ['0', '1', '2', '3'] None"

# --- issue 43 item 3: one gain, one baseline, everywhere --------------------
# The report's headline gain is the final comparison's over what the machine
# runs now (auto mode here); the record, show, the profile and the
# Prometheus gauge carry that figure and name that baseline (before: the
# gain over local DRAM, no baseline named).
gg=$(copy_fixture spr-ddr5-4cxl)
run "$TT" --sysfs-root "$gg" --db "$WORK/gain.db" auto --source-node 0 --model "$M/spr-ddr5-4cxl.json" --seed 1 --json
gain=$(json "'%.6g' % j['recommendation']['gain']" <"$WORK/out")
is "the report: apply, its gain over auto mode, the final comparison's" \
	"$rc:$(json "j['recommendation']['action'], j['recommendation']['gain_over'], j['recommendation']['gain'] == [b['gain'] for b in j['baselines'] if b['name'] == 'auto'][0]" <"$WORK/out")" \
	"0:apply auto True"
grun=$(json "j['run']" <"$WORK/out")
run "$TT" --sysfs-root "$gg" --db "$WORK/gain.db" show "$grun"
is "show: the same gain, over kernel auto mode" \
	"$rc:$(grep -cE "^ +0 upstream +0:[0-9:,]+ +\+$(python3 -c "print('%.1f' % (100 * $gain))")%  apply, gain over kernel auto mode, " "$WORK/out")" "0:1"
run "$TT" --sysfs-root "$gg" --db "$WORK/gain.db" export --run "$grun" --format json
is "the profile: the same gain, gain_over kernel auto mode" \
	"$rc:$(json "'%.6g' % j['recommendations'][0]['gain'], j['recommendations'][0]['gain_over']" <"$WORK/out")" \
	"0:$gain kernel auto mode"
run "$TT" --sysfs-root "$gg" --db "$WORK/gain.db" export --run "$grun" --format prometheus
is "the gauge: the same gain, labelled with its baseline" \
	"$rc:$(grep -c "^tiertune_gain_ratio{source_node=\"0\",simulated=\"true\",baseline=\"kernel auto mode\"} $gain$" "$WORK/out")" "0:1"

done_testing
