// SPDX-License-Identifier: GPL-3.0-or-later
#include "collect.h"

#include "../core/deadline.h"
#include "../core/error.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INTERVAL_S 0.1
/* Readings kept: 40 B each, so 5 MiB; at 30 metrics and 10 Hz that is over
 * 7 minutes of a measured phase. Older readings are counted as lost. */
#define RING (1 << 17)

struct tt_collect {
	struct tt_source **src;
	int n;
	struct tt_sampler *s;
	pthread_mutex_t mu;
	double begin, end;     /* the measured phase, monotonic seconds; 0 unset */
	char unavailable[256]; /* why no traffic source was asked for or works */
};

int tt_collect_begin(const struct tt_collect_ctx *ctx, const char *list, struct tt_collect **out)
{
	struct tt_collect *c = calloc(1, sizeof(*c));
	int rc;

	*out = NULL;
	if (!c)
		return tt_err(TT_EFAIL, "out of memory");
	rc = tt_collectors_open(ctx, list, &c->src, &c->n);
	if (rc == 0)
		rc = tt_sampler_start(&c->s, c->src, c->n, INTERVAL_S, RING);
	if (rc < 0) {
		tt_collectors_close(c->src, c->n);
		free(c);
		return rc;
	}
	/* Say why per-node traffic may be missing, for the report: why the
	 * best traffic source there is cannot run here. */
	const struct tt_collector *best = NULL;
	char why[200] = "";

	for (const struct tt_collector *const *t = tt_collectors; *t; t++)
		if (tt_collector_traffic_rank(*t) >= 0 &&
		    (!best || tt_collector_traffic_rank(*t) < tt_collector_traffic_rank(best)))
			best = *t;
	if (best && tt_collector_probe(best, ctx, why, sizeof(why)) < 0)
		snprintf(c->unavailable, sizeof(c->unavailable), "%s: %s", best->name, why);
	pthread_mutex_init(&c->mu, NULL);
	*out = c;
	return 0;
}

void tt_collect_phase(void *collect, bool measuring)
{
	struct tt_collect *c = collect;

	pthread_mutex_lock(&c->mu);
	if (measuring)
		c->begin = tt_mono_s();
	else
		c->end = tt_mono_s();
	pthread_mutex_unlock(&c->mu);
}

/* A per-node traffic figure that was measured in the window. */
static bool is_bw(const struct tt_metric_summary *m)
{
	const struct tt_metric_meaning *mm = tt_collector_meaning(m->collector, m->metric.name);

	return mm && mm->role >= TT_ROLE_READ_BYTES && mm->role <= TT_ROLE_TOTAL_BYTES &&
	       m->metric.node >= 0 && !isnan(m->mean);
}

static bool has_bw(const struct tt_collect_summary *sum, const struct tt_collector *c)
{
	for (int i = 0; i < sum->n; i++)
		if (sum->metrics[i].collector == c && is_bw(&sum->metrics[i]))
			return true;
	return false;
}

/* Bytes/s per node from the best traffic source among those open (as the
 * collectors rank themselves: tt_collector_traffic_rank): its read, write
 * or total bytes on each node. */
static void per_node(struct tt_collect_summary *sum)
{
	const struct tt_collector *best = NULL;

	for (int i = 0; i < sum->n; i++) {
		const struct tt_collector *c = sum->metrics[i].collector;
		int r = tt_collector_traffic_rank(c);

		if (r >= 0 && (!best || r < tt_collector_traffic_rank(best)) && has_bw(sum, c))
			best = c;
	}
	for (int i = 0; best && i < sum->n; i++) {
		const struct tt_metric_summary *m = &sum->metrics[i];

		if (m->collector != best || !is_bw(m))
			continue;
		sum->node_bw[m->metric.node] += m->mean;
		sum->node_has_bw[m->metric.node] = true;
		sum->bw_source = best->name;
		sum->bw_simulated = best->flags & TT_C_SIMULATED;
	}
}

/* "no traffic collector (perf-uncore, resctrl, model) was asked for", the
 * names from the collectors that declare traffic. */
static void no_traffic_asked(char *buf, size_t size)
{
	size_t len = (size_t)snprintf(buf, size, "no traffic collector (");

	for (const struct tt_collector *const *t = tt_collectors; *t && len < size; t++)
		if (tt_collector_traffic_rank(*t) >= 0)
			len += (size_t)snprintf(buf + len, size - len, "%s%s",
						buf[len - 1] == '(' ? "" : ", ", (*t)->name);
	if (len < size)
		snprintf(buf + len, size - len, ") was asked for");
}

/* Every reading the sampler holds, into *all (n of them); lost counts
 * what it dropped. */
static int drain(struct tt_collect *c, struct tt_reading **all, size_t *n, uint64_t *lost)
{
	size_t cap = 0, got;
	uint64_t seq = 0;

	for (;;) {
		if (*n + 4096 > cap) {
			struct tt_reading *na = realloc(*all, (cap + 65536) * sizeof(*na));

			if (!na)
				return tt_err(TT_EFAIL, "out of memory");
			*all = na;
			cap += 65536;
		}
		got = tt_sampler_read(c->s, &seq, *all + *n, 4096, lost);
		if (!got)
			return 0;
		*n += got;
	}
}

/* Metric m of source i over the phase [begin, end]: its mean over the OK
 * readings, and how many were OK, not yet ready and stale. */
static void summarise_metric(struct tt_metric_summary *ms, const struct tt_reading *all, size_t n,
			     int i, int m, double begin, double end)
{
	double acc = 0;

	for (size_t r = 0; r < n; r++) {
		/* A rate counts only when its whole interval lies in the
		 * phase: one that began before it would carry the placement's
		 * page faults into the measurement. */
		if (all[r].source != i || all[r].metric != m || !begin || all[r].since_s < begin ||
		    all[r].t_s > end)
			continue;
		if (all[r].state == TT_S_OK) {
			ms->ok++;
			acc += all[r].value;
		} else if (all[r].state == TT_S_INIT) {
			ms->init++;
		} else {
			ms->stale++;
		}
	}
	ms->mean = ms->ok ? acc / ms->ok : NAN;
}

/* Keeps the window's readings for the database (sum takes all), and says
 * what the summary lacks: a phase too short, no traffic figure. */
static void keep_window(const struct tt_collect *c, struct tt_collect_summary *sum,
			struct tt_reading *all, size_t n, double begin, double end)
{
	size_t w = 0;

	for (size_t r = 0; r < n; r++)
		if (begin && all[r].since_s >= begin && all[r].t_s <= end)
			all[w++] = all[r];
	sum->readings = all;
	sum->nreadings = w;
	per_node(sum);
	if (sum->window_s < 2 * INTERVAL_S)
		snprintf(sum->note, sizeof(sum->note),
			 "the measured phase (%.3f s) is shorter than two sampling "
			 "intervals "
			 "(%.1f s): run longer (--repeat, --size) for collector figures",
			 sum->window_s, INTERVAL_S);
	if (!sum->bw_source && c->unavailable[0])
		snprintf(sum->why_no_bw, sizeof(sum->why_no_bw), "%s", c->unavailable);
	else if (!sum->bw_source)
		no_traffic_asked(sum->why_no_bw, sizeof(sum->why_no_bw));
}

int tt_collect_end(struct tt_collect *c, struct tt_collect_summary *sum)
{
	struct tt_reading *all = NULL;
	size_t n = 0;
	int rc, total = 0;

	memset(sum, 0, sizeof(*sum));
	tt_sampler_stop(c->s);
	rc = drain(c, &all, &n, &sum->lost);
	for (int i = 0; i < c->n; i++)
		total += c->src[i]->nmetrics;
	sum->metrics = calloc((size_t)(total ? total : 1), sizeof(*sum->metrics));
	if (!sum->metrics && rc == 0)
		rc = tt_err(TT_EFAIL, "out of memory");
	double begin = c->begin, end = c->end ? c->end : tt_mono_s();
	sum->window_s = begin ? end - begin : 0;
	for (int i = 0, k = 0; rc == 0 && i < c->n; i++) {
		for (int m = 0; m < c->src[i]->nmetrics; m++, k++) {
			struct tt_metric_summary *ms = &sum->metrics[k];

			ms->collector = c->src[i]->c;
			ms->source = i;
			ms->index = m;
			ms->metric = c->src[i]->metrics[m];
			summarise_metric(ms, all, n, i, m, begin, end);
		}
		sum->n += c->src[i]->nmetrics;
	}
	if (rc == 0) {
		keep_window(c, sum, all, n, begin, end);
		all = NULL;
	}
	free(all);
	tt_sampler_free(c->s);
	tt_collectors_close(c->src, c->n);
	pthread_mutex_destroy(&c->mu);
	free(c);
	return rc;
}

void tt_collect_summary_release(struct tt_collect_summary *sum)
{
	free(sum->metrics);
	free(sum->readings);
	memset(sum, 0, sizeof(*sum));
}
