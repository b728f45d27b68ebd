// SPDX-License-Identifier: GPL-3.0-or-later
/* bench/kinds.c: every kernel has a whole kind; each kind's figures are
 * named with their unit; a result becomes trials that keep best as best
 * and median as median (schema 1 stored a median latency as the figure
 * runs called best). */
#include "test.h"

#include "../../bench/run.h"

#include <stdlib.h>
#include <string.h>

static bool ends(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static void test_every_kernel_has_a_kind(void **state)
{
	(void)state;
	for (const struct tt_kernel *const *k = tt_kernels; *k; k++) {
		const struct tt_kind *kind = (*k)->kind;

		assert_non_null(kind);
		assert_non_null(kind->name);
		assert_true(kind->objective == TT_OBJ_BANDWIDTH ||
			    kind->objective == TT_OBJ_LATENCY);
		assert_non_null(kind->run);
		assert_non_null(kind->ntrials);
		assert_non_null(kind->trial);
		assert_non_null(kind->figures);
		/* --traffic and --matrix time bytes: a bandwidth kernel moves some. */
		if (kind->bandwidth)
			assert_true((*k)->read_bytes + (*k)->write_bytes > 0);
	}
}

static void test_figures_carry_their_unit(void **state)
{
	static const struct {
		const char *label, *suffix;
	} units[] = { { "GB/s", "_bytes_s" }, { "seconds", "_s" }, { "ns/load", "_ns" } };
	const struct tt_kind *kinds[] = { &tt_kind_bandwidth, &tt_kind_latency, &tt_kind_loaded };
	(void)state;

	for (size_t i = 0; i < sizeof(kinds) / sizeof(*kinds); i++) {
		for (const struct tt_kind_figure *f = kinds[i]->figures; f->fig; f++) {
			const char *suffix = NULL,
				   *json[3] = { f->fig->best, f->fig->median, f->fig->worst };

			for (size_t u = 0; u < sizeof(units) / sizeof(*units); u++)
				if (strcmp(f->fig->row, units[u].label) == 0)
					suffix = units[u].suffix;
			assert_non_null(suffix);
			for (int j = 0; j < 3; j++) {
				assert_true(ends(json[j], suffix));
				assert_true(f->offset[j] + sizeof(double) <=
					    sizeof(struct tt_bench_result));
			}
			assert_non_null(strstr(json[0], "best"));
			assert_non_null(strstr(json[1], "median"));
		}
	}
}

static void test_trials_keep_best_and_median(void **state)
{
	struct tt_bench_result *r = calloc(1, sizeof(*r));
	struct tt_bench_opts o = { .kernel = &tt_k_triad };
	struct tt_kind_trial t;
	(void)state;

	assert_non_null(r);
	r->bw_best_bytes_s = 3e10;
	r->bw_median_bytes_s = 2e10;
	r->bw_min_bytes_s = 1e10;
	assert_int_equal(tt_kind_bandwidth.ntrials(r), 1);
	tt_kind_bandwidth.trial(&o, r, 0, &t);
	assert_true(t.bw_best_bytes_s == 3e10 && t.bw_median_bytes_s == 2e10 &&
		    t.bw_min_bytes_s == 1e10);
	assert_string_equal(t.mix, "STREAM");

	o.kernel = &tt_k_latency;
	r->lat_best_ns = 62.2;
	r->lat_median_ns = 70.7;
	r->lat_max_ns = 90.1;
	tt_kind_latency.trial(&o, r, 0, &t);
	assert_true(t.lat_best_ns == 62.2 && t.lat_median_ns == 70.7 && t.lat_max_ns == 90.1);
	assert_true(t.bw_best_bytes_s == 0);

	o.kernel = &tt_k_loaded_latency;
	r->npoints = 2;
	r->points[1] = (struct tt_loaded_point){ .delay = 400, .lat_ns = 120, .bw_bytes_s = 5e9 };
	assert_int_equal(tt_kind_loaded.ntrials(r), 2);
	tt_kind_loaded.trial(&o, r, 1, &t);
	assert_string_equal(t.mix, "reads, delay 400");
	assert_true(t.lat_best_ns == 120 && t.lat_median_ns == 120 && t.bw_best_bytes_s == 5e9);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_kernel_has_a_kind),
		cmocka_unit_test(test_figures_carry_their_unit),
		cmocka_unit_test(test_trials_keep_best_and_median),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
