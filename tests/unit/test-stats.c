// SPDX-License-Identifier: GPL-3.0-or-later
/* measure/stats.c: Student's t quantile, the interval on a mean, the
 * median; and the figures a search trial is recorded by (measure/trial.c). */
#include "test.h"

#include "../../db/db.h"
#include "../../measure/stats.h"
#include "../../measure/trial.h"
#include "../../view/interval.h"

#include <math.h>

static void test_intervals(void **state)
{
	static const double x[] = { 1, 2, 3 };
	double mean, half;

	(void)state;
	tt_mean_ci(x, 3, &mean, &half);
	assert_true(mean == 2 && fabs(half - 4.3026527297494639 / sqrt(3)) < 1e-12);
	tt_mean_ci(x, 1, &mean, &half);
	assert_true(mean == 1 && isinf(half));
}

/* The two-sided 95% quantile against a printed table (3 decimals: NIST/
 * SEMATECH e-Handbook 1.3.6.7.2, and any statistics text) and against
 * mpmath's inverse of the regularized incomplete beta at 40 digits (17
 * digits kept). The old table gave 2.000 for 31..60 and 1.980 for 61..120:
 * 31, 40, 59, 100 and 121 below fail on it. */
static void test_t975(void **state)
{
	static const struct {
		int dof;
		double printed, exact; /* exact 0: only printed */
	} v[] = {
		{ 1, 12.706, 12.706204736174705 },
		{ 2, 4.303, 4.3026527297494639 },
		{ 3, 3.182, 3.1824463052837096 },
		{ 5, 2.571, 0 },
		{ 7, 2.365, 2.3646242515927853 },
		{ 10, 2.228, 0 },
		{ 20, 2.086, 0 },
		{ 30, 2.042, 2.0422724563012383 },
		{ 31, 2.040, 2.0395134463964085 },
		{ 40, 2.021, 0 },
		{ 59, 2.001, 2.0009953780882677 },
		{ 60, 2.000, 0 },
		{ 61, 2.000, 1.9996235849949397 },
		{ 100, 1.984, 0 },
		{ 121, 1.980, 1.9797637625053871 },
		{ 500, 1.965, 1.9647198374673678 },
		{ 501, 1.965, 1.9647103221754832 },
		{ 1000, 1.962, 1.9623390808264085 },
	};
	double prev = INFINITY;

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		double t = tt_t975(v[i].dof);

		if (fabs(t - v[i].printed) > 0.0005)
			fail_msg("t(0.975; %d) = %.6f, printed %.3f", v[i].dof, t, v[i].printed);
		if (v[i].exact && fabs(t - v[i].exact) > 1e-12 * v[i].exact)
			fail_msg("t(0.975; %d) = %.17g, want %.17g", v[i].dof, t, v[i].exact);
	}
	/* Falling with every degree of freedom towards z = 1.96, across the
	 * change of method at 500 too. */
	for (int dof = 1; dof <= 5000; dof++) {
		double t = tt_t975(dof);

		if (!(t < prev && t > 1.959963984540054))
			fail_msg("t(0.975; %d) = %.17g after %.17g", dof, t, prev);
		prev = t;
	}
	assert_true(fabs(tt_t975(1000000) - 1.959963984540054) < 1e-5);
	assert_true(isinf(tt_t975(0)));
}

/* A bandwidth of 3 +- 6.2 GB/s from two measurements has no lower bound
 * above zero: none is given, rather than -3.2 GB/s. */
static void test_ci_positive(void **state)
{
	double lo = 189.3e9, hi = 199.6e9;

	(void)state;
	assert_true(tt_ci_positive(&lo, &hi) && lo == 189.3e9 && hi == 199.6e9);
	lo = -3.2e9, hi = 9.2e9;
	assert_false(tt_ci_positive(&lo, &hi));
	assert_true(isnan(lo) && isnan(hi));
	lo = 0, hi = 1;
	assert_false(tt_ci_positive(&lo, &hi));
	lo = 1, hi = INFINITY;
	assert_false(tt_ci_positive(&lo, &hi));
}

/* +532.4% dependent loads per second is 84.2% less latency; the
 * interval's ends swap; a -100% end leaves the other unbounded. */
static void test_inverse_change(void **state)
{
	double c, lo, hi;

	(void)state;
	tt_inverse_change(5.324, 5.041, 5.606, &c, &lo, &hi);
	assert_true(fabs(c - (1 / 6.324 - 1)) < 1e-15 && fabs(100 * c + 84.19) < 0.01);
	assert_true(fabs(lo - (1 / 6.606 - 1)) < 1e-15 && fabs(hi - (1 / 6.041 - 1)) < 1e-15);
	tt_inverse_change(0.25, -1, 0.5, &c, &lo, &hi);
	assert_true(fabs(c + 0.2) < 1e-15 && fabs(lo - (1 / 1.5 - 1)) < 1e-15 && isnan(hi));
}

/* The median leaves its input as it was, and counts every value: the
 * record's copy of it sorted the first 128 alone. */
static void test_median(void **state)
{
	double odd[] = { 3, 1, 2 }, even[] = { 4, 1, 3, 2 }, many[130];

	(void)state;
	assert_true(tt_median(odd, 3) == 2 && odd[0] == 3 && odd[1] == 1);
	assert_true(tt_median(even, 4) == 2.5 && even[0] == 4);
	assert_true(isnan(tt_median(odd, 0)));
	for (int i = 0; i < 130; i++)
		many[i] = 129 - i;
	assert_true(tt_median(many, 130) == 64.5);
}

/* A search trial's measurements as the database keeps them: bandwidth
 * only where it is the score, latency only where some was measured. */
static void test_trial_figures(void **state)
{
	double bw[] = { 2e9, 3e9, 1e9 }, none[] = { NAN, NAN, NAN }, lat[] = { 90, NAN, 100 };
	struct tt_db_trial d = { 0 };

	(void)state;
	tt_trial_figures(bw, none, 3, &d);
	assert_true(d.bw_best_bytes_s == 3e9 && d.bw_median_bytes_s == 2e9 &&
		    d.bw_min_bytes_s == 1e9);
	assert_true(d.lat_best_ns == 0 && d.lat_median_ns == 0 && d.lat_max_ns == 0);
	d = (struct tt_db_trial){ 0 };
	tt_trial_figures(NULL, lat, 3, &d);
	assert_true(d.bw_best_bytes_s == 0 && d.bw_median_bytes_s == 0);
	assert_true(d.lat_best_ns == 90 && d.lat_max_ns == 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intervals),   cmocka_unit_test(test_t975),
		cmocka_unit_test(test_ci_positive), cmocka_unit_test(test_inverse_change),
		cmocka_unit_test(test_median),	    cmocka_unit_test(test_trial_figures),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
