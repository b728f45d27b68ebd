#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The full kill and fault sweeps (too slow for make check, which runs a
# sample in tests/cli/t0008-root-safety.sh). Each command that writes
# weights is stopped at every system call of a kind (tests/cli/kill.sh):
# killed with SIGKILL, or the call failed with ENOSPC or EIO; after each,
# 'tiertune restore', repeated until nothing is left to undo, must give the
# fixture back byte for byte. The commands: apply on both weight
# interfaces, with and without a writable database; tiertop's w and u
# (two edits and an undo in one session, through build/tests/top-edit);
# auto --apply and auto --all-sources --apply (on models); restore --auto
# where auto mode is off (the kernel recomputes every node weight). Prints a
# line per failing point and a summary.
#   tests/kill-sweep.sh [build]      (or TT=path/to/tiertune tests/kill-sweep.sh)
set -u
build=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
export TIERTUNE_TEST_NO_LIVE_WRITES=1 TT="${TT:-$top/$build/tiertune}" TT_TOP="$top"
export TT_BUILD="${TT_BUILD:-$(dirname "$TT")}"
state=$(mktemp -d "${TMPDIR:-/tmp}/tiertune-sweep.XXXXXX")
trap 'rm -rf "$state"' EXIT
export TIERTUNE_STATE_DIR="$state/state" TIERTUNE_DB="$state/tiertune.db"
command -v strace >/dev/null || { echo "needs strace"; exit 3; }
. "$top/tests/cli/lib.sh"
. "$top/tests/cli/kill.sh"
[ -x "$TOP_EDIT" ] || { echo "needs $TOP_EDIT (make $build/tests/top-edit)"; exit 3; }

# The calls that change a file: every point where a kill or a failing
# write can cut a transaction (the calls between them change nothing).
WRITES='write|pwrite64|writev|fsync|fdatasync|ftruncate'
CHANGES="$WRITES|rename|renameat|renameat2|unlink|unlinkat|mkdir|flock|getrandom"
spr=$top/tuner/models/spr-ddr5-2cxl.json genoa=$top/tuner/models/2s-genoa-cxl.json

total=0 bad=0
sweep() { # name fixture db command...
	local name=$1 fx=$2 db=$3 points=0 failed=0 sc at
	shift 3
	[[ $name =~ ${ONLY:-.} ]] || return 0
	while read -r sc at; do
		points=$((points + 1))
		kill_at "$fx" "$db" "$sc" "$at" "$@" || failed=$((failed + 1))
	done < <(kill_points "$fx" "$db" "$@")
	# No points means the trace failed, not that all is well.
	[ "$points" -gt 0 ] || failed=1
	echo "$name (${INJECT:-kill}): $points points, $failed not recovered"
	total=$((total + points)) bad=$((bad + failed))
}
db=$state/tiertune.db nodb=/dev/null/x.db
# Killed at every call that changes a file: a SIGKILL at a call's entry
# stops it from running, so a kill anywhere between two such calls leaves
# what a kill at the second leaves. (POINTS=. tests/kill-sweep.sh kills at
# every call, as this sweep once did: about three times the points.)
# KIND=kill or KIND=fault runs one half (two can run side by side); ERRS
# the errors injected (default "ENOSPC EIO"); ONLY a regex of sweep names.
if [ "${KIND:-kill}" = kill ]; then
POINTS=${POINTS:-$CHANGES} sweep "apply upstream, database" spr-ddr5-2cxl "$db" apply --weights 0:5,1:2,2:1
POINTS=${POINTS:-$CHANGES} sweep "apply upstream, no database" spr-ddr5-2cxl "$nodb" apply --weights 0:5,1:2,2:1
POINTS=${POINTS:-$CHANGES} sweep "apply rfc, database" rfc-4node "$db" apply --tier-weights 4:85,22:15 --source-node 0
POINTS=${POINTS:-$CHANGES} sweep "apply rfc, no database" rfc-4node "$nodb" apply --tier-weights 4:85,22:15 --source-node 0
POINTS=$CHANGES sweep "tiertop w, w, u, database" spr-ddr5-2cxl "$db" top w 0:5 w 1:2 u
POINTS=$CHANGES sweep "tiertop w, w, u (rfc)" rfc-4node "$nodb" top w 4:85 w 22:15 u
POINTS=$CHANGES sweep "auto --apply, database" spr-ddr5-2cxl "$db" \
	auto --source-node 0 --model "$spr" --budget 40 --apply
POINTS=$CHANGES sweep "auto --all-sources --apply (rfc)" rfc-4node "$db" \
	auto --all-sources --model "$genoa" --budget 40 --apply
POINTS=$CHANGES sweep "restore --auto" xeon-max-hbm-flat "$db" restore --auto
fi
# ENOSPC and EIO at every write.
[ "${KIND:-fault}" = fault ] && for err in ${ERRS:-ENOSPC EIO}; do
	export INJECT=error=$err
	POINTS=$WRITES sweep "apply upstream, database" spr-ddr5-2cxl "$db" apply --weights 0:5,1:2,2:1
	POINTS=$WRITES sweep "apply rfc, no database" rfc-4node "$nodb" apply --tier-weights 4:85,22:15 --source-node 0
	POINTS=$WRITES sweep "tiertop w, w, u, database" spr-ddr5-2cxl "$db" top w 0:5 w 1:2 u
	POINTS=$WRITES sweep "auto --apply, database" spr-ddr5-2cxl "$db" \
		auto --source-node 0 --model "$spr" --budget 40 --apply
	POINTS=$WRITES sweep "auto --all-sources --apply (rfc)" rfc-4node "$db" \
		auto --all-sources --model "$genoa" --budget 40 --apply
	POINTS=$WRITES sweep "restore --auto" xeon-max-hbm-flat "$db" restore --auto
done
unset INJECT
echo "total: $total points, $bad not recovered"
[ "$bad" -eq 0 ]
