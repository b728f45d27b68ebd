// SPDX-License-Identifier: GPL-3.0-or-later
/* The search's configuration and budget arithmetic (search.h): the
 * defaults, the least gain each final comparison is planned to tell, the
 * measurements the search keeps back for it, and the least budget a run
 * needs. Numbers of a configuration alone: nothing here measures or
 * reads a trial, so the frame (search.c) calls it and it calls nothing
 * back. */
#include "search.h"

#include <string.h>

void tt_search_cfg_default(struct tt_search_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->local_node = -1;
	cfg->fast_node = -1;
	cfg->decide = -1;
	cfg->max_weight = TT_WEIGHTINESS;
	cfg->min_repeats = 2;
	cfg->max_repeats = 6;
	cfg->confirm_rounds = 3;
	cfg->strategy = tt_strategies[0]->name; /* the default: the table's first */
}

/* The least gain the comparison with the deciding baseline (cfg.decide)
 * is planned to tell: TT_DECIDE_PLAN where a third of the budget holds
 * TT_DECIDE_GAIN's rounds at 3% noise (both arms: 2 x 32 of a model run's
 * 200), else TT_CONFIRM_GAIN as every other baseline's: a real run's 60
 * cannot tell 3% (64 measurements for the comparison alone), and planning
 * for it only took the search's budget (tests/unit/test-auto.c, Genoa at 60:
 * seed 1018 ended 1.02% below the optimum). Such a run keeps saying how
 * many more measurements would decide (report.h: more_measurements). */
double tt_search_decides_at(const struct tt_search_cfg *c)
{
	int r3 = tt_confirm_rounds_for(TT_DECIDE_GAIN, TT_CONFIRM_NOISE, TT_CONFIRM_MAX);

	return c->decide >= 0 && c->budget_trials >= 3 * 2 * r3 ? TT_DECIDE_PLAN : TT_CONFIRM_GAIN;
}

/* The measurements the search keeps back for the final comparison: the
 * configured rounds for every baseline, and, where a third of the budget
 * (half, for the baseline that decides) holds them, the rounds that
 * telling the least gain over one baseline needs at 3% noise (13 for 5%,
 * 46 for 2.5% over the baseline that decides:
 * cfg.confirm_rounds of 3 gives an interval of +-7% there, 5 one of
 * +-4.4%). */
int tt_search_reserve(const struct tt_search_cfg *c, int nbaselines)
{
	int base = c->confirm_rounds * (1 + nbaselines), r5, more;
	bool decides = tt_search_decides_at(c) < TT_CONFIRM_GAIN;
	/* Half the budget where the deciding plan is for 2.5% (46 rounds an
	 * arm at 3% noise): a third (66 of 200) held some 28, and Genoa's
	 * 2.5% was applied by both sockets in 168 of 200 seeds. */
	int cap = c->budget_trials / (decides ? 2 : 3);

	if (c->budget_trials <= 0 || nbaselines == 0)
		return base;
	r5 = tt_confirm_rounds_for(decides ? TT_DECIDE_PLAN : TT_CONFIRM_GAIN, TT_CONFIRM_NOISE,
				   TT_CONFIRM_MAX);
	more = r5 > c->confirm_rounds ? 2 * (r5 - c->confirm_rounds) : 0;
	if (base + more > cap)
		more = cap > base ? cap - base : 0;
	return base + more;
}

/* Baselines (min_repeats each), one candidate and the confirmation. */
int tt_search_budget_need(const struct tt_search_cfg *c, int nbaselines)
{
	return nbaselines * c->min_repeats + c->confirm_rounds * (1 + nbaselines) + c->min_repeats;
}

int tt_search_need(const struct tt_search_cfg *c)
{
	return tt_search_budget_need(c, (c->local_node >= 0) + 2 * (c->nnodes > 1) +
						(c->nnodes > 1 && tt_weights_count(&c->now_w) > 0) +
						(c->fast_node >= 0));
}
