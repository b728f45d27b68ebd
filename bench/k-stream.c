// SPDX-License-Identifier: GPL-3.0-or-later
/* The loops of the element-wise kernels: STREAM's four (McCalpin,
 * stream.c), non-temporal-store variants, and MLC's traffic mixes. Built
 * with -O3 for each instruction set (see Makefile), so they vectorise to
 * SSE2, AVX2 or AVX-512; the descriptors are in kernels.c.
 *
 * Chunks start at multiples of 8 elements (the harness splits so) and
 * arrays are page-aligned, so 16-byte alignment holds for stream stores. */
#include "k-loops.h"

#if defined(__SSE2__) && !defined(__AVX__)
#include <emmintrin.h>
#endif

#define S TT_STREAM_SCALAR
#define STORED TT_K_STORED

#define KERNEL(fn)                                                                                 \
	static double fn(double *restrict a, double *restrict b, double *restrict c,               \
			 double *restrict d, size_t lo, size_t hi)

KERNEL(copy)
{
	(void)b, (void)d;
	for (size_t i = lo; i < hi; i++)
		c[i] = a[i];
	return 0;
}

KERNEL(scale)
{
	(void)a, (void)d;
	for (size_t i = lo; i < hi; i++)
		b[i] = S * c[i];
	return 0;
}

KERNEL(add)
{
	(void)d;
	for (size_t i = lo; i < hi; i++)
		c[i] = a[i] + b[i];
	return 0;
}

KERNEL(triad)
{
	(void)d;
	for (size_t i = lo; i < hi; i++)
		a[i] = b[i] + S * c[i];
	return 0;
}

/* Eight partial sums: one dependent chain of adds would cap a core at one
 * element per add latency (4 cycles), far below memory bandwidth, and the
 * compiler may not reassociate floating-point sums by itself. */
KERNEL(reads)
{
	double s[8] = { 0 };
	size_t i = lo;

	(void)b, (void)c, (void)d;
	for (; i + 8 <= hi; i += 8)
		for (int k = 0; k < 8; k++)
			s[k] += a[i + k];
	for (; i < hi; i++)
		s[0] += a[i];
	return ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
}

KERNEL(store)
{
	(void)b, (void)c, (void)d;
	for (size_t i = lo; i < hi; i++)
		a[i] = STORED;
	return 0;
}

/* Non-temporal stores skip the read-for-ownership of the destination line.
 * Without SSE2 they fall back to ordinary stores (and MLC's count is then
 * off by the RFO reads; only non-x86 builds are affected). */
#if defined(__AVX512F__)
#include <immintrin.h>
#define VW 8
#define STREAM_ST _mm512_stream_pd
#define LD(x) _mm512_load_pd(&(x)[i])
#define SET1 _mm512_set1_pd
#define ADD _mm512_add_pd
#define MUL _mm512_mul_pd
#elif defined(__AVX__)
#include <immintrin.h>
#define VW 4
#define STREAM_ST _mm256_stream_pd
#define LD(x) _mm256_load_pd(&(x)[i])
#define SET1 _mm256_set1_pd
#define ADD _mm256_add_pd
#define MUL _mm256_mul_pd
#elif defined(__SSE2__)
#define VW 2
#define STREAM_ST _mm_stream_pd
#define LD(x) _mm_load_pd(&(x)[i])
#define SET1 _mm_set1_pd
#define ADD _mm_add_pd
#define MUL _mm_mul_pd
#endif

#ifdef VW
/* Vectors as wide as the build's ISA: chunks start on a cache line (8
 * elements), so every vector load and stream store is aligned. */
#define NT_LOOP(dst, expr, tail)                                                                   \
	do {                                                                                       \
		size_t i = lo;                                                                     \
		for (; i + VW <= hi; i += VW)                                                      \
			STREAM_ST(&(dst)[i], (expr));                                              \
		for (; i < hi; i++)                                                                \
			(dst)[i] = (tail);                                                         \
		_mm_sfence();                                                                      \
	} while (0)
#else
#define NT_LOOP(dst, expr, tail)                                                                   \
	do {                                                                                       \
		for (size_t i = lo; i < hi; i++)                                                   \
			(dst)[i] = (tail);                                                         \
	} while (0)
#endif

KERNEL(copy_nt)
{
	(void)b, (void)d;
	NT_LOOP(c, LD(a), a[i]);
	return 0;
}

KERNEL(triad_nt)
{
	(void)d;
	NT_LOOP(a, ADD(LD(b), MUL(SET1(S), LD(c))), b[i] + S * c[i]);
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
