// SPDX-License-Identifier: GPL-3.0-or-later
/* The profile before the search: measured, modelled or HMAT's (profile.h). */
#include "profile.h"

#include "../core/error.h"
#include "trial.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void tt_profile_init(struct tt_profile *p, int src, const int *nodes, int n)
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

/* The median of three. */
static double median3(double a, double b, double c)
{
	return a > b ? (b > c ? b : (a > c ? c : a)) : (a > c ? a : (b > c ? c : b));
}

/* Two figures of one node further apart than TT_PROFILE_DRIFT. */
static bool drifted(double a, double b)
{
	double hi = fmax(a, b);

	return hi > 0 && fabs(a - b) / hi > TT_PROFILE_DRIFT;
}

/* One figure from its measurements in both passes: their mean (the passes
 * run in opposite orders, so every node's mean is taken at the same mean
 * time: a drift linear in time biases none); measured a third time where
 * the two differ beyond TT_PROFILE_DRIFT, the median of the three kept and
 * the drift said (the QEMU suite showed idle latencies falling in
 * measurement order, 137 -> 17 -> 16 ns: the first run paid for what later
 * ones found warm). */
static int settle(struct tt_profile *p, const struct tt_profile_probe *pr, int k, bool lat,
		  double a, double b, double *out)
{
	struct tt_profile_node *pn = &p->nodes[k];
	double c;
	int rc;

	*out = (a + b) / 2;
	if (!drifted(a, b))
		return 0;
	rc = lat ? pr->lat(pr->ctx, pn->node, &c) : pr->bw(pr->ctx, pn->node, &c);
	if (rc < 0)
		return rc;
	p->runs++;
	*out = median3(a, b, c);
	p->ndrift++;
	if (!p->drift[0])
		snprintf(p->drift, sizeof(p->drift),
			 "node %d's %s moved from %.4g to %.4g %s between the profile's passes "
			 "(%.4g a third time; the median kept)",
			 pn->node, lat ? "idle latency" : "bandwidth", lat ? a : a / 1e9,
			 lat ? b : b / 1e9, lat ? "ns" : "GB/s", lat ? c : c / 1e9);
	return 0;
}

int tt_profile_run(struct tt_profile *p, const struct tt_profile_probe *pr, int src,
		   const int *nodes, int n, double budget_s)
{
	double t0 = now_s(), bw[TT_SEARCH_MAX_NODES][2], lat[TT_SEARCH_MAX_NODES][2];
	int seen[TT_SEARCH_MAX_NODES] = { 0 }, rc = 0, failed = -1;

	tt_profile_init(p, src, nodes, n);
	/* Two passes, the second in reverse order: each node measured twice
	 * at the same mean time. */
	for (int v = 0; v < 2 * p->n && rc == 0; v++) {
		int k = v < p->n ? v : 2 * p->n - 1 - v;
		struct tt_profile_node *pn = &p->nodes[k];
		double used = now_s() - t0;

		if (budget_s > 0 && v > 0 && used + used / v > budget_s)
			break;
		rc = pr->bw(pr->ctx, pn->node, &bw[k][seen[k]]);
		if (rc == 0) {
			p->runs++;
			rc = pr->lat(pr->ctx, pn->node, &lat[k][seen[k]]);
		}
		if (rc < 0) {
			failed = k;
			break;
		}
		p->runs++;
		seen[k]++;
	}
	for (int k = 0; k < p->n && rc == 0; k++) {
		struct tt_profile_node *pn = &p->nodes[k];

		if (!seen[k]) {
			p->skipped = "the time budget";
			continue;
		}
		pn->bw_bytes_s = bw[k][0];
		pn->lat_ns = lat[k][0];
		if (seen[k] == 2 &&
		    ((rc = settle(p, pr, k, false, bw[k][0], bw[k][1], &pn->bw_bytes_s)) < 0 ||
		     (rc = settle(p, pr, k, true, lat[k][0], lat[k][1], &pn->lat_ns)) < 0)) {
			failed = k;
			break;
		}
		/* A pointer chase faster than any memory measured a cache (its
		 * array too small, or a VM's timer): no idle latency. */
		if (pn->lat_ns < TT_PROFILE_MIN_LAT_NS) {
			if (!p->lat_refused[0])
				snprintf(p->lat_refused, sizeof(p->lat_refused),
					 "node %d's idle latency measured %.3g ns, below any "
					 "memory's %d: a cache's, left unknown",
					 pn->node, pn->lat_ns, TT_PROFILE_MIN_LAT_NS);
			pn->lat_ns = 0;
		}
		pn->from = "measured";
	}
	if (rc < 0)
		tt_err_prefix("profile from node %d to node %d", p->source, p->nodes[failed].node);
	p->elapsed_s = now_s() - t0;
	return rc;
}

struct bench_probe {
	const struct tt_bench_opts *tmpl;
	struct tt_profile *p;
};

/* A run's judgements kept with its node (bench's, as every command shows
 * them): a figure of a cache or of a descheduled pass is said, not hidden
 * in a mean. */
static void judged(const struct bench_probe *b, int node, const struct tt_bench_result *r)
{
	for (int k = 0; k < b->p->n; k++)
		if (b->p->nodes[k].node == node)
			b->p->nodes[k].judged |= tt_bench_judged(r);
}

static int bench_bw(void *ctx, int node, double *bytes_s)
{
	const struct bench_probe *b = ctx;
	struct tt_bench_result r;
	int rc = run_one(b->tmpl, b->tmpl->kernel, b->tmpl->threads, node, &r);

	if (rc == 0) {
		*bytes_s = r.bw_median_bytes_s;
		judged(b, node, &r);
	}
	return rc;
}

/* Idle latency is one thread, whatever the mix runs. */
static int bench_lat(void *ctx, int node, double *ns)
{
	const struct bench_probe *b = ctx;
	struct tt_bench_result r;
	int rc = run_one(b->tmpl, &tt_k_latency, 0, node, &r);

	if (rc == 0) {
		*ns = r.lat_median_ns;
		judged(b, node, &r);
	}
	return rc;
}

int tt_profile_measure(struct tt_profile *p, const struct tt_bench_opts *tmpl, const int *nodes,
		       int n, double budget_s)
{
	struct bench_probe b = { .tmpl = tmpl, .p = p };
	const struct tt_profile_probe pr = { .bw = bench_bw, .lat = bench_lat, .ctx = &b };

	return tt_profile_run(p, &pr, tmpl->source_node, nodes, n, budget_s);
}

void tt_profile_hmat(struct tt_profile *p, const struct tt_topo *t, int src, const int *nodes,
		     int n)
{
	tt_profile_init(p, src, nodes, n);
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
	return 2 * nnodes;
}
