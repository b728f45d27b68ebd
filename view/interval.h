/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * How a figure's interval is shown, the display half of the statistics
 * (measure/stats.h computes the intervals; the search ranks by them as
 * they are): a bound that cannot be, and a gain of a rate read as the
 * change of its inverse. show, runs, the CSV and auto's report use these.
 */
#ifndef TT_INTERVAL_H
#define TT_INTERVAL_H

#include <stdbool.h>

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

#endif
