// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Caption's hill climb (Sun et al., MICRO'23; the artifact's caption_ae/):
 * one knob, one measurement per step; a better result keeps the direction,
 * a worse one reverses it with half the step. Caption turns the CXL share of
 * a 2-tier N:M interleave; here the knob is a node's share (for more than
 * two nodes, each in turn, the others scaled to make room), snapped to the
 * weight space. Kept for comparison with the default strategy: it neither
 * repeats measurements nor uses the problem's shape.
 */
#include "search.h"

#include <math.h>

static int run(struct tt_search *s)
{
	int n = s->cfg.nnodes, inc = -1, t;
	double x[TT_SEARCH_MAX_NODES], step = 0.1, dmin = 1.0 / (4.0 * s->cfg.max_weight);
	uint32_t w[TT_SEARCH_MAX_NODES];

	/* Start where the prior points (the auto baseline), else at 1:1. */
	for (int b = 0; b < s->nbaselines; b++)
		if (s->base[b].trial >= 0 && (inc < 0 || s->base[b].kind == TT_BASE_AUTO))
			inc = s->base[b].trial;
	tt_search_trial_weights(s, inc, w);
	tt_search_shares(s, w, x);
	for (int k = n == 2 ? 1 : 0; !tt_search_stopped(s) && step >= dmin; k = (k + 1) % n) {
		int dir = 1;

		if (n == 2)
			k = s->cfg.nodes[0] == s->cfg.local_node ? 1 : 0;
		/* One knob until its step is spent, Caption's loop; then the next. */
		for (double st = step; st >= dmin && !tt_search_stopped(s);) {
			double y[TT_SEARCH_MAX_NODES], rest = 1 - x[k], nk = x[k] + dir * st;

			nk = nk < 0 ? 0 : nk > 1 ? 1 : nk;
			for (int j = 0; j < n; j++)
				y[j] = j == k	  ? nk
				       : rest > 0 ? x[j] * (1 - nk) / rest
						  : (1 - nk) / (n - 1);
			tt_search_snap(s, y, w);
			if ((t = tt_search_try(s, w, 1, TT_PHASE_SEARCH)) < 0)
				return t;
			if (t != inc && s->trials[t].n > 0 &&
			    s->trials[t].mean > s->trials[inc].mean) {
				inc = t;
				for (int j = 0; j < n; j++)
					x[j] = y[j];
			} else {
				dir = -dir;
				st /= 2;
			}
		}
		if (n == 2)
			break;
		if (k == n - 1)
			step /= 2;
	}
	s->best = inc;
	return 0;
}

const struct tt_strategy tt_s_hillclimb = {
	.name = "hillclimb",
	.summary = "Caption-style hill climb: one measurement a step, halve the step on a worse "
		   "result",
	.run = run,
};
