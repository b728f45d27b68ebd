#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tiertune simulate: seed 004 tasks A-E, seed 011 (the v1 RFC) by hand, the
# index width of each walk, auto-mode weights, upstream order.
. "$(dirname "$0")/lib.sh"

pages() { "$TT" "$@" --json | json '" ".join(map(str, j["page_nodes"]))'; }
rfc() { pages --sysfs-root "$FIX/rfc-4node" simulate --interface rfc "$@"; }

# Seed 004 (tier4 from 0:4 from 1:3, tier22 from 0:2 from 1:1), both walks.
for mode in vma task; do
	is "task A ($mode): src 0, nodes 0,1" "$(rfc --mode $mode --source-node 0 --nodes 0,1 --pages 8)" "0 0 1 1 0 0 1 1"
	is "task B ($mode): src 0, nodes 0,2" "$(rfc --mode $mode --source-node 0 --nodes 0,2 --pages 12)" "0 0 0 0 2 2 0 0 0 0 2 2"
	is "task C ($mode): src 1, nodes 1,3" "$(rfc --mode $mode --source-node 1 --nodes 1,3 --pages 8)" "1 1 1 3 1 1 1 3"
	is "task D ($mode): src 0, nodes 0-2" "$(rfc --mode $mode --source-node 0 --nodes 0-2 --pages 6)" "0 0 1 1 2 2"
	is "task E ($mode): src 1, nodes 0,1 (3 aligned up to 4)" "$(rfc --mode $mode --source-node 1 --nodes 0,1 --pages 8)" "0 0 1 1 0 0 1 1"
done
is "rfc --tier-weights overrides sysfs" "$(rfc --source-node 0 --nodes 0,2 --tier-weights 4:85,22:15 --pages 1 --json >/dev/null; pages --sysfs-root "$FIX/rfc-4node" simulate --source-node 0 --nodes 0,2 --tier-weights 4:3,22:1 --pages 4)" "0 0 0 2"

# Both RFCs take the interleave index as (unsigned int)n (seed 004: target =
# (unsigned int)n % il_weight; seed 011 the same): a page at 0x7f3a5c000000
# has index 34152497152, 4 mod 6 in 64 bits and 0 mod 6 in 32.
ilx=$((0x7f3a5c000000 >> 12))
is "task D at a 35-bit index: the 32-bit index starts the cycle" \
	"$(rfc --source-node 0 --nodes 0-2 --pages 6 --start-index $ilx)" "0 0 1 1 2 2"
is "upstream keeps the 64-bit index: the same order starts at slot 4" \
	"$(pages --sysfs-root "$FIX/qemu-3node-hmat" simulate --nodes 0-2 --weights 0:2,1:2,2:2 --pages 6 --start-index $ilx)" \
	"2 2 0 0 1 1"

# The per-source RFC's own fixture: no --interface, the kernel's (rfc).
is "rfc-4node without --interface: the rfc interface" \
	"$(out "$TT" --sysfs-root "$FIX/rfc-4node" simulate --source-node 0 --nodes 0-3 --pages 8 --json | json 'j["interface"], " ".join(map(str, j["page_nodes"]))')" \
	"rfc 0 0 1 1 2 3 0 0"
expect_bad_input 2 "rfc weights are relative to a source node: give --source-node N" "$FIX/rfc-4node" \
	"$TT" --sysfs-root "$FIX/rfc-4node" simulate --nodes 0-3 --pages 8

# Seed 011 (the v1 RFC, one weight per tier, MPOL_INTERLEAVE), by hand from
# node_interleave_weight: a tier's weight / its nodes in the policy, the
# remainder one each to the first nodes by id, at least 1; offset_il_node
# walks the nodes' slots in id order; interleave_nodes gives each node its
# weight in a row. The fixture holds tier 4 = 85, tier 22 = 15.
v1() { pages --sysfs-root "$FIX/rfcv1-4node" simulate "$@"; }
is "rfcv1-4node without --interface: the rfcv1 interface, sysfs weights 43/42/8/7" \
	"$(out "$TT" --sysfs-root "$FIX/rfcv1-4node" simulate --nodes 0-3 --pages 100 --json | json 'j["interface"], j["weights_from"], [(p["node"], p["weight"], p["pages"]) for p in j["per_node"]]')" \
	"rfcv1 sysfs [(0, 43, 43), (1, 42, 42), (2, 8, 8), (3, 7, 7)]"
for mode in vma task; do
	is "rfcv1 5 and 3 over 0-3 ($mode): 3,2 and 2,1" "$(v1 --mode $mode --nodes 0-3 --tier-weights 4:5,22:3 --pages 16)" \
		"0 0 0 1 1 2 2 3 0 0 0 1 1 2 2 3"
	is "rfcv1 weights below the node count ($mode): 1 each" "$(v1 --mode $mode --nodes 0-3 --tier-weights 4:1,22:0 --pages 8)" \
		"0 1 2 3 0 1 2 3"
	is "rfcv1 over the policy's nodes only ($mode): 4 to node 0, 3 as 2,1" \
		"$(v1 --mode $mode --nodes 0,2,3 --tier-weights 4:4,22:3 --pages 7)" "0 0 0 0 2 2 3"
done
is "rfcv1 85:15 at a 35-bit index: slot 80 (32-bit), node 1's to 84, then node 2" \
	"$(v1 --nodes 0-3 --pages 8 --start-index $ilx)" "1 1 1 1 1 2 2 2"
is "rfcv1 takes no --source-node" "$(v1 --nodes 0,2 --pages 2 --json >/dev/null; "$TT" --sysfs-root "$FIX/rfcv1-4node" simulate --nodes 0,2 --pages 1 --json | json 'j["source_node"]')" None
expect_bad_input 2 "weight '101' for tier 4 out of range (0-100)" "$FIX/rfcv1-4node" \
	"$TT" --sysfs-root "$FIX/rfcv1-4node" simulate --nodes 0-3 --tier-weights 4:101 --pages 1

# A tier id past 1024 (abstract distance / 128: a 1 GiB/s-class node was
# tier 1350): its weight is the one written, not the default 1.
root=$(copy_fixture rfc-4node)
mv "$root/sys/devices/virtual/memory_tiering/memory_tier22" "$root/sys/devices/virtual/memory_tiering/memory_tier1350"
is "tier 1350: --tier-weights 1350:2 from source 0 over nodes 0,2" \
	"$(pages --sysfs-root "$root" simulate --source-node 0 --nodes 0,2 --tier-weights 4:4,1350:2 --pages 6)" "0 0 0 0 2 2"
is "tier 1350: its sysfs weight for source 0 (2) is read" \
	"$(pages --sysfs-root "$root" simulate --source-node 0 --nodes 0,2 --pages 6)" "0 0 0 0 2 2"

# Upstream: {0:3,1:1,2:2} gives 0 0 0 1 2 2, rotated by the start index.
up() { pages --sysfs-root "$FIX/qemu-3node-hmat" simulate "$@"; }
is "upstream 0:3,1:1,2:2" "$(up --nodes 0-2 --weights 0:3,1:1,2:2 --pages 6)" "0 0 0 1 2 2"
is "upstream 0:3,1:1,2:2 from index 4" "$(up --nodes 0-2 --weights 0:3,1:1,2:2 --pages 6 --start-index 4)" "2 2 0 0 0 1"
is "upstream task walk" "$(up --nodes 0-2 --weights 0:3,1:1,2:2 --pages 7 --mode task)" "0 0 0 1 2 2 0"
is "upstream weights from sysfs (all 1)" "$(up --nodes 0-2 --pages 4)" "0 1 2 0"

# Auto mode's formula on the fixtures' HMAT figures.
auto() { "$TT" --sysfs-root "$FIX/$1" simulate --nodes "$2" --weights auto --pages 1 --json | json '[(p["node"], p["weight"]) for p in j["per_node"]]'; }
is "auto weights, QEMU guest 20480,20480,5120 -> 14:14:3" "$(auto qemu-3node-hmat 0-2)" "[(0, 14), (1, 14), (2, 3)]"
is "auto weights, SPR 307200,36000,36000 -> 25:3:3" "$(auto spr-ddr5-2cxl 0-2)" "[(0, 25), (1, 3), (2, 3)]"
is "auto weights match what the SPR fixture's auto mode holds" \
	"$(out "$TT" --sysfs-root "$FIX/spr-ddr5-2cxl" simulate --nodes 0-2 --pages 1 --json | json '[p["weight"] for p in j["per_node"]]')" "[25, 3, 3]"

# Shares: expected per cycle and achieved over the pages shown.
out=$(out "$TT" --sysfs-root "$FIX/qemu-3node-hmat" simulate --nodes 0,2 --weights 0:5,2:2 --pages 70 --json)
is "shares over 10 cycles" "$(json '[(p["pages"], round(p["share"],4), round(p["cycle_share"],4)) for p in j["per_node"]]' <<<"$out")" \
	"[(50, 0.7143, 0.7143), (20, 0.2857, 0.2857)]"
is "output is labelled simulated" "$(json 'j["simulated"]' <<<"$out")" True
run "$TT" --sysfs-root "$FIX/qemu-3node-hmat" simulate --nodes 0-2 --weights 0:3,1:1,2:2 --pages 6
grep -q '^pages: 0 0 0 1 2 2$' "$WORK/out" && grep -q '^simulated:' "$WORK/out"
is "human output: pages line and simulated label" $? 0

# A node without memory is dropped, as mpol_set_nodemask does.
root=$(copy_fixture qemu-3node-hmat)
echo "0-1" >"$root/sys/devices/system/node/has_memory"
run "$TT" --sysfs-root "$root" simulate --nodes 0-2 --pages 4 --json
is "memoryless node dropped from the policy" "$(json '" ".join(map(str,j["page_nodes"]))' <"$WORK/out")" "0 1 0 1"
grep -q "node 2 has no memory" "$WORK/err"
is "dropping a memoryless node is said on stderr" $? 0
done_testing
