// SPDX-License-Identifier: GPL-3.0-or-later
/* Student's t and intervals on a mean (stats.h). */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* The Cornish-Fisher expansion of the quantile in 1/dof (A&S 26.7.5, to
 * the fourth power): within 3e-14 beyond 500 degrees of freedom, 1e-3 at
 * 5, far off at 1 and 2. */
static double t975_expansion(int dof)
{
	const double z = Z975, z2 = z * z, v = dof;
	double g1 = (z2 + 1) * z / 4, g2 = ((5 * z2 + 16) * z2 + 3) * z / 96,
	       g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384,
	       g4 = ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z / 92160;

	return z + (g1 + (g2 + (g3 + g4 / v) / v) / v) / v;
}

double tt_t975(int dof)
{
	double lo = 0, hi = M_PI / 2, theta, slope = 2 / M_PI;

	if (dof < 1)
		return INFINITY;
	/* Beyond 500 the expansion is as good as the series, which would
	 * take 250 terms a step. A table stepping from 30 to 60 to 120
	 * degrees, as statistics books print it, gave 2.000 for 31..60 (2.040
	 * at 31): intervals too narrow. */
	if (dof > 500)
		return t975_expansion(dof);
	/* theta = atan(t / sqrt(dof)) by Newton's method from the expansion,
	 * kept inside the bracket the series' values give (bisecting when a
	 * step leaves it): 3 to 6 steps, where bisection took 64 (2-6 us a
	 * call, and the search asks at every measurement). The series' slope
	 * in theta is 2 / sqrt(pi) * G((dof+1)/2) / G(dof/2) * cos^(dof-1);
	 * the ratio of gammas by its recurrence, from 1/sqrt(pi) at 1 and
	 * sqrt(pi)/2 at 2 (no lgamma: it is not thread-safe in glibc). */
	for (int v = dof % 2 ? 1 : 2; v < dof; v += 2)
		slope *= (v + 1.0) / v;
	if (dof % 2 == 0)
		slope *= M_PI / 2;
	theta = atan(t975_expansion(dof) / sqrt(dof));
	for (int i = 0; i < 100; i++) {
		double a = t_within(dof, theta) - 0.95, next;

		if (a < 0)
			lo = theta;
		else
			hi = theta;
		next = theta - a / (slope * pow(cos(theta), dof - 1));
		if (!(next > lo && next < hi))
			next = (lo + hi) / 2;
		if (fabs(next - theta) <= 1e-16 * theta || a == 0)
			break;
		theta = next;
	}
	return sqrt(dof) * tan(theta);
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

int tt_confirm_rounds_for(double g, double sigma, int max)
{
	/* 2 t975 rather than t975 + t95: the one-sided quantile is not in the
	 * table, and the larger figure errs towards more rounds (power about
	 * 97.5% instead of 95%). The degrees of freedom are the interval's,
	 * 2(n - 1) (tt_confirm_gain pools both arms' spread): planned on n - 1,
	 * a 5% gain at 3% noise was given 14 rounds where 13 tell it. */
	for (int n = 2; n < max; n++)
		if (2 * tt_t975(2 * (n - 1)) * sigma * sqrt(2.0 / n) <= g)
			return n;
	return max;
}

int tt_rounds_to_decide(double g, double half, int n, int max)
{
	double sigma;

	if (n < 2 || !(half > 0) || !(g > 0))
		return max;
	sigma = half / (tt_t975(2 * (n - 1)) * sqrt(2.0 / n));
	return tt_confirm_rounds_for(g, sigma, max);
}

bool tt_solve(double *a, double *b, int n, double *x)
{
	for (int col = 0; col < n; col++) {
		int piv = col;

		for (int r = col + 1; r < n; r++)
			if (fabs(a[r * n + col]) > fabs(a[piv * n + col]))
				piv = r;
		if (fabs(a[piv * n + col]) < 1e-12)
			return false;
		if (piv != col) {
			for (int k = 0; k < n; k++) {
				double t = a[col * n + k];

				a[col * n + k] = a[piv * n + k];
				a[piv * n + k] = t;
			}
			double t = b[col];

			b[col] = b[piv];
			b[piv] = t;
		}
		for (int r = col + 1; r < n; r++) {
			double f = a[r * n + col] / a[col * n + col];

			for (int k = col; k < n; k++)
				a[r * n + k] -= f * a[col * n + k];
			b[r] -= f * b[col];
		}
	}
	for (int r = n - 1; r >= 0; r--) {
		double v = b[r];

		for (int k = r + 1; k < n; k++)
			v -= a[r * n + k] * x[k];
		x[r] = v / a[r * n + r];
	}
	return true;
}

double tt_median(const double *x, int n)
{
	double *v = n > 0 ? malloc((size_t)n * sizeof(*v)) : NULL, m;

	if (!v)
		return NAN;
	memcpy(v, x, (size_t)n * sizeof(*v));
	/* Insertion sort: a trial's measurements are a handful. */
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
			double tmp = v[j];

			v[j] = v[j - 1];
			v[j - 1] = tmp;
		}
	m = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	free(v);
	return m;
}

/* The gain is a ratio, mean(best) / mean(base) - 1, and both means are
 * noisy. Dividing the paired differences' t interval by the baseline's
 * mean, as if that mean were exact, drops the baseline's error, which
 * grows with the gain: at a ratio of 3 and 3 rounds the interval's lower
 * end missed the true gain in 4-6% of comparisons, not 2.5% (issue 22,
 * the quality table's ci column). Fieller's interval is exact for normal
 * noise: the ratios rho whose contrast best - rho base has a mean within
 * its own t interval of zero,
 *	(W - rho B)^2 <= t^2 / n (var W + rho^2 var B),
 * a quadratic in rho.
 *
 * The variance comes from both arms' spread about their own means,
 * relative to them (a measurement's noise is a share of its bandwidth, as
 * tuner/search.c's tt_search_noise takes it), pooled: 2(n - 1) degrees of freedom, where
 * the spread of the paired differences has n - 1. At the 3 to 6 rounds a
 * budget of 60 affords, that is t = 2.78 instead of 4.30 at 3 rounds, 2.23
 * instead of 2.57 at 6: the power to call a 5-8% gain "better" (issue 22
 * item 4) with no more measurements. The rounds stay interleaved, so drift
 * between rounds moves both arms' means alike; it widens each arm's spread,
 * so it makes the interval wider, never too narrow. The two arms need not
 * share a noise level: at the interval's ends rho B = W, and the pooled
 * share then weighs each arm's as the contrast's variance does. */
void tt_ratio_gain(const double *best, const double *base, int n, double *gain, double *lo,
		   double *hi)
{
	double wm = 0, bm = 0, ss = 0, t, u, root;

	*gain = *lo = *hi = NAN;
	if (n < 1)
		return;
	for (int r = 0; r < n; r++) {
		wm += best[r];
		bm += base[r];
	}
	wm /= n;
	bm /= n;
	*gain = (wm - bm) / bm;
	if (n < 2 || !(wm > 0) || !(bm > 0))
		return;
	for (int r = 0; r < n; r++)
		ss += (best[r] / wm - 1) * (best[r] / wm - 1) +
		      (base[r] / bm - 1) * (base[r] / bm - 1);
	/* With s2 = ss / (2(n - 1)) and u = t^2 s2 / n, the quadratic's roots
	 * are W/B (1 +- sqrt(u (2 - u))) / (1 - u); u >= 1: no bound. */
	t = tt_t975(2 * (n - 1));
	u = t * t * ss / (2.0 * (n - 1)) / n;
	if (!(u < 1))
		return;
	root = sqrt(u * (2 - u));
	*lo = wm / bm * (1 - root) / (1 - u) - 1;
	*hi = wm / bm * (1 + root) / (1 - u) - 1;
}
