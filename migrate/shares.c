// SPDX-License-Identifier: GPL-3.0-or-later
/* Shares and the plan: per-node basis points by the largest remainder,
 * the targets a scan is held to, and which unit goes where (the fewest moves,
 * or the kernel's interleave order). */
#include "rebalance.h"

#include "../core/error.h"
#include "../core/interleave.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

int tt_rb_apportion(uint64_t total, const uint64_t *w, int n, uint64_t *out)
{
	unsigned __int128 sum = 0, given = 0;
	uint64_t *rem;

	if (n < 1)
		return tt_err(TT_EINPUT, "nothing to apportion");
	for (int i = 0; i < n; i++)
		sum += w[i];
	if (!sum) {
		memset(out, 0, (size_t)n * sizeof(*out));
		return 0;
	}
	rem = calloc((size_t)n, sizeof(*rem));
	if (!rem)
		return tt_err(TT_EFAIL, "out of memory");
	for (int i = 0; i < n; i++) {
		unsigned __int128 p = (unsigned __int128)total * w[i];

		out[i] = (uint64_t)(p / sum);
		rem[i] = (uint64_t)(p % sum);
		given += out[i];
	}
	/* Hamilton: the units left, one each, to the largest remainders; an
	 * equal remainder goes to the lower index (the lower node id). */
	for (uint64_t left = total - (uint64_t)given; left; left--) {
		int best = -1;

		for (int i = 0; i < n; i++)
			if (w[i] && rem[i] != UINT64_MAX && (best < 0 || rem[i] > rem[best]))
				best = i;
		out[best]++;
		rem[best] = UINT64_MAX; /* taken */
	}
	free(rem);
	return 0;
}

/* The interleave cycle's slots per node, as u64 indexed like o->node. */
static int cycle(const struct tt_weights *w, struct tt_il_order *o, uint64_t *counts)
{
	int rc = tt_il_order_nodes(o, &w->set, w);

	return rc < 0 ? rc : tt_il_cycle_counts(o, counts);
}

static int apportion_nodes(uint64_t total, const struct tt_weights *w, uint64_t *per_node)
{
	struct tt_il_order *o = malloc(sizeof(*o));
	uint64_t counts[TT_MAX_NODES], out[TT_MAX_NODES];
	int rc = o ? cycle(w, o, counts) : tt_err(TT_EFAIL, "out of memory");

	if (rc == 0)
		rc = tt_rb_apportion(total, counts, o->n, out);
	memset(per_node, 0, TT_MAX_NODES * sizeof(*per_node));
	for (int i = 0; rc == 0 && i < o->n; i++)
		per_node[o->node[i]] = out[i];
	free(o);
	return rc;
}

int tt_rb_shares_bp(const struct tt_weights *w, uint32_t *bp)
{
	uint64_t per[TT_MAX_NODES];
	int rc = apportion_nodes(TT_RB_BP, w, per);

	for (int i = 0; i < TT_MAX_NODES; i++)
		bp[i] = rc == 0 ? (uint32_t)per[i] : 0;
	return rc;
}

int tt_rb_targets(const struct tt_rb_counts *cur, const struct tt_weights *w, uint64_t *want)
{
	return apportion_nodes(cur->total, w, want);
}

double tt_rb_off_bp(const struct tt_rb_counts *cur, const uint64_t *want)
{
	double worst = 0;

	if (!cur->total)
		return 0;
	for (int i = 0; i < TT_MAX_NODES; i++) {
		uint64_t a = cur->pages[i], b = want[i];
		double off = (double)(a > b ? a - b : b - a) * TT_RB_BP / (double)cur->total;

		if (off > worst)
			worst = off;
	}
	return worst;
}

/* The deficit node with the most left (ties: the lower id), -1 for none. */
static int most_wanted(const int64_t *def, const int *nodes, int n)
{
	int best = -1;

	for (int k = 0; k < n; k++)
		if (def[nodes[k]] > 0 && (best < 0 || def[nodes[k]] > def[best]))
			best = nodes[k];
	return best;
}

/* Nodes short of their target, ascending, and how short (signed: a node
 * given more than it lacked goes negative). */
static int deficits(const struct tt_rb_counts *cur, const uint64_t *want, int64_t *def, int *nodes)
{
	int n = 0;

	for (int i = 0; i < TT_MAX_NODES; i++) {
		def[i] = (int64_t)want[i] - (int64_t)cur->pages[i];
		if (def[i] > 0)
			nodes[n++] = i;
	}
	return n;
}

int tt_rb_flows(const struct tt_rb_counts *cur, const uint64_t *want, struct tt_rb_flow *f, int max)
{
	int64_t def[TT_MAX_NODES];
	int nodes[TT_MAX_NODES], nd = deficits(cur, want, def, nodes), nf = 0;

	for (int s = 0; s < TT_MAX_NODES; s++) {
		uint64_t surplus = cur->pages[s] > want[s] ? cur->pages[s] - want[s] : 0;

		while (surplus) {
			int d = most_wanted(def, nodes, nd);
			uint64_t k;

			if (d < 0)
				break;
			k = (uint64_t)def[d] < surplus ? (uint64_t)def[d] : surplus;
			if (nf < max)
				f[nf++] = (struct tt_rb_flow){ .from = s, .to = d, .pages = k };
			def[d] -= (int64_t)k;
			surplus -= k;
		}
	}
	return nf;
}

/* One pass of the shares plan over the units of one kind (huge or not):
 * node s gives x[s] pages, taken evenly over its tot[s] pages of this kind
 * in address order (the unit that takes the moved count closest to the
 * even line x * seen / tot goes), each to the node with most left to
 * receive. */
static uint64_t shares_pass(const struct tt_rb_unit *u, size_t n, bool huge, int64_t *x,
			    int64_t *def, const int *nodes, int nd, int *dest)
{
	uint64_t tot[TT_MAX_NODES], seen[TT_MAX_NODES], moved[TT_MAX_NODES];
	uint64_t planned = 0;

	memset(tot, 0, sizeof(tot));
	memset(seen, 0, sizeof(seen));
	memset(moved, 0, sizeof(moved));
	for (size_t i = 0; i < n; i++)
		if (u[i].huge == huge && u[i].node >= 0 && !u[i].stuck)
			tot[u[i].node] += u[i].pages;
	for (size_t i = 0; i < n; i++) {
		int s = u[i].node, d;
		unsigned __int128 line;

		if (u[i].huge != huge || s < 0 || x[s] <= 0 || dest[i] >= 0 || u[i].stuck)
			continue;
		seen[s] += u[i].pages;
		/* Moved so far should follow x * seen / tot; the unit goes when
		 * that brings the count nearer the line (within half a unit). */
		line = (unsigned __int128)(uint64_t)x[s] * seen[s] * 2;
		if ((unsigned __int128)(moved[s] * 2 + u[i].pages) * tot[s] > line)
			continue;
		d = most_wanted(def, nodes, nd);
		if (d < 0 || (uint64_t)def[d] * 2 < u[i].pages)
			continue;
		dest[i] = d;
		def[d] -= u[i].pages;
		moved[s] += u[i].pages;
		planned += u[i].pages;
	}
	for (int s = 0; s < TT_MAX_NODES; s++)
		x[s] -= (int64_t)moved[s];
	return planned;
}

static int64_t plan_interleave(const struct tt_rb_unit *u, size_t n, const struct tt_weights *w,
			       int *dest)
{
	struct tt_il_order *o = malloc(sizeof(*o));
	int64_t planned = 0;
	int rc = o ? tt_il_order_nodes(o, &w->set, w) : tt_err(TT_EFAIL, "out of memory");

	for (size_t i = 0; rc == 0 && i < n; i++) {
		/* The vma walk's index: private anonymous memory's page number
		 * in units of the folio's size (mm/mempolicy.c interleave_index
		 * via vma->vm_pgoff, which is addr >> PAGE_SHIFT there). */
		unsigned int shift = TT_PAGE_SHIFT;
		int node;

		for (uint32_t p = u[i].pages; p > 1; p >>= 1)
			shift++;
		node = tt_il_vma_node(o, u[i].addr >> shift);
		if (node < 0)
			rc = node;
		else if (node != u[i].node && !u[i].stuck) {
			dest[i] = node;
			planned += u[i].pages;
		}
	}
	free(o);
	return rc < 0 ? rc : planned;
}

int64_t tt_rb_plan(const struct tt_rb_unit *u, size_t n, const uint64_t *want,
		   enum tt_rb_order order, const struct tt_weights *w, int *dest)
{
	struct tt_rb_counts *cur;
	int64_t *def, *x, planned = 0;
	int *nodes, nd;

	for (size_t i = 0; i < n; i++)
		dest[i] = -1;
	if (order == TT_RB_INTERLEAVE)
		return plan_interleave(u, n, w, dest);
	cur = calloc(1, sizeof(*cur));
	def = calloc(TT_MAX_NODES, sizeof(*def));
	x = calloc(TT_MAX_NODES, sizeof(*x));
	nodes = calloc(TT_MAX_NODES, sizeof(*nodes));
	if (!cur || !def || !x || !nodes) {
		planned = tt_err(TT_EFAIL, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		if (u[i].node >= 0) {
			cur->pages[u[i].node] += u[i].pages;
			cur->total += u[i].pages;
		}
	nd = deficits(cur, want, def, nodes);
	for (int s = 0; s < TT_MAX_NODES; s++)
		x[s] = cur->pages[s] > want[s] ? (int64_t)(cur->pages[s] - want[s]) : 0;
	/* Huge pages first (one call moves 512 pages), then 4 KiB pages to
	 * make up what is left. */
	planned += (int64_t)shares_pass(u, n, true, x, def, nodes, nd, dest);
	planned += (int64_t)shares_pass(u, n, false, x, def, nodes, nd, dest);
out:
	free(cur);
	free(def);
	free(x);
	free(nodes);
	return planned;
}

/* cur with the planned moves made. */
static void planned_counts(const struct tt_rb_unit *u, size_t n, const int *dest,
			   struct tt_rb_counts *c)
{
	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < n; i++) {
		int at = dest[i] >= 0 ? dest[i] : u[i].node;

		if (at < 0)
			continue;
		c->pages[at] += u[i].pages;
		c->total += u[i].pages;
	}
}

int tt_rb_fit(const struct tt_rb_unit *u, size_t n, const int *dest, const uint64_t *want,
	      const struct tt_weights *w, struct tt_rb_fit *fit)
{
	struct tt_rb_counts *c = malloc(sizeof(*c));
	int *alt = malloc((n ? n : 1) * sizeof(*alt));
	int64_t planned;
	int rc = 0;

	memset(fit, 0, sizeof(*fit));
	if (!c || !alt) {
		rc = tt_err(TT_EFAIL, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		fit->huge += u[i].huge;
	planned_counts(u, n, dest, c);
	fit->off_bp = tt_rb_off_bp(c, want);
	planned = tt_rb_plan(u, n, want, TT_RB_SHARES, w, alt);
	if (planned < 0) {
		rc = (int)planned;
		goto out;
	}
	planned_counts(u, n, alt, c);
	fit->shares_off_bp = tt_rb_off_bp(c, want);
out:
	free(c);
	free(alt);
	return rc;
}
