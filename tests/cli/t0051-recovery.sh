#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Recovery that always has a way forward (issue 35 items 1-3): a journal
# naming a node gone, or written under another boot, set aside and kept;
# restore --defaults past a journal it cannot use; read errors in the undo
# history as errors; the newest record found without the rotated file; a
# node online without memory as a wait (exit 3); a profile without a
# fingerprint refused; a profile read in large reads and capped; the lock
# waited for, and said; restore --last saying what auto mode recomputed;
# capture's archive and plot's images never written through a
# planted link; --db FIFO refused at once.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/kill.sh" # node2_offline

WI=sys/kernel/mm/mempolicy/weighted_interleave
NODE=sys/devices/system/node
export TIERTUNE_STATE_DIR=$WORK/state
state=$TIERTUNE_STATE_DIR
export TIERTUNE_DB=$WORK/t.db
have_strace=$(strace -f -qq -o /dev/null true 2>/dev/null && echo yes)

spr=$FIX/spr-ddr5-2cxl
"$TT" --sysfs-root "$spr" export --weights 0:5,1:2,2:1 --format json -o "$WORK/spr.json"

# A boot apply killed mid-write (the fixture kernel's kill at its 3rd
# write), then the next boot without node 2: the journal names node2.
root=$(copy_fixture spr-ddr5-2cxl)
(TIERTUNE_TEST_FIXTURE_FAULT=kill:3 "$TT_BUILD/tests/tiertune-test" --sysfs-root "$root" apply --profile "$WORK/spr.json" >/dev/null 2>&1)
is "killed boot apply: its journal is left" "$(ls "$state" | grep -c '^apply.journal$')" 1
node2_offline "$root"
run "$TT" --sysfs-root "$root" apply --profile "$WORK/spr.json"
is "next boot, node 2 offline: the journal set aside (kept), the profile waits for node 2 (exit 3)" \
	"$rc:$(ls "$state" | grep -c '^apply.journal$'):$(ls "$state" | grep -c '^apply.journal.aside-'):$(grep -c "set aside the journal .* 1 of its files are gone (/$WI/node2)" "$WORK/err"):$(grep -c 'names node 2, which is not online' "$WORK/err")" \
	"3:0:1:1:1"
is "the values of the nodes still there put back, auto mode back on" \
	"$(cat "$root/$WI/auto")" true
run "$TT" --sysfs-root "$root" restore --defaults
is "restore --defaults then works (no journal in the way)" "$rc" 0
run "$TT" --sysfs-root "$root" apply --weights 0:5,1:2
is "and an apply of the nodes there" "$rc:$(cat "$root/$WI/node0" "$root/$WI/node1" | tr '\n' ' ')" "0:5 2 "

# restore --defaults past a journal that is no journal: set aside, said.
rm -rf "$state"
root=$(copy_fixture spr-ddr5-2cxl)
mkdir -p "$state" && chmod 700 "$state"
printf 'tiertune-journal 1\ngarbage\n' >"$state/apply.journal"
run "$TT" --sysfs-root "$root" restore --defaults
is "restore --defaults with a garbage journal: exit 0, journal set aside and kept" \
	"$rc:$(cat "$root/$WI/node0"):$(ls "$state" | grep -c '^apply.journal.aside-'):$(grep -c 'restore --defaults went on without it' "$WORK/err")" \
	"0:1:1:1"

# A journal written under another boot of the kernel (the fixture's
# emulated boot_id changes, as a reboot changes the live one): set aside,
# nothing of it written: the weights it holds died with that kernel.
rm -rf "$state"
root=$(copy_fixture spr-ddr5-2cxl)
mkdir -p "$root/proc/sys/kernel/random"
cat /proc/sys/kernel/random/boot_id >"$root/proc/sys/kernel/random/boot_id"
(TIERTUNE_TEST_FIXTURE_FAULT=kill:3 "$TT_BUILD/tests/tiertune-test" --sysfs-root "$root" apply --weights 0:5,1:2,2:1 >/dev/null 2>&1)
echo 00000000-1111-2222-3333-444444444444 >"$root/proc/sys/kernel/random/boot_id"
before=$(tree_sum "$root")
run "$TT" --sysfs-root "$root" restore
is "a journal of another boot: not replayed (tree unchanged), set aside, said" \
	"$rc:$([ "$(tree_sum "$root")" = "$before" ] && echo same):$(ls "$state" | grep -c '^apply.journal.aside-'):$(grep -c 'written under boot .*, not this boot 00000000-1111' "$WORK/err")" \
	"0:same:1:1"

# Read errors in the history are errors, not its end: EIO on its first
# read gave "no apply left to undo".
rm -rf "$state"
root=$(copy_fixture spr-ddr5-2cxl)
for w in 0:5 0:6 0:7; do "$TT" --sysfs-root "$root" apply --weights $w >/dev/null; done
if [ -n "$have_strace" ]; then
	run strace -f -qq -o /dev/null -P "$state/apply.history" -e trace=read \
		-e inject=read:error=EIO:when=1 "$TT" --sysfs-root "$root" restore --last --force
	is "EIO reading the history: exit 1 naming it, nothing written" \
		"$rc:$(grep -c "cannot read history '$state/apply.history': Input/output error" "$WORK/err"):$(cat "$root/$WI/node0")" \
		"1:1:7"
else
	skip "no strace to inject EIO with"
fi
# A short read, then EIO (the fault shim: strace's injection fails a call
# whole, never lets it read part): the first read ends where the second
# record starts, so the one record read whole is the first apply's. On
# 9005fdd the error was the end of the file and restore --last --force
# undid that one, writing node 0's value from before all three (7 -> 25).
shim=$TT_BUILD/tests/fault-shim.so
second=$(grep -bao '^tiertune-record ' "$state/apply.history" | sed -n 2p | cut -d: -f1)
before=$(tree_sum "$root")$(ls -l --time-style=+%s.%N "$state" | md5sum)
TT_FAULT_PATH=$state/apply.history TT_FAULT_READ=short:${second:-0},eio LD_PRELOAD=$shim \
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 \
	run "$TT" --sysfs-root "$root" restore --last --force
is "a short read of the history, then EIO: exit 1 naming it, nothing written (sysfs, state)" \
	"$rc:$(grep -c "cannot read history '$state/apply.history': Input/output error" "$WORK/err"):$(cat "$root/$WI/node0"):$([ "$(tree_sum "$root")$(ls -l --time-style=+%s.%N "$state" | md5sum)" = "$before" ] && echo same)" \
	"1:1:7:same"

# The newest record is in the current file: a rotated apply.history.1
# too large to read (past the 64 MiB bound) does not block undoing it.
truncate -s 70M "$state/apply.history.1"
run "$TT" --sysfs-root "$root" restore --last
is "restore --last with a rotated file too large to read: the newest apply undone" \
	"$rc:$(cat "$root/$WI/node0")" "0:6"
rm -f "$state/apply.history.1"

# Recovery whose read of the history fails (issue 45): a committed apply
# whose journal could not be removed (unlink EIO, the shim), then a restore
# that reads EIO from the history. Taken as "not committed", the journal
# was replayed (node 0 5 -> 25: the apply undone behind the history's back,
# restore --last then stuck until --force); now an error, nothing put back.
rm -rf "$state"
root=$(copy_fixture spr-ddr5-2cxl)
shim_run() { ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 LD_PRELOAD=$shim run "$@"; }
TT_FAULT_UNLINK=$state/apply.journal shim_run "$TT" --sysfs-root "$root" apply --weights 0:5,1:2
is "an apply whose journal cannot be removed: exit 0, written, the journal left, said" \
	"$rc:$(cat "$root/$WI/node0"):$(ls "$state" | grep -c '^apply.journal$'):$(grep -c 'the journal could not be removed' "$WORK/err")" "0:5:1:1"
before=$(tree_sum "$root")
TT_FAULT_PATH=$state/apply.history TT_FAULT_READ=eio shim_run "$TT" --sysfs-root "$root" restore
is "then EIO reading the history in recovery: exit 1 naming both, nothing put back, the journal kept" \
	"$rc:$(grep -c "cannot tell whether journal '$state/apply.journal' belongs to a change that had finished (it is kept, nothing put back): cannot read history '$state/apply.history': Input/output error" "$WORK/err"):$([ "$(tree_sum "$root")" = "$before" ] && echo same):$(ls "$state" | grep -c '^apply.journal$')" \
	"1:1:same:1"
run "$TT" --sysfs-root "$root" restore
is "the history readable again: the journal found finished, the apply undone (25, auto mode back)" \
	"$rc:$(grep -c '^the interrupted change had finished; undoing it$' "$WORK/out"):$(cat "$root/$WI/node0" "$root/$WI/auto" | tr '\n' ' '):$(ls "$state" | grep -c '^apply.journal$')" \
	"0:1:25 true :0"

# A node online whose memory is not (a DIMM left offline): a wait (exit
# 3, the node named), not "profile is from other hardware".
root=$(copy_fixture spr-ddr5-2cxl)
echo 0-1 >"$root/$NODE/has_memory"
rm -f "$root/$WI/node2"
before=$(tree_sum "$root")
run "$TT" --sysfs-root "$root" apply --profile "$WORK/spr.json"
is "node 2 online without memory: exit 3, 'node 2 has no memory yet', nothing written" \
	"$rc:$(grep -c 'node 2 has no memory yet: nothing written' "$WORK/err"):$([ "$(tree_sum "$root")" = "$before" ] && echo same)" \
	"3:1:same"
run "$TT" --sysfs-root "$root" apply --weights 0:5,2:1
is "typed weights for it: the same wait, nothing written" \
	"$rc:$(grep -c 'node 2 has no memory yet' "$WORK/err"):$([ "$(tree_sum "$root")" = "$before" ] && echo same)" \
	"3:1:same"

# A profile without a fingerprint: refused unless forced.
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); del j["machine"]["fingerprint"]; json.dump(j, open(sys.argv[2], "w"))' \
	"$WORK/spr.json" "$WORK/nofp.json"
root=$(copy_fixture spr-ddr5-2cxl)
expect_bad_input 2 "profile '$WORK/nofp.json' has no hardware fingerprint" "$root" \
	"$TT" --sysfs-root "$root" apply --profile "$WORK/nofp.json"
run "$TT" --sysfs-root "$root" apply --profile "$WORK/nofp.json" --force
is "... and applied with --force" "$rc:$(cat "$root/$WI/node0")" "0:5"

# A profile is read in large reads (jansson's json_loadfd read one byte per
# read(2): 1,049,277 for 1 MiB) and refused past 4 MiB.
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); j["pad"]="x"*(1<<20); json.dump(j, open(sys.argv[2], "w"))' \
	"$WORK/spr.json" "$WORK/big.json"
if [ -n "$have_strace" ]; then
	root=$(copy_fixture spr-ddr5-2cxl)
	strace -f -qq -o "$WORK/reads" -P "$WORK/big.json" -e trace=read "$TT" --sysfs-root "$root" apply --profile "$WORK/big.json" >/dev/null 2>&1
	reads=$(grep -c '^[0-9]* *read(' "$WORK/reads")
	is "a 1 MiB profile: at most 4 reads (was 1,049,277)" "$([ "$reads" -le 4 ] && echo few || echo "$reads")" few
else
	skip "no strace to count reads with"
fi
truncate -s 5M "$WORK/huge.json"
root=$(copy_fixture spr-ddr5-2cxl)
expect_bad_input 2 "profile '$WORK/huge.json' is 5242880 bytes, more than a profile holds" "$root" \
	"$TT" --sysfs-root "$root" apply --profile "$WORK/huge.json"

# --db FIFO and db merge FIFO: refused at once, not hung in open(2).
mkfifo "$WORK/fifo"
run timeout 10 "$TT" --db "$WORK/fifo" runs
is "--db FIFO: exit 2 at once, named" "$rc:$(grep -c "database '$WORK/fifo' is not a regular file" "$WORK/err")" "2:1"
run timeout 10 "$TT" db merge "$WORK/fifo"
is "db merge FIFO: exit 2 at once, named" "$rc:$(grep -c "database '$WORK/fifo' is not a regular file" "$WORK/err")" "2:1"

# capture -o X.tar.gz: tar wrote X.tar.gz.tmp-PID through a link planted
# there (exec keeps the pid the link names).
echo victim >"$WORK/victim"
run bash -c 'ln -s "$1/victim" "$1/cap.tar.gz.tmp-$$"; exec "$2" --sysfs-root "$3" capture -o "$1/cap.tar.gz"' \
	- "$WORK" "$TT" "$FIX/vm-1node"
is "capture beside a planted link: exit 0, the link's target untouched, the archive whole" \
	"$rc:$(cat "$WORK/victim"):$(tar -tzf "$WORK/cap.tar.gz" 2>/dev/null | grep -c 'proc/vmstat')" "0:victim:1"

# plot -o PREFIX: gnuplot opened PREFIX.png itself, through a link another
# user planted in a sticky folder; the images now get .dat's checks.
if [ "$(id -u)" = 0 ] && command -v gnuplot >/dev/null; then
	fx=$(copy_fixture spr-ddr5-2cxl)
	"$TT" --sysfs-root "$fx" auto --source-node 0 --model "$TT_TOP/model/machines/spr-ddr5-2cxl.json" --seed 7 --json >"$WORK/auto.json" 2>"$WORK/auto.err" || tail -3 "$WORK/auto.err" | diag
	id=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["run"])' <"$WORK/auto.json")
	mkdir -m 1777 "$WORK/sticky"
	ln -s "$WORK/victim" "$WORK/sticky/p.png"
	chown -h nobody "$WORK/sticky/p.png"
	run "$TT" plot "$id" -o "$WORK/sticky/p"
	is "plot with a link another user planted at PREFIX.png: refused, its target untouched" \
		"$rc:$(cat "$WORK/victim"):$(grep -c "output '$WORK/sticky/p.png' is a symbolic link another user" "$WORK/err")" \
		"2:victim:1"
	run "$TT" plot "$id" -o "$WORK/p"
	is "plot without one: the images drawn in place" \
		"$rc:$(head -c 4 "$WORK/p.png" | tail -c 3):$(grep -c '</svg>' "$WORK/p-rank.svg")" "0:PNG:1"
else
	skip "plot's planted link needs root (chown) and gnuplot"
	skip "plot's images"
fi

# restore --last of an apply whose node has no memory now: its weight
# file is gone (7.2 raised a raw "cannot read .../node3"); the rest undone.
rm -rf "$state"
root=$(copy_fixture spr-ddr5-2cxl)
"$TT" --sysfs-root "$root" apply --weights 0:5,1:2,2:1 >/dev/null
node2_offline "$root"
run "$TT" --sysfs-root "$root" restore --last
is "restore --last with node 2 gone: exit 0, node2 left out and named, the rest undone" \
	"$rc:$(grep -c "1 file the change wrote is gone, its node has no memory now: left out (/$WI/node2)" "$WORK/err"):$(cat "$root/$WI/node1" "$root/$WI/auto" | tr '\n' ' ')" \
	"0:1:3 true "

# restore --last after the kernel's auto-mode inputs changed (a hot-add
# changes the bandwidths its formula reads): turning auto back on
# recomputes the node weights just written, and the report says so.
rm -rf "$state"
root=$(copy_fixture spr-ddr5-2cxl)
"$TT" --sysfs-root "$root" apply --weights 0:5,1:2,2:1 >/dev/null
for nd in 1 2; do for f in read_bandwidth write_bandwidth; do
	echo 72000 >"$root/$NODE/node$nd/access1/initiators/$f"
done; done
run "$TT" --sysfs-root "$root" restore --last
is "restore --last, auto mode back on a changed machine: each weight's recomputed value said" \
	"$rc:$(grep -c "/$WI/node0: 5 -> 25, then $(cat "$root/$WI/node0") (the kernel recomputed it)$" "$WORK/out"):$(grep -c 'then .* (the kernel recomputed it)$' "$WORK/out")" \
	"0:1:3"

# The lock is waited for: twelve applies started at once all succeed.
rm -rf "$state"
root=$(copy_fixture spr-ddr5-2cxl)
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
	"$TT" --sysfs-root "$root" apply --weights 0:$((i + 1)) >/dev/null 2>"$WORK/lock-$i.err" &
done
fails=0
for j in $(jobs -p); do wait "$j" || fails=$((fails + 1)); done
is "12 simultaneous applies: none fails for the lock" "$fails" 0

# A wait is said (the boot unit's log explains a late apply), the holder
# named when it is a tiertune; past TIERTUNE_LOCK_WAIT, exit 1 naming it.
"$TT" --sysfs-root "$root" apply --weights 0:200 >/dev/null
# held_lock SECONDS: the lock held that long from when this returns (a
# fixed sleep before the command raced the holder on a loaded host: the
# command got the lock first and did not wait).
held_lock() {
	flock "$state/apply.lock" sleep "$1" &
	while flock -n "$state/apply.lock" true; do sleep 0.05; done
}
held_lock 2
run "$TT" --sysfs-root "$root" apply --weights 0:3
is "an apply that waited for the lock: exit 0, the wait said" \
	"$rc:$(grep -c '^tiertune: warning: waited [0-9]* s for the lock another tiertune held$' "$WORK/err")" "0:1"
wait
held_lock 4
run env TIERTUNE_LOCK_WAIT=1 "$TT" --sysfs-root "$root" apply --weights 0:4
is "past TIERTUNE_LOCK_WAIT: exit 1, the wait and the variable named" \
	"$rc:$(grep -c 'another tiertune is writing weights (lock .* is held; waited 1 s)' "$WORK/err"):$(grep -c 'TIERTUNE_LOCK_WAIT=SECONDS waits longer (now 1)' "$WORK/err")" \
	"1:1:1"
wait

done_testing
