/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Benchmark kernels: one const descriptor each, in tt_kernels[]. A kernel
 * declares the bytes it moves per element; the harness, not the kernel, turns
 * time into bandwidth. To add one:
 *   1. its loop, unless an existing one fits (3r1w is add's loop, counted as
 *      MLC does): an element-wise loop goes in k-stream.c, which is built
 *      once per instruction set, so it also takes a member of struct
 *      tt_kloops (k-loops.h), a line in k-stream.c's KLOOPS table and a
 *      VIA() line in kernels.c; a kernel of another kind is its own file
 *      (latency.c), built without a Makefile edit;
 *   2. its descriptor (STREAM_K or MLC_K in kernels.c), naming its kind, and
 *      its declaration below;
 *   3. its line in tt_kernels[] (kernels.c);
 *   4. its name, in bold, in docs/tiertune.1's bench section (t0013 holds
 *      that list to this table).
 * Nothing else: its kind (struct tt_kind, kinds.c) says how it is run and
 * which figures it gives; the figure table (core/figure.h) how they are
 * named and printed.
 *
 * Two ways of counting bytes are in use, and each descriptor says which:
 * STREAM counts the loads and stores the source code makes; MLC counts what
 * the memory controller sees, so an ordinary store also costs a read (the
 * read-for-ownership of its line), while a non-temporal store does not.
 */
#ifndef TT_KERNELS_H
#define TT_KERNELS_H

#include "../core/figure.h"
#include "../core/objective.h"

#include <stdbool.h>
#include <stddef.h>

#define TT_K_MAX_ARRAYS 4

struct tt_bench_opts;
struct tt_bench_result;

/* One row of a kind's figures: the best, median and worst pass of one
 * figure, whose names, unit, scale and decimals are the figure table's
 * (core/figure.h). "Best" is the best pass (highest bandwidth, lowest
 * latency, shortest time), "worst" the other end. */
struct tt_kind_figure {
	const struct tt_figure *fig; /* NULL: the end of the kind's rows */
	size_t offset[3];	     /* best, median, worst: doubles in struct tt_bench_result */
	/* The mean over the timed passes (total over time, as likwid-bench
	 * and STREAM's average report it), JSON only, when fig has one. */
	size_t mean_offset;
};

/* What a recorded trial holds (the database's trial row, less its nodes). */
struct tt_kind_trial {
	char mix[64]; /* byte counting or traffic: "MLC -W2", "pointer chase" */
	double bw_best_bytes_s, bw_median_bytes_s, bw_min_bytes_s;
	double lat_best_ns, lat_median_ns, lat_max_ns;
};

/* A kind of kernel: how it is run, what figures it gives and how they are
 * recorded. The CLI prints and the tuner records from this, never by kind. */
struct tt_kind {
	const char *name; /* "bandwidth", "latency", "loaded-latency" (JSON "kind") */
	enum tt_objective_kind objective; /* what a recorded run of it ranks by */
	const char *buffers;		  /* what --size is the size of: "arrays", "buffers" */
	bool bandwidth;	 /* element-wise passes: --traffic and --matrix may use it */
	bool one_thread; /* runs one thread, whatever the CPUs */
	bool curve;	 /* a curve of points (loaded latency), not timed passes */
	const struct tt_kind_figure *figures; /* NULL-label terminated */
	int (*run)(const struct tt_bench_opts *o, struct tt_bench_result *r);
	/* The trials a result is recorded as (a curve: one per point) and
	 * trial i's figures. */
	int (*ntrials)(const struct tt_bench_result *r);
	void (*trial)(const struct tt_bench_opts *o, const struct tt_bench_result *r, int i,
		      struct tt_kind_trial *t);
};

/* element-wise passes over arrays, split over threads */
extern const struct tt_kind tt_kind_bandwidth;
/* one thread chasing pointers: ns per dependent load */
extern const struct tt_kind tt_kind_latency;
/* a latency thread beside bandwidth threads with injected delays */
extern const struct tt_kind tt_kind_loaded;

struct tt_kernel {
	const char *name;
	const char *summary;
	const struct tt_kind *kind;
	const char *counting;	  /* "STREAM" or "MLC", see above; NULL for latency */
	const char *mlc;	  /* the MLC traffic type it matches, e.g. "-W2", or NULL */
	int arrays;		  /* arrays of doubles it uses: a, b, c, d in order */
	unsigned int read_bytes;  /* per element */
	unsigned int write_bytes; /* per element */
	/* Elements [lo, hi) of one pass. Returns the sum of what it read when
	 * out_array is -1 (a read-only kernel has nothing else to check). */
	double (*run)(double *a, double *b, double *c, double *d, size_t lo, size_t hi);
	/* The value every element of out_array holds after a pass from
	 * tt_kernel_init's values; for out_array -1, the sum per element. */
	double expect;
	int out_array;
};

#define TT_STREAM_SCALAR 3.0
/* a = 1, b = 2, c = 0.5, d = 0 before the first pass; every kernel here is
 * idempotent from there, so any number of passes checks exactly. Arrays may
 * be NULL. */
void tt_kernel_init(double *const arr[TT_K_MAX_ARRAYS], size_t lo, size_t hi);

extern const struct tt_kernel tt_k_copy, tt_k_scale, tt_k_add, tt_k_triad, tt_k_copy_nt,
	tt_k_triad_nt;
extern const struct tt_kernel tt_k_reads, tt_k_3r1w, tt_k_2r1w, tt_k_1r1w, tt_k_nt_writes,
	tt_k_3r1w_nt;
extern const struct tt_kernel tt_k_latency, tt_k_loaded_latency;
extern const struct tt_kernel *const tt_kernels[]; /* NULL-terminated */

/* The instruction set the element-wise kernels run with here: the widest
 * this CPU has among those built (avx512, avx2, sse2), or what
 * TIERTUNE_KERNEL_ISA asks for; TT_EUNAVAIL when it asks for one this CPU
 * or build lacks, TT_EINPUT when it names none. */
int tt_kernel_isa(const char **isa);
const struct tt_kernel *tt_kernel_find(const char *name);

#endif
