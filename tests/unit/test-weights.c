// SPDX-License-Identifier: GPL-3.0-or-later
/* core/weights.c: parse/format/range, GCD, quantize, auto mode, RFC split. */
#include "test.h"

#include "../../core/error.h"
#include "../../core/weights.h"

#include <string.h>

static struct tt_weights ws;

static const char *fmt(const struct tt_weights *w)
{
	static char buf[256];

	assert_true(tt_weights_format(w, buf, sizeof(buf)) >= 0);
	return buf;
}

static void test_parse_format(void **state)
{
	static const struct {
		const char *in;
		int rc;
		const char *out_or_msg;
	} v[] = {
		{ "0:5,2:2", 0, "0:5,2:2" },
		{ "2:2,0:5", 0, "0:5,2:2" },
		{ "1023:1", 0, "1023:1" },
		{ "0:4294967295", 0, "0:4294967295" },
		{ "0:4294967296", TT_EINPUT, "too large" },
		{ "1024:1", TT_EINPUT, "node '1024'" },
		{ "", TT_EINPUT, "empty" },
		{ "0:1,", TT_EINPUT, "malformed" },
		{ "0:1,0:2", TT_EINPUT, "appears twice" },
		{ "0=1", TT_EINPUT, "malformed" },
		{ "0:-1", TT_EINPUT, "malformed" },
		{ ":1", TT_EINPUT, "malformed" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		int rc = tt_weights_parse(v[i].in, &ws);

		assert_int_equal(rc, v[i].rc);
		if (rc == 0)
			assert_string_equal(fmt(&ws), v[i].out_or_msg);
		else
			assert_non_null(strstr(tt_err_msg(), v[i].out_or_msg));
	}
}

static void test_range(void **state)
{
	(void)state;
	assert_int_equal(tt_weights_parse("0:1,1:300", &ws), 0);
	assert_int_equal(tt_weights_check_range(&ws, 1, 255), TT_EINPUT);
	assert_string_equal(tt_err_msg(), "weight '300' for node 1 out of range (1-255)");
	assert_int_equal(tt_weights_parse("0:0", &ws), 0);
	assert_int_equal(tt_weights_check_range(&ws, 1, 255), TT_EINPUT);
	assert_int_equal(tt_weights_check_range(&ws, 0, 100), 0);
}

static void test_reduce(void **state)
{
	(void)state;
	assert_int_equal(tt_weights_parse("0:16,1:32,3:8", &ws), 0);
	assert_int_equal(tt_weights_reduce(&ws), 8);
	assert_string_equal(fmt(&ws), "0:2,1:4,3:1");
	assert_int_equal(tt_weights_parse("0:3,1:5", &ws), 0);
	assert_int_equal(tt_weights_reduce(&ws), 1);
	assert_string_equal(fmt(&ws), "0:3,1:5");
}

static void test_auto(void **state)
{
	static const struct {
		int n;
		uint32_t bw[4];
		const char *want;
	} v[] = {
		{ 2, { 300, 64 }, "0:26,1:5" }, /* DRAM + CXL, the ABI example */
		{ 3, { 20480, 20480, 5120 }, "0:14,1:14,2:3" },
		{ 3, { 100000, 100000, 30000 }, "0:13,1:13,2:4" },
		{ 2, { 300, 100 }, "0:3,1:1" },		/* 24:8 reduced by 8 */
		{ 2, { 200, 22 }, "0:28,1:3" },		/* Price's STREAM pair */
		{ 3, { 1000, 10, 0 }, "0:31,1:1,2:1" }, /* share <= 1/32 and no data give 1 */
		{ 2, { 0, 0 }, "0:1,1:1" },
		{ 3, { 307200, 36000, 36000 }, "0:25,1:3,2:3" },
	};
	int nodes[] = { 0, 1, 2, 3 };

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		tt_weights_auto(nodes, v[i].bw, v[i].n, &ws);
		assert_string_equal(fmt(&ws), v[i].want);
	}
}

static void test_quantize(void **state)
{
	int nodes[] = { 0, 1, 2 };
	double s1[] = { 0.85, 0.15 };
	double s2[] = { 2, 1 };
	double s3[] = { 0.5, 0.25, 0.25 };
	double s4[] = { 0.999, 0.001 };
	double bad[] = { -1, 1 };

	(void)state;
	/* 85:15 within 32: 17:3 is exact. */
	assert_int_equal(tt_weights_quantize(nodes, s1, 2, 32, &ws), 0);
	assert_string_equal(fmt(&ws), "0:17,1:3");
	/* A cap of 8 cannot be exact; 6:1 (0.857) is the closest ratio with weights <= 8. */
	assert_int_equal(tt_weights_quantize(nodes, s1, 2, 8, &ws), 0);
	assert_string_equal(fmt(&ws), "0:6,1:1");
	assert_int_equal(tt_weights_quantize(nodes, s2, 2, 32, &ws), 0);
	assert_string_equal(fmt(&ws), "0:2,1:1");
	assert_int_equal(tt_weights_quantize(nodes, s3, 3, 32, &ws), 0);
	assert_string_equal(fmt(&ws), "0:2,1:1,2:1");
	/* Every node keeps at least weight 1. */
	assert_int_equal(tt_weights_quantize(nodes, s4, 2, 255, &ws), 0);
	assert_string_equal(fmt(&ws), "0:255,1:1");
	assert_int_equal(tt_weights_quantize(nodes, bad, 2, 32, &ws), TT_EINPUT);
}

static void test_rfc_split(void **state)
{
	(void)state;
	assert_int_equal(tt_rfc_split(4, 2), 2);
	assert_int_equal(tt_rfc_split(3, 2), 2); /* seed 004 task E: aligned up */
	assert_int_equal(tt_rfc_split(85, 1), 85);
	assert_int_equal(tt_rfc_split(85, 4), 22);
	assert_int_equal(tt_rfc_split(0, 2), 0);
	assert_int_equal(tt_rfc_split(1, 3), 1);
}

/* Seed 011 node_interleave_weight: quotient, the remainder one each to the
 * first nodes, at least 1 (checked before the remainder). */
static void test_rfcv1_split(void **state)
{
	static const struct {
		uint32_t tw;
		unsigned int n, pos, want;
	} v[] = {
		{ 85, 2, 0, 43 }, { 85, 2, 1, 42 }, { 15, 2, 0, 8 }, { 15, 2, 1, 7 },
		{ 5, 3, 0, 2 },	  { 5, 3, 1, 2 },   { 5, 3, 2, 1 },  { 1, 3, 0, 1 },
		{ 1, 3, 2, 1 },	  { 0, 1, 0, 1 },   { 2, 3, 0, 1 },  { 100, 1, 0, 100 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		assert_int_equal(tt_rfcv1_split(v[i].tw, v[i].n, v[i].pos), v[i].want);
}

/* Tier ids are abstract distance / 128: tier 1350 (a 1 GiB/s-class CXL
 * node on a real kernel) is past any node id, and is kept, walked, parsed
 * and formatted like the others, never written into w[]. */
static void test_big_ids(void **state)
{
	struct tt_weights bw;
	int id, n = 0, ids[4];

	(void)state;
	assert_int_equal(tt_weights_parse_ids("4:3,1350:2,22:1", TT_MAX_TIER_ID, &bw), 0);
	assert_int_equal(tt_weights_count(&bw), 3);
	assert_int_equal(tt_weights_get(&bw, 1350, 9), 2);
	assert_int_equal(tt_weights_get(&bw, 1351, 9), 9);
	assert_false(tt_weights_has(&bw, 326)); /* 1350 mod 1024 */
	tt_weights_for_each(id, &bw) ids[n++] = id;
	assert_true(n == 3 && ids[0] == 4 && ids[1] == 22 && ids[2] == 1350);
	assert_string_equal(fmt(&bw), "4:3,22:1,1350:2");
	assert_int_equal(tt_weights_put(&bw, TT_MAX_TIER_ID, 7), 0);
	assert_int_equal(tt_weights_put(&bw, TT_MAX_TIER_ID + 1, 7), TT_EINPUT);
	assert_int_equal(tt_weights_reduce(&bw), 1);
	/* Node weights keep their range. */
	assert_int_equal(tt_weights_parse("1350:2", &bw), TT_EINPUT);
	assert_non_null(strstr(tt_err_msg(), "out of range (0-1023)"));
	assert_int_equal(tt_weights_parse_ids("4:3,4:2", TT_MAX_TIER_ID, &bw), TT_EINPUT);
	assert_int_equal(tt_weights_parse_ids("1350:3,1350:2", TT_MAX_TIER_ID, &bw), TT_EINPUT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_format), cmocka_unit_test(test_range),
		cmocka_unit_test(test_reduce),	     cmocka_unit_test(test_auto),
		cmocka_unit_test(test_quantize),     cmocka_unit_test(test_rfc_split),
		cmocka_unit_test(test_rfcv1_split),  cmocka_unit_test(test_big_ids),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
