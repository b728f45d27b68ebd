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

#include <stdbool.h>
#include <stddef.h>

struct tt_figure;
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

/* How a score reads while a run goes and in its report (auto's and
 * sweep's tables, progress and status lines), from the figure table
 * (core/figure.h) as show reads the run after: */
/* The figure o ranks by; bandwidth for an objective of none. */
const struct tt_figure *tt_score_fig(const struct tt_objective *o);
/* A column's unit: the figure's label, "metric" for a metric that has
 * none (as plot's axis names it). */
const char *tt_score_unit(const struct tt_objective *o);
/* A score's figure, in its SI unit (k / score, or the score). */
double tt_score_value(const struct tt_objective *o, double score);
/* The score as shown: its figure with the table's scale and decimals
 * (tt_figure_print); snprintf's return. */
int tt_score_print(const struct tt_objective *o, double score, char *buf, size_t size);
/* A figure rounded to whole units (value / divisor, %.0f): a bound as
 * the option states it (--max-latency 200 is "200 ns"). */
int tt_figure_print_whole(const struct tt_figure *f, double value, char *buf, size_t size);
/* The traffic a latency objective runs at, with its unit, to 0.1 of it as
 * the option and the recorded text name it ("250.0 GB/s"). */
int tt_objective_traffic_print(const struct tt_objective *o, char *buf, size_t size);

#endif
