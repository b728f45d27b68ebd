# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by each script run inside the QEMU guest (guest.sh, auto.sh and
# the guest-NAME.sh hooks). Each test's output goes between markers that
# the host's checks (check.py, auto-check.py, check-NAME.py) read:
#	@@TT-BEGIN name
#	... output ...
#	@@TT-END name rc=N
export TIERTUNE_STATE_DIR=/tmp/state TIERTUNE_DB=/tmp/tiertune.db HOME=/tmp
WI=/sys/kernel/mm/mempolicy/weighted_interleave

block() { # name command...
	local name=$1
	shift
	echo "@@TT-BEGIN $name"
	"$@" 2>&1
	echo "@@TT-END $name rc=$?"
}
# One further suite (a guest-NAME.sh), as guest.sh and suites.sh run each:
# in a subshell with these functions, from weights 1 and an empty state
# folder.
run_hook() { # path
	for f in 0 1 2; do echo 1 >"$WI/node$f"; done
	rm -rf /tmp/state
	(. "$1")
}
# command...: its stderr not the console, so that a status line kept for a
# terminal (bench's, auto's) does not land inside the JSON on stdout; what
# it said there follows its output.
no_tty() {
	local rc
	"$@" 2>/tmp/stderr
	rc=$?
	cat /tmp/stderr
	return $rc
}
