// SPDX-License-Identifier: GPL-3.0-or-later
#include "collector.h"

#include "../core/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct tt_collector *const tt_collectors[] = {
	&tt_c_numastat, &tt_c_uncore,  &tt_c_pfm,   &tt_c_papi,
	&tt_c_likwid,	&tt_c_resctrl, &tt_c_model, NULL,
};

const struct tt_collector *tt_collector_find(const char *name)
{
	for (const struct tt_collector *const *c = tt_collectors; *c; c++)
		if (strcmp((*c)->name, name) == 0)
			return *c;
	return NULL;
}

const struct tt_metric_meaning *tt_collector_meaning(const struct tt_collector *c, const char *name)
{
	for (const struct tt_metric_meaning *m = c->meanings; m && m->metric; m++)
		if (strcmp(m->metric, name) == 0)
			return m;
	return NULL;
}

bool tt_collector_gives(const struct tt_collector *c, enum tt_metric_role role)
{
	for (const struct tt_metric_meaning *m = c->meanings; m && m->metric; m++)
		if (m->role == role)
			return true;
	return false;
}

int tt_collector_traffic_rank(const struct tt_collector *c)
{
	bool cpus = false;

	if (!tt_collector_gives(c, TT_ROLE_READ_BYTES) &&
	    !tt_collector_gives(c, TT_ROLE_TOTAL_BYTES))
		return -1;
	for (const struct tt_metric_meaning *m = c->meanings; m->metric; m++)
		cpus |= m->role >= TT_ROLE_READ_BYTES && m->role <= TT_ROLE_TOTAL_BYTES &&
			m->scope == TT_SCOPE_CPUS;
	return (c->flags & TT_C_SIMULATED ? 4 : 0) + (cpus ? 2 : 0) +
	       !tt_collector_gives(c, TT_ROLE_WRITE_BYTES);
}

struct tt_source *tt_source_new(const struct tt_collector *c, int cap)
{
	struct tt_source *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->c = c;
	s->metrics = calloc((size_t)(cap > 0 ? cap : 1), sizeof(*s->metrics));
	if (!s->metrics) {
		free(s);
		return NULL;
	}
	return s;
}

struct tt_metric *tt_source_add(struct tt_source *s, int *cap, const char *name, const char *unit,
				enum tt_metric_kind kind, int node, const char *source)
{
	struct tt_metric *m;

	if (s->nmetrics == *cap) {
		int ncap = *cap ? 2 * *cap : 8;
		struct tt_metric *nm = realloc(s->metrics, (size_t)ncap * sizeof(*nm));

		if (!nm)
			return NULL;
		s->metrics = nm;
		*cap = ncap;
	}
	m = &s->metrics[s->nmetrics++];
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "%s", name);
	snprintf(m->unit, sizeof(m->unit), "%s", unit);
	snprintf(m->source, sizeof(m->source), "%s", source ? source : "");
	m->kind = kind;
	m->node = node;
	m->scale = 1;
	return m;
}

void tt_source_free(struct tt_source *s)
{
	if (!s)
		return;
	free(s->metrics);
	free(s);
}

int tt_collectors_open(const struct tt_collect_ctx *ctx, const char *list,
		       struct tt_source ***sources, int *n)
{
	char buf[1024], *save = NULL, why[1024];
	int count = 0, rc = 0;

	*sources = NULL;
	*n = 0;
	if (snprintf(buf, sizeof(buf), "%s", list) >= (int)sizeof(buf))
		return tt_err(TT_EINPUT, "collector list '%.40s...' is too long", list);
	for (char *name = strtok_r(buf, ",", &save); name; name = strtok_r(NULL, ",", &save))
		count++;
	if (!count)
		return tt_err(TT_EINPUT, "collector list '%s' names no collector", list);
	*sources = calloc((size_t)count, sizeof(**sources));
	if (!*sources)
		return tt_err(TT_EFAIL, "out of memory");
	snprintf(buf, sizeof(buf), "%s", list);
	for (char *name = strtok_r(buf, ",", &save); name && rc == 0;
	     name = strtok_r(NULL, ",", &save)) {
		const struct tt_collector *c = tt_collector_find(name);

		if (!c) {
			rc = tt_err(TT_EINPUT, "unknown collector '%s' (see 'tiertune collectors')",
				    name);
			break;
		}
		for (int i = 0; i < *n; i++)
			if ((*sources)[i]->c == c)
				rc = tt_err(TT_EINPUT, "collector '%s' is listed twice", name);
		if (rc < 0)
			break;
		why[0] = '\0';
		rc = tt_collector_probe(c, ctx, why, sizeof(why));
		if (rc < 0) {
			rc = tt_err(rc == TT_EINPUT ? TT_EINPUT : TT_EUNAVAIL,
				    "collector %s is unavailable: %s", name, why);
			break;
		}
		rc = c->open(ctx, &(*sources)[*n]);
		if (rc < 0)
			tt_err_prefix("collector %s", name);
		else
			(*n)++;
	}
	if (rc < 0) {
		tt_collectors_close(*sources, *n);
		*sources = NULL;
		*n = 0;
	}
	return rc;
}

int tt_collector_probe(const struct tt_collector *c, const struct tt_collect_ctx *ctx, char *why,
		       size_t size)
{
	if (c->unbuilt) {
		snprintf(why, size, "%s", c->unbuilt);
		return TT_EUNAVAIL;
	}
	return c->probe(ctx, why, size);
}

bool tt_collectors_simulated(const char *list)
{
	char buf[1024], *save = NULL;
	bool any = false;

	snprintf(buf, sizeof(buf), "%s", list);
	for (char *name = strtok_r(buf, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		const struct tt_collector *c = tt_collector_find(name);

		any |= c && (c->flags & TT_C_SIMULATED);
	}
	return any;
}

void tt_collectors_close(struct tt_source **sources, int n)
{
	for (int i = 0; i < n; i++)
		sources[i]->c->close(sources[i]);
	free(sources);
}
