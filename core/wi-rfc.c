/* The per-tier RFC (seeds 003/004, never merged): memory_tierN/
 * interleave_weight reads "0:1,1:1,..." for every online source node and
 * takes one "src:weight" per write, weight 0..100. */
#include "wi.h"

#include "error.h"
#include "parse.h"

#include <stdio.h>
#include <string.h>

#define TIER_DIR "/sys/devices/virtual/memory_tiering"

static int rfc_detect(const struct tt_sysfs *s, char *why, size_t size)
{
	char **names = NULL;
	int rc = tt_sysfs_list(s, &names, TIER_DIR);

	if (rc == 0) {
		rc = TT_EUNAVAIL;
		for (char **p = names; *p; p++)
			if (tt_sysfs_exists(s, TIER_DIR "/%s/interleave_weight", *p))
				rc = 0;
		tt_sysfs_free_names(names);
	}
	if (rc == TT_EUNAVAIL)
		snprintf(why, size,
			 "no interleave_weight in %s/memory_tier* (a kernel with the "
			 "per-tier RFC patches)",
			 TIER_DIR);
	return rc;
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

const struct tt_wi_backend tt_wi_rfc = {
	.name = "rfc",
	.summary = "per-tier weights relative to the source node (RFC, seeds 003/004)",
	.min_weight = 0,
	.max_weight = 100,
	.unit = "tier",
	.per_source = true,
	.detect = rfc_detect,
	.read = rfc_read,
	.validate = rfc_validate,
	.write = rfc_write,
};
