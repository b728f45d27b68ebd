// SPDX-License-Identifier: GPL-3.0-or-later
/* The loops of the element-wise kernels: STREAM's four (McCalpin,
 * stream.c), non-temporal-store variants, and MLC's traffic mixes. Built
 * with -O3 for each instruction set (see Makefile), written with SSE2,
 * AVX2 or AVX-512 vectors on x86-64, plain loops elsewhere; the
 * descriptors are in kernels.c. */
#include "k-loops.h"

#if defined(__SSE2__) && !defined(__AVX__)
#include <emmintrin.h>
#endif

#define S TT_STREAM_SCALAR
#define STORED TT_K_STORED

#define KERNEL(fn)                                                                                 \
	static double fn(double *restrict a, double *restrict b, double *restrict c,               \
			 double *restrict d, size_t lo, size_t hi)

/* Vectors as wide as the build's ISA. */
#if defined(__AVX512F__)
#include <immintrin.h>
#define VW 8
typedef __m512d vec;
#define VLOAD _mm512_load_pd
#define VSTORE _mm512_store_pd
#define VSTREAM _mm512_stream_pd
#define SET1 _mm512_set1_pd
#define ADD _mm512_add_pd
#define MUL _mm512_mul_pd
#define FMA _mm512_fmadd_pd
#define VZERO _mm512_setzero_pd
#elif defined(__AVX__)
#include <immintrin.h>
#define VW 4
typedef __m256d vec;
#define VLOAD _mm256_load_pd
#define VSTORE _mm256_store_pd
#define VSTREAM _mm256_stream_pd
#define SET1 _mm256_set1_pd
#define ADD _mm256_add_pd
#define MUL _mm256_mul_pd
#ifdef __FMA__
#define FMA _mm256_fmadd_pd
#endif
#define VZERO _mm256_setzero_pd
#elif defined(__SSE2__)
#define VW 2
typedef __m128d vec;
#define VLOAD _mm_load_pd
#define VSTORE _mm_store_pd
#define VSTREAM _mm_stream_pd
#define SET1 _mm_set1_pd
#define ADD _mm_add_pd
#define MUL _mm_mul_pd
#define VZERO _mm_setzero_pd
#endif
#if defined(VW) && !defined(FMA)
#define FMA(x, y, z) ADD(MUL(x, y), z)
#endif

#ifdef VW
/* The loop shape, measured on AMD EPYC (Zen 3) against likwid-bench and
 * alternative shapes (bench/README.md, "Kernel loops against their peers"):
 * each iteration moves two cache lines of every stream (UNROLL vectors of
 * VW doubles), all its loads issued before its stores. One vector an
 * iteration, as gcc vectorises the plain loops, was 3-13% slower per pass
 * (copy, triad, their non-temporal variants) on the same pages; four lines
 * an iteration gained no more; software prefetch (at 1-32 KiB ahead, of one
 * or both read streams) and splitting a chunk into two interleaved halves
 * were slower or no better: the hardware prefetchers already keep as many
 * lines in flight as a core can track. Chunks start at multiples of 8
 * elements (the harness splits so) and arrays on cache lines (run.c
 * staggers them by whole lines), so every vector load and store is
 * aligned. */
#define UNROLL (128 / (VW * 8))
/* dst[j] = expr for every j in [lo, hi): expr reads the arrays through LD,
 * the tail (under a vector) through tail. */
#define LD(x) VLOAD(&(x)[j])
#define VLOOP(store, dst, expr, tail)                                                              \
	do {                                                                                       \
		size_t i = lo;                                                                     \
		for (; i + UNROLL * VW <= hi; i += UNROLL * VW) {                                  \
			vec v_[UNROLL];                                                            \
			for (int k_ = 0; k_ < UNROLL; k_++) {                                      \
				size_t j = i + (size_t)k_ * VW;                                    \
				(void)j; /* unused by constant expr */                             \
				v_[k_] = (expr);                                                   \
			}                                                                          \
			for (int k_ = 0; k_ < UNROLL; k_++)                                        \
				store(&(dst)[i + (size_t)k_ * VW], v_[k_]);                        \
		}                                                                                  \
		for (; i < hi; i++)                                                                \
			(dst)[i] = (tail);                                                         \
	} while (0)
/* Non-temporal stores skip the read-for-ownership of the destination
 * line; the fence orders them before the pass's end is timed. */
#define NT_LOOP(dst, expr, tail)                                                                   \
	do {                                                                                       \
		VLOOP(VSTREAM, dst, expr, tail);                                                   \
		_mm_sfence();                                                                      \
	} while (0)
#define ST_LOOP(dst, expr, tail) VLOOP(VSTORE, dst, expr, tail)
#else
/* Not x86: plain loops, vectorised by the compiler. Non-temporal stores
 * fall back to ordinary ones (and MLC's count is then off by the RFO
 * reads). */
#define NT_LOOP(dst, expr, tail)                                                                   \
	do {                                                                                       \
		for (size_t i = lo; i < hi; i++)                                                   \
			(dst)[i] = (tail);                                                         \
	} while (0)
#define ST_LOOP NT_LOOP
#endif

KERNEL(copy)
{
	(void)b, (void)d;
	ST_LOOP(c, LD(a), a[i]);
	return 0;
}

KERNEL(scale)
{
	(void)a, (void)d;
	ST_LOOP(b, MUL(SET1(S), LD(c)), S * c[i]);
	return 0;
}

KERNEL(add)
{
	(void)d;
	ST_LOOP(c, ADD(LD(a), LD(b)), a[i] + b[i]);
	return 0;
}

KERNEL(triad)
{
	(void)d;
	ST_LOOP(a, FMA(SET1(S), LD(c), LD(b)), b[i] + S * c[i]);
	return 0;
}

KERNEL(store)
{
	(void)b, (void)c, (void)d;
	ST_LOOP(a, SET1(STORED), STORED);
	return 0;
}

KERNEL(copy_nt)
{
	(void)b, (void)d;
	NT_LOOP(c, LD(a), a[i]);
	return 0;
}

KERNEL(triad_nt)
{
	(void)d;
	NT_LOOP(a, FMA(SET1(S), LD(c), LD(b)), b[i] + S * c[i]);
	return 0;
}

KERNEL(store_nt)
{
	(void)b, (void)c, (void)d;
	NT_LOOP(a, SET1(STORED), STORED);
	return 0;
}

KERNEL(sum3_nt)
{
	NT_LOOP(d, ADD(ADD(LD(a), LD(b)), LD(c)), a[i] + b[i] + c[i]);
	return 0;
}

/* Independent partial sums, a vector of them per unrolled load: one
 * dependent chain of adds would cap a core at one element per add latency
 * (3-4 cycles), far below memory bandwidth, and the compiler may not
 * reassociate floating-point sums by itself. Written out because gcc 12
 * vectorised the plain eight-sum loop into scalar adds and shuffles:
 * 2.3 GB/s against likwid-bench's sum_avx 13.3 on the same host. */
KERNEL(reads)
{
	size_t i = lo;

	(void)b, (void)c, (void)d;
#ifdef VW
	vec acc[UNROLL];
	_Alignas(64) double lane[VW];
	double s = 0;

	for (int k = 0; k < UNROLL; k++)
		acc[k] = VZERO();
	for (; i + UNROLL * VW <= hi; i += UNROLL * VW)
		for (int k = 0; k < UNROLL; k++)
			acc[k] = ADD(acc[k], VLOAD(&a[i + (size_t)k * VW]));
	for (int k = 1; k < UNROLL; k++)
		acc[0] = ADD(acc[0], acc[k]);
	VSTORE(lane, acc[0]);
	for (int k = 0; k < VW; k++)
		s += lane[k];
	for (; i < hi; i++)
		s += a[i];
	return s;
#else
	double s[8] = { 0 };

	for (; i + 8 <= hi; i += 8)
		for (int k = 0; k < 8; k++)
			s[k] += a[i + k];
	for (; i < hi; i++)
		s[0] += a[i];
	return ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
#endif
}

/* This file is compiled once per instruction set (Makefile: sse2, avx2,
 * avx512), each copy naming its table KLOOPS; kernels.c picks the widest
 * the CPU runs. */
/* The same table name in every copy would clash: the Makefile names it. */
const struct tt_kloops KLOOPS = {
	.isa = KLOOPS_ISA,
	.copy = copy,
	.scale = scale,
	.add = add,
	.triad = triad,
	.reads = reads,
	.store = store,
	.copy_nt = copy_nt,
	.triad_nt = triad_nt,
	.store_nt = store_nt,
	.sum3_nt = sum3_nt,
};
