/*
 * Benchmark kernels: one const descriptor each, in tt_kernels[]. A kernel
 * declares the bytes it reads and writes per element (STREAM's counting: no
 * write-allocate traffic); the harness, not the kernel, turns time into
 * bandwidth. To add one: 1. write its loop in k-<family>.c with a
 * descriptor; 2. declare it below; 3. list it in kernels.c.
 */
#ifndef TT_KERNELS_H
#define TT_KERNELS_H

#include <stdbool.h>
#include <stddef.h>

struct tt_kernel {
	const char *name;
	const char *summary;
	int arrays;                /* arrays of doubles it uses, a, b, c in order */
	unsigned int read_bytes;   /* per element */
	unsigned int write_bytes;  /* per element */
	/* Elements [lo, hi) of one pass. */
	void (*run)(double *a, double *b, double *c, size_t lo, size_t hi);
	/* The value every element of the written array holds after a pass
	 * from tt_kernel_init's values, and which array that is. */
	double expect;
	int out_array;
};

#define TT_STREAM_SCALAR 3.0
/* a = 1, b = 2, c = 0.5 before the first pass; every kernel here is
 * idempotent from there, so any number of passes checks exactly. */
void tt_kernel_init(double *a, double *b, double *c, size_t lo, size_t hi);

extern const struct tt_kernel tt_k_copy, tt_k_scale, tt_k_add, tt_k_triad, tt_k_copy_nt,
	tt_k_triad_nt;
extern const struct tt_kernel *const tt_kernels[]; /* NULL-terminated */
const struct tt_kernel *tt_kernel_find(const char *name);

#endif
