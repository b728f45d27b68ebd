// SPDX-License-Identifier: GPL-3.0-or-later
/* A recorded run's score and its figure (score.h). */
#include "score.h"

#include "../measure/stats.h"

#include "../core/figure.h"
#include "../core/objective.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

double tt_score_k(const struct tt_objective *o)
{
	if (o->kind == TT_OBJ_LATENCY)
		return 1e9;
	if (o->kind == TT_OBJ_WALL_TIME || (o->kind == TT_OBJ_METRIC && o->lower_better))
		return 1;
	return 0;
}

void tt_score_figure(double k, double score, double lo, double hi, double *fig, double *flo,
		     double *fhi)
{
	if (!k) {
		*fig = score, *flo = lo, *fhi = hi;
		return;
	}
	*fig = k / score;
	*flo = hi > 0 ? k / hi : NAN;
	*fhi = lo > 0 ? k / lo : NAN;
}

int tt_score_mean_ci(const struct tt_objective *o, const double *x, int n, double *mean, double *lo,
		     double *hi)
{
	double k = tt_score_k(o), *s = malloc(((size_t)n + 1) * sizeof(*s)), m, half;
	int used = 0;

	*mean = *lo = *hi = NAN;
	if (!s)
		return 0;
	for (int i = 0; i < n; i++) {
		double v = k ? k / x[i] : x[i];

		if (isfinite(x[i]) && isfinite(v))
			s[used++] = v;
	}
	if (used) {
		tt_mean_ci(s, used, &m, &half);
		if (used < 2)
			half = NAN;
		tt_score_figure(k, m, m - half, m + half, mean, lo, hi);
	}
	free(s);
	return used;
}

const struct tt_figure *tt_score_fig(const struct tt_objective *o)
{
	const struct tt_figure *f = tt_objective_figure(o);

	return f ? f : tt_figure(TT_FIG_BANDWIDTH);
}

const char *tt_score_unit(const struct tt_objective *o)
{
	return tt_score_fig(o)->plot_unit;
}

double tt_score_value(const struct tt_objective *o, double score)
{
	double k = tt_score_k(o);

	return k ? k / score : score;
}

int tt_score_print(const struct tt_objective *o, double score, char *buf, size_t size)
{
	return tt_figure_print(tt_score_fig(o), tt_score_value(o, score), buf, size);
}

int tt_figure_print_whole(const struct tt_figure *f, double value, char *buf, size_t size)
{
	return snprintf(buf, size, "%.0f", value / f->divisor);
}

int tt_objective_traffic_print(const struct tt_objective *o, char *buf, size_t size)
{
	const struct tt_figure *bw = tt_figure(TT_FIG_BANDWIDTH);

	/* traffic_gb_s is kept in the text's unit, the figure's shown one. */
	return snprintf(buf, size, "%.1f %s", o->traffic_gb_s, bw->label);
}
