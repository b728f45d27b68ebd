// SPDX-License-Identifier: GPL-3.0-or-later
/* Walking the weight-interface table (wi.c) and the state the backends
 * share. */
#include "wi.h"

#include "error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct tt_wi_backend *tt_wi_find(const char *name)
{
	for (const struct tt_wi_backend *const *b = tt_wi_backends; *b; b++)
		if (strcmp((*b)->name, name) == 0)
			return *b;
	return NULL;
}

const struct tt_wi_backend *tt_wi_for_key(enum tt_wi_key key)
{
	for (const struct tt_wi_backend *const *b = tt_wi_backends; *b; b++)
		if ((*b)->key == key)
			return *b;
	return NULL;
}

const char *tt_wi_names(const char *sep, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (const struct tt_wi_backend *const *b = tt_wi_backends; *b && len < size; b++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
					b == tt_wi_backends ? "" : sep, (*b)->name);
	return buf;
}

int tt_wi_first(const struct tt_sysfs *s, const struct tt_wi_backend **be, char *why, size_t size)
{
	char one[256];
	size_t len = 0;

	why[0] = '\0';
	for (const struct tt_wi_backend *const *b = tt_wi_backends; *b; b++) {
		if ((*b)->detect(s, one, sizeof(one)) == 0) {
			*be = *b;
			return 0;
		}
		if (len < size)
			len += (size_t)snprintf(why + len, size - len, "%s%s", len ? "; " : "",
						one);
	}
	*be = NULL;
	return TT_EUNAVAIL;
}

int tt_wi_pick(const struct tt_sysfs *s, const char *name, const struct tt_wi_backend **be)
{
	char why[1024], names[256];

	if (name) {
		*be = tt_wi_find(name);
		if (!*be)
			return tt_err(TT_EINPUT, "interface '%s' is not one of %s", name,
				      tt_wi_names(", ", names, sizeof(names)));
		if ((*be)->detect(s, why, sizeof(why)) < 0)
			return tt_err(TT_EUNAVAIL, "interface %s is not available: %s", name, why);
		return 0;
	}
	if (tt_wi_first(s, be, why, sizeof(why)) == 0)
		return 0;
	return tt_err(TT_EUNAVAIL, "no weight interface: %s", why);
}

int tt_wi_order(const struct tt_wi_backend *be, const struct tt_wi_state *st,
		const struct tt_topo *t, int src, const struct tt_nodemask *mask,
		struct tt_il_order *o)
{
	struct tt_weights w;

	be->current(st, t, src, &w);
	return be->order(o, mask, t, &w);
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

int tt_wi_writes_each(const struct tt_weights *w, int src, enum tt_write_kind kind,
		      const char *file_fmt, tt_wi_write_fn fn, void *ctx)
{
	char file[160], value[32];
	int id, rc;

	tt_weights_for_each(id, w)
	{
		snprintf(file, sizeof(file), file_fmt, id);
		if (kind == TT_WRITE_ENTRY)
			snprintf(value, sizeof(value), "%d:%u", src, tt_weights_get(w, id, 0));
		else
			snprintf(value, sizeof(value), "%u", tt_weights_get(w, id, 0));
		rc = fn(ctx, kind, kind == TT_WRITE_ENTRY ? src : -1, file, value, false);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static const char *id_prefix(const char *s, unsigned long max)
{
	unsigned long v = 0;
	const char *p = s;

	while (*p >= '0' && *p <= '9' && p - s < 10)
		v = v * 10 + (unsigned long)(*p++ - '0');
	if (p == s || (*s == '0' && p - s > 1) || v > max || (*p >= '0' && *p <= '9'))
		return NULL;
	return p;
}

const char *tt_wi_id_prefix(const char *s)
{
	return id_prefix(s, TT_MAX_NODES - 1);
}

const char *tt_wi_tier_prefix(const char *s)
{
	return id_prefix(s, TT_MAX_TIER_ID);
}

enum tt_wi_tier_form tt_wi_tier_form(const struct tt_sysfs *s)
{
	enum tt_wi_tier_form form = TT_TIER_FORM_NONE;
	char **names = NULL, buf[8192];

	if (tt_sysfs_list(s, &names, TT_WI_TIER_DIR) < 0)
		return TT_TIER_FORM_NONE;
	for (char **p = names; *p && form != TT_TIER_FORM_PER_SOURCE; p++) {
		if (strncmp(*p, "memory_tier", 11) ||
		    tt_sysfs_read(s, buf, sizeof(buf), TT_WI_TIER_DIR "/%s/interleave_weight", *p) <
			    0)
			continue;
		form = buf[0] && strspn(buf, "0123456789") == strlen(buf) ? TT_TIER_FORM_ONE
									  : TT_TIER_FORM_PER_SOURCE;
	}
	tt_sysfs_free_names(names);
	return form;
}

bool tt_wi_weight_file(const char *rel, enum tt_write_kind *kind)
{
	enum tt_write_kind k;

	for (const struct tt_wi_backend *const *b = tt_wi_backends; *b; b++)
		if ((*b)->weight_file(rel, &k)) {
			if (kind)
				*kind = k;
			return true;
		}
	return false;
}

bool tt_wi_weight_file_takes(const char *rel, enum tt_write_kind kind)
{
	enum tt_write_kind k;

	for (const struct tt_wi_backend *const *b = tt_wi_backends; *b; b++)
		if ((*b)->weight_file(rel, &k) && k == kind)
			return true;
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
	if (be->key == TT_WI_BY_NODE && w->nbig) {
		rc = tt_err(TT_EINPUT, "node %d out of range (0-%d)", w->big[0].id,
			    TT_MAX_NODES - 1);
		goto out;
	}
	if (!be->per_source) {
		want.node = *w;
		want.auto_mode = -1;
	} else {
		int id;

		tt_weights_for_each(id, w)
		{
			struct tt_wi_tier *wt = tt_wi_state_add_tier(&want, id);

			if (!wt) {
				rc = tt_err(TT_EFAIL, "out of memory");
				goto out;
			}
			tt_weights_put(&wt->by_src, src, tt_weights_get(w, id, 0));
		}
	}
	rc = be->validate(t, &cur, &want);
out:
	tt_wi_state_release(&cur);
	tt_wi_state_release(&want);
	return rc;
}
