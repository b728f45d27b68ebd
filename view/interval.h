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
#include <stddef.h>

struct tt_objective;

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

struct tt_figure;

/* An interval [*lo, *hi] on figure q as shown: kept when both ends are
 * finite (and, for a figure that cannot be negative, above zero:
 * tt_ci_positive); else both NaN and false. */
bool tt_ci_bounded(const struct tt_figure *q, double *lo, double *hi);
/* An interval [lo, hi] on o's scores as its figure's (the ends swapped for
 * an inverse, tt_score_figure), then tt_ci_bounded. */
bool tt_score_ci(const struct tt_objective *o, double lo, double hi, double *flo, double *fhi);
/* The one way a mean's 95% interval is shown, in auto's report and in
 * show: "188.20..197.12" with q's decimals; "unbounded" where the mean
 * has two or more measurements and the interval bounds nothing
 * (tt_ci_bounded), "n/a" where it has one. */
int tt_ci_print(const struct tt_figure *q, double lo, double hi, bool several, char *buf,
		size_t size);

/* The one way a gain is shown, live or recorded (auto's report, progress
 * and status, show's recommendations): in percent to 0.1, as the change
 * of the figure o is read in (the latency objective's gain in loads per
 * second as its change of latency, tt_inverse_change; every other
 * objective's as the score's). */
enum tt_gain_form {
	TT_GAIN_BARE,	/* "+4.3%"; "-" when not finite */
	TT_GAIN_WORDED, /* TT_GAIN_BARE, and "latency" after a change of latency */
	TT_GAIN_CI,	/* "+4.3% (95% CI +1.7%..+7.0%)", the interval when known */
	TT_GAIN_COLUMN, /* "+4.3% (+1.7..+7.0)" a table's column; "-" unless all known */
	TT_GAIN_PM,	/* "+4.3% ±2.6%" a running comparison, the half width when known */
};
/* g and its interval [lo, hi] as shown for o into v[0..2]: true when all
 * three are finite. */
bool tt_gain_shown(const struct tt_objective *o, double g, double lo, double hi, double *v);
/* The gain as text in form; snprintf's return. */
int tt_gain_text(const struct tt_objective *o, double g, double lo, double hi,
		 enum tt_gain_form form, char *buf, size_t size);
/* TT_GAIN_CI's text with, for a gain shown as the change of an inverse,
 * that change in the figure's unit of the baseline's score base_score
 * beside it: "-0.7% latency, -1.1 ns (95% CI -3.0%..+1.6%)". */
int tt_gain_change_text(const struct tt_objective *o, double g, double lo, double hi,
			double base_score, char *buf, size_t size);
/* What a gain of o is called in a column's header: "latency" for one
 * shown as the change of latency, else "gain". */
const char *tt_gain_word(const struct tt_objective *o);
/* How a gain names its baseline: "vs" for a change of latency ("-0.7%
 * latency vs local DRAM"), else "over" ("+4.3% over local DRAM"). */
const char *tt_gain_against(const struct tt_objective *o);

#endif
