/*
 * The harness: allocate, place, first-touch, verify, time and validate a
 * kernel, with threads pinned to the source node's CPUs. The tuner calls
 * tt_bench_run() once per candidate weight vector.
 *
 *	struct tt_bench_opts o = {.kernel = tt_kernel_find("triad"), ...};
 *	struct tt_bench_result r;
 *	if (tt_bench_run(&o, &r) < 0) ...
 */
#ifndef TT_BENCH_RUN_H
#define TT_BENCH_RUN_H

#include "../core/topo.h"
#include "kernels.h"
#include "place.h"

struct tt_bench_opts {
	const struct tt_kernel *kernel;
	const struct tt_topo *topo;
	struct tt_placement place;
	int source_node;
	int threads;            /* 0: one per CPU of the source node */
	size_t array_bytes;     /* per array; 0: STREAM's rule */
	int repeat;             /* timed passes, after one untimed warm-up */
	uint64_t verify_max;    /* pages to ask move_pages about; 0 = all */
	const struct tt_sysfs *sfs;
};

struct tt_bench_result {
	size_t elements;        /* per array */
	size_t array_bytes;
	int threads;
	double best_s, median_s, max_s;                 /* seconds per pass */
	double bw_best_bytes_s, bw_median_bytes_s, bw_min_bytes_s;
	struct tt_place_report place;                   /* over all arrays */
	const char *place_method;
	double place_s;         /* placement + first touch + verification, seconds */
	bool validated;
	const char *size_rule;  /* how the size was chosen */
};

/* STREAM's rule: each array at least 4x the total last-level cache and at
 * least 1M elements. */
size_t tt_bench_default_bytes(const struct tt_sysfs *s, const char **rule);
int tt_bench_run(const struct tt_bench_opts *o, struct tt_bench_result *r);

#endif
