/*
 * Weight interfaces: the kernel files that hold interleave weights, as
 * plug-in backends. Each detects itself under a sysfs root, reads the
 * current state, validates a wanted state, and writes it.
 *  - upstream (Linux 6.9+): /sys/kernel/mm/mempolicy/weighted_interleave/
 *    nodeN, one global weight per node, 1..255, plus a mode file (auto, or
 *    __auto_type on 6.16-6.18 kernels built before the name fix).
 *  - rfc (the never-merged per-tier RFC, seeds 003/004): memory_tierN/
 *    interleave_weight, a weight per source node, 0..100.
 *
 * Apply (journal, read-back, restore) is built on these in cli/; the backends
 * only read and write.
 *
 *	const struct tt_wi_backend *be = tt_wi_find("upstream");
 *	if (be->detect(&sfs, why, sizeof(why)) == 0) be->read(&sfs, &topo, &st);
 */
#ifndef TT_WI_H
#define TT_WI_H

#include "sysfs.h"
#include "topo.h"
#include "weights.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TT_WI_UPSTREAM_DIR "/sys/kernel/mm/mempolicy/weighted_interleave"

struct tt_wi_tier {
	int tier;		  /* memory_tierN id */
	struct tt_weights by_src; /* weight of this tier for each source node */
};

struct tt_wi_state {
	/* upstream */
	struct tt_weights node; /* one entry per nodeN file */
	int auto_mode;		/* 1 auto, 0 manual, -1 no mode file (6.9-6.15) */
	char auto_file[16];	/* "auto", "__auto_type", or "" */
	/* rfc */
	int ntiers;
	struct tt_wi_tier *tiers; /* ascending tier id */
};

struct tt_wi_backend {
	const char *name;
	const char *summary;
	uint32_t min_weight;
	uint32_t max_weight;
	const char *unit; /* what a weight is keyed by: "node" or "tier" */
	bool per_source;  /* weights are relative to the allocating task's node */
	/* 0 when present; TT_EUNAVAIL with the reason in why otherwise. */
	int (*detect)(const struct tt_sysfs *s, char *why, size_t size);
	int (*read)(const struct tt_sysfs *s, const struct tt_topo *t, struct tt_wi_state *st);
	/* Checks want against what exists now (cur): files, nodes, ranges. */
	int (*validate)(const struct tt_topo *t, const struct tt_wi_state *cur,
			const struct tt_wi_state *want);
	/* Writes every weight in want; for upstream, then the mode when want
	 * asks for auto (writing any nodeN turns auto off). */
	int (*write)(const struct tt_sysfs *s, const struct tt_wi_state *want);
};

extern const struct tt_wi_backend tt_wi_upstream;
extern const struct tt_wi_backend tt_wi_rfc;
/* NULL-terminated. To add one: 1. write core/wi-<name>.c with a const
 * struct tt_wi_backend; 2. declare it above; 3. list it in wi.c. */
extern const struct tt_wi_backend *const tt_wi_backends[];

const struct tt_wi_backend *tt_wi_find(const char *name);

#define TT_WI_TIER_DIR "/sys/devices/virtual/memory_tiering"
/* The one check of weights someone wants written, used by apply, restore,
 * export, profiles and dry runs alike, so that all accept and refuse the
 * same: the source node (-1: none) is online; the interface's files under s
 * read well (a malformed one is refused, as topo calls it); then the
 * backend's validate: upstream node weights 1-255 for nodes with a nodeN
 * file, RFC tier weights 0-100 for tiers with an interleave_weight file
 * (which need a source node). TT_EINPUT naming what is wrong. */
int tt_wi_check(const struct tt_wi_backend *be, const struct tt_sysfs *s, const struct tt_topo *t,
		int src, const struct tt_weights *w);
/* rel (a live path) is one of the files the kernel keeps weights in:
 * weighted_interleave/nodeN, weighted_interleave/auto (or __auto_type), or
 * memory_tiering/memory_tierN/interleave_weight. The only files tiertune
 * writes (tt_sysfs_write checks it). */
bool tt_wi_weight_file(const char *rel);

void tt_wi_state_init(struct tt_wi_state *st);
void tt_wi_state_release(struct tt_wi_state *st);
/* The tier entry for tier id, or NULL. */
const struct tt_wi_tier *tt_wi_state_find_tier(const struct tt_wi_state *st, int tier);
/* The tier entry for tier id, added (empty) when absent; NULL when out of
 * memory. */
struct tt_wi_tier *tt_wi_state_add_tier(struct tt_wi_state *st, int tier);
/* The weights of every tier in t->tiers order for one source node, as
 * tt_il_order_rfc() takes them; a tier without an entry weighs 1 (the
 * RFC's default). */
void tt_wi_rfc_tier_weights(const struct tt_wi_state *st, const struct tt_topo *t, int src,
			    uint32_t *out);

#endif
