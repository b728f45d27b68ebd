#!/usr/bin/env bash
# Runs every unit test binary (cmocka, TAP output) and every CLI test script
# (tests/cli/tNNNN-*.sh, TAP too) against one build directory, and ends with
# the line "N passed, N failed, N skipped". Skips print their reason.
set -u
build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
pass=0 fail=0 skip=0
failed_suites=()
# Tests never write the live /sys (core/sysfs.c checks this variable).
export TIERTUNE_TEST_NO_LIVE_WRITES=1
export TT="$top/$build/tiertune" TT_TOP="$top" TT_BUILD="$top/$build"
export CMOCKA_MESSAGE_OUTPUT=TAP
# Nor the host's apply journal, lock or results database.
state=$(mktemp -d "${TMPDIR:-/tmp}/tiertune-state.XXXXXX")
trap 'rm -rf "$state"' EXIT
export TIERTUNE_STATE_DIR="$state/state" TIERTUNE_DB="$state/tiertune.db"

tally() { # suite name, TAP text on stdin
	local suite=$1 line
	while IFS= read -r line; do
		case "$line" in
		"not ok "*"# SKIP"* | "ok "*"# SKIP"*) skip=$((skip + 1)); echo "skip: $suite: ${line#*# SKIP}" ;;
		"ok "*) pass=$((pass + 1)) ;;
		"not ok "*) fail=$((fail + 1)); echo "FAIL: $suite: $line" ;;
		"# not ok"*) ;;
		"#"*) [ -n "${TT_VERBOSE:-}" ] || [ "$last_failed" = 1 ] && echo "      $line" ;;
		esac
		case "$line" in "not ok "*"# SKIP"* | "ok "*"# SKIP"*) last_failed=0 ;; "not ok "*) last_failed=1 ;; "ok "*) last_failed=0 ;; esac
	done
}

run_suite() { # name command...
	local name=$1 out rc
	shift
	last_failed=0
	out=$("$@" 2>&1)
	rc=$?
	tally "$name" <<<"$out"
	if [ $rc -ne 0 ] && ! grep -q '^not ok ' <<<"$out"; then
		fail=$((fail + 1))
		echo "FAIL: $name exited $rc without a failing test:"
		tail -n 20 <<<"$out" | sed 's/^/      /'
	fi
}

for t in "$top/$build"/tests/test-*; do
	[ -x "$t" ] || continue
	run_suite "unit/${t##*/}" "$t"
done
for t in "$here"/cli/t[0-9]*.sh; do
	run_suite "cli/${t##*/}" bash "$t"
done
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
