# SPDX-License-Identifier: GPL-3.0-or-later
# Tiny TAP library for the CLI tests. Each tNNNN-area.sh sources it, calls
# the checks below, and ends with `done_testing`.
#   run cmd...          runs cmd: stdout, stderr in $WORK/out, $WORK/err, exit in $rc
#   out cmd...          the same for a command inside $(...) or a pipe: its
#       stdout passed on, its stderr kept in $WORK/err
#   is "desc" GOT WANT  passes when GOT is WANT
#   tap STATUS "desc"   passes when STATUS is 0 (a `grep -q ...; tap $?` check)
#   check "desc" cmd... passes when cmd exits 0
#   expect_bad_input EXIT NAMED_TEXT ROOT cmd...   exit code, stderr names
#       the input, stdout empty, the fixture copy ROOT (given to the command)
#       and the databases byte-for-byte unchanged.
#   skip "reason"   a check this host cannot make (counted, reason printed)
# A failing check prints the last command that run, out or check ran, its
# exit and its stderr, so that a check that fails once in CI (on a loaded
# host, say) can be read, not only rerun. A command whose output a check
# judges therefore goes through run or out, never bare inside $(...): the
# check would print an earlier command as the one it judged.
set -u
: "${TT:?run through tests/run.sh}"
FIX="$TT_TOP/tests/fixtures/sysfs"
n=0
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tiertune-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

tap() { # status description [what went wrong, printed before the last run]
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else
		echo "not ok $n - $2"
		{
			[ -z "${3-}" ] || printf '%s\n' "$3"
			last_run
		} | diag
	fi
}
diag() { sed 's/^/# /'; }

# check "desc" cmd... : passes when cmd exits 0; through run, so that a
# later check does not print an earlier command as the last run.
check() {
	local d=$1
	shift
	run "$@"
	if [ "$rc" -eq 0 ]; then tap 0 "$d"; else
		tap 1 "$d" "$([ ! -s "$WORK/out" ] || { echo "the command's stdout:" && head -10 "$WORK/out"; })"
	fi
}

# run cmd, keep stdout/stderr/exit in $WORK/out, $WORK/err, $rc
run() {
	printf '%s\n' "$*" >"$WORK/cmd"
	"$@" >"$WORK/out" 2>"$WORK/err"
	rc=$?
	echo "$rc" >"$WORK/rc"
}

# out cmd: run for $(...) and pipes, whose $rc would not reach the script:
# stdout goes on, the command, its stderr and exit are kept for the check.
out() {
	local r
	printf '%s\n' "$*" >"$WORK/cmd"
	"$@" 2>"$WORK/err"
	r=$?
	echo "$r" >"$WORK/rc"
	return $r
}

# The last run, as a failing check prints it. A script that runs a command
# its own way (in the background, say) writes $WORK/cmd and sets $rc.
last_run() {
	[ -s "$WORK/cmd" ] || return 0
	local r=${rc:-?}
	[ "$WORK/cmd" -nt "$WORK/rc" ] || r=$(cat "$WORK/rc")
	printf 'the last run: %s, exit %s, ' "$(cat "$WORK/cmd")" "$r"
	[ -s "$WORK/err" ] || { echo 'its stderr empty'; return 0; }
	# Its first lines and its last: the error ends a stderr that auto's
	# hundreds of progress lines begin.
	echo 'its stderr:'
	awk '{ l[NR] = $0 } END { for (i = 1; i <= NR; i++)
		if (i <= 3 || i > NR - 7) print l[i]; else if (i == 4) print "... (" NR - 10 " lines)" }' "$WORK/err"
}

# is "desc" got want
is() {
	if [ "$2" = "$3" ]; then tap 0 "$1"; else
		tap 1 "$1" "$(printf 'got:  %s\nwant: %s' "$2" "$3")"
	fi
}

# copy_fixture NAME -> prints path of a private copy. The name is mktemp's,
# made and held by it: $RANDOM (0-32767) gave two of a script's hundred
# copies one name about once in seven scripts, and cp -a onto a directory
# that exists copies into it, so the older copy (its auto mode turned off,
# say) was the one the test then ran on (issue 33: t0011 #104-108 once).
copy_fixture() {
	local dst
	dst=$(mktemp -d "$WORK/fx-$1-XXXXXX") && cp -a "$FIX/$1/." "$dst" && echo "$dst"
}

tree_sum() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum); }

# The databases a command may write: $TIERTUNE_DB, and the one after --db.
db_sum() {
	local f prev=
	for f in "$TIERTUNE_DB" "$@"; do
		[ "$prev" = --db ] || [ "$f" = "$TIERTUNE_DB" ] || { prev=$f; continue; }
		prev=$f
		# An empty write-ahead log holds nothing: a reader's open may
		# create one.
		for g in "$f" "$f-wal"; do
			if [ -f "$g" ] && { [ "$g" = "$f" ] || [ -s "$g" ]; }; then
				printf '%s %s\n' "$g" "$(sha256sum <"$g")"
			else
				echo "$g absent"
			fi
		done
	done
}

# expect_bad_input EXIT TEXT ROOT cmd... : the bad-input contract. ROOT is the
# fixture copy the command is given with --sysfs-root, or '-' for a command
# that only runs on the live machine (bench); the databases are checked too.
expect_bad_input() {
	local want=$1 text=$2 root=$3 before after dbs_before dbs_after
	shift 3
	if [ "$root" != - ] && ! printf '%s\n' "$@" | grep -qF -- "$root"; then
		rm -f "$WORK/cmd" # it ran nothing: no last run to print
		tap 1 "bad input: $*" "the test gives $root to check but not to the command"
		return
	fi
	before=$([ "$root" = - ] || tree_sum "$root")
	dbs_before=$(db_sum "$@")
	run "$@"
	after=$([ "$root" = - ] || tree_sum "$root")
	dbs_after=$(db_sum "$@")
	local why=""
	[ "$rc" -eq "$want" ] || why="exit $rc, want $want;"
	grep -qF -- "$text" "$WORK/err" || why="$why stderr does not name '$text';"
	[ ! -s "$WORK/out" ] || why="$why stdout not empty;"
	[ "$before" = "$after" ] || why="$why tree changed;"
	[ "$dbs_before" = "$dbs_after" ] || why="$why database changed;"
	if [ -z "$why" ]; then tap 0 "bad input: $*"; else
		tap 1 "bad input: $*" "$(
			echo "$why"
			[ ! -s "$WORK/out" ] || { echo "the command's stdout:" && head -5 "$WORK/out"; }
		)"
	fi
}

# The live machine, read before asserting about it (tests hold on any host).
# node_list FILE: a kernel node or CPU list ("0-2,4") under /sys, one id a line.
node_list() {
	python3 -c 'import sys
for part in open(sys.argv[1]).read().split(","):
    part = part.strip()
    if part:
        a, _, b = part.partition("-")
        print(*range(int(a), int(b or a) + 1), sep="\n")' "$1"
}
# The first node with both CPUs and memory: where a bench runs and allocates.
local_node() {
	comm -12 <(node_list /sys/devices/system/node/has_cpu | sort) \
		<(node_list /sys/devices/system/node/has_memory | sort) | sort -n | head -1
}

# NOBODY cmd...: as user nobody, for the checks that need a user without
# privilege; can_drop says whether this host allows it (root and setpriv).
# nobody_tt prints a copy of tiertune that nobody can run: the clone may sit
# where nobody cannot reach it (under /root, mode 700).
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/nonexistent)
can_drop() { [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; }
nobody_tt() {
	[ -x "$WORK/nobody/tiertune" ] || { mkdir -p "$WORK/nobody" && cp "$TT" "$WORK/nobody/tiertune"; }
	chmod 755 "$WORK" "$WORK/nobody"
	echo "$WORK/nobody/tiertune"
}

# json EXPR < file : evaluates a python expression on the parsed JSON as `j`
# sql DB STATEMENT: one statement on DB, each row printed '|'-joined as the
# sqlite3 shell prints it; python's sqlite3, since the shell is no
# dependency (packages.debian) and a fresh root lacks it.
sql() {
	python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
for row in c.execute(sys.argv[2]):
    print("|".join("" if v is None else str(v) for v in row))
c.commit()' "$@"
}
json() { python3 -c "import json,sys; j=json.load(sys.stdin); print($1)"; }

skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
# A terminal driven in tmux, on the test's own server: T runs tmux there,
# screen prints session tt's pane, wait_for EREGEX [SECONDS] (default 5)
# returns 0 once the pane shows it, 1 when the time is up.
T() { tmux -S "$WORK/tmux.sock" "$@"; }
screen() { T capture-pane -p -t tt; }
wait_for() {
	local i
	for i in $(seq $((${2:-5} * 10))); do screen | grep -qE -- "$1" && return 0; sleep 0.1; done
	return 1
}

done_testing() { echo "1..$n"; }
