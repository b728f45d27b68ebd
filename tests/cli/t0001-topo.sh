#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tiertune topo on this machine and on every fixture, figures asserted.
. "$(dirname "$0")/lib.sh"

# This machine's real /: node 0, tier 4, the upstream interface and its mode.
run "$TT" topo --json
is "topo on / exits 0" "$rc" 0
# What sysfs says, read first: nodes with memory, and each memory tier's nodes.
want_mem=$(node_list /sys/devices/system/node/has_memory | paste -sd, -)
is "topo on /: the nodes with memory, as sysfs lists them" \
	"$(json '",".join(str(n["id"]) for n in j["nodes"] if n["has_memory"])' <"$WORK/out")" "$want_mem"
want_tiers=$(for d in /sys/devices/virtual/memory_tiering/memory_tier*; do
	[ -e "$d/nodelist" ] && echo "${d##*memory_tier}:$(node_list "$d/nodelist" | paste -sd, -)"
done | sort -n | paste -sd' ' -)
is "topo on /: the memory tiers and their nodes, as sysfs lists them" \
	"$(json '" ".join("%d:%s" % (t["id"], ",".join(map(str, t["nodes"]))) for t in j["tiers"])' <"$WORK/out")" "$want_tiers"
up=$(json '[w for w in j["weight_interfaces"] if w["name"]=="upstream"][0]' <"$WORK/out")
if [ -d /sys/kernel/mm/mempolicy/weighted_interleave ]; then
	is "topo on /: upstream interface available" "$(json '[w["available"] for w in j["weight_interfaces"] if w["name"]=="upstream"][0]' <"$WORK/out")" True
	want=$(cat /sys/kernel/mm/mempolicy/weighted_interleave/node0)
	is "topo on /: node 0 weight as sysfs says" "$(json '[w["weights"]["0"] for w in j["weight_interfaces"] if w["name"]=="upstream"][0]' <"$WORK/out")" "$want"
	for f in auto __auto_type; do
		[ -f /sys/kernel/mm/mempolicy/weighted_interleave/$f ] || continue
		want=$(sed 's/true/True/;s/false/False/' /sys/kernel/mm/mempolicy/weighted_interleave/$f)
		is "topo on /: auto state from $f" "$(json '[(w["auto"], w["auto_file"]) for w in j["weight_interfaces"] if w["name"]=="upstream"][0]' <"$WORK/out")" "($want, '$f')"
	done
else
	skip "this kernel has no weighted_interleave directory"
fi
run "$TT" topo
is "human topo on / exits 0" "$rc" 0
first=${want_tiers%% *}
if [ -n "$first" ]; then
	grep -q "memory_tier${first%%:*} *nodes " "$WORK/out"
	is "human topo on / lists memory_tier${first%%:*}" $? 0
else
	skip "this kernel shows no memory tiers"
fi

topo() { "$TT" --sysfs-root "$FIX/$1" topo --json; }
q() { json "$2" < <(topo "$1"); }

# (a) the one-node VM, mode file __auto_type
is "vm-1node: auto from __auto_type" "$(q vm-1node '[(w["auto"],w["auto_file"]) for w in j["weight_interfaces"] if w["name"]=="upstream"][0]')" "(True, '__auto_type')"
is "vm-1node: cpus of node 0" "$(q vm-1node 'j["nodes"][0]["cpus"]')" "[0, 1]"
is "vm-1node: memory of node 0 in bytes" "$(q vm-1node 'j["nodes"][0]["mem_total_bytes"]')" $((4155128 * 1024))

# (b) DDR5 + two CXL expanders with HMAT, auto mode weights
is "spr-ddr5-2cxl: tiers" "$(q spr-ddr5-2cxl '[(t["id"],t["nodes"]) for t in j["tiers"]]')" "[(4, [0]), (87, [1, 2])]"
is "spr-ddr5-2cxl: CXL node without CPUs" "$(q spr-ddr5-2cxl '(j["nodes"][1]["has_cpu"], j["nodes"][1]["cpus"])')" "(False, [])"
is "spr-ddr5-2cxl: HMAT access1 of node 1" "$(q spr-ddr5-2cxl 'j["nodes"][1]["hmat_access1"]')" \
	"{'read_bw_bytes_s': 36000000000, 'write_bw_bytes_s': 36000000000, 'read_lat_ns': 250, 'write_lat_ns': 250, 'initiators': [0]}"
is "spr-ddr5-2cxl: weights and auto" "$(q spr-ddr5-2cxl '[(w["weights"],w["auto"],w["auto_file"]) for w in j["weight_interfaces"] if w["name"]=="upstream"][0]')" \
	"({'0': 25, '1': 3, '2': 3}, True, 'auto')"
is "spr-ddr5-2cxl: distances from node 0" "$(q spr-ddr5-2cxl 'j["nodes"][0]["distance"]')" "{'0': 10, '1': 14, '2': 14}"
is "spr-ddr5-2cxl: uncore PMUs" "$(q spr-ddr5-2cxl 'len([p for p in j["pmus"] if p["name"].startswith("uncore_imc_")])')" 8

# (c) two sockets, each with a CXL node; 6.12 has no auto file
is "2s-genoa-cxl: four nodes, two with CPUs" "$(q 2s-genoa-cxl '[n["has_cpu"] for n in j["nodes"]]')" "[True, True, False, False]"
is "2s-genoa-cxl: CXL in tier 22" "$(q 2s-genoa-cxl '[(t["id"],t["nodes"]) for t in j["tiers"]]')" "[(4, [0, 1]), (22, [2, 3])]"
is "2s-genoa-cxl: no auto file" "$(q 2s-genoa-cxl '[(w["auto"],w["auto_file"]) for w in j["weight_interfaces"] if w["name"]=="upstream"][0]')" "(None, None)"
is "2s-genoa-cxl: no HMAT" "$(q 2s-genoa-cxl '[n["hmat_access1"] for n in j["nodes"]]')" "[None, None, None, None]"
is "2s-genoa-cxl: cpus of node 1" "$(q 2s-genoa-cxl '(j["nodes"][1]["cpus"][0], j["nodes"][1]["cpus"][-1], len(j["nodes"][1]["cpus"]))')" "(48, 95, 48)"

# (d) HBM flat: HBM nodes in tier 0, faster than DRAM
is "xeon-max-hbm-flat: HBM in tier 0" "$(q xeon-max-hbm-flat '[n["tier"] for n in j["nodes"]]')" "[4, 4, 0, 0]"
is "xeon-max-hbm-flat: manual weights" "$(q xeon-max-hbm-flat '[(w["weights"],w["auto"]) for w in j["weight_interfaces"] if w["name"]=="upstream"][0]')" \
	"({'0': 1, '1': 1, '2': 3, '3': 3}, False)"
run "$TT" --sysfs-root "$FIX/xeon-max-hbm-flat" topo
grep -q 'memory_tier0 *nodes 2-3 *adist 0-127, faster than DRAM$' "$WORK/out"
is "xeon-max-hbm-flat: human output calls tier 0 faster than DRAM" $? 0

# (e) the RFC per-tier interface
is "rfc-4node: upstream unavailable" "$(q rfc-4node '[w["available"] for w in j["weight_interfaces"] if w["name"]=="upstream"][0]')" False
is "rfc-4node: tier weights by source" "$(q rfc-4node '[w["tier_weights_by_source"] for w in j["weight_interfaces"] if w["name"]=="rfc"][0]')" \
	"{'4': {'0': 4, '1': 3, '2': 1, '3': 1}, '22': {'0': 2, '1': 1, '2': 1, '3': 1}}"

# (f) the QEMU guest layout
is "qemu-3node-hmat: node 2 in tier 72" "$(q qemu-3node-hmat 'j["nodes"][2]["tier"]')" 72

# Which initiator each HMAT figure is from, and tiers told apart by distance.
is "qemu-3node-hmat: node 2's figures are from node 0" \
	"$(q qemu-3node-hmat '(j["nodes"][2]["hmat_access1"]["initiators"], j["nodes"][1]["hmat_access1"]["initiators"])')" "([0], [1])"
is "xeon-max-hbm-flat: each HBM node's figures from its socket's node" \
	"$(q xeon-max-hbm-flat '[n["hmat_access1"]["initiators"] for n in j["nodes"]]')" "[[0], [1], [0], [1]]"
is "qemu-3node-hmat: tiers with their abstract distances and class" \
	"$(q qemu-3node-hmat '[(t["id"], t["adist_min"], t["adist_max"], t["class"]) for t in j["tiers"]]')" \
	"[(4, 512, 639, 'DRAM'), (72, 9216, 9343, 'slower than DRAM')]"
run "$TT" --sysfs-root "$FIX/qemu-3node-hmat" topo
grep -q '^ *node 2  5120/5120 MB/s 400/400 ns from node 0$' "$WORK/out"
is "human topo: a tier's nodes with their HMAT figures and initiator" $? 0

# Demotion targets as the kernel computes them (seed 008's examples: each
# socket's DRAM demotes to its own CXL node; HBM to its socket's DRAM).
is "2s-genoa-cxl: demotion per socket" \
	"$(q 2s-genoa-cxl '[(n["id"], n["demotion"]["preferred"], n["demotion"]["allowed"]) for n in j["nodes"]]')" \
	"[(0, [2], [2, 3]), (1, [3], [2, 3]), (2, [], []), (3, [], [])]"
is "xeon-max-hbm-flat: HBM demotes to its socket's DDR" \
	"$(q xeon-max-hbm-flat '[(n["id"], n["demotion"]["preferred"]) for n in j["nodes"]]')" \
	"[(0, []), (1, []), (2, [0]), (3, [1])]"
is "spr-ddr5-2cxl: both CXL nodes at the best distance are preferred" \
	"$(q spr-ddr5-2cxl 'j["nodes"][0]["demotion"]')" "{'preferred': [1, 2], 'allowed': [1, 2]}"

# Page movement beside a placement: demotion and NUMA balancing.
is "vm-1node: demotion off, NUMA balancing off" \
	"$(q vm-1node '(j["demotion_enabled"], j["numa_balancing"], j["numa_balancing_mode"])')" "(False, 0, 'off')"
is "2s-genoa-cxl: no such files, null" "$(q 2s-genoa-cxl '(j["demotion_enabled"], j["numa_balancing"])')" "(None, None)"
root=$(copy_fixture vm-1node)
echo true >"$root/sys/kernel/mm/numa/demotion_enabled"
echo 2 >"$root/proc/sys/kernel/numa_balancing"
run "$TT" --sysfs-root "$root" topo
is "human topo names demotion and memory-tiering balancing" \
	"$(grep -cE '^  demotion +enabled|^  NUMA balancing +memory tiering$' "$WORK/out")" 2
echo maybe >"$root/sys/kernel/mm/numa/demotion_enabled"
expect_bad_input 2 "demotion_enabled' holds 'maybe'" "$root" "$TT" --sysfs-root "$root" topo
echo false >"$root/sys/kernel/mm/numa/demotion_enabled"
echo 7 >"$root/proc/sys/kernel/numa_balancing"
expect_bad_input 2 "numa_balancing" "$root" "$TT" --sysfs-root "$root" topo

# The fingerprint a fleet keys its profiles by (the Ansible role): alone on
# one line, the same in topo --json and in a profile exported on that root
# (the one apply --profile checks).
spr=$FIX/spr-ddr5-2cxl
run "$TT" --sysfs-root "$spr" topo --fingerprint
fp=$(cat "$WORK/out")
run "$TT" --sysfs-root "$spr" export --weights 0:5,1:2,2:1 --format json -o "$WORK/fp.json"
is "topo --fingerprint: one line, as topo --json and the profile hold it" \
	"$fp:$(q spr-ddr5-2cxl 'j["fingerprint"]'):$(json 'j["machine"]["fingerprint"]' <"$WORK/fp.json")" \
	"6bfb0207981d2a78:6bfb0207981d2a78:6bfb0207981d2a78"
run "$TT" --sysfs-root "$FIX/2s-genoa-cxl" topo --fingerprint
is "topo --fingerprint: another machine, another fingerprint" "$rc:$(cat "$WORK/out")" "0:19938ae4a73c234a"
expect_bad_input 2 "topo --fingerprint prints the fingerprint alone" "$spr" "$TT" --sysfs-root "$spr" topo --fingerprint --json

# The command line's --sysfs-root may also follow the command.
run "$TT" topo --sysfs-root "$FIX/rfc-4node" --json
is "topo --sysfs-root after the command" "$(json 'j["kernel_release"]' <"$WORK/out")" "6.6.0-rc4-memtier-rfc2"
done_testing
