// SPDX-License-Identifier: GPL-3.0-or-later
/* The per-tier RFC (seeds 003/004, never merged): memory_tierN/
 * interleave_weight reads "0:1,1:1,..." for every online source node and
 * takes one "src:weight" per write, weight 0..100. */
#include "wi.h"

#include "error.h"
#include "fixture-kernel.h"
#include "parse.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

extern const struct tt_wi_backend tt_wi_rfc;

#define TIER_DIR TT_WI_TIER_DIR

static int rfc_detect(const struct tt_sysfs *s, char *why, size_t size)
{
	enum tt_wi_tier_form form = tt_wi_tier_form(s);

	if (form == TT_TIER_FORM_PER_SOURCE)
		return 0;
	if (form == TT_TIER_FORM_ONE)
		snprintf(why, size,
			 "%s/memory_tier*/interleave_weight hold one weight per tier, not "
			 "SRC:WEIGHT per source node",
			 TIER_DIR);
	else
		snprintf(why, size,
			 "no interleave_weight in %s/memory_tier* (a kernel with the "
			 "per-tier RFC patches)",
			 TIER_DIR);
	return TT_EUNAVAIL;
}

static int parse_line(const char *line, const char *path, struct tt_weights *by_src)
{
	const char *p = line;

	tt_weights_clear(by_src);
	while (*p) {
		uint64_t src, w;

		if (tt_parse_u64_prefix(p, 0, TT_MAX_NODES - 1, &src, &p) || *p != ':' ||
		    tt_parse_u64_prefix(p + 1, 0, 255, &w, &p) || (*p != ',' && *p != '\0') ||
		    tt_nodemask_test(&by_src->set, (int)src))
			return tt_err(TT_EINPUT,
				      "interleave_weight '%s' in '%s' is malformed (want "
				      "SRC:WEIGHT,...)",
				      line, path);
		tt_weights_put(by_src, (int)src, (uint32_t)w);
		if (*p == ',')
			p++;
	}
	return 0;
}

static int rfc_read(const struct tt_sysfs *s, const struct tt_topo *t, struct tt_wi_state *st)
{
	char buf[8192], path[PATH_MAX];

	for (int i = 0; i < t->ntiers; i++) {
		struct tt_wi_tier *wt;
		int rc = tt_sysfs_read(s, buf, sizeof(buf),
				       TIER_DIR "/memory_tier%d/interleave_weight", t->tiers[i].id);

		if (rc == TT_EUNAVAIL)
			continue;
		if (rc < 0)
			return rc;
		wt = tt_wi_state_add_tier(st, t->tiers[i].id);
		if (!wt)
			return TT_EFAIL;
		tt_sysfs_path(s, path, sizeof(path), TIER_DIR "/memory_tier%d/interleave_weight",
			      t->tiers[i].id);
		rc = parse_line(buf, path, &wt->by_src);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int rfc_validate(const struct tt_topo *t, const struct tt_wi_state *cur,
			const struct tt_wi_state *want)
{
	for (int i = 0; i < want->ntiers; i++) {
		const struct tt_wi_tier *wt = &want->tiers[i];
		int src, rc;

		if (!tt_topo_tier(t, wt->tier))
			return tt_err(TT_EINPUT, "tier %d does not exist (see 'tiertune topo')",
				      wt->tier);
		if (!tt_wi_state_find_tier(cur, wt->tier))
			return tt_err(TT_EINPUT,
				      "tier %d has no %s/memory_tier%d/interleave_weight", wt->tier,
				      TIER_DIR, wt->tier);
		rc = tt_topo_check_nodes(t, &wt->by_src.set, "source node");
		if (rc < 0)
			return rc;
		tt_nodemask_for_each (src, &wt->by_src.set) {
			if (wt->by_src.w[src] > tt_wi_rfc.max_weight)
				return tt_err(TT_EINPUT,
					      "weight '%u' for tier %d from node %d out of "
					      "range (0-%u)",
					      wt->by_src.w[src], wt->tier, src,
					      tt_wi_rfc.max_weight);
		}
	}
	return 0;
}

static int rfc_write(const struct tt_sysfs *s, const struct tt_wi_state *want)
{
	char buf[32];

	for (int i = 0; i < want->ntiers; i++) {
		const struct tt_wi_tier *wt = &want->tiers[i];
		int src, rc;

		tt_nodemask_for_each (src, &wt->by_src.set) {
			snprintf(buf, sizeof(buf), "%d:%u", src, wt->by_src.w[src]);
			rc = tt_sysfs_write(s, buf, TIER_DIR "/memory_tier%d/interleave_weight",
					    wt->tier);
			if (rc < 0)
				return rc;
		}
	}
	return 0;
}

static bool rfc_weight_file(const char *rel, enum tt_write_kind *kind)
{
	static const char tier[] = TIER_DIR "/memory_tier";
	const char *p;

	if (strncmp(rel, tier, sizeof(tier) - 1))
		return false;
	p = tt_wi_tier_prefix(rel + sizeof(tier) - 1);
	*kind = TT_WRITE_ENTRY;
	return p && strcmp(p, "/interleave_weight") == 0;
}

/* One "src:w" write per tier: the kernel takes one source a write. */
static int rfc_writes(const struct tt_sysfs *s, const struct tt_topo *t, int src,
		      const struct tt_weights *w, tt_wi_write_fn fn, void *ctx)
{
	(void)s;
	(void)t;
	return tt_wi_writes_each(w, src, TT_WRITE_ENTRY,
				 TIER_DIR "/memory_tier%d/interleave_weight", fn, ctx);
}

/* The RFC's default: every tier weighs 1 for every source. */
static void rfc_defaults(const struct tt_topo *t, int src, struct tt_weights *out)
{
	(void)src;
	tt_weights_clear(out);
	for (int k = 0; k < t->ntiers; k++)
		tt_weights_put(out, t->tiers[k].id, 1);
}

/* Every tier of t; one without an entry for src weighs 1 (the default). */
static void rfc_current(const struct tt_wi_state *st, const struct tt_topo *t, int src,
			struct tt_weights *out)
{
	tt_weights_clear(out);
	for (int i = 0; i < t->ntiers; i++) {
		const struct tt_wi_tier *wt = tt_wi_state_find_tier(st, t->tiers[i].id);

		tt_weights_put(out, t->tiers[i].id, wt ? tt_weights_get(&wt->by_src, src, 1) : 1);
	}
}

/* A tier w leaves out weighs 1, as one the kernel was never told about. */
static int rfc_order(struct tt_il_order *o, const struct tt_nodemask *mask, const struct tt_topo *t,
		     const struct tt_weights *w)
{
	uint32_t tier_w[TT_MAX_NODES];

	for (int i = 0; i < t->ntiers && i < TT_MAX_NODES; i++)
		tier_w[i] = tt_weights_get(w, t->tiers[i].id, 1);
	return tt_il_order_tiers(o, mask, t, tier_w);
}

/* Seed 003 interleave_weight_store: "src:weight", src by kstrtou32(, 10)
 * an online node, weight by kstrtou8(, 0) at most 100, each parse's own
 * error returned (so "+1:3" is taken, "0:256" and "4294967296:1" are
 * ERANGE); the show side lists every online node as "n:w". */
static int rfc_fixture_store(const struct tt_sysfs *s, const char *path, const char *rel,
			     const char *value)
{
	char cur[8192], out[8192], *save = NULL;
	const char *colon = strchr(value, ':');
	char srcbuf[64];
	uint64_t src, w;
	size_t len = 0;
	bool found = false;
	int rc;

	if (!colon || (size_t)(colon - value) >= sizeof(srcbuf))
		return tt_fixture_rejected(path, value, EINVAL);
	memcpy(srcbuf, value, (size_t)(colon - value));
	srcbuf[colon - value] = '\0';
	rc = tt_kstrtoull(srcbuf, 10, UINT32_MAX, &src);
	if (rc == 0 && src >= TT_MAX_NODES)
		rc = -EINVAL;
	if (rc == 0)
		rc = tt_kstrtoull(colon + 1, 0, 255, &w);
	if (rc == 0 && w > 100)
		rc = -EINVAL;
	if (rc < 0)
		return tt_fixture_rejected(path, value, -rc);
	{
		int fd = tt_sysfs_open(s, rel, O_RDONLY);
		ssize_t n;

		if (fd < 0)
			return fd;
		n = read(fd, cur, sizeof(cur) - 1);
		close(fd);
		if (n < 0)
			return tt_err_sys(TT_EFAIL, errno, "cannot read '%s'", path);
		cur[n] = '\0';
		tt_chomp(cur);
	}
	out[0] = '\0';
	for (char *tok = strtok_r(cur, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint64_t n;
		const char *c = strchr(tok, ':');

		if (!c || tt_parse_u64_prefix(tok, 0, TT_MAX_NODES - 1, &n, &c) || *c != ':')
			return tt_err(TT_EINPUT, "malformed interleave_weight '%s' in '%s'", tok,
				      path);
		if (n == src) {
			found = true;
			rc = snprintf(out + len, sizeof(out) - len, "%s%ju:%ju", len ? "," : "",
				      (uintmax_t)n, (uintmax_t)w);
		} else {
			rc = snprintf(out + len, sizeof(out) - len, "%s%s", len ? "," : "", tok);
		}
		if (rc < 0 || (size_t)rc >= sizeof(out) - len)
			return tt_err(TT_EFAIL, "interleave_weight in '%s' too long", path);
		len += (size_t)rc;
	}
	/* The kernel accepts only online source nodes, which show lists. */
	if (!found)
		return tt_fixture_rejected(path, value, EINVAL);
	if (len + 2 > sizeof(out))
		return tt_err(TT_EFAIL, "interleave_weight in '%s' too long", path);
	strcat(out, "\n");
	return tt_fixture_replace(s, rel, out);
}

/* Seed 003 set_node_memory_tier: a node's first memory online puts it in
 * its tier and memsets the tier's interleave_weight[] to 1, every source's. */
static int rfc_fixture_node_joined(const struct tt_sysfs *s, int tier)
{
	char cur[8192], out[8192], rel[PATH_MAX], *save = NULL;
	size_t len = 0;
	int rc = tt_sysfs_read(s, cur, sizeof(cur), TIER_DIR "/memory_tier%d/interleave_weight",
			       tier);

	if (rc < 0)
		return rc;
	out[0] = '\0';
	for (char *tok = strtok_r(cur, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *c = strchr(tok, ':');

		if (!c)
			return tt_err(TT_EINPUT, "malformed interleave_weight entry '%s'", tok);
		*c = '\0';
		rc = snprintf(out + len, sizeof(out) - len, "%s%s:1", len ? "," : "", tok);
		if (rc < 0 || (size_t)rc >= sizeof(out) - len - 1)
			return tt_err(TT_EFAIL, "interleave_weight of tier %d too long", tier);
		len += (size_t)rc;
	}
	strcat(out, "\n");
	snprintf(rel, sizeof(rel), TIER_DIR "/memory_tier%d/interleave_weight", tier);
	return tt_fixture_replace(s, rel, out);
}

const struct tt_wi_backend tt_wi_rfc = {
	.name = "rfc",
	.summary = "per-tier weights relative to the source node (the per-tier interleave RFC)",
	.dir = TIER_DIR,
	.unit = "tier",
	.key = TT_WI_BY_TIER,
	.min_weight = 0,
	.max_weight = 100,
	.per_source = true,
	.detect = rfc_detect,
	.read = rfc_read,
	.validate = rfc_validate,
	.write = rfc_write,
	.weight_file = rfc_weight_file,
	.fixture_store = rfc_fixture_store,
	.fixture_node_joined = rfc_fixture_node_joined,
	.writes = rfc_writes,
	.defaults = rfc_defaults,
	.current = rfc_current,
	.node_share = tt_rfc_share,
	.order = rfc_order,
};
