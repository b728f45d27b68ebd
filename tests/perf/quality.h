/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the quality benchmarks share (perf-tuner-quality, perf-advice-quality):
 * a case (a model, a source, the nodes, the mix), loaded on the fixture
 * tree the model describes; its noise-free score and grid optimum; and one
 * run through the session `tiertune auto --model` runs (tuner/auto.h), so
 * that neither benchmark measures a copy of auto's setup (issue 33).
 * Header-only: each benchmark is one program (Makefile: tests/perf/NAME.c).
 */
#ifndef TT_PERF_QUALITY_H
#define TT_PERF_QUALITY_H

#include "../../bench/kernels.h"
#include "../../core/bitmap.h"
#include "../../core/error.h"
#include "../../core/sysfs.h"
#include "../../core/topo.h"
#include "../../tuner/auto.h"
#include "../../model/model.h"
#include "../../tuner/report.h"
#include "../../tuner/search.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_SEEDS 200
#define GRID_ENUM_MAX 2000000L /* vectors: enumerate up to this, else search */
#define GRID_BUDGET_MAX 3000   /* the grid's 10% capped here (5+ nodes) */
#define MAX_LIST 8

struct qcase {
	const char *name;  /* shown */
	const char *model; /* model/machines/<model>.json */
	int src;
	int nnodes;
	int nodes[TT_SEARCH_MAX_NODES];
	const char *mix;
	int threads; /* 0: the model's */
};

/* Every shipped model from every CPU node of the machine it describes,
 * over every memory node (auto's default), triad, but those skip names (a
 * case the caller's own table holds): a model shipped after a table was
 * written is never left out. */
#define MAX_EXTRA 32
static struct qcase extra[MAX_EXTRA];
static char extra_name[MAX_EXTRA][96], extra_model[MAX_EXTRA][64];
static int nextra;

static inline void add_sources(const char *dir, const char *fix,
			       bool (*skip)(const struct qcase *c))
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		char path[1024];
		struct tt_model m;
		struct tt_sysfs sfs;
		struct tt_topo t;

		if (len < 6 || len - 5 >= sizeof(extra_model[0]) ||
		    strcmp(e->d_name + len - 5, ".json") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (tt_model_load(&m, path) < 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", fix, m.name);
		if (tt_sysfs_init(&sfs, path) < 0 || tt_topo_load(&t, &sfs) < 0)
			continue;
		for (int i = 0; i < t.nnodes && nextra < MAX_EXTRA; i++) {
			struct qcase *c = &extra[nextra];
			int node;

			if (!t.nodes[i].has_cpu || !tt_model_source(&m, t.nodes[i].id))
				continue;
			memset(c, 0, sizeof(*c));
			snprintf(extra_model[nextra], sizeof(extra_model[0]), "%.*s",
				 (int)(len - 5), e->d_name);
			c->model = extra_model[nextra];
			c->src = t.nodes[i].id;
			tt_nodemask_for_each (node, &t.mem_nodes)
				if (c->nnodes < TT_SEARCH_MAX_NODES)
					c->nodes[c->nnodes++] = node;
			c->mix = "triad";
			snprintf(extra_name[nextra], sizeof(extra_name[0]), "%s from %d all",
				 c->model, c->src);
			c->name = extra_name[nextra];
			if (c->nnodes >= 2 && !(skip && skip(c)))
				nextra++;
		}
		tt_topo_release(&t);
	}
	closedir(d);
}

/* One case, loaded. */
struct qrun {
	const struct qcase *c;
	struct tt_model m;
	struct tt_sysfs sfs; /* the fixture the model describes */
	struct tt_topo t;
	char nodes[64]; /* --nodes */
	struct tt_mix mix;
	long grid;
	double opt;
	uint32_t optw[TT_SEARCH_MAX_NODES];
	uint32_t autow[TT_SEARCH_MAX_NODES]; /* the session's auto baseline */
	double auto_gap;
};

static inline void die(const char *what)
{
	fprintf(stderr, "perf-tuner-quality: %s: %s\n", what, tt_err_msg());
	exit(1);
}

static inline double score(const struct qrun *q, const uint32_t *w)
{
	const struct qcase *c = q->c;
	struct tt_weights tw;
	struct tt_model_result r;

	tt_weights_clear(&tw);
	for (int k = 0; k < c->nnodes; k++)
		if (w[k])
			tt_weights_put(&tw, c->nodes[k], w[k]);
	if (tt_model_eval(&q->m, c->src, &q->mix, c->threads, &tw, &r) < 0)
		die("eval");
	return r.bw_bytes_s;
}

static inline void fmt_w(const uint32_t *w, int n, char *buf, size_t len)
{
	buf[0] = '\0';
	for (int k = 0; k < n; k++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%u", k ? ":" : "", w[k]);
}

static uint64_t rng_state[4];

static inline double score_of(void *q, const uint32_t *w)
{
	return score(q, w);
}

/* The grid's optimum: every vector when there are at most GRID_ENUM_MAX;
 * else integer descent from the best of 40000 random vectors, the
 * baselines and the bandwidth-proportional vector, ten starts. */
static inline void grid_opt(struct qrun *q, bool enumerate)
{
	int n = q->c->nnodes;
	uint32_t w[TT_SEARCH_MAX_NODES];

	q->opt = 0;
	q->grid = tt_grid_count(n, TT_WEIGHTINESS);
	if (enumerate || q->grid <= GRID_ENUM_MAX) {
		struct tt_grid g;

		tt_grid_init(&g, n, TT_WEIGHTINESS);
		while (tt_grid_next(&g, w)) {
			double sc = score(q, w);

			if (sc > q->opt) {
				q->opt = sc;
				memcpy(q->optw, w, sizeof(w));
			}
		}
		return;
	}
	enum { STARTS = 10, SAMPLES = 40000 };
	uint32_t top[STARTS][TT_SEARCH_MAX_NODES];
	double topsc[STARTS];

	for (int s = 0; s < STARTS; s++)
		topsc[s] = 0;
	tt_rng_seed(rng_state, 12345);
	for (int i = 0; i < SAMPLES + 2; i++) {
		bool any = false;
		double sc;
		int lo = 0;

		for (int k = 0; k < n; k++) {
			if (i == SAMPLES) /* the auto formula's */
				w[k] = q->autow[k];
			else if (i == SAMPLES + 1) /* 1:1 */
				w[k] = 1;
			else
				w[k] = (uint32_t)(tt_rng_next(rng_state) % (TT_WEIGHTINESS + 1));
			any |= w[k] > 0;
		}
		if (!any)
			continue;
		tt_weights_reduce_array(w, n);
		sc = score(q, w);
		for (int s = 1; s < STARTS; s++)
			if (topsc[s] < topsc[lo])
				lo = s;
		if (sc > topsc[lo]) {
			topsc[lo] = sc;
			memcpy(top[lo], w, sizeof(w));
		}
	}
	for (int s = 0; s < STARTS; s++) {
		double sc;

		if (!(topsc[s] > 0))
			continue;
		sc = tt_grid_descend(n, TT_WEIGHTINESS, top[s], topsc[s], score_of, q);
		if (sc > q->opt) {
			q->opt = sc;
			memcpy(q->optw, top[s], sizeof(q->optw));
		}
	}
}

static inline int load_case(struct qrun *q, const struct qcase *c, const char *dir, const char *fix)
{
	char path[1024];

	memset(q, 0, sizeof(*q));
	q->c = c;
	snprintf(path, sizeof(path), "%s/%s.json", dir, c->model);
	if (tt_model_load(&q->m, path) < 0 || tt_mix_from_kernel(c->mix, &q->mix) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/%s", fix, q->m.name);
	if (tt_sysfs_init(&q->sfs, path) < 0 || tt_topo_load(&q->t, &q->sfs) < 0)
		return -1;
	for (int k = 0; k < c->nnodes; k++)
		snprintf(q->nodes + strlen(q->nodes), sizeof(q->nodes) - strlen(q->nodes), "%s%d",
			 k ? "," : "", c->nodes[k]);
	return 0;
}

/* One run through the session `tiertune auto --model` runs (tuner/auto.h:
 * the request, tt_auto_nodes, tt_auto_prepare, tt_auto_search), so that
 * these figures are of the code auto runs and cannot drift from it. */
static inline int session(const struct qrun *q, const char *strategy, int budget, double sigma,
			  uint64_t seed, struct tt_auto *a)
{
	const struct qcase *c = q->c;
	struct tt_auto_req req = { .kind = TT_RUN_AUTO,
				   .command = "perf-tuner-quality",
				   .source = c->src,
				   .nodes = q->nodes,
				   .kernel = tt_kernel_find(c->mix),
				   .threads = c->threads,
				   .repeat = 5,
				   .model = &q->m,
				   .sigma = sigma,
				   .seed = seed,
				   .granularity = TT_GRANULARITY_DEFAULT,
				   .strategy = strategy ? tt_strategy_find(strategy) : NULL,
				   .budget_trials = budget };
	int rc;

	if (!req.kernel || (strategy && !req.strategy))
		return tt_err(TT_EINPUT, "unknown mix '%s' or strategy '%s'", c->mix,
			      strategy ? strategy : "");
	tt_auto_init(a, &req, &q->t, &q->sfs, NULL);
	if ((rc = tt_auto_nodes(a)) < 0 || (rc = tt_auto_prepare(a)) < 0)
		return rc;
	if (a->tiers || a->cfg.nnodes != c->nnodes ||
	    memcmp(a->cfg.nodes, c->nodes, sizeof(int) * (size_t)c->nnodes) != 0)
		return tt_err(TT_EINPUT, "the session searches other nodes than the case's");
	return 0;
}

static inline int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

#endif
