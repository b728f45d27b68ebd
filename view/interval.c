// SPDX-License-Identifier: GPL-3.0-or-later
/* How an interval is shown (interval.h). */
#include "interval.h"

#include "score.h"

#include "../core/figure.h"
#include "../core/objective.h"

#include <math.h>
#include <stdio.h>

bool tt_ci_positive(double *lo, double *hi)
{
	if (*lo > 0 && *hi >= *lo && isfinite(*hi))
		return true;
	*lo = *hi = NAN;
	return false;
}

bool tt_ci_bounded(const struct tt_figure *q, double *lo, double *hi)
{
	if (!isfinite(*lo) || !isfinite(*hi)) {
		*lo = *hi = NAN;
		return false;
	}
	return q->positive ? tt_ci_positive(lo, hi) : true;
}

bool tt_score_ci(const struct tt_objective *o, double lo, double hi, double *flo, double *fhi)
{
	double mean;

	tt_score_figure(tt_score_k(o), lo, lo, hi, &mean, flo, fhi);
	return tt_ci_bounded(tt_score_fig(o), flo, fhi);
}

int tt_ci_print(const struct tt_figure *q, double lo, double hi, bool several, char *buf,
		size_t size)
{
	char a[32], b[32];

	if (!isfinite(lo) || !isfinite(hi))
		return snprintf(buf, size, "%s", several ? "unbounded" : "n/a");
	tt_figure_print(q, lo, a, sizeof(a));
	tt_figure_print(q, hi, b, sizeof(b));
	return snprintf(buf, size, "%s..%s", a, b);
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

/* Only the latency objective's gain is read inverted: an app's gain in
 * runs (or metric) per unit is shown as the score's, as its report always
 * has, and a program's engineer reads "+20%" as 20% more runs done. */
static bool gain_inverse(const struct tt_objective *o)
{
	return o->kind == TT_OBJ_LATENCY;
}

const char *tt_gain_word(const struct tt_objective *o)
{
	return gain_inverse(o) ? "latency" : "gain";
}

const char *tt_gain_against(const struct tt_objective *o)
{
	return gain_inverse(o) ? "vs" : "over";
}

bool tt_gain_shown(const struct tt_objective *o, double g, double lo, double hi, double *v)
{
	if (gain_inverse(o))
		tt_inverse_change(g, lo, hi, &v[0], &v[1], &v[2]);
	else
		v[0] = g, v[1] = lo, v[2] = hi;
	return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}

/* A gain in percent: one decimal, its sign always. */
#define PCT "%+.1f%%"

int tt_gain_text(const struct tt_objective *o, double g, double lo, double hi,
		 enum tt_gain_form form, char *buf, size_t size)
{
	double v[3];
	bool all = tt_gain_shown(o, g, lo, hi, v), ends = isfinite(v[1]) && isfinite(v[2]);

	if (form == TT_GAIN_COLUMN)
		return all ? snprintf(buf, size, "%+.1f%% (%+.1f..%+.1f)", 100 * v[0], 100 * v[1],
				      100 * v[2])
			   : snprintf(buf, size, "-");
	if (!isfinite(v[0]))
		return snprintf(buf, size, "-");
	if (form == TT_GAIN_CI && ends)
		return snprintf(buf, size, PCT " (95%% CI " PCT ".." PCT ")", 100 * v[0],
				100 * v[1], 100 * v[2]);
	if (form == TT_GAIN_PM && ends)
		return snprintf(buf, size, PCT " ±%.1f%%", 100 * v[0], 100 * (v[2] - v[1]) / 2);
	if (form == TT_GAIN_WORDED && gain_inverse(o))
		return snprintf(buf, size, PCT " %s", 100 * v[0], tt_gain_word(o));
	return snprintf(buf, size, PCT, 100 * v[0]);
}

int tt_gain_change_text(const struct tt_objective *o, double g, double lo, double hi,
			double base_score, char *buf, size_t size)
{
	double v[3];
	char by[64] = "";
	int n;

	tt_gain_shown(o, g, lo, hi, v);
	if (gain_inverse(o) && base_score > 0) {
		const struct tt_figure *f = tt_score_fig(o);

		tt_figure_print(f, v[0] * tt_score_value(o, base_score), by, sizeof(by));
		n = snprintf(buf, size, PCT " %s, %s%s %s", 100 * v[0], tt_gain_word(o),
			     by[0] == '-' ? "" : "+", by, f->label);
	} else {
		n = snprintf(buf, size, PCT, 100 * v[0]);
	}
	if (n >= 0 && (size_t)n < size && isfinite(v[1]) && isfinite(v[2]))
		n += snprintf(buf + n, size - (size_t)n, " (95%% CI " PCT ".." PCT ")", 100 * v[1],
			      100 * v[2]);
	return n;
}
