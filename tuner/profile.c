// SPDX-License-Identifier: GPL-3.0-or-later
/* The profile before the search: measured, modelled or HMAT's (profile.h). */
#include "profile.h"

#include "../core/error.h"
#include "trial.h"

#include <math.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void init(struct tt_profile *p, int src, const int *nodes, int n)
{
	memset(p, 0, sizeof(*p));
	p->source = src;
	p->n = n < TT_SEARCH_MAX_NODES ? n : TT_SEARCH_MAX_NODES;
	for (int k = 0; k < p->n; k++) {
		p->nodes[k].node = nodes[k];
		p->nodes[k].from = "none";
	}
}

/* One kernel on one node: every page there by exact placement, as the
 * search's trials place theirs; the median pass. */
static int run_one(const struct tt_bench_opts *tmpl, const struct tt_kernel *k, int threads,
		   int node, struct tt_bench_result *out)
{
	struct tt_weights w;
	struct tt_trial_opts o = { .bench = *tmpl, .weights = &w };
	struct tt_trial_result *r;
	int rc;

	tt_weights_clear(&w);
	tt_weights_put(&w, node, 1);
	o.bench.kernel = k;
	o.bench.threads = threads;
	o.bench.phase = NULL;
	rc = tt_place_init(&o.bench.place, TT_PLACE_EXACT, &w.set, &w, tmpl->source_node);
	if (rc == 0)
		rc = tt_trial_run(&o, &r);
	if (rc < 0)
		return rc;
	*out = r->bench;
	tt_trial_free(r);
	return 0;
}

int tt_profile_measure(struct tt_profile *p, const struct tt_bench_opts *tmpl, const int *nodes,
		       int n, double budget_s)
{
	double t0 = now_s();
	struct tt_bench_result r;
	int rc = 0;

	init(p, tmpl->source_node, nodes, n);
	for (int k = 0; k < p->n; k++) {
		struct tt_profile_node *pn = &p->nodes[k];
		double used = now_s() - t0;

		if (budget_s > 0 && k > 0 && used + used / k > budget_s) {
			p->skipped = "the time budget";
			break;
		}
		rc = run_one(tmpl, tmpl->kernel, tmpl->threads, pn->node, &r);
		if (rc == 0) {
			p->runs++;
			pn->bw_bytes_s = r.bw_median_bytes_s;
			/* Idle latency is one thread, whatever the mix runs. */
			rc = run_one(tmpl, &tt_k_latency, 0, pn->node, &r);
		}
		if (rc < 0) {
			tt_err_prefix("profile from node %d to node %d", p->source, pn->node);
			break;
		}
		p->runs++;
		pn->lat_ns = r.lat_median_ns;
		pn->from = "measured";
	}
	p->elapsed_s = now_s() - t0;
	return rc;
}

int tt_profile_model(struct tt_profile *p, const struct tt_model *m, int src, const int *nodes,
		     int n)
{
	const struct tt_model_source *s = tt_model_source(m, src);
	double bw[TT_SEARCH_MAX_NODES];
	int rc;

	init(p, src, nodes, n);
	if ((rc = tt_model_profile(m, src, nodes, p->n, bw)) < 0)
		return rc;
	for (int k = 0; k < p->n; k++) {
		p->nodes[k].bw_bytes_s = bw[k];
		p->nodes[k].from = "model";
		for (int i = 0; i < s->nnodes; i++)
			if (s->nodes[i].node == nodes[k])
				p->nodes[k].lat_ns = s->nodes[i].idle_lat_ns;
	}
	return 0;
}

void tt_profile_hmat(struct tt_profile *p, const struct tt_topo *t, int src, const int *nodes,
		     int n)
{
	init(p, src, nodes, n);
	for (int k = 0; k < p->n; k++) {
		const struct tt_node *nd = tt_topo_node(t, nodes[k]);
		uint64_t mb = tt_hmat_auto_bw_mb_s(nd);

		if (!mb)
			continue;
		p->nodes[k].bw_bytes_s = (double)mb * 1e6; /* the ABI's MB/s */
		p->nodes[k].lat_ns = (double)nd->access[1].read_lat_ns;
		p->nodes[k].from = "hmat";
	}
}

bool tt_profile_complete(const struct tt_profile *p)
{
	for (int k = 0; k < p->n; k++)
		if (!(p->nodes[k].bw_bytes_s > 0) || !isfinite(p->nodes[k].bw_bytes_s))
			return false;
	return p->n > 0;
}

void tt_profile_bw(const struct tt_profile *p, double *bw_bytes_s)
{
	for (int k = 0; k < p->n; k++)
		bw_bytes_s[k] = p->nodes[k].bw_bytes_s;
}

void tt_profile_lat(const struct tt_profile *p, double *lat_ns)
{
	for (int k = 0; k < p->n; k++)
		lat_ns[k] = p->nodes[k].lat_ns;
}

int tt_profile_cost(int nnodes)
{
	return nnodes;
}
