// SPDX-License-Identifier: GPL-3.0-or-later
#include "weights.h"

#include "error.h"
#include "parse.h"
#include "topo.h"

#include <errno.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

void tt_weights_clear(struct tt_weights *ws)
{
	memset(&ws->set, 0, sizeof(ws->set));
	ws->nbig = 0;
}

int tt_weights_put(struct tt_weights *ws, int id, uint32_t w)
{
	int i;

	if (id < 0 || id > TT_MAX_TIER_ID)
		return tt_err(TT_EINPUT, "id %d out of range (0-%d)", id, TT_MAX_TIER_ID);
	if (id < TT_MAX_NODES) {
		tt_bit_set(ws->set.bits, (unsigned int)id);
		ws->w[id] = w;
		return 0;
	}
	for (i = 0; i < ws->nbig && ws->big[i].id < id; i++)
		;
	if (i < ws->nbig && ws->big[i].id == id) {
		ws->big[i].w = w;
		return 0;
	}
	if (ws->nbig == TT_WEIGHTS_BIG)
		return tt_err(TT_EINPUT, "more than %d ids from %d up in one weight vector",
			      TT_WEIGHTS_BIG, TT_MAX_NODES);
	memmove(&ws->big[i + 1], &ws->big[i], (size_t)(ws->nbig - i) * sizeof(ws->big[0]));
	ws->big[i].id = id;
	ws->big[i].w = w;
	ws->nbig++;
	return 0;
}

static int big_index(const struct tt_weights *ws, int id)
{
	for (int i = 0; i < ws->nbig; i++)
		if (ws->big[i].id == id)
			return i;
	return -1;
}

bool tt_weights_has(const struct tt_weights *ws, int id)
{
	return id < TT_MAX_NODES ? tt_nodemask_test(&ws->set, id) : big_index(ws, id) >= 0;
}

uint32_t tt_weights_get(const struct tt_weights *ws, int id, uint32_t dflt)
{
	int i;

	if (id < TT_MAX_NODES)
		return tt_nodemask_test(&ws->set, id) ? ws->w[id] : dflt;
	i = big_index(ws, id);
	return i >= 0 ? ws->big[i].w : dflt;
}

int tt_weights_count(const struct tt_weights *ws)
{
	return tt_nodemask_weight(&ws->set) + ws->nbig;
}

int tt_weights_next(const struct tt_weights *ws, int after)
{
	if (after + 1 < TT_MAX_NODES) {
		int b = tt_bit_next(ws->set.bits, TT_MAX_NODES, (unsigned int)(after + 1));

		if (b < TT_MAX_NODES)
			return b;
	}
	for (int i = 0; i < ws->nbig; i++)
		if (ws->big[i].id > after)
			return ws->big[i].id;
	return -1;
}

int tt_weights_parse(const char *s, struct tt_weights *out)
{
	return tt_weights_parse_ids(s, TT_MAX_NODES - 1, out);
}

int tt_weights_parse_ids(const char *s, int max_id, struct tt_weights *out)
{
	const char *p = s;

	tt_weights_clear(out);
	if (!*p)
		return tt_err(TT_EINPUT,
			      "weights '' are empty (want NODE:WEIGHT,... e.g. 0:5,1:2)");
	for (;;) {
		uint64_t node, w;
		int rc = tt_parse_u64_prefix(p, 0, UINT64_MAX, &node, &p);

		if (rc || *p != ':')
			return tt_err(TT_EINPUT,
				      "weights '%s' are malformed (want NODE:WEIGHT,... e.g. "
				      "0:5,1:2)",
				      s);
		if (node > (uint64_t)max_id)
			return tt_err(TT_EINPUT, "%s '%ju' in weights '%s' out of range (0-%d)",
				      max_id < TT_MAX_NODES ? "node" : "id", (uintmax_t)node, s,
				      max_id);
		rc = tt_parse_u64_prefix(p + 1, 0, UINT64_MAX, &w, &p);
		if (rc == -ERANGE || (rc == 0 && w > UINT32_MAX))
			return tt_err(TT_EINPUT, "weight for node %ju in weights '%s' is too large",
				      (uintmax_t)node, s);
		if (rc || (*p != ',' && *p != '\0'))
			return tt_err(TT_EINPUT,
				      "weights '%s' are malformed (want NODE:WEIGHT,... e.g. "
				      "0:5,1:2)",
				      s);
		if (tt_weights_has(out, (int)node))
			return tt_err(TT_EINPUT, "node %ju appears twice in weights '%s'",
				      (uintmax_t)node, s);
		rc = tt_weights_put(out, (int)node, (uint32_t)w);
		if (rc < 0)
			return rc;
		if (*p == '\0')
			return 0;
		p++;
	}
}

int tt_weights_format(const struct tt_weights *ws, char *buf, unsigned long size)
{
	unsigned long len = 0;
	int node;

	if (size == 0)
		return tt_err(TT_EINPUT, "no room to format weights");
	buf[0] = '\0';
	tt_weights_for_each(node, ws)
	{
		int n = snprintf(buf + len, size - len, "%s%d:%u", len ? "," : "", node,
				 tt_weights_get(ws, node, 0));

		if (n < 0 || (unsigned long)n >= size - len)
			return tt_err(TT_EINPUT, "no room to format weights");
		len += (unsigned long)n;
	}
	return (int)len;
}

int tt_weights_check_range_of(const struct tt_weights *ws, uint32_t min, uint32_t max,
			      const char *what)
{
	int id;

	tt_weights_for_each(id, ws)
	{
		uint32_t w = tt_weights_get(ws, id, 0);

		if (w < min || w > max)
			return tt_err(TT_EINPUT, "weight '%u' for %s %d out of range (%u-%u)", w,
				      what, id, min, max);
	}
	return 0;
}

int tt_weights_check_range(const struct tt_weights *ws, uint32_t min, uint32_t max)
{
	return tt_weights_check_range_of(ws, min, max, "node");
}

uint32_t tt_gcd(uint32_t a, uint32_t b)
{
	while (b) {
		uint32_t r = a % b;

		a = b;
		b = r;
	}
	return a;
}

uint32_t tt_weights_reduce_array(uint32_t *w, int n)
{
	uint32_t g = 0;

	for (int i = 0; i < n; i++)
		g = tt_gcd(g, w[i]);
	if (g > 1)
		for (int i = 0; i < n; i++)
			w[i] /= g;
	return g;
}

uint32_t tt_weights_reduce(struct tt_weights *ws)
{
	uint32_t w[TT_MAX_NODES + TT_WEIGHTS_BIG];
	int id, n = 0, k = 0;

	tt_weights_for_each(id, ws) w[n++] = tt_weights_get(ws, id, 0);
	uint32_t g = tt_weights_reduce_array(w, n);

	tt_weights_for_each(id, ws) tt_weights_put(ws, id, w[k++]);
	return g;
}

int tt_weights_quantize(const int *nodes, const double *share, int n, uint32_t max,
			struct tt_weights *out)
{
	double total = 0, top = 0, best_err = INFINITY;
	uint32_t best_m = 1;

	if (n <= 0 || max == 0)
		return tt_err(TT_EINPUT, "nothing to quantize");
	for (int i = 0; i < n; i++) {
		if (!(share[i] >= 0) || !isfinite(share[i]))
			return tt_err(TT_EINPUT,
				      "share %g for node %d is not a non-negative number", share[i],
				      nodes[i]);
		total += share[i];
		if (share[i] > top)
			top = share[i];
	}
	if (!(total > 0))
		return tt_err(TT_EINPUT, "shares sum to zero");
	for (uint32_t m = 1; m <= max; m++) {
		double wsum = 0, err = 0;
		uint32_t w[TT_MAX_NODES];

		for (int i = 0; i < n; i++) {
			double x = lround(share[i] / top * m);

			w[i] = x < 1 ? 1 : (uint32_t)x;
			wsum += w[i];
		}
		for (int i = 0; i < n; i++)
			err += fabs(w[i] / wsum - share[i] / total);
		/* A relative margin keeps float noise from preferring a larger m. */
		if (err < best_err * (1 - 1e-9)) {
			best_err = err;
			best_m = m;
		}
	}
	tt_weights_clear(out);
	for (int i = 0; i < n; i++) {
		double x = lround(share[i] / top * best_m);

		tt_weights_put(out, nodes[i], x < 1 ? 1 : (uint32_t)x);
	}
	tt_weights_reduce(out);
	return 0;
}

void tt_weights_auto(const int *nodes, const uint32_t *bw, int n, struct tt_weights *out)
{
	uint64_t sum = 0;

	tt_weights_clear(out);
	for (int i = 0; i < n; i++)
		sum += bw[i];
	for (int i = 0; i < n; i++) {
		/* u32 like the kernel's scaling_factor, wrap included. */
		uint32_t sf = TT_WEIGHTINESS * bw[i];

		tt_weights_put(out, nodes[i], bw[i] && sum < sf ? sf / (uint32_t)sum : 1);
	}
	tt_weights_reduce(out);
}

int tt_weights_auto_topo(const struct tt_topo *t, struct tt_weights *out)
{
	int nodes[TT_MAX_NODES], n = 0, node;
	uint32_t bw[TT_MAX_NODES];
	bool any = false;

	tt_nodemask_for_each (node, &t->mem_nodes) {
		nodes[n] = node;
		bw[n] = (uint32_t)tt_hmat_auto_bw_mb_s(tt_topo_node(t, node));
		any |= bw[n] != 0;
		n++;
	}
	if (!any)
		return tt_err(TT_EUNAVAIL, "no memory node has HMAT access1 bandwidth");
	tt_weights_auto(nodes, bw, n, out);
	return 0;
}

uint32_t tt_rfc_split(uint32_t tier_weight, unsigned int nodes_in_tier_and_policy)
{
	if (nodes_in_tier_and_policy == 0)
		return tier_weight;
	return tier_weight / nodes_in_tier_and_policy +
	       (tier_weight % nodes_in_tier_and_policy ? 1 : 0);
}

uint32_t tt_rfc_share(uint32_t tier_weight, unsigned int n, unsigned int pos)
{
	(void)pos;
	return tt_rfc_split(tier_weight, n);
}

uint32_t tt_rfcv1_split(uint32_t tier_weight, unsigned int n, unsigned int pos)
{
	uint32_t q;

	if (n == 0)
		return tier_weight ? tier_weight : 1;
	q = tier_weight / n;
	/* "if (!avrg_weight) return 1;" comes before the remainder. */
	if (q == 0)
		return 1;
	return q + (pos < tier_weight % n ? 1 : 0);
}
