/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The integer weight vectors of a search's space: every reduced vector of
 * n weights in 0..max, their count in closed form, and a descent over them
 * where they are too many to enumerate. The search, sweep's grid strategy,
 * the quality benchmark and the tests walk the same space through these;
 * nothing here measures.
 */
#ifndef TT_GRID_H
#define TT_GRID_H

#include <stdbool.h>
#include <stdint.h>

/* The most nodes one measurement weighs: the search's nodes (tuner/search.h),
 * a profile's (measure/profile.h). */
#define TT_SEARCH_MAX_NODES 8

/* Every reduced vector of n weights in 0..max, at least one non-zero, each
 * once: the exhaustive grid (sweep, and the quality reference). */
struct tt_grid {
	int n;
	uint32_t max;
	uint32_t w[TT_SEARCH_MAX_NODES];
	bool started;
};
void tt_grid_init(struct tt_grid *g, int n, uint32_t max);
bool tt_grid_next(struct tt_grid *g, uint32_t *w);
long tt_grid_count(int n, uint32_t max);
/* The grid's optimum where it is too large to enumerate (5 nodes and more:
 * 33^8 vectors), for the quality benchmark and the tests: an integer
 * descent from w (in and out, reduced), whose score is best: one weight up
 * or down, or one unit moved from one node to another, or every weight
 * scaled by m/(m +- 1) and rounded; the first move that scores higher is
 * taken, until none does. Returns the last score. */
typedef double (*tt_grid_score_fn)(void *ctx, const uint32_t *w);
double tt_grid_descend(int n, uint32_t max, uint32_t *w, double best, tt_grid_score_fn score,
		       void *ctx);

#endif
