// SPDX-License-Identifier: GPL-3.0-or-later
/* measure/app.c: the --metric parser (vectors as a table), the score's
 * direction, and what tt_app_init refuses before anything runs. */
#include "test.h"

#include "../../core/error.h"
#include "../../measure/app.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct {
	const char *re, *text;
	int rc;	     /* 0 found, 1 no match, TT_EINPUT not a number */
	double want; /* when found */
} metric_cases[] = {
	{ "([0-9.]+) ops/s", "warm-up\n12.5 ops/s\n", 0, 12.5 },
	/* The last matching line wins: programs print warm-up figures first. */
	{ "([0-9.]+) ops/s", "1 ops/s\n2 ops/s\n3 ops/s", 0, 3 },
	/* No group: the whole match. */
	{ "[0-9]+e[0-9]+", "took 15e3 cycles", 0, 15e3 },
	{ "Triad: +([0-9.]+)", "Triad:     9876.5  0.01", 0, 9876.5 },
	{ "time=(-?[0-9.]+)", "time=-4.25", 0, -4.25 },
	{ "([0-9]+) ops", "no figures here\n", 1, 0 },
	{ "", "", 1, 0 }, /* an empty output has no line to match */
	{ "(ops)/s", "12 ops/s", TT_EINPUT, 0 },
	{ "result: (.*)", "result: 12 and more", TT_EINPUT, 0 },
	{ "x=([0-9a-z]+)", "x=nan", TT_EINPUT, 0 },
	/* Longer than a number is read (127): refused, not cut to its head. */
	{ "n=([0-9]+)",
	  "n=10000000000000000000000000000000000000000000000000000000000000000000000000000000"
	  "000000000000000000000000000000000000000000000000000000000000000000000000000000000",
	  TT_EINPUT, 0 },
};

static void test_metric(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(metric_cases) / sizeof(metric_cases[0]); i++) {
		char *argv[] = { "sh", NULL };
		struct tt_app a;
		double v = NAN;
		char log[] = "/tmp/tt-test-app.XXXXXX";
		int fd = mkstemp(log);

		assert_true(fd >= 0);
		close(fd);
		assert_int_equal(tt_app_init(&a, argv, metric_cases[i].re, true, log), 0);
		assert_int_equal(tt_app_parse_metric(&a, metric_cases[i].text, &v),
				 metric_cases[i].rc);
		if (metric_cases[i].rc == 0)
			assert_true(v == metric_cases[i].want);
		if (metric_cases[i].rc == TT_EINPUT)
			assert_non_null(strstr(tt_err_msg(), "is not a number"));
		tt_app_release(&a);
		unlink(log);
	}
}

static void test_score(void **state)
{
	char *argv[] = { "sh", NULL };
	struct tt_app_result r = { .wall_s = 0.5, .value = 4 };
	struct tt_app a;
	char log[] = "/tmp/tt-test-app.XXXXXX";
	int fd = mkstemp(log);
	double score;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	/* Wall time: runs per second, shown back as seconds. */
	assert_int_equal(tt_app_init(&a, argv, NULL, false, log), 0);
	assert_int_equal(tt_app_score(&a, &r, &score), 0);
	assert_true(score == 2 && tt_app_shown(&a, score) == 0.5);
	tt_app_release(&a);
	/* A lower-is-better metric: its inverse, which must exist. */
	assert_int_equal(tt_app_init(&a, argv, "([0-9]+)", false, log), 0);
	assert_int_equal(tt_app_score(&a, &r, &score), 0);
	assert_true(score == 0.25 && tt_app_shown(&a, score) == 4);
	r.value = 0;
	assert_int_equal(tt_app_score(&a, &r, &score), TT_EFAIL);
	tt_app_release(&a);
	/* Higher is better: the metric itself, any sign. */
	assert_int_equal(tt_app_init(&a, argv, "([0-9]+)", true, log), 0);
	r.value = -3;
	assert_int_equal(tt_app_score(&a, &r, &score), 0);
	assert_true(score == -3 && tt_app_shown(&a, score) == -3);
	tt_app_release(&a);
	unlink(log);
}

static void test_init_refuses(void **state)
{
	char *missing[] = { "no-such-command-for-tiertune", NULL };
	char plain[] = "/tmp/tt-test-app.XXXXXX";
	char *notexec[] = { plain, NULL };
	char *sh[] = { "sh", NULL };
	char *empty[] = { NULL };
	struct tt_app a;
	int fd = mkstemp(plain); /* mode 0600: no execute bit, even for root */

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(tt_app_init(&a, missing, NULL, false, "/nonexistent/log"), TT_EINPUT);
	assert_non_null(strstr(tt_err_msg(), "'no-such-command-for-tiertune' not found in PATH"));
	assert_int_equal(tt_app_init(&a, notexec, NULL, false, "/nonexistent/log"), TT_EINPUT);
	assert_non_null(strstr(tt_err_msg(), "not an executable file"));
	unlink(plain);
	assert_int_equal(tt_app_init(&a, empty, NULL, false, "/nonexistent/log"), TT_EINPUT);
	assert_int_equal(tt_app_init(&a, sh, "([0-9]", false, "/nonexistent/log"), TT_EINPUT);
	assert_non_null(strstr(tt_err_msg(), "--metric '([0-9]' is not a regular expression"));
	/* Found, but no log can be made: a failure, not bad input. */
	assert_int_equal(tt_app_init(&a, sh, NULL, false, "/nonexistent/log"), TT_EFAIL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_metric),
		cmocka_unit_test(test_score),
		cmocka_unit_test(test_init_refuses),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
