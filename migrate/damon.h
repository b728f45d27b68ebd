/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Shares kept by DAMON: one migrate_hot scheme a node, each with a quota
 * goal node_eligible_mem_bp (nid the node, target_value its share in basis
 * points), in one paddr context of a kdamond of its own, so that the
 * machine's hot memory stays at the shares as it heats and cools
 * (docs/damon.md has the kernel facts and their sources). Everything
 * through the root prefix; library code: no printing.
 *
 *	struct tt_damon_set set;
 *	tt_damon_set_from_weights(&topo, &w, &set);
 *	tt_damon_read_spans(sfs, &set);
 *	tt_damon_look(sfs, &look);        refusals: no DAMON, another kdamond, no paddr
 *	tt_damon_start(sfs, &set);        all or nothing: undone on any failure
 *	tt_damon_progress(sfs, &set, now);   (repeat)
 *	tt_damon_stop(sfs);               DAMON as found: no kdamond
 *	tt_damon_damo_json(&set)          the same set as damo's --kdamonds file
 */
#ifndef TT_MIGRATE_DAMON_H
#define TT_MIGRATE_DAMON_H

#include "../core/sysfs.h"
#include "../core/topo.h"
#include "../core/weights.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#define TT_DAMON_KDAMONDS "/sys/kernel/mm/damon/admin/kdamonds"
#define TT_DAMON_METRIC "node_eligible_mem_bp" /* as landed; its RFC's first: node_sys_bp */

/* The access pattern a hot region has, in the context's default
 * intervals (5 ms samples, 100 ms aggregation: 20 samples): accessed in
 * at least one sample of an aggregation (damo's mem_tier.sh promotes at
 * 5%, one sample of 20). */
#define TT_DAMON_HOT_MIN_SAMPLES 1
/* What the schemes may move, together, per quota interval: the goal
 * tuner sets the pace below it. */
#define TT_DAMON_QUOTA_BYTES (100ull << 20)
#define TT_DAMON_QUOTA_RESET_MS 1000

struct tt_damon_goal {
	int nid;	     /* the scheme's target_nid and its goal's nid */
	uint32_t target_bp;  /* the node's share, basis points */
	uint64_t start, end; /* the node's physical span, bytes [start, end) */
};

struct tt_damon_set {
	int n;
	/* Each scheme rejects its own node's span (an addr filter), as the
	 * series' worked example filters each scheme to the other node's
	 * range: hot memory already on the node is not moved onto it again
	 * nor charged to the quota. false: spans unknown or interleaved. */
	bool spans;
	struct tt_damon_goal g[TT_MAX_NODES];
};

/* One goal a node with a share (migrate/rebalance.h's tt_rb_shares_bp: the
 * shares rebalance moves to), nodes in order; every node must be one of
 * t's memory nodes (a goal's nid on another is a goal never met). */
int tt_damon_set_from_weights(const struct tt_topo *t, const struct tt_weights *w,
			      struct tt_damon_set *set);

/* Each goal's node span from its memory blocks
 * (/sys/devices/system/node/nodeN/memoryM, memory/block_size_bytes):
 * set->spans true when every node's is readable and none overlaps
 * another's; else false, and the set has no filters. Never an error. */
void tt_damon_read_spans(const struct tt_sysfs *s, struct tt_damon_set *set);

/* What DAMON on this root offers and whether it is free. */
struct tt_damon_look {
	uint64_t nr_kdamonds;
	char busy[512]; /* "", or the kdamonds and enabled DAMON modules found */
};
/* TT_EUNAVAIL when the kernel has no DAMON sysfs; fills busy when another
 * user's kdamonds are there (writing nr_kdamonds would rebuild theirs:
 * the kernel removes every kdamond directory before making new ones) or
 * a DAMON module is enabled (its exclusive context lets none start). */
int tt_damon_look(const struct tt_sysfs *s, struct tt_damon_look *l);

/* Sets the set up in kdamond 0 and turns it on; nr_kdamonds must read 0.
 * On any failure every write is undone (nr_kdamonds 0 again) and the
 * reason recorded: TT_EUNAVAIL when the kernel refuses the goal metric or
 * has no paddr operations. */
int tt_damon_start(const struct tt_sysfs *s, const struct tt_damon_set *set);

/* One scheme's progress, as DAMON counts it. */
struct tt_damon_now {
	int nid;
	uint32_t target_bp;
	uint64_t current_bp; /* the goal's current_value */
	uint64_t nr_tried, sz_tried_bytes, nr_applied, sz_applied_bytes, qt_exceeds;
	uint64_t effective_bytes; /* the quota the goal tuner set */
};
/* Asks the kdamond to refresh its stats files (update_schemes_stats,
 * update_schemes_effective_quotas) and reads them: now[i] for set->g[i]. */
int tt_damon_progress(const struct tt_sysfs *s, const struct tt_damon_set *set,
		      struct tt_damon_now *now);

/* 1 when kdamond 0 is the set tiertune starts (one paddr context, every
 * scheme migrate_hot with a node_eligible_mem_bp goal), 0 when it is not
 * or there is none; fills what with what is there. */
int tt_damon_ours(const struct tt_sysfs *s, char *what, size_t size);
/* Turns kdamond 0 off and removes it: nr_kdamonds 0, as it was found. */
int tt_damon_stop(const struct tt_sysfs *s);

/* The set as damo loads it (damo start --kdamonds FILE; damonitor/damo
 * src/_damon.py's Kdamond/DamonCtx/Damos from_kvpairs). */
json_t *tt_damon_damo_json(const struct tt_damon_set *set);

#endif
