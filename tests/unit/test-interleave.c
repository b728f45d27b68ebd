// SPDX-License-Identifier: GPL-3.0-or-later
/* core/interleave.c against the kernel's rules: seed 004 tasks A-E as a
 * table, seed 011's vectors worked out by hand from its code, the index
 * width of each walk, the upstream order, and a brute-force cross-check. */
#include "test.h"

#include "../../core/error.h"
#include "../../core/interleave.h"

#include <stdlib.h>
#include <string.h>

static struct tt_il_order order;

/* The RFC fixture's shape: nodes 0,1 in tier 4, nodes 2,3 in tier 22. */
static struct tt_node rfc_nodes[4] = {
	{ .id = 0, .has_cpu = true, .has_memory = true, .tier = 4 },
	{ .id = 1, .has_cpu = true, .has_memory = true, .tier = 4 },
	{ .id = 2, .has_memory = true, .tier = 22 },
	{ .id = 3, .has_memory = true, .tier = 22 },
};
static struct tt_tier rfc_tiers[2] = { { .id = 4 }, { .id = 22 } };
static struct tt_topo rfc_topo = {
	.nnodes = 4, .nodes = rfc_nodes, .ntiers = 2, .tiers = rfc_tiers
};

static void mask_of(struct tt_nodemask *m, const char *list)
{
	memset(m, 0, sizeof(*m));
	for (const char *p = list; *p; p++)
		if (*p >= '0' && *p <= '9')
			tt_bit_set(m->bits, (unsigned int)(*p - '0'));
}

static int setup_rfc(void **state)
{
	(void)state;
	tt_bit_set(rfc_tiers[0].nodes.bits, 0);
	tt_bit_set(rfc_tiers[0].nodes.bits, 1);
	tt_bit_set(rfc_tiers[1].nodes.bits, 2);
	tt_bit_set(rfc_tiers[1].nodes.bits, 3);
	return 0;
}

static void test_seed004_tasks(void **state)
{
	/* Seed 004: tier4 weight 4 from node 0, 3 from node 1; tier22 weight 2
	 * from node 0, 1 from node 1. */
	static const uint32_t from[2][2] = { { 4, 2 }, { 3, 1 } };
	static const struct {
		const char *name;
		int src;
		const char *nodes;
		const char *want; /* one cycle */
	} v[] = {
		{ "A", 0, "0,1", "0011" }, { "B", 0, "0,2", "000022" },
		{ "C", 1, "1,3", "1113" }, { "D", 0, "0,1,2", "001122" },
		{ "E", 1, "0,1", "0011" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct tt_nodemask m;
		struct tt_il_task ts;
		size_t len = strlen(v[i].want);

		mask_of(&m, v[i].nodes);
		assert_int_equal(tt_il_order_tiers(&order, &m, &rfc_topo, from[v[i].src]), 0);
		assert_int_equal(order.total, len);
		tt_il_task_init(&ts);
		/* Two cycles, both walks. */
		for (size_t p = 0; p < 2 * len; p++) {
			int want = v[i].want[p % len] - '0';

			assert_int_equal(tt_il_vma_node(&order, p), want);
			assert_int_equal(tt_il_task_next(&order, &ts), want);
		}
	}
}

static void test_upstream_order(void **state)
{
	struct tt_weights w;
	struct tt_nodemask m;
	const int want[] = { 0, 0, 0, 1, 2, 2 };
	/* A buffer at 0x7f0000003000 starts at interleave index 0x7f0000003
	 * = 34091302915, which is 1 mod 6: its first page is the second slot. */
	const uint64_t base = 0x7f0000003000ULL >> TT_PAGE_SHIFT;

	(void)state;
	mask_of(&m, "0,1,2");
	assert_int_equal(tt_weights_parse("0:3,1:1,2:2", &w), 0);
	assert_int_equal(tt_il_order_nodes(&order, &m, &w), 0);
	for (int p = 0; p < 12; p++)
		assert_int_equal(tt_il_vma_node(&order, (uint64_t)p), want[p % 6]);
	assert_int_equal(base % 6, 1);
	for (int p = 0; p < 12; p++)
		assert_int_equal(tt_il_vma_node(&order, base + (uint64_t)p), want[(p + 1) % 6]);
	/* {0:2, 1:1}: 0 0 1 0 0 1 (ABI doc); {0:3, 2:1}: 0 0 0 2. */
	mask_of(&m, "0,1");
	assert_int_equal(tt_weights_parse("0:2,1:1", &w), 0);
	tt_il_order_nodes(&order, &m, &w);
	for (int p = 0; p < 6; p++)
		assert_int_equal(tt_il_vma_node(&order, (uint64_t)p), "001001"[p] - '0');
	mask_of(&m, "0,2");
	assert_int_equal(tt_weights_parse("0:3,2:1", &w), 0);
	tt_il_order_nodes(&order, &m, &w);
	for (int p = 0; p < 4; p++)
		assert_int_equal(tt_il_vma_node(&order, (uint64_t)p), "0002"[p] - '0');
}

static void test_upstream_defaults(void **state)
{
	struct tt_weights w;
	struct tt_nodemask m;

	(void)state;
	/* No weight (and 0, the 6.9-6.15 "default") count as 1. */
	mask_of(&m, "0,1,2");
	assert_int_equal(tt_weights_parse("1:0", &w), 0);
	assert_int_equal(tt_il_order_nodes(&order, &m, &w), 0);
	assert_int_equal(order.total, 3);
	memset(&m, 0, sizeof(m));
	assert_int_equal(tt_il_order_nodes(&order, &m, &w), TT_EINPUT);
}

/* The obvious reference: write out one cycle slot by slot. */
static void test_against_expansion(void **state)
{
	(void)state;
	srand(42);
	for (int iter = 0; iter < 500; iter++) {
		struct tt_weights w;
		struct tt_nodemask m = { 0 };
		int nodes[8], n = 0, cycle[8 * 255], len = 0;
		uint64_t counts[8];

		tt_weights_clear(&w);
		for (int node = 0; node < 8; node++)
			if (rand() % 2 || (node == 7 && n == 0)) {
				tt_bit_set(m.bits, (unsigned int)node);
				tt_weights_put(&w, node, 1 + (uint32_t)(rand() % 255));
				nodes[n++] = node;
			}
		for (int i = 0; i < n; i++)
			for (uint32_t k = 0; k < w.w[nodes[i]]; k++)
				cycle[len++] = nodes[i];
		assert_int_equal(tt_il_order_nodes(&order, &m, &w), 0);
		assert_int_equal(order.total, len);
		uint64_t start = ((uint64_t)rand() << 20) ^ (uint64_t)rand();
		struct tt_il_task ts;

		tt_il_task_init(&ts);
		for (int p = 0; p < 3 * len; p++) {
			assert_int_equal(tt_il_vma_node(&order, start + (uint64_t)p),
					 cycle[(start + (uint64_t)p) % (uint64_t)len]);
			assert_int_equal(tt_il_task_next(&order, &ts), cycle[p % len]);
		}
		assert_int_equal(tt_il_cycle_counts(&order, counts), 0);
		for (int i = 0; i < n; i++)
			assert_int_equal(counts[i], w.w[nodes[i]]);
	}
}

static void test_rfc_corners(void **state)
{
	struct tt_nodemask m;
	uint64_t counts[4];
	const uint32_t zero[2] = { 0, 0 }, half[2] = { 0, 1 };

	(void)state;
	/* All weights 0: the RFC kernel's offset_il_node would spin; the model
	 * says so instead of looping. Slot 0 still resolves. */
	mask_of(&m, "0,2");
	assert_int_equal(tt_il_order_tiers(&order, &m, &rfc_topo, zero), 0);
	assert_int_equal(order.total, 2);
	assert_int_equal(tt_il_vma_node(&order, 0), 0);
	assert_int_equal(tt_il_vma_node(&order, 1), TT_EFAIL);
	assert_non_null(strstr(tt_err_msg(), "would not end"));
	/* Tier 4 weighs 0, tier 22 weighs 1: total clamps to 2 nodes; slot 0 is
	 * node 0 (the walk does not start), slot 1 walks past 0 onto node 2. */
	assert_int_equal(tt_il_order_tiers(&order, &m, &rfc_topo, half), 0);
	assert_int_equal(tt_il_vma_node(&order, 0), 0);
	assert_int_equal(tt_il_vma_node(&order, 1), 0);
	assert_int_equal(tt_il_cycle_counts(&order, counts), 0);
	assert_true(counts[0] == 2 && counts[1] == 0);
}

/* Seed 011 (the v1 RFC), by hand from node_interleave_weight() and
 * offset_il_node() on the RFC fixture's tiers (4: nodes 0,1; 22: nodes
 * 2,3). node_interleave_weight: avrg = tier weight / nodes of the tier in
 * the policy; 0 gives 1; the first (weight % nodes) nodes by id get one
 * more. offset_il_node: vnnodes = sum of the node weights; slot
 * (unsigned)n % vnnodes; nodes own their weight's slots in id order.
 * interleave_nodes: each node its weight's allocations in a row, from the
 * first. */
static void test_rfcv1_vectors(void **state)
{
	static const struct {
		const char *name;
		uint32_t tw[2]; /* tier 4, tier 22 */
		const char *nodes;
		const char *weights; /* node weights, in mask order */
		const char *want;    /* one cycle, both walks */
	} v[] = {
		/* 5 over {0,1}: 2 r1 -> 3,2; 3 over {2,3}: 1 r1 -> 2,1; 8 slots. */
		{ "remainder to the first nodes", { 5, 3 }, "0,1,2,3", "3221", "00011223" },
		/* A tier weight below its node count: avrg 0 -> 1 each. */
		{ "below the node count", { 1, 1 }, "0,1,2,3", "1111", "0123" },
		/* Weight 0 is stored and read as at least 1. */
		{ "weight 0", { 0, 0 }, "0,2", "11", "02" },
		/* The policy's nodes only: node 1 is not in it, so node 0 takes
		 * tier 4's whole 4, node 2 takes half of tier 22's 3 plus the
		 * remainder: 2; node 3 the other 1. */
		{ "split over the policy's nodes", { 4, 3 }, "0,2,3", "421", "0000223" },
		/* The cover letter's 85/15 over 0-3: 43,42,8,7. */
		{ "the cover letter's 85:15", { 85, 15 }, "0,1,2,3", "", "" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct tt_nodemask m;
		struct tt_il_task ts;
		size_t len = strlen(v[i].want);

		mask_of(&m, v[i].nodes);
		assert_int_equal(tt_il_order_tier_split(&order, &m, &rfc_topo, v[i].tw), 0);
		if (!len) {
			assert_true(order.weight[0] == 43 && order.weight[1] == 42 &&
				    order.weight[2] == 8 && order.weight[3] == 7);
			assert_int_equal(order.total, 100);
			assert_int_equal(tt_il_vma_node(&order, 42), 0);
			assert_int_equal(tt_il_vma_node(&order, 43), 1);
			assert_int_equal(tt_il_vma_node(&order, 85), 2);
			assert_int_equal(tt_il_vma_node(&order, 93), 3);
			continue;
		}
		for (int k = 0; k < order.n; k++)
			assert_int_equal(order.weight[k], (uint32_t)(v[i].weights[k] - '0'));
		assert_int_equal(order.total, len);
		tt_il_task_init(&ts);
		for (size_t p = 0; p < 2 * len; p++) {
			int want = v[i].want[p % len] - '0';

			assert_int_equal(tt_il_vma_node(&order, p), want);
			assert_int_equal(tt_il_task_next(&order, &ts), want);
		}
	}
}

/* A policy node in no tier: node_interleave_weight() is 0, so it owns no
 * slot in vnnodes, but offset_il_node() counts slot owners (target) and
 * then steps that many nodes over the whole mask: with nodes 0 (tier 4,
 * weight 2), 1 (no tier) and 2 (tier 22, weight 1), slots 0,1 find node 0
 * (target 0) and slot 2 finds node 2 as the second owner (target 1), which
 * next_node() from node 0 makes node 1. Node 2 gets nothing. The task walk
 * gives the tierless node one page a turn (node_weight 0 skips the count). */
static void test_rfcv1_tierless_node(void **state)
{
	static struct tt_node nodes[3] = {
		{ .id = 0, .has_cpu = true, .has_memory = true, .tier = 4 },
		{ .id = 1, .has_memory = true, .tier = -1 },
		{ .id = 2, .has_memory = true, .tier = 22 },
	};
	static struct tt_tier tiers[2] = { { .id = 4 }, { .id = 22 } };
	struct tt_topo t = { .nnodes = 3, .nodes = nodes, .ntiers = 2, .tiers = tiers };
	const uint32_t tw[2] = { 2, 1 };
	struct tt_nodemask m;
	struct tt_il_task ts;
	uint64_t counts[3];

	(void)state;
	tt_bit_set(tiers[0].nodes.bits, 0);
	tt_bit_set(tiers[1].nodes.bits, 2);
	mask_of(&m, "0,1,2");
	assert_int_equal(tt_il_order_tier_split(&order, &m, &t, tw), 0);
	assert_int_equal(order.total, 3);
	tt_il_task_init(&ts);
	for (int p = 0; p < 8; p++) {
		assert_int_equal(tt_il_vma_node(&order, (uint64_t)p), "001"[p % 3] - '0');
		assert_int_equal(tt_il_task_next(&order, &ts), "0012"[p % 4] - '0');
	}
	assert_int_equal(tt_il_cycle_counts(&order, counts), 0);
	assert_true(counts[0] == 2 && counts[1] == 1 && counts[2] == 0);
	/* No node of the policy in a tier: the kernel falls to the local node. */
	mask_of(&m, "1");
	assert_int_equal(tt_il_order_tier_split(&order, &m, &t, tw), TT_EINPUT);
}

/* The index's width: both RFCs take (unsigned int)n (seed 004 "target =
 * (unsigned int)n % il_weight", seed 011 "(unsigned int)n % vnnodes"),
 * upstream's weighted_interleave_nid() all 64 bits. A page at 0x7f3a5c000000
 * has index 0x7f3a5c000 (35 bits): 34152497152 % 6 = 4, but 0xf3a5c000 % 6
 * = 0; % 100, 52 against 80. */
static void test_index_width(void **state)
{
	static const uint32_t from0[2] = { 4, 2 }, v1[2] = { 85, 15 };
	const uint64_t ilx = 0x7f3a5c000000ULL >> TT_PAGE_SHIFT;
	struct tt_weights w;
	struct tt_nodemask m;

	(void)state;
	/* Seed 004 task D (source 0, nodes 0-2): 0 0 1 1 2 2 from slot 0. */
	mask_of(&m, "0,1,2");
	assert_int_equal(tt_il_order_tiers(&order, &m, &rfc_topo, from0), 0);
	for (int p = 0; p < 6; p++)
		assert_int_equal(tt_il_vma_node(&order, ilx + (uint64_t)p), "001122"[p] - '0');
	/* The same order upstream starts at slot 4. */
	assert_int_equal(tt_weights_parse("0:2,1:2,2:2", &w), 0);
	assert_int_equal(tt_il_order_nodes(&order, &m, &w), 0);
	for (int p = 0; p < 6; p++)
		assert_int_equal(tt_il_vma_node(&order, ilx + (uint64_t)p), "220011"[p] - '0');
	/* rfcv1 85:15 over 0-3: slot 80 is node 1's (43-84), then node 2's. */
	mask_of(&m, "0,1,2,3");
	assert_int_equal(tt_il_order_tier_split(&order, &m, &rfc_topo, v1), 0);
	for (int p = 0; p < 8; p++)
		assert_int_equal(tt_il_vma_node(&order, ilx + (uint64_t)p), "11111222"[p] - '0');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_seed004_tasks, setup_rfc),
		cmocka_unit_test(test_upstream_order),
		cmocka_unit_test(test_upstream_defaults),
		cmocka_unit_test(test_against_expansion),
		cmocka_unit_test_setup(test_rfc_corners, setup_rfc),
		cmocka_unit_test_setup(test_rfcv1_vectors, setup_rfc),
		cmocka_unit_test(test_rfcv1_tierless_node),
		cmocka_unit_test_setup(test_index_width, setup_rfc),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
