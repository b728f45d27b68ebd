/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The kernel's weighted-interleave order, reproduced page for page.
 *
 * An order is the policy's nodes in ascending id with the weight each gets.
 * Two walks use it, as in mm/mempolicy.c:
 *  - vma (tt_il_vma_node): memory with a VMA, i.e. anonymous faults, THP,
 *    shmem, hugetlb. A page's interleave index ilx is, for private anonymous
 *    memory, its virtual page number (addr >> 12; addr >> 21 for a THP);
 *    t = ilx % total and the nodes own weight[i] consecutive slots each.
 *    Upstream weighted_interleave_nid() and the RFCs' offset_il_node() are
 *    the same walk, with two differences the order carries: both RFCs take
 *    the index as (unsigned int)n (seed 004 "target = (unsigned int)n %
 *    il_weight", seed 011 "(unsigned int)n % vnnodes"), where upstream
 *    keeps all 64 bits, so at real mmap addresses (35-bit page numbers)
 *    the phase differs whenever the total is not a power of two; and seed
 *    011 maps its slot back by position among the mask's nodes, nodes of
 *    weight 0 counted there though they own no slot.
 *  - task (tt_il_task_next): allocations without a VMA (page cache, kernel
 *    allocations) follow a per-task counter: stay on a node for its weight,
 *    then move to the next node of the mask, starting at the first.
 *    Upstream weighted_interleave_nodes() and the RFC's interleave_nodes()
 *    give the same sequence for fixed weights (a 0 weight counts as 1).
 *
 *	struct tt_il_order o;
 *	tt_il_order_nodes(&o, &mask, &weights);
 *	int node = tt_il_vma_node(&o, addr >> 12);
 */
#ifndef TT_INTERLEAVE_H
#define TT_INTERLEAVE_H

#include "bitmap.h"
#include "topo.h"
#include "weights.h"

#include <stdbool.h>
#include <stdint.h>

#define TT_PAGE_SHIFT 12
#define TT_THP_SHIFT 21

struct tt_il_order {
	int n;			/* nodes in the policy */
	int node[TT_MAX_NODES]; /* ascending node ids */
	uint32_t weight[TT_MAX_NODES];
	uint64_t sum;	/* sum of weight[] */
	uint64_t total; /* the modulus of the vma walk (RFC: at least n) */
	bool ilx32;	/* the walk takes the index as unsigned int (both RFCs) */
	/* Seed 011's offset_il_node: the k-th slot-owning node found is
	 * mapped back to the k-th node of the mask, weight 0 or not. */
	bool by_position;
};

/* Per-node weights (the upstream interface's sysfs nodeN, global); a node
 * without one, or with 0 (6.9-6.15 "system default"), counts as 1 as
 * get_il_weight() does. */
int tt_il_order_nodes(struct tt_il_order *o, const struct tt_nodemask *mask,
		      const struct tt_weights *w);

/*
 * Per-tier weights, as the RFC v2 kernel (seeds 003/004) has them: tier_weight[i] is the
 * interleave_weight of t->tiers[i] for the task's source node. A node's weight is its tier's weight
 * split (rounded up) over the policy's nodes in that tier; a node in no tier weighs 1; the total is
 * at least the number of nodes (memtier_get_total_weight).
 */
int tt_il_order_tiers(struct tt_il_order *o, const struct tt_nodemask *mask,
		      const struct tt_topo *t, const uint32_t *tier_weight);

/*
 * Per-tier weights as the first multi-tier RFC has them (seeds 009-011, one
 * number per tier, plain MPOL_INTERLEAVE): tier_weight[i] is t->tiers[i]'s
 * interleave_weight. A node's weight is node_interleave_weight(): the
 * tier's weight divided by the policy's nodes in that tier, the remainder
 * one each to the first nodes in ascending id, at least 1 (tt_rfcv1_split);
 * a node in no tier weighs 0 (no slot in the vma walk, one page a turn in the task walk).
 */
int tt_il_order_tier_split(struct tt_il_order *o, const struct tt_nodemask *mask,
			   const struct tt_topo *t, const uint32_t *tier_weight);

/* The node of interleave index ilx. TT_EFAIL when the walk never ends, as
 * it would in the RFC kernel with all weights 0 (the kernel would spin). */
int tt_il_vma_node(const struct tt_il_order *o, uint64_t ilx);

struct tt_il_task {
	int prev;      /* index into o->node of il_prev, -1 for MAX_NUMNODES-1 */
	uint32_t left; /* il_weight / cur_weight: allocations left on prev */
};
void tt_il_task_init(struct tt_il_task *s);
int tt_il_task_next(const struct tt_il_order *o, struct tt_il_task *s);

/* Pages per node over one full cycle of the vma walk (total slots), indexed
 * like o->node; their sum is o->total. */
int tt_il_cycle_counts(const struct tt_il_order *o, uint64_t *counts);

#endif
