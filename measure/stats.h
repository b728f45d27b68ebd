/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The statistics every figure with an interval goes through: Student's t
 * quantile and the 95% interval on a mean. The search ranks trials and
 * judges the final comparison with them (tuner/search.c); the report and
 * the readers of recorded runs (view/) show them. Here too, below the
 * search, the rounds a paired comparison needs (its power) and the linear
 * solve the strategies' fits stand on.
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
/* The 95% interval [*lo, *hi] of a quantity that cannot be negative (a
 * bandwidth, a latency, a time): kept when *lo is above zero; else both
 * NaN and false. A t interval from two or three noisy measurements can
 * reach below zero (-3.2 GB/s was shown); no bound is known then, and the
 * caller says the measurements were too few rather than show one that
 * cannot be. The search ranks by the t interval as it is. */
bool tt_ci_positive(double *lo, double *hi);
/* A gain g of a rate (its mean over a baseline's, less 1; higher is
 * better) as the change of the rate's inverse, with its interval [lo, hi]:
 * the latency objective ranks dependent loads per second (1e9 / ns), and
 * an engineer reads latency: +532% loads per second is 84% less latency.
 * 1 / (1 + g) - 1, the interval's ends swapped; an end at or below -100%
 * leaves the other unbounded (NaN). */
void tt_inverse_change(double g, double lo, double hi, double *c, double *clo, double *chi);

/* The rounds a paired comparison needs to call a true relative gain g
 * "better" (its 95% interval above zero) in about 97.5% of runs, when
 * each measurement's relative spread is sigma: the least n in 2..max with
 * 2 t975(2(n - 1)) sigma sqrt(2) / sqrt(n) <= g, else max (the degrees of
 * freedom of the search's pooled interval, tt_confirm_gain in
 * tuner/search.h). */
int tt_confirm_rounds_for(double g, double sigma, int max);
/* Solves a x = b for n unknowns (a row-major, n x n; a and b are
 * overwritten) by Gaussian elimination with partial pivoting: the fits of
 * the strategies. False when a is singular. */
bool tt_solve(double *a, double *b, int n, double *x);

#endif
