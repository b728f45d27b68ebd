// SPDX-License-Identifier: GPL-3.0-or-later
/* The first multi-tier interleaving RFC (seeds 009-011, Sep 2023, never
 * merged; its v2 is wi-rfc.c's): memory_tierN/interleave_weight holds one
 * number per tier (show "%u\n", store kstrtou16(buf, 0) at most 100,
 * default 1), which plain MPOL_INTERLEAVE reads for every task alike: a
 * tier's weight is split over the policy's nodes in that tier
 * (node_interleave_weight, tt_rfcv1_split). It shares its files' path with
 * the v2 RFC and is told apart by what they hold (tt_wi_tier_form). */
#include "wi.h"

#include "error.h"
#include "fixture-kernel.h"
#include "parse.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

extern const struct tt_wi_backend tt_wi_rfcv1;

#define TIER_FILE TT_WI_TIER_DIR "/memory_tier%d/interleave_weight"

static int v1_detect(const struct tt_sysfs *s, char *why, size_t size)
{
	enum tt_wi_tier_form form = tt_wi_tier_form(s);

	if (form == TT_TIER_FORM_ONE)
		return 0;
	if (form == TT_TIER_FORM_PER_SOURCE)
		snprintf(why, size,
			 "%s/memory_tier*/interleave_weight hold SRC:WEIGHT per source node, "
			 "not one weight per tier",
			 TT_WI_TIER_DIR);
	else
		snprintf(why, size,
			 "no interleave_weight in %s/memory_tier* (a kernel with the "
			 "multi-tier interleaving RFC v1 patches)",
			 TT_WI_TIER_DIR);
	return TT_EUNAVAIL;
}

/* One weight per tier that has a file, keyed by tier id in st->node. */
static int v1_read(const struct tt_sysfs *s, const struct tt_topo *t, struct tt_wi_state *st)
{
	char buf[64], path[PATH_MAX];

	for (int i = 0; i < t->ntiers; i++) {
		int id = t->tiers[i].id, rc = tt_sysfs_read(s, buf, sizeof(buf), TIER_FILE, id);
		uint64_t w;

		if (rc == TT_EUNAVAIL)
			continue;
		if (rc < 0)
			return rc;
		/* The kernel keeps it in an unsigned short; its store takes at
		 * most 100, so more is a file no kernel of the RFC shows. */
		if (tt_parse_u64(buf, 0, 65535, &w)) {
			tt_sysfs_path(s, path, sizeof(path), TIER_FILE, id);
			return tt_err(TT_EINPUT,
				      "interleave_weight '%s' in '%s' is malformed (want one "
				      "weight, 0-100)",
				      buf, path);
		}
		tt_weights_put(&st->node, id, (uint32_t)w);
	}
	return 0;
}

static int v1_validate(const struct tt_topo *t, const struct tt_wi_state *cur,
		       const struct tt_wi_state *want)
{
	int id;

	tt_weights_for_each(id, &want->node)
	{
		if (!tt_topo_tier(t, id))
			return tt_err(TT_EINPUT, "tier %d does not exist (see 'tiertune topo')",
				      id);
		if (!tt_weights_has(&cur->node, id))
			return tt_err(TT_EINPUT, "tier %d has no " TIER_FILE, id, id);
	}
	return tt_weights_check_range_of(&want->node, tt_wi_rfcv1.min_weight,
					 tt_wi_rfcv1.max_weight, "tier");
}

static int v1_write(const struct tt_sysfs *s, const struct tt_wi_state *want)
{
	char buf[16];
	int id, rc;

	tt_weights_for_each(id, &want->node)
	{
		snprintf(buf, sizeof(buf), "%u", tt_weights_get(&want->node, id, 1));
		rc = tt_sysfs_write(s, buf, TIER_FILE, id);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static bool v1_weight_file(const char *rel, enum tt_write_kind *kind)
{
	static const char tier[] = TT_WI_TIER_DIR "/memory_tier";
	const char *p;

	if (strncmp(rel, tier, sizeof(tier) - 1))
		return false;
	p = tt_wi_tier_prefix(rel + sizeof(tier) - 1);
	*kind = TT_WRITE_PLAIN;
	return p && strcmp(p, "/interleave_weight") == 0;
}

static int v1_writes(const struct tt_sysfs *s, const struct tt_topo *t, int src,
		     const struct tt_weights *w, tt_wi_write_fn fn, void *ctx)
{
	(void)s;
	(void)t;
	(void)src;
	return tt_wi_writes_each(w, -1, TT_WRITE_PLAIN, TIER_FILE, fn, ctx);
}

/* set_node_memory_tier() sets a tier's weight to 1 whenever a node joins
 * it, the tier's creation included. */
static void v1_defaults(const struct tt_topo *t, int src, struct tt_weights *out)
{
	(void)src;
	tt_weights_clear(out);
	for (int k = 0; k < t->ntiers; k++)
		tt_weights_put(out, t->tiers[k].id, 1);
}

/* Every tier of t; one without a file weighs 1, the kernel's default. */
static void v1_current(const struct tt_wi_state *st, const struct tt_topo *t, int src,
		       struct tt_weights *out)
{
	(void)src;
	tt_weights_clear(out);
	for (int i = 0; i < t->ntiers; i++)
		tt_weights_put(out, t->tiers[i].id, tt_weights_get(&st->node, t->tiers[i].id, 1));
}

static int v1_order(struct tt_il_order *o, const struct tt_nodemask *mask, const struct tt_topo *t,
		    const struct tt_weights *w)
{
	uint32_t tier_w[TT_MAX_NODES];

	for (int i = 0; i < t->ntiers && i < TT_MAX_NODES; i++)
		tier_w[i] = tt_weights_get(w, t->tiers[i].id, 1);
	return tt_il_order_tier_split(o, mask, t, tier_w);
}

/* Seed 010 interleave_weight_store: kstrtou16(buf, 0, ...) (its own error:
 * "+5" and "0x10" taken, "70000" ERANGE), EINVAL above 100; show "%u\n". */
static int v1_fixture_store(const struct tt_sysfs *s, const char *path, const char *rel,
			    const char *value)
{
	char buf[16];
	uint64_t w;
	int rc = tt_kstrtoull(value, 0, 65535, &w);

	if (rc == 0 && w > 100)
		rc = -EINVAL;
	if (rc < 0)
		return tt_fixture_rejected(path, value, -rc);
	snprintf(buf, sizeof(buf), "%u\n", (unsigned int)w);
	return tt_fixture_replace(s, rel, buf);
}

/* Seed 010 set_node_memory_tier: "memtier->interleave_weight = 1" whenever
 * a node joins the tier. */
static int v1_fixture_node_joined(const struct tt_sysfs *s, int tier)
{
	char rel[PATH_MAX];

	snprintf(rel, sizeof(rel), TIER_FILE, tier);
	return tt_fixture_replace(s, rel, "1\n");
}

const struct tt_wi_backend tt_wi_rfcv1 = {
	.name = "rfcv1",
	.summary = "one weight per tier, plain MPOL_INTERLEAVE (the multi-tier interleaving "
		   "RFC v1)",
	.dir = TT_WI_TIER_DIR,
	.unit = "tier",
	.key = TT_WI_BY_TIER,
	.min_weight = 0,
	.max_weight = 100,
	.per_source = false,
	.detect = v1_detect,
	.read = v1_read,
	.validate = v1_validate,
	.write = v1_write,
	.weight_file = v1_weight_file,
	.fixture_store = v1_fixture_store,
	.fixture_node_joined = v1_fixture_node_joined,
	.writes = v1_writes,
	.defaults = v1_defaults,
	.current = v1_current,
	.node_share = tt_rfcv1_split,
	.order = v1_order,
};
