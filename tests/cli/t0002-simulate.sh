#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tiertune simulate: seed 004 tasks A-E, auto-mode weights, upstream order.
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
	"$("$TT" --sysfs-root "$FIX/spr-ddr5-2cxl" simulate --nodes 0-2 --pages 1 --json | json '[p["weight"] for p in j["per_node"]]')" "[25, 3, 3]"

# Shares: expected per cycle and achieved over the pages shown.
out=$("$TT" --sysfs-root "$FIX/qemu-3node-hmat" simulate --nodes 0,2 --weights 0:5,2:2 --pages 70 --json)
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
