#!/usr/bin/env bash
# The full kill sweep (too slow for make check, which runs a sample in
# tests/cli/t0008-root-safety.sh): apply killed at every system call it
# makes, for both weight interfaces, with and without a writable database;
# after each, a plain 'tiertune restore' must give back the fixture byte for
# byte. Prints a line per failing point and a summary.
#   tests/kill-sweep.sh [build]      (or TT=path/to/tiertune tests/kill-sweep.sh)
set -u
build=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
export TIERTUNE_TEST_NO_LIVE_WRITES=1 TT="${TT:-$top/$build/tiertune}" TT_TOP="$top"
state=$(mktemp -d "${TMPDIR:-/tmp}/tiertune-sweep.XXXXXX")
trap 'rm -rf "$state"' EXIT
export TIERTUNE_STATE_DIR="$state/state" TIERTUNE_DB="$state/tiertune.db"
command -v strace >/dev/null || { echo "needs strace"; exit 3; }
. "$top/tests/cli/lib.sh"
. "$top/tests/cli/kill.sh"

total=0 bad=0
sweep() { # name fixture db apply-args...
	local name=$1 fx=$2 db=$3 points=0 failed=0 sc at
	shift 3
	while read -r sc at; do
		points=$((points + 1))
		kill_at "$fx" "$db" "$sc" "$at" "$@" || failed=$((failed + 1))
	done < <(kill_points "$fx" "$db" "$@")
	# No points means the trace failed, not that all is well.
	[ "$points" -gt 0 ] || failed=1
	echo "$name: $points kill points, $failed not recovered"
	total=$((total + points)) bad=$((bad + failed))
}
sweep "upstream, database" spr-ddr5-2cxl "$state/tiertune.db" --weights 0:5,1:2,2:1
sweep "upstream, no database" spr-ddr5-2cxl /dev/null/x.db --weights 0:5,1:2,2:1
sweep "rfc, database" rfc-4node "$state/tiertune.db" --tier-weights 4:85,22:15 --source-node 0
sweep "rfc, no database" rfc-4node /dev/null/x.db --tier-weights 4:85,22:15 --source-node 0
echo "total: $total kill points, $bad not recovered"
[ "$bad" -eq 0 ]
