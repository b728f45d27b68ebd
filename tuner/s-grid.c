// SPDX-License-Identifier: GPL-3.0-or-later
/* Every vector of the weight space, each measured min_repeats times: what
 * `tiertune sweep` shows, and the reference of the quality benchmark. Blind
 * and exhaustive on purpose; the budget still applies. */
#include "search.h"

static int run(struct tt_search *s)
{
	struct tt_grid g;
	uint32_t w[TT_SEARCH_MAX_NODES];

	tt_grid_init(&g, s->cfg.nnodes, s->cfg.max_weight);
	while (!tt_search_stopped(s) && tt_grid_next(&g, w)) {
		int t = tt_search_try(s, w, s->cfg.min_repeats, TT_PHASE_SEARCH);

		if (t < 0)
			return t;
	}
	return 0;
}

const struct tt_strategy tt_s_grid = {
	.name = "grid",
	.exhaustive = true,
	.summary = "exhaustive: every reduced vector with weights 0..max-weight",
	.run = run,
};
