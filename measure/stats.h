/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The statistics every figure with an interval goes through: Student's t
 * quantile and the 95% interval on a mean. The search ranks trials and
 * judges the final comparison with them (tuner/search.c); the report and
 * the readers of recorded runs show them (how an interval is shown:
 * view/interval.h). Here too, below the search: the gain of a paired
 * comparison with its interval (Fieller's), the rounds such a comparison
 * needs (its power) and the linear solve the strategies' fits stand on.
 *
 *	double mean, half;
 *	tt_mean_ci(x, n, &mean, &half);      (mean ± half, 95%)
 *
 * t rather than bootstrap: with 2 to 8 measurements a bootstrap has too few
 * distinct resamples to mean anything.
 */
#ifndef TT_STATS_H
#define TT_STATS_H

#include <stdbool.h>

/* Student's t, two-sided 95% (0.975 quantile), dof >= 1. */
double tt_t975(int dof);
/* Mean and 95% t interval half-width of x[0..n-1] (half-width inf below 2). */
void tt_mean_ci(const double *x, int n, double *mean, double *half);
/* The median of x[0..n-1], which stays as it is (the mean of the middle
 * two when n is even); NaN when n is 0 or the copy it sorts cannot be
 * had. */
double tt_median(const double *x, int n);
/* The rounds a paired comparison needs to call a true relative gain g
 * "better" (its 95% interval above zero) in about 97.5% of runs, when
 * each measurement's relative spread is sigma: the least n in 2..max with
 * 2 t975(2(n - 1)) sigma sqrt(2) / sqrt(n) <= g, else max (the degrees of
 * freedom of the search's pooled interval, tt_confirm_gain in
 * tuner/search.h). */
int tt_confirm_rounds_for(double g, double sigma, int max);
/* The paired rounds in all (at most max) that would call a gain of g
 * "better", given n rounds whose 95% interval had half-width half: the
 * spread that interval implies, planned as tt_confirm_rounds_for. */
int tt_rounds_to_decide(double g, double half, int n, int max);
/* The gain best / base - 1 of paired rounds best[r], base[r] (r < n), the
 * winner's mean over the baseline's, with its 95% interval (Fieller's: the
 * baseline's mean is as noisy as the winner's; both arms' relative spreads
 * pooled, 2(n - 1) degrees of freedom); NaN bounds below 2 rounds (gain
 * alone from 1), and when the rounds bound no ratio. */
void tt_ratio_gain(const double *best, const double *base, int n, double *gain, double *lo,
		   double *hi);
/* Solves a x = b for n unknowns (a row-major, n x n; a and b are
 * overwritten) by Gaussian elimination with partial pivoting: the fits of
 * the strategies. False when a is singular. */
bool tt_solve(double *a, double *b, int n, double *x);

#endif
