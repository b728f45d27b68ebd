#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tiertune auto in app mode (auto ... -- COMMAND ARGS) against a fixture copy,
# through the test hook that lets the program run on this host's nodes: a
# run per measurement, each under the candidate's weights (the program reads
# the fixture's weight files while it runs), the copy byte for byte as before
# after the search, after SIGINT, after the program crashes, after tiertune
# is killed and the next command runs, and when the weights move under a
# trial (discarded, said). --metric parsing, and bad input refused with
# nothing written.
. "$(dirname "$0")/lib.sh"

export TIERTUNE_DB="$WORK/app.db"
# A private state folder: a test that fails must not leave a journal for the
# next script.
export TIERTUNE_STATE_DIR="$WORK/state"
export TIERTUNE_TEST_APP_HOST_NODES=1
# The seam is the test front end's (core/test-hooks.h, filled by
# tests/helper/test-hooks.c): tiertune itself reads no test variable.
SHIPPED=$TT TT="$TT_BUILD/tests/tiertune-test"
WI=sys/kernel/mm/mempolicy/weighted_interleave
fx=$(copy_fixture spr-ddr5-2cxl)
before=$(tree_sum "$fx")
RUNS="$WORK/runs"

# The program: one line per run with the weights the fixture holds while it
# runs, and the policy it runs under; what else it does comes from $1.
cat >"$WORK/prog" <<EOF
#!/bin/sh
w="\$(cat "$fx/$WI/node0"):\$(cat "$fx/$WI/node1"):\$(cat "$fx/$WI/node2")"
pol=\$(grep -m1 -o 'weighted interleave:[0-9,-]*' /proc/self/numa_maps)
echo "\$w \$pol" >>"$RUNS"
n=\$(wc -l <"$RUNS")
case "\$1" in
crash) [ "\$n" -lt 3 ] || kill -SEGV \$\$ ;;
fail) [ "\$n" -lt 3 ] || exit 3 ;;
slow) sleep 1 ;;
# A grandchild that ignores SIGTERM, as the shell does: only the group's
# SIGKILL ends it.
group) trap '' TERM; sleep 60 & echo \$! >"$WORK/gc"; wait ;;
# Background sleeps in its group and a setsid daemon outside it (double
# forked, so it comes back to tiertune as their subreaper), each pid noted.
# The first run's also ignores SIGTERM (the grace period, then SIGKILL).
leave) sleep 300 & echo \$! >>"$WORK/left"
	[ "\$n" -ne 1 ] || { (trap '' TERM; exec sleep 301) & echo \$! >>"$WORK/left"; }
	setsid sh -c 'sh -c "echo \\\$\\\$ >$WORK/daemon.tmp; mv $WORK/daemon.tmp $WORK/daemon; exec sleep 302" &'
	while [ ! -s "$WORK/daemon" ]; do sleep 0.01; done; cat "$WORK/daemon" >>"$WORK/left"; rm "$WORK/daemon" ;;
move) [ "\$n" -ne 3 ] || echo 7 >"$fx/$WI/node1" ;;
# A metric line that the last 1 MiB of output starts inside of.
tail) echo "result: 12345 ops/s"; head -c \$((1048576 - 10)) /dev/zero | tr '\\0' x; echo ;;
metric) echo "warm-up: 1 ops/s"; echo "result: \$((100 + n)) ops/s" ;;
share) echo "share: \$((\$(cat "$fx/$WI/node1") * 1000 / (\$(cat "$fx/$WI/node0") + \$(cat "$fx/$WI/node1") + \$(cat "$fx/$WI/node2"))))" ;;
esac
exit 0
EOF
chmod +x "$WORK/prog"
# --allow-unstable: these check the orchestration; on a busy host a run of
# these short scripts may wait for a CPU long enough to be judged
# descheduled, which t0066 checks.
A=("$TT" --sysfs-root "$fx" auto --source-node 0 --budget 20 --allow-unstable)

# A whole search: one run per measurement, each under its candidate.
rm -f "$RUNS"
run "${A[@]}" --json -- "$WORK/prog"
is "app mode on a fixture copy (test hook) exits 0" "$rc" 0
cp "$WORK/out" "$WORK/search.json"
is "one run of the program per measurement" \
	"$(wc -l <"$RUNS")" "$(json 'j["measurements"]' <"$WORK/search.json")"
# Each trial's weights as the fixture holds them while it runs: the
# candidate's nodes written, the others as copied (25:3:3).
want=$(json '"\n".join(":".join(str(t["weights"].get(str(k), {0: 25, 1: 3, 2: 3}[k])) for k in (0, 1, 2)) for t in j["trials"])' <"$WORK/search.json" | sort -u)
is "the program read each candidate's weights while it ran, and no others" "$(cut -d' ' -f1 "$RUNS" | sort -u)" "$want"
is "each run was under MPOL_WEIGHTED_INTERLEAVE over this host's memory nodes" \
	"$(cut -d' ' -f2- "$RUNS" | sort -u)" "weighted interleave:$(cat /sys/devices/system/node/has_memory)"
is "after the search the fixture copy is byte for byte as before" "$(tree_sum "$fx")" "$before"
is "no journal left" "$(ls "$TIERTUNE_STATE_DIR" | grep -c journal)" 0
is "JSON: kernel placement, no discard, the argv, wall times in seconds, no bench kernel, fits docs/json.md" \
	"$(json 'j["placement"], j["discarded"], j["app"]["argv"][-1][-4:], j["app"]["metric"], j["best"]["bw_mean_bytes_s"], j["best"]["time_mean_s"] > 0, j["kernel"], j["objective"]' <"$WORK/search.json"):$(python3 \
		"$TT_TOP/tests/cli/json-vocabulary.py" "$TT_TOP/docs/json.md" auto <"$WORK/search.json" 2>&1 | head -3)" \
	"kernel [] prog None None True None app:"

# What a run leaves is ended after it: its group's background processes
# (one ignoring SIGTERM) and a setsid daemon; none outlives the run, and the
# count is said.
rm -f "$RUNS" "$WORK/left"
run "${A[@]}" -- "$WORK/prog" leave
left=$(sort -u "$WORK/left" | wc -l)
alive=0
for p in $(cat "$WORK/left"); do kill -0 "$p" 2>/dev/null && alive=$((alive + 1)); done
# The count may include a daemon's short-lived parent, seen before it exited.
ended=$(sed -n 's/^processes the runs left behind, ended after them: //p' "$WORK/out")
is "app mode: every process the runs left (group, setsid daemon) ended, and counted" \
	"$rc:$left:$alive:$((${ended:-0} >= left))" "0:$((2 * $(wc -l <"$RUNS") + 1)):0:1"

# The metric is read from whole lines of the output's last 1 MiB: one that
# the window cuts is not read from its tail (12345 as 45).
run "${A[@]}" --metric '([0-9]+) ops/s' --higher-is-better -- "$WORK/prog" tail
is "--metric: a line cut by the output's window is not parsed from its tail" \
	"$rc:$(grep -c "printed nothing that --metric" "$WORK/err")" "1:1"

# The run as recorded: an auto run whose objective is the program's wall
# time, its trials in seconds (no bandwidth), the program in the command.
arun=$(json 'j["run"]' <"$WORK/search.json")
run "$TT" runs --json
is "runs: the app run, its objective, the command, its best time in seconds, no bandwidth" \
	"$rc:$(json '[(r["kind"], r["objective"], r["command"].endswith("-- '"$WORK/prog"'"), r["ntrials"], r["time_best_s"] > 0, r["bw_best_bytes_s"], r["metric_best"]) for r in j["runs"] if r["id"] == '"$arun"']' <"$WORK/out")" \
	"0:[('auto', 'app:wall-time', True, $(json 'j["ntrials"]' <"$WORK/search.json"), True, None, None)]"
is "runs --json fits docs/json.md" \
	"$(python3 "$TT_TOP/tests/cli/json-vocabulary.py" "$TT_TOP/docs/json.md" runs <"$WORK/out" 2>&1 | head -3)" ""
run "$TT" show "$arun" --json
is "show: each trial in seconds, best <= median <= max, kernel placement, no bandwidth" \
	"$rc:$(json 'sorted(set((t["kernel"], t["placement"], 0 < t["time_best_s"] <= t["time_median_s"] <= t["time_max_s"], t["bw_best_bytes_s"], t["metric_best"]) for t in j["trials"]))' <"$WORK/out")" \
	"0:[('app', 'kernel', True, None, None)]"
is "show: the trials are the search's vectors, and the recommendation its" \
	"$(json 'sorted(str({str(n["node"]): n["weight"] for n in t["nodes"]}) for t in j["trials"]) == sorted(str(t["weights"]) for t in json.load(open("'"$WORK/search.json"'"))["trials"]), j["recommendations"][0]["weights"] == json.load(open("'"$WORK/search.json"'"))["recommendation"]["weights"]' <"$WORK/out")" \
	"True True"
is "show --json fits docs/json.md" \
	"$(python3 "$TT_TOP/tests/cli/json-vocabulary.py" "$TT_TOP/docs/json.md" show <"$WORK/out" 2>&1 | head -3)" ""
run "$TT" show "$arun" --csv
is "show --csv: each trial's median time in seconds, no bandwidth, no metric" \
	"$rc:$(python3 -c 'import csv,sys; r=list(csv.DictReader(sys.stdin)); print(len(r) > 0, all(float(x["time_median_s"]) > 0 and x["bw_best_bytes_s"] == "" and x["metric_median"] == "" for x in r))' <"$WORK/out")" \
	"0:True True"
run "$TT" show "$arun"
is "show: the objective and a trial table in seconds" \
	"$rc:$(grep -c '^objective app:wall-time$' "$WORK/out"):$(grep -c 'best s *median s *max s' "$WORK/out")" "0:1:1"

# A run scored by a metric that depends on the weights (node 1's share, in
# thousandths, higher is better): its recommendation differs from the
# fixture's weights, and export and apply take it from the run.
rm -f "$RUNS"
run "${A[@]}" --json --metric 'share: ([0-9]+)' --higher-is-better -- "$WORK/prog" share
is "app mode with a metric: recorded" "$rc:$(json 'j["run"] is not None' <"$WORK/out")" "0:True"
cp "$WORK/out" "$WORK/share.json"
srun=$(json 'j["run"]' <"$WORK/share.json")
want=$(json 'json.dumps(j["recommendation"]["weights"], sort_keys=True)' <"$WORK/share.json")
run "$TT" show "$srun" --json
is "show: the metric's objective, direction and each trial's figures" \
	"$rc:$(json 'j["objective"], sorted(set((t["metric_higher_is_better"], t["metric_best"] >= t["metric_median"] >= t["metric_worst"], t["time_best_s"]) for t in j["trials"])), max(t["metric_best"] for t in j["trials"]) == j["metric_best"]' <"$WORK/out")" \
	"0:app:metric,higher-is-better [(True, True, None)] True"
run "$TT" --sysfs-root "$fx" export --run "$srun" --format csv
is "export --format csv: each trial's median metric, no time (a metric run records none), no bandwidth" \
	"$rc:$(python3 -c 'import csv,sys; r=list(csv.DictReader(sys.stdin)); print(len(r) > 0, all(float(x["metric_median"]) > 0 and x["time_median_s"] == x["bw_best_bytes_s"] == "" for x in r))' <"$WORK/out")" \
	"0:True True"
# A metric where less is better (the default): the search ranks 1 / metric;
# show and plot give the winner's mean and interval as the metric itself,
# the same figures (view/score.h; plot's interval was the metric's own t
# interval, not the inverted one show gives). A run that keeps local memory
# labels its best "not applied" (view/plot.c mark_note).
rm -f "$RUNS"
run "${A[@]}" --json --metric 'result: ([0-9]+) ops/s' -- "$WORK/prog" metric
lrun=$(json 'j["run"]' <"$WORK/out")
run "$TT" show "$lrun" --json
want=$(json '(lambda r, f: "mean %s metric, 95%% CI %s..%s" % (f(1 / r["score"]), f(1 / r["score_ci_high"]), f(1 / r["score_ci_low"])))(j["recommendations"][0], lambda v: "%.*f" % (1 if abs(v) >= 100 else 2, v))' <"$WORK/out")
run "$TT" plot "$lrun" -o "$WORK/lower"
is "a lower-is-better metric: plot's winner has show's mean and interval" \
	"$rc:$(grep -c "marked best [0-9:,]*\(, not applied\)\{0,1\}: $want (" "$WORK/out")" "0:1"

# The metric is best with node 0 alone: the run recommends binding to local
# memory (issue 20), which no weight says (writing node 0's alone would move
# every other interleaving task): export has no weights for it, and apply
# --run writes nothing and says so.
is "the metric's best is local memory alone: the recommendation is to bind" \
	"$(json 'j["recommendation"]["action"], json.dumps(j["recommendation"]["weights"])' <"$WORK/share.json")" \
	'bind_local {"0": 1}'
expect_bad_input 2 "run $srun recommends binding to local memory for source node 0: no weights to export" "$fx" \
	"$TT" --sysfs-root "$fx" export --run "$srun" --format json
run "$TT" --sysfs-root "$fx" apply --run "$srun"
is "apply --run of it writes nothing, and says what the run recommends" \
	"$rc:$(grep -c 'recommends binding' "$WORK/out")" "0:1"
is "and the copy is byte for byte as before" "$(tree_sum "$fx")" "$before"

rm -f "$RUNS"
run "${A[@]}" -- "$WORK/prog"
grep -q "the program's output: $TIERTUNE_STATE_DIR/auto-app.log" "$WORK/out"
tap $? "the text report says where the program's output went"
is "the program's output went to the log (a header per run), not the report" \
	"$(grep -c '^## tiertune: run ' "$TIERTUNE_STATE_DIR/auto-app.log")" "$(wc -l <"$RUNS")"
run "${A[@]}" -- "$WORK/prog"
grep -q "^TEST HOOK (TIERTUNE_TEST_APP_HOST_NODES): the weights went to '$fx'" "$WORK/out"
tap $? "the text report says the program ran on this host's nodes, not the fixture's"

# --metric: the last match, its first group; higher is better.
rm -f "$RUNS"
run "${A[@]}" --metric 'result: ([0-9]+) ops/s' --higher-is-better -- "$WORK/prog" metric
is "--metric: the confirmation's lines show the metric the run printed, as trial lines do" \
	"$rc:$(grep '^confirm ' "$WORK/err" | awk '$5 > 100 && $5 <= 200 && $6 == "metric" {n++} END {print (n > 0 && n == NR)}')" \
	"0:1"
rm -f "$RUNS"
run "${A[@]}" --json --metric 'result: ([0-9]+) ops/s' --higher-is-better -- "$WORK/prog" metric
is "--metric: the number each run printed last, as scored" \
	"$rc:$(json 'sorted(set(100 < t["metric_mean"] <= 120 for t in j["trials"])), j["app"]["higher_is_better"], j["trials"][0]["metric_mean"]' <"$WORK/out")" \
	"0:[True] True 101.5"
run "${A[@]}" --metric 'nothing like this' -- "$WORK/prog" metric
is "--metric matching nothing stops the search (exit 1), naming the regex" \
	"$rc:$(grep -c "printed nothing that --metric 'nothing like this' matches" "$WORK/err")" "1:1"
run "${A[@]}" --metric '(ops)/s' -- "$WORK/prog" metric
is "--metric matching a word is not a number (exit 2)" \
	"$rc:$(grep -c "matched 'ops', which is not a number" "$WORK/err")" "2:1"
is "the fixture copy is as before after the metric runs" "$(tree_sum "$fx")" "$before"

# The program fails or crashes: the search stops, naming it; weights back.
for how in crash fail; do
	rm -f "$RUNS"
	run "${A[@]}" -- "$WORK/prog" "$how"
	case $how in
	crash) msg="command '$WORK/prog' was killed by signal 11" ;;
	fail) msg="command '$WORK/prog' exited with status 3" ;;
	esac
	is "the program ${how}s on its third run: exit 1, named, weights back" \
		"$rc:$(grep -c "$msg" "$WORK/err"):$(wc -l <"$RUNS"):$(tree_sum "$fx")" "1:1:3:$before"
done

# kill_mid_trial SIGNAL: the search with a slow program (a second a run) in
# the background, SIGNAL sent to tiertune while the program's third run
# sleeps; rc is tiertune's exit status.
kill_mid_trial() {
	local pid
	rm -f "$RUNS"
	"${A[@]}" -- "$WORK/prog" slow >"$WORK/out" 2>"$WORK/err" &
	pid=$!
	for _ in $(seq 400); do [ "$(cat "$RUNS" 2>/dev/null | wc -l)" -ge 3 ] && break; sleep 0.05; done
	kill -"$1" "$pid"
	wait "$pid" 2>/dev/null
	rc=$?
}

# SIGINT to tiertune while the program runs: restored, exit 130.
kill_mid_trial INT
is "SIGINT mid-run: exit 130, says so, fixture as before, no journal" \
	"$rc:$(grep -c 'interrupted by signal 2.*the weights are back' "$WORK/err"):$(tree_sum "$fx"):$(ls "$TIERTUNE_STATE_DIR" | grep -c journal)" \
	"130:1:$before:0"
kill_mid_trial TERM
is "SIGTERM mid-run: exit 143, fixture as before" "$rc:$(tree_sum "$fx")" "143:$before"
# SIGHUP, what closing the SSH session sends: as SIGINT.
kill_mid_trial HUP
is "SIGHUP mid-run: exit 129, says so, fixture as before, no journal" \
	"$rc:$(grep -c 'interrupted by signal 1.*the weights are back' "$WORK/err"):$(tree_sum "$fx"):$(ls "$TIERTUNE_STATE_DIR" | grep -c journal)" \
	"129:1:$before:0"
kill_mid_trial QUIT
is "SIGQUIT mid-run: exit 131, fixture as before" "$rc:$(tree_sum "$fx")" "131:$before"

# SIGINT while the program's own child runs, deaf to SIGTERM: the whole
# process group is stopped (SIGKILL after the grace period), none of it
# outlives tiertune, and tiertune does not hang.
rm -f "$RUNS" "$WORK/gc"
"${A[@]}" -- "$WORK/prog" group >"$WORK/out" 2>"$WORK/err" &
pid=$!
for _ in $(seq 400); do [ -s "$WORK/gc" ] && break; sleep 0.05; done
kill -INT "$pid"
for _ in $(seq 200); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
gone=$(kill -0 "$pid" 2>/dev/null && echo hangs || echo ended)
wait "$pid" 2>/dev/null
rc=$?
is "SIGINT with a grandchild deaf to SIGTERM: ended within 10 s, exit 130, fixture as before" \
	"$gone:$rc:$(tree_sum "$fx")" "ended:130:$before"
is "the grandchild did not outlive tiertune" \
	"$([ -s "$WORK/gc" ] && ! kill -0 "$(cat "$WORK/gc")" 2>/dev/null && echo gone)" gone

# SIGKILL: the journal stays; the next tiertune command puts it back.
kill_mid_trial KILL
is "killed mid-trial: the candidate's weights are still there, and the journal" \
	"$([ "$(tree_sum "$fx")" != "$before" ] && echo changed):$(ls "$TIERTUNE_STATE_DIR" | grep -c '^apply.journal$')" "changed:1"
run "${A[@]}" -- "$WORK/prog"
is "the next auto puts the journal back first, says so, and ends with the copy as before" \
	"$rc:$(grep -c 'first put back [0-9]* values from a journal' "$WORK/err"):$(tree_sum "$fx")" "0:1:$before"
kill_mid_trial KILL
check "killed again: 'tiertune restore' puts the journal back" "$TT" --sysfs-root "$fx" restore
is "and the copy is byte for byte as before" "$(tree_sum "$fx")" "$before"

# Weights moved under a trial (the program writes the fixture itself).
rm -f "$RUNS"
run "${A[@]}" --json -- "$WORK/prog" move
is "a trial whose weights moved is discarded, said, and measured again" \
	"$rc:$(json 'j["discarded"] == [{"weights": {"0": 1, "1": 1, "2": 1}, "why": "node 1'"'"'s weight was 1, 7 by the trial'"'"'s end"}], j["measurements"] + 1' <"$WORK/out")" \
	"0:True $(wc -l <"$RUNS")"
grep -q "^trial 0:1,1:1,2:1 discarded, measuring again: the weights moved under it (node 1's weight was 1, 7" "$WORK/err"
tap $? "the progress says which trial was discarded and why"
is "the discarded trial's own measurement is not counted: 2 measurements of 1:1" \
	"$(json '[t["measurements"] for t in j["trials"] if t["weights"] == {"0": 1, "1": 1, "2": 1}]' <"$WORK/out")" "[2]"
is "the fixture copy is as before after the discard" "$(tree_sum "$fx")" "$before"
# The same where the trial's weights are already in sysfs (1 everywhere, auto
# mode off): nothing to change, yet the weight changed under it goes back.
for f in 0 1 2; do echo 1 >"$fx/$WI/node$f"; done
echo false >"$fx/$WI/auto"
ones=$(tree_sum "$fx")
rm -f "$RUNS"
run "${A[@]}" --json -- "$WORK/prog" move
is "weights already the candidate's: the trial is discarded, and the copy is back as it was" \
	"$rc:$(json 'len(j["discarded"])' <"$WORK/out"):$(tree_sum "$fx")" "0:1:$ones"
cp -a "$FIX/spr-ddr5-2cxl/sys/kernel/mm/mempolicy/weighted_interleave/." "$fx/$WI/"
is "(the copy reset to the fixture)" "$(tree_sum "$fx")" "$before"

# Bad input: exit 2 (3 for a missing capability), nothing written.
rm -f "$RUNS"
B=("$TT" --sysfs-root "$fx" auto --source-node 0 --budget 20 --allow-unstable)
expect_bad_input 2 "no command after '--'" "$fx" "${B[@]}" --
expect_bad_input 2 "command 'no-such-command-here' not found in PATH" "$fx" "${B[@]}" -- no-such-command-here
expect_bad_input 2 "command '$WORK/nope' is not an executable file" "$fx" "${B[@]}" -- "$WORK/nope"
expect_bad_input 2 "--metric '(' is not a regular expression" "$fx" "${B[@]}" --metric '(' -- "$WORK/prog"
expect_bad_input 2 "--metric scores a program" "$fx" "${B[@]}" --metric 'x'
expect_bad_input 2 "--higher-is-better scores a program" "$fx" "${B[@]}" --higher-is-better
expect_bad_input 2 "--higher-is-better is the direction of --metric" "$fx" "${B[@]}" --higher-is-better -- "$WORK/prog"
expect_bad_input 2 "--mix, --threads, --size and --repeat shape bench trials" "$fx" "${B[@]}" --mix copy -- "$WORK/prog"
expect_bad_input 2 "--placement 'exact' does not apply" "$fx" "${B[@]}" --placement exact -- "$WORK/prog"
expect_bad_input 2 "option '--placement' value 'bogus' is not one of: exact, kernel" "$fx" "${B[@]}" --placement bogus
expect_bad_input 2 "auto takes a program only after '--', got 'ls'" "$fx" "${B[@]}" ls
expect_bad_input 2 "--objective, --traffic-rate, --max-latency and --granularity shape bench trials" "$fx" "${B[@]}" --objective latency --traffic-rate 10 -- "$WORK/prog"
expect_bad_input 2 "--objective, --traffic-rate, --max-latency and --granularity shape bench trials" "$fx" "${B[@]}" --granularity tier -- "$WORK/prog"
expect_bad_input 2 "--objective, --traffic-rate, --max-latency and --granularity shape bench trials" "$fx" "${B[@]}" --max-latency 300 -- "$WORK/prog"
expect_bad_input 2 "app mode and --placement take one --source-node" "$fx" "$TT" --sysfs-root "$fx" auto --all-sources --budget 20 -- "$WORK/prog"
expect_bad_input 2 "--placement kernel measures bandwidth only" "$fx" "${B[@]}" --placement kernel --max-latency 300
expect_bad_input 2 "--model measures nothing" "$fx" "${B[@]}" --model "$TT_TOP/model/machines/spr-ddr5-2cxl.json" -- "$WORK/prog"
expect_bad_input 2 "is not this machine" "$fx" env -u TIERTUNE_TEST_APP_HOST_NODES "${B[@]}" -- "$WORK/prog"
expect_bad_input 2 "is not this machine" "$fx" "$SHIPPED" --sysfs-root "$fx" auto --source-node 0 --budget 20 -- "$WORK/prog"
expect_bad_input 2 "is not this machine" "$fx" "${B[@]}" --placement kernel
if can_drop; then
	ttn=$(nobody_tt)
	mkdir -p "$WORK/nobody-state" && chown 65534:65534 "$WORK/nobody-state"
	expect_bad_input 3 "cannot open '$fx/$WI/node0' for writing" "$fx" \
		"${NOBODY[@]}" TIERTUNE_STATE_DIR="$WORK/nobody-state" "$ttn" --sysfs-root "$fx" auto \
		--source-node 0 --budget 20 -- "$WORK/prog"
	grep -q "needs root" "$WORK/err"
	tap $? "without root: the hint says writing weights needs root"
else
	skip "the not-root check needs root and setpriv to drop to nobody"
	skip "the not-root hint needs root and setpriv to drop to nobody"
fi
# The live machine, read first: kernel placement there writes nothing under
# the tests (one memory node: nothing to interleave; more: the test suites
# forbid live writes, and the refusal is a missing capability).
nmem=$(node_list /sys/devices/system/node/has_memory | wc -l)
if [ "$nmem" -lt 2 ]; then live_why="nothing to interleave"; else live_why="refusing to write"; fi
expect_bad_input 3 "$live_why" - "$TT" auto --source-node "$(local_node)" --placement kernel --budget 20
is "no program ran for any bad input" "$([ -e "$RUNS" ] && echo ran || echo none)" none
done_testing
