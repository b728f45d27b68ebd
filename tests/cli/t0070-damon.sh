#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Shares kept by DAMON (issue 47 item 2; docs/damon.md): rebalance --damon
# against DAMON's sysfs of a kernel with the node_eligible_mem_bp goal and
# of one without (tests/fixtures/damon, overlaid on qemu-3node-hmat; the
# fixture kernel, core/fixture-damon.c, makes nr_* writes create
# directories and refuses metrics the release lacks, as the kernel does):
# the files written, exactly; the kdamond turned on; removal leaving the
# tree byte for byte as found (--damon-stop, --damon-seconds, ^C); the
# refusals (no goal, DAMON busy, --pid, bad input) each with nothing
# written; a setup failing half-way undone; export --format damon, exactly.
# No guest kernel in tests/qemu's reach has the goal (docs/damon.md).
. "$(dirname "$0")/lib.sh"

DFIX="$TT_TOP/tests/fixtures/damon"
ADMIN=sys/kernel/mm/damon/admin/kdamonds

# damon_root OVERLAY...: a machine fixture with the overlays on top, in
# order (a release's DAMON files, the memory blocks, another tool's kdamond).
damon_root() {
	local fx o
	fx=$(copy_fixture qemu-3node-hmat) || return
	for o in "$@"; do cp -a "$DFIX/$o/." "$fx" || return; done
	echo "$fx"
}
# same A B: the two trees hold the same files with the same bytes (the
# HMAT initiator links loop: not followed).
same() { diff -r --no-dereference "$1" "$2" >/dev/null; }
# The files that make the scheme set, "path=value", in a fixed order.
dump() {
	local k="$1/$ADMIN/0" c s
	c="$k/contexts/0"
	for f in "$1/$ADMIN/nr_kdamonds" "$k/state" "$k/pid" "$k/contexts/nr_contexts" \
		"$c/operations" "$c/targets/nr_targets" "$c/targets/0/regions/nr_regions" \
		"$c"/targets/0/regions/[0-9]*/start "$c"/targets/0/regions/[0-9]*/end \
		"$c/schemes/nr_schemes"; do
		echo "${f#"$1/$ADMIN/"}=$(cat "$f")"
	done
	for s in "$c"/schemes/[0-9]*; do
		for f in action target_nid access_pattern/sz/min access_pattern/sz/max \
			access_pattern/nr_accesses/min access_pattern/nr_accesses/max \
			access_pattern/age/min access_pattern/age/max quotas/ms quotas/bytes \
			quotas/reset_interval_ms quotas/goal_tuner quotas/goals/nr_goals \
			quotas/goals/0/target_metric quotas/goals/0/nid quotas/goals/0/target_value \
			core_filters/nr_filters core_filters/0/type core_filters/0/addr_start \
			core_filters/0/addr_end core_filters/0/matching core_filters/0/allow; do
			echo "${s#"$c/"}/$f=$(cat "$s/$f")"
		done
	done
}

fx=$(damon_root goal blocks)
orig="$WORK/orig"
cp -a "$fx" "$orig"

# 5:3:2 over three nodes: 5000/3000/2000 bp, a scheme a node.
run "$TT" --sysfs-root "$fx" rebalance --damon --weights 0:5,1:3,2:2 --damon-keep
is "--damon-keep: set up and reported, exit 0" "$rc:$(sed -n 1p "$WORK/out")" \
	"0:DAMON keeps the machine's hot memory at the shares: kdamond 0, paddr, 3 migrate_hot schemes, goals node_eligible_mem_bp"
is "--damon-keep: the first report from DAMON's own files (goal current_value, stats, quota)" \
	"$(sed -n 2,5p "$WORK/out")" \
	"  node  target_bp  current_bp  tried_bytes  applied_bytes  quota_bytes
     0       5000           0            0              0            0
     1       3000           0            0              0            0
     2       2000           0            0              0            0"
is "--damon-keep: the files written, exactly" "$(dump "$fx" | grep -v '^schemes/[12]/')" \
	"nr_kdamonds=1
0/state=on
0/pid=4321
0/contexts/nr_contexts=1
0/contexts/0/operations=paddr
0/contexts/0/targets/nr_targets=1
0/contexts/0/targets/0/regions/nr_regions=3
0/contexts/0/targets/0/regions/0/start=0
0/contexts/0/targets/0/regions/1/start=4294967296
0/contexts/0/targets/0/regions/2/start=6442450944
0/contexts/0/targets/0/regions/0/end=2147483648
0/contexts/0/targets/0/regions/1/end=6442450944
0/contexts/0/targets/0/regions/2/end=8589934592
0/contexts/0/schemes/nr_schemes=3
schemes/0/action=migrate_hot
schemes/0/target_nid=0
schemes/0/access_pattern/sz/min=4096
schemes/0/access_pattern/sz/max=4294967295
schemes/0/access_pattern/nr_accesses/min=1
schemes/0/access_pattern/nr_accesses/max=4294967295
schemes/0/access_pattern/age/min=0
schemes/0/access_pattern/age/max=4294967295
schemes/0/quotas/ms=0
schemes/0/quotas/bytes=104857600
schemes/0/quotas/reset_interval_ms=1000
schemes/0/quotas/goal_tuner=temporal
schemes/0/quotas/goals/nr_goals=1
schemes/0/quotas/goals/0/target_metric=node_eligible_mem_bp
schemes/0/quotas/goals/0/nid=0
schemes/0/quotas/goals/0/target_value=5000
schemes/0/core_filters/nr_filters=1
schemes/0/core_filters/0/type=addr
schemes/0/core_filters/0/addr_start=0
schemes/0/core_filters/0/addr_end=2147483648
schemes/0/core_filters/0/matching=Y
schemes/0/core_filters/0/allow=N"
is "--damon-keep: each node's scheme: migrate_hot to it, its goal's nid and share" \
	"$(dump "$fx" | grep -E '^schemes/[0-9]/(action|target_nid|quotas/goals/0/.*|core_filters/0/addr_.*)=' | cut -d/ -f3- | tr '\n' ' ')" \
	"action=migrate_hot target_nid=0 quotas/goals/0/target_metric=node_eligible_mem_bp quotas/goals/0/nid=0 quotas/goals/0/target_value=5000 core_filters/0/addr_start=0 core_filters/0/addr_end=2147483648 action=migrate_hot target_nid=1 quotas/goals/0/target_metric=node_eligible_mem_bp quotas/goals/0/nid=1 quotas/goals/0/target_value=3000 core_filters/0/addr_start=4294967296 core_filters/0/addr_end=6442450944 action=migrate_hot target_nid=2 quotas/goals/0/target_metric=node_eligible_mem_bp quotas/goals/0/nid=2 quotas/goals/0/target_value=2000 core_filters/0/addr_start=6442450944 core_filters/0/addr_end=8589934592 "

# A second --damon finds DAMON in use (its own set, too): refused, named.
expect_bad_input 3 "DAMON is in use: kdamond 0 (on, pid 4321)" "$fx" \
	"$TT" --sysfs-root "$fx" rebalance --damon --weights 0:1,1:1
run "$TT" --sysfs-root "$fx" rebalance --damon-stop
is "--damon-stop: removed, exit 0" "$rc:$(cat "$WORK/out")" "0:removed: DAMON as found, no kdamond"
check "--damon-stop: the tree byte for byte as before" same "$fx" "$orig"
expect_bad_input 3 "no DAMON scheme set of tiertune's to remove (no kdamond)" "$fx" \
	"$TT" --sysfs-root "$fx" rebalance --damon-stop

# For a while, then removed.
run "$TT" --sysfs-root "$fx" rebalance --damon --weights 0:3,1:2 --damon-seconds 0.3 --damon-every 0.1
is "--damon-seconds: reports, then removes" \
	"$rc:$(grep -c '^  node  target_bp' "$WORK/out"):$(tail -1 "$WORK/out")" \
	"0:4:removed: DAMON as found, no kdamond"
check "--damon-seconds: the tree byte for byte as before" same "$fx" "$orig"

# ^C while it keeps the shares: removed before exit.
printf '%s\n' "$TT --sysfs-root $fx rebalance --damon --weights 0:3,1:2 (^C)" >"$WORK/cmd"
"$TT" --sysfs-root "$fx" rebalance --damon --weights 0:3,1:2 --damon-every 0.05 \
	>"$WORK/out" 2>"$WORK/err" &
pid=$!
for _ in $(seq 100); do
	[ "$(cat "$fx/$ADMIN/0/state" 2>/dev/null)" = on ] && break
	sleep 0.05
done
is "^C: it was running (state on)" "$(cat "$fx/$ADMIN/0/state" 2>/dev/null)" on
kill -INT "$pid"
wait "$pid"
rc=$?
is "^C: removed on the signal, exit 0" "$rc:$(tail -1 "$WORK/out")" \
	"0:removed on a signal: DAMON as found, no kdamond"
check "^C: the tree byte for byte as before" same "$fx" "$orig"

# A failure half-way (the 20th store refused: scheme 0's quota interval): the
# kdamond it added is removed, nothing else is written.
# (the test front end, which takes the fault; --damon-seconds: were the
# fault missed, the test would still end)
TIERTUNE_TEST_FIXTURE_FAULT=fail:20 run "$TT_BUILD/tests/tiertune-test" --sysfs-root "$fx" \
	rebalance --damon --weights 0:3,1:2 --damon-seconds 0.1
is "a store failing half-way: exit 1, stdout empty, the failing file named" \
	"$rc:$(wc -c <"$WORK/out"):$(grep -c "writing '1000' to '.*/schemes/0/quotas/reset_interval_ms'" "$WORK/err")" "1:0:1"
check "a store failing half-way: the tree byte for byte as before" same "$fx" "$orig"

# Refusals, each with nothing written.
expect_bad_input 3 "DAMON cannot keep one process's shares: its goal node_eligible_mem_bp counts physical memory" \
	"$fx" "$TT" --sysfs-root "$fx" rebalance --damon --pid 1 --weights 0:3,1:2
expect_bad_input 2 "DAMON keeps shares between two nodes or more" "$fx" \
	"$TT" --sysfs-root "$fx" rebalance --damon --weights 0:1
expect_bad_input 2 "node 7 is not an online memory node" "$fx" "$TT" --sysfs-root "$fx" rebalance --damon --weights 0:3,7:2 --damon-seconds 0.1
expect_bad_input 2 "--move" "$fx" "$TT" --sysfs-root "$fx" rebalance --damon --weights 0:3,1:2 --move
expect_bad_input 2 "--damon-keep" "$fx" "$TT" --sysfs-root "$fx" rebalance --damon-keep --pid 1 --weights 0:3,1:2
expect_bad_input 2 "rebalance --damon reports as text only" "$fx" \
	"$TT" --sysfs-root "$fx" rebalance --damon --weights 0:3,1:2 --json
expect_bad_input 2 "this command needs --pid (or --damon" "$fx" \
	"$TT" --sysfs-root "$fx" rebalance --weights 0:3,1:2

# A release without the goal: the kernel refuses the metric; undone.
old=$(damon_root 7.1 blocks)
cp -a "$old" "$WORK/old-orig"
expect_bad_input 3 "this kernel's DAMON has no quota goal 'node_eligible_mem_bp' (target_metric refused it)" \
	"$old" "$TT" --sysfs-root "$old" rebalance --damon --weights 0:3,1:2
grep -q "the one-shot rebalance (without --damon) still moves" "$WORK/err"
tap $? "no goal: the words say the one-shot rebalance stays"
check "no goal: the tree byte for byte as before" same "$old" "$WORK/old-orig"

# Another tool's kdamond running: refused, named, untouched.
busy=$(damon_root goal blocks busy)
expect_bad_input 3 "DAMON is in use: kdamond 0 (on, pid 812)" "$busy" \
	"$TT" --sysfs-root "$busy" rebalance --damon --weights 0:3,1:2
expect_bad_input 3 "no DAMON scheme set of tiertune's to remove (kdamond 0 (on, pid 812))" "$busy" \
	"$TT" --sysfs-root "$busy" rebalance --damon-stop

# A DAMON module enabled (DAMON_STAT, as Debian's 7.3 kernel boots): its
# exclusive context lets no kdamond start; refused before any write.
mod=$(damon_root goal blocks module)
expect_bad_input 3 "DAMON is in use: module damon_stat (enabled); a DAMON module runs its context alone" \
	"$mod" "$TT" --sysfs-root "$mod" rebalance --damon --weights 0:3,1:2

# The memory blocks not there: the nodes' physical ranges unknown.
noblk=$(damon_root goal)
expect_bad_input 3 "cannot tell the nodes' physical address ranges" "$noblk" \
	"$TT" --sysfs-root "$noblk" rebalance --damon --weights 0:3,1:2

# No DAMON at all (a machine fixture without it).
plain=$(copy_fixture qemu-3node-hmat)
expect_bad_input 3 "no DAMON sysfs interface" "$plain" \
	"$TT" --sysfs-root "$plain" rebalance --damon --weights 0:3,1:2

# export --format damon: the same set as damo's --kdamonds file, exactly.
run "$TT" --sysfs-root "$fx" export --weights 0:3,1:2 --format damon
is "export --format damon: exit 0" "$rc" 0
is "export --format damon: the kdamond, context and schemes, exactly" "$(json '[
	(k["state"], c["ops"], c["targets"], c["intervals"], c["nr_regions"],
	 [(s["action"], s["target_nid"], s["access_pattern"], s["apply_interval_us"],
	   s["quotas"]["time_ms"], s["quotas"]["sz_bytes"], s["quotas"]["reset_interval_ms"],
	   s["quotas"]["weights"], s["quotas"]["goals"], s["quotas"]["goal_tuner"], s["filters"])
	  for s in c["schemes"]])
	for k in j["kdamonds"] for c in k["contexts"]]' <"$WORK/out")" \
	"[('on', 'paddr', [{'pid': None, 'regions': [{'start': 0, 'end': 2147483648}, {'start': 4294967296, 'end': 6442450944}]}], {'sample_us': 5000, 'aggr_us': 100000, 'ops_update_us': 1000000}, {'min': 10, 'max': 1000}, [('migrate_hot', 0, {'sz_bytes': {'min': 4096, 'max': 4294967295}, 'nr_accesses': {'min': 5, 'max': 100}, 'age': {'min': 0, 'max': 4294967295}}, 0, 0, 104857600, 1000, {'sz_permil': 0, 'nr_accesses_permil': 0, 'age_permil': 0}, [{'metric': 'node_eligible_mem_bp', 'nid': 0, 'target_value': 6000, 'current_value': 0}], 'temporal', [{'filter_type': 'addr', 'matching': True, 'allow': False, 'address_range': {'start': 0, 'end': 2147483648}}]), ('migrate_hot', 1, {'sz_bytes': {'min': 4096, 'max': 4294967295}, 'nr_accesses': {'min': 5, 'max': 100}, 'age': {'min': 0, 'max': 4294967295}}, 0, 0, 104857600, 1000, {'sz_permil': 0, 'nr_accesses_permil': 0, 'age_permil': 0}, [{'metric': 'node_eligible_mem_bp', 'nid': 1, 'target_value': 4000, 'current_value': 0}], 'temporal', [{'filter_type': 'addr', 'matching': True, 'allow': False, 'address_range': {'start': 4294967296, 'end': 6442450944}}])])]"
is "export --format damon: one top-level key, kdamonds (damo's kdamonds_from_json_arg)" \
	"$(json 'sorted(j)' <"$WORK/out")" "['kdamonds']"
expect_bad_input 2 "DAMON keeps shares between two nodes or more" "$fx" \
	"$TT" --sysfs-root "$fx" export --weights 0:1 --format damon
# A root whose memory blocks are not there: the same set without filters.
run "$TT" --sysfs-root "$plain" export --weights 0:3,1:2 --format damon
is "export --format damon, no memory blocks: no regions (damo picks its own) nor addr filters, the goals the same" \
	"$rc:$(json '[j["kdamonds"][0]["contexts"][0]["targets"]] + [(s["filters"], s["quotas"]["goals"][0]["target_value"]) for s in j["kdamonds"][0]["contexts"][0]["schemes"]]' <"$WORK/out")" \
	"0:[[{'pid': None, 'regions': []}], ([], 6000), ([], 4000)]"

done_testing
