# SPDX-License-Identifier: GPL-3.0-or-later
# Kill and fault points for the commands that write weights (sourced by
# t0008-root-safety.sh and tests/kill-sweep.sh after lib.sh). A command is
# 'apply ARGS', 'auto ARGS' (tiertune) or 'top ACTIONS' (tiertop's w and u,
# through build/tests/top-edit). It is stopped at the Nth call of one system
# call by strace's injection: killed (SIGKILL, the default), or the call
# failed with ENOSPC or EIO (INJECT=error=ENOSPC); then 'tiertune restore',
# repeated until it finds nothing left to undo (a journal first, then the
# history's changes newest first), must give the fixture copy back byte for
# byte.
#   kill_points FIXTURE DB COMMAND...   prints "syscall N" per point, from
#       a trace of the same command run to the end (POINTS, an extended
#       regex, picks the system calls; default: all)
#   kill_at FIXTURE DB SYSCALL N COMMAND...   0 when the tree came back;
#       otherwise prints why
# DB is a database path; an unwritable one (/dev/null/x.db) means "none".
: "${TOP_EDIT:=${TT_BUILD:-$(dirname "$TT")}/tests/top-edit}"

# The command under test on root, database db, as an argv in CMD (the
# same in the trace and at each point, so the call counts agree).
cmd_argv() { # root db command...
	local root=$1 db=$2
	shift 2
	if [ "$1" = top ]; then
		CMD=(env TIERTUNE_DB="$db" "$TOP_EDIT" "$root" "${@:2}")
	else
		CMD=("$TT" --db "$db" --sysfs-root "$root" "$@")
	fi
}

# Every change undone: restore until there is nothing left (at most 8).
undo_all() { # root db -> 0 when it ended with nothing left to undo
	local root=$1 db=$2 out i
	for i in 1 2 3 4 5 6 7 8; do
		out=$("$TT" --db "$db" --sysfs-root "$root" restore 2>&1)
		case $? in
		0) ;;
		2) grep -q "no apply on sysfs root" <<<"$out" && return 0
		   echo "$out"; return 1 ;;
		*) echo "$out"; return 1 ;;
		esac
	done
	echo "restore still undoing after 8 rounds"
	return 1
}

kill_points() {
	local fx=$1 db=$2 root
	shift 2
	root=$(copy_fixture "$fx")
	cmd_argv "$root" "$db" "$@"
	(strace -f -qq -o "$WORK/trace" "${CMD[@]}"; :) >/dev/null 2>&1
	undo_all "$root" "$db" >/dev/null
	sed -E 's/^[0-9]+ +//; s/\(.*//' "$WORK/trace" | grep -E '^[a-z_0-9]+$' |
		awk '{ c[$1]++; print $1, c[$1] }' | grep -E "^(${POINTS:-[a-z_0-9]+}) "
	rm -rf "$root"
}

kill_at() {
	local fx=$1 db=$2 sc=$3 at=$4 root before after out urc
	shift 4
	# A name never used before in this state folder: a reused one would
	# find an earlier point's history record (and rightly refuse it).
	root=$(mktemp -d "$WORK/kill.XXXXXX")
	cp -a "$FIX/$fx/." "$root"
	before=$(tree_sum "$root")
	cmd_argv "$root" "$db" "$@"
	# In a subshell, so that the shell's "Killed" notice goes to /dev/null.
	(strace -f -qq -o /dev/null -e inject="$sc":"${INJECT:-signal=KILL}":when="$at" \
		"${CMD[@]}"; :) >/dev/null 2>&1
	out=$(undo_all "$root" "$db")
	urc=$?
	after=$(tree_sum "$root")
	rm -rf "$root"
	[ $urc -eq 0 ] && [ "$before" = "$after" ] && return 0
	echo "${INJECT:-killed} at $sc #$at ($*): tree $([ "$before" = "$after" ] && echo same || echo CHANGED): $out"
	return 1
}

# The machine as it boots with its second CXL node's memory offline
# (spr-ddr5-2cxl; onlined later by daxctl, or the card removed): node 2
# neither online nor with a weight file, the distances and tier without it.
node2_offline() { # root
	local W=sys/kernel/mm/mempolicy/weighted_interleave N=sys/devices/system/node
	rm -rf "${1:?}/$N/node2" "$1/$W/node2"
	echo 0-1 >"$1/$N/online"
	echo 0-1 >"$1/$N/has_memory"
	echo "10 14" >"$1/$N/node0/distance"
	echo "14 10" >"$1/$N/node1/distance"
	echo 1 >"$1/sys/devices/virtual/memory_tiering/memory_tier87/nodelist"
}

# The boot command (tiertune-apply.service's apply --profile) killed at the
# Nth call, then the next boot with node 2 offline for good: the boot
# command must wait for node 2 (exit 3, the node named), leave no journal
# in the way, and an apply of the nodes there must go through. 0 when the
# host can apply; otherwise prints why.
boot_kill_at() { # profile syscall N
	local prof=$1 sc=$2 at=$3 root out rc why=
	root=$(mktemp -d "$WORK/boot.XXXXXX")
	cp -a "$FIX/spr-ddr5-2cxl/." "$root"
	(strace -f -qq -o /dev/null -e inject="$sc":"${INJECT:-signal=KILL}":when="$at" \
		"$TT" --db /dev/null/x.db --sysfs-root "$root" apply --profile "$prof"; :) >/dev/null 2>&1
	node2_offline "$root"
	out=$("$TT" --db /dev/null/x.db --sysfs-root "$root" apply --profile "$prof" 2>&1)
	rc=$?
	[ $rc -eq 3 ] && grep -q "names node 2, which is not online" <<<"$out" ||
		why="boot command exit $rc: $out;"
	[ ! -e "$TIERTUNE_STATE_DIR/apply.journal" ] || why="$why a journal is still in the way;"
	out=$("$TT" --db /dev/null/x.db --sysfs-root "$root" apply --weights 0:5,1:2 2>&1) ||
		why="$why apply of the nodes there failed: $out;"
	rm -rf "$root"
	# A journal left in the way would fail the next point too: each point
	# counts once.
	rm -f "$TIERTUNE_STATE_DIR/apply.journal" "$TIERTUNE_STATE_DIR"/apply.journal.aside-*
	[ -z "$why" ] && return 0
	echo "${INJECT:-killed} at $sc #$at (boot command, node 2 offline after): $why"
	return 1
}
