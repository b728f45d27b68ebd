// SPDX-License-Identifier: GPL-3.0-or-later
/* core/objective.c: every objective text the tree writes or has written
 * reads back as the same struct and formats to the same bytes; text that
 * is none of them is refused with a message quoting it; a run of a
 * measuring kind with such text is named in the error, a run that
 * measures nothing keeps its note. */
#include "test.h"

#include "../../core/error.h"
#include "../../core/objective.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Every form in the tree: auto-record.c's and trial.c's writers, the
 * tests' fixture databases (t0005, t0015, t0016, t0044), docs/json.md. */
static const struct {
	const char *text;
	struct tt_objective o;
} forms[] = {
	{ "bandwidth:triad", { .kind = TT_OBJ_BANDWIDTH, .kernel = "triad" } },
	{ "bandwidth:copy-nt", { .kind = TT_OBJ_BANDWIDTH, .kernel = "copy-nt" } },
	{ "bandwidth:3r1w", { .kind = TT_OBJ_BANDWIDTH, .kernel = "3r1w" } },
	{ "bandwidth:triad,latency-bound",
	  { .kind = TT_OBJ_BANDWIDTH, .kernel = "triad", .latency_bound = true } },
	{ "latency:latency", { .kind = TT_OBJ_LATENCY, .kernel = "latency" } },
	{ "latency:loaded-latency", { .kind = TT_OBJ_LATENCY, .kernel = "loaded-latency" } },
	{ "latency:triad@10GB/s",
	  { .kind = TT_OBJ_LATENCY, .kernel = "triad", .traffic_gb_s = 10 } },
	{ "latency:triad@150GB/s",
	  { .kind = TT_OBJ_LATENCY, .kernel = "triad", .traffic_gb_s = 150 } },
	{ "latency:triad@12.5GB/s",
	  { .kind = TT_OBJ_LATENCY, .kernel = "triad", .traffic_gb_s = 12.5 } },
	{ "latency:triad@0.1GB/s",
	  { .kind = TT_OBJ_LATENCY, .kernel = "triad", .traffic_gb_s = 0.1 } },
	{ "latency:triad@1e+06GB/s",
	  { .kind = TT_OBJ_LATENCY, .kernel = "triad", .traffic_gb_s = 1e6 } },
	{ "matrix:reads", { .kind = TT_OBJ_MATRIX, .kernel = "reads" } },
	{ "app:wall-time", { .kind = TT_OBJ_WALL_TIME } },
	{ "app:metric,higher-is-better", { .kind = TT_OBJ_METRIC } },
	{ "app:metric,lower-is-better", { .kind = TT_OBJ_METRIC, .lower_better = true } },
};

static void test_every_form_round_trips(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(forms) / sizeof(*forms); i++) {
		struct tt_objective o;
		char text[TT_OBJECTIVE_TEXT_MAX];

		if (tt_objective_parse(forms[i].text, &o) != 0)
			fail_msg("'%s': %s", forms[i].text, tt_err_msg());
		assert_true(tt_objective_equal(&o, &forms[i].o));
		assert_int_equal(tt_objective_format(&forms[i].o, text, sizeof(text)), 0);
		assert_string_equal(text, forms[i].text);
	}
}

/* auto's writer took "%g" of the rate in GB/s: six digits. A rate that
 * needs more is now written whole, so that it reads back the same. */
static void test_rate_digits(void **state)
{
	struct tt_objective o = { .kind = TT_OBJ_LATENCY, .kernel = "triad" }, back;
	char text[TT_OBJECTIVE_TEXT_MAX];
	(void)state;

	o.traffic_gb_s = 123.4567891;
	assert_int_equal(tt_objective_format(&o, text, sizeof(text)), 0);
	assert_string_equal(text, "latency:triad@123.4567891GB/s");
	assert_int_equal(tt_objective_parse(text, &back), 0);
	assert_true(tt_objective_equal(&o, &back));
	/* More digits than format writes read as the same rate. */
	assert_int_equal(tt_objective_parse("latency:triad@10.000GB/s", &back), 0);
	assert_true(back.traffic_gb_s == 10);
	o.traffic_gb_s = 0x1.fffffffffffffp+1023;
	assert_int_equal(tt_objective_format(&o, text, sizeof(text)), 0);
	assert_int_equal(tt_objective_parse(text, &back), 0);
	assert_true(tt_objective_equal(&o, &back));
}

static void test_bad_text(void **state)
{
	static const char *const bad[] = {
		"",
		"bandwidth",
		"bandwidth:",
		"bw:triad",
		"Bandwidth:triad",
		" bandwidth:triad",
		"bandwidth:triad ",
		"bandwidth:triad,latency-bound,latency-bound",
		"bandwidth:triad@10GB/s",
		"matrix:reads,latency-bound",
		"latency:triad,latency-bound",
		"latency:triad@",
		"latency:triad@GB/s",
		"latency:triad@10",
		"latency:triad@10GB/s,",
		"latency:triad@-10GB/s",
		"latency:triad@+10GB/s",
		"latency:triad@0GB/s",
		"latency:triad@1e999GB/s",
		"latency:triad@nanGB/s",
		"latency:triad@infGB/s",
		"latency:triad@0x10GB/s",
		"latency:triad@1..2GB/s",
		"latency:tri ad",
		"latency:tri:ad",
		"app:",
		"app:metric",
		"app:metric,higher-is-better,",
		"app:wall-time,lower-is-better",
		"run 12",
		"x\" . system(\"touch pwned\") . \"",
		"bandwidth:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	};
	(void)state;

	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		struct tt_objective o = { .kind = TT_OBJ_METRIC };
		char want[160];

		if (tt_objective_parse(bad[i], &o) != TT_EINPUT)
			fail_msg("'%s' parsed", bad[i]);
		assert_int_equal(o.kind, TT_OBJ_NONE);
		snprintf(want, sizeof(want), "objective '%s' is not one tiertune records",
			 strchr(bad[i], '"') ? "x\" . system(\"touch pwned\") . \"" : bad[i]);
		assert_string_equal(tt_err_msg(), want);
	}
	/* The text as it is (cli.c escapes a message as it prints it). */
	assert_int_equal(tt_objective_parse("bandwidth:tri\nad", &(struct tt_objective){ 0 }),
			 TT_EINPUT);
	assert_string_equal(tt_err_msg(),
			    "objective 'bandwidth:tri\nad' is not one tiertune records");
	assert_int_equal(tt_objective_parse(NULL, &(struct tt_objective){ 0 }), TT_EINPUT);
	/* A long text is cut where the message quotes it (make fuzz found the
	 * message cut short of its end before). */
	char long_text[4096];

	memset(long_text, 'a', sizeof(long_text) - 1);
	long_text[sizeof(long_text) - 1] = '\0';
	assert_int_equal(tt_objective_parse(long_text, &(struct tt_objective){ 0 }), TT_EINPUT);
	assert_non_null(strstr(tt_err_msg(), "aaa...' is not one tiertune records"));
}

static void test_format_refuses(void **state)
{
	static const struct tt_objective bad[] = {
		{ .kind = TT_OBJ_NONE },
		{ .kind = TT_OBJ_BANDWIDTH },
		{ .kind = TT_OBJ_BANDWIDTH, .kernel = "tri,ad" },
		{ .kind = TT_OBJ_MATRIX, .kernel = "a@b" },
		{ .kind = TT_OBJ_LATENCY, .kernel = "triad", .traffic_gb_s = -1 },
		{ .kind = TT_OBJ_LATENCY, .kernel = "triad", .traffic_gb_s = INFINITY },
		{ .kind = TT_OBJ_LATENCY, .kernel = "triad", .traffic_gb_s = NAN },
	};
	char text[TT_OBJECTIVE_TEXT_MAX], small[8];
	(void)state;

	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		assert_int_equal(tt_objective_format(&bad[i], text, sizeof(text)), TT_EINPUT);
	assert_int_equal(tt_objective_format(&forms[0].o, small, sizeof(small)), TT_EINPUT);
}

static void test_of_run(void **state)
{
	struct tt_objective o;
	(void)state;

	assert_int_equal(tt_objective_of_run(3, "auto", "latency:triad@10GB/s", &o), 0);
	assert_int_equal(o.kind, TT_OBJ_LATENCY);
	/* apply's and rebalance's notes, and a run of no objective at all. */
	assert_int_equal(tt_objective_of_run(4, "apply", "run 3", &o), 0);
	assert_int_equal(o.kind, TT_OBJ_NONE);
	assert_int_equal(tt_objective_of_run(5, "rebalance", "pid 4242 (postgres)", &o), 0);
	assert_int_equal(tt_objective_of_run(6, "restore", NULL, &o), 0);
	assert_int_equal(o.kind, TT_OBJ_NONE);
	/* A measuring run with text no tiertune wrote: named, with a hint. */
	static const char *const kinds[] = { "bench", "auto", "sweep", NULL };
	for (size_t i = 0; i < sizeof(kinds) / sizeof(*kinds); i++) {
		assert_int_equal(tt_objective_of_run(7, kinds[i], "speed:fast", &o), TT_EINPUT);
		assert_string_equal(tt_err_msg(),
				    "run 7: objective 'speed:fast' is not one tiertune records");
		assert_non_null(strstr(tt_err_hint_msg(), "damaged"));
	}
	assert_int_equal(tt_objective_of_run(8, "bench", NULL, &o), TT_EINPUT);
	assert_string_equal(tt_err_msg(), "run 8: objective '(none)' is not one tiertune records");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_form_round_trips),
		cmocka_unit_test(test_rate_digits),
		cmocka_unit_test(test_bad_text),
		cmocka_unit_test(test_format_refuses),
		cmocka_unit_test(test_of_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
