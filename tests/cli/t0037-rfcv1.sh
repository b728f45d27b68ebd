#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The multi-tier interleaving RFC v1 (seeds 009-011, the rfcv1 interface) on
# its fixture: found by what memory_tierN/interleave_weight holds, its one
# number per tier written through apply's transaction and put back byte for
# byte, auto by tier recommending for it, export. The simulate vectors are
# in t0002, the store rules in unit/test-wi.
. "$(dirname "$0")/lib.sh"

MT=sys/devices/virtual/memory_tiering
weights() { printf '%s,%s' "$(cat "$1/$MT/memory_tier4/interleave_weight")" "$(cat "$1/$MT/memory_tier22/interleave_weight")"; }

run "$TT" --sysfs-root "$FIX/rfcv1-4node" topo --json
is "topo: rfcv1 available with its tier weights, rfc not" \
	"$(json '[(w["name"], w["available"], w.get("tier_weights")) for w in j["weight_interfaces"]]' <"$WORK/out")" \
	"[('upstream', False, None), ('rfc', False, None), ('rfcv1', True, {'4': 85, '22': 15})]"
run "$TT" --sysfs-root "$FIX/rfcv1-4node" topo
grep -q "^  rfcv1     one weight per tier, plain MPOL_INTERLEAVE" "$WORK/out" &&
	grep -q "^            tier weights 4:85,22:15 " "$WORK/out"
is "topo text: rfcv1 and its tier weights" $? 0
run "$TT" --version
is "--version names the interfaces" "$(grep -c '^interfaces: upstream rfc rfcv1$' "$WORK/out")" 1

# apply / restore --last, byte for byte, without --source-node.
root=$(copy_fixture rfcv1-4node)
before=$(tree_sum "$root")
run "$TT" --sysfs-root "$root" apply --tier-weights 4:70,22:30
is "apply --tier-weights 4:70,22:30: exit 0, one number per tier" "$rc:$(weights "$root")" "0:70,30"
run "$TT" --sysfs-root "$root" restore --last
is "restore --last: the tree byte for byte" "$rc:$(tree_sum "$root")" "0:$before"
run "$TT" --sysfs-root "$root" restore --defaults
is "restore --defaults: every tier 1 (set_node_memory_tier's)" "$rc:$(weights "$root")" "0:1,1"
check "restore --last after --defaults" "$TT" --sysfs-root "$root" restore --last
is "and back byte for byte" "$(tree_sum "$root")" "$before"
expect_bad_input 2 "weight '101' for tier 4 out of range (0-100)" "$root" \
	"$TT" --sysfs-root "$root" apply --tier-weights 4:101
expect_bad_input 2 "tier 9 does not exist" "$root" "$TT" --sysfs-root "$root" apply --tier-weights 9:1

# auto --granularity tier on the model of the same layout (Genoa's): tiers
# searched, the recommendation named for rfcv1, --apply then restore.
M="$TT_TOP/model/machines"
A=("$TT" --sysfs-root "$root" auto --source-node 0 --model "$M/2s-genoa-cxl.json" --granularity tier
	--mix reads --threads 200 --seed 3)
run "${A[@]}" --json
is "auto --granularity tier: tiers 4 and 22, for rfcv1" \
	"$rc:$(json "j['granularity'], j['tiers'], j['recommendation']['interface'], j['recommendation']['weights_keyed_by'], j['apply_interface']" <"$WORK/out")" \
	"0:tier [4, 22] rfcv1 tier rfcv1"
reco=$(json "'%s,%s' % (j['recommendation']['weights']['4'], j['recommendation']['weights']['22'])" <"$WORK/out")
trun=$(json "j['run']" <"$WORK/out")
run "${A[@]}" --apply
is "auto --apply writes the recommendation's tier weights" "$rc:$(weights "$root")" "0:$reco"
run "$TT" --sysfs-root "$root" export --run "$trun" --format shell -o "$WORK/v1.sh"
is "export --run --format shell: one echo per tier file" \
	"$rc:$(grep -c '^echo [0-9]* > "$root/sys/devices/virtual/memory_tiering/memory_tier[0-9]*/interleave_weight"$' "$WORK/v1.sh")" "0:2"
check "restore --last after auto --apply" "$TT" --sysfs-root "$root" restore --last
is "the tree byte for byte" "$(tree_sum "$root")" "$before"
run sh "$WORK/v1.sh" "$root"
is "the shell export writes what auto recommended" "$rc:$(weights "$root")" "0:$reco"
run "$TT" --sysfs-root "$root" export --tier-weights 4:60,22:40 --format json
is "export --tier-weights --format json: rfcv1, no source needed" \
	"$rc:$(json "[(r['interface'], r['source_node'], sorted(r['weights'].items())) for r in j['recommendations']]" <"$WORK/out")" \
	"0:[('rfcv1', None, [('22', 40), ('4', 60)])]"


# Memory hot-added to a node of a tier resets the tier's weights to 1 for
# every source (seed 003's memset; 0:7,1:17,2:27 became 0:1,1:1,2:1,3:1 on a
# real kernel): topo says which tier lost what the last apply wrote. The
# kernel's reset is written here by hand (unit/test-wi runs the fixture
# kernel's, tt_fixture_node_online).
root=$(copy_fixture rfc-4node)
run "$TT" --sysfs-root "$root" apply --tier-weights 4:7,22:5 --source-node 0
echo 0:1,1:1,2:1,3:1 >"$root/$MT/memory_tier22/interleave_weight"
run "$TT" --sysfs-root "$root" topo --json
is "topo --json: tier 22 reset since the apply, tier 4 not" \
	"$(json '[w.get("tiers_reset_since_apply") for w in j["weight_interfaces"]]' <"$WORK/out")" "[None, [22], None]"
run "$TT" --sysfs-root "$root" topo
is "topo: the reset said" "$(grep -c '^            reset   tier 22 read 1 where the last apply wrote other' "$WORK/out")" 1
done_testing
