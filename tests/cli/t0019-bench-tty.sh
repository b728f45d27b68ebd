#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tiertune bench and auto where a person waits: in tmux, bench's header
# first, then one status line that updates in place (pass n of N, elapsed);
# the first touch says how much is touched, growing (script(1) records each
# redraw); ^C says what it stopped, marks the recorded run interrupted and exits 130,
# and no reader warns about the run afterwards. auto: one status line
# (measurement n of N, the best so far, time left), a line per measurement
# only with --verbose or without a terminal; ^C stops the search, says where,
# records nothing and exits 130. Without a terminal, no status line at all.
. "$(dirname "$0")/lib.sh"

# No terminal: stdout starts with the header, stderr stays empty.
run "$TT" bench --kernel triad --size 4M --repeat 3
is "no terminal: the header first, no status line on stderr" \
	"$rc:$(sed -n 1p "$WORK/out" | cut -c1-12):$(wc -c <"$WORK/err")" "0:kernel triad:0"

# The first touch at a terminal (issue 34: "placing and touching arrays
# (3600.0 MiB), 0.0 s elapsed" for seconds): the line names the arrays and
# how much of them is touched, redrawn while the touch lasts. script(1)
# keeps every redraw. 255 MiB in all on one thread: seconds on this loaded
# host, a fraction on an idle one, so the percentage must be seen to grow
# only where the touch outlasted three redraws (1.5 s); it never goes back.
# pty: the redraws of a run at a terminal, one a line, from script's log.
# A failing check on it shows the command and what the terminal got.
pty() { # LOG COMMAND
	printf 'script -qec %s\n' "$2" >"$WORK/cmd"
	script -qec "$2" "$1" >/dev/null 2>&1
	rc=$?
	echo "$rc" >"$WORK/rc"
	tr '\r' '\n' <"$1" | sed 's/\x1b\[K//g' >"$1.lines"
	cp "$1.lines" "$WORK/err"
}
if command -v script >/dev/null; then
	pty "$WORK/touch" "'$TT' bench --kernel triad --size 85M --threads 1 --repeat 2 >/dev/null"
	# The touch's redraws: how many, never back, how many percentages; how
	# long it lasted (the elapsed of the first line after it).
	read -r seen back distinct took < <(python3 -c 'import re, sys
lines = open(sys.argv[1]).read().split("\n")
pct = [int(m[1]) for m in (re.fullmatch(r"placing and touching arrays \(255\.0 MiB\), (\d+)% touched, [\d.]+ s elapsed", l) for l in lines) if m]
after = [m[1] for m in (re.fullmatch(r"(?:placing and touching arrays \(255\.0 MiB\), asking where the pages are|warm-up pass), ([\d.]+) s elapsed", l) for l in lines) if m]
print(len(pct), sum(b < a for a, b in zip(pct, pct[1:])), len(set(pct)), (after or ["none"])[0])' "$WORK/touch.lines")
	long=$(awk -v t="$took" 'BEGIN { print (t != "none" && t >= 1.5) ? "grew" : "quick" }')
	is "first touch at a terminal: the arrays named with the percentage touched, never back, growing when it lasts ($took s)" \
		"$([ "${seen:-0}" -gt 0 ] && echo seen):${back:-x}:$([ "$long" = quick ] && echo quick || { [ "${distinct:-0}" -ge 2 ] && echo grew || echo flat; })" \
		"seen:0:$long"
	# auto's real trials show their own progress after auto's state: the
	# profile's touch and passes, then the search's (a real run needs two
	# memory nodes; on one, unit/test-cli-progress drives the trials' hooks
	# as auto passes them).
	if [ "$(node_list /sys/devices/system/node/has_memory | wc -l)" -ge 2 ]; then
		pty "$WORK/auto" "'$TT' auto --source-node $(local_node) --size 32M --allow-cache-resident --repeat 2 --budget 12 --no-record >/dev/null"
		is "auto at a terminal: the profile's trials and the search's show their touch and passes" \
			"$(grep -cE '^profile; (placing and touching the buffers \(96\.0 MiB\)|warm-up pass|pass [12] of 2)' "$WORK/auto.lines" | sed 's/^[1-9][0-9]*$/some/'):$(grep -cE '^(search from node [0-9]+|measurement [0-9]+ of [0-9]+,.*); (placing and touching arrays|arrays in place|warm-up pass|pass [12] of 2)' "$WORK/auto.lines" | sed 's/^[1-9][0-9]*$/some/')" \
			"some:some"
	else
		skip "auto's real trials need two or more memory nodes (unit/test-cli-progress drives their hooks)"
	fi
	# Measuring the weights from the other socket, the status line says
	# so (its trials' progress follows it): it said nothing before.
	pty "$WORK/other" "'$TT' --db '$WORK/other.db' auto --source-node 0 --model '$TT_TOP/model/machines/2s-genoa-cxl.json' --seed 3 --no-record >/dev/null"
	# Node 1's tasks are judged on both masks they use (issue 43): every
	# node, and their own socket's DRAM and CXL; each line names its mask.
	is "auto at a terminal, measuring from the other socket: the status line names it, and each mask" \
		"$(grep -c 'the weights are global: measuring .* from node 1 over nodes 0-3 ' "$WORK/other.lines"):$(grep -c 'the weights are global: measuring .* from node 1 over nodes 1,3 ' "$WORK/other.lines"):$(grep -cE '^from node 1, [0-9]+ s elapsed' "$WORK/other.lines" | sed 's/^[1-9][0-9]*$/some/')" "1:1:some"
else
	skip "no script(1) here (Debian package bsdutils): no pty to record"
	skip "no script(1) here (Debian package bsdutils): no pty to record"
	skip "no script(1) here (Debian package bsdutils): no pty to record"
fi

if ! command -v tmux >/dev/null; then
	for _ in $(seq 14); do skip "no tmux here (Debian package tmux): no terminal to drive"; done
	done_testing
	exit 0
fi
trap 'T kill-server 2>/dev/null; rm -rf "$WORK"' EXIT
T -f /dev/null new-session -d -s tt -x 120 -y 30 "env -u TMUX PS1='tt-prompt\$ ' bash --norc --noprofile"
wait_for '^tt-prompt\$' 10 || true
T send-keys -t tt "clear; '$TT' bench --kernel triad --size 64M --repeat 100000 --record --db '$WORK/tty.db'; echo \"exit=\$?\"" Enter
wait_for '^pass [0-9]+ of 100000, [0-9.]+ s elapsed$' 10 || true
screen >"$WORK/s1"
status() { grep -oE '^pass [0-9]+ of 100000, [0-9.]+ s elapsed$' "$1" | cut -d' ' -f2; }
p1=$(status "$WORK/s1") p2=
for _ in $(seq 50); do
	sleep 0.1
	screen >"$WORK/s2"
	p2=$(status "$WORK/s2")
	[ -n "$p1" ] && [ -n "$p2" ] && [ "$p2" -gt "$p1" ] && break
done
is "terminal: the header (kernel, sizes, cache) above the status line" \
	"$(grep -cE '^(kernel triad,? .* placement on nodes .* threads? on CPUs? |arrays of 64.0 MiB \(--size\), 100000 timed passes|last-level cache: )' "$WORK/s1")" 3
is "terminal: one status line, updated in place (pass n of N, elapsed)" \
	"$(grep -c 'elapsed' "$WORK/s2"):$([ -n "$p1" ] && [ -n "$p2" ] && [ "$p2" -gt "$p1" ] && echo moved)" "1:moved"
T send-keys -t tt C-c
wait_for '^exit=[0-9]+$' 10 || true
screen >"$WORK/s3"
is "^C: says what it stopped and that the run is marked interrupted, exits 130" \
	"$(grep -cE '^tiertune: stopped: kernel triad stopped by signal 2 at pass [0-9]+ of 100000; run 1 marked interrupted$' "$WORK/s3"):$(grep -oE '^exit=[0-9]+$' "$WORK/s3")" \
	"1:exit=130"
is "^C: the status line is gone" "$(grep -c 'elapsed' "$WORK/s3")" 0
run "$TT" runs --db "$WORK/tty.db" --json
is "^C: the run is interrupted in the database, and runs warns of nothing" \
	"$rc:$(json '[(r["id"], r["status"]) for r in j["runs"]]' <"$WORK/out"):$(cat "$WORK/err")" \
	"0:[(1, 'interrupted')]:"
run "$TT" show 1 --db "$WORK/tty.db"
is "^C: show warns of nothing either" "$rc:$(cat "$WORK/err")" "0:"

# auto in app mode (weights written to a fixture copy, the program run
# here), a program of a fifth of a second: slow enough to watch.
fx=$(copy_fixture spr-ddr5-2cxl)
printf '#!/bin/sh\nsleep 0.2\n' >"$WORK/slow"
chmod +x "$WORK/slow"
T send-keys -t tt "clear; TIERTUNE_TEST_APP_HOST_NODES=1 '$TT_BUILD/tests/tiertune-test' --sysfs-root '$fx' --db '$WORK/auto.db' auto --source-node 0 --budget 200 --no-profile -- '$WORK/slow' >/dev/null; echo \"exit=\$?\"" Enter
st='^measurement [0-9]+ of 20[0-9], best [0-9:,]+ [0-9.]+ s, about [0-9]+ s left, [0-9]+ s elapsed$'
wait_for "$st" 20 || true
sleep 1.5
T capture-pane -p -J -t tt >"$WORK/a1"
is "auto at a terminal: one status line (measurement n of N, best so far, time left), no line per measurement" \
	"$(grep -cE "$st" "$WORK/a1"):$(grep -cE '^trial [0-9]+' "$WORK/a1")" "1:0"
T send-keys -t tt C-c
wait_for '^exit=[0-9]+$' 10 || true
# A message wider than the terminal is wrapped between words, the rest
# indented by two: joined back for the check.
T capture-pane -p -J -t tt | sed -e ':a' -e '$!N;s/\n  \([^ ]\)/ \1/;ta' -e 'P;D' >"$WORK/a2"
is "auto ^C: says where the search stopped and that nothing was recorded, the line cleared, exit 130" \
	"$(grep -cE '^tiertune: stopped: the search from node 0 stopped after [0-9]+ measurements: interrupted by signal 2 \(Interrupt\); the weights are back as they were; nothing recorded$' "$WORK/a2"):$(grep -cE 'elapsed' "$WORK/a2"):$(grep -oE '^exit=[0-9]+$' "$WORK/a2")" \
	"1:0:exit=130"
is "auto ^C: the fixture's weights as they were, no run in the database" \
	"$(tree_sum "$fx"):$([ -e "$WORK/auto.db" ] && "$TT" runs --db "$WORK/auto.db" --json | json 'len(j["runs"])' || echo 0)" \
	"$(tree_sum "$TT_TOP/tests/fixtures/sysfs/spr-ddr5-2cxl"):0"
# --verbose: the line per measurement on the terminal too.
T send-keys -t tt "clear; '$TT' auto --source-node 0 --model '$TT_TOP/model/machines/spr-ddr5-2cxl.json' --budget 40 --no-record --verbose >/dev/null; echo \"exit=\$?\"" Enter
wait_for '^exit=[0-9]+$' 20 || true
T capture-pane -p -J -t tt >"$WORK/a3"
is "auto --verbose at a terminal: a line per measurement (the screen's last rows)" \
	"$([ "$(grep -cE '^SIMULATED (trial [0-9]+/[0-9]+|confirm [0-9]+/[0-9]+) ' "$WORK/a3")" -ge 10 ] && echo lines):$(grep -oE '^exit=[0-9]+$' "$WORK/a3")" "lines:exit=0"

# A narrow terminal (issue 44): the status line is cut to its width, never
# wrapped, so each redraw clears all of it. The first touch's line ("placing
# and touching arrays (192.0 MiB), 0% touched, 0.1 s elapsed": 67
# characters) wrapped at 50 columns and left its first row behind at every
# redraw, above the results.
T resize-window -t tt -x 50
T send-keys -t tt "clear; '$TT' bench --kernel triad --size 64M --threads 1 --repeat 3 >/dev/null; echo \"exit=\$?\"" Enter
wait_for '^exit=[0-9]+$' 60 || true
screen >"$WORK/n1"
is "50 columns: no rows of the status line left behind after the run" \
	"$(grep -cE 'placing|touch|elapsed|pages are|pass' "$WORK/n1"):$(grep -oE '^exit=[0-9]+$' "$WORK/n1")" "0:exit=0"
# bench's text is wrapped to a terminal narrower than 80 columns between
# words, as to 80 in a file: the terminal broke its words at 60 ("... 2 th"
# / "reads on CPUs 0-1"). tmux joins the rows the terminal wrapped (-J).
# 60 rows, so that the header stays on the screen the pane gives when a
# descheduled or unstable run's reasons lengthen the text (a busy host).
T resize-window -t tt -x 60 -y 60
T send-keys -t tt "clear; '$TT' bench --kernel triad --size 64M --repeat 2 2>/dev/null; echo \"exit=\$?\"" Enter
wait_for '^exit=[0-9]+$' 60 || true
T capture-pane -p -J -t tt >"$WORK/n3"
is "60 columns: bench's text wrapped between words within them, the header and the judgement there" \
	"$(awk 'length > 60' "$WORK/n3" | wc -l):$(grep -cE '^(kernel triad, |judged: )' "$WORK/n3"):$(grep -oE '^exit=[0-9]+$' "$WORK/n3")" "0:2:exit=0"
T resize-window -t tt -x 50
# A message is wrapped between words at the terminal's width (^C's: 70
# characters), the rest indented by two; the terminal broke it mid-word
# ("... by sig" / "nal 2 at ...").
T send-keys -t tt "clear; '$TT' bench --kernel triad --size 64M --repeat 100000 >/dev/null; echo \"exit=\$?\"" Enter
wait_for '^pass [0-9]+ of 100000, [0-9.]+ s elapsed$' 20 || true
T send-keys -t tt C-c
wait_for '^exit=[0-9]+$' 10 || true
# -J: the rows the terminal wrapped joined, so that a line over 50 shows.
T capture-pane -p -J -t tt >"$WORK/n2"
is "50 columns: ^C's message wrapped between words, within the width" \
	"$(sed -e ':a' -e '$!N;s/\n  \([^ ]\)/ \1/;ta' -e 'P;D' "$WORK/n2" | grep -cE '^tiertune: stopped: kernel triad stopped by signal 2 at pass [0-9]+ of 100000$'):$(awk 'length > 50' "$WORK/n2" | wc -l):$(grep -c '^tiertune: stopped: kernel triad stopped by signal$' "$WORK/n2")" \
	"1:0:1"
# STREAM's summary at a terminal (issue 44): the table fits 80 and 60
# columns (at 60 its heading and judgements wrapped mid-word, the
# terminal's doing), the judgements under their column or, where it has no
# room, under the row; no status line left behind. Arrays of 16 MiB, so
# that every row is judged at length (below the 4x rule or cache-resident
# on any host). The pane's history holds the whole run.
for cols in 80 60; do
	T resize-window -t tt -x $cols -y 60
	T send-keys -t tt "clear; '$TT' bench --size 16M --repeat 2 2>/dev/null; echo \"exit=\$?\"" Enter
	wait_for '^exit=[0-9]+$' 120 || true
	T capture-pane -p -J -S - -t tt | sed -n '/^summary: /,$p' >"$WORK/sum$cols"
	T clear-history -t tt
	is "$cols columns: STREAM's summary within them, a row per kernel, no status line left" \
		"$(awk -v w=$cols 'length > w' "$WORK/sum$cols" | wc -l):$(grep -cE '^kernel +best GB/s +avg s +min s +max s +judged$' "$WORK/sum$cols"):$(grep -cE '^(copy|scale|add|triad) +[0-9]+\.[0-9]{2} +[0-9]+\.[0-9]{6} +[0-9]+\.[0-9]{6} +[0-9]+\.[0-9]{6}( |$)' "$WORK/sum$cols"):$(grep -cE 'elapsed|placing|pass [0-9]' "$WORK/sum$cols"):$(grep -oE '^exit=[0-9]+$' "$WORK/sum$cols")" \
		"0:1:4:0:exit=0"
	# The judgements of each row, joined back: the words bench judged it
	# by, each once, nothing else on their lines.
	is "$cols columns: each row's judgements whole, in the judged column's words" \
		"$(python3 -c 'import re, sys
rows, cur = [], None
for l in open(sys.argv[1]).read().split("\n"):
    m = re.match(r"(copy|scale|add|triad)(?: +[0-9.]+){4}(.*)", l)
    if m:
        cur = [m[1], m[2].strip()]
        rows.append(cur)
    elif cur and re.fullmatch(r" +[a-zA-Z0-9 ,-]+", l):
        cur[1] += " " + l.strip()
    else:
        cur = None
words = {"valid", "NOT VALIDATED", "cache-resident", "below 4x rule", "too short", "descheduled", "unstable"}
print(len(rows), all(w in words for r in rows for w in r[1].strip().split(", ")))' "$WORK/sum$cols")" "4 True"
done
done_testing
