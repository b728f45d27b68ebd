/*
 * Benchmark kernels: one const descriptor each, in tt_kernels[]. A kernel
 * declares the bytes it moves per element; the harness, not the kernel, turns
 * time into bandwidth. To add one: 1. write its loop in k-<family>.c with a
 * descriptor; 2. declare it below; 3. list it in kernels.c.
 *
 * Two ways of counting bytes are in use, and each descriptor says which:
 * STREAM counts the loads and stores the source code makes; MLC counts what
 * the memory controller sees, so an ordinary store also costs a read (the
 * read-for-ownership of its line), while a non-temporal store does not.
 */
#ifndef TT_KERNELS_H
#define TT_KERNELS_H

#include <stdbool.h>
#include <stddef.h>

enum tt_kernel_kind {
	TT_K_STREAM,  /* element-wise passes over arrays, split over threads */
	TT_K_LATENCY, /* one thread chasing pointers: ns per dependent load */
	TT_K_LOADED,  /* latency thread + bandwidth threads with injected delay */
};

#define TT_K_MAX_ARRAYS 4

struct tt_kernel {
	const char *name;
	const char *summary;
	enum tt_kernel_kind kind;
	const char *counting;      /* "STREAM" or "MLC", see above; NULL for latency */
	const char *mlc;           /* the MLC traffic type it matches, e.g. "-W2", or NULL */
	int arrays;                /* arrays of doubles it uses: a, b, c, d in order */
	unsigned int read_bytes;   /* per element */
	unsigned int write_bytes;  /* per element */
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
