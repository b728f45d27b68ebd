/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the bench harnesses share (internal to bench/): the clock, pinning,
 * and the life of a set of placed buffers: map, check free memory, place
 * before first touch, verify after it, unmap.
 */
#ifndef TT_BENCH_HARNESS_H
#define TT_BENCH_HARNESS_H

#include "run.h"

#include <pthread.h>

/* Array i starts tt_bench_stagger(o, i) bytes into its mapping, so that no
 * two streams sit at the same offset in the cache sets and DRAM banks
 * (run.c says why and how far). pg[i], span[i]: the pages array i lies on,
 * the ones placed, verified and moved; map[i], map_len[i]: its mapping,
 * which on THP runs on to the end of the last huge page. */
struct tt_bench_bufs {
	int n;
	size_t bytes; /* each array's, whole pages */
	double *arr[TT_K_MAX_ARRAYS];
	char *pg[TT_K_MAX_ARRAYS];
	size_t span[TT_K_MAX_ARRAYS];
	char *map[TT_K_MAX_ARRAYS];
	size_t map_len[TT_K_MAX_ARRAYS];
};

/* A context (run.h): the arrays, what they were made for, and the node of
 * every page as last verified or moved. */
struct tt_bench_ctx {
	struct tt_bench_bufs b;
	const struct tt_kernel *kernel;
	int threads;
	int cpus[TT_MAX_CPUS];	    /* thread i's CPU */
	bool thp;		    /* the arrays' THP advice */
	int huge_shift;		    /* their hugetlbfs page size */
	int *node[TT_K_MAX_ARRAYS]; /* per page: node, or -errno (move_pages) */
	const char *method;	    /* how the arrays were placed */
	unsigned int runs;	    /* since they were made: varies the spot checks */
	/* After a run that passed: its placement and its report, which a run
	 * under the same placement keeps while its spot check agrees. */
	bool settled;
	struct tt_placement place;
	struct tt_place_report rep;
};

/* Threads wait at the gate until all are created, so a failed
 * pthread_create can call the others off instead of leaving them at a
 * barrier forever. */
struct tt_bench_gate {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int go; /* 0 wait, 1 run, -1 stop */
};
#define TT_BENCH_GATE_INIT                                                                         \
	{                                                                                          \
		PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0                             \
	}
/* Returns false when the run was called off. */
bool tt_bench_gate_wait(struct tt_bench_gate *g);
void tt_bench_gate_open(struct tt_bench_gate *g, bool run);

/* Pins the calling thread to one CPU; returns 0 or the errno. Not a
 * tt_err status: the message state is per thread, and the thread that
 * reports is the caller of tt_bench_run, which names thread and CPU. */
int tt_bench_pin(int cpu);
/* How far array i starts into its mapping (bytes, a multiple of the
 * cache line and of 8). */
size_t tt_bench_stagger(const struct tt_bench_opts *o, int i);
/* Maps n buffers of bytes each, refuses when a node lacks the free memory
 * the placement would put there, and sets the placement. */
int tt_bench_bufs_map(const struct tt_bench_opts *o, struct tt_bench_bufs *b, int n, size_t bytes,
		      const char **method);
/* After first touch: where did the pages land? Adds into r. */
int tt_bench_bufs_verify(const struct tt_bench_opts *o, const struct tt_bench_bufs *b,
			 struct tt_place_report *r);
void tt_bench_bufs_unmap(struct tt_bench_bufs *b);
/* Adds the bytes of the run's buffers (a, and b when not NULL: all of them
 * in one call, as the kernel may merge them into one mapping), and those of
 * them on huge pages, into r, with the base page size; after first touch. */
void tt_bench_bufs_huge(const struct tt_bench_bufs *a, const struct tt_bench_bufs *b,
			struct tt_bench_result *r);
/* A signal asked the run to stop (o->stop); the error that says where it
 * stopped: before unit ("pass", "point") n of of; and progress to tell. */
bool tt_bench_stop_asked(const struct tt_bench_opts *o);
int tt_bench_stopped(const struct tt_bench_opts *o, const char *unit, int n, int of);
void tt_bench_progress(const struct tt_bench_opts *o, int n, int of);
/* The buffers are mapped and fit: o->started (its status), then progress
 * "placing". */
int tt_bench_started(const struct tt_bench_opts *o, const struct tt_bench_result *r);
/* tt_kernel_init over [lo, hi) a slice at a time; false when a signal
 * stopped it (the arrays are then half-made). unit NULL to
 * tt_bench_stopped: stopped while placing. */
bool tt_bench_touch(const struct tt_bench_opts *o, double *const arr[TT_K_MAX_ARRAYS], size_t lo,
		    size_t hi);
/* Arrays of bytes, or the default size from r->llc, rounded to whole
 * pages (tt_bench_run, before the kind runs, sets r->array_bytes). */
size_t tt_bench_size(const struct tt_bench_opts *o, struct tt_bench_result *r);
/* Every element of the kernel's output holds what it should. */
int tt_bench_validate(const struct tt_kernel *k, const struct tt_bench_bufs *b, size_t n);
/* Sorts times[1..repeat] (times[0] is the warm-up) into best, median, max. */
void tt_bench_summarise(double *times, int repeat, struct tt_bench_result *r);

/* Whether a measuring thread ran (ran.c): each thread's part of a timed
 * pass, read by the thread itself, tt_ran_begin just before its work and
 * tt_ran_end just after it, inside the pass's timing: each adds a
 * CLOCK_THREAD_CPUTIME_ID and a CLOCK_MONOTONIC reading and a
 * getrusage(RUSAGE_THREAD), a few microseconds against passes of tens of
 * milliseconds and more. */
struct tt_ran_slot {
	double t0, t1; /* CLOCK_MONOTONIC (tt_mono_s); t1 0: no part in the pass */
	double cpu_s;  /* the thread's CPU time over it */
	long nivcsw;   /* its involuntary context switches over it */
};
void tt_ran_begin(struct tt_ran_slot *s);
void tt_ran_end(struct tt_ran_slot *s);
/* A measuring thread, pinned to cpu, before its timed passes: the test
 * seam that starves it (core/test-hooks.h), else nothing. */
void tt_ran_measuring(int cpu);
/* slots[pass * nt + t] of npass passes (points) and nt threads on cpus,
 * with the steal over them (-1: unknown), into out. */
void tt_ran_sum(const struct tt_ran_slot *slots, int npass, int nt, const int *cpus,
		int64_t steal_ticks, struct tt_bench_ran *out);
/* ran descheduled (TT_RAN_MIN): true, with the figures in why. */
bool tt_ran_judge(const struct tt_bench_ran *ran, char *why, size_t size);

int tt_bench_stream(const struct tt_bench_opts *o, struct tt_bench_result *r);
int tt_bench_latency(const struct tt_bench_opts *o, struct tt_bench_result *r);
int tt_bench_loaded(const struct tt_bench_opts *o, struct tt_bench_result *r);

/* Between the harness's files (bufs.c, reuse.c, run.c). */
#define PAGE_BYTES ((size_t)1 << TT_PAGE_SHIFT)
/* r += rep: pages per node, and the whole count. */
void tt_bench_report_add(struct tt_place_report *r, const struct tt_place_report *rep);
/* A context (reuse.c): its arrays freed, whether they fit a run of o with k
 * (the kernel, threads, THP and page size), built for it, moved to a
 * placement (*moved: pages moved), and verified (fresh: every page, else a
 * spot check; *changed: pages found elsewhere). */
void tt_bench_ctx_drop(struct tt_bench_ctx *c);
bool tt_bench_ctx_fits(const struct tt_bench_ctx *c, const struct tt_bench_opts *o,
		       const struct tt_bench_result *r, size_t bytes);
int tt_bench_ctx_build(struct tt_bench_ctx *c, const struct tt_bench_opts *o,
		       const struct tt_bench_result *r, size_t bytes);
int tt_bench_ctx_move(struct tt_bench_ctx *c, const struct tt_placement *p, uint64_t *moved);
int tt_bench_ctx_verify(struct tt_bench_ctx *c, const struct tt_placement *p, bool fresh,
			struct tt_place_report *r);
#endif
