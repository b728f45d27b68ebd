/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The element-wise kernel loops, compiled once per instruction set from
 * k-stream.c, and the choice among them. A tiertune built on one machine of
 * a fleet must run on the others: the widest set this CPU has is picked at
 * run time (TIERTUNE_KERNEL_ISA=sse2|avx2|avx512 overrides, for
 * comparisons), never fixed at build time. Internal to bench/.
 */
#ifndef TT_K_LOOPS_H
#define TT_K_LOOPS_H

#include "kernels.h"

#include <stddef.h>

#define TT_K_STORED 4.0 /* what the store-only kernels write: not an initial value */

typedef double (*tt_kloop)(double *a, double *b, double *c, double *d, size_t lo, size_t hi);

struct tt_kloops {
	const char *isa;
	tt_kloop copy, scale, add, triad, reads, store, copy_nt, triad_nt, store_nt, sum3_nt;
};

/* base: what the compiler targets by default (SSE2 on x86-64). */
extern const struct tt_kloops tt_kloops_base, tt_kloops_avx2, tt_kloops_avx512;
/* The loops in use (tt_kernel_isa() chose them). */
const struct tt_kloops *tt_kloops(void);

#endif
