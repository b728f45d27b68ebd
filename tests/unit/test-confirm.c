// SPDX-License-Identifier: GPL-3.0-or-later
/* tuner/search.c's final comparison: the gain's interval (tt_confirm_gain)
 * covers the true gain as often as a 95% interval promises, at every ratio
 * of the two means, drift or not; and calls a gain of 5-10% "better" as
 * often as the few rounds of a small budget allow. */
#include "test.h"

#include "../../model/model.h"
#include "../../tuner/search.h"

#include <math.h>
#include <stdio.h>

/* Fieller's interval on three rounds, each arm's relative spread pooled
 * (4 degrees of freedom), against the closed form (worked in Python, 17
 * digits; the quadratic is zero at both ends). The first interval, the
 * paired differences' t interval over the baseline's mean, gave [1.8466,
 * 2.1600]: too narrow, the baseline's mean taken for exact; Fieller's on
 * the paired differences' spread (2 degrees of freedom), [1.7919, 2.2427]. */
static void test_interval(void **state)
{
	struct tt_confirm c = { .rounds = 3,
				.best = { 3.10, 2.95, 3.02 },
				.base = { 1.01, 0.97, 1.04 } };
	double g, lo, hi;

	(void)state;
	tt_confirm_gain(&c, &g, &lo, &hi);
	assert_true(fabs(g - 2.003311258278146) < 1e-12);
	assert_true(fabs(lo - 1.8039020292079022) < 1e-9);
	assert_true(fabs(hi - 2.21690216710188) < 1e-9);
	c.rounds = 1;
	tt_confirm_gain(&c, &g, &lo, &hi);
	assert_true(fabs(g - 3.10 / 1.01 + 1) < 1e-12 && isnan(lo) && isnan(hi));
	/* A baseline whose mean the rounds cannot tell from zero bounds no
	 * ratio: no interval, the verdict unknown. */
	c = (struct tt_confirm){ .rounds = 2, .best = { 1.0, 1.1 }, .base = { 0.1, 1.0 } };
	tt_confirm_gain(&c, &g, &lo, &hi);
	assert_true(isnan(lo) && isnan(hi));
}

/* Of n simulated comparisons, the shares whose interval lies wholly above
 * (*above) or below (*below) the true gain, and the share called "better"
 * (its lower end above zero): each round the winner at ratio times the
 * baseline, both with a relative normal noise sigma, and a drift of
 * relative sd drift that moves both measurements of the round alike. */
static void simulate(double ratio, int rounds, double sigma, double drift, int n, double *above,
		     double *below, double *better)
{
	uint64_t rng[4];
	int a = 0, b = 0, y = 0;

	tt_rng_seed(rng, 22);
	for (int i = 0; i < n; i++) {
		struct tt_confirm c = { .rounds = rounds };
		double g, lo, hi;

		for (int r = 0; r < rounds; r++) {
			double d = 1 + drift * tt_rng_normal(rng);

			c.best[r] = d * ratio * (1 + sigma * tt_rng_normal(rng));
			c.base[r] = d * (1 + sigma * tt_rng_normal(rng));
		}
		tt_confirm_gain(&c, &g, &lo, &hi);
		a += lo > ratio - 1;
		b += hi < ratio - 1;
		y += lo > 0;
	}
	*above = (double)a / n;
	*below = (double)b / n;
	*better = (double)y / n;
}

/* Each end of a 95% interval misses in 2.5% of comparisons; 20000 of them
 * put the share within +-0.11% (one sd), so 1.9..3.1% is 5 sd. At a ratio
 * of 3 (local DRAM alone against the best of four nodes) and 3 rounds, the
 * old interval lay above the true gain in 4.2% of them, below it in 4.5%; at
 * 1.05 both were right, as the baseline's error scales with the gain. With
 * a drift between rounds as large as the noise, each end misses less often,
 * never more. */
static void test_coverage(void **state)
{
	static const struct {
		double ratio, sigma;
		int rounds;
	} v[] = { { 3, 0.03, 3 }, { 3, 0.10, 5 }, { 1.5, 0.05, 4 }, { 1.05, 0.03, 3 } };
	double above, below, better;

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		simulate(v[i].ratio, v[i].rounds, v[i].sigma, 0, 20000, &above, &below, &better);
		if (above < 0.019 || above > 0.031 || below < 0.019 || below > 0.031)
			fail_msg("ratio %g, %d rounds, noise %g: above the truth %.2f%%, "
				 "below %.2f%% (want 2.5%% each)",
				 v[i].ratio, v[i].rounds, v[i].sigma, 100 * above, 100 * below);
		simulate(v[i].ratio, v[i].rounds, v[i].sigma, v[i].sigma, 20000, &above, &below,
			 &better);
		if (above > 0.031 || below > 0.031)
			fail_msg("ratio %g, %d rounds, noise and drift %g: above the truth "
				 "%.2f%%, below %.2f%% (want at most 2.5%% each)",
				 v[i].ratio, v[i].rounds, v[i].sigma, 100 * above, 100 * below);
	}
}

/* Issue 22 item 4: a true gain of 5% or more at 3% noise called "better".
 * The rounds a budget of 60 affords a baseline near 5% are 3 to 7. With the
 * paired differences' spread alone (n - 1 degrees of freedom) these were
 * 76.4%, 67.4% and 54.4%; with both arms' pooled, 85.3%, 85.1%, 82.1%. */
static void test_power(void **state)
{
	static const struct {
		double gain;
		int rounds;
		double want; /* the least share called "better" */
	} v[] = { { 0.06, 6, 0.82 }, { 0.08, 4, 0.80 }, { 0.10, 3, 0.75 } };
	double above, below, better;
	bool ok = true;

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		simulate(1 + v[i].gain, v[i].rounds, 0.03, 0, 20000, &above, &below, &better);
		printf("# gain %g, %d rounds: better %.1f%%\n", v[i].gain, v[i].rounds,
		       100 * better);
		if (better < v[i].want)
			ok = false,
			print_message(
				"a true gain of %g%% at 3%% noise in %d rounds: \"better\" in "
				"%.1f%% of comparisons (want %.0f%%)\n",
				100 * v[i].gain, v[i].rounds, 100 * better, 100 * v[i].want);
	}
	assert_true(ok);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interval),
		cmocka_unit_test(test_coverage),
		cmocka_unit_test(test_power),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
