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
# where auto mode is off (the kernel recomputes every node weight); the
# boot command (apply --profile) killed and then run at the next boot with
# a node that stays offline (boot_kill_at: it must wait, not stop at the
# journal, and an apply of the nodes there must go through). Each
# command but tiertop's (a session of several transactions) is held to more
# before the undo: the weights all old or all new, the journal saying which,
# and each run it left in the database whole, as a run to the end leaves it
# (kill_at_whole). Prints a line per failing point and a summary.
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
spr=$top/model/machines/spr-ddr5-2cxl.json genoa=$top/model/machines/2s-genoa-cxl.json

# The database's runs after run id $2, one line each: kind, status, and
# its trials, samples, recommendations and apply-log rows, counted.
runs_after() { # db id
	[ -f "$1" ] || return 0
	sql "$1" "SELECT r.kind || ' ' || r.status
		|| ' ' || (SELECT count(*) FROM trials WHERE run_id = r.id)
		|| ' ' || (SELECT count(*) FROM samples WHERE run_id = r.id)
		|| ' ' || (SELECT count(*) FROM recommendations WHERE run_id = r.id)
		|| ' ' || (SELECT count(*) FROM apply_log WHERE run_id = r.id)
		FROM runs r WHERE r.id > $2 ORDER BY r.id"
}
last_run() { [ -f "$1" ] && sql "$1" "SELECT coalesce(max(id), 0) FROM runs" || echo 0; }

# What the command leaves when it runs to the end: the tree (NEW_SUM) and
# its runs in the database (NEW_RUNS), both twice, the same (a sweep
# compares every point with them, so the run must be deterministic).
reference() { # fixture db command...
	local fx=$1 db=$2 root i id sums=() rows=()
	shift 2
	for i in 1 2; do
		root=$(mktemp -d "$WORK/ref.XXXXXX")
		cp -a "$FIX/$fx/." "$root"
		id=$(last_run "$db")
		cmd_argv "$root" "$db" "$@"
		"${CMD[@]}" >/dev/null 2>&1
		sums[i]=$(tree_sum "$root") rows[i]=$(runs_after "$db" "$id")
		undo_all "$root" "$db" >/dev/null
		rm -rf "$root"
	done
	NEW_SUM=${sums[1]} NEW_RUNS=${rows[1]}
	[ "${sums[1]}" = "${sums[2]}" ] && [ "${rows[1]}" = "${rows[2]}" ] ||
		{ echo "not deterministic: two runs to the end differ"; return 1; }
}

# A point as kill_at, and before the undo what it left: the weights all
# old or all new, the journal saying which (a journal whose transaction the
# history holds: new, the journal merely not removed yet; any other: old,
# and 'tiertune restore' puts the old back), and the database's new runs
# each whole, as the run to the end left them (a run the point cut off is
# absent, never there in part).
kill_at_whole() { # fixture db syscall N command...
	local fx=$1 db=$2 sc=$3 at=$4 root before left want id txn out why=
	local jr=$TIERTUNE_STATE_DIR/apply.journal hist=$TIERTUNE_STATE_DIR/apply.history
	shift 4
	root=$(mktemp -d "$WORK/kill.XXXXXX")
	cp -a "$FIX/$fx/." "$root"
	before=$(tree_sum "$root")
	id=$(last_run "$db")
	cmd_argv "$root" "$db" "$@"
	(strace -f -qq -o /dev/null -e inject="$sc":"${INJECT:-signal=KILL}":when="$at" \
		"${CMD[@]}"; :) >/dev/null 2>&1
	left=$(tree_sum "$root")
	if [ -f "$jr" ]; then
		txn=$(sed -n 's/^txn //p' "$jr")
		if [ -n "$txn" ] && [ -f "$hist" ] && grep -qx "txn $txn" "$hist"; then
			want=new # undo_all's first restore says so and undoes it
		else
			want=old
			"$TT" --db "$db" --sysfs-root "$root" restore >/dev/null 2>&1
			left=$(tree_sum "$root")
			[ ! -f "$jr" ] || why="the journal outlived its recovery;"
		fi
	elif [ "$left" = "$before" ]; then
		want=old
	else
		want=new
	fi
	case $want in
	old) [ "$left" = "$before" ] || why="$why weights neither all old nor all new;" ;;
	new) [ "$left" = "$NEW_SUM" ] || why="$why weights neither all old nor all new;" ;;
	esac
	# Each new run whole: as the run to the end left its counterpart, in
	# its order (a run the point cut off may be missing: auto whose record
	# failed still applies, and records the apply).
	local got n=0 refs
	mapfile -t refs <<<"$NEW_RUNS"
	while IFS= read -r got; do
		while [ "$n" -lt "${#refs[@]}" ] && [ "${refs[n]}" != "$got" ]; do n=$((n + 1)); done
		[ "$n" -lt "${#refs[@]}" ] || why="$why a run in the database is '$got', not one the run to the end leaves whole (${NEW_RUNS//$'\n'/, });"
		n=$((n + 1))
	done < <(runs_after "$db" "$id")
	out=$(undo_all "$root" "$db") || why="$why $out;"
	[ "$(tree_sum "$root")" = "$before" ] || why="$why the undo did not give the tree back;"
	rm -rf "$root"
	[ -z "$why" ] && return 0
	echo "${INJECT:-killed} at $sc #$at ($*): weights $want:$why"
	return 1
}

total=0 bad=0
sweep() { # name fixture db command...
	local name=$1 fx=$2 db=$3 points=0 failed=0 sc at check=kill_at
	shift 3
	[[ $name =~ ${ONLY:-.} ]] || return 0
	# One transaction each (not tiertop's session of several): whole.
	if [ "$1" != top ]; then
		check=kill_at_whole
		reference "$fx" "$db" "$@" || { echo "$name: reference failed"; bad=$((bad + 1)); return; }
	fi
	while read -r sc at; do
		points=$((points + 1))
		$check "$fx" "$db" "$sc" "$at" "$@" || failed=$((failed + 1))
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
# The boot command killed at every call that changes a file, then the
# next boot with node 2 offline for good: no host left unable to apply.
if [[ "boot command, node offline" =~ ${ONLY:-.} ]]; then
	"$TT" --sysfs-root "$FIX/spr-ddr5-2cxl" export --weights 0:5,1:2,2:1 --format json \
		-o "$state/boot.json"
	bpoints=0 bfailed=0
	while read -r sc at; do
		bpoints=$((bpoints + 1))
		boot_kill_at "$state/boot.json" "$sc" "$at" || bfailed=$((bfailed + 1))
	done < <(POINTS=$CHANGES kill_points spr-ddr5-2cxl /dev/null/x.db apply --profile "$state/boot.json")
	[ "$bpoints" -gt 0 ] || bfailed=1
	echo "boot command, node 2 offline after (kill): $bpoints points, $bfailed hosts unable to apply"
	total=$((total + bpoints)) bad=$((bad + bfailed))
fi
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
