#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs the unit test binaries (cmocka, TAP output) named on the command line
# and every CLI test script (tests/cli/tNNNN-*.sh, TAP too) against one build
# directory, and ends with the line "N passed, N failed, N skipped"; each skip
# prints its reason, and each suite a line as it finishes ("ok" or "FAIL", its
# counts and seconds), so that a long run shows where it is; a suite that
# runs longer says, every TT_PROGRESS seconds (default 10), how many tests
# it has run so far.
#
#	tests/run.sh BUILD [UNIT-BINARY...]    (make check passes the list)
#
# A suite fails, beyond its own failed tests, when a named unit binary is
# missing, when its TAP plan (1..N) is absent or differs from the tests it ran
# (a script that stopped early), when it exits non-zero, or when it hangs:
# it writes no TAP line for TT_TEST_STALL seconds (default 900), or runs past
# TT_TEST_TIMEOUT (default 3600); then it and its children are killed. Both
# bound a hang, not speed: a suite that goes on passing checks is slow, not
# hung (on a 2-core host at load 14, t0012 passed 130 checks at a steady 2 a
# minute and was killed at a 900 s total; at load 20, t0006 took 571 s).
# TT_TESTS=GLOB runs only the suites whose name matches.
# Stopped (Ctrl-C, or make killed), it stops the running suite and its
# progress line with it: timeout(1) puts a suite in a process group of its
# own, out of the terminal's reach, so a Ctrl-C left it running up to its
# timeout with its progress line still printing.
set -u
build=${1:-build}
shift
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
pass=0 fail=0 skip=0
timeout_s=${TT_TEST_TIMEOUT:-3600} stall_s=${TT_TEST_STALL:-900}
progress_s=${TT_PROGRESS:-10}
# Tests never write the live /sys (core/sysfs.c checks this variable).
export TIERTUNE_TEST_NO_LIVE_WRITES=1
export TT="$top/$build/tiertune" TT_TOP="$top" TT_BUILD="$top/$build"
export CMOCKA_MESSAGE_OUTPUT=TAP
# Nor the host's apply journal, lock or results database.
state=$(mktemp -d "${TMPDIR:-/tmp}/tiertune-state.XXXXXX")
trap 'rm -rf "$state"' EXIT
export TIERTUNE_STATE_DIR="$state/state" TIERTUNE_DB="$state/tiertune.db"
# Each suite runs in the background, so that a signal is heard at once,
# and reads this shell's stdin, not the /dev/null bash gives a background
# job (or /dev/null when stdin is closed).
{ exec 3<&0; } 2>/dev/null || exec 3</dev/null
suite='' ticker=''
stop() { # signal number
	trap - INT TERM
	kill $ticker 2>/dev/null
	# timeout passes it to the suite's group. jobs -p as well as $suite: a
	# signal that comes after the suite's fork but before suite=$! is taken
	# (a loaded host) would otherwise leave the suite running to its end.
	kill -TERM $suite $(jobs -p) 2>/dev/null
	wait 2>/dev/null
	echo "stopped by SIG$(kill -l "$1") after $pass passed, $fail failed, $skip skipped" >&2
	exit $((128 + $1))
}
trap 'stop 2' INT
trap 'stop 15' TERM

suite_fail() { # suite message [output]
	fail=$((fail + 1))
	echo "FAIL: $1: $2"
	[ -z "${3:-}" ] || tail -n 20 <<<"$3" | sed 's/^/      /'
}

# Counts one suite's TAP lines; prints failures with the diagnostics after
# them, and what the test wrote that is not TAP before its verdict (a unit
# test's stderr: cmocka prints its own lines, the code under test its
# messages), the last 20 such lines.
tally() { # suite, TAP text on stdin; sets ran, plan
	local suite=$1 line last_failed=0
	local -a before=()
	ran=0 plan=
	while IFS= read -r line; do
		case "$line" in
		"ok "*"# SKIP"* | "not ok "*"# SKIP"*)
			skip=$((skip + 1)) ran=$((ran + 1)) last_failed=0 before=()
			echo "skip: $suite: ${line#*# SKIP}" ;;
		"ok "*) pass=$((pass + 1)) ran=$((ran + 1)) last_failed=0 before=() ;;
		"not ok "*)
			fail=$((fail + 1)) ran=$((ran + 1)) last_failed=1
			echo "FAIL: $suite: $line"
			[ ${#before[@]} -eq 0 ] ||
				printf '      | %s\n' "${before[@]:$((${#before[@]} > 20 ? ${#before[@]} - 20 : 0))}"
			before=() ;;
		1..*) plan=${line#1..}; plan=${plan%% *} ;;
		"#"*) if [ -n "${TT_VERBOSE:-}" ] || [ $last_failed = 1 ]; then echo "      $line"; fi ;;
		*) before+=("$line") ;;
		esac
	done
}

run_suite() { # name command...
	local name=$1 out rc p0=$pass f0=$fail s0=$skip t0=$SECONDS
	shift
	case "$name" in ${TT_TESTS:-*}) ;; *) return ;; esac
	local so_far="$state/suite.out" stalled="$state/stalled"
	: >"$so_far"
	rm -f "$stalled"
	timeout -k 10 "$timeout_s" "$@" >"$so_far" 2>&1 <&3 &
	suite=$!
	# The progress line, and the stall's bound: timeout(1) leads the
	# suite's process group. $$ is this shell's: a ticker that outlives it
	# (SIGKILL) stops too.
	(
		seen=0 since=$SECONDS
		while sleep "$progress_s" && kill -0 $$ 2>/dev/null; do
			n=$(grep -scE '^(not )?ok ' "$so_far")
			[ "$n" = "$seen" ] || seen=$n since=$SECONDS
			if [ $((SECONDS - since)) -ge "$stall_s" ]; then
				echo $((SECONDS - since)) >"$stalled"
				kill -TERM -- "-$suite" 2>/dev/null
				sleep 10
				kill -KILL -- "-$suite" 2>/dev/null
				break
			fi
			printf '     %s: %d tests so far, %ds\n' "$name" "$n" $((SECONDS - t0))
		done
	) &
	ticker=$!
	wait $suite
	rc=$?
	kill $ticker 2>/dev/null
	wait $ticker 2>/dev/null
	suite='' ticker=''
	out=$(cat "$so_far")
	tally "$name" < <(printf '%s\n' "$out")
	if [ -e "$stalled" ]; then
		suite_fail "$name" "killed after no TAP line for $(cat "$stalled")s (TT_TEST_STALL)" "$out"
	elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		suite_fail "$name" "killed after its timeout of ${timeout_s}s (TT_TEST_TIMEOUT)" "$out"
	elif [ -z "$plan" ]; then
		suite_fail "$name" "no TAP plan (1..N): it stopped before the end" "$out"
	elif [ "$plan" != "$ran" ]; then
		suite_fail "$name" "planned $plan tests, ran $ran" "$out"
	elif [ $rc -ne 0 ] && ! grep -q '^not ok ' <<<"$out"; then
		suite_fail "$name" "exited $rc without a failing test" "$out"
	fi
	printf '%-4s %s: %d passed, %d failed, %d skipped, %ds\n' \
		"$([ $fail -eq "$f0" ] && echo ok || echo FAIL)" "$name" $((pass - p0)) \
		$((fail - f0)) $((skip - s0)) $((SECONDS - t0))
}

[ $# -gt 0 ] || [ -n "${TT_TESTS:-}" ] || suite_fail unit "no unit test binaries named (run through make check)"
for u in "$@"; do
	t="$top/$build/tests/$u"
	if [ -x "$t" ]; then run_suite "unit/$u" "$t"; else suite_fail "unit/$u" "$t is missing"; fi
done
scripts=("$here"/cli/t[0-9]*.sh)
[ -e "${scripts[0]}" ] || suite_fail cli "no tests/cli/tNNNN-*.sh scripts"
for t in "${scripts[@]}"; do
	run_suite "cli/${t##*/}" bash "$t"
done
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
