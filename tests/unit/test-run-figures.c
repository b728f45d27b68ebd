// SPDX-License-Identifier: GPL-3.0-or-later
/* view/run-figures.c: a run's headline from its recorded recommendation,
 * in the objective's unit, never with a bound below zero; its trials as
 * RFC 4180 CSV. */
#include "test.h"

#include "../../core/error.h"
#include "../../view/run-figures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *row(const char *json)
{
	json_error_t err;
	json_t *j = json_loads(json, 0, &err);

	if (!j)
		fail_msg("bad test JSON: %s", err.text);
	return j;
}

static void test_headline(void **state)
{
	/* The run's best pass (206.5 GB/s) is one lucky pass of another
	 * trial: the headline is the recommendation's mean. */
	static const struct {
		const char *run, *text;
	} v[] = {
		{ "{\"objective\":\"bandwidth:triad\",\"bw_best_bytes_s\":206.53e9,\"reco_action\":"
		  "\"apply\",\"reco_score\":194.44e9,\"reco_score_ci_low\":189.33e9,"
		  "\"reco_score_ci_high\":199.55e9,\"reco_score_n\":6}",
		  "194.44 GB/s mean (95% CI 189.33..199.55)" },
		{ "{\"objective\":\"bandwidth:triad\",\"reco_action\":\"keep_auto\",\"reco_score\":"
		  "3e9,\"reco_score_ci_low\":-3.2e9,\"reco_score_ci_high\":9.2e9,\"reco_score_n\":"
		  "2}",
		  "keep auto mode; best measured 3.00 GB/s mean (too few measurements to bound "
		  "it)" },
		{ "{\"objective\":\"latency:triad@150GB/s\",\"reco_action\":\"bind_local\","
		  "\"reco_score\":1e7,\"reco_score_ci_low\":8e6,\"reco_score_ci_high\":1.25e7,"
		  "\"reco_score_n\":4}",
		  "bind local; best measured 100.0 ns mean (95% CI 80.0..125.0)" },
		{ "{\"objective\":\"latency:triad@150GB/"
		  "s\",\"reco_score\":1e7,\"reco_score_ci_low\":"
		  "-1e6,\"reco_score_ci_high\":2.1e7,\"reco_score_n\":2}",
		  "100.0 ns mean (too few measurements to bound it)" },
		{ "{\"objective\":\"app:wall-time\",\"reco_score\":0.5,\"reco_score_ci_low\":0.4,"
		  "\"reco_score_ci_high\":0.625,\"reco_score_n\":3}",
		  "2.000 s mean (95% CI 1.600..2.500)" },
		{ "{\"objective\":\"app:metric,higher-is-better\",\"reco_score\":-2,"
		  "\"reco_score_ci_low\":-3,\"reco_score_ci_high\":-1,\"reco_score_n\":3}",
		  "-2 mean (95% CI -3..-1)" },
		{ "{\"objective\":\"bandwidth:triad\",\"reco_score\":5e9,\"reco_score_n\":1}",
		  "5.00 GB/s mean (1 measurement: no interval)" },
		{ "{\"kind\":\"bench\",\"objective\":\"bandwidth:triad\",\"bw_best_bytes_s\":54."
		  "96e9,\"bw_median_bytes_s\":49.84e9}",
		  "54.96 GB/s best pass, median 49.84" },
		{ "{\"kind\":\"bench\",\"objective\":\"latency:latency\",\"lat_best_ns\":80.25,"
		  "\"lat_median_ns\":81.5}",
		  "80.2 ns best pass, median 81.5" },
		{ "{\"kind\":\"apply\"}", "-" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		json_t *r = row(v[i].run);
		struct tt_headline h;
		char buf[160];

		tt_run_headline(r, &h);
		tt_headline_text(&h, buf, sizeof(buf));
		if (strcmp(buf, v[i].text) != 0)
			fail_msg("case %zu: '%s', want '%s'", i, buf, v[i].text);
		json_decref(r);
	}
}

/* An objective that no tiertune writes (a damaged or edited database):
 * runs lists the run with no headline and a warning naming it; show,
 * export and plot refuse it (tt_run_get, t0044). Before, the headline
 * took it for bandwidth and showed 2.00 GB/s for a wall time of 2 s. */
static void test_bad_objective(void **state)
{
	json_t *r = row("{\"id\":9,\"kind\":\"auto\",\"objective\":\"app:walltime\","
			"\"reco_score\":2e9,\"reco_score_n\":3}");
	struct tt_headline h;
	char buf[160];

	(void)state;
	/* view/ prints nothing: the caller (runs) warns with this message. */
	assert_int_equal(tt_run_headline(r, &h), TT_EINPUT);
	assert_string_equal(tt_err_msg(),
			    "run 9: objective 'app:walltime' is not one tiertune records");
	tt_headline_text(&h, buf, sizeof(buf));
	assert_string_equal(buf, "-");
	json_decref(r);
}

static void test_headline_json(void **state)
{
	json_t *r = row("{\"objective\":\"bandwidth:triad\",\"reco_action\":\"apply\","
			"\"reco_score\":3e9,\"reco_score_ci_low\":-1e9,\"reco_score_ci_high\":7e9,"
			"\"reco_score_n\":2}");
	struct tt_headline h;

	(void)state;
	tt_run_headline(r, &h);
	tt_headline_json(r, &h);
	assert_string_equal(json_string_value(json_object_get(r, "headline")),
			    "recommendation_mean");
	assert_string_equal(json_string_value(json_object_get(r, "action")), "apply");
	assert_true(json_real_value(json_object_get(r, "bw_mean_bytes_s")) == 3e9);
	/* No bound below zero for a bandwidth: none, not -1 GB/s. */
	assert_true(json_is_null(json_object_get(r, "bw_ci_low_bytes_s")));
	assert_true(json_is_null(json_object_get(r, "bw_ci_high_bytes_s")));
	assert_true(json_is_null(json_object_get(r, "lat_mean_ns")));
	assert_int_equal(json_integer_value(json_object_get(r, "measurements")), 2);
	assert_null(json_object_get(r, "reco_score"));
	json_decref(r);
}

/* RFC 4180: CRLF records, quotes only where needed and doubled, a line
 * break kept inside quotes; the delay in its own column; the
 * recommendation's mean on its own trial's rows. */
static void test_csv(void **state)
{
	json_t *run = row(
		"{\"id\":7,\"source_node\":0,\"objective\":\"bandwidth:triad\",\"trials\":["
		"{\"seq\":1,\"kernel\":\"loaded-latency\",\"mix\":\"reads, delay 400\","
		"\"placement\":\"exact\",\"threads\":2,\"size_bytes\":4096,\"bw_best_bytes_s\":1."
		"5e9,"
		"\"validated\":true,\"simulated\":false,\"nodes\":[{\"node\":0,\"weight\":1,"
		"\"requested_share\":1,\"achieved_share\":1}]},"
		"{\"seq\":2,\"kernel\":\"tri\\\"ad\\nx\",\"mix\":\"=cmd\",\"placement\":\"model\","
		"\"threads\":2,\"size_bytes\":0,\"validated\":false,\"simulated\":true,\"nodes\":["
		"{\"node\":0,\"weight\":3,\"requested_share\":0.75,\"achieved_share\":0.75},"
		"{\"node\":1,\"weight\":1,\"requested_share\":0.25,\"achieved_share\":0.25}]}],"
		"\"recommendations\":[{\"source_node\":0,\"weights\":{\"0\":3,\"1\":1},"
		"\"weights_keyed_by\":\"node\",\"action\":\"apply\",\"score\":2e9,"
		"\"score_ci_low\":1.5e9,\"score_ci_high\":2.5e9,\"score_n\":4}]}");
	char *out = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&out, &size);

	(void)state;
	tt_trials_csv(run, f);
	fclose(f);
	assert_string_equal(
		out,
		"run,trial,kernel,mix,placement,threads,size_bytes,bw_best_bytes_s,lat_median_ns,"
		"validated,simulated,node,weight,requested_share,achieved_share,time_median_s,"
		"metric_median,delay_iterations,bw_median_bytes_s,lat_best_ns,recommended,action,"
		"mean,ci_low,ci_high,unit,measurements\r\n"
		"7,1,loaded-latency,\"reads, delay "
		"400\",exact,2,4096,1500000000,,1,0,0,1,1,1,,,400,"
		",,0,,,,,,\r\n"
		"7,2,\"tri\"\"ad\nx\",'=cmd,model,2,0,,,0,1,0,3,0.75,0.75,,,,,,1,apply,2000000000,"
		"1500000000,2500000000,bytes/s,4\r\n"
		"7,2,\"tri\"\"ad\nx\",'=cmd,model,2,0,,,0,1,1,1,0.25,0.25,,,,,,1,apply,2000000000,"
		"1500000000,2500000000,bytes/s,4\r\n");
	free(out);
	json_decref(run);
}

/* show's table of the trials' means, into the stream it is given (view/
 * prints nothing of its own): the interval "n/a" under 2 measurements, a
 * trial without a mean left out. */
static void test_trials_text(void **state)
{
	json_t *run = row("{\"id\":7,\"objective\":\"bandwidth:triad\",\"trials\":["
			  "{\"seq\":1,\"bw_mean_bytes_s\":1.5e11,\"bw_ci_low_bytes_s\":1.4e11,"
			  "\"bw_ci_high_bytes_s\":1.6e11,\"measurements\":3},"
			  "{\"seq\":2},"
			  "{\"seq\":3,\"bw_mean_bytes_s\":2e11,\"measurements\":1}]}");
	char *out = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&out, &size);

	(void)state;
	tt_trials_text(run, f);
	fclose(f);
	assert_string_equal(out,
			    "\n"
			    "trial      mean GB/s                        95% CI measurements\n"
			    "    1         150.00                140.00..160.00            3\n"
			    "    3         200.00                           n/a            1\n");
	free(out);
	json_decref(run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_headline),      cmocka_unit_test(test_bad_objective),
		cmocka_unit_test(test_headline_json), cmocka_unit_test(test_csv),
		cmocka_unit_test(test_trials_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
