// SPDX-License-Identifier: GPL-3.0-or-later
/* The kernel table: descriptors (data) and the run-time choice of loops
 * (k-loops.h). To add a kernel: see kernels.h. */
#include "k-loops.h"

#include "../core/error.h"

#include <stdlib.h>
#include <string.h>

#define S TT_STREAM_SCALAR

static const struct tt_kloops *chosen;

static const struct tt_kloops *widest(void)
{
#if defined(__x86_64__) && defined(TT_KLOOPS_X86)
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx2") &&
	    __builtin_cpu_supports("fma"))
		return &tt_kloops_avx512;
	if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
		return &tt_kloops_avx2;
#endif
	return &tt_kloops_base;
}

int tt_kernel_isa(const char **isa)
{
	const char *want = getenv("TIERTUNE_KERNEL_ISA");
	const struct tt_kloops *best = widest();

	chosen = best;
	if (want && *want) {
		const struct tt_kloops *all[] = {
			&tt_kloops_base,
#if defined(__x86_64__) && defined(TT_KLOOPS_X86)
			&tt_kloops_avx2,
			&tt_kloops_avx512,
#endif
		};
		const struct tt_kloops *pick = NULL;
		int rank = -1, best_rank = 0;

		for (int i = 0; i < (int)(sizeof(all) / sizeof(*all)); i++) {
			if (strcmp(all[i]->isa, want) == 0) {
				pick = all[i];
				rank = i;
			}
			if (all[i] == best)
				best_rank = i;
		}
		if (!pick)
			return tt_err(TT_EINPUT,
				      "TIERTUNE_KERNEL_ISA '%s' is not one of this build's "
				      "kernel instruction sets (sse2, avx2, avx512 on x86-64)",
				      want);
		if (rank > best_rank)
			return tt_err(TT_EUNAVAIL,
				      "TIERTUNE_KERNEL_ISA '%s': this CPU lacks it (best: %s)",
				      want, best->isa);
		chosen = pick;
	}
	*isa = chosen->isa;
	return 0;
}

const struct tt_kloops *tt_kloops(void)
{
	if (!chosen)
		chosen = widest();
	return chosen;
}

/* Descriptors point at these; the loops behind them are chosen at run time.
 * One indirect call a chunk of thousands of elements costs nothing. */
#define VIA(fn)                                                                                    \
	static double via_##fn(double *a, double *b, double *c, double *d, size_t lo, size_t hi)   \
	{                                                                                          \
		return tt_kloops()->fn(a, b, c, d, lo, hi);                                        \
	}
VIA(copy)
VIA(scale)
VIA(add)
VIA(triad)
VIA(reads)
VIA(store)
VIA(copy_nt)
VIA(triad_nt)
VIA(store_nt)
VIA(sum3_nt)

#define STREAM_K(sym, nm, sum, fn, rd, wr, exp, out, w)                                            \
	const struct tt_kernel sym = { .name = nm,                                                 \
				       .summary = sum,                                             \
				       .kind = &tt_kind_bandwidth,                                 \
				       .counting = "STREAM",                                       \
				       .mlc = w,                                                   \
				       .arrays = 3,                                                \
				       .read_bytes = rd,                                           \
				       .write_bytes = wr,                                          \
				       .run = via_##fn,                                            \
				       .expect = exp,                                              \
				       .out_array = out }

STREAM_K(tt_k_copy, "copy", "STREAM copy c = a", copy, 8, 8, 1.0, 2, NULL);
STREAM_K(tt_k_scale, "scale", "STREAM scale b = s*c", scale, 8, 8, S * 0.5, 1, NULL);
STREAM_K(tt_k_add, "add", "STREAM add c = a + b", add, 16, 8, 3.0, 2, NULL);
STREAM_K(tt_k_triad, "triad", "STREAM triad a = b + s*c", triad, 16, 8, 2.0 + S * 0.5, 0, NULL);
STREAM_K(tt_k_copy_nt, "copy-nt", "copy with non-temporal stores: 1:1 read:NT write", copy_nt, 8, 8,
	 1.0, 2, "-W8");
STREAM_K(tt_k_triad_nt, "triad-nt",
	 "triad with non-temporal stores: 2:1 read:NT write from two "
	 "buffers (MLC's stream-triad-like)",
	 triad_nt, 16, 8, 2.0 + S * 0.5, 0, "-W10");

/* MLC's mixes. Its ratios are of memory-controller traffic, so an ordinary
 * store counts a read (the RFO) and a write: copy is 2:1, add is 3:1. The
 * loops are STREAM's where the traffic matches. */
#define MLC_K(sym, nm, sum, fn, n, rd, wr, exp, out, w)                                            \
	const struct tt_kernel sym = { .name = nm,                                                 \
				       .summary = sum,                                             \
				       .kind = &tt_kind_bandwidth,                                 \
				       .counting = "MLC",                                          \
				       .mlc = w,                                                   \
				       .arrays = n,                                                \
				       .read_bytes = rd,                                           \
				       .write_bytes = wr,                                          \
				       .run = via_##fn,                                            \
				       .expect = exp,                                              \
				       .out_array = out }

MLC_K(tt_k_reads, "reads", "all reads: sum of a", reads, 1, 8, 0, 1.0, -1, "-R (ALL Reads)");
MLC_K(tt_k_3r1w, "3r1w", "3:1 read:write, c = a + b (2 loads + RFO)", add, 3, 24, 8, 3.0, 2,
      "-W3 (-W11: two read buffers, as here)");
MLC_K(tt_k_2r1w, "2r1w", "2:1 read:write, c = a (load + RFO)", copy, 3, 16, 8, 1.0, 2, "-W2");
MLC_K(tt_k_1r1w, "1r1w", "1:1 read:write, a = 4 (RFO + store)", store, 1, 8, 8, TT_K_STORED, 0,
      "-W5");
MLC_K(tt_k_nt_writes, "nt-writes", "all non-temporal writes, a = 4", store_nt, 1, 0, 8, TT_K_STORED,
      0, "-W6");
MLC_K(tt_k_3r1w_nt, "3r1w-nt", "3:1 read:NT write, d = a + b + c", sum3_nt, 4, 24, 8, 3.5, 3,
      "-W9");

const struct tt_kernel *const tt_kernels[] = {
	&tt_k_copy,	 &tt_k_scale,	&tt_k_add,     &tt_k_triad,	     &tt_k_copy_nt,
	&tt_k_triad_nt,	 &tt_k_reads,	&tt_k_3r1w,    &tt_k_2r1w,	     &tt_k_1r1w,
	&tt_k_nt_writes, &tt_k_3r1w_nt, &tt_k_latency, &tt_k_loaded_latency, NULL,
};

const struct tt_kernel *tt_kernel_find(const char *name)
{
	for (const struct tt_kernel *const *k = tt_kernels; *k; k++)
		if (strcmp((*k)->name, name) == 0)
			return *k;
	return NULL;
}

void tt_kernel_init(double *const arr[TT_K_MAX_ARRAYS], size_t lo, size_t hi)
{
	static const double init[TT_K_MAX_ARRAYS] = { 1.0, 2.0, 0.5, 0.0 };

	for (int k = 0; k < TT_K_MAX_ARRAYS; k++)
		if (arr[k])
			for (size_t i = lo; i < hi; i++)
				arr[k][i] = init[k];
}
