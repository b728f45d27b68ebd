// SPDX-License-Identifier: GPL-3.0-or-later
/* core/figure.c: the one figure table. Every figure's recorded names are
 * its stem, the pass and its SI unit; each objective ranks by the figure
 * show, the CSV, plot and Prometheus have always given it; values render
 * with the figure's scale and decimals, as show printed them. */
#include "test.h"

#include "../../core/figure.h"
#include "../../core/objective.h"

#include <stdio.h>
#include <string.h>

static void check_name(const struct tt_figure *f, const char *name, const char *part)
{
	char want[64];

	snprintf(want, sizeof(want), "%s_%s%s", f->stem, part, f->si);
	assert_string_equal(name, want);
}

static void test_names_are_stem_pass_unit(void **state)
{
	(void)state;
	for (int i = 0; i < TT_FIGURES; i++) {
		const struct tt_figure *f = tt_figure(i);
		char key[64];

		assert_non_null(f->name);
		assert_non_null(f->label);
		assert_non_null(f->row);
		assert_non_null(f->csv_unit);
		assert_non_null(f->plot_unit);
		assert_true(f->divisor > 0);
		tt_figure_key(f, "ci_low", key, sizeof(key));
		check_name(f, key, "ci_low");
		/* A size or a rate is shown, never ranked: no passes, no gauge. */
		if (!f->best) {
			assert_null(f->median);
			assert_null(f->worst);
			assert_null(f->prom);
			continue;
		}
		check_name(f, f->best, "best");
		check_name(f, f->median, "median");
		check_name(f, f->worst, f->worst_word);
		if (f->mean)
			check_name(f, f->mean, "mean");
		/* A figure with an objective has a Prometheus gauge in a base
		 * unit. */
		if (i != TT_FIG_PASS_TIME) {
			size_t n = strlen(f->prom);

			assert_true(f->prom_scale > 0);
			assert_true(strcmp(f->prom + n - 8, "_seconds") == 0 ||
				    strcmp(f->prom + n - 17, "_bytes_per_second") == 0 ||
				    strcmp(f->prom + n - 7, "_metric") == 0);
		}
	}
	/* The names docs/json.md documents. */
	assert_string_equal(tt_figure(TT_FIG_BANDWIDTH)->median, "bw_median_bytes_s");
	assert_string_equal(tt_figure(TT_FIG_BANDWIDTH)->worst, "bw_min_bytes_s");
	assert_string_equal(tt_figure(TT_FIG_LATENCY)->worst, "lat_max_ns");
	assert_string_equal(tt_figure(TT_FIG_WALL_TIME)->worst, "time_max_s");
	assert_string_equal(tt_figure(TT_FIG_METRIC)->worst, "metric_worst");
	assert_string_equal(tt_figure(TT_FIG_PASS_TIME)->mean, "pass_mean_s");
}

static void test_objective_figure(void **state)
{
	static const struct {
		const char *objective;
		enum tt_figure_id fig;
		bool lower_better;
	} v[] = {
		{ "bandwidth:triad", TT_FIG_BANDWIDTH, false },
		{ "bandwidth:triad,latency-bound", TT_FIG_BANDWIDTH, false },
		{ "matrix:reads", TT_FIG_BANDWIDTH, false },
		{ "latency:loaded-latency", TT_FIG_LATENCY, true },
		{ "latency:triad@10GB/s", TT_FIG_LATENCY, true },
		{ "app:wall-time", TT_FIG_WALL_TIME, true },
		{ "app:metric,higher-is-better", TT_FIG_METRIC, false },
		{ "app:metric,lower-is-better", TT_FIG_METRIC, true },
	};
	struct tt_objective o = { .kind = TT_OBJ_NONE };
	(void)state;

	for (size_t i = 0; i < sizeof(v) / sizeof(*v); i++) {
		assert_int_equal(tt_objective_parse(v[i].objective, &o), 0);
		assert_ptr_equal(tt_objective_figure(&o), tt_figure(v[i].fig));
		assert_int_equal(tt_objective_lower_better(&o), v[i].lower_better);
	}
	o = (struct tt_objective){ .kind = TT_OBJ_NONE };
	assert_null(tt_objective_figure(&o));
}

/* As show, runs, the CSV's unit column and the bench table printed them
 * before the table (cli/run-figures.c, cli/cmd-show.c, bench/kinds.c). */
static void test_rendering(void **state)
{
	static const struct {
		enum tt_figure_id fig;
		double v;
		const char *shown, *label, *row, *csv, *plot;
	} v[] = {
		{ TT_FIG_BANDWIDTH, 194.44e9, "194.44", "GB/s", "GB/s", "bytes/s", "GB/s" },
		{ TT_FIG_BANDWIDTH, 54.955e9, "54.95", "GB/s", "GB/s", "bytes/s", "GB/s" },
		{ TT_FIG_LATENCY, 80.25, "80.2", "ns", "ns/load", "ns", "ns" },
		{ TT_FIG_WALL_TIME, 2, "2.000", "s", "seconds", "s", "s" },
		{ TT_FIG_METRIC, -2, "-2", "", "metric", "", "metric" },
		{ TT_FIG_METRIC, 1234567, "1.23457e+06", "", "metric", "", "metric" },
		{ TT_FIG_PASS_TIME, 0.0123456789, "0.012346", "s", "seconds", "s", "s" },
		/* bench's and rebalance's MiB, as they printed them. */
		{ TT_FIG_SIZE, 16 << 20, "16.0", "MiB", "MiB", "bytes", "MiB" },
		{ TT_FIG_SIZE, 10512 * 4096.0, "41.1", "MiB", "MiB", "bytes", "MiB" },
		{ TT_FIG_MOVE_RATE, 1.25 * (1 << 20), "1.2", "MiB/s", "MiB/s", "bytes/s", "MiB/s" },
		/* topo's, as it printed them: a node's memory, HMAT's whole MB/s and ns. */
		{ TT_FIG_MEMORY, 23.46 * (1 << 30), "23.5", "GiB", "GiB", "bytes", "GiB" },
		{ TT_FIG_HMAT_BW, 20480e6, "20480", "MB/s", "MB/s", "bytes/s", "MB/s" },
		{ TT_FIG_HMAT_LAT, 100, "100", "ns", "ns", "ns", "ns" },
	};
	(void)state;

	for (size_t i = 0; i < sizeof(v) / sizeof(*v); i++) {
		const struct tt_figure *f = tt_figure(v[i].fig);
		char buf[32];

		assert_int_equal(tt_figure_print(f, v[i].v, buf, sizeof(buf)),
				 (int)strlen(v[i].shown));
		assert_string_equal(buf, v[i].shown);
		assert_string_equal(f->label, v[i].label);
		assert_string_equal(f->row, v[i].row);
		assert_string_equal(f->csv_unit, v[i].csv);
		assert_string_equal(f->plot_unit, v[i].plot);
	}
	assert_true(tt_figure(TT_FIG_LATENCY)->prom_scale == 1e-9);
	assert_true(tt_figure(TT_FIG_BANDWIDTH)->median_in_headline);
	assert_false(tt_figure(TT_FIG_WALL_TIME)->median_in_headline);
	assert_false(tt_figure(TT_FIG_METRIC)->positive);
}

/* Page sizes in the kernel's own binary units, whole: the one formatter
 * bench's hugetlbfs words and rebalance's granularity note share. */
static void test_page_size_text(void **state)
{
	static const struct {
		uint64_t bytes;
		const char *text;
	} v[] = { { 4096, "4 KiB" },	  { 65536, "64 KiB" },	   { 2 << 20, "2 MiB" },
		  { 32 << 20, "32 MiB" }, { 1ULL << 30, "1 GiB" }, { 16ULL << 30, "16 GiB" },
		  { 3 << 19, "1536 KiB" } };
	char buf[32];
	(void)state;

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		assert_int_equal(tt_page_size_text(v[i].bytes, buf, sizeof(buf)),
				 (int)strlen(v[i].text));
		assert_string_equal(buf, v[i].text);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_are_stem_pass_unit),
		cmocka_unit_test(test_objective_figure),
		cmocka_unit_test(test_rendering),
		cmocka_unit_test(test_page_size_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
