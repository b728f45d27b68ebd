// SPDX-License-Identifier: GPL-3.0-or-later
#include "recommend.h"

#include "error.h"
#include "wi.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int tt_recos_max_id(enum tt_wi_key key)
{
	return key == TT_WI_BY_TIER ? TT_MAX_TIER_ID : TT_MAX_NODES - 1;
}

/* What every recommendation added is checked for before its weights:
 * room, its interface, its source. */
static int add_check(const struct tt_recos *rs, int src, const char *interface,
		     const struct tt_wi_backend *be, const char *where)
{
	char names[256];

	if (rs->n == TT_RECO_MAX)
		return tt_err(TT_EINPUT, "%s: more than %d recommendations", where, TT_RECO_MAX);
	if (!be)
		return tt_err(TT_EINPUT, "%s: interface '%s' is not one of %s", where, interface,
			      tt_wi_names(", ", names, sizeof(names)));
	if (src < -1 || src >= TT_MAX_NODES)
		return tt_err(TT_EINPUT, "%s: source node %d out of range (0-%d)", where, src,
			      TT_MAX_NODES - 1);
	return 0;
}

/* The recommendation with weights w (ids checked where they were read),
 * its weights in the interface's own range before any conversion: tier
 * weights in the tier interface's range even on their way to a node-keyed
 * one. */
static int add(struct tt_recos *rs, int src, const char *interface, const struct tt_wi_backend *be,
	       const struct tt_weights *w, double gain, const char *where)
{
	struct tt_reco *r = &rs->r[rs->n];
	int rc;

	r->source_node = src;
	snprintf(r->interface, sizeof(r->interface), "%s", interface);
	r->gain = gain;
	r->w = *w;
	rc = tt_weights_check_range_of(&r->w, be->min_weight, be->max_weight, be->unit);
	if (rc < 0) {
		tt_err_prefix("%s", where);
		return rc;
	}
	rs->n++;
	return 0;
}

int tt_recos_add(struct tt_recos *rs, int src, const char *interface, const char *weights,
		 double gain, const char *where)
{
	const struct tt_wi_backend *be = tt_wi_find(interface);
	struct tt_weights w;
	int rc = add_check(rs, src, interface, be, where);

	if (rc < 0)
		return rc;
	rc = tt_weights_parse_ids(weights, tt_recos_max_id(be->key), &w);
	if (rc < 0) {
		tt_err_prefix("%s", where);
		return rc;
	}
	return add(rs, src, interface, be, &w, gain, where);
}

int tt_recos_add_weights(struct tt_recos *rs, int src, const char *interface,
			 const struct tt_weights *w, double gain, const char *where)
{
	const struct tt_wi_backend *be = tt_wi_find(interface);
	int rc = add_check(rs, src, interface, be, where);

	return rc < 0 ? rc : add(rs, src, interface, be, w, gain, where);
}

int tt_recos_check_present(const struct tt_recos *rs, const struct tt_topo *t, const char *what)
{
	char online[256];
	int id;
	/* Another CPU model is another machine, whatever memory nodes it has:
	 * the fingerprint check (tt_recos_check_machine) says so, naming both,
	 * and --force takes its weights as they are (the interface then
	 * refuses a node it has no file for). */
	bool other = rs->cpu_model[0] && t->cpu_model[0] && strcmp(rs->cpu_model, t->cpu_model);

	tt_bit_format_list(t->online.bits, TT_MAX_NODES, online, sizeof(online));
	for (int i = 0; i < rs->n; i++) {
		const struct tt_reco *r = &rs->r[i];
		const struct tt_wi_backend *be = tt_wi_find(r->interface);

		/* Even with --force: weights for tasks on a node this machine
		 * does not have would be applied for the nodes it has (a global
		 * interface), or nowhere (a per-source one), and said nowhere. */
		if (r->source_node >= 0 && !tt_nodemask_test(&t->online, r->source_node))
			return tt_err(TT_EUNAVAIL,
				      "%s names source node %d, which is not online (online: %s): "
				      "nothing written",
				      what, r->source_node, online);
		if (other)
			continue;
		tt_weights_for_each(id, &r->w)
		{
			if (be && be->key == TT_WI_BY_TIER ? tt_topo_tier(t, id) != NULL
							   : tt_nodemask_test(&t->online, id))
				continue;
			if (be && be->key == TT_WI_BY_TIER)
				return tt_err(TT_EUNAVAIL,
					      "%s names memory tier %d, which this machine does "
					      "not have: nothing written",
					      what, id);
			tt_err(TT_EUNAVAIL,
			       "%s names node %d, which is not online (online: %s): "
			       "nothing written",
			       what, id, online);
			tt_err_hint("memory onlined after boot (CXL through dax/kmem) makes its "
				    "node then; the hardware fingerprint is checked once every "
				    "node is there (tiertune-apply.service runs again when memory "
				    "comes online)");
			return TT_EUNAVAIL;
		}
	}
	return 0;
}

/* Tier weights for a node-keyed interface: each tier's weight split over
 * its memory nodes as the per-tier kernel does (seed 003,
 * memtier_get_node_weight). */
static void split_tiers(const struct tt_topo *t, const struct tt_weights *tiers,
			const struct tt_wi_backend *from, struct tt_weights *nodes)
{
	int tier, node;

	tt_weights_clear(nodes);
	tt_weights_for_each(tier, tiers)
	{
		const struct tt_tier *tr = tt_topo_tier(t, tier);
		uint32_t tw = tt_weights_get(tiers, tier, 0);
		unsigned int k = 0, pos = 0;

		/* 0 leaves the tier out of the RFC's interleave; upstream has no
		 * weight 0, so its nodes stay out of the policy's nodes instead. */
		if (!tr || !tw)
			continue;
		tt_nodemask_for_each (node, &tr->nodes)
			k++;
		tt_nodemask_for_each (node, &tr->nodes)
			/* As the tier's interface splits it (the two RFCs
			 * round differently). */
			tt_weights_put(nodes, node,
				       from->node_share ? from->node_share(tw, k, pos++)
							: tt_rfc_split(tw, k));
	}
}

/* Node weights for a tier-keyed interface: a tier weighs the sum of its nodes' weights
 * (the inverse of the split, exact when the nodes of a tier agree). */
static int sum_tiers(const struct tt_topo *t, const struct tt_weights *nodes,
		     struct tt_weights *tiers)
{
	int node, rc;

	tt_weights_clear(tiers);
	tt_nodemask_for_each (node, &nodes->set) {
		const struct tt_node *n = tt_topo_node(t, node);

		if (!n || n->tier < 0)
			return tt_err(TT_EINPUT, "node %d is in no memory tier", node);
		rc = tt_weights_put(tiers, n->tier,
				    tt_weights_get(tiers, n->tier, 0) + nodes->w[node]);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int tt_recos_convert(struct tt_recos *rs, const struct tt_topo *t, const struct tt_wi_backend *be)
{
	for (int i = 0; i < rs->n; i++) {
		struct tt_reco *r = &rs->r[i];
		const struct tt_wi_backend *from = tt_wi_find(r->interface);
		struct tt_weights conv;
		int rc;

		if (!from || from->key == be->key) {
			conv = r->w;
		} else if (be->key == TT_WI_BY_NODE) {
			split_tiers(t, &r->w, from, &conv);
		} else {
			if (be->per_source && r->source_node < 0)
				return tt_err(TT_EINPUT,
					      "the %s interface holds weights per source "
					      "node: give --source-node N",
					      be->name);
			rc = sum_tiers(t, &r->w, &conv);
			if (rc < 0)
				return rc;
		}
		r->w = conv;
		snprintf(r->interface, sizeof(r->interface), "%s", be->name);
	}
	return 0;
}

int tt_recos_merged(const struct tt_recos *rs, const struct tt_wi_backend *be, int src,
		    struct tt_weights *out)
{
	/* Which source gave each id its weight, as source + 1 (0: none), keyed
	 * like the weights (tier ids run past any array). */
	struct tt_weights who;
	int id, used = 0;

	tt_weights_clear(out);
	tt_weights_clear(&who);
	for (int i = 0; i < rs->n; i++) {
		const struct tt_reco *r = &rs->r[i];

		if (strcmp(r->interface, be->name) ||
		    (src >= 0 && r->source_node != src && r->source_node >= 0))
			continue;
		used++;
		tt_weights_for_each(id, &r->w)
		{
			uint32_t have = tt_weights_get(out, id, 0),
				 want = tt_weights_get(&r->w, id, 0);
			int from = (int)tt_weights_get(&who, id, 0) - 1;

			if (tt_weights_has(out, id) && have != want) {
				char x[32] = "no source node", y[32] = "no source node";

				/* -1 is no node: say so rather than "source node -1". */
				if (from >= 0)
					snprintf(x, sizeof(x), "source node %d", from);
				if (r->source_node >= 0)
					snprintf(y, sizeof(y), "source node %d", r->source_node);
				if (from >= 0 && r->source_node >= 0)
					tt_err(TT_EINPUT,
					       "source nodes %d and %d want %s %d at weights %u "
					       "and "
					       "%u, and %s kernels hold one global weight per %s",
					       from, r->source_node, be->unit, id, have, want,
					       be->name, be->unit);
				else
					tt_err(TT_EINPUT,
					       "two recommendations (%s, %s) want %s %d at weights "
					       "%u and %u, and %s kernels hold one global weight "
					       "per %s",
					       x, y, be->unit, id, have, want, be->name, be->unit);
				tt_err_hint(
					"pick one with --source-node N (the other sources will use "
					"its weights too)");
				return TT_EINPUT;
			}
			tt_weights_put(out, id, want);
			tt_weights_put(&who, id, (uint32_t)(r->source_node + 1));
		}
	}
	if (!used)
		return src >= 0 ? tt_err(TT_EINPUT, "no %s recommendation for source node %d",
					 be->name, src)
				: tt_err(TT_EINPUT, "no %s recommendation to apply", be->name);
	return 0;
}
