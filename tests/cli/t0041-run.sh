#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tiertune run: refusals and arguments on fixture copies (nothing written
# unless --apply, which goes through apply's transaction), the program
# launched on this machine with its CPUs on the source node under
# MPOL_WEIGHTED_INTERLEAVE, its exit status passed through; the numactl
# export with and without a numactl that takes -w. Placement over several
# nodes is the QEMU suite's (tests/qemu).
. "$(dirname "$0")/lib.sh"

WI=sys/kernel/mm/mempolicy/weighted_interleave
state=$TIERTUNE_STATE_DIR

spr=$(copy_fixture spr-ddr5-2cxl)
expect_bad_input 2 "run needs the program after '--'" "$spr" "$TT" --sysfs-root "$spr" run --weights 0:1
expect_bad_input 2 "run needs --weights, --run, --profile or --nodes" "$spr" "$TT" --sysfs-root "$spr" run -- true
expect_bad_input 2 "run takes one of --weights, --run, --profile" "$spr" "$TT" --sysfs-root "$spr" run --weights 0:1 --run 1 -- true
expect_bad_input 2 "run needs --source-node N" "$spr" "$TT" --sysfs-root "$spr" run --weights 0:25,1:3,2:3 -- true
expect_bad_input 2 "command 'no-such-program-tt' not found in PATH" "$spr" \
	"$TT" --sysfs-root "$spr" run --weights 0:5,1:2,2:1 --source-node 0 --apply -- no-such-program-tt
expect_bad_input 2 "--nodes 'x' is not a node list" "$spr" "$TT" --sysfs-root "$spr" run --nodes x --source-node 0 -- true
expect_bad_input 2 "names node 2, which the weights do not weigh" "$spr" \
	"$TT" --sysfs-root "$spr" run --weights 0:25,1:3 --nodes 0-2 --source-node 0 -- true
expect_bad_input 2 "weight '0' for node 0 out of range (1-255)" "$spr" "$TT" --sysfs-root "$spr" run --weights 0:0 --source-node 0 -- true
expect_bad_input 2 "source node 7 is not online" "$spr" "$TT" --sysfs-root "$spr" run --weights 0:25 --source-node 7 -- true
# Weights other than sysfs holds: said, nothing written (they are global).
expect_bad_input 3 "sysfs does not hold these weights (0:5,1:2,2:1): node 0 holds 25, not 5, node 1 holds 3, not 2, node 2 holds 3, not 1; nothing written" \
	"$spr" "$TT" --sysfs-root "$spr" run --weights 0:5,1:2,2:1 --source-node 0 -- true
is "and the hint names --apply" "$(grep -c "'tiertune run --apply ...' writes them for the program's run and puts the old ones back when it ends" "$WORK/err")" 1
# A profile from other hardware, a run that recommends no weights.
genoa=$(copy_fixture 2s-genoa-cxl)
"$TT" --sysfs-root "$genoa" export --weights 0:3,1:3,2:1,3:1 --format json -o "$WORK/genoa.json"
expect_bad_input 2 "is from host" "$spr" "$TT" --sysfs-root "$spr" run --profile "$WORK/genoa.json" --source-node 0 -- true
"$TT" --db "$WORK/keep.db" auto --source-node 0 --model spr-ddr5-2cxl --budget 20 >/dev/null 2>&1
keep=$("$TT" --db "$WORK/keep.db" runs --json | json 'j["runs"][0]["id"]')
if [ "$("$TT" --db "$WORK/keep.db" show "$keep" --json | json 'j["recommendations"][0].get("action")')" = keep_auto ]; then
	expect_bad_input 2 "run $keep recommends keeping the kernel's auto mode" "$spr" \
		"$TT" --db "$WORK/keep.db" --sysfs-root "$spr" run --run "$keep" -- true
else
	skip "the model run recommends weights, not keep_auto, here"
fi

# --apply: written through the one write path for the program's run only
# (issue 43): held and journalled while it runs, then the old weights and
# the kernel's auto mode put back, the fixture byte for byte as before.
# The root is a fixture's, so the program runs under this kernel's weights
# (said), on node 0 of the live machine: --nodes 0.
before=$(tree_sum "$spr")
run "$TT" --sysfs-root "$spr" run --weights 0:5,1:2,2:1 --nodes 0 --source-node 0 --apply -- sh -c 'cat "$0/node0" "$0/node1" "$0/node2" "$0/auto" | tr "\n" " "; echo; exit 7' "$spr/$WI"
is "--apply: the program ran under the weights written (auto mode off), its exit status passed through" \
	"$rc:$(grep -c '^3 values written and read back' "$WORK/out"):$(tail -1 "$WORK/out")" \
	"7:1:5 2 1 false "
is "... then the weights and auto mode are back, the fixture byte for byte as before" \
	"$([ "$(tree_sum "$spr")" = "$before" ] && echo same):$(cat "$spr/$WI/node0" "$spr/$WI/auto" | tr '\n' ' ')" "same:25 true "
is "... said: held while it runs, then put back" \
	"$(grep -c '^held while the program runs: the old weights and the kernel.s auto mode go back when it ends$' "$WORK/out"):$(grep -c '^tiertune run: the program ended: the weights and the kernel.s auto mode are back as they were (4 values put back)$' "$WORK/err")" \
	"1:1"
is "--apply on a fixture root: the warning says the program follows this kernel's weights" \
	"$(grep -c "is not this machine: the program's pages follow this kernel's weights" "$WORK/err")" 1
run "$TT" --sysfs-root "$spr" restore --last
is "... nothing in the history: restore --last has no apply to undo" "$rc:$(grep -c 'no apply on sysfs root' "$WORK/err")" "2:1"
# A program that cannot start once the weights are written: put back too.
run "$TT" --sysfs-root "$spr" run --weights 0:5,1:2,2:1 --nodes 0 --source-node 0 --apply -- "$WORK"
is "--apply with a program that is not one: refused, nothing written" \
	"$rc:$([ "$(tree_sum "$spr")" = "$before" ] && echo same)" "2:same"

# A kernel that could not turn auto mode back on (no bandwidth data, as
# this VM's) cannot have it put back: refused, --force or not.
vm=$(copy_fixture vm-1node)
expect_bad_input 3 "run --apply puts the kernel's auto mode back on when the program ends, and this kernel cannot" \
	"$vm" "$TT" --sysfs-root "$vm" run --weights 0:2 --source-node 0 --apply --force -- true

# Signals while the program runs. A TERM to tiertune (a service manager's
# stop) is passed on to the program, and the weights go back when it ends.
held_run() { # signal
	rm -f "$WORK/pid"
	"$TT" --sysfs-root "$spr" run --weights 0:5,1:2,2:1 --nodes 0 --source-node 0 --apply -- \
		sh -c 'echo $$ >"$0.tmp" && mv "$0.tmp" "$0" && exec sleep 60' "$WORK/pid" >"$WORK/out" 2>"$WORK/err" &
	tpid=$!
	for _ in $(seq 300); do [ -s "$WORK/pid" ] && break; sleep 0.1; done
	held=$(cat "$spr/$WI/node0" "$spr/$WI/auto" | tr '\n' ' ')
	kill "-$1" "$tpid"
	wait "$tpid"
	rc=$?
}
held_run TERM
is "TERM to tiertune: passed on to the program (143), the weights back" \
	"$held:$rc:$([ "$(tree_sum "$spr")" = "$before" ] && echo same):$(grep -c '^tiertune run: the program ended: the weights and the kernel.s auto mode are back as they were' "$WORK/err")" \
	"5 false :143:same:1"
# Killed outright, tiertune leaves the journal (and the program running);
# the next tiertune that writes puts it back, as for any apply.
held_run KILL
kill "$(cat "$WORK/pid")"
is "tiertune killed: the weights still written, the journal left" \
	"$held:$rc:$(cat "$spr/$WI/node0"):$(ls "$state" | grep -c '^apply.journal$')" "5 false :137:5:1"
run "$TT" --sysfs-root "$spr" restore
is "... the next command puts the journal back: the fixture byte for byte as before" \
	"$rc:$(grep -c '^put back 4 values from journal' "$WORK/out"):$([ "$(tree_sum "$spr")" = "$before" ] && echo same)" "0:1:same"
# A profile made on this hardware whose weights sysfs holds: runs as is.
"$TT" --sysfs-root "$spr" export --weights 0:25,1:3,2:3 --format json -o "$WORK/spr.json"
before=$(tree_sum "$spr")
run "$TT" --sysfs-root "$spr" run --profile "$WORK/spr.json" --nodes 0 --source-node 0 -- true
is "--profile whose weights sysfs holds: runs, nothing written" "$rc:$([ "$(tree_sum "$spr")" = "$before" ] && echo same)" "0:same"

# On this machine: the program on the source node's CPUs under weighted
# interleave, as /proc shows it.
src=$(local_node)
if [ -d /$WI ] && [ -f "/$WI/node$src" ]; then
	w=$(cat "/$WI/node$src")
	run "$TT" run --weights "$src:$w" --source-node "$src" -- sh -c 'grep Cpus_allowed_list /proc/self/status; grep -c "weighted interleave:'"$src"' " /proc/self/numa_maps'
	want=$(python3 -c 'import sys
def ids(s):
    out = []
    for p in s.strip().split(","):
        a, _, b = p.partition("-"); out += range(int(a), int(b or a) + 1)
    return out
print(",".join(map(str, ids(open(sys.argv[1]).read()))))' "/sys/devices/system/node/node$src/cpulist")
	got=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$WORK/out" | python3 -c 'import sys
out = []
for p in sys.stdin.read().strip().split(","):
    a, _, b = p.partition("-"); out += range(int(a), int(b or a) + 1)
print(",".join(map(str, out)))')
	is "live: the program's CPUs are node $src's" "$rc:$got" "0:$want"
	is "live: its mappings are under weighted interleave over node $src" \
		"$([ "$(tail -1 "$WORK/out")" -gt 0 ] && echo yes)" yes
	run "$TT" run --nodes "$src" --source-node "$src" -- sh -c 'exit 3'
	is "live: --nodes alone runs under the weights sysfs holds; exit status passed through" "$rc" 3
	expect_bad_input 3 "node $src holds $w, not $((w % 255 + 1))" - "$TT" run --weights "$src:$((w % 255 + 1))" --source-node "$src" -- true
else
	skip "this kernel has no weighted interleave weight for node $src (Linux 6.9+)"
	skip "(the same)"
	skip "(the same)"
	skip "(the same)"
fi

# The numactl export: --cpunodebind on the source node; a numactl without
# --weighted-interleave (Debian 12's 2.0.16) gets the tiertune run line.
mkdir -p "$WORK/new" "$WORK/old"
printf '#!/bin/sh\necho "  --weighted-interleave= | -w <nodes>"\n' >"$WORK/new/numactl"
printf '#!/bin/sh\n[ "$1" = --version ] && echo "numactl 2.0.16" && exit 0\necho "usage: numactl [--all | -a] [--interleave= | -i <nodes>]" >&2; exit 1\n' >"$WORK/old/numactl"
chmod +x "$WORK/new/numactl" "$WORK/old/numactl"
PATH="$WORK/new:$PATH" run "$TT" --sysfs-root "$spr" export --weights 0:5,1:2,2:1 --source-node 0 --format numactl
is "numactl 2.0.19+: --cpunodebind and --weighted-interleave" "$(grep -v '^#' "$WORK/out")" \
	'numactl --cpunodebind=0 --weighted-interleave=0-2 -- "$@"'
PATH="$WORK/old:$PATH" run "$TT" --sysfs-root "$spr" export --weights 0:5,1:2,2:1 --source-node 0 --format numactl
is "numactl without -w: the tiertune run line" "$(grep -v '^#' "$WORK/out")" \
	'tiertune run --weights 0:5,1:2,2:1 --source-node 0 -- "$@"'
expect_bad_input 2 "give --source-node N" "$spr" "$TT" --sysfs-root "$spr" export --weights 0:5,1:2,2:1 --format numactl
is "... and its comment names the version that lacks -w" \
	"$(PATH="$WORK/old:$PATH" "$TT" --sysfs-root "$spr" export --weights 0:5,1:2,2:1 --source-node 0 --format numactl | grep -c "^# this host's numactl 2.0.16 has no --weighted-interleave (2.0.19+): tiertune run does the same$")" 1

# The per-socket recipe (issue 43): every command line runs as printed and
# the words say what it does. With hand weights that serve node 1's tasks
# well (DRAM 5:1 over CXL), Genoa node 0's best costs them, so the run
# recommends launching per socket (with the kernel's 1s it is applied:
# t0050); show prints the recipe again, asking this host's numactl then.
gx=$(copy_fixture 2s-genoa-cxl)
run "$TT" --db "$WORK/hand.db" --sysfs-root "$gx" apply --weights 0:5,1:5,2:1,3:1
is "recipe: the hand weights set" "$rc" 0
"$TT" --db "$WORK/recipe.db" --sysfs-root "$gx" auto --source-node 0 --model "$TT_TOP/model/machines/2s-genoa-cxl.json" --seed 1 >/dev/null 2>&1
rid=$("$TT" --db "$WORK/recipe.db" runs --json | json 'j["runs"][0]["id"]')
PATH="$WORK/new:$PATH" run "$TT" --db "$WORK/recipe.db" show "$rid"
w=$(sed -n 's/^  tiertune run --source-node 0 --weights \([0-9:,]*\) --apply -- PROGRAM$/\1/p' "$WORK/out")
is "recipe: --apply said to write the weights for the run only, then put them and auto mode back" \
	"$rc:$(grep -A3 "^or launch per socket: the program on node 0's CPUs (0-47), under weighted$" "$WORK/out" | tr '\n' ' ')" \
	"0:or launch per socket: the program on node 0's CPUs (0-47), under weighted interleave over nodes 0-1; --apply writes $w for its run only (global meanwhile: every task interleaving over those nodes gets them), then puts the weights and auto mode back as they were: "
is "... a numactl with -w: its line, after the weights are written for good" \
	"$(grep -c "^or, the weights written for good first ('tiertune apply --weights $w'):$" "$WORK/out"):$(grep -c '^  numactl --cpunodebind=0 --weighted-interleave=0-1 -- PROGRAM$' "$WORK/out")" "1:1"
is "... node 1's tasks bound to its own memory, which it shares with the program: an upper bound" \
	"$(grep -A4 "^node 1's tasks" "$WORK/out" | tr '\n' ' '):$(grep -c 'kept off' "$WORK/out")" \
	"node 1's tasks on its CPUs and local memory, nodes 1,3 (or their cgroup's cpuset.mems=1,3):   numactl --cpunodebind=1 --membind=1,3 -- PROGRAM they share node 1 with the program: its gain was measured with them idle, so with them running it is an upper bound :0"
is "... every line of it within 80 columns here" "$(sed -n '/^instead, either tune/,$p' "$WORK/out" | awk 'length > 80' | wc -l)" 0
PATH="$WORK/old:$PATH" run "$TT" --db "$WORK/recipe.db" show "$rid"
is "... numactl 2.0.16: no -w line, tiertune run instead, the version said" \
	"$(grep -c -- '--weighted-interleave=' "$WORK/out"):$(grep -A1 '^(no numactl line' "$WORK/out" | tr '\n' ' ')" \
	"0:(no numactl line: this host's numactl 2.0.16 has no --weighted-interleave (2.0.19+); tiertune run does what numactl -w would) "
run env PATH=/nonexistent "$TT" --db "$WORK/recipe.db" show "$rid"
is "... no numactl at all: said" "$(grep -A1 '^(no numactl line' "$WORK/out" | tr '\n' ' ')" \
	"(no numactl line: no numactl in PATH; tiertune run does what numactl -w would) "
# The service's line runs as printed (the drop-in itself: t0040).
cmdline=$(sed -n 's/^  tiertune export \(.* --format systemd -- PROGRAM\)$/\1/p' "$WORK/out")
run "$TT" --sysfs-root "$gx" export $cmdline
is "... and its 'tiertune export ... --format systemd -- PROGRAM' line writes the drop-in" \
	"$rc:$(grep -c '^CPUAffinity=0-47$' "$WORK/out"):$(grep -c '^After=tiertune-apply.service$' "$WORK/out"):$(grep -c "^ExecStart=.* run --weights $w --source-node 0 -- PROGRAM$\|^# (The service's own ExecStart= stays" "$WORK/out")" "0:1:1:1"

done_testing
