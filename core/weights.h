/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Weight vectors: a weight per node (upstream), or per source node (one RFC
 * tier's interleave_weight). Parse, format, check against an interface's
 * range, reduce, quantize shares into small integers, and the two kernel
 * formulas the tuner must reproduce: auto mode's weights from HMAT bandwidth
 * and the RFC's split of a tier weight over the policy's nodes in the tier.
 */
#ifndef TT_WEIGHTS_H
#define TT_WEIGHTS_H

#include "bitmap.h"

#include <stdbool.h>
#include <stdint.h>

/* Auto mode's scale: mm/mempolicy.c reduce_interleave_weights() maps each
 * node's bandwidth share into [1, 32] ("weightiness"), trading run length on
 * one node against the error of the ratio. */
#define TT_WEIGHTINESS 32

/* The largest memory tier id: an int abstract distance / 128
 * (mm/memory-tiers.c, dev.id = adistance >> MEMTIER_CHUNK_BITS). */
#define TT_MAX_TIER_ID (INT32_MAX / 128)
/* Ids from TT_MAX_NODES up one vector holds (tiers that far are rare). */
#define TT_WEIGHTS_BIG 64

/*
 * Keyed by node id, or by memory tier id: a tier's id is its abstract
 * distance / 128, and a slow node's runs far past any node id (a 1 GiB/s
 * class CXL node was tier 1350 on a real kernel), so ids from TT_MAX_NODES
 * up (to TT_MAX_TIER_ID) are kept apart, in big[], never as an index.
 * Walk every id with tt_weights_for_each; w[] and set cover only ids below
 * TT_MAX_NODES.
 */
struct tt_weights {
	struct tt_nodemask set; /* ids below TT_MAX_NODES that carry a weight */
	uint32_t w[TT_MAX_NODES];
	int nbig;
	struct {
		int id;
		uint32_t w;
	} big[TT_WEIGHTS_BIG]; /* ascending id, each >= TT_MAX_NODES */
};

void tt_weights_clear(struct tt_weights *ws);
/* 0, or TT_EINPUT (message set) for an id out of 0..TT_MAX_TIER_ID or
 * more than TT_WEIGHTS_BIG ids past TT_MAX_NODES. */
int tt_weights_put(struct tt_weights *ws, int id, uint32_t w);
/* The weight of id, or dflt when it has none. */
uint32_t tt_weights_get(const struct tt_weights *ws, int id, uint32_t dflt);
bool tt_weights_has(const struct tt_weights *ws, int id);
/* How many ids carry a weight. */
int tt_weights_count(const struct tt_weights *ws);
/* The first id above after that carries a weight, -1 when none. */
int tt_weights_next(const struct tt_weights *ws, int after);
#define tt_weights_for_each(id, ws)                                                                \
	for ((id) = tt_weights_next((ws), -1); (id) >= 0; (id) = tt_weights_next((ws), (id)))
/* "0:5,2:2" (node:weight, each node once, weights 0..UINT32_MAX; ranges are
 * the interface's business, see tt_weights_check_range). TT_EINPUT naming
 * the bad part. */
int tt_weights_parse(const char *s, struct tt_weights *out);
/* The same with ids up to max_id (TT_MAX_TIER_ID for tier weights). */
int tt_weights_parse_ids(const char *s, int max_id, struct tt_weights *out);
/* "0:5,2:2" in ascending node order; returns length or TT_EINPUT if short. */
int tt_weights_format(const struct tt_weights *ws, char *buf, unsigned long size);
/* "weight '300' for node 1 out of range (1-255)" */
int tt_weights_check_range(const struct tt_weights *ws, uint32_t min, uint32_t max);
/* The same where the keys are what ("tier"), for the message. */
int tt_weights_check_range_of(const struct tt_weights *ws, uint32_t min, uint32_t max,
			      const char *what);
/* Divides every weight by their GCD (zeros ignored); returns the GCD. */
uint32_t tt_weights_reduce(struct tt_weights *ws);
/* The same on n plain weights (the tuner's vectors); returns the divisor. */
uint32_t tt_weights_reduce_array(uint32_t *w, int n);
/* Greatest common divisor; tt_gcd(0, x) is x. */
uint32_t tt_gcd(uint32_t a, uint32_t b);

/*
 * Quantizes shares (share[i] for node nodes[i], any positive scale) into
 * integer weights in [1, max], choosing the largest weight m in 1..max that
 * minimizes the L1 error between the weights' shares and the target shares
 * (ties go to the smaller m: shorter runs on one node), then reducing by the
 * GCD. The kernel's auto mode instead floors 32*share, which can be far off
 * for small shares; this is what the tuner uses to round its real optimum.
 */
int tt_weights_quantize(const int *nodes, const double *share, int n, uint32_t max,
			struct tt_weights *out);

/*
 * The kernel's auto-mode weights (Linux 6.16+, mempolicy_set_node_perf and
 * reduce_interleave_weights): bw[i] = min(read, write) access1 bandwidth of
 * memory node nodes[i], 0 when unknown. w = 32*bw/sum in u32 arithmetic as
 * the kernel does, 1 when bw is 0 or the share is at most 1/32, then divided
 * by the GCD. DRAM 300 + CXL 64 gives 26:5; 20480,20480,5120 gives 14:14:3.
 */
void tt_weights_auto(const int *nodes, const uint32_t *bw, int n, struct tt_weights *out);

struct tt_topo;
/* tt_weights_auto over every memory node of t with its HMAT access1 figures,
 * as the kernel does at boot; TT_EUNAVAIL when no node has bandwidth data
 * (the kernel then refuses auto mode with -ENODEV). */
int tt_weights_auto_topo(const struct tt_topo *t, struct tt_weights *out);

/* The RFC's per-node share of a tier weight (seed 003,
 * memtier_get_node_weight): tier_weight split over the nodes of the policy
 * that are in the tier, rounded up, so 3 over 2 nodes gives 2 each. */
uint32_t tt_rfc_split(uint32_t tier_weight, unsigned int nodes_in_tier_and_policy);
/* tt_rfc_split in tt_rfcv1_split's shape (the same share at every pos), so
 * the backends and the interleave order take either through one pointer. */
uint32_t tt_rfc_share(uint32_t tier_weight, unsigned int n, unsigned int pos);
/* The first multi-tier RFC's share of a tier weight (seed 011,
 * node_interleave_weight) for the node at position pos (0-based, ascending
 * id) of the n nodes in the tier and the policy: the quotient, plus one for
 * the first tier_weight % n nodes, and at least 1 (so 85 over 2 nodes is
 * 43 and 42, 1 over 3 is 1 each, 0 is 1). */
uint32_t tt_rfcv1_split(uint32_t tier_weight, unsigned int n, unsigned int pos);

#endif
