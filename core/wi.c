#include "wi.h"

#include "error.h"

#include <stdlib.h>
#include <string.h>

const struct tt_wi_backend *const tt_wi_backends[] = {
	&tt_wi_upstream,
	&tt_wi_rfc,
	NULL,
};

const struct tt_wi_backend *tt_wi_find(const char *name)
{
	for (const struct tt_wi_backend *const *b = tt_wi_backends; *b; b++)
		if (strcmp((*b)->name, name) == 0)
			return *b;
	return NULL;
}

void tt_wi_state_init(struct tt_wi_state *st)
{
	memset(st, 0, sizeof(*st));
	st->auto_mode = -1;
}

void tt_wi_state_release(struct tt_wi_state *st)
{
	free(st->tiers);
	tt_wi_state_init(st);
}

const struct tt_wi_tier *tt_wi_state_find_tier(const struct tt_wi_state *st, int tier)
{
	for (int i = 0; i < st->ntiers; i++)
		if (st->tiers[i].tier == tier)
			return &st->tiers[i];
	return NULL;
}

struct tt_wi_tier *tt_wi_state_add_tier(struct tt_wi_state *st, int tier)
{
	struct tt_wi_tier *nt;
	int i;

	for (i = 0; i < st->ntiers; i++)
		if (st->tiers[i].tier == tier)
			return &st->tiers[i];
	nt = realloc(st->tiers, (size_t)(st->ntiers + 1) * sizeof(*nt));
	if (!nt) {
		tt_err(TT_EFAIL, "out of memory");
		return NULL;
	}
	st->tiers = nt;
	for (i = st->ntiers; i > 0 && st->tiers[i - 1].tier > tier; i--)
		st->tiers[i] = st->tiers[i - 1];
	memset(&st->tiers[i], 0, sizeof(st->tiers[i]));
	st->tiers[i].tier = tier;
	st->ntiers++;
	return &st->tiers[i];
}

void tt_wi_rfc_tier_weights(const struct tt_wi_state *st, const struct tt_topo *t, int src,
			    uint32_t *out)
{
	for (int i = 0; i < t->ntiers; i++) {
		const struct tt_wi_tier *wt = tt_wi_state_find_tier(st, t->tiers[i].id);

		out[i] = wt ? tt_weights_get(&wt->by_src, src, 1) : 1;
	}
}

/* A node or tier id as the kernel prints it: decimal, no sign, no leading
 * zero, below TT_MAX_NODES. Returns the text after it, or NULL. */
static const char *id_prefix(const char *s)
{
	unsigned long v = 0;
	const char *p = s;

	while (*p >= '0' && *p <= '9' && p - s < 6)
		v = v * 10 + (unsigned long)(*p++ - '0');
	if (p == s || (*s == '0' && p - s > 1) || v >= TT_MAX_NODES)
		return NULL;
	return p;
}

bool tt_wi_weight_file(const char *rel)
{
	static const char up[] = TT_WI_UPSTREAM_DIR "/", tier[] = TT_WI_TIER_DIR "/memory_tier";
	const char *p;

	if (strncmp(rel, up, sizeof(up) - 1) == 0) {
		p = rel + sizeof(up) - 1;
		if (strcmp(p, "auto") == 0 || strcmp(p, "__auto_type") == 0)
			return true;
		return strncmp(p, "node", 4) == 0 && (p = id_prefix(p + 4)) && !*p;
	}
	if (strncmp(rel, tier, sizeof(tier) - 1) == 0) {
		p = id_prefix(rel + sizeof(tier) - 1);
		return p && strcmp(p, "/interleave_weight") == 0;
	}
	return false;
}

int tt_wi_check(const struct tt_wi_backend *be, const struct tt_sysfs *s, const struct tt_topo *t,
		int src, const struct tt_weights *w)
{
	struct tt_wi_state cur, want;
	int rc = tt_topo_check_source(t, src);

	if (rc < 0)
		return rc;
	if (be->per_source && src < 0)
		return tt_err(TT_EINPUT, "%s weights are per source node: give --source-node N",
			      be->name);
	tt_wi_state_init(&cur);
	tt_wi_state_init(&want);
	rc = be->read(s, t, &cur);
	if (rc < 0)
		goto out;
	if (!be->per_source) {
		want.node = *w;
		want.auto_mode = -1;
	} else {
		int tier;

		tt_nodemask_for_each (tier, &w->set) {
			struct tt_wi_tier *wt = tt_wi_state_add_tier(&want, tier);

			if (!wt) {
				rc = tt_err(TT_EFAIL, "out of memory");
				goto out;
			}
			tt_weights_put(&wt->by_src, src, w->w[tier]);
		}
	}
	rc = be->validate(t, &cur, &want);
out:
	tt_wi_state_release(&cur);
	tt_wi_state_release(&want);
	return rc;
}
