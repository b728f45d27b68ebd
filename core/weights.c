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
}

void tt_weights_put(struct tt_weights *ws, int node, uint32_t w)
{
	tt_bit_set(ws->set.bits, (unsigned int)node);
	ws->w[node] = w;
}

uint32_t tt_weights_get(const struct tt_weights *ws, int node, uint32_t dflt)
{
	return tt_nodemask_test(&ws->set, node) ? ws->w[node] : dflt;
}

int tt_weights_parse(const char *s, struct tt_weights *out)
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
		if (node >= TT_MAX_NODES)
			return tt_err(TT_EINPUT, "node '%ju' in weights '%s' out of range (0-%d)",
				      (uintmax_t)node, s, TT_MAX_NODES - 1);
		rc = tt_parse_u64_prefix(p + 1, 0, UINT64_MAX, &w, &p);
		if (rc == -ERANGE || (rc == 0 && w > UINT32_MAX))
			return tt_err(TT_EINPUT, "weight for node %ju in weights '%s' is too large",
				      (uintmax_t)node, s);
		if (rc || (*p != ',' && *p != '\0'))
			return tt_err(TT_EINPUT,
				      "weights '%s' are malformed (want NODE:WEIGHT,... e.g. "
				      "0:5,1:2)",
				      s);
		if (tt_nodemask_test(&out->set, (int)node))
			return tt_err(TT_EINPUT, "node %ju appears twice in weights '%s'",
				      (uintmax_t)node, s);
		tt_weights_put(out, (int)node, (uint32_t)w);
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
	tt_nodemask_for_each (node, &ws->set) {
		int n = snprintf(buf + len, size - len, "%s%d:%u", len ? "," : "", node,
				 ws->w[node]);

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

	tt_nodemask_for_each (id, &ws->set) {
		if (ws->w[id] < min || ws->w[id] > max)
			return tt_err(TT_EINPUT, "weight '%u' for %s %d out of range (%u-%u)",
				      ws->w[id], what, id, min, max);
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
	uint32_t w[TT_MAX_NODES];
	int node, n = 0, k = 0;

	tt_nodemask_for_each (node, &ws->set)
		w[n++] = ws->w[node];
	uint32_t g = tt_weights_reduce_array(w, n);

	tt_nodemask_for_each (node, &ws->set)
		ws->w[node] = w[k++];
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
