// SPDX-License-Identifier: GPL-3.0-or-later
#include "interleave.h"

#include "error.h"

#include <stdbool.h>
#include <string.h>

int tt_il_order_nodes(struct tt_il_order *o, const struct tt_nodemask *mask,
		      const struct tt_weights *w)
{
	int node;

	o->n = 0;
	o->sum = 0;
	tt_nodemask_for_each (node, mask) {
		uint32_t wt = tt_weights_get(w, node, 1);

		o->node[o->n] = node;
		o->weight[o->n] = wt ? wt : 1;
		o->sum += o->weight[o->n];
		o->n++;
	}
	if (o->n == 0)
		return tt_err(TT_EINPUT, "the policy's node mask is empty");
	o->total = o->sum;
	o->ilx32 = false;
	o->by_position = false;
	return 0;
}

/* How a per-tier kernel turns its tier's weight into a node's: the two RFCs
 * differ only in these, so they share one walk (below). */
struct tier_rule {
	uint32_t width;	   /* the weight's storage: u8 in RFC v2, u16 in v1 */
	uint32_t untiered; /* a node in no tier: 1 (v2), no slot (v1) */
	uint32_t (*share)(uint32_t tier_weight, unsigned int n, unsigned int pos);
	bool total_at_least_n; /* memtier_get_total_weight (v2) */
	bool by_position;      /* v1's vma walk counts slots by position */
};

static int order_by_tier(struct tt_il_order *o, const struct tt_nodemask *mask,
			 const struct tt_topo *t, const uint32_t *tier_weight,
			 const struct tier_rule *r)
{
	int node;

	o->n = 0;
	o->sum = 0;
	tt_nodemask_for_each (node, mask) {
		const struct tt_node *tn = tt_topo_node(t, node);
		uint32_t wt = r->untiered;

		for (int i = 0; tn && i < t->ntiers; i++) {
			unsigned int n = 0, pos = 0;
			int m;

			if (t->tiers[i].id != tn->tier)
				continue;
			tt_nodemask_for_each (m, &t->tiers[i].nodes) {
				if (!tt_nodemask_test(mask, m))
					continue;
				pos += m < node;
				n++;
			}
			wt = r->share(tier_weight[i] & r->width, n, pos) & r->width;
		}
		o->node[o->n] = node;
		o->weight[o->n] = wt;
		o->sum += wt;
		o->n++;
	}
	if (o->n == 0)
		return tt_err(TT_EINPUT, "the policy's node mask is empty");
	o->total = r->total_at_least_n && o->sum < (uint64_t)o->n ? (uint64_t)o->n : o->sum;
	o->ilx32 = true;
	o->by_position = r->by_position;
	return 0;
}

int tt_il_order_tiers(struct tt_il_order *o, const struct tt_nodemask *mask,
		      const struct tt_topo *t, const uint32_t *tier_weight)
{
	static const struct tier_rule v2 = {
		.width = 0xff,
		.untiered = 1,
		.share = tt_rfc_share,
		.total_at_least_n = true,
	};

	return order_by_tier(o, mask, t, tier_weight, &v2);
}

int tt_il_order_tier_split(struct tt_il_order *o, const struct tt_nodemask *mask,
			   const struct tt_topo *t, const uint32_t *tier_weight)
{
	static const struct tier_rule v1 = {
		.width = 0xffff,
		.untiered = 0,
		.share = tt_rfcv1_split,
		.by_position = true,
	};
	int rc = order_by_tier(o, mask, t, tier_weight, &v1);

	/* vnnodes 0 (no node of the mask in a tier): offset_il_node returns
	 * numa_node_id(), the allocating CPU's node, which no order holds. */
	if (rc == 0 && o->sum == 0)
		return tt_err(TT_EINPUT,
			      "no node of the policy is in a memory tier: the kernel allocates "
			      "on the faulting CPU's node");
	return rc;
}

int tt_il_vma_node(const struct tt_il_order *o, uint64_t ilx)
{
	uint64_t target = (o->ilx32 ? (uint32_t)ilx : ilx) % o->total;
	int i = 0;

	if (o->by_position) {
		int k = 0;

		/* Seed 011: the slot's owner is counted among the nodes that
		 * own slots, then "nid = first_node; next_node" k times over
		 * the whole mask. */
		while (target >= o->weight[i] || o->weight[i] == 0) {
			if (o->weight[i]) {
				target -= o->weight[i];
				k++;
			}
			i++;
		}
		return o->node[k];
	}

	/* Each pass over the nodes takes sum from target, so the walk ends
	 * unless every weight is 0 (possible only with RFC tier weights). */
	if (target && o->sum == 0)
		return tt_err(TT_EFAIL, "every node of the policy weighs 0: the RFC kernel's "
					"interleave walk would not end");
	while (target) {
		if (target < o->weight[i])
			break;
		target -= o->weight[i];
		i = i + 1 == o->n ? 0 : i + 1;
	}
	return o->node[i];
}

void tt_il_task_init(struct tt_il_task *s)
{
	s->prev = -1;
	s->left = 0;
}

int tt_il_task_next(const struct tt_il_order *o, struct tt_il_task *s)
{
	if (s->left == 0) {
		s->prev = s->prev + 1 >= o->n ? 0 : s->prev + 1;
		s->left = o->weight[s->prev] ? o->weight[s->prev] : 1;
	}
	s->left--;
	return o->node[s->prev];
}

int tt_il_cycle_counts(const struct tt_il_order *o, uint64_t *counts)
{
	bool zero = false;

	memset(counts, 0, (size_t)o->n * sizeof(*counts));
	for (int k = 0; k < o->n; k++)
		zero |= o->weight[k] == 0;
	if (!zero) {
		/* Weights of at least 1 make total == sum and the slots plain runs. */
		for (int k = 0; k < o->n; k++)
			counts[k] = o->weight[k];
		return 0;
	}
	/* RFC corner: slot 0 goes to the first node whatever its weight, and
	 * the clamped total adds slots; walk each slot as the kernel would. */
	for (uint64_t t = 0; t < o->total; t++) {
		int node = tt_il_vma_node(o, t), i = 0;

		if (node < 0)
			return node;
		while (o->node[i] != node)
			i++;
		counts[i]++;
	}
	return 0;
}
