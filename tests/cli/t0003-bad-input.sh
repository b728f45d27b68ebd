#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Bad input: exit 2 (3 where unavailable), stderr names the input, stdout
# empty, the fixture tree unchanged.
. "$(dirname "$0")/lib.sh"

root=$(copy_fixture qemu-3node-hmat)
S=("$TT" --sysfs-root "$root" simulate)
expect_bad_input 2 "weights '0:3,1' are malformed" "$root" "${S[@]}" --nodes 0-2 --weights 0:3,1 --pages 3
expect_bad_input 2 "weights 'x' are malformed" "$root" "${S[@]}" --nodes 0-2 --weights x --pages 3
expect_bad_input 2 "node 1 appears twice" "$root" "${S[@]}" --nodes 0-2 --weights 1:2,1:3 --pages 3
expect_bad_input 2 "weight '300' for node 1 out of range (1-255)" "$root" "${S[@]}" --nodes 0-2 --weights 0:1,1:300 --pages 3
expect_bad_input 2 "weight '0' for node 0 out of range (1-255)" "$root" "${S[@]}" --nodes 0-2 --weights 0:0 --pages 3
expect_bad_input 2 "node 7 is not online" "$root" "${S[@]}" --nodes 0,7 --pages 3
expect_bad_input 2 "give node 2, which is not in --nodes" "$root" "${S[@]}" --nodes 0-1 --weights 2:4 --pages 3
expect_bad_input 2 "--nodes '0-x'" "$root" "${S[@]}" --nodes 0-x --pages 3
expect_bad_input 2 "'--pages' value '0'" "$root" "${S[@]}" --nodes 0 --pages 0
expect_bad_input 2 "'--pages' value '-5'" "$root" "${S[@]}" --nodes 0 --pages -5
expect_bad_input 2 "--mode 'diagonal'" "$root" "${S[@]}" --nodes 0 --pages 1 --mode diagonal
expect_bad_input 2 "--interface 'magic'" "$root" "${S[@]}" --nodes 0 --pages 1 --interface magic
expect_bad_input 2 "unknown command 'frobnicate'" "$root" "$TT" --sysfs-root "$root" frobnicate
expect_bad_input 2 "--bogus" "$root" "$TT" --sysfs-root "$root" topo --bogus
expect_bad_input 2 "give --source-node" "$root" "${S[@]}" --nodes 0 --pages 1 --interface rfc
rfc=$(copy_fixture rfc-4node)
expect_bad_input 2 "weight '101' for tier 4 out of range (0-100)" "$rfc" "$TT" --sysfs-root "$rfc" simulate --source-node 0 --nodes 0,2 --tier-weights 4:101 --pages 1
expect_bad_input 2 "tier 9 in --tier-weights" "$rfc" "$TT" --sysfs-root "$rfc" simulate --source-node 0 --nodes 0,2 --tier-weights 9:1 --pages 1
expect_bad_input 3 "weighted_interleave" "$rfc" "$TT" --sysfs-root "$rfc" simulate --interface upstream --nodes 0,2 --pages 1
expect_bad_input 3 "weights 'auto' need HMAT" "$rfc" "$TT" --sysfs-root "$rfc" simulate --interface upstream --nodes 0,2 --weights auto --pages 1

# A missing root, and a root that is a file.
expect_bad_input 2 "sysfs root '$WORK/nope'" - "$TT" --sysfs-root "$WORK/nope" topo
expect_bad_input 2 "is not a directory" "$root" "$TT" --sysfs-root "$root/sys/devices/system/node/online" topo
mkdir "$WORK/empty"
expect_bad_input 3 "cannot read" "$WORK/empty" "$TT" --sysfs-root "$WORK/empty" topo

# Garbled sysfs files name the file and the text.
garble() { # fixture file content expected-text
	local g
	g=$(copy_fixture "$1")
	printf '%s\n' "$3" >"$g/$2"
	expect_bad_input 2 "$4" "$g" "$TT" --sysfs-root "$g" topo
}
garble qemu-3node-hmat sys/devices/system/node/online x "list 'x' in"
garble qemu-3node-hmat sys/devices/system/node/node1/cpulist 2-1 "list '2-1' in"
garble qemu-3node-hmat sys/devices/system/node/node0/distance "10 21" "has 2 distances for 3"
garble qemu-3node-hmat sys/devices/system/node/node0/distance "10 abc 24" "malformed distance 'abc'"
garble qemu-3node-hmat sys/kernel/mm/mempolicy/weighted_interleave/node1 300 "value '300' in"
garble qemu-3node-hmat sys/kernel/mm/mempolicy/weighted_interleave/node1 "" "value '' in"
garble qemu-3node-hmat sys/devices/system/node/node2/access1/initiators/read_bandwidth fast "value 'fast' in"
garble vm-1node sys/kernel/mm/mempolicy/weighted_interleave/__auto_type maybe "mode 'maybe'"
garble rfc-4node sys/devices/virtual/memory_tiering/memory_tier4/interleave_weight "0:4,1" "interleave_weight '0:4,1'"
garble vm-1node sys/devices/system/node/node0/meminfo "Node 0 MemTotal: lots kB" "meminfo"
done_testing
