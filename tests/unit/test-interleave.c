// SPDX-License-Identifier: GPL-3.0-or-later
/* core/interleave.c against the kernel's rules: seed 004 tasks A-E as a
 * table, the upstream order, and a brute-force cross-check. */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_seed004_tasks, setup_rfc),
		cmocka_unit_test(test_upstream_order),
		cmocka_unit_test(test_upstream_defaults),
		cmocka_unit_test(test_against_expansion),
		cmocka_unit_test_setup(test_rfc_corners, setup_rfc),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
