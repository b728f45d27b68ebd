// SPDX-License-Identifier: GPL-3.0-or-later
#include "grid.h"

#include "weights.h"

#include <math.h>
#include <string.h>

void tt_grid_init(struct tt_grid *g, int n, uint32_t max)
{
	memset(g, 0, sizeof(*g));
	g->n = n;
	g->max = max;
}

bool tt_grid_next(struct tt_grid *g, uint32_t *w)
{
	for (;;) {
		int i = 0;
		uint32_t d = 0;

		/* Odometer over 0..max per place; the all-zero start is skipped. */
		while (i < g->n && g->w[i] == g->max)
			g->w[i++] = 0;
		if (i == g->n)
			return false;
		g->w[i]++;
		for (i = 0; i < g->n; i++)
			d = tt_gcd(d, g->w[i]);
		if (d == 1) {
			memcpy(w, g->w, sizeof(*w) * (size_t)g->n);
			return true;
		}
	}
}

/* y reduced and, when it has a weight and scores higher than *best, taken
 * into w: the descent's one step. */
static bool take_if_better(int n, uint32_t *y, uint32_t *w, double *best, tt_grid_score_fn score,
			   void *ctx)
{
	bool any = false;
	double sc;

	for (int k = 0; k < n; k++)
		any |= y[k] > 0;
	if (!any)
		return false;
	tt_weights_reduce_array(y, n);
	if ((sc = score(ctx, y)) <= *best * (1 + 1e-12))
		return false;
	memcpy(w, y, sizeof(*y) * (size_t)n);
	*best = sc;
	return true;
}

double tt_grid_descend(int n, uint32_t max, uint32_t *w, double best, tt_grid_score_fn score,
		       void *ctx)
{
	bool moved = true;

	while (moved) {
		moved = false;
		for (int i = 0; i < n && !moved; i++)
			for (int j = -1; j < n && !moved; j++)
				for (int d = -1; d <= 1 && !moved; d += 2) {
					uint32_t y[TT_SEARCH_MAX_NODES];

					memcpy(y, w, sizeof(*y) * (size_t)n);
					if (j == i)
						continue;
					if ((d < 0 && y[i] == 0) || (d > 0 && y[i] == max))
						continue;
					y[i] += (uint32_t)d;
					if (j >= 0) {
						if ((d > 0 && y[j] == 0) || (d < 0 && y[j] == max))
							continue;
						y[j] -= (uint32_t)d;
					}
					moved = take_if_better(n, y, w, &best, score, ctx);
				}
		for (uint32_t top = 1; top <= max && !moved; top++) {
			uint32_t y[TT_SEARCH_MAX_NODES], mx = 0;

			for (int k = 0; k < n; k++)
				mx = w[k] > mx ? w[k] : mx;
			for (int k = 0; k < n; k++)
				y[k] = (uint32_t)lround((double)w[k] * top / mx);
			moved = take_if_better(n, y, w, &best, score, ctx);
		}
	}
	return best;
}

long tt_grid_count(int n, uint32_t max)
{
	long c = 0;

	/* Vectors whose entries are all multiples of d number (max/d + 1)^n - 1
	 * (the zero vector left out); Moebius inversion over d leaves those
	 * with GCD 1. Closed form, as enumerating 33^8 vectors for 8 nodes
	 * would take hours. */
	for (uint32_t d = 1; d <= max; d++) {
		uint32_t m = d, p;
		int mu = 1;
		long pw = 1;

		for (p = 2; p * p <= m; p++) {
			if (m % p)
				continue;
			m /= p;
			if (m % p == 0) {
				mu = 0;
				break;
			}
			mu = -mu;
		}
		if (!mu)
			continue;
		if (m > 1)
			mu = -mu;
		for (int i = 0; i < n; i++)
			pw *= (long)(max / d) + 1;
		c += mu * (pw - 1);
	}
	return c;
}
