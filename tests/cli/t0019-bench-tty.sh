#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tiertune bench where a person waits: in tmux, the header first, then one
# status line that updates in place (pass n of N, elapsed); ^C says what it
# stopped, marks the recorded run interrupted and exits 130, and no reader
# warns about the run afterwards. Without a terminal, no status line at all.
. "$(dirname "$0")/lib.sh"

# No terminal: stdout starts with the header, stderr stays empty.
run "$TT" bench --kernel triad --size 4M --repeat 3
is "no terminal: the header first, no status line on stderr" \
	"$rc:$(sed -n 1p "$WORK/out" | cut -c1-12):$(wc -c <"$WORK/err")" "0:kernel triad:0"

if ! command -v tmux >/dev/null; then
	for _ in 1 2 3 4 5 6; do skip "no tmux here (Debian package tmux): no terminal to drive"; done
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
	"$(grep -cE '^(kernel triad .* placement on nodes .* threads? on CPUs? |arrays of 64.0 MiB \(--size\), 100000 timed passes|last-level cache: )' "$WORK/s1")" 3
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
done_testing
