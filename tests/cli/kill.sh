# Kill points for apply (sourced by t0008-root-safety.sh and tests/kill-sweep.sh
# after lib.sh): apply is killed with SIGKILL at the Nth call of one system
# call (strace fault injection), then a plain 'tiertune restore' must bring
# the fixture copy back byte for byte.
#   kill_points FIXTURE DB apply-args...   prints "syscall N" per point, from
#       a trace of the same apply run to the end
#   kill_at FIXTURE DB SYSCALL N apply-args...   0 when the tree came back;
#       otherwise prints why
# DB is a database path; an unwritable one (/dev/null/x.db) means "none".

kill_points() {
	local fx=$1 db=$2 root
	shift 2
	root=$(copy_fixture "$fx")
	strace -f -qq -o "$WORK/trace" "$TT" --db "$db" --sysfs-root "$root" apply "$@" \
		>/dev/null 2>&1
	"$TT" --db "$db" --sysfs-root "$root" restore >/dev/null 2>&1
	sed -E 's/^[0-9]+ +//; s/\(.*//' "$WORK/trace" | grep -E '^[a-z_0-9]+$' |
		awk '{ n[$1]++; print $1, n[$1] }'
	rm -rf "$root"
}

kill_at() {
	local fx=$1 db=$2 sc=$3 at=$4 root before after out
	shift 4
	# A name never used before in this state folder: a reused one would
	# find an earlier point's history record (and rightly refuse it).
	root=$(mktemp -d "$WORK/kill.XXXXXX")
	cp -a "$FIX/$fx/." "$root"
	before=$(tree_sum "$root")
	# In a subshell, so that the shell's "Killed" notice goes to /dev/null.
	(strace -f -qq -o /dev/null -e inject="$sc":signal=KILL:when="$at" \
		"$TT" --db "$db" --sysfs-root "$root" apply "$@"; :) >/dev/null 2>&1
	out=$("$TT" --db "$db" --sysfs-root "$root" restore 2>&1)
	local rrc=$?
	after=$(tree_sum "$root")
	rm -rf "$root"
	# Killed before anything changed: restore has nothing to undo (exit 2,
	# saying so), and the tree is as it was.
	if [ "$before" = "$after" ] &&
		{ [ $rrc -eq 0 ] || { [ $rrc -eq 2 ] && grep -q "no apply on sysfs root" <<<"$out"; }; }; then
		return 0
	fi
	echo "killed at $sc #$at: restore exit $rrc, tree $([ "$before" = "$after" ] && echo same || echo CHANGED): $out"
	return 1
}
