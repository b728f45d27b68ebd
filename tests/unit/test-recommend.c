// SPDX-License-Identifier: GPL-3.0-or-later
/* core/recommend.c: per-source recommendations merged for upstream kernels
 * (disjoint merge, agreeing overlap, conflict named) and converted between
 * node and tier weights on a fixture topology. */
#include "test.h"

#include "../../core/error.h"
#include "../../core/recommend.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_merge(void **state)
{
	struct tt_recos rs = { 0 };
	struct tt_weights w;
	(void)state;

	assert_int_equal(tt_recos_add(&rs, 0, "upstream", "0:3,2:1", 0.1, "t"), 0);
	assert_int_equal(tt_recos_add(&rs, 1, "upstream", "1:3,3:1", NAN, "t"), 0);
	assert_int_equal(tt_recos_merged(&rs, tt_wi_find("upstream"), -1, &w), 0);
	assert_int_equal(tt_weights_get(&w, 0, 0), 3);
	assert_int_equal(tt_weights_get(&w, 3, 0), 1);
	/* Only source 1's. */
	assert_int_equal(tt_recos_merged(&rs, tt_wi_find("upstream"), 1, &w), 0);
	assert_false(tt_nodemask_test(&w.set, 0));
	/* Overlap that agrees merges; overlap that disagrees is refused. */
	assert_int_equal(tt_recos_add(&rs, 2, "upstream", "2:1", NAN, "t"), 0);
	assert_int_equal(tt_recos_merged(&rs, tt_wi_find("upstream"), -1, &w), 0);
	assert_int_equal(tt_recos_add(&rs, 3, "upstream", "2:2", NAN, "t"), 0);
	assert_int_equal(tt_recos_merged(&rs, tt_wi_find("upstream"), -1, &w), TT_EINPUT);
	assert_non_null(strstr(tt_err_msg(), "want node 2 at weights 1 and 2"));
	assert_int_equal(tt_recos_merged(&rs, tt_wi_find("upstream"), 7, &w), TT_EINPUT);
	assert_int_equal(tt_recos_add(&rs, 0, "numa", "0:1", NAN, "profile x"), TT_EINPUT);
	assert_non_null(strstr(tt_err_msg(), "profile x: interface 'numa'"));
	assert_int_equal(tt_recos_add(&rs, 0, "upstream", "0:x", NAN, "run 4"), TT_EINPUT);
	assert_non_null(strstr(tt_err_msg(), "run 4"));
}

static void test_convert(void **state)
{
	char root[1024];
	struct tt_sysfs s;
	struct tt_topo t;
	struct tt_recos rs = { 0 };
	(void)state;

	snprintf(root, sizeof(root), "%s/tests/fixtures/sysfs/spr-ddr5-2cxl",
		 getenv("TT_TOP") ? getenv("TT_TOP") : ".");
	assert_int_equal(tt_sysfs_init(&s, root), 0);
	assert_int_equal(tt_topo_load(&t, &s), 0);
	/* Tier 87 holds nodes 1 and 2: 5 splits into ceil(5/2) = 3 each. */
	assert_int_equal(tt_recos_add(&rs, 0, "rfc", "4:20,87:5", NAN, "t"), 0);
	assert_int_equal(tt_recos_convert(&rs, &t, tt_wi_find("upstream")), 0);
	assert_string_equal(rs.r[0].interface, "upstream");
	assert_int_equal(tt_weights_get(&rs.r[0].w, 0, 0), 20);
	assert_int_equal(tt_weights_get(&rs.r[0].w, 1, 0), 3);
	assert_int_equal(tt_weights_get(&rs.r[0].w, 2, 0), 3);
	/* And back: node weights sum per tier. */
	assert_int_equal(tt_recos_convert(&rs, &t, tt_wi_find("rfc")), 0);
	assert_int_equal(tt_weights_get(&rs.r[0].w, 4, 0), 20);
	assert_int_equal(tt_weights_get(&rs.r[0].w, 87, 0), 6);
	/* A tier at 0 is out of the RFC's interleave: its nodes get no
	 * upstream weight (which has no 0), not a weight of 0. */
	assert_int_equal(tt_recos_add(&rs, 0, "rfc", "4:3,87:0", NAN, "t"), 0);
	assert_int_equal(tt_recos_convert(&rs, &t, tt_wi_find("upstream")), 0);
	assert_true(tt_nodemask_test(&rs.r[1].w.set, 0));
	assert_false(tt_nodemask_test(&rs.r[1].w.set, 1) || tt_nodemask_test(&rs.r[1].w.set, 2));
	/* Node weights without a source cannot become the RFC's. */
	struct tt_recos anon = { 0 };
	assert_int_equal(tt_recos_add(&anon, -1, "upstream", "0:1", NAN, "t"), 0);
	assert_int_equal(tt_recos_convert(&anon, &t, tt_wi_find("rfc")), TT_EINPUT);
	/* The earlier RFC's split (seed 011, node_interleave_weight): the
	 * quotient, the remainder one each to the first nodes, so 5 over
	 * tier 87's nodes 1 and 2 is 3 and 2, where the later RFC's is 3 and
	 * 3 (auto --granularity tier measured rfcv1's tiers by that rule). */
	struct tt_recos v1 = { 0 };
	assert_int_equal(tt_recos_add(&v1, -1, "rfcv1", "4:20,87:5", NAN, "t"), 0);
	assert_int_equal(tt_recos_convert(&v1, &t, tt_wi_find("upstream")), 0);
	assert_int_equal(tt_weights_get(&v1.r[0].w, 0, 0), 20);
	assert_int_equal(tt_weights_get(&v1.r[0].w, 1, 0), 3);
	assert_int_equal(tt_weights_get(&v1.r[0].w, 2, 0), 2);
	tt_topo_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_convert),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
