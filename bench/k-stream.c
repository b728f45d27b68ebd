/* STREAM's four kernels (McCalpin, stream.c) and non-temporal-store
 * variants. Built with -O3 and, where the compiler supports it,
 * -march=native (see Makefile), so the loops vectorise to AVX2/AVX-512. */
#include "kernels.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define S TT_STREAM_SCALAR

static void copy(double *restrict a, double *restrict b, double *restrict c, size_t lo, size_t hi)
{
	(void)b;
	for (size_t i = lo; i < hi; i++)
		c[i] = a[i];
}

static void scale(double *restrict a, double *restrict b, double *restrict c, size_t lo, size_t hi)
{
	(void)a;
	for (size_t i = lo; i < hi; i++)
		b[i] = S * c[i];
}

static void add(double *restrict a, double *restrict b, double *restrict c, size_t lo, size_t hi)
{
	for (size_t i = lo; i < hi; i++)
		c[i] = a[i] + b[i];
}

static void triad(double *restrict a, double *restrict b, double *restrict c, size_t lo, size_t hi)
{
	for (size_t i = lo; i < hi; i++)
		a[i] = b[i] + S * c[i];
}

/* Non-temporal stores skip the read-for-ownership of the destination line:
 * MLC's "NT writes" traffic. Chunks start at multiples of 8 elements (the
 * harness splits so), so 16-byte alignment holds for the stream stores. */
static void copy_nt(double *restrict a, double *restrict b, double *restrict c, size_t lo,
		    size_t hi)
{
	(void)b;
#ifdef __SSE2__
	size_t i = lo;
	for (; i + 2 <= hi; i += 2)
		_mm_stream_pd(&c[i], _mm_load_pd(&a[i]));
	for (; i < hi; i++)
		c[i] = a[i];
	_mm_sfence();
#else
	copy(a, b, c, lo, hi);
#endif
}

static void triad_nt(double *restrict a, double *restrict b, double *restrict c, size_t lo,
		     size_t hi)
{
#ifdef __SSE2__
	const __m128d s = _mm_set1_pd(S);
	size_t i = lo;
	for (; i + 2 <= hi; i += 2)
		_mm_stream_pd(&a[i], _mm_add_pd(_mm_load_pd(&b[i]), _mm_mul_pd(s, _mm_load_pd(&c[i]))));
	for (; i < hi; i++)
		a[i] = b[i] + S * c[i];
	_mm_sfence();
#else
	triad(a, b, c, lo, hi);
#endif
}

const struct tt_kernel tt_k_copy = {.name = "copy", .summary = "STREAM copy c = a (1:1 read:write)",
	.arrays = 3, .read_bytes = 8, .write_bytes = 8, .run = copy, .expect = 1.0, .out_array = 2};
const struct tt_kernel tt_k_scale = {.name = "scale", .summary = "STREAM scale b = s*c",
	.arrays = 3, .read_bytes = 8, .write_bytes = 8, .run = scale, .expect = S * 0.5,
	.out_array = 1};
const struct tt_kernel tt_k_add = {.name = "add", .summary = "STREAM add c = a + b (2:1)",
	.arrays = 3, .read_bytes = 16, .write_bytes = 8, .run = add, .expect = 3.0, .out_array = 2};
const struct tt_kernel tt_k_triad = {.name = "triad", .summary = "STREAM triad a = b + s*c (2:1)",
	.arrays = 3, .read_bytes = 16, .write_bytes = 8, .run = triad, .expect = 2.0 + S * 0.5,
	.out_array = 0};
const struct tt_kernel tt_k_copy_nt = {.name = "copy-nt",
	.summary = "copy with non-temporal stores (MLC -W8: 1:1 read:NT write)", .arrays = 3,
	.read_bytes = 8, .write_bytes = 8, .run = copy_nt, .expect = 1.0, .out_array = 2};
const struct tt_kernel tt_k_triad_nt = {.name = "triad-nt",
	.summary = "triad with non-temporal stores (MLC -W10: stream-triad-like, 2:1 read:NT "
		   "write)", .arrays = 3, .read_bytes = 16, .write_bytes = 8, .run = triad_nt,
	.expect = 2.0 + S * 0.5, .out_array = 0};
