// SPDX-License-Identifier: GPL-3.0-or-later
/* An auto run's baselines as the machine would run without it (auto.h,
 * tt_auto_baselines): the kernel's auto mode computed as the kernel
 * computes it, the weights set by hand now, the fast tier alone; and the
 * nodes local to a source, which the fast tier, --nodes local, the other
 * sources' judgement and the per-source recipe take (here, not in auto.c:
 * auto.c calls this file, never the other way). */
#include "auto.h"

#include "../core/error.h"
#include "../core/wi.h"

#include <stdio.h>
#include <string.h>

/* The weights the kernel's auto mode holds (mm/mempolicy.c,
 * reduce_interleave_weights): one global table over every node with
 * memory, from the bandwidths node_set_perf_attrs reported (HMAT at boot,
 * a CXL region's CDAT at hotplug; both show as nodeN/access1), so a policy
 * over a subset uses the subset's entries of that table, not the formula
 * on the subset alone (--nodes 0,2 on 7.2: 11:4, not 0:22,2:9). With no
 * figure at all there is no table and every weight reads 1
 * (get_il_weight), whatever the prior measured. */
static void kernel_auto(struct tt_auto *c)
{
	struct tt_weights w;
	int node;

	c->prior.auto_nodes = tt_nodemask_weight(&c->t->mem_nodes);
	if (tt_weights_auto_topo(c->t, &w) == 0) {
		c->prior.auto_from = "hmat";
	} else {
		tt_weights_clear(&w);
		tt_nodemask_for_each (node, &c->t->mem_nodes)
			tt_weights_put(&w, node, 1);
		c->prior.auto_from = "no_hmat";
	}
	c->cfg.auto_w = w;
}

/* What the machine runs now: auto mode's weights where it is on, else the
 * weights the files hold (set by hand, or the kernel's 1 where no one
 * wrote), over the nodes searched. A vector the others already are is
 * no baseline of its own: the report names that one as "now". */
static void weights_now(struct tt_auto *c)
{
	const struct tt_wi_backend *be;
	struct tt_wi_state st;
	uint32_t now[TT_SEARCH_MAX_NODES], ones[TT_SEARCH_MAX_NODES], aw[TT_SEARCH_MAX_NODES];
	size_t n = (size_t)c->cfg.nnodes * sizeof(*now);

	c->prior.auto_mode = -1;
	tt_weights_clear(&c->cfg.now_w);
	if (tt_wi_pick(c->sfs, NULL, &be) < 0 || be->key != TT_WI_BY_NODE)
		return;
	tt_wi_state_init(&st);
	if (be->read(c->sfs, c->t, &st) < 0) {
		tt_wi_state_release(&st);
		return;
	}
	c->prior.auto_mode = st.auto_mode;
	tt_weights_clear(&c->prior.now_w);
	for (int k = 0; k < c->cfg.nnodes; k++) {
		now[k] = tt_weights_get(&st.node, c->cfg.nodes[k], 1);
		ones[k] = 1;
		aw[k] = tt_weights_get(&c->cfg.auto_w, c->cfg.nodes[k], 1);
		tt_weights_put(&c->prior.now_w, c->cfg.nodes[k], now[k]);
	}
	tt_wi_state_release(&st);
	tt_weights_reduce_array(now, c->cfg.nnodes);
	tt_weights_reduce_array(aw, c->cfg.nnodes);
	if (c->prior.auto_mode != 1 && memcmp(now, ones, n) && memcmp(now, aw, n))
		c->cfg.now_w = c->prior.now_w;
}

/* --nodes local: the memory nodes nearer (SLIT) to the source than to any
 * other CPU node, ties to the lower CPU node; so that --all-sources on a
 * two-socket machine tunes each socket over its own nodes, which upstream's
 * global weights can then hold together. */
void tt_auto_local_nodes(const struct tt_topo *t, int src, struct tt_nodemask *mask)
{
	memset(mask, 0, sizeof(*mask));
	for (int m = 0; m < t->nnodes; m++) {
		const struct tt_node *mn = &t->nodes[m];

		if (!mn->has_memory)
			continue;
		if (tt_topo_near_cpu(t, m) == src)
			tt_bit_set(mask->bits, (unsigned int)mn->id);
	}
}

/* A node faster than the source's DRAM, by the prior's figures from the
 * source, and nearer (SLIT) to it than to any other CPU node: flat-mode
 * HBM on a Xeon Max, whose user compares with binding there first. Five
 * per cent over the DRAM's figure: a measured profile's noise is some
 * three. */
static void fast_tier(struct tt_auto *c)
{
	struct tt_search_cfg *cfg = &c->cfg;
	struct tt_nodemask near;
	double local = 0, top = 0;

	cfg->fast_node = -1;
	tt_auto_local_nodes(c->t, c->req.source, &near);
	for (int k = 0; k < cfg->nnodes; k++)
		if (cfg->nodes[k] == cfg->local_node)
			local = cfg->prior_bw_bytes_s[k];
	if (!(local > 0))
		return;
	for (int k = 0; k < cfg->nnodes; k++)
		if (cfg->nodes[k] != cfg->local_node && tt_nodemask_test(&near, cfg->nodes[k]) &&
		    cfg->prior_bw_bytes_s[k] > 1.05 * local && cfg->prior_bw_bytes_s[k] > top) {
			top = cfg->prior_bw_bytes_s[k];
			cfg->fast_node = cfg->nodes[k];
		}
}

/* The baseline of kind k, or -1. */
static int base_of(const struct tt_report *r, enum tt_baseline k)
{
	for (int i = 0; i < r->nbaselines; i++)
		if (r->base[i].kind == k)
			return i;
	return -1;
}

/* What the machine runs now, among the baselines (the report's now_base,
 * the search's cfg.decide): auto mode where it is on; the weights set by
 * hand (their own baseline unless they are auto mode's vector); where the
 * files hold the kernel's 1s (no one set them) or there are none, local
 * memory, the default policy a program runs under until someone
 * interleaves it. A tt_baseline kind; -1: by tier, none. */
static int now_kind(const struct tt_auto *c)
{
	uint32_t now[TT_SEARCH_MAX_NODES];
	bool ones = true;

	if (c->tiers)
		return -1;
	if (c->prior.auto_mode == 1)
		return TT_BASE_AUTO;
	if (tt_weights_count(&c->cfg.now_w) > 0)
		return TT_BASE_NOW;
	if (!tt_nodemask_weight(&c->prior.now_w.set))
		return TT_BASE_LOCAL;
	for (int k = 0; k < c->cfg.nnodes; k++)
		now[k] = tt_weights_get(&c->prior.now_w, c->cfg.nodes[k], 1);
	tt_weights_reduce_array(now, c->cfg.nnodes);
	for (int k = 0; k < c->cfg.nnodes; k++)
		ones &= now[k] == 1;
	return ones ? TT_BASE_LOCAL : TT_BASE_AUTO;
}

int tt_auto_now_base(const struct tt_auto *c)
{
	int k = now_kind(c);

	return k < 0 ? -1 : base_of(&c->r, (enum tt_baseline)k);
}

void tt_auto_baselines(struct tt_auto *c)
{
	/* By tier the groups are tiers, which the kernel's node table does
	 * not key (the RFC has no auto mode): the formula on the tiers'
	 * figures, as before. */
	if (c->tiers)
		return;
	kernel_auto(c);
	weights_now(c);
	if (c->cfg.local_node >= 0)
		fast_tier(c);
	c->cfg.decide = now_kind(c);
}
