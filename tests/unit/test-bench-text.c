// SPDX-License-Identifier: GPL-3.0-or-later
/* view/bench-text.c: every column bench prints, each figure in the figure
 * table's unit, scale and decimals, as bench printed them before the table
 * held them (the expected text is the old format strings' output for the
 * same values: "%12.2f" of bytes/s / 1e9, "%12.6f" of seconds, "%12.1f" of
 * ns, "%9.2f" and "%9.1f" in the matrix, "%.1f MiB"). A wrong scale or
 * decimal in any column fails here; STREAM's summary fits 80 columns and
 * a 60-column terminal. */
#include "test.h"

#include "../../bench/kernels.h"
#include "../../bench/run.h"
#include "../../collectors/collect.h"
#include "../../measure/trial.h"
#include "../../view/bench-text.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *sink;

/* The caller's wrappers, unwrapped: what is said, a line each. */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(sink, fmt, ap);
	va_end(ap);
	fputc('\n', sink);
}

static void wrap(int indent, const char *text)
{
	(void)indent;
	fprintf(sink, "%s\n", text);
}

struct capture {
	char *buf;
	size_t len;
	struct tt_bench_out out;
};

static void open_capture(struct capture *c, int cols)
{
	sink = open_memstream(&c->buf, &c->len);
	assert_non_null(sink);
	c->out = (struct tt_bench_out){ .f = sink, .cols = cols, .say = say, .wrap = wrap };
}

static void expect(struct capture *c, const char *want)
{
	fclose(sink);
	sink = NULL;
	assert_string_equal(c->buf, want);
	free(c->buf);
}

static struct tt_bench_result *result(void)
{
	struct tt_bench_result *r = calloc(1, sizeof(*r));

	assert_non_null(r);
	return r;
}

static void test_passes(void **state)
{
	struct tt_bench_opts o = { .kernel = tt_kernel_find("triad"), .repeat = 10 };
	struct tt_bench_result *r = result();
	struct capture c;

	(void)state;
	*r = (struct tt_bench_result){ .bw_best_bytes_s = 12.3456e9,
				       .bw_median_bytes_s = 11.004e9,
				       .bw_min_bytes_s = 9.8765e9,
				       .best_s = 0.012346789,
				       .median_s = 0.0135,
				       .max_s = 0.0151 };
	open_capture(&c, 80);
	tt_bench_passes_text(&c.out, &o, r);
	expect(&c, "\nper pass             best       median        worst\n"
		   "GB/s                12.35        11.00         9.88\n"
		   "seconds          0.012347     0.013500     0.015100\n"
		   "(bytes counted as STREAM does)\n");

	o.kernel = tt_kernel_find("latency");
	*r = (struct tt_bench_result){
		.lat_best_ns = 85.26, .lat_median_ns = 90.04, .lat_max_ns = 140.06, .loads = 262144
	};
	open_capture(&c, 80);
	tt_bench_passes_text(&c.out, &o, r);
	expect(&c, "\nper pass             best       median        worst\n"
		   "ns/load              85.3         90.0        140.1\n"
		   "(262144 dependent loads per pass, 10 passes)\n");
	free(r);
}

static void test_curve(void **state)
{
	struct tt_bench_result *r = result();
	struct capture c;

	(void)state;
	r->idle_lat_ns = 101.25;
	r->npoints = 2;
	r->points[0] = (struct tt_loaded_point){
		.delay = 0, .delay_ns = 0, .lat_ns = 123.46, .bw_bytes_s = 6.4123e9
	};
	r->points[1] = (struct tt_loaded_point){
		.delay = 2000, .delay_ns = 812.34, .lat_ns = NAN, .bw_bytes_s = 0.5051e9
	};
	open_capture(&c, 80);
	tt_bench_curve_text(&c.out, r);
	expect(&c, "idle latency (the chase alone, first): 101.2 ns\n"
		   "     delay   delay ns   latency ns         GB/s\n"
		   "         0        0.0        123.5         6.41\n"
		   "      2000      812.3     no loads         0.51\n");
	free(r);
}

static void test_matrix(void **state)
{
	int cpu[] = { 0, 1 }, mem[] = { 0, 1 }, threads[] = { 2, 2 };
	double bw[] = { 20.5e9, 10.25e9, 9.99e9, 19.876e9 },
	       lat[] = { 90.04, 140.06, 141.26, 89.96 };
	struct tt_matrix m = {
		.ncpu = 2,
		.nmem = 2,
		.cpu_node = cpu,
		.mem_node = mem,
		.threads = threads,
		.bw_bytes_s = bw,
		.lat_ns = lat,
		.llc = { .bytes = 32 << 20, .level = 3, .count = 1, .from = "sysfs" }
	};
	struct tt_bench_opts o = { .kernel = tt_kernel_find("reads"), .repeat = 2 };
	struct capture c;

	(void)state;
	open_capture(&c, 80);
	tt_matrix_text(&c.out, &o, &m);
	expect(&c, "last-level cache: 32.0 MiB (L3, from sysfs, 1 instance)\n"
		   "reads bandwidth, GB/s (best of 2), rows: CPU node, columns: memory node\n"
		   "                 0         1\n"
		   "       0     20.50     10.25\n"
		   "       1      9.99     19.88\n"
		   "\nidle latency, ns (median)\n"
		   "                 0         1\n"
		   "       0      90.0     140.1\n"
		   "       1     141.3      90.0\n");
}

static void test_sizes_pages_trust(void **state)
{
	struct tt_bench_opts o = { .kernel = tt_kernel_find("triad"), .repeat = 3 };
	struct tt_bench_result *r = result();
	struct tt_llc llc = { .bytes = 32 << 20, .level = 3, .count = 1, .from = "sysfs" };
	struct tt_pages_got p = { .page_bytes = 4096,
				  .huge_bytes = 12 << 20,
				  .buffer_bytes = 48 << 20,
				  .huge_page_size = 2 << 20 };
	struct tt_bench_trust tr = {
		.llc = &llc, .resident = true, .short_pass = true, .tick_s = 1e-6
	};
	char buf[320];
	struct capture c;

	(void)state;
	r->array_bytes = 16 << 20;
	snprintf(r->size_rule, sizeof(r->size_rule), "--size");
	r->isa = "avx2";
	tt_bench_sizes_text(&o, r, buf, sizeof(buf));
	assert_string_equal(
		buf, "arrays of 16.0 MiB (--size), 3 timed passes after one warm-up; avx2 loops");
	open_capture(&c, 80);
	tt_bench_pages_text(&c.out, "pages", true, 0, &p);
	tt_bench_trust_text(&c.out, &tr, 16 << 20, 48 << 20, "arrays", 0.00012345);
	tr.resident = false;
	tr.below_rule = true;
	tr.short_pass = false;
	tt_bench_trust_text(&c.out, &tr, 16 << 20, 48 << 20, "arrays", 0.00012345);
	expect(&c, "pages: 2 MiB transparent huge pages for 12.0 of 48.0 MiB (AnonHugePages in "
		   "/proc/self/smaps), 4 KiB pages for the rest\n"
		   "cache-resident: the 48.0 MiB a pass touches fit in the last-level cache "
		   "(32.0 MiB): these figures are the cache's, not memory's; use --size 128M or "
		   "more (or leave it out: STREAM's rule)\n"
		   "too short: the fastest pass took 123.4 us, under 20 ticks of the clock "
		   "(1000 ns each): the time is mostly the clock's; use a larger --size\n"
		   "below STREAM's 4x rule: 16.0 MiB arrays are under 4x the last-level cache "
		   "(32.0 MiB), so some of each pass may be served from it; use --size 128M or "
		   "more (or leave it out: STREAM's rule)\n");
	free(r);
}

static void test_collect(void **state)
{
	struct tt_bench_result *r = result();
	struct tt_collect_summary sum = { .window_s = 1.234,
					  .nreadings = 12,
					  .bw_source = "numastat" };
	struct capture c;

	(void)state;
	r->bw_best_bytes_s = 10e9;
	r->place.checked = 4;
	r->place.got[0] = 3;
	r->place.got[1] = 1;
	sum.node_has_bw[0] = true;
	sum.node_bw[0] = 7.505e9;
	open_capture(&c, 80);
	tt_bench_collect_text(&c.out, &sum, r);
	expect(&c, "\ncollected over the measured passes: 1.23 s, 12 readings\n"
		   "node  numastat                   benchmark GB/s by page share\n"
		   "0     7.50                       7.50\n"
		   "1     -                          2.50\n"
		   "\ncollector   metric                    node             mean  unit\n");
	free(r);
}

static void test_stream(void **state)
{
	struct tt_stream sum = {
		.n = 2,
		.repeat = 3,
		.rows = { { .kernel = "copy",
			    .bw_best = 12.3456e9,
			    .mean_s = 0.0123456,
			    .best_s = 0.01,
			    .max_s = 0.02 },
			  { .kernel = "triad",
			    .bw_best = 9.995e9,
			    .mean_s = 0.0331234567,
			    .best_s = 0.03,
			    .max_s = 0.04,
			    .fails = 1u << TT_JUDGED_BELOW_RULE | 1u << TT_JUDGED_DESCHEDULED |
				     1u << TT_JUDGED_UNSTABLE } },
	};
	static const char head[] =
		"\nsummary: GB/s of the best pass (as STREAM reports); seconds per pass: mean, "
		"fastest and slowest of 3 timed passes\n"
		"kernel    best GB/s      avg s      min s      max s  judged\n"
		"copy          12.35   0.012346   0.010000   0.020000  valid\n"
		"triad          9.99   0.033123   0.030000   0.040000";
	char want[1024];
	struct capture c;

	(void)state;
	/* 80 columns: the judgements past column 79 under the column. */
	snprintf(want, sizeof(want), "%s  below 4x rule,\n%54sdescheduled, unstable\n", head, "");
	open_capture(&c, 80);
	tt_stream_text(&c.out, &sum);
	expect(&c, want);
	/* 60: under the row, from where the widest judgement fits. */
	snprintf(want, sizeof(want), "%s\n%45sbelow 4x rule,\n%45sdescheduled,\n%45sunstable\n",
		 head, "", "", "");
	open_capture(&c, 60);
	tt_stream_text(&c.out, &sum);
	expect(&c, want);
	for (char *l = want; *l;) {
		size_t n = strcspn(l, "\n");

		/* The heading is the caller's to wrap. */
		if (strncmp(l, "summary:", 8))
			assert_true(n <= 60);
		l += n + (l[n] == '\n');
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_passes),	cmocka_unit_test(test_curve),
		cmocka_unit_test(test_matrix),	cmocka_unit_test(test_sizes_pages_trust),
		cmocka_unit_test(test_collect), cmocka_unit_test(test_stream),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
