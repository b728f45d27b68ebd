// SPDX-License-Identifier: GPL-3.0-or-later
/* The set of tried vectors (search.h): an open-addressing hash from a
 * vector, packed a byte a weight, to its trial, so that a strategy asking
 * for a vector again gets the trial it has (tt_search_find). Kept at a
 * load factor of at most 1/2, which keeps probes short. */
#include "search.h"

#include "../core/error.h"

#include <stdlib.h>

static uint64_t pack(const uint32_t *w, int n)
{
	uint64_t k = 0;

	for (int i = 0; i < n; i++)
		k |= (uint64_t)w[i] << (8 * i);
	return k;
}

static uint32_t slot_of(uint64_t key, uint32_t cap)
{
	key ^= key >> 33;
	key *= UINT64_C(0xff51afd7ed558ccd);
	key ^= key >> 33;
	return (uint32_t)(key & (cap - 1));
}

int tt_search_find(const struct tt_search *s, const uint32_t *w)
{
	uint64_t key = pack(w, s->cfg.nnodes);

	for (uint32_t i = slot_of(key, s->seen_cap); s->seen_trial[i];
	     i = (i + 1) & (s->seen_cap - 1))
		if (s->seen_key[i] == key)
			return s->seen_trial[i] - 1;
	return -1;
}

static int set_grow(struct tt_search *s)
{
	uint32_t cap = s->seen_cap ? s->seen_cap * 2 : 1024;
	uint64_t *keys = calloc(cap, sizeof(*keys));
	int *trials = calloc(cap, sizeof(*trials));

	if (!keys || !trials) {
		free(keys);
		free(trials);
		return tt_err(TT_EFAIL, "out of memory for %u tried vectors", cap);
	}
	for (uint32_t i = 0; i < s->seen_cap; i++) {
		uint32_t j;

		if (!s->seen_trial[i])
			continue;
		for (j = slot_of(s->seen_key[i], cap); trials[j]; j = (j + 1) & (cap - 1))
			;
		keys[j] = s->seen_key[i];
		trials[j] = s->seen_trial[i];
	}
	free(s->seen_key);
	free(s->seen_trial);
	s->seen_key = keys;
	s->seen_trial = trials;
	s->seen_cap = cap;
	return 0;
}

int tt_search_set_reserve(struct tt_search *s, int n)
{
	return (uint32_t)n * 2 > s->seen_cap ? set_grow(s) : 0;
}

void tt_search_set_put(struct tt_search *s, const uint32_t *w, int trial)
{
	uint64_t key = pack(w, s->cfg.nnodes);
	uint32_t i;

	for (i = slot_of(key, s->seen_cap); s->seen_trial[i]; i = (i + 1) & (s->seen_cap - 1))
		;
	s->seen_key[i] = key;
	s->seen_trial[i] = trial + 1;
}
