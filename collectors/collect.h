/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A measurement with collectors around it, as bench --collect and the tuner
 * run one: open the named collectors, sample them at 10 Hz on the sampler's
 * thread, mark the measured phase (tt_bench_opts.phase), then summarise what
 * was sampled inside it: each metric's mean, and bandwidth per node from the
 * best source this machine has.
 *
 *	struct tt_collect *c;
 *	tt_collect_begin(&ctx, "numastat,perf-uncore", &c);
 *	opts.phase = tt_collect_phase; opts.phase_ctx = c;
 *	tt_bench_run(&opts, &r);
 *	tt_collect_end(c, &summary);   ...   tt_collect_summary_release(&summary);
 */
#ifndef TT_COLLECT_H
#define TT_COLLECT_H

#include "sampler.h"

struct tt_collect;

struct tt_metric_summary {
	const struct tt_collector *collector;
	int source, index; /* as in tt_reading: which source, which metric */
	struct tt_metric metric;
	double mean;	     /* over OK readings in the window; NAN when none */
	int ok, init, stale; /* readings by state in the window */
};

struct tt_collect_summary {
	double window_s; /* length of the measured phase */
	int n;
	struct tt_metric_summary *metrics;
	/* Bytes/s per node from the best traffic source, or bw_source NULL
	 * with why_no_bw saying what is missing. */
	const char *bw_source;
	bool bw_simulated;
	double node_bw[TT_MAX_NODES];
	bool node_has_bw[TT_MAX_NODES];
	char why_no_bw[256];
	/* Every reading inside the window, for the database. */
	size_t nreadings;
	struct tt_reading *readings;
	uint64_t lost;	/* readings overwritten before they were read */
	char note[200]; /* "" or why the figures are thin */
};

int tt_collect_begin(const struct tt_collect_ctx *ctx, const char *list, struct tt_collect **out);
/* The phase hook for tt_bench_opts. */
void tt_collect_phase(void *collect, bool measuring);
/* Stops sampling, closes the collectors, summarises; frees c. */
int tt_collect_end(struct tt_collect *c, struct tt_collect_summary *sum);
void tt_collect_summary_release(struct tt_collect_summary *sum);

#endif
