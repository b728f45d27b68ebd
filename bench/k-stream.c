/* Element-wise kernels: STREAM's four (McCalpin, stream.c), their
 * non-temporal-store variants, and MLC's read:write traffic mixes. Built
 * with -O3 and, where the compiler supports it, -march=native (see
 * Makefile), so the loops vectorise to AVX2/AVX-512.
 *
 * Chunks start at multiples of 8 elements (the harness splits so) and
 * arrays are page-aligned, so 16-byte alignment holds for stream stores. */
#include "kernels.h"

#if defined(__SSE2__) && !defined(__AVX__)
#include <emmintrin.h>
#endif

#define S TT_STREAM_SCALAR
#define STORED 4.0 /* what the store-only kernels write: not an initial value */

#define KERNEL(fn)                                                                             \
	static double fn(double *restrict a, double *restrict b, double *restrict c,           \
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
	double s[8] = {0};
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
#define NT_LOOP(dst, expr, tail)                                                               \
	do {                                                                                   \
		size_t i = lo;                                                                 \
		for (; i + VW <= hi; i += VW)                                                  \
			STREAM_ST(&(dst)[i], (expr));                                          \
		for (; i < hi; i++)                                                            \
			(dst)[i] = (tail);                                                     \
		_mm_sfence();                                                                  \
	} while (0)
#else
#define NT_LOOP(dst, expr, tail)                                                               \
	do {                                                                                   \
		for (size_t i = lo; i < hi; i++)                                               \
			(dst)[i] = (tail);                                                     \
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

#define STREAM_K(sym, nm, sum, fn, rd, wr, exp, out, w)                                       \
	const struct tt_kernel sym = {.name = nm, .summary = sum, .kind = TT_K_STREAM,          \
				      .counting = "STREAM", .mlc = w, .arrays = 3,              \
				      .read_bytes = rd, .write_bytes = wr, .run = fn,           \
				      .expect = exp, .out_array = out}

STREAM_K(tt_k_copy, "copy", "STREAM copy c = a", copy, 8, 8, 1.0, 2, NULL);
STREAM_K(tt_k_scale, "scale", "STREAM scale b = s*c", scale, 8, 8, S * 0.5, 1, NULL);
STREAM_K(tt_k_add, "add", "STREAM add c = a + b", add, 16, 8, 3.0, 2, NULL);
STREAM_K(tt_k_triad, "triad", "STREAM triad a = b + s*c", triad, 16, 8, 2.0 + S * 0.5, 0, NULL);
STREAM_K(tt_k_copy_nt, "copy-nt", "copy with non-temporal stores: 1:1 read:NT write", copy_nt,
	 8, 8, 1.0, 2, "-W8");
STREAM_K(tt_k_triad_nt, "triad-nt", "triad with non-temporal stores: 2:1 read:NT write from two "
	 "buffers (MLC's stream-triad-like)", triad_nt, 16, 8, 2.0 + S * 0.5, 0, "-W10");

/* MLC's mixes. Its ratios are of memory-controller traffic, so an ordinary
 * store counts a read (the RFO) and a write: copy is 2:1, add is 3:1. The
 * loops are STREAM's where the traffic matches. */
#define MLC_K(sym, nm, sum, fn, n, rd, wr, exp, out, w)                                        \
	const struct tt_kernel sym = {.name = nm, .summary = sum, .kind = TT_K_STREAM,          \
				      .counting = "MLC", .mlc = w, .arrays = n,                 \
				      .read_bytes = rd, .write_bytes = wr, .run = fn,           \
				      .expect = exp, .out_array = out}

MLC_K(tt_k_reads, "reads", "all reads: sum of a", reads, 1, 8, 0, 1.0, -1, "-R (ALL Reads)");
MLC_K(tt_k_3r1w, "3r1w", "3:1 read:write, c = a + b (2 loads + RFO)", add, 3, 24, 8, 3.0, 2,
      "-W3 (-W11: two read buffers, as here)");
MLC_K(tt_k_2r1w, "2r1w", "2:1 read:write, c = a (load + RFO)", copy, 3, 16, 8, 1.0, 2, "-W2");
MLC_K(tt_k_1r1w, "1r1w", "1:1 read:write, a = 4 (RFO + store)", store, 1, 8, 8, STORED, 0, "-W5");
MLC_K(tt_k_nt_writes, "nt-writes", "all non-temporal writes, a = 4", store_nt, 1, 0, 8, STORED, 0,
      "-W6");
MLC_K(tt_k_3r1w_nt, "3r1w-nt", "3:1 read:NT write, d = a + b + c", sum3_nt, 4, 24, 8, 3.5, 3,
      "-W9");
