/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The profile: bandwidth and idle latency from the source node to each
 * node the search interleaves over, each node alone, before the search. It
 * is the search's prior (tt_search_cfg.prior_bw_bytes_s, prior_lat_ns) and, where HMAT
 * lacks figures, the auto-mode baseline's input. HMAT gives each node's
 * figures from its best initiator only (struct tt_hmat), so from another
 * socket it overstates; the profile measures from the source itself. HMAT
 * is the first guess only when the profile is skipped.
 *
 *	struct tt_profile p;
 *	tt_profile_measure(&p, &bench_opts, nodes, n, 0);   (real trials)
 *	or tt_profile_model(&p, &model, src, nodes, n);     (--model, model/model.h)
 *	or tt_profile_hmat(&p, topo, src, nodes, n);        (skipped)
 *	if (tt_profile_complete(&p)) tt_profile_bw(&p, cfg.prior_bw_bytes_s);
 *	and, measured or the model's, tt_profile_lat(&p, cfg.prior_lat_ns);
 *
 * Measured: the bandwidth is the mix kernel with every source thread, its
 * pages 100% on the node by exact placement (measure/trial.h, as a trial of
 * the search is run), its median pass; the latency is bench's pointer
 * chase (tt_k_latency, one thread), its median pass. Neither is recorded:
 * the figures go into the auto run's report.
 */
#ifndef TT_PROFILE_H
#define TT_PROFILE_H

#include "../bench/run.h"
#include "../core/topo.h"
#include "sample.h"

#include <stdbool.h>

struct tt_profile_node {
	int node;
	double bw_bytes_s; /* bytes/s from the source; 0: unknown */
	double lat_ns;	   /* ns, idle, from the source; 0: unknown */
	const char *from;  /* "measured", "model", "hmat" (best initiator), "none" */
	/* Measured: bench's judgements (bench/run.h tt_bench_judged bits) of
	 * every run of the node, OR'd; 0: each was valid (or none was run). */
	unsigned int judged;
};

struct tt_profile {
	int source;
	int n;
	struct tt_profile_node nodes[TT_SEARCH_MAX_NODES];
	int runs;	     /* kernel runs made (a bandwidth and a latency run per node, twice) */
	double elapsed_s;    /* s, their wall time */
	const char *skipped; /* why it was not measured ("--no-profile"...); NULL */
	/* Measured: figures whose two passes disagreed beyond TT_PROFILE_DRIFT
	 * (each measured a third time, the median kept), the first of them
	 * said; and the first idle latency refused as no memory's. */
	int ndrift;
	char drift[192];
	char lat_refused[160];
};

/* Two measurements of one node's figure further apart than this
 * (relative to the larger) are a drift, not noise. */
#define TT_PROFILE_DRIFT 0.25
/* No memory's idle latency is below this, ns (DRAM's is 60 and more; a
 * last-level cache hit 10 to 20): a chase faster than it measured a cache. */
#define TT_PROFILE_MIN_LAT_NS 40

/* The measurements a profile makes, one node alone each (tt_profile_run):
 * its bandwidth (bytes/s) and its idle latency (ns) from the source. */
struct tt_profile_probe {
	int (*bw)(void *ctx, int node, double *bytes_s);
	int (*lat)(void *ctx, int node, double *ns);
	void *ctx;
};

/* Measures each node from tmpl->source_node with tmpl's kernel, threads,
 * size, repeat and sysfs (its placement is set here, per node). With
 * budget_s > 0, a node is not begun once the time so far plus one node's
 * mean would pass it: the profile ends incomplete (tt_profile_complete).
 * A failed run is returned (a library status, naming the node). */
int tt_profile_measure(struct tt_profile *p, const struct tt_bench_opts *tmpl, const int *nodes,
		       int n, double budget_s);
/* The profile on any probe: two passes over the nodes, the second in
 * reverse order (each node's mean at the same mean time, so a drift linear
 * in time biases none), a figure whose two measurements differ beyond
 * TT_PROFILE_DRIFT measured a third time (the median kept, p->drift), an
 * idle latency below TT_PROFILE_MIN_LAT_NS left unknown (p->lat_refused).
 * budget_s as tt_profile_measure's. */
int tt_profile_run(struct tt_profile *p, const struct tt_profile_probe *pr, int src,
		   const int *nodes, int n, double budget_s);
/* An empty profile from src to nodes[0..n-1] (each "none"), for a source
 * of figures to fill: HMAT below, the model (tt_profile_model, model.h). */
void tt_profile_init(struct tt_profile *p, int src, const int *nodes, int n);
/* HMAT's access1 figures (the kernel's auto mode's), "none" where a node
 * has none. */
void tt_profile_hmat(struct tt_profile *p, const struct tt_topo *t, int src, const int *nodes,
		     int n);
/* Every node has a bandwidth. */
bool tt_profile_complete(const struct tt_profile *p);
/* The bandwidths, bytes/s, and the idle latencies, ns (0: unknown), in
 * node order. */
void tt_profile_bw(const struct tt_profile *p, double *bw_bytes_s);
void tt_profile_lat(const struct tt_profile *p, double *lat_ns);
/* How the profile counts against a budget of measurements: two per node
 * (each bandwidth run costs what a search measurement costs; the latency
 * runs are shorter). */
int tt_profile_cost(int nnodes);

#endif
