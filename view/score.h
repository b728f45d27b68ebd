/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A recorded run's score and its figure: the search ranks by a score
 * (higher is better; docs/json.md's recommendations[].score), which is the
 * run's figure itself (bandwidth, a metric where higher is better) or a
 * number over it (the latency objective's dependent loads per second,
 * 1e9 / ns; app mode's 1 / seconds; 1 / a metric where lower is better).
 * The CLI's show, CSV and headline and the plot convert between them here,
 * so that one trial's mean reads the same wherever it is shown.
 *
 *	double k = tt_score_k(&objective);      (0: the score is the figure)
 *	tt_score_mean_ci(&objective, x, n, &mean, &lo, &hi);
 */
#ifndef TT_SCORE_H
#define TT_SCORE_H

struct tt_objective;

/* For a run's objective (core/objective.h): k where score = k / figure,
 * or 0 where the score is the figure. */
double tt_score_k(const struct tt_objective *o);

/* The figure of a score, and of an interval [lo, hi] on scores: an inverse
 * swaps the ends, and an end at or below zero leaves the other unbounded
 * (NaN). */
void tt_score_figure(double k, double score, double lo, double hi, double *fig, double *flo,
		     double *fhi);

/* A trial's measurements x[0..n-1], each in the objective's figure: their
 * mean and 95% interval taken on the score, as the search ranks them (the
 * latency objective's mean is 1e9 over the mean of loads per second), then
 * as figures. Non-finite measurements are skipped; returns how many were
 * used (0: *mean and the ends NaN; 1: the ends NaN). */
int tt_score_mean_ci(const struct tt_objective *o, const double *x, int n, double *mean, double *lo,
		     double *hi);

#endif
