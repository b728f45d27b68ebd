// SPDX-License-Identifier: GPL-3.0-or-later
/* Student's t and intervals on a mean (stats.h). */
#include "stats.h"

#include <math.h>

/* z, the normal distribution's 0.975 quantile. */
#define Z975 1.9599639845400542

/* P(|T| < sqrt(dof) tan(theta)) for Student's t with dof degrees of
 * freedom: the finite series of Abramowitz & Stegun 26.7.3 and 26.7.4
 * (dof / 2 terms, all positive, so no cancellation). */
static double t_within(int dof, double theta)
{
	double c2 = cos(theta) * cos(theta), term = 1, sum = 1;

	if (dof % 2 == 0) {
		for (int k = 1; 2 * k <= dof - 2; k++)
			sum += term *= c2 * (2 * k - 1) / (2 * k);
		return sin(theta) * sum;
	}
	if (dof == 1)
		return 2 / M_PI * theta;
	for (int k = 1; 2 * k <= dof - 3; k++)
		sum += term *= c2 * (2 * k) / (2 * k + 1);
	return 2 / M_PI * (theta + sin(theta) * cos(theta) * sum);
}

double tt_t975(int dof)
{
	double lo = 0, hi = M_PI / 2;

	if (dof < 1)
		return INFINITY;
	/* Beyond 500 the Cornish-Fisher expansion in 1/dof (A&S 26.7.5, to
	 * the fourth power) is within 3e-14 of the quantile, and the series
	 * would take 250 terms a step. A table stepping from 30 to 60 to 120
	 * degrees, as statistics books print it, gave 2.000 for 31..60 (2.040
	 * at 31): intervals too narrow. */
	if (dof > 500) {
		const double z = Z975, z2 = z * z, v = dof;
		double g1 = (z2 + 1) * z / 4, g2 = ((5 * z2 + 16) * z2 + 3) * z / 96,
		       g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384,
		       g4 = ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z / 92160;

		return z + (g1 + (g2 + (g3 + g4 / v) / v) / v) / v;
	}
	/* theta = atan(t / sqrt(dof)) by bisection: the series grows with
	 * theta, and 64 halvings of [0, pi/2] leave no double between. */
	for (int i = 0; i < 64 && lo < hi; i++) {
		double mid = (lo + hi) / 2;

		if (mid <= lo || mid >= hi)
			break;
		if (t_within(dof, mid) < 0.95)
			lo = mid;
		else
			hi = mid;
	}
	return sqrt(dof) * tan((lo + hi) / 2);
}

void tt_mean_ci(const double *x, int n, double *mean, double *half)
{
	double m = 0, ss = 0;

	for (int i = 0; i < n; i++)
		m += x[i];
	m = n > 0 ? m / n : NAN;
	for (int i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	*mean = m;
	*half = n >= 2 ? tt_t975(n - 1) * sqrt(ss / (n - 1) / n) : INFINITY;
}

bool tt_ci_positive(double *lo, double *hi)
{
	if (*lo > 0 && *hi >= *lo && isfinite(*hi))
		return true;
	*lo = *hi = NAN;
	return false;
}

static double inverse_change(double g)
{
	return g > -1 ? 1 / (1 + g) - 1 : NAN;
}

void tt_inverse_change(double g, double lo, double hi, double *c, double *clo, double *chi)
{
	*c = inverse_change(g);
	*clo = inverse_change(hi);
	*chi = inverse_change(lo);
}
