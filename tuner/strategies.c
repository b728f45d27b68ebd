// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The search strategies. To add one: 1. write tuner/s-<name>.c with a
 * const struct tt_strategy (search.h says what run() may do); 2. declare it
 * in search.h; 3. list it below; 4. name it in docs/tiertune.1's auto
 * section, in this order (t0013 holds the man page to every choice, t0011
 * to the order); 5. a quality test in tests/unit/test-tuner.c (tuner/README.md
 * has the whole recipe). The first is the default.
 */
#include "search.h"

#include <string.h>

const struct tt_strategy *const tt_strategies[] = {
	&tt_s_shares,	 /* the default */
	&tt_s_fitted,	 /* a surrogate fitted to every measurement */
	&tt_s_hillclimb, /* Caption's, for comparison */
	&tt_s_grid,	 /* every vector: sweep */
	NULL,
};

const struct tt_strategy *tt_strategy_find(const char *name)
{
	for (const struct tt_strategy *const *s = tt_strategies; *s; s++)
		if (strcmp((*s)->name, name) == 0)
			return *s;
	return NULL;
}
