// SPDX-License-Identifier: GPL-3.0-or-later
/* cli/progress.c: the status line of a real trial, bench's and auto's
 * (issue 34 item 5). The first touch's percentage grows on the ticker's
 * redraws alone (nothing else calls during a touch); auto's trials carry
 * the status hooks (tuner/auto.h's, through tt_auto_bench_opts) and a real
 * run through them puts the trial's state after auto's own; without a
 * terminal nothing is written and nothing counted. */
#include "test.h"

#include "../../bench/kernels.h"
#include "../../bench/place.h"
#include "../../bench/run.h"
#include "../../cli/progress.h"
#include "../../core/error.h"
#include "../../core/sysfs.h"
#include "../../core/topo.h"
#include "../../tuner/auto.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* What the terminal was sent, one redraw a line: "\r\033[K" starts each. */
static char *drawn(FILE *f)
{
	long n = ftell(f);
	char *buf = calloc(1, (size_t)n + 1), *o = buf;

	rewind(f);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	for (char *i = buf; *i; i++) {
		if (i[0] == '\033' && i[1] == '[' && i[2] == 'K')
			i += 2;
		else
			*o++ = *i == '\r' ? '\n' : *i;
	}
	*o = '\0';
	return buf;
}

static void sleep_s(double s)
{
	struct timespec ts = { .tv_sec = (time_t)s, .tv_nsec = (long)((s - (long)s) * 1e9) };

	nanosleep(&ts, NULL);
}

/* bench: the touch's percentage redrawn while the counter moves, then
 * the page check, the warm-up and the passes; the line erased at the end. */
static void test_first_touch_grows(void **state)
{
	struct cli_progress p;
	struct tt_bench_result r = { .array_bytes = 64 << 20 };
	const struct tt_kernel *k = tt_kernel_find("triad");
	uint64_t all = (uint64_t)k->arrays * r.array_bytes;
	int seen[4] = { 0 }, last = -1, distinct = 0, asked = 0;
	char *out, *line, *save = NULL;

	(void)state;
	cli_progress_init(&p, true);
	p.out = tmpfile();
	assert_ptr_equal(cli_progress_counter(&p), &p.touched);
	cli_progress_started(&p, k, &r);
	cli_progress_pass(&p, 0, 0);
	/* The touching threads count; nothing calls the line meanwhile. */
	for (int q = 1; q <= 3; q++) {
		atomic_store(&p.touched, all * (uint64_t)q / 4);
		sleep_s(0.7);
	}
	atomic_store(&p.touched, all);
	sleep_s(0.7);
	cli_progress_pass(&p, 0, 2);
	cli_progress_pass(&p, 2, 2);
	cli_progress_end(&p);
	out = drawn(p.out);
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		int pct;
		double t;

		if (sscanf(line,
			   "placing and touching arrays (192.0 MiB), %d%% touched, %lf s elapsed",
			   &pct, &t) == 2) {
			/* Never back: each redraw at or past the one before. */
			assert_true(pct >= last);
			if (pct % 25 == 0 && pct < 100)
				seen[pct / 25]++;
			last = pct;
		} else if (strstr(line, "placing and touching arrays (192.0 MiB), asking where the "
					"pages are, ")) {
			asked++;
		}
	}
	free(out);
	out = drawn(p.out);
	for (int q = 1; q <= 3; q++)
		distinct += seen[q] > 0;
	/* 0% first; of 25, 50 and 75 (0.7 s each, redrawn every 0.5 s) at
	 * least two; then the page check, the warm-up, the last pass. */
	assert_true(strstr(out, "\nplacing and touching arrays (192.0 MiB), 0% touched, ") == out);
	assert_true(distinct >= 2);
	assert_true(seen[0] > 0 && asked > 0);
	assert_non_null(strstr(out, "\nwarm-up pass, "));
	assert_non_null(strstr(out, "\npass 2 of 2, "));
	/* Erased last: nothing after the final "\r\033[K". */
	assert_true(out[strlen(out) - 1] == '\n');
	free(out);
	fclose(p.out);
}

/* No terminal: not a byte, and no counter for the run to keep. */
static void test_no_terminal_silent(void **state)
{
	struct cli_progress p;
	struct tt_bench_result r = { .array_bytes = 1 << 20 };

	(void)state;
	cli_progress_init(&p, false);
	p.out = tmpfile();
	assert_null(cli_progress_counter(&p));
	cli_progress_head(&p, "measurement 1 of 3");
	cli_progress_started(&p, tt_kernel_find("triad"), &r);
	cli_progress_pass(&p, 0, 0);
	cli_progress_pass(&p, 1, 1);
	cli_progress_end(&p);
	assert_int_equal(ftell(p.out), 0);
	assert_false(p.ticking);
	fclose(p.out);
}

/* As cli/cmd-auto.c does: its trials' hooks call the line, the kernel
 * unknown in the profile. */
static int auto_started(void *ctx, const struct tt_bench_result *r)
{
	cli_progress_started(ctx, NULL, r);
	return 0;
}

static void auto_progress(void *ctx, int n, int of)
{
	cli_progress_pass(ctx, n, of);
}

/* auto: the bench options its real trials run with carry the caller's
 * hooks, and a real run through them (this machine, its first node with
 * CPUs) shows the trial after auto's head: the touch, the passes; a head
 * of its own between trials. */
static void test_auto_trial_shown(void **state)
{
	struct cli_progress p;
	struct tt_sysfs sfs;
	struct tt_topo t;
	struct tt_weights w;
	struct tt_bench_result r;
	struct tt_auto *c = calloc(1, sizeof(*c));
	int src = -1;
	char *out;

	(void)state;
	assert_int_equal(tt_sysfs_init(&sfs, "/"), 0);
	assert_int_equal(tt_topo_load(&t, &sfs), 0);
	for (int i = 0; i < t.nnodes && src < 0; i++)
		if (t.nodes[i].ncpus)
			src = t.nodes[i].id;
	assert_true(src >= 0);
	cli_progress_init(&p, true);
	p.out = tmpfile();
	*c = (struct tt_auto){ .req = { .kernel = tt_kernel_find("triad"),
					.source = src,
					.threads = 1,
					.size_bytes = 8 << 20,
					.repeat = 2,
					.allow_cache_resident = true },
			       .t = &t,
			       .sfs = &sfs,
			       .hooks = { .trial_started = auto_started,
					  .trial_progress = auto_progress,
					  .touched_bytes = cli_progress_counter(&p),
					  .ctx = &p } };
	struct tt_bench_opts o = tt_auto_bench_opts(c);

	assert_ptr_equal(o.started, auto_started);
	assert_ptr_equal(o.progress, auto_progress);
	assert_ptr_equal(o.report_ctx, &p);
	assert_ptr_equal(o.touched_bytes, &p.touched);
	tt_weights_clear(&w);
	tt_weights_put(&w, src, 1);
	assert_int_equal(tt_place_init(&o.place, TT_PLACE_EXACT, &w.set, &w, src), 0);
	cli_progress_head(&p, "measurement 3 of 30, best 0:1 5.00 GB/s, about 9 s left");
	memset(&r, 0, sizeof(r));
	if (tt_bench_run(&o, &r) < 0)
		fail_msg("%s", tt_err_msg());
	sleep_s(0.15); /* past the tenth of a second between redraws */
	cli_progress_head(&p, "measurement 4 of 30, best 0:1 5.00 GB/s, about 6 s left");
	cli_progress_end(&p);
	out = drawn(p.out);
	assert_non_null(strstr(out, "\nmeasurement 3 of 30, best 0:1 5.00 GB/s, about 9 s left, "));
	assert_non_null(strstr(out, "\nmeasurement 3 of 30, best 0:1 5.00 GB/s, about 9 s left; "
				    "placing and touching the buffers (24.0 MiB), "));
	assert_non_null(strstr(out, "\nmeasurement 3 of 30, best 0:1 5.00 GB/s, about 9 s left; "
				    "pass 2 of 2, "));
	assert_non_null(strstr(out, "\nmeasurement 4 of 30, best 0:1 5.00 GB/s, about 6 s left, "));
	free(out);
	fclose(p.out);
	free(c);
	tt_topo_release(&t);
}

/* Cut to the terminal (here $COLUMNS: a file is no terminal), never
 * wrapping, with the time kept: issue 44's 84-character line at 80
 * columns wrapped, and "\r\033[K" cleared only its last row. */
static void test_cut_to_width(void **state)
{
	static const char *const widths[] = { "60", "80", "30" };
	struct tt_bench_result r = { .array_bytes = 1 << 30 };
	const struct tt_kernel *k = tt_kernel_find("triad");
	(void)state;

	for (size_t i = 0; i < sizeof(widths) / sizeof(*widths); i++) {
		struct cli_progress p;
		char *out, *line, *save = NULL;
		int n = 0, w = atoi(widths[i]);

		setenv("COLUMNS", widths[i], 1);
		cli_progress_init(&p, true);
		p.out = tmpfile();
		cli_progress_started(&p, k, &r);
		atomic_store(&p.touched, (uint64_t)k->arrays * r.array_bytes);
		cli_progress_pass(&p, 0, 0);
		sleep_s(0.15); /* past the tenth of a second between redraws */
		cli_progress_head(&p,
				  "measurement 3 of 30, best 0:1,1:1,2:3 54.96 GB/s, about 95 s "
				  "left");
		cli_progress_end(&p);
		out = drawn(p.out);
		for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			n++;
			assert_true((int)strlen(line) <= w - 1);
			assert_non_null(strstr(line, " s elapsed"));
		}
		assert_int_equal(n, 2);
		free(out);
		out = drawn(p.out);
		if (w == 80) {
			assert_non_null(strstr(out,
					       "\nplacing and touching arrays (3072.0 MiB), asking "
					       "where the pa..., "));
			assert_non_null(
				strstr(out, "\nmeasurement 3 of 30, best 0:1,1:1,2:3 54.96 GB/s, "
					    "about 95 s left, "));
		}
		free(out);
		fclose(p.out);
	}
	setenv("COLUMNS", "1000", 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_touch_grows),
		cmocka_unit_test(test_no_terminal_silent),
		cmocka_unit_test(test_auto_trial_shown),
		cmocka_unit_test(test_cut_to_width),
	};
	/* The lines the other tests look for whole. */
	setenv("COLUMNS", "1000", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
