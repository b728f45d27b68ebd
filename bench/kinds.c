// SPDX-License-Identifier: GPL-3.0-or-later
/* The kinds of kernel: how each runs, the figures it gives and how a result
 * becomes recorded trials. A kernel names its kind (kernels.h); nothing
 * outside bench/ branches on which kind it is. */
#include "harness.h"

#include <stddef.h>
#include <stdio.h>

#define RES(field) offsetof(struct tt_bench_result, field)

static int one_trial(const struct tt_bench_result *r)
{
	(void)r;
	return 1;
}

static void bandwidth_trial(const struct tt_bench_opts *o, const struct tt_bench_result *r, int i,
			    struct tt_kind_trial *t)
{
	const struct tt_kernel *k = o->kernel;

	(void)i;
	*t = (struct tt_kind_trial){ .bw_best_bytes_s = r->bw_best_bytes_s,
				     .bw_median_bytes_s = r->bw_median_bytes_s,
				     .bw_min_bytes_s = r->bw_min_bytes_s };
	snprintf(t->mix, sizeof(t->mix), "%s%s%s", k->counting, k->mlc ? " " : "",
		 k->mlc ? k->mlc : "");
}

/* Bandwidth is the best pass's (the highest), as STREAM reports it; the
 * seconds row's best is the same pass, its worst the slowest. */
static const struct tt_kind_figure bandwidth_figures[] = {
	{ .fig = &tt_figures[TT_FIG_BANDWIDTH],
	  .offset = { RES(bw_best_bytes_s), RES(bw_median_bytes_s), RES(bw_min_bytes_s) },
	  .mean_offset = RES(bw_mean_bytes_s) },
	{ .fig = &tt_figures[TT_FIG_PASS_TIME],
	  .offset = { RES(best_s), RES(median_s), RES(max_s) },
	  .mean_offset = RES(mean_s) },
	{ 0 },
};

const struct tt_kind tt_kind_bandwidth = {
	.name = "bandwidth",
	.objective = TT_OBJ_BANDWIDTH,
	.buffers = "arrays",
	.bandwidth = true,
	.figures = bandwidth_figures,
	.run = tt_bench_stream,
	.ntrials = one_trial,
	.trial = bandwidth_trial,
};

static void latency_trial(const struct tt_bench_opts *o, const struct tt_bench_result *r, int i,
			  struct tt_kind_trial *t)
{
	(void)o;
	(void)i;
	*t = (struct tt_kind_trial){ .lat_best_ns = r->lat_best_ns,
				     .lat_median_ns = r->lat_median_ns,
				     .lat_max_ns = r->lat_max_ns };
	snprintf(t->mix, sizeof(t->mix), "pointer chase");
}

static const struct tt_kind_figure latency_figures[] = {
	{ .fig = &tt_figures[TT_FIG_LATENCY],
	  .offset = { RES(lat_best_ns), RES(lat_median_ns), RES(lat_max_ns) } },
	{ 0 },
};

const struct tt_kind tt_kind_latency = {
	.name = "latency",
	.objective = TT_OBJ_LATENCY,
	.buffers = "buffers",
	.one_thread = true,
	.figures = latency_figures,
	.run = tt_bench_latency,
	.ntrials = one_trial,
	.trial = latency_trial,
};

static int loaded_ntrials(const struct tt_bench_result *r)
{
	return r->npoints;
}

/* One trial per point of the curve. A point has one figure of each (the
 * mean over the point), so best, median and worst are that figure. */
static void loaded_trial(const struct tt_bench_opts *o, const struct tt_bench_result *r, int i,
			 struct tt_kind_trial *t)
{
	const struct tt_loaded_point *pt = &r->points[i];

	*t = (struct tt_kind_trial){ .bw_best_bytes_s = pt->bw_bytes_s,
				     .bw_median_bytes_s = pt->bw_bytes_s,
				     .bw_min_bytes_s = pt->bw_bytes_s,
				     .lat_best_ns = pt->lat_ns,
				     .lat_median_ns = pt->lat_ns,
				     .lat_max_ns = pt->lat_ns };
	snprintf(t->mix, sizeof(t->mix), "%s, delay %ju",
		 (o->traffic ? o->traffic : &tt_k_reads)->name, (uintmax_t)pt->delay);
}

static const struct tt_kind_figure no_figures[] = { { 0 } };

const struct tt_kind tt_kind_loaded = {
	.name = "loaded-latency",
	.objective = TT_OBJ_LATENCY,
	.buffers = "buffers",
	.curve = true,
	.figures = no_figures,
	.run = tt_bench_loaded,
	.ntrials = loaded_ntrials,
	.trial = loaded_trial,
};
