/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Weight interfaces: the kernel files that hold interleave weights, as
 * plug-in backends listed in one table (tt_wi_backends, wi.c). Everything
 * that differs between interfaces is in the descriptor, as data (what a
 * weight is keyed by, its range, whether it is per source node) and hooks
 * (detect, read, the writes a wanted vector becomes, the kernel's defaults,
 * the interleave order a source node's pages get). Code outside the
 * backend files walks the table and never names an interface: apply,
 * restore, export, simulate and tiertop work with any backend the table
 * lists. The backends only read, and say what to write; writer/apply.c
 * writes (journal, read-back, restore).
 *
 *	const struct tt_wi_backend *be;
 *	tt_wi_pick(&sfs, NULL, &be);          (first the machine has)
 *	be->read(&sfs, &topo, &st);
 *	be->current(&st, &topo, src, &w);     (in be->unit: node or tier ids)
 *
 * To add one (core/README.md's recipe has every step, the man page and
 * the capture included): 1. write core/wi-<name>.c defining
 * `const struct tt_wi_backend tt_wi_<name>` (every hook but plan,
 * plan_auto, fixture_store and fixture_node_joined is required; see
 * wi-upstream.c, wi-rfc.c and wi-rfcv1.c; a backend sharing another's
 * files, as the two RFCs do, must tell itself apart in detect); 2. add it
 * to the declaration and the table in core/wi.c (order is detection
 * priority); 3. if the kernel's store handler leaves anything but "the file
 * holds what was written", a fixture_store hook (fixture-kernel.h's
 * helpers); 4. fixtures under tests/fixtures/sysfs/ with its files, and
 * tests. The Makefile builds every core/ file; --interface, help texts and
 * errors take the names from the table; tests/cli/t0014 fails if a name
 * appears elsewhere.
 */
#ifndef TT_WI_H
#define TT_WI_H

#include "interleave.h"
#include "sysfs.h"
#include "topo.h"
#include "weights.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How a weight file takes a value. */
enum tt_write_kind {
	TT_WRITE_PLAIN, /* the file holds exactly the value written */
	TT_WRITE_ENTRY, /* "src:w" updates one source's entry of a "src:w,..." line */
};

/* What an interface's weights are keyed by. */
enum tt_wi_key {
	TT_WI_BY_NODE,
	TT_WI_BY_TIER, /* memory_tierN ids; a tier's weight is split over its nodes */
};

struct tt_wi_tier {
	int tier;		  /* memory_tierN id */
	struct tt_weights by_src; /* weight of this tier for each source node */
};

/* What an interface holds now, as its read hook fills it. */
struct tt_wi_state {
	/* global interfaces: one weight per id */
	struct tt_weights node; /* one entry per weight file */
	int auto_mode;		/* 1 auto, 0 manual, -1 no mode file (or no auto mode) */
	char auto_file[16];	/* the mode file's name, or "" */
	/* per-source interfaces: a weight per id per source node */
	int ntiers;
	struct tt_wi_tier *tiers; /* ascending id */
};

/* One write a wanted vector becomes; implied: a value the kernel sets by
 * itself as a side effect of the others (not written, put back on undo). */
typedef int (*tt_wi_write_fn)(void *ctx, enum tt_write_kind kind, int src, const char *file,
			      const char *value, bool implied);

struct tt_apply_plan;

struct tt_wi_backend {
	const char *name;
	const char *summary;
	const char *dir;  /* the sysfs folder its files are in */
	const char *unit; /* what a weight is keyed by, for people: "node" or "tier" */
	enum tt_wi_key key;
	uint32_t min_weight;
	uint32_t max_weight;
	bool per_source; /* weights are relative to the allocating task's node */
	/* 0 when present; TT_EUNAVAIL with the reason in why otherwise. */
	int (*detect)(const struct tt_sysfs *s, char *why, size_t size);
	int (*read)(const struct tt_sysfs *s, const struct tt_topo *t, struct tt_wi_state *st);
	/* Checks want against what exists now (cur): files, nodes, ranges. */
	int (*validate)(const struct tt_topo *t, const struct tt_wi_state *cur,
			const struct tt_wi_state *want);
	/* Writes every weight in want directly (no journal: tests, tools). */
	int (*write)(const struct tt_sysfs *s, const struct tt_wi_state *want);
	/* rel (a live path) is one of its weight files; *kind how it is written. */
	bool (*weight_file)(const char *rel, enum tt_write_kind *kind);
	/* What the kernel's store handler leaves behind when value is written
	 * to rel (path: beneath the root, for messages), applied to a fixture
	 * tree's files (core/fixture-kernel.h has the helpers); NULL: the file
	 * holds what was written. */
	int (*fixture_store)(const struct tt_sysfs *s, const char *path, const char *rel,
			     const char *value);
	/* What the kernel does to the weights when a node's first memory
	 * comes online in tier (set_node_memory_tier), on a fixture tree;
	 * NULL: nothing (upstream keeps manual weights). */
	int (*fixture_node_joined)(const struct tt_sysfs *s, int tier);
	/* The writes that make w (keyed by unit; for source src, -1 when not
	 * per_source) what the kernel holds, in order, each handed to fn; s,
	 * when not NULL, is read for side effects to list as implied. */
	int (*writes)(const struct tt_sysfs *s, const struct tt_topo *t, int src,
		      const struct tt_weights *w, tt_wi_write_fn fn, void *ctx);
	/* Adds w to an apply plan; NULL: tt_wi_check, then the writes. */
	int (*plan)(struct tt_apply_plan *p, const struct tt_topo *t, int src,
		    const struct tt_weights *w);
	/* Turns the kernel's auto mode on or off; NULL: the interface has none. */
	int (*plan_auto)(struct tt_apply_plan *p, bool on);
	/* The kernel's default weights for source src (-1 when not per_source):
	 * what restore --defaults writes. */
	void (*defaults)(const struct tt_topo *t, int src, struct tt_weights *out);
	/* The weights st holds for source src, keyed by unit, with the
	 * kernel's value for an id that has none. */
	void (*current)(const struct tt_wi_state *st, const struct tt_topo *t, int src,
			struct tt_weights *out);
	/* A tier's weight tw as the weight of the pos-th (by ascending id)
	 * of its n nodes, as the kernel splits it; NULL: not keyed by tier. */
	uint32_t (*node_share)(uint32_t tw, unsigned int n, unsigned int pos);
	/* The interleave order over mask for weights w keyed by unit. */
	int (*order)(struct tt_il_order *o, const struct tt_nodemask *mask, const struct tt_topo *t,
		     const struct tt_weights *w);
};

/* NULL-terminated, in detection priority (see "To add one" above). */
extern const struct tt_wi_backend *const tt_wi_backends[];

const struct tt_wi_backend *tt_wi_find(const char *name);
/* The first backend keyed by key (weights given as node or tier weights). */
const struct tt_wi_backend *tt_wi_for_key(enum tt_wi_key key);
/* Every backend's name joined by sep (e.g. "|"), in buf, for help and
 * errors; returns buf. */
const char *tt_wi_names(const char *sep, char *buf, size_t size);
/* The first backend of the table the root has: 0, or TT_EUNAVAIL with
 * every backend's reason in why (no error set). */
int tt_wi_first(const struct tt_sysfs *s, const struct tt_wi_backend **be, char *why, size_t size);
/* --interface NAME (NULL: the first backend the root has): TT_EINPUT for
 * an unknown name, TT_EUNAVAIL with every reason when none is there. */
int tt_wi_pick(const struct tt_sysfs *s, const char *name, const struct tt_wi_backend **be);
/* The interleave order over mask a task on source src gets from what st
 * holds (be->current, then be->order). */
int tt_wi_order(const struct tt_wi_backend *be, const struct tt_wi_state *st,
		const struct tt_topo *t, int src, const struct tt_nodemask *mask,
		struct tt_il_order *o);

/* The one check of weights someone wants written, used by apply, restore,
 * export, profiles and dry runs alike, so that all accept and refuse the
 * same: the source node (-1: none) is online, and given when the interface
 * is per source; the interface's files under s read well (a malformed one
 * is refused, as topo calls it); then the backend's validate (ids with a
 * weight file, the range). TT_EINPUT naming what is wrong. */
int tt_wi_check(const struct tt_wi_backend *be, const struct tt_sysfs *s, const struct tt_topo *t,
		int src, const struct tt_weights *w);
/* rel (a live path) is one of the files the kernel keeps weights in, as
 * some backend's weight_file says; *kind (may be NULL) how it is written.
 * The only files tiertune writes (tt_sysfs_write checks it). */
bool tt_wi_weight_file(const char *rel, enum tt_write_kind *kind);
/* rel is a file some backend writes the way kind says (a journal's line
 * is checked with it: two backends may share a path, the two RFCs'
 * memory_tierN/interleave_weight, and write it differently). */
bool tt_wi_weight_file_takes(const char *rel, enum tt_write_kind kind);

/* The two per-tier RFCs both put memory_tierN/interleave_weight under
 * TT_WI_TIER_DIR, and tell themselves apart only by what it holds: seed
 * 003's show prints "SRC:W" for every online node ("0:4,1:3,2:1,3:1"),
 * seed 010's one number ("85"). What the root's files hold: */
#define TT_WI_TIER_DIR "/sys/devices/virtual/memory_tiering"
enum tt_wi_tier_form {
	TT_TIER_FORM_NONE,	 /* no memory_tier* has an interleave_weight */
	TT_TIER_FORM_PER_SOURCE, /* one holds anything but a plain number */
	TT_TIER_FORM_ONE,	 /* every one holds a plain decimal number */
};
enum tt_wi_tier_form tt_wi_tier_form(const struct tt_sysfs *s);
/* For backends' writes hooks: one write per id of w (ascending), to the
 * file file_fmt names with the id ("%d"), of the weight ("%u"), or of
 * "src:weight" for TT_WRITE_ENTRY. */
int tt_wi_writes_each(const struct tt_weights *w, int src, enum tt_write_kind kind,
		      const char *file_fmt, tt_wi_write_fn fn, void *ctx);
/* For backends' weight_file: a node or tier id as the kernel prints it
 * (decimal, no sign, no leading zero, below TT_MAX_NODES); the text after
 * it, or NULL. */
const char *tt_wi_id_prefix(const char *s);
/* The same for a memory tier's id, which is abstract distance / 128 and
 * can be far above TT_MAX_NODES (a 1 GiB/s-class node was tier 1350): up
 * to TT_MAX_TIER_ID. */
const char *tt_wi_tier_prefix(const char *s);

void tt_wi_state_init(struct tt_wi_state *st);
void tt_wi_state_release(struct tt_wi_state *st);
/* The tier entry for tier id, or NULL. */
const struct tt_wi_tier *tt_wi_state_find_tier(const struct tt_wi_state *st, int tier);
/* The tier entry for tier id, added (empty) when absent; NULL when out of
 * memory. */
struct tt_wi_tier *tt_wi_state_add_tier(struct tt_wi_state *st, int tier);

#endif
