#include "recommend.h"

#include "error.h"
#include "wi.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int tt_recos_add(struct tt_recos *rs, int src, const char *interface, const char *weights,
		 double gain, const char *where)
{
	const struct tt_wi_backend *be = tt_wi_find(interface);
	struct tt_reco *r;
	int rc;

	if (rs->n == TT_RECO_MAX)
		return tt_err(TT_EINPUT, "%s: more than %d recommendations", where, TT_RECO_MAX);
	if (!be)
		return tt_err(TT_EINPUT, "%s: interface '%s' is neither upstream nor rfc", where,
			      interface);
	if (src < -1 || src >= TT_MAX_NODES)
		return tt_err(TT_EINPUT, "%s: source node %d out of range (0-%d)", where, src,
			      TT_MAX_NODES - 1);
	r = &rs->r[rs->n];
	r->source_node = src;
	snprintf(r->interface, sizeof(r->interface), "%s", interface);
	r->gain = gain;
	/* In the interface's own range before any conversion: tier weights
	 * 0-100 (the RFC's) even on their way to an upstream kernel. */
	rc = tt_weights_parse(weights, &r->w);
	if (rc == 0)
		rc = tt_weights_check_range_of(&r->w, be->min_weight, be->max_weight,
					       be->per_source ? "tier" : "node");
	if (rc < 0) {
		tt_err_prefix("%s", where);
		return rc;
	}
	rs->n++;
	return 0;
}

/* Tier weights for upstream: each tier's weight split over its memory
 * nodes as the RFC does (seed 003, memtier_get_node_weight). */
static void split_tiers(const struct tt_topo *t, const struct tt_weights *tiers,
			struct tt_weights *nodes)
{
	int tier, node;

	tt_weights_clear(nodes);
	tt_nodemask_for_each (tier, &tiers->set) {
		const struct tt_tier *tr = tt_topo_tier(t, tier);
		unsigned int k = 0;

		/* 0 leaves the tier out of the RFC's interleave; upstream has no
		 * weight 0, so its nodes stay out of the policy's nodes instead. */
		if (!tr || !tiers->w[tier])
			continue;
		tt_nodemask_for_each (node, &tr->nodes)
			k++;
		tt_nodemask_for_each (node, &tr->nodes)
			tt_weights_put(nodes, node, tt_rfc_split(tiers->w[tier], k));
	}
}

/* Node weights for the RFC: a tier weighs the sum of its nodes' weights
 * (the inverse of the split, exact when the nodes of a tier agree). */
static int sum_tiers(const struct tt_topo *t, const struct tt_weights *nodes,
		     struct tt_weights *tiers)
{
	int node;

	tt_weights_clear(tiers);
	tt_nodemask_for_each (node, &nodes->set) {
		const struct tt_node *n = tt_topo_node(t, node);

		if (!n || n->tier < 0)
			return tt_err(TT_EINPUT, "node %d is in no memory tier", node);
		tt_weights_put(tiers, n->tier, tt_weights_get(tiers, n->tier, 0) + nodes->w[node]);
	}
	return 0;
}

int tt_recos_convert(struct tt_recos *rs, const struct tt_topo *t, const char *interface)
{
	for (int i = 0; i < rs->n; i++) {
		struct tt_reco *r = &rs->r[i];
		struct tt_weights conv;
		int rc;

		if (strcmp(r->interface, interface) == 0)
			continue;
		if (strcmp(interface, "upstream") == 0) {
			split_tiers(t, &r->w, &conv);
		} else {
			if (r->source_node < 0)
				return tt_err(TT_EINPUT,
					      "the rfc interface holds weights per source "
					      "node: give --source-node N");
			rc = sum_tiers(t, &r->w, &conv);
			if (rc < 0)
				return rc;
		}
		r->w = conv;
		snprintf(r->interface, sizeof(r->interface), "%s", interface);
	}
	return 0;
}

int tt_recos_upstream(const struct tt_recos *rs, int src, struct tt_weights *out)
{
	int who[TT_MAX_NODES], node, used = 0;

	tt_weights_clear(out);
	for (int i = 0; i < rs->n; i++) {
		const struct tt_reco *r = &rs->r[i];

		if (strcmp(r->interface, "upstream") ||
		    (src >= 0 && r->source_node != src && r->source_node >= 0))
			continue;
		used++;
		tt_nodemask_for_each (node, &r->w.set) {
			if (tt_nodemask_test(&out->set, node) && out->w[node] != r->w.w[node]) {
				tt_err(TT_EINPUT,
				       "source nodes %d and %d want node %d at weights %u and %u, "
				       "and "
				       "upstream kernels hold one global weight per node",
				       who[node], r->source_node, node, out->w[node], r->w.w[node]);
				tt_err_hint(
					"pick one with --source-node N (the other sources will use "
					"its weights too)");
				return TT_EINPUT;
			}
			tt_weights_put(out, node, r->w.w[node]);
			who[node] = r->source_node;
		}
	}
	if (!used)
		return src >= 0 ? tt_err(TT_EINPUT, "no upstream recommendation for source node %d",
					 src)
				: tt_err(TT_EINPUT, "no upstream recommendation to apply");
	return 0;
}
