#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A new user's first hour (issue 34): bench with no kernel runs STREAM's
# four; the version is unique per commit and sorts as apt needs; `make deps`
# installs what building and running need, not the test and CI tools; the
# build is parallel unless -j says otherwise.
. "$(dirname "$0")/lib.sh"

run "$TT" bench --size 4M --repeat 2 --json
is "bench without --kernel: STREAM's copy, scale, add and triad in turn, one JSON document, each validated" \
	"$rc:$(json '[(r["kernel"], r["validated"]) for r in j["kernels"]]' <"$WORK/out")" \
	"0:[('copy', True), ('scale', True), ('add', True), ('triad', True)]"
run "$TT" bench --size 4M --repeat 2
is "... and in text, each kernel's header and figures" \
	"$rc:$(grep -oE '^kernel [a-z]+' "$WORK/out" | tr '\n' ' ')" "0:kernel copy kernel scale kernel add kernel triad "

# The version: VERSION+gitN.gHASH, N the commits to HEAD (mk/version.sh),
# the same in the binary; each commit's sorts after its parent's.
v=$("$TT_TOP/mk/version.sh")
is "tiertune --version is mk/version.sh's" "$(out "$TT" --version | sed -n '1s/^tiertune //p')" "$v"
if git -C "$TT_TOP" rev-parse -q --verify HEAD~1 >/dev/null && command -v dpkg >/dev/null; then
	parent="$(cat "$TT_TOP/VERSION")+git$(git -C "$TT_TOP" rev-list --count HEAD~1).g$(git -C "$TT_TOP" rev-parse --short HEAD~1)"
	out dpkg --compare-versions "$parent" lt "${v%.dirty}" && out dpkg --compare-versions "$(cat "$TT_TOP/VERSION")" lt "$parent"
	# Kept before is's description, whose $(cat) would set $? to 0 first
	# (the check passed whatever dpkg said).
	sorted=$?
	is "versions sort by commit: $(cat "$TT_TOP/VERSION") < $parent < ${v%.dirty} (dpkg --compare-versions)" "$sorted" 0
else
	skip "no parent commit or no dpkg here to order versions with"
fi

# make deps: building and running only; each goal's own list has the rest.
lst() { sed 's/#.*//' "$@" | tr -s ' \t' '\n\n' | sed '/^$/d' | sort -u; }
is "packages.debian holds no test or CI tool (qemu, clang, lintian, mmdebstrap, cmocka, tmux, ...)" \
	"$(lst "$TT_TOP/packages.debian" | grep -xE 'qemu.*|clang.*|libclang.*|lintian|mmdebstrap|debhelper|libcmocka-dev|tmux|strace|shellcheck|busybox-static|python3' | tr '\n' ' ')" ""
# make demo runs on what packages.debian installs: python3 is not in it
# (likwid happens to pull it in; cee95d5 read a JSON field with it).
is "tests/demo.sh runs no python3" "$(grep -v '^[[:space:]]*#' "$TT_TOP/tests/demo.sh" | grep -c python)" 0
# Whatever the old single list had is still installed by some goal.
old=$(git -C "$TT_TOP" show 9005fdd:packages.debian 2>/dev/null | lst /dev/stdin)
if [ -n "$old" ]; then
	is "every package of the single list before the split is in one of the lists now" \
		"$(comm -23 <(echo "$old") <(lst "$TT_TOP/packages.debian" "$TT_TOP"/mk/packages/*.debian) | tr '\n' ' ')" ""
else
	skip "no history to compare the lists with"
fi
mk() { env -u MAKELEVEL -u MAKEFLAGS -u MFLAGS make -C "$TT_TOP" --no-print-directory BUILD="$TT_BUILD" "$@"; }
is "make deps names packages.debian alone" "$(out mk -n deps | grep -c '^mk/deps.sh packages.debian *$')" 1
is "make deps check names the check list too" \
	"$(out mk -n deps check | grep -oE 'packages of [^ ]+( [^ ]+)? are installed|installing.*' | head -1)" \
	"packages of packages.debian mk/packages/check.debian are installed"
# A parallel build by default: one job per CPU; -j1 wins.
probe=$WORK/probe.mk
printf 'include Makefile\njobs-probe:\n\t@echo "$(MAKEFLAGS)"\n' >"$probe"
is "make: one job per CPU unless told" "$(out mk -f "$probe" jobs-probe | grep -oE -- '-j[0-9]+')" "-j$(nproc)"
is "make -j1: serial, as asked" "$(out mk -f "$probe" -j1 jobs-probe | grep -oE -- '-j[0-9]+')" "-j1"
# A failing test's own output before its verdict (a unit test's stderr) is
# printed with the failure (tests/run.sh), not only its '#' lines.
mkdir -p "$WORK/fake/tests"
printf '#!/bin/sh\necho 1..1\necho "the message the code under test printed" >&2\necho "not ok 1 - fails"\necho "# got 1, want 2"\nexit 1\n' \
	>"$WORK/fake/tests/test-fails"
chmod +x "$WORK/fake/tests/test-fails"
rel=$(python3 -c 'import os, sys; print(os.path.relpath(sys.argv[1], sys.argv[2]))' "$WORK/fake" "$TT_TOP")
run env TT_TESTS='unit/*' "$TT_TOP/tests/run.sh" "$rel" test-fails
cat "$WORK/out" "$WORK/err" >"$WORK/runsh"
is "tests/run.sh: a failing unit test's stderr and diagnostics are printed with it" \
	"$rc:$(grep -c '| the message the code under test printed' "$WORK/runsh"):$(grep -c '# got 1, want 2' "$WORK/runsh")" "1:1:1"
# A failing check of lib.sh prints the command it judged, its exit and its
# stderr: a `grep -q ...; tap $?` check too (issue 34: two dozen printed
# only "not ok N"), and a check on a command inside $(...), through out,
# names that command, not the run before it.
cat >"$WORK/fake/t-lib.sh" <<'EOF'
. "$TT_TOP/tests/cli/lib.sh"
run sh -c 'echo "the judged run explains" >&2; echo output'
grep -q 'not in the output' "$WORK/out"
tap $? "a grep-and-tap check"
is "a check on a command in \$(...)" "$(out sh -c 'echo "the inline command explains" >&2; echo got')" want
done_testing
EOF
run bash "$WORK/fake/t-lib.sh"
awk '/^not ok 1 /{b = 1} /^not ok 2 /{b = 2} b {print b ": " $0}' "$WORK/out" >"$WORK/libdiag"
is "lib.sh: a failing tap or is prints the command it judged, its exit and stderr, never an earlier command" \
	"$(grep -c '^1: # the last run: sh -c echo "the judged run explains" >&2; echo output, exit 0, its stderr:$' "$WORK/libdiag"):$(grep -c '^1: # the judged run explains$' "$WORK/libdiag"):$(grep -c '^2: # the last run: sh -c echo "the inline command explains" >&2; echo got, exit 0, its stderr:$' "$WORK/libdiag"):$(grep -c '^2: # the inline command explains$' "$WORK/libdiag"):$(grep -c '^2: .*judged run' "$WORK/libdiag")" \
	"1:1:1:1:0"
# Stopped by Ctrl-C, tests/run.sh stops the running suite and its progress
# line: timeout(1) puts the suite in a process group of its own, which the
# terminal's SIGINT missed, and it ran on printing progress.
printf '#!/bin/sh\necho $$ >"%s/slow.pid"\necho 1..1\nsleep 60\necho "ok 1 - slept"\n' "$WORK" >"$WORK/fake/tests/test-slow"
chmod +x "$WORK/fake/tests/test-slow"
python3 - "$TT_TOP" "$rel" "$WORK" <<'PY' >"$WORK/stop" 2>&1
import os, signal, subprocess, sys, time
top, rel, work = sys.argv[1:]
out = open(work + "/stopped", "w")
env = dict(os.environ, TT_TESTS="unit/*", TT_PROGRESS="1")
# A new session as a terminal's job is: SIGINT to the whole group.
p = subprocess.Popen([top + "/tests/run.sh", rel, "test-slow"], cwd=top, env=env,
                     stdout=out, stderr=out, start_new_session=True)
for _ in range(300):
    if os.path.exists(work + "/slow.pid"):
        break
    time.sleep(0.1)
os.killpg(p.pid, signal.SIGINT)
try:
    rc = p.wait(timeout=30)
except subprocess.TimeoutExpired:
    rc = "still running after 30 s"
time.sleep(1)
pid = int(open(work + "/slow.pid").read())
alive = True
try:
    os.kill(pid, 0)
except ProcessLookupError:
    alive = False
n0 = len(open(work + "/stopped").read().splitlines())
time.sleep(2.5)
n1 = len(open(work + "/stopped").read().splitlines())
print(rc, "suite left running" if alive else "suite stopped", "progress goes on" if n1 > n0 else "quiet")
if alive:
    os.kill(pid, signal.SIGKILL)
PY
cp "$WORK/stopped" "$WORK/err"
echo "TT_TESTS='unit/*' tests/run.sh $rel test-slow, SIGINT to its process group" >"$WORK/cmd"
rc=$(cut -d' ' -f1 "$WORK/stop")
is "tests/run.sh stopped by Ctrl-C: exit 130, the suite stopped, no more progress lines" \
	"$(cat "$WORK/stop"):$(grep -c 'stopped by SIGINT' "$WORK/stopped")" "130 suite stopped quiet:1"
# A hang's bound is a stall, not a slow host: a suite that writes no TAP
# line for TT_TEST_STALL seconds is killed, one that goes on passing is not.
printf '#!/bin/sh\necho $$ >"%s/stall.pid"\necho 1..2\necho "ok 1 - first"\nsleep 30\necho "ok 2 - late"\n' "$WORK" >"$WORK/fake/tests/test-stall"
printf '#!/bin/sh\necho 1..6\nfor i in 1 2 3 4 5 6; do sleep 1; echo "ok $i - step"; done\n' >"$WORK/fake/tests/test-steady"
chmod +x "$WORK/fake/tests/test-stall" "$WORK/fake/tests/test-steady"
s0=$SECONDS
TT_TEST_STALL=3 TT_PROGRESS=1 TT_TESTS='unit/*' "$TT_TOP/tests/run.sh" "$rel" test-stall test-steady >"$WORK/err" 2>&1
rc=$?
echo "TT_TEST_STALL=3 TT_PROGRESS=1 TT_TESTS='unit/*' tests/run.sh $rel test-stall test-steady" >"$WORK/cmd"
kill -0 "$(cat "$WORK/stall.pid")" 2>/dev/null && left=running || left=gone
is "tests/run.sh: a suite silent for TT_TEST_STALL is killed, well before its sleep ends; a steady one passes" \
	"$rc:$(grep -c 'FAIL: unit/test-stall: killed after no TAP line for [0-9]*s (TT_TEST_STALL)' "$WORK/err"):$(grep -c '^ok   unit/test-steady: 6 passed' "$WORK/err"):$left:$((SECONDS - s0 < 25))" \
	"1:1:1:gone:1"
# auto on a machine of one memory node: there is nothing to interleave,
# said first; it asked for --source-node, then said it (issue 44). On
# two nodes the missing option is still the message, and sweep's too.
one=$(copy_fixture vm-1node)
expect_bad_input 3 "nothing to interleave: node 0 is the only memory node of this machine" "$one" "$TT" --sysfs-root "$one" auto
is "... and not the missing --source-node" "$(grep -c 'source-node N' "$WORK/err")" 0
expect_bad_input 3 "nothing to interleave" "$one" "$TT" --sysfs-root "$one" sweep
two=$(copy_fixture spr-ddr5-2cxl)
expect_bad_input 2 "auto needs --source-node N (or --all-sources)" "$two" "$TT" --sysfs-root "$two" auto
# The test goal's packages arriving rebuild nothing (issue 44: `make deps
# demo` then `make deps check` rebuilt the tree): dpkg's status changes,
# the probe runs again and finds cmocka, whose flags only the unit tests
# read; the objects' flags stamp stays, the unit tests' own changes. A
# probe that finds cmocka gone stands for one before it came. WITHOUT
# still changes the objects' flags: a reason to rebuild stays one.
b=$WORK/mkb
mkb() { env -u MAKELEVEL -u MAKEFLAGS -u MFLAGS make -C "$TT_TOP" --no-print-directory BUILD="$b" -n "$@" all >/dev/null 2>&1; }
mkb
cp "$b/flags.stamp" "$WORK/flags.with" && cp "$b/cmocka.stamp" "$WORK/cmocka.with"
sed -i -e 's/^CMOCKA_CFLAGS :=.*/CMOCKA_CFLAGS :=/' -e 's/^CMOCKA_LIBS :=.*/CMOCKA_LIBS :=/' "$b/config.mk"
mkb
is "make: cmocka found or not, the objects' flags are the same; the unit tests' differ" \
	"$(cmp -s "$b/flags.stamp" "$WORK/flags.with" && echo same):$(cmp -s "$b/cmocka.stamp" "$WORK/cmocka.with" || echo differ)" "same:differ"
mkb WITHOUT=hwloc
is "make: WITHOUT changes the objects' flags (they rebuild)" \
	"$(cmp -s "$b/flags.stamp" "$WORK/flags.with" || echo differ)" differ
done_testing
