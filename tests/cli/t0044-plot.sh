#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tiertune plot (issue 20 item 5, issue 21 item 2): an auto run's trials on
# the simplex of their shares (one axis for two nodes, a ternary plot for
# three, a panel per pair beyond), coloured by their figure in viridis,
# never interpolated; the winner (its mean and 95% interval, as the report
# ranks) and the baselines local, 1:1 and auto marked and labelled, and
# reference lines at them; bench loaded-latency runs overlaid as curves and a
# matrix run as a labelled heat map; stored strings reach gnuplot only
# single-quoted. The model's runs on fixture copies; the bench runs are
# written into the database as a merged database would bring them.
. "$(dirname "$0")/lib.sh"

export TIERTUNE_DB="$WORK/plot.db"
MODELS="$TT_TOP/model/machines"
fx=$(copy_fixture spr-ddr5-2cxl)
have_gnuplot=$(command -v gnuplot >/dev/null && echo yes)

# plot_run NAME ARGS...: an auto run recorded; prints its id.
plot_run() {
	"$TT" "$@" --json >"$WORK/auto.json" 2>/dev/null
	json 'j["run"]' <"$WORK/auto.json"
}
# The baselines' weights as the auto report gave them, "local=0:1 ..."
baselines() {
	json '" ".join("%s=%s" % (b["name"], ",".join("%s:%s" % (n, w) for n, w in sorted(b["weights"].items(), key=lambda x: int(x[0])))) for b in j["baselines"])' <"$WORK/auto.json"
}
# What a mark's label says after its weights where the run keeps auto mode
# or local memory (grep's basic regex): that one kept, the best not applied.
note='\(, kept\|, not applied\)\{0,1\}'
# What plot said it marked, the same way.
marked() { sed -n "s/^SIMULATED run: marked \([^ ]*\) \([0-9:,]*\)$note: .*/\1=\2/p" "$WORK/out" | grep -v '^best=' | tr '\n' ' ' | sed 's/ $//'; }
# The report's figure of a baseline (or the best), as plot words its label.
fmt='lambda v: "%.*f" % (1 if abs(v) >= 100 else 2, v)'
report_label() {
	json "(lambda f, b: \"%s GB/s, 95%% CI %s..%s\" % (f(b['bw_mean_bytes_s'] / 1e9), f(b['bw_ci_low_bytes_s'] / 1e9), f(b['bw_ci_high_bytes_s'] / 1e9)))($fmt, [b for b in j['baselines'] if b['name'] == '$1'][0] if '$1' != 'best' else j['best'])" <"$WORK/auto.json"
}

# Three nodes: the shipped SPR model, its kernel's auto mode on.
r3=$(plot_run --sysfs-root "$fx" auto --source-node 0 --model "$MODELS/spr-ddr5-2cxl.json" --seed 7)
want_base=$(baselines)
want_base3=$want_base
reco=$("$TT" show "$r3" --json | json '",".join("%s:%s" % (n, w) for n, w in sorted(j["recommendations"][0]["weights"].items(), key=lambda x: int(x[0])))')
ntrials=$("$TT" show "$r3" --json | json 'len(j["trials"])')
run "$TT" plot "$r3" -o "$WORK/p3"
is "plot of a 3-node auto run: exit 0, a ternary plot of its trials, simulated" \
	"$rc:$(head -1 "$WORK/out")" \
	"0:SIMULATED run: wrote $WORK/p3.dat ($ntrials points) and $WORK/p3.gp: a ternary plot of nodes 0, 1 and 2"
is "the baselines local, 1:1 and auto are marked, with the weights the run measured them at" \
	"$(marked)" "${want_base//1:1=/1:1=}"
# Every mark's label carries the mean and 95% interval the report ranks
# by (from the measurements the run stored), the same figures as auto's own
# report; the winner is the recommendation's weights.
for m in best local 1:1 auto; do
	is "the $m mark: the report's mean and 95% CI" \
		"$(grep -c "^SIMULATED run: marked $m [0-9:,]*$note: mean $(report_label "$m") ([0-9]* measurements)$" "$WORK/out")" 1
done
is "the winner is the recommendation's weights" "$(grep -c "^SIMULATED run: marked best $reco$note: " "$WORK/out")" 1
is "the data: a row per trial, simulated said; each mark on exactly one row" \
	"$(grep -vc '^#' "$WORK/p3.dat"):$(head -1 "$WORK/p3.dat" | grep -c SIMULATED):$(awk '!/^#/ {n = split($NF, m, ","); for (i = 1; i <= n; i++) c[m[i]]++} END {print c["best"] c["local"] c["1:1"] c["auto"]}' "$WORK/p3.dat")" \
	"$ntrials:1:1111"
is "the ternary point of a row is its shares: a row per trial, shares summing to 1" \
	"$(awk '!/^#/ && $1 >= 0 && $2 >= 0 && $3 >= 0 && ($1 + $2 + $3 - 1)^2 < 1e-9 {n++} END {print n}' "$WORK/p3.dat")" "$ntrials"
gp="$WORK/p3.gp"
is "no interpolation (dgrid3d) and no rainbow palette: viridis, trials as points" \
	"$(grep -c 'dgrid3d\|pm3d\|rgb 33,13,10\|rgbformulae' "$gp"):$(grep -c "^set palette defined (0 '#440154'.* 1 '#fde725')$" "$gp"):$(grep -c '^plot \$data using (\$2 + \$3/2):(\$3\*sqrt(3)/2):4 with points' "$gp")" \
	"0:4:2"
for m in best local 1:1 auto; do
	is "the script draws the $m mark with its label in the key (PNG and SVG, both figures)" \
		"$(grep -c "^  \$m[0-3] using .* title '$m [0-9:,]*$note: mean " "$gp")" 4
done
# Reference lines at the baselines' figures on the ranking (and the
# 2-node) figure: local and auto, and 1:1.
for m in local auto 1:1; do
	v=$(awk -v m="$m" '!/^#/ && $NF ~ "(^|,)" m "(,|$)" {print $4}' "$WORK/p3.dat")
	is "the ranking has a reference line at $m's mean ($v GB/s), labelled" \
		"$(grep -c "^set arrow from graph 0, first $v to graph 1, first $v nohead" "$gp"):$(grep -c "^set label '$m [0-9.]* GB/s' at graph 1, first [0-9.e+-]* " "$gp")" "2:2"
done
is "the title says simulated and the recommendation (keep auto mode)" \
	"$(grep -c "^set title 'SIMULATED run $r3 (auto): bandwidth:triad from node 0' . \"\\\\n\" . 'recommendation: keep the kernel''s auto mode" "$gp")" 4
if [ -n "$have_gnuplot" ]; then
	is "gnuplot drew both figures as PNG and SVG, and said nothing on stderr" \
		"$(for f in p3 p3-rank; do head -c 4 "$WORK/$f.png" | od -An -c | tr -d ' '; grep -c '</svg>' "$WORK/$f.svg"; done | tr '\n' ' '):$(wc -c <"$WORK/err")" \
		'211PNG 1 211PNG 1 :0'
else
	skip "gnuplot is not installed: nothing drawn to check"
fi

# Two nodes: the figure against the one share that fixes the vector, with
# bars, reference lines.
r2=$(plot_run --sysfs-root "$fx" auto --source-node 0 --nodes 0,1 --model "$MODELS/spr-ddr5-2cxl.json" --seed 3)
want_base=$(baselines)
run "$TT" plot "$r2" -o "$WORK/p2"
is "a 2-node run: the share of node 1, every baseline marked" \
	"$rc:$(sed -n 1p "$WORK/out" | sed 's/.*: //'):$(marked)" "0:the share of node 1:$want_base"
is "... its points with bars, coloured; no heat map" \
	"$(grep -c '^plot \$data using 2:3:4:5:3 with yerrorbars pt 7 ps 1.1 lc palette' "$WORK/p2.gp"):$(ls "$WORK" | grep -c 'p2-heat')" "2:0"

# Four nodes on a machine without HMAT: auto mode's vector came from the
# model's bandwidths, so only the record can say which trial it was.
fxg=$(copy_fixture 2s-genoa-cxl)
rg=$(plot_run --sysfs-root "$fxg" auto --source-node 0 --model "$MODELS/2s-genoa-cxl.json" --seed 7 --noise 0.01)
want_base=$(baselines)
run "$TT" plot "$rg" -o "$WORK/pg"
is "a 4-node run without HMAT: every baseline marked, auto mode's the model's vector" \
	"$rc:$(sed -n 1p "$WORK/out" | sed 's/.*: //'):$(marked):$(grep -c "^SIMULATED run: marked auto [0-9:,]*$note: mean $(report_label auto) " "$WORK/out")" \
	"0:a panel per pair of its 4 nodes:$want_base:1"

# Five nodes: a panel per pair of nodes (10), placed by hand, and the key.
fx5=$(copy_fixture spr-ddr5-4cxl)
r5=$(plot_run --sysfs-root "$fx5" auto --source-node 0 --model "$MODELS/spr-ddr5-4cxl.json" --seed 7)
want_base=$(baselines)
run "$TT" plot "$r5" -o "$WORK/p5"
is "a 5-node run: a panel per pair, every baseline marked" \
	"$rc:$(sed -n 1p "$WORK/out" | sed 's/.*: //'):$(marked)" "0:a panel per pair of its 5 nodes:$want_base"
is "... 10 panels and a key panel per terminal" \
	"$(grep -c '^plot \$data using [0-9]:[0-9]:6 with points' "$WORK/p5.gp"):$(grep -c '^set origin' "$WORK/p5.gp")" "20:22"
if [ -n "$have_gnuplot" ]; then
	is "gnuplot drew the 5-node figures without a word on stderr" \
		"$([ -s "$WORK/p5.png" ] && [ -s "$WORK/p5-rank.svg" ] && echo drawn):$(wc -c <"$WORK/err")" "drawn:0"
else
	skip "gnuplot is not installed: nothing drawn to check"
fi

# The latency objective: ns, lower is better (the palette turned round so
# brighter is still better); the winner's mean from its score (1e9/ns).
rl=$(plot_run --sysfs-root "$fx" auto --source-node 0 --model "$MODELS/spr-ddr5-2cxl.json" --objective latency --traffic-rate 100 --seed 3)
run "$TT" plot "$rl" -o "$WORK/pl"
want=$(json '"%.1f ns, 95%% CI" % j["best"]["lat_mean_ns"]' <"$WORK/auto.json")
is "a latency run: rows in ns, the palette reversed, the winner's mean latency as the report's" \
	"$rc:$(sed -n 2p "$WORK/pl.dat" | grep -c '(figures in ns)'):$(grep -c '^set palette negative' "$WORK/pl.gp"):$(grep -c "^SIMULATED run: marked best [0-9:,]*$note: mean $want " "$WORK/out")" \
	"0:1:4:1"

# ... and the same mean and interval as show's (each trial's mean taken on
# loads per second, view/score.h: the plot took the mean of latencies, the
# report's last line and JSON too, 0.1 ns off the comparison table's).
run "$TT" plot "$rl" -o "$WORK/pl"
cp "$WORK/out" "$WORK/pl.out"
run "$TT" show "$rl" --json
want=$(json '(lambda r, f: "mean %s ns, 95%% CI %s..%s" % (f(1e9 / r["score"]), f(1e9 / r["score_ci_high"]), f(1e9 / r["score_ci_low"])))(j["recommendations"][0], lambda v: "%.*f" % (1 if abs(v) >= 100 else 2, v))' <"$WORK/out")
is "a latency run: plot's winner has show's mean and interval" \
	"$rc:$(grep -c "marked best [0-9:,]*$note: $want (" "$WORK/pl.out")" "0:1"

# A run recorded before its measurements were kept (no samples): each
# trial's median with bars worst..best, said so; the winner's label still
# carries the recommendation's mean and interval.
cp "$TIERTUNE_DB" "$WORK/old.db"
python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("DELETE FROM samples"); c.commit()' "$WORK/old.db"
run "$TT" plot "$r3" --db "$WORK/old.db" -o "$WORK/old"
want=$("$TT" show "$r3" --json | json '"(mean %.1f GB/s, 95%% CI %.1f..%.1f)" % (j["recommendations"][0]["score"] / 1e9, j["recommendations"][0]["score_ci_low"] / 1e9, j["recommendations"][0]["score_ci_high"] / 1e9)')
is "a run without stored measurements: medians and ranges, said so; the winner's mean from the recommendation" \
	"$rc:$(grep -c "^SIMULATED run: marked best $reco$note: median [0-9.]* GB/s $want$" "$WORK/out"):$(grep -c "^SIMULATED run: marked local 0:1$note: median [0-9.]* GB/s$" "$WORK/out"):$(grep -c "title 'trials: median, bars the worst..best of its measurements (recorded without them)'" "$WORK/old.gp")" \
	"0:1:1:2"
is "... its baselines found by their weights, auto mode's from the recorded HMAT figures" \
	"$(marked)" "$want_base3"

# Bench runs, as db merge would bring them from a host with two CPU nodes
# and three memory nodes: two loaded-latency runs under two weight
# vectors, and a matrix run.
python3 - "$TIERTUNE_DB" <<'EOF'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
host = c.execute("SELECT host_id FROM runs LIMIT 1").fetchone()[0]
def run(objective, trials):
    cur = c.execute("INSERT INTO runs (uuid, host_id, kind, command, source_node, objective, kernel_release, started, finished, status, simulated, proc_host, boot_id, pid, pid_start) VALUES (lower(hex(randomblob(16))), ?, 'bench', 'tiertune bench', 0, ?, '6.17.0', 1, 2, 'done', 1, 'h', 'b', 1, 1)", (host, objective))
    rid = cur.lastrowid
    for seq, (mix, bw, lat, nodes) in enumerate(trials, 1):
        t = c.execute("INSERT INTO trials (run_id, seq, kernel, mix, placement, threads, size_bytes, bw_best_bytes_s, bw_median_bytes_s, bw_min_bytes_s, lat_median_ns, lat_best_ns, lat_max_ns, validated, simulated) VALUES (?, ?, 'k', ?, 'exact', 32, 1073741824, ?, ?, ?, ?, ?, ?, 1, 1)",
                      (rid, seq, mix, bw * 1e9, bw * 1e9, bw * 1e9, lat, lat, lat)).lastrowid
        tot = sum(w or 1 for _, w in nodes)
        for node, w in nodes:
            c.execute("INSERT INTO trial_nodes VALUES (?, ?, ?, ?, ?, 0)", (t, node, w, (w or 1) / tot, (w or 1) / tot))
curve = [(0, 180, 420), (50, 160, 260), (200, 110, 160), (1000, 30, 125), (5000, 8, 118)]
run("latency:loaded-latency", [("reads, delay %d" % d, bw, lat, [(0, 1)]) for d, bw, lat in curve])
run("latency:loaded-latency", [("reads, delay %d" % d, bw * 1.1, lat * 0.9 + 30, [(0, 3), (1, 1)]) for d, bw, lat in curve])
run("matrix:reads", [("MLC from CPU node %d" % cpu, bw, lat, [(mem, None)]) for cpu, row in ((0, ((0, 250, 110), (1, 30, 250), (2, 30, 255))), (1, ((0, 120, 190), (1, 28, 330), (2, 28, 335)))) for mem, bw, lat in row])
run("bandwidth:triad", [("STREAM", 100, None, [(0, 1)])])
c.commit()
EOF
read -r l1 l2 mx tr < <("$TT" runs --json | json '" ".join(str(r["id"]) for r in sorted(j["runs"], key=lambda r: r["id"])[-4:])')
run "$TT" plot "$l1" "$l2" -o "$WORK/ll"
is "two loaded-latency runs overlaid: 10 points, a curve per run labelled with its weights" \
	"$rc:$(head -1 "$WORK/out"):$(grep -c "^plot \$data using (\$1 == $l1 ? \$2 : 1/0):3 with linespoints .* title 'SIMULATED run $l1: weights 0:1', \\\\$" "$WORK/ll.gp"):$(grep -c "^  \$data using (\$1 == $l2 ? \$2 : 1/0):3 with linespoints .* title 'SIMULATED run $l2: weights 0:3,1:1'$" "$WORK/ll.gp")" \
	"0:SIMULATED run: wrote $WORK/ll.dat (10 points) and $WORK/ll.gp: loaded latency against bandwidth:2:2"
is "the curve's rows: run, GB/s, ns, the delay from the trial, weights" \
	"$(grep -v '^#' "$WORK/ll.dat" | sed -n '1p;10p' | tr '\n' '|')" "$l1 180 420 0 0:1|$l2 8.8 136.2 5000 0:3,1:1|"
run "$TT" plot "$mx" -o "$WORK/mx"
is "a matrix run: a labelled heat map, a cell per CPU node and memory node" \
	"$rc:$(head -1 "$WORK/out"):$(grep -v '^#' "$WORK/mx.dat" | tr '\n' '|')" \
	"0:SIMULATED run: wrote $WORK/mx.dat (6 points) and $WORK/mx.gp: the CPU-node x memory-node matrix:0 0 250 110|0 1 30 250|0 2 30 255|1 0 120 190|1 1 28 330|1 2 28 335|"
is "... its axes name the nodes, each cell its figure written in it, both panels" \
	"$(grep -c "^set xtics ('0' 0, '1' 1, '2' 2)$" "$WORK/mx.gp"):$(grep -c "^set ytics ('0' 0, '1' 1)$" "$WORK/mx.gp"):$(grep -c 'with boxxyerror fs solid lc palette' "$WORK/mx.gp"):$(grep -c "sprintf('%.1f', column(3))" "$WORK/mx.gp")" \
	"4:4:4:2"
if [ -n "$have_gnuplot" ]; then
	is "gnuplot drew the curves and the heat map without a word on stderr" \
		"$([ -s "$WORK/ll.png" ] && [ -s "$WORK/mx.png" ] && [ -s "$WORK/mx.svg" ] && echo drawn):$(wc -c <"$WORK/err")" "drawn:0"
else
	skip "gnuplot is not installed: nothing drawn to check"
fi
# Without gnuplot: the table and the script, and why nothing was drawn.
mkdir "$WORK/nogp"
run env PATH="$WORK/nogp" "$TT" plot "$mx" -o "$WORK/nogp/mx"
is "without gnuplot in PATH: exit 0, says so, the data and the script written, no image" \
	"$rc:$(grep -c "^gnuplot is not installed (not found in PATH), so nothing was drawn; with it, 'gnuplot $WORK/nogp/mx.gp' draws $WORK/nogp/mx.png and .svg$" "$WORK/out"):$(ls "$WORK/nogp" | tr '\n' ' ')" \
	"0:1:mx.dat mx.gp "

# This host's own bench runs, recorded: the matrix has a cell per CPU node
# and memory node of this machine; a loaded-latency run a point per delay.
ncpu=$(for d in /sys/devices/system/node/node[0-9]*; do [ -n "$(tr -d '\n' <"$d/cpulist")" ] && echo; done | wc -l)
nmem=$(node_list /sys/devices/system/node/has_memory | wc -l)
run "$TT" bench --matrix --size 4M --repeat 2 --record --db "$WORK/live.db"
live=$("$TT" runs --db "$WORK/live.db" --json | json 'j["runs"][0]["id"]')
run "$TT" plot "$live" --db "$WORK/live.db" -o "$WORK/live"
cached=$("$TT" show "$live" --db "$WORK/live.db" --json | json '2 * any(t["cache_resident"] for t in j["trials"])')
is "a recorded bench --matrix of this host plots: a cell per CPU node ($ncpu) and memory node ($nmem), cache-resident said as recorded" \
	"$rc:$(grep -vc '^#' "$WORK/live.dat"):$(grep -c '^set multiplot layout 1,2 title .*CACHE-RESIDENT' "$WORK/live.gp")" "0:$((ncpu * nmem)):$cached"
run "$TT" bench --kernel loaded-latency --size 4M --delays 0,1000 --point-ms 20 --record --db "$WORK/live.db"
live=$("$TT" runs --db "$WORK/live.db" --json | json 'j["runs"][0]["id"]')
run "$TT" plot "$live" --db "$WORK/live.db" -o "$WORK/livell"
is "a recorded loaded-latency run of this host plots: a point per delay, the delays from its trials" \
	"$rc:$(grep -v '^#' "$WORK/livell.dat" | awk '{print $4}' | tr '\n' ' ')" "0:0 1000 "

expect_bad_input 2 "run $tr is a 'bench' run: plot draws auto and sweep runs, and bench runs of --kernel loaded-latency or --matrix" - \
	"$TT" plot "$tr" -o "$WORK/nothing"
expect_bad_input 2 "run $r3: only loaded-latency bench runs are drawn together" - "$TT" plot "$l1" "$r3" -o "$WORK/nothing"
expect_bad_input 2 "plot takes a run id, or up to 16 loaded-latency bench runs" - "$TT" plot $(seq 1 17) -o "$WORK/nothing"
expect_bad_input 2 "no run 999" - "$TT" plot 999 -o "$WORK/nothing"
expect_bad_input 2 "--output '' names no file" - "$TT" plot "$r3" -o ''
expect_bad_input 2 "--output '$WORK/' names no file" - "$TT" plot "$r3" -o "$WORK/"

# Stored strings reach gnuplot's script quoted: an output prefix with a
# quote runs nothing. An objective that came from another host (db merge)
# and is none tiertune writes (it closes a double-quoted title and calls
# system(); the backquotes would run in double quotes too; the newline
# would end the command) is refused naming the run, before any file is
# written: the objective is read by core/objective.c alone (issue 36).
cp "$TIERTUNE_DB" "$WORK/hostile.db"
python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("UPDATE runs SET objective = ? WHERE id = ?", ("x\" . system(\"touch " + sys.argv[3] + "/pwned1\") . \" `touch " + sys.argv[3] + "/pwned2` @x\nprint 1", int(sys.argv[2])))
c.commit()' "$WORK/hostile.db" "$r3" "$WORK"
expect_bad_input 2 "run $r3: objective 'x\" . system(\"touch $WORK/pwned1\") . \" \`touch $WORK/pwned2\` @x\\nprint 1' is not one tiertune records" - \
	"$TT" plot "$r3" --db "$WORK/hostile.db" -o "$WORK/hostile"
is "a hostile stored objective: nothing run, no file written" "$(ls "$WORK" | grep -c 'pwned\|^hostile\.\(dat\|gp\|png\|svg\)$')" 0
for c in "show $r3" "show $r3 --csv" "show $r3 --json" "export --run $r3 --format csv"; do
	expect_bad_input 2 "run $r3: objective 'x" - "$TT" --db "$WORK/hostile.db" $c
done
run "$TT" --db "$WORK/hostile.db" runs
is "runs lists the run with no headline, and a warning naming it" \
	"$rc:$(grep -c "^ *$r3 .* auto .* -  SIMULATED$" "$WORK/out"):$(grep -c "^tiertune: warning: run $r3: objective 'x" "$WORK/err")" "0:1:1"
run "$TT" plot "$r3" -o "$WORK/it's"
is "a quote in -o runs no command; the title holds the objective" \
	"$rc:$(ls "$WORK" | grep -c pwned):$(grep -c "^set title 'SIMULATED run $r3 (auto): bandwidth:triad from node 0' . " "$WORK/it's.gp")" \
	"0:0:4"
if [ -n "$have_gnuplot" ]; then
	is "... and gnuplot drew it, to the file with the quote in its name" "$([ -s "$WORK/it's.png" ] && echo drawn)" drawn
else
	skip "gnuplot is not installed: nothing drawn to check"
fi
expect_bad_input 2 "--output '|touch $WORK/pwned3 #' starts with '|', which gnuplot would run as a command" - \
	"$TT" plot "$r3" -o "|touch $WORK/pwned3 #"
is "plot: -o '|cmd' ran nothing" "$(ls "$WORK" | grep -c pwned)" 0
is "a refused plot writes no file" "$(ls "$WORK" | grep -c '^nothing')" 0

# Issue 34 item 4: the plot says what the report says, by one source of
# words; its rank is the order the winner is named in; its axes name each
# node's role and tier.
# The words: the reason auto's report gave for keeping auto mode (its
# "apply:" line) is the one recorded and the one the title carries.
"$TT" --sysfs-root "$fx" auto --source-node 0 --model "$MODELS/spr-ddr5-2cxl.json" --seed 7 >"$WORK/r3.txt" 2>&1
why_report=$(sed -n 's/^apply: nothing to write: keep the kernel.s auto mode (\(.*\))$/\1/p' "$WORK/r3.txt" | sed 's/, see its row above$//')
r3b=$("$TT" runs --json | json 'j["runs"][0]["id"]')
run "$TT" plot "$r3b" -o "$WORK/why"
is "keep auto: the report's reason is recorded with the recommendation" \
	"$("$TT" show "$r3b" --json | json 'j["recommendations"][0].get("action_why")')" "$why_report"
is "... and the plot's titles say it in the same words" \
	"$(grep -c "^set title .*'recommendation: keep the kernel''s auto mode ($why_report)'" "$WORK/why.gp"):$([ -n "$why_report" ] && echo said)" "4:said"
# The rank: a recommendation that is not the highest mean (here made the
# 1:1 row's, as a winner that beat others by the search's own rule would
# be) is rank 1, the rest by mean after it; the axis says that order.
cp "$TIERTUNE_DB" "$WORK/rank.db"
python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("UPDATE recommendations SET weights = ?, action = ? WHERE run_id = ?", ("0:1,1:1,2:1", "apply", int(sys.argv[2]))); c.commit()' "$WORK/rank.db" "$r3b"
run "$TT" plot "$r3b" --db "$WORK/rank.db" -o "$WORK/rank"
rank_of_best=$(awk '!/^#/ && $NF ~ /(^|,)best(,|$)/ {print $7}' "$WORK/rank.dat")
is "rank: the recommendation is rank 1 (the point circled first), the ranks 1..n once each" \
	"$rc:$rank_of_best:$(awk '!/^#/ {print $7}' "$WORK/rank.dat" | sort -n | uniq | awk '$1 == NR {n++} END {print n}')" \
	"0:1:$(grep -vc '^#' "$WORK/rank.dat")"
is "... the rest by mean, highest first" \
	"$(awk '!/^#/ && $7 > 1 {print $7, $4}' "$WORK/rank.dat" | sort -n | awk 'NR > 1 && $2 > last {bad++} {last = $2} END {print bad + 0}')" 0
is "... and the axis says that order" \
	"$(grep -c "^set xlabel 'trials: the recommendation, then the rest by mean, highest first'" "$WORK/rank.gp"):$(grep -c "^set xlabel 'trials" "$WORK/rank.gp")" "2:2"
# A run that keeps a baseline recommends that baseline, not the search's
# best (whose weights are recorded with the action): the baseline's point is
# rank 1, labelled kept and drawn largest; the best is labelled not
# applied (the title says why, test above). The sweep below keeps auto mode, whose mean (188.2 GB/s) is
# above the best's (186.5: auto beat it, -3.1%); with auto mode off the same
# sweep binds locally (local 178.5 GB/s under the best).
# keep_check NAME DB MARK ACTION: the plot of DB's run 1 against it.
keep_check() {
	local name=$1 db=$2 mark=$3 action=$4 rows
	run "$TT" plot 1 --db "$db" -o "$WORK/$name"
	rows=$(grep -vc '^#' "$WORK/$name.dat")
	is "$action: recorded so, the plot drawn" \
		"$rc:$("$TT" show 1 --db "$db" --json | json 'j["recommendations"][0]["action"]')" "0:$action"
	is "$action: rank 1 is the $mark point, the best not; the ranks 1..n once each" \
		"$(awk '!/^#/ && $7 == 1 {print $NF}' "$WORK/$name.dat"):$(awk '!/^#/ && $NF ~ /(^|,)best(,|$)/ {print ($7 > 1)}' "$WORK/$name.dat"):$(awk '!/^#/ {print $7}' "$WORK/$name.dat" | sort -n | uniq | awk '$1 == NR {n++} END {print n}')" \
		"$mark:1:$rows"
	is "$action: ... the rest by mean, highest first, the axis saying that order" \
		"$(awk '!/^#/ && $7 > 1 {print $7, $4}' "$WORK/$name.dat" | sort -n | awk 'NR > 1 && $2 > last {bad++} {last = $2} END {print bad + 0}'):$(grep -c "^set xlabel 'trials: the recommendation, then the rest by mean, highest first'" "$WORK/$name.gp")" \
		"0:2"
	is "$action: the key calls the $mark point kept (drawn largest), the best not applied" \
		"$(grep -cE "^  \\\$m[0-9] using 7:4 with points pt [0-9]+ ps 3\.2 .* title '$mark [0-9:,]+, kept: mean " "$WORK/$name.gp"):$(grep -cE "^  \\\$m0 using 7:4 with points pt 6 ps 2\.2 .* title 'best [0-9:,]+, not applied: mean " "$WORK/$name.gp"):$(grep -c "^SIMULATED run: marked $mark [0-9:,]*, kept: mean" "$WORK/out")" \
		"2:2:1"
}
"$TT" --sysfs-root "$fx" sweep --source-node 0 --model "$MODELS/spr-ddr5-2cxl.json" --grid 8 --seed 1 --db "$WORK/keep.db" >/dev/null 2>&1
keep_check keep "$WORK/keep.db" auto keep_auto
fl=$(copy_fixture spr-ddr5-2cxl)
# Auto mode off and the kernel's 1s in the files: the machine runs local
# memory (the default policy), which the run keeps by binding there (weights
# set now, auto mode's or any, would be kept as they are: keep_now).
echo false >"$fl/sys/kernel/mm/mempolicy/weighted_interleave/auto"
for f in "$fl"/sys/kernel/mm/mempolicy/weighted_interleave/node*; do echo 1 >"$f"; done
"$TT" --sysfs-root "$fl" sweep --source-node 0 --model "$MODELS/spr-ddr5-2cxl.json" --grid 8 --seed 1 --db "$WORK/local.db" >/dev/null 2>&1
keep_check local "$WORK/local.db" local bind_local
# The axes: each node with its role from the source and its tier (topo's).
tiers=$("$TT" --sysfs-root "$fx" topo --json | json '" ".join("%d:%d" % (n["id"], n["tier"]) for n in j["nodes"])')
want_labels=$(for nt in $tiers; do n=${nt%%:*} t=${nt#*:}
	case $n in 0) r="local DRAM" a=left ;; 1) r="local CPU-less, slower than DRAM" a=right ;; *) r="local CPU-less, slower than DRAM" a=center ;; esac
	printf "node %s: 100%% / %s, tier %s / %s;" "$n" "$r" "$t" "$a"; done)
# The corners' labels: the node, then its role and tier on a line of its
# own, the bottom corners' turned inwards (issue 44: beside the corners
# they ran off the image's left edge and into the colour bar).
is "ternary axes: each node's role and tier ($tiers), on two lines, the bottom corners' inwards" \
	"$(sed -n "s/^set label '\(node [0-9]: 100%\)' \. \"\\\\n\" \. '\([^']*\)' at [0-9.,]* \([a-z]*\) .*/\1 \/ \2 \/ \3/p" "$WORK/why.gp" | awk '!seen[$0]++' | tr '\n' ';')" "$want_labels"
# Unstable trials: said in the plot's title and in show, as recorded.
cp "$WORK/live.db" "$WORK/unstable.db"
python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("UPDATE trials SET unstable = 1 WHERE run_id = (SELECT max(id) FROM runs)"); c.commit()' "$WORK/unstable.db"
ll=$("$TT" runs --db "$WORK/unstable.db" --json | json 'j["runs"][0]["id"]')
run "$TT" plot "$ll" --db "$WORK/unstable.db" -o "$WORK/unstable"
is "a run recorded unstable: the plot's title says UNSTABLE" \
	"$rc:$(grep -cE "^set (multiplot )?title .*'UNSTABLE: passes spread beyond 10%, or a curve not monotone: other work shared the host'" "$WORK/unstable.gp")" \
	"0:$(grep -cE '^set (multiplot )?title ' "$WORK/unstable.gp")"
run "$TT" show "$ll" --db "$WORK/unstable.db"
is "... and show marks its trials" \
	"$rc:$(grep -c '  UNSTABLE$' "$WORK/out"):$(grep -c '^UNSTABLE: 2 trials whose passes spread beyond 10%' "$WORK/out")" "0:2:1"

# Descheduled trials (issue 44 left them out of the plot): said in the
# title as bench and show say them, as recorded; a run none of whose trials
# was descheduled says nothing of it (set both ways: this host's own runs may
# be either).
for d in 1 0; do
	cp "$WORK/live.db" "$WORK/desched$d.db"
	python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("UPDATE trials SET descheduled = ?, unstable = 0 WHERE run_id = (SELECT max(id) FROM runs)", (int(sys.argv[2]),)); c.commit()' "$WORK/desched$d.db" "$d"
	run "$TT" plot "$ll" --db "$WORK/desched$d.db" -o "$WORK/desched$d"
	titles=$(grep -cE '^set (multiplot )?title ' "$WORK/desched$d.gp")
	marked=$(grep -cE "^set (multiplot )?title .*'DESCHEDULED: the measuring threads ran under 90% of their passes: other work shared the CPU'" "$WORK/desched$d.gp")
	is "a run recorded descheduled=$d: the plot's titles say DESCHEDULED $((d * titles)) times" "$rc:$marked" "0:$((d * titles))"
done

# Xeon Max, HBM flat (issue 44): the rank plot marks the weights set now,
# which the report's headline gain is against, and the fast tier alone (the
# HBM beside the source), with local, 1:1 and auto; each reference line's
# label whole in the margin and a line of text below the one above it
# (local, now and auto mode lie within 2% of each other here); gnuplot
# fits every key title (it warned when the margin grew).
hx=$(copy_fixture xeon-max-hbm-flat)
rh=$(plot_run --sysfs-root "$hx" auto --source-node 0 --model "$MODELS/xeon-max-hbm-flat.json")
run "$TT" plot "$rh" -o "$WORK/ph"
is "an HBM run: now and the fast tier alone marked beside local, 1:1 and auto" \
	"$rc:$(sed -n 's/^SIMULATED run: marked \(.*\) [0-9:,]*\(, kept\|, not applied\)\{0,1\}: .*/\1/p' "$WORK/out" | tr '\n' ',')" \
	"0:best,local,1:1,auto,now,fast tier alone,"
is "... each a reference line on the ranking, labelled, the margin as wide as the longest label" \
	"$(python3 -c 'import re, sys
g = open(sys.argv[1]).read().split("set output")[2]
labels = re.findall(r"^set label (.*) at graph 1, first ([-0-9.e+]+) ", g, re.M)
names = sorted(n for t, y in labels for n in t.strip("\x27").rsplit(" ", 2)[0].split(", "))
margin = int(re.search(r"^set rmargin (\d+)$", g, re.M).group(1))
print(names, margin >= max(len(t) for t, y in labels))' "$WORK/ph.gp")" \
	"['1:1', 'auto', 'fast tier alone', 'local', 'now'] True"
is "... no two labels within a line of text (5% of the bars' span) of each other" \
	"$(python3 -c 'import re, sys
g = open(sys.argv[1]).read().split("set output")[2]
ys = sorted(float(y) for y in re.findall(r"^set label .* at graph 1, first ([-0-9.e+]+) ", g, re.M))
rows = [l.split() for l in open(sys.argv[2]) if not l.startswith("#")]
v = [float(x) for r in rows for x in r[4:7]]
print(all(b - a >= 0.05 * (max(v) - min(v)) * 0.999 for a, b in zip(ys, ys[1:])))' "$WORK/ph.gp" "$WORK/ph.dat")" True
if [ -n "$have_gnuplot" ]; then
	is "gnuplot drew the HBM run's figures without a word on stderr" "$(wc -c <"$WORK/err")" 0
else
	skip "gnuplot is not installed: nothing drawn to check"
fi
# The panels' axes name the node, its kind on a second line: whole it
# was wider than a panel ("share of node 2 (CPU-less, faster than DRAM,
# tier 0)", 52 characters), cut by the next panel or the image's edge.
is "an HBM run's panels: each axis label two lines, none over 42 characters (41 fit a panel)" \
	"$(python3 -c 'import re, sys
g = open(sys.argv[1]).read().split("set output")[1]
labels = re.findall(r"^set [xy]label (.*) offset", g, re.M)
lines = [p.strip().strip(chr(39)) for l in labels for p in l.split(" . \"\\n\" . ")]
print(len(labels), len(lines), max(len(x) for x in lines) <= 42)' "$WORK/ph.gp")" "12 24 True"
# Local and remote told apart for every tier (issue 44: both sockets' HBM
# read "CPU-less, faster than DRAM, tier 0" where DRAM said local and
# remote): a node is local to its nearest CPU node (the layout's cpu_node).
is "an HBM run's axes: local and remote DRAM, local and remote HBM" \
	"$(sed -n "s/^set [xy]label 'share of node \([0-9]\)' \. \"\\\\n\" \. '\([^']*\)' .*/\1 \2/p" "$WORK/ph.gp" | sort -u | tr '\n' ';')" \
	"0 local DRAM, tier 4;1 remote DRAM, tier 4;2 local CPU-less, faster than DRAM, tier 0;3 remote CPU-less, faster than DRAM, tier 0;"
done_testing
