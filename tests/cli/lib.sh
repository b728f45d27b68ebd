# Tiny TAP library for the CLI tests. Each tNNNN-area.sh sources it, calls
# the checks below, and ends with `done_testing`.
#   ok COND-EXIT-STATUS "description"   (use: check "desc" cmd...)
#   expect_bad_input EXIT NAMED_TEXT cmd...   exit code, stderr names the
#       input, stdout empty, and the fixture copy byte-for-byte unchanged.
set -u
: "${TT:?run through tests/run.sh}"
FIX="$TT_TOP/tests/fixtures/sysfs"
n=0
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tiertune-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

tap() { # status description
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}
diag() { sed 's/^/# /'; }

# check "desc" cmd... : passes when cmd exits 0
check() {
	local d=$1
	shift
	if "$@" >"$WORK/out" 2>"$WORK/err"; then tap 0 "$d"; else
		tap 1 "$d"
		{ echo "command: $*"; cat "$WORK/out" "$WORK/err"; } | head -20 | diag
	fi
}

# run cmd, keep stdout/stderr/exit in $WORK/out, $WORK/err, $rc
run() { "$@" >"$WORK/out" 2>"$WORK/err"; rc=$?; }

# is "desc" got want
is() {
	if [ "$2" = "$3" ]; then tap 0 "$1"; else
		tap 1 "$1"
		printf 'got:  %s\nwant: %s\n' "$2" "$3" | diag
	fi
}

# copy_fixture NAME -> prints path of a private copy
copy_fixture() {
	local dst="$WORK/fx-$1-$RANDOM"
	cp -a "$FIX/$1" "$dst"
	echo "$dst"
}

tree_sum() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum); }

# expect_bad_input EXIT TEXT ROOT cmd... : the bad-input contract
expect_bad_input() {
	local want=$1 text=$2 root=$3 before after
	shift 3
	before=$(tree_sum "$root")
	run "$@"
	after=$(tree_sum "$root")
	local why=""
	[ "$rc" -eq "$want" ] || why="exit $rc, want $want;"
	grep -qF -- "$text" "$WORK/err" || why="$why stderr does not name '$text';"
	[ ! -s "$WORK/out" ] || why="$why stdout not empty;"
	[ "$before" = "$after" ] || why="$why tree changed;"
	if [ -z "$why" ]; then tap 0 "bad input: $*"; else
		tap 1 "bad input: $*"
		{ echo "$why"; cat "$WORK/err" "$WORK/out"; } | head -10 | diag
	fi
}

# json EXPR < file : evaluates a python expression on the parsed JSON as `j`
json() { python3 -c "import json,sys; j=json.load(sys.stdin); print($1)"; }

done_testing() { echo "1..$n"; }
