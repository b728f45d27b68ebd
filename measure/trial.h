/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A trial: one bench kernel (or the CPU-node x memory-node matrix) run under
 * a placement, with the named collectors sampling its measured passes, and
 * recorded as a run in the database when asked. `tiertune bench` runs one;
 * the tuner runs one per candidate weight vector; tiertop uses the
 * collectors path. Nothing here prints.
 *
 *	struct tt_trial_opts o = {.bench = {.kernel = ..., .place = ...},
 *				  .collect = "numastat", .open_db = my_open, ...};
 *	struct tt_trial_result *r;
 *	if (tt_trial_run(&o, &r) < 0) ...        (r->bench, r->sum, r->matrix)
 *	tt_trial_free(r);
 *
 * The run row is begun when the first timed pass starts, not before: a
 * trial refused before it measures anything (too little free memory, a node
 * it cannot place on) leaves the database as it was, and one killed while
 * measuring shows up as interrupted. The trials and the final status are
 * written after the measurement, the run marked failed if anything fails.
 *
 * A sequence of trials of one kernel (the tuner's measurements) passes one
 * bench context in o.bench.reuse (bench/run.h): the arrays are placed once
 * and each trial moves only the pages whose node its weights change.
 */
#ifndef TT_TRIAL_H
#define TT_TRIAL_H

#include "../bench/run.h"
#include "../collectors/collect.h"
#include "../core/weights.h"
#include "sample.h"

#include <stdint.h>

struct tt_db;
struct tt_db_trial;

struct tt_trial_opts {
	/* kernel, topology, placement, sizes; its phase hook is the trial's */
	struct tt_bench_opts bench;
	bool matrix;	     /* tt_bench_matrix instead of tt_bench_run */
	const char *collect; /* collector names "a,b"; NULL: none (not with matrix) */
	/* The weights the placement interleaves by (exact or kernel
	 * placement), for the collectors' model and the record; NULL: none. */
	const struct tt_weights *weights;
	/* Bandwidth measured from the source to each node, bytes/s indexed by
	 * node, for the model collector (collector.h); NULL: none. */
	const double *measured_bw_bytes_s;
	/* Recording: NULL for none. Called once, when measuring starts, to
	 * open the database for writing (a library status). */
	int (*open_db)(void *ctx, struct tt_db **db);
	void *open_db_ctx;
	const char *command; /* the command line, for the run row */
};

struct tt_trial_result {
	struct tt_bench_result bench; /* unless matrix */
	bool has_matrix;
	struct tt_matrix matrix;
	bool collected; /* sum holds the collectors' summary */
	struct tt_collect_summary sum;
	int64_t run_id;	   /* the recorded run; 0: not recorded */
	double measured_s; /* wall time of the measured (timed) phase, s */
};

/* *out is a new result (free with tt_trial_free) on success, NULL on failure. */
int tt_trial_run(const struct tt_trial_opts *o, struct tt_trial_result **out);
void tt_trial_free(struct tt_trial_result *r);

/* The loaded latency at a stated traffic (bytes/s) from a loaded-latency
 * trial's points at rising delays (falling bandwidth): interpolated between
 * the two points around it; below the last, the last's. Beyond the highest
 * bandwidth the ladder reached the weights did not carry the traffic:
 * *overloaded, and, as the model takes it (tt_model_eval_at), that point's
 * latency times traffic over its bandwidth (a slope for the search, not a
 * latency anyone met). *capacity_bytes_s: that highest bandwidth. INFINITY
 * and overloaded without a point that moved. */
double tt_trial_lat_at(const struct tt_loaded_point *p, int n, double traffic_bytes_s,
		       bool *overloaded, double *capacity_bytes_s);

/* Refuses, as each trial of o would, arrays the last-level cache can hold
 * (bench's rule, on the cache of the threads' CPUs: the cache's bandwidth
 * would be measured, which no weight changes), before any trial. Other
 * faults are left to the first trial to report. */
int tt_trial_check_cache(const struct tt_bench_opts *o);
/* One measurement with latency: bench's loaded-latency kernel, one thread
 * chasing pointers through pages placed as o->bench.place says while the
 * others run o->bench.kernel's mix over arrays placed the same way. Flat
 * out (ladder false): its bandwidth as the score, its latency. On the
 * ladder, the mix stepped from flat out towards idle: the latency at
 * traffic_bytes_s (tt_trial_lat_at, overloaded and capacity too), the
 * score 1e9 / ns. *r as tt_trial_run's (for what it placed). */
int tt_trial_loaded(const struct tt_trial_opts *o, bool ladder, double traffic_bytes_s,
		    struct tt_sample *out, struct tt_trial_result **r);
/* How long such a trial measures, s: what a model's simulated one stands
 * for. */
double tt_trial_loaded_s(bool ladder);
/* The share of the checked pages that r placed on each node of w, in the
 * nodes' order, at most max of them; nothing when none was checked. */
void tt_trial_achieved(const struct tt_trial_result *r, const struct tt_weights *w, double *share,
		       int max);
/* A search trial's n measurements as the database keeps its figures: best,
 * median and worst of the bandwidths (bw_bytes_s NULL: none, as under the
 * latency objective, whose score is no bandwidth) and of the latencies,
 * where any was measured (lat_ns NaN: not). */
void tt_trial_figures(const double *bw_bytes_s, const double *lat_ns, int n, struct tt_db_trial *d);

#endif
