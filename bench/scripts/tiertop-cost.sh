#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# What tiertop costs while it runs: CPU time over DURATION seconds (default
# 60) at a 1 s refresh with every collector that works here and the
# processes panel open, beside `top -d 1` run the same way in the same run,
# both from the kernel's own accounting (/proc/PID/stat utime + stime, in
# clock ticks), and tiertop's resident memory sampled every 10 s (flat is
# the goal: DURATION=600 for the 10-minute check). Both run on a terminal
# (tmux, 80x24) as a user would run them; without tmux, tiertop --batch
# and top -b are measured instead.
#
#	bench/scripts/tiertop-cost.sh [BUILD]       (DURATION=60 by default)
set -u
build=${1:-build}
dur=${DURATION:-60}
top_bin=$(cd "$(dirname "$0")/../.." && pwd)/$build/tiertop
[ -x "$top_bin" ] || { echo "tiertop-cost: no $top_bin (make first)" >&2; exit 1; }
command -v top >/dev/null || { echo "tiertop-cost: no top (Debian package procps)" >&2; exit 1; }
hz=$(getconf CLK_TCK)
work=$(mktemp -d "${TMPDIR:-/tmp}/tiertop-cost.XXXXXX")
sock="$work/tmux.sock"
trap 'tmux -S "$sock" kill-server 2>/dev/null; rm -rf "$work"' EXIT

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }

if command -v tmux >/dev/null; then
	mode="on a tmux terminal 80x24"
	tmux -S "$sock" -f /dev/null new-session -d -s a -x 80 -y 24 "exec '$top_bin' -d 1"
	tmux -S "$sock" new-session -d -s b -x 80 -y 24 "exec top -d 1"
	sleep 2
	tmux -S "$sock" send-keys -t a P
	tt=$(tmux -S "$sock" display -p -t a '#{pane_pid}')
	tp=$(tmux -S "$sock" display -p -t b '#{pane_pid}')
else
	mode="in batch mode (no tmux)"
	"$top_bin" --batch -d 1 >/dev/null &
	tt=$!
	top -b -d 1 >/dev/null &
	tp=$!
	sleep 2
fi
t0=$(cpu_ticks "$tt") p0=$(cpu_ticks "$tp") w0=$(date +%s.%N)
rss=$(rss_kb "$tt")
rss_first=$rss rss_max=$rss
for ((s = 10; s <= dur; s += 10)); do
	sleep 10
	rss=$(rss_kb "$tt")
	[ "$rss" -gt "$rss_max" ] && rss_max=$rss
done
sleep $((dur % 10))
t1=$(cpu_ticks "$tt") p1=$(cpu_ticks "$tp") w1=$(date +%s.%N)
collectors=$("$top_bin" --json -n 1 -d 0.2 | python3 -c 'import json,sys; print(json.load(sys.stdin)["collectors"])')
awk -v tt0="$t0" -v tt1="$t1" -v tp0="$p0" -v tp1="$p1" -v hz="$hz" -v w0="$w0" -v w1="$w1" \
	-v r0="$rss_first" -v r1="$rss" -v rm="$rss_max" -v mode="$mode" -v col="$collectors" 'BEGIN {
	wall = w1 - w0
	printf "tiertop-cost: %.0f s at a 1 s refresh, %s; tiertop collectors: %s, processes panel open\n", wall, mode, col
	printf "%-22s %12s %14s\n", "", "CPU s", "% of one core"
	printf "%-22s %12.2f %14.3f\n", "tiertop -d 1", (tt1 - tt0) / hz, 100 * (tt1 - tt0) / hz / wall
	printf "%-22s %12.2f %14.3f\n", "top -d 1", (tp1 - tp0) / hz, 100 * (tp1 - tp0) / hz / wall
	printf "tiertop resident memory: %d KiB at start, %d KiB at the end, %d KiB at most\n", r0, r1, rm
}'
