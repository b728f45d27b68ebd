#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tiertune auto: nothing to interleave on a one-node machine (exit 3), a real
# run where there are two memory nodes, the model on a fixture copy (labelled
# simulated, recorded, recommended, exported, applied and restored byte for
# byte), its JSON against docs/json.md, and bad input refused with nothing
# written.
. "$(dirname "$0")/lib.sh"

export TIERTUNE_DB="$WORK/auto.db"
MODEL="$TT_TOP/model/machines/spr-ddr5-2cxl.json"
src=$(local_node)
nmem=$(node_list /sys/devices/system/node/has_memory | wc -l)

# The live machine, read first.
if [ "$nmem" -lt 2 ]; then
	expect_bad_input 3 "nothing to interleave" - "$TT" auto --source-node "$src"
	grep -qF -- "--model spr-ddr5-2cxl" "$WORK/err"
	tap $? "one memory node: the error suggests --model"
	expect_bad_input 3 "nothing to interleave" - "$TT" auto --source-node "$src" --no-profile
	skip "a real auto run needs two or more memory nodes; this machine has $nmem"
else
	skip "this machine has $nmem memory nodes: there is something to interleave"
	skip "the nothing-to-interleave hint does not arise here"
	skip "--no-profile changes nothing on a machine with something to interleave"
	run "$TT" auto --source-node "$src" --size 4M --allow-cache-resident --allow-unstable --repeat 2 --budget 30 --no-record --json
	is "real auto on $nmem memory nodes completes, not simulated" \
		"$rc:$(json 'j["simulated"], j["measurements"] + j["profile"]["measurements"] <= 30' <"$WORK/out" 2>&1)" "0:False True"
	is "real auto: the prior is the profile, every node measured from the source" \
		"$(json 'j["prior_from"], all(n["from"] == "measured" and n["bw_bytes_s"] > 0 and n["lat_ns"] > 0 for n in j["profile"]["nodes"]), j["profile"]["kernel_runs"] == 2 * len(j["nodes"])' <"$WORK/out")" \
		"profile True True"
fi

# --model alone: the topology is the tree the model names (its fixture, read
# only), whatever this host is, so the search runs the same on any host.
tree="$TT_TOP/tests/fixtures/sysfs/spr-ddr5-2cxl"
shipped=$(tree_sum "$tree")
run "$TT" auto --source-node 0 --model "$MODEL" --seed 7 --no-record
# Its kernel has auto mode on and nothing beats it beyond the noise: keep it.
is "--model without --sysfs-root: exit 0 on the model's own machine, which the report names" \
	"$rc:$(grep -c "^SIMULATED: every figure comes from model '.*spr-ddr5-2cxl.json', not a measurement; the topology is '$(realpath "$tree")'$" "$WORK/out"):$(grep -cE "^SIMULATED recommendation for source node 0: keep the kernel's auto mode; (inconclusive: )?the best measured, 0:[0-9]*,1:[0-9]*,2:[0-9]*" "$WORK/out")" \
	"0:1:1"
# (One CPU node: Genoa's node 0 weights cost node 1, t0050, and keep no weights.)
gtree="$TT_TOP/tests/fixtures/sysfs/xeon-max-hbm-cxl"
run "$TT" auto --source-node 0 --model "$TT_TOP/model/machines/xeon-max-hbm-cxl.json" --seed 7 --noise 0.01 --no-record
is "... and to try weights it recommends it says to copy the tree first, never to write it" \
	"$(grep -c "^  cp -a '$(realpath "$gtree")' DIR$" "$WORK/out"):$(grep -c -- '--sysfs-root DIR apply --weights' "$WORK/out"):$(grep -c -- "--sysfs-root [^D]" "$WORK/out")" "1:1:0"
run "$TT" auto --source-node 0 --model "$MODEL" --seed 7 --no-record --json
is "--model --json without --sysfs-root: simulated, the fixture's three nodes" \
	"$rc:$(json 'j["simulated"], j["nodes"]' <"$WORK/out")" "0:True [0, 1, 2]"
expect_bad_input 2 "which tiertune does not write" - "$TT" auto --source-node 0 --model "$MODEL" --apply
is "--apply without --sysfs-root refused: the shipped tree as it was" "$(tree_sum "$tree")" "$shipped"
grep -qF "cp -a '$(realpath "$tree")' DIR" "$WORK/err"
tap $? "... and the hint names a copy of the tree"
expect_bad_input 2 "the tree the model ships with as its machine's; tiertune does not write it" "$tree" \
	"$TT" --sysfs-root "$tree" auto --source-node 0 --model "$MODEL" --apply
run "$TT" auto --all-sources --model "$TT_TOP/model/machines/2s-genoa-cxl.json" --seed 7 --no-record --json
is "--all-sources --model without --sysfs-root: the sources are the modelled machine's CPU nodes" \
	"$rc:$(json 'j["simulated"], j["source_nodes"]' <"$WORK/out")" "0:True [0, 1]"
printf '{"schema_version": 1, "source": "t", "machine_sysfs": "no-such-tree", "sources": [{"node": 0, "threads": 1, "outstanding_misses_per_thread": 1, "nodes": [{"node": 0, "read_bw_bytes_s": 1e9, "write_bw_bytes_s": 1e9, "idle_lat_ns": 100}]}]}' >"$WORK/lost-tree.json"
expect_bad_input 2 "names '$WORK/no-such-tree' as its machine's sysfs tree, which cannot be read" - \
	"$TT" auto --source-node 0 --model "$WORK/lost-tree.json"
sed "s|\"machine_sysfs\": \"[^\"]*\"|\"machine_sysfs\": \"$MODEL\"|" "$MODEL" >"$WORK/file-tree.json"
expect_bad_input 2 "as its machine's sysfs tree, which is not a folder" - \
	"$TT" auto --source-node 0 --model "$WORK/file-tree.json"
expect_bad_input 2 "model '$TT_TOP/model/machines' is not a file" - "$TT" auto --source-node 0 --model "$TT_TOP/model/machines"
ln -s "$MODEL" "$WORK/link.json"
run "$TT" auto --source-node 0 --model "$WORK/link.json" --no-record --budget 40
is "a model through a symbolic link finds its tree beside the file, not the link" \
	"$rc:$(grep -c "the topology is '$(realpath "$tree")'" "$WORK/out")" "0:1"

# The model on a copy of the fixture it describes, its auto mode off (an
# operator's earlier weights): the search's weights are then recommended
# (with auto mode on they are kept only beyond the noise: see the end).
fx=$(copy_fixture spr-ddr5-2cxl)
echo false >"$fx/sys/kernel/mm/mempolicy/weighted_interleave/auto"
# A quieter model (1% noise): its +4.5% over local DRAM is then beyond the
# noise, so that what follows has weights to export and apply.
A=("$TT" --sysfs-root "$fx" auto --source-node 0 --model "$MODEL" --seed 7 --noise 0.01)
before=$(tree_sum "$fx")
run "${A[@]}"
is "model run exits 0" "$rc" 0
is "the report opens with SIMULATED" "$(head -c 10 "$WORK/out")" "SIMULATED:"
is "the table says where its figures and its gains come from, and how many rounds" \
	"$(grep -c '^ comparison alone, the best and each baseline measured alternately, [0-9]* paired rounds)$' "$WORK/out")" 1
grep -q '^SIMULATED recommendation for source node 0: 0:[0-9]' "$WORK/out"
tap $? "weights recommended, labelled SIMULATED"
grep -q '^SIMULATED trial 1/200 0:1 ' "$WORK/err"
tap $? "progress: a line per measurement on stderr, labelled"
is "every progress line is labelled" "$(grep -cvE '^SIMULATED (trial|confirm) ' "$WORK/err")" 0
# The final comparison: a line per measurement, the winner first in each
# round, every baseline with the running gain (an interval from round 2);
# the budget of 200 buys 5 rounds (a fortieth of it) and the comparison
# with what the machine runs now (auto's vector, set by hand) the rounds
# that tell 2.5% at the noise measured (7 at 1%: issue 43 item 4).
is "progress: the final comparison's rounds, the winner first in each" \
	"$(sed -n 's/^SIMULATED confirm \([0-9]*\/7\) best .*/\1/p' "$WORK/err" | tr '\n' ' '):$(grep -c ' 7 paired rounds)$' "$WORK/out")" \
	"1/7 2/7 3/7 4/7 5/7 6/7 7/7 :1"
grep -qE '^SIMULATED confirm 2/7 (local|1:1|auto) +[0-9:,]+ +[0-9.]+ GB/s  gain [-+][0-9.]+% ±[0-9.]+%$' "$WORK/err"
tap $? "progress: a baseline's line has its score and the running gain ± CI"
is "the report shows the profile table: a row per node, its figures and their source" \
	"$(sed -n '/^SIMULATED profile from node 0 (the model/,/^$/p' "$WORK/out" | awk 'NR > 2 && NF == 4 {print $1 ":" $2 ":" $3 ":" $4}' | tr '\n' ' ')" \
	"0:245.80:110.0:model 1:30.00:250.0:model 2:30.00:250.0:model "
grep -qE 'vs (local DRAM|1:1 interleave|kernel auto mode) ' "$WORK/out"
tap $? "the best is compared with the baselines"
is "the report did not write the fixture" "$(tree_sum "$fx")" "$before"
runid=$(sed -n 's/^recorded as run \([0-9]*\) (simulated).*/\1/p' "$WORK/out")
is "the run is recorded" "${runid:+yes}" yes
grep -qF "tiertune --sysfs-root $fx export --run $runid --format" "$WORK/out"
tap $? "the report gives the export command for this root"

run "$TT" runs --json
is "runs: an auto run, simulated, done, with trials" \
	"$(json "[(r['kind'], r['simulated'], r['status'], r['ntrials'] > 3) for r in j['runs'] if r['id'] == $runid]" <"$WORK/out")" \
	"[('auto', True, 'done', True)]"
run "$TT" show "$runid" --json
is "show: every trial simulated, one recommendation for source 0" \
	"$(json "all(t['simulated'] for t in j['trials']), [(r['source_node'], r['interface']) for r in j['recommendations']]" <"$WORK/out")" \
	"True [(0, 'upstream')]"
# Weights are objects in every document; "0:5,1:2" for the comparisons below.
wtext="lambda w: ','.join('%s:%s' % kv for kv in w.items())"
reco=$(json "($wtext)(j['recommendations'][0]['weights']), j['recommendations'][0]['weights_keyed_by']" <"$WORK/out")
is "show: the recommendation's weights are keyed by node" "${reco#* }" node
reco=${reco% *}
# Issue 20 item 3: the headline of an auto run is its recommendation's mean
# with the interval the search ranked it by, not one lucky pass of any trial.
cp "$WORK/out" "$WORK/show.json"
is "show: the headline is the recommendation's mean and 95% interval, under the best pass" \
	"$(json "j['headline'], j['action'], j['measurements'] == j['recommendations'][0]['score_n'], (j['bw_mean_bytes_s'], j['bw_ci_low_bytes_s'], j['bw_ci_high_bytes_s']) == tuple(j['recommendations'][0][k] for k in ('score', 'score_ci_low', 'score_ci_high')), j['bw_mean_bytes_s'] < j['bw_best_bytes_s']" <"$WORK/out")" \
	"recommendation_mean apply True True True"
head_mean=$(json "'%.2f GB/s mean (95%% CI %.2f..%.2f)' % tuple(j['recommendations'][0][k] / 1e9 for k in ('score', 'score_ci_low', 'score_ci_high'))" <"$WORK/show.json")
run "$TT" show "$runid"
is "show: the headline line says the mean" "$(grep -c "^headline  $head_mean\$" "$WORK/out")" 1
run "$TT" runs
is "runs: the run's headline is the recommendation's mean, not the best pass" \
	"$(awk -v id="$runid" '$1 == id' "$WORK/out" | grep -c "  $head_mean  SIMULATED\$")" 1
run "$TT" runs --json
is "runs --json: the same mean" \
	"$(json "[r['headline'] + ' %.2f' % (r['bw_mean_bytes_s'] / 1e9) for r in j['runs'] if r['id'] == $runid][0]" <"$WORK/out")" \
	"recommendation_mean ${head_mean%% GB/s*}"
run "$TT" export --run "$runid" --format csv
# Every trial's mean and 95% interval from its recorded measurements (the
# samples of collector "search"), in CSV, show --json and show alike; the
# recommended trial's are the recommendation's (were: only those, every
# other row empty). Checked against the samples themselves: their mean and
# t interval (t975 for 1..40 degrees of freedom: the fitted surrogate
# measures a trial it may still beat again, 16 times and more).
T975='{1: 12.706204736175, 2: 4.302652729749, 3: 3.182446305284, 4: 2.776445105198, 5: 2.570581835636, 6: 2.446911851145, 7: 2.364624251593, 8: 2.306004135204, 9: 2.262157162798, 10: 2.228138851986, 11: 2.200985160092, 12: 2.178812829667, 13: 2.160368656463, 14: 2.144786687918, 15: 2.131449545560, 16: 2.119905299221, 17: 2.109815577833, 18: 2.100922040241, 19: 2.093024054408, 20: 2.085963447266, 21: 2.079613844728, 22: 2.073873067904, 23: 2.068657610419, 24: 2.063898561628, 25: 2.059538552753, 26: 2.055529438643, 27: 2.051830516480, 28: 2.048407141795, 29: 2.045229642133, 30: 2.042272456301, 31: 2.039513446396, 32: 2.036933343460, 33: 2.034515297449, 34: 2.032244509318, 35: 2.030107928250, 36: 2.028094000980, 37: 2.026192463029, 38: 2.024394163912, 39: 2.022690920037, 40: 2.021075390306}'
cat >"$WORK/figures.py" <<PY
import csv, json, math, sqlite3, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
show = json.load(open(sys.argv[2]))
db = sqlite3.connect(sys.argv[3])
r = show["recommendations"][0]
t975 = $T975
ok = {"rec": True, "all": True, "samples": True, "text": True}
for t in show["trials"]:
    xs = [v for (v,) in db.execute("SELECT value FROM samples WHERE trial_id = ? AND collector = 'search' AND metric = 'bw_bytes_s' ORDER BY t_s", (t["id"],))]
    mine = [x for x in rows if x["trial"] == str(t["seq"])]
    n = len(xs)
    m = sum(xs) / n
    half = t975[n - 1] * math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1) / n) if n > 1 else None
    rec = mine[0]["recommended"] == "1"
    if rec:
        ok["rec"] &= t["bw_mean_bytes_s"] == r["score"] and t["bw_ci_low_bytes_s"] == r["score_ci_low"]
    else:
        ok["samples"] &= abs(t["bw_mean_bytes_s"] / m - 1) < 1e-12 and t["measurements"] == n and (
            t["bw_ci_low_bytes_s"] is None if half is None else abs(t["bw_ci_low_bytes_s"] / (m - half) - 1) < 1e-9)
    ok["all"] &= all(float(x["mean"]) == t["bw_mean_bytes_s"] and x["unit"] == "bytes/s" and x["measurements"] == str(n)
                     and (float(x["ci_low"]) if x["ci_low"] else None) == t["bw_ci_low_bytes_s"] for x in mine)
    ok["text"] &= ("%5d %14.2f" % (t["seq"], t["bw_mean_bytes_s"] / 1e9)) in open(sys.argv[4]).read()
print(*[k for k, v in ok.items() if not v] or ["ok"])
PY
run "$TT" export --run "$runid" --format csv
cp "$WORK/out" "$WORK/run.csv"
run "$TT" show "$runid" >/dev/null
cp "$WORK/out" "$WORK/show.txt"
is "every trial's mean and interval from its measurements, alike in csv, show --json and show" \
	"$(python3 "$WORK/figures.py" "$WORK/run.csv" "$WORK/show.json" "$TIERTUNE_DB" "$WORK/show.txt")" ok
is "csv: the recommended trial's rows say so and its action" \
	"$(python3 -c 'import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
r = json.load(open(sys.argv[2]))["recommendations"][0]
rec = [x for x in rows if x["recommended"] == "1"]
print(len(rec) == len(r["weights"]), {x["node"]: int(x["weight"]) for x in rec} == {k: v for k, v in r["weights"].items()},
      all(float(x["mean"]) == r["score"] and float(x["ci_low"]) == r["score_ci_low"] and x["action"] == "apply" for x in rec),
      all(x["action"] == "" for x in rows if x["recommended"] == "0"))' "$WORK/run.csv" "$WORK/show.json")" \
	"True True True True"
is "show --json with every trial's figures fits docs/json.md" \
	"$(python3 "$TT_TOP/tests/cli/json-vocabulary.py" "$TT_TOP/docs/json.md" show <"$WORK/show.json" 2>&1 | head -5)" ""
# A trial with one measurement (a budget or ^C cut it short): its mean,
# no interval: n/a in text, empty in CSV, null in JSON.
cp "$TIERTUNE_DB" "$WORK/one.db"
one=$(sql "$WORK/one.db" "SELECT t.seq FROM trials t JOIN samples s ON s.trial_id = t.id WHERE t.run_id = $runid AND s.metric = 'bw_bytes_s' AND t.seq > 1 GROUP BY t.id HAVING count(*) = 2 LIMIT 1")
sql "$WORK/one.db" "DELETE FROM samples WHERE rowid = (SELECT max(s.rowid) FROM samples s JOIN trials t ON t.id = s.trial_id WHERE t.run_id = $runid AND t.seq = $one AND s.metric = 'bw_bytes_s')"
run "$TT" --db "$WORK/one.db" show "$runid"
is "show: a trial of one measurement has a mean and n/a for its interval" \
	"$(awk -v s="$one" '$1 == s && $3 == "n/a" && $4 == 1' "$WORK/out" | wc -l)" 1
run "$TT" --db "$WORK/one.db" show "$runid" --csv
is "csv: its interval empty, its measurements 1" \
	"$(python3 -c 'import csv, sys; print({(x["mean"] != "", x["ci_low"], x["ci_high"], x["measurements"]) for x in csv.DictReader(sys.stdin) if x["trial"] == sys.argv[1]})' "$one" <"$WORK/out")" \
	"{(True, '', '', '1')}"
run "$TT" --db "$WORK/one.db" show "$runid" --json
is "json: its interval null, its measurements 1" \
	"$(json "[(t['bw_ci_low_bytes_s'], t['bw_ci_high_bytes_s'], t['measurements']) for t in j['trials'] if t['seq'] == $one]" <"$WORK/out")" \
	"[(None, None, 1)]"
run "$TT" export --run "$runid" --format csv
is "csv: records end in CRLF (RFC 4180)" "$(grep -vc $'\r$' "$WORK/out")" 0

run "${A[@]}" --no-record --json
is "--json: no final-comparison lines" "$(grep -c '^SIMULATED confirm' "$WORK/err")" 0
is "--json: exit 0, simulated, the same seed gives the same weights" \
	"$rc:$(json "j['simulated'], ($wtext)(j['recommendation']['weights']), j['run']" <"$WORK/out")" "0:True $reco None"
is "--json: the model's profile is the prior, the auto baseline HMAT's as the kernel takes it" \
	"$(json "j['prior_from'], j['auto_from'], [(n['node'], n['from'], n['bw_bytes_s'], n['lat_ns']) for n in j['profile']['nodes']], j['profile']['skipped']" <"$WORK/out")" \
	"model hmat [(0, 'model', 245800000000.0, 110.0), (1, 'model', 30000000000.0, 250.0), (2, 'model', 30000000000.0, 250.0)] None"
is "auto --json fits docs/json.md" \
	"$(python3 "$TT_TOP/tests/cli/json-vocabulary.py" "$TT_TOP/docs/json.md" auto <"$WORK/out" 2>&1 | head -5)" ""
is "--no-record stores nothing" "$(out "$TT" runs --json | json 'len(j["runs"])')" 1

run "${A[@]}" --no-record --no-profile --json
is "--no-profile: the prior is HMAT's, each node's figures from its best initiator, said why" \
	"$rc:$(json "j['prior_from'], j['profile']['skipped'], [(n['node'], n['from'], n['bw_bytes_s']) for n in j['profile']['nodes']]" <"$WORK/out")" \
	"0:hmat --no-profile [(0, 'hmat', 307200000000.0), (1, 'hmat', 36000000000.0), (2, 'hmat', 36000000000.0)]"
run "${A[@]}" --no-record --no-profile
grep -q '^profile skipped (--no-profile): HMAT' "$WORK/out"
tap $? "--no-profile: the text report says the profile was skipped and why"
# Without HMAT (the Genoa fixture) --no-profile leaves no prior, and the
# model's profile gives one; the auto baseline is what the kernel holds
# then whatever the prior: no bandwidth table, every weight 1 (issue 33).
gx=$(copy_fixture 2s-genoa-cxl)
G=("$TT" --sysfs-root "$gx" auto --source-node 1 --model "$TT_TOP/model/machines/2s-genoa-cxl.json" --no-record)
run "${G[@]}" --no-profile --json
is "no HMAT, --no-profile: no prior; the auto baseline is the kernel's 1s" \
	"$rc:$(json "j['prior_from'], j['auto_from'], [b['name'] for b in j['baselines']], {n['from'] for n in j['profile']['nodes']}, j['auto_weights']" <"$WORK/out")" \
	"0:none no_hmat ['local', '1:1', 'auto'] {'none'} {'0': 1, '1': 1, '2': 1, '3': 1}"
run "${G[@]}" --json
is "no HMAT: the model's profile is the prior, not the auto baseline's figures" \
	"$rc:$(json "j['prior_from'], j['auto_from'], [b['name'] for b in j['baselines']]" <"$WORK/out")" \
	"0:model no_hmat ['local', '1:1', 'auto']"
run "$TT" --sysfs-root "$fx" export --run "$runid" --format shell
is "export --run of the auto run writes a shell script" \
	"$rc:$(grep -c '^echo [0-9]* > "$root/sys/kernel/mm/mempolicy/weighted_interleave/node' "$WORK/out")" \
	"0:$(tr ',' '\n' <<<"$reco" | wc -l)"
is "export --run of a modelled run says SIMULATED in the script" "$(grep -c '^# SIMULATED: tiertune recommendation from run' "$WORK/out")" 1
check "apply --run of the auto run, dry run" "$TT" --sysfs-root "$fx" apply --run "$runid" --dry-run
is "apply --run of a modelled run says SIMULATED" "$(grep -c '^tiertune: warning: SIMULATED: run' "$WORK/err")" 1
run "$TT" --sysfs-root "$fx" export --run "$runid" --format prometheus
is "prometheus: the recommendation's mean and interval, in bytes/s" \
	"$(sed -n 's/^tiertune_recommended_bandwidth_bytes_per_second{source_node="0",stat="\([a-z_]*\)",simulated="true"} \(.*\)/\1 \2/p' "$WORK/out" | python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["recommendations"][0]
got = dict(l.split() for l in sys.stdin)
print(sorted(got), all(float(got[k]) == r[c] for k, c in (("mean", "score"), ("ci_low", "score_ci_low"), ("ci_high", "score_ci_high"))))' "$WORK/show.json")" \
	"['ci_high', 'ci_low', 'mean'] True"
is "and on every Prometheus recommendation sample" \
	"$(grep -c '^tiertune_weight_recommended{' "$WORK/out"):$(grep -c '^tiertune_weight_recommended{.*simulated="true"' "$WORK/out")" \
	"$(tr ',' '\n' <<<"$reco" | wc -l):$(tr ',' '\n' <<<"$reco" | wc -l)"
# A run is for the hardware it was found on: another machine's root refuses
# its weights unless --force; its profile names the run's machine.
ox=$(copy_fixture 2s-genoa-cxl)
# The write-ahead log checkpointed first: the checks below compare bytes.
checkpoint() { python3 -c 'import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute("PRAGMA wal_checkpoint(TRUNCATE)")' "$TIERTUNE_DB"; }
checkpoint
expect_bad_input 2 "run $runid is from host 'spr-cxl-07.lab' with hardware fingerprint" "$ox" \
	"$TT" --sysfs-root "$ox" apply --run "$runid"
checkpoint
expect_bad_input 2 "run $runid is from host 'spr-cxl-07.lab'" "$ox" \
	"$TT" --sysfs-root "$ox" export --run "$runid" --format shell
run "$TT" --sysfs-root "$ox" export --run "$runid" --format json
is "its profile, exported from another root, names the run's machine and says simulated" \
	"$rc:$(json "j['machine']['hostname'], j['simulated']" <"$WORK/out")" "0:spr-cxl-07.lab True"

# --apply writes the recommendation; restore --last puts the copy back. (On
# a copy whose auto mode is off, as above: with it on, these weights are no
# gain beyond the noise over it, and nothing is written: see the end.)
fx2=$(copy_fixture spr-ddr5-2cxl)
echo false >"$fx2/sys/kernel/mm/mempolicy/weighted_interleave/auto"
before=$(tree_sum "$fx2")
run "$TT" --sysfs-root "$fx2" auto --source-node 0 --model "$MODEL" --seed 7 --noise 0.01 --apply
is "--apply exits 0" "$rc" 0
got=$(for p in $(tr ',' ' ' <<<"$reco"); do
	printf '%s:%s,' "${p%%:*}" "$(cat "$fx2/sys/kernel/mm/mempolicy/weighted_interleave/node${p%%:*}")"
done)
is "--apply wrote the recommended weights" "${got%,}" "$reco"
check "restore --last" "$TT" --sysfs-root "$fx2" restore --last
is "restore --last puts the fixture copy back byte for byte" "$(tree_sum "$fx2")" "$before"

# An apply killed after writing the recommendation's first node leaves that
# node already as auto wants it and a journal: auto --apply puts the journal
# back first and plans on what it restored (planned before, it skipped the
# node as unchanged, and the journal then put the old weight back under it).
wi="$fx2/sys/kernel/mm/mempolicy/weighted_interleave"
first=${reco%%,*}
for k in $(seq 1 40); do
	rm -rf "$TIERTUNE_STATE_DIR"
	(strace -f -qq -o /dev/null -e inject=write:signal=KILL:when="$k" \
		"$TT" --sysfs-root "$fx2" apply --weights "$reco"; :) >/dev/null 2>&1
	# ... and the kernel's auto mode already off, as writing a node turns it.
	if [ "$(cat "$wi/node${first%%:*}")" = "${first#*:}" ] && [ "$(cat "$wi/auto")" = false ] &&
		[ -e "$TIERTUNE_STATE_DIR/apply.journal" ]; then
		break
	fi
	"$TT" --sysfs-root "$fx2" restore >/dev/null 2>&1
done
is "an apply killed mid-way: the first node written, auto mode off, a journal left" \
	"$(cat "$wi/node${first%%:*}" "$wi/auto" | paste -sd:):$([ -e "$TIERTUNE_STATE_DIR/apply.journal" ] && echo journal)" "${first#*:}:false:journal"
# This run's own recommendation: it measures from the half-applied state
# the machine runs (issue 33: the baseline is what the machine runs now), so
# its seeded search need not end where the run above did.
run "$TT" --sysfs-root "$fx2" auto --source-node 0 --model "$MODEL" --seed 7 --noise 0.01 --apply
rc2=$rc err2=$(cat "$WORK/err")
id2=$(sed -n 's/^recorded as run \([0-9]*\).*/\1/p' "$WORK/out")
reco2=$("$TT" show "$id2" --json | json "($wtext)(j['recommendations'][0]['weights'])")
got=$(for p in $(tr ',' ' ' <<<"$reco2"); do
	printf '%s:%s,' "${p%%:*}" "$(cat "$wi/node${p%%:*}")"
done)
is "auto --apply after it: the journal put back, then every recommended weight written" \
	"$rc2:$(grep -c 'first put back' <<<"$err2"):${got%,}" "0:1:$reco2"
check "restore --last" "$TT" --sysfs-root "$fx2" restore --last
is "restore --last puts the fixture copy back byte for byte again" "$(tree_sum "$fx2")" "$before"

# Bad input: exit 2 (3 for a missing capability), nothing written.
sed 's/307200000000.0/-307200000000.0/' "$MODEL" >"$WORK/negative.json"
sed 's/36000000000.0/1e308/' "$MODEL" >"$WORK/absurd.json"
printf '{"name": "broken",\n' >"$WORK/broken.json"
B=("$TT" --sysfs-root "$fx" auto --source-node 0)
run "${A[@]}" --no-record --budget 400
# At 60 a baseline keeps 3 rounds unless its gain as the search measured it
# could be 5% or more: with the line and the surrogate (issue 33), seed 7's
# winner is 0:27,1:2,2:2, local DRAM's gain near 5% (+4.0% in the end), so
# it gets 4 rounds at 1% noise and 8 at 2% (the interval pools both arms'
# spread: 2(n - 1) degrees of freedom).
is "--budget 400 buys 10 rounds of the final comparison" \
	"$rc:$(grep -c 'measured alternately, 10 paired rounds)$' "$WORK/out")" "0:1"
run "${A[@]}" --no-record --budget 60
is "--budget 60 plans 4 rounds for a gain near 5% at 1% noise" \
	"$rc:$(grep -c 'measured alternately, 4 paired rounds)$' "$WORK/out")" "0:1"
run "$TT" --sysfs-root "$fx" auto --source-node 0 --model "$MODEL" --seed 7 --noise 0.02 --no-record --budget 60
is "... and 8 at 2% noise" \
	"$rc:$(grep -c 'measured alternately, 8 paired rounds)$' "$WORK/out")" "0:1"
run "${A[@]}" --no-record --max-weight 2 --json
is "--max-weight 2: the auto baseline (25:3:3) is measured but the recommendation keeps the bound" \
	"$rc:$(json "max(j['recommendation']['weights'].values()) <= 2, [b['weights'] for b in j['baselines'] if b['name'] == 'auto']" <"$WORK/out")" \
	"0:True [{'0': 25, '1': 3, '2': 3}]"
expect_bad_input 2 "'bogus'" "$fx" "${B[@]}" --model "$MODEL" --mix bogus
expect_bad_input 2 "'latency'" "$fx" "${B[@]}" --model "$MODEL" --mix latency
expect_bad_input 2 "option '--budget' value '0' is not a number of trials (1-1000000) or a duration (90s, 5m, 1h; at most a week)" "$fx" "${B[@]}" --model "$MODEL" --budget 0
expect_bad_input 2 "budget of 5" "$fx" "${B[@]}" --model "$MODEL" --budget 5
expect_bad_input 2 "node 7" "$fx" "${B[@]}" --model "$MODEL" --nodes 0,7
expect_bad_input 2 "read_bw_bytes_s is negative" "$fx" "${B[@]}" --model "$WORK/negative.json"
expect_bad_input 2 "read_bw_bytes_s '1e+308' is out of range" "$fx" "${B[@]}" --model "$WORK/absurd.json"
expect_bad_input 2 "broken.json" "$fx" "${B[@]}" --model "$WORK/broken.json"
# --strategy's words are the strategies' table (tuner/strategies.c, each
# tt_s_NAME named NAME): --help and the refusal name every one, in order.
strategies=$(sed -n '/tt_strategies\[\] = {/,/NULL/s/.*&tt_s_\([a-z]*\).*/\1/p' "$TT_TOP/tuner/strategies.c")
run "$TT" auto --help
is "auto --help: --strategy's words are the strategies' table" \
	"$rc:$(grep -c -- "^  --strategy $(echo $strategies | tr ' ' '|')\$" "$WORK/out")" "0:1"
expect_bad_input 2 "option '--strategy' value 'nope' is not one of: $(echo $strategies | sed 's/ /, /g')" \
	"$fx" "${B[@]}" --model "$MODEL" --strategy nope
# The man page's line, written by hand, names the same words in order.
is "the man page's --strategy line names the strategies' table" \
	"$(awk '/^\.BI \\-\\-strategy/ {getline; print}' "$TT_TOP/docs/tiertune.1" | grep -oE '\\fB[a-z]+\\fR' | sed 's/\\f[BR]//g' | tr '\n' ' ')" \
	"$(echo $strategies) "
expect_bad_input 2 "option '--noise' value '0.5' out of range (0-0.2)" "$fx" "${B[@]}" --model "$MODEL" --noise 0.5
expect_bad_input 2 "source node 1" "$fx" "$TT" --sysfs-root "$fx" auto --source-node 1 --model "$MODEL"
expect_bad_input 2 "is not this machine" "$fx" "${B[@]}"
expect_bad_input 2 "--apply" "$fx" "${B[@]}" --model "$MODEL" --apply --json
# A model must describe the machine: every memory node the search uses,
# only nodes the machine has, and CPU nodes where the model says so.
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
del d["sources"][0]["nodes"][1]
json.dump(d, open(sys.argv[2], "w"))
d["schema_version"] = 9
json.dump(d, open(sys.argv[3], "w"))' "$MODEL" "$WORK/no-node1.json" "$WORK/version9.json"
expect_bad_input 2 "lacks memory node 1 from source node 0" "$fx" "${B[@]}" --model "$WORK/no-node1.json"
run "${B[@]}" --model "$WORK/no-node1.json" --nodes 0,2 --no-record --budget 20
is "a model lacking node 1 runs when --nodes leaves node 1 out" "$rc" 0
expect_bad_input 2 "schema_version 9 is not one this tiertune reads" "$fx" "${B[@]}" --model "$WORK/version9.json"
expect_bad_input 2 "'/nonexistent.json'" "$fx" "${B[@]}" --model /nonexistent.json
expect_bad_input 2 "node 1 is CPU-less in the model, but this machine's node 1 has CPUs" "$gx" \
	"$TT" --sysfs-root "$gx" auto --source-node 0 --model "$MODEL"
expect_bad_input 2 "lacks memory node 3 from source node 0" "$gx" \
	"$TT" --sysfs-root "$gx" auto --source-node 0 --model "$WORK/no-node1.json" --nodes 0,2,3
expect_bad_input 2 "node 1 is a CPU node in the model, but this machine's node 1 has none" "$fx" \
	"${B[@]}" --model "$TT_TOP/model/machines/2s-genoa-cxl.json"
# Issue 20 item 3: at 20% noise two measurements of a slow vector give a
# t interval reaching below zero (66.38 ± 211.35 GB/s with this seed): no
# bound is shown for a bandwidth that cannot be negative: the table says
# "unbounded", as show does of the same run (t0070).
run "$TT" auto --source-node 0 --model "$MODEL" --noise 0.2 --seed 1 --no-record --json
is "--json: no bandwidth bound below zero; an interval that would reach it is null" \
	"$rc:$(json "[o['bw_ci_low_bytes_s'] for o in j['trials'] + j['baselines'] + [j['best']] if o['bw_ci_low_bytes_s'] is not None and o['bw_ci_low_bytes_s'] <= 0], any(o['bw_ci_low_bytes_s'] is None and o['bw_ci_high_bytes_s'] is None for o in j['baselines'] if o['rounds'] > 1)" <"$WORK/out")" \
	"0:[] True"
run "$TT" auto --source-node 0 --model "$MODEL" --noise 0.2 --seed 1 --no-record
is "text: that baseline's interval is 'unbounded', as show says" \
	"$rc:$(grep -cE '^1:1 +0:1,1:1,2:1 +[0-9.]+ +unbounded  ' "$WORK/out")" "0:1"
# sweep: the whole grid, the same report and record.
run "$TT" --sysfs-root "$fx" sweep --source-node 0 --grid 3 --model "$MODEL" --json
is "sweep --grid 3 on the model: exit 0, kind sweep, recorded, fits docs/json.md" \
	"$rc:$(json "j['kind'], j['simulated'], j['run'] is not None, j['stop_reason']" <"$WORK/out"):$(python3 \
		"$TT_TOP/tests/cli/json-vocabulary.py" "$TT_TOP/docs/json.md" auto <"$WORK/out" 2>&1 | head -3)" \
	"0:sweep True True every vector measured:"
# The grid as the search writes weights: reduced, nodes without weight left out.
grid=$(python3 -c 'import itertools, math
print(sorted(",".join("%d:%d" % (n, w) for n, w in enumerate(v) if w)
      for v in itertools.product(range(4), repeat=3) if any(v) and math.gcd(*v) == 1))')
is "sweep tried every reduced vector of 0..3 over 3 nodes, each once" \
	"$(json "sorted(w for w in map($wtext, (t['weights'] for t in j['trials'])) if w in $grid) == $grid" <"$WORK/out")" True
swrun=$(json "j['run']" <"$WORK/out")
is "runs: the sweep is a run of kind sweep" \
	"$(out "$TT" runs --json | json "[r['kind'] for r in j['runs'] if r['id'] == $swrun]")" "['sweep']"
run "$TT" --sysfs-root "$fx" sweep --source-node 0 --grid 2 --model "$MODEL" --no-record
is "sweep text: a SIMULATED row per vector" "$rc:$(grep -c '^SIMULATED [0-9]:' "$WORK/out")" \
	"0:$(python3 -c 'import itertools, math
print(1 + sum(1 for v in itertools.product(range(3), repeat=3) if any(v) and math.gcd(*v) == 1))')"
expect_bad_input 2 "--grid" "$fx" "$TT" --sysfs-root "$fx" sweep --source-node 0 --model "$MODEL"
expect_bad_input 2 "--grid" "$fx" "$TT" --sysfs-root "$fx" sweep --source-node 0 --grid 0 --model "$MODEL"
# The whole --grid 255 over 3 nodes is 28 million measurements: refused on
# the model too, unless --budget bounds it.
expect_bad_input 2 "--grid 255 over 3 nodes is 13936093 vectors, each measured 2 times, more than the 1000000 a sweep on the model runs without --budget: give --budget" \
	"$fx" "$TT" --sysfs-root "$fx" sweep --source-node 0 --grid 255 --model "$MODEL"
run "$TT" --sysfs-root "$fx" sweep --source-node 0 --grid 255 --model "$MODEL" --budget 100 --no-record --json
is "sweep --grid 255 with --budget 100 on the model: runs, within the budget, which it says" \
	"$rc:$(json 'j["measurements"] <= 100, j["stop_reason"]' <"$WORK/out")" "0:True budget of 100 measurements reached"
# plot: tests/cli/t0044-plot.sh.
# Recommend only what the measurements support (issue 20). The SPR model's
# kernel has auto mode on, and its best is within noise of it: keep auto
# mode, in text, JSON and the database; apply --run and auto --apply then
# write nothing, auto mode stays on.
ka=$(copy_fixture spr-ddr5-2cxl)
ka0=$(tree_sum "$ka")
run "$TT" --sysfs-root "$ka" auto --source-node 0 --model "$MODEL" --db "$WORK/act.db" --json
is "within noise of kernel auto mode: the recommendation is to keep it" \
	"$rc:$(json '(j["recommendation"]["action"], [b["verdict"] for b in j["baselines"] if b["name"] == "auto"])' <"$WORK/out")" \
	"0:('keep_auto', ['within noise'])"
kid=$(json 'j["run"]' <"$WORK/out")
is "... stored as the run's action" \
	"$(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT action FROM recommendations WHERE run_id = ?", (int(sys.argv[2]),)).fetchall())' "$WORK/act.db" "$kid")" \
	"[('keep_auto',)]"
run "$TT" --sysfs-root "$ka" --db "$WORK/act.db" apply --run "$kid"
is "apply --run of it: says so, writes nothing, auto mode kept" \
	"$rc:$(grep -c 'keeping the kernel.s auto mode' "$WORK/out"):$(cat "$ka/sys/kernel/mm/mempolicy/weighted_interleave/auto"):$([ "$(tree_sum "$ka")" = "$ka0" ] && echo same)" \
	"0:1:true:same"
expect_bad_input 2 "run $kid recommends keeping the kernel's auto mode for source node 0: no weights to export" "$ka" \
	"$TT" --sysfs-root "$ka" --db "$WORK/act.db" export --run "$kid" --format shell
run "$TT" --sysfs-root "$ka" auto --source-node 0 --model "$MODEL" --no-record --apply
is "auto --apply of it: nothing written, auto mode kept" \
	"$rc:$(grep -c '^--apply: nothing to write: keep the kernel.s auto mode' "$WORK/out"):$([ "$(tree_sum "$ka")" = "$ka0" ] && echo same)" \
	"0:1:same"
# A machine whose best beats auto mode beyond the noise (Xeon Max with
# CXL, auto mode on, one CPU node): the weights are recommended. (The
# two-socket flat one's best costs the other socket's tasks over every
# node: per_source, t0050.)
xa=$(copy_fixture xeon-max-hbm-cxl)
run "$TT" --sysfs-root "$xa" auto --source-node 0 --model "$TT_TOP/model/machines/xeon-max-hbm-cxl.json" --no-record --json
is "beyond the noise of auto mode: the weights are recommended" \
	"$rc:$(json '(j["recommendation"]["action"], [b["verdict"] for b in j["baselines"] if b["name"] == "auto"])' <"$WORK/out")" \
	"0:('apply', ['better'])"
# Four threads cannot use more than local DRAM: bind locally.
run "$TT" --sysfs-root "$ka" auto --source-node 0 --model "$MODEL" --threads 4 --no-record --json
is "no gain over local memory: bind locally" \
	"$rc:$(json 'j["recommendation"]["action"]' <"$WORK/out")" "0:bind_local"
# copy_fixture (issue 33 item 7): a fresh copy of the fixture even where
# every name $RANDOM could give is taken. It named copies by $RANDOM, and cp
# -a onto a name that existed copied into it: the test then ran on the
# older copy (auto mode turned off by an earlier test, so t0011 #104-108
# once saw 'apply' where its verdict against auto mode was within noise).
cw="$WORK/collide"
mkdir -p "$cw" && (cd "$cw" && mkdir fx-vm-1node-{0..32767})
c1=$(WORK=$cw copy_fixture vm-1node)
c2=$(WORK=$cw copy_fixture vm-1node)
is "copy_fixture: two fresh copies, each the fixture's tree, where every \$RANDOM name is taken" \
	"$([ "$c1" != "$c2" ] && echo distinct):$(tree_sum "$c1"):$(tree_sum "$c2")" \
	"distinct:$(tree_sum "$FIX/vm-1node"):$(tree_sum "$FIX/vm-1node")"
rm -rf "$cw"
done_testing
