// SPDX-License-Identifier: GPL-3.0-or-later
/* The figure table (figure.h). */
#include "figure.h"

#include "objective.h"

#include <inttypes.h>
#include <stdio.h>

/* Bandwidth in GB/s (10^9 bytes/s, as STREAM and MLC print it) to two
 * decimals; latency in ns to one (a load is tens to hundreds of ns, and
 * the chase's noise is above 0.1 ns); a program's time to the
 * millisecond; its metric as it printed it (%g). Prometheus takes base
 * units: seconds, bytes per second. Memory's sizes and the rate pages move
 * at in MiB (2^20 bytes: pages, caches and hugetlbfs pools come in powers
 * of two, and --size takes them so) to one decimal; a node's memory in
 * GiB to one decimal. HMAT's figures as the kernel's ABI gives them
 * (Documentation/ABI/stable/sysfs-devices-node: whole MB/s and ns), so
 * that topo shows what sysfs holds. */
const struct tt_figure tt_figures[TT_FIGURES] = {
	[TT_FIG_BANDWIDTH] = { .name = "bandwidth",
			       .stem = "bw",
			       .si = "_bytes_s",
			       .best = "bw_best_bytes_s",
			       .median = "bw_median_bytes_s",
			       .worst = "bw_min_bytes_s",
			       .mean = "bw_mean_bytes_s",
			       .worst_word = "min",
			       .label = "GB/s",
			       .row = "GB/s",
			       .csv_unit = "bytes/s",
			       .plot_unit = "GB/s",
			       .divisor = 1e9,
			       .decimals = 2,
			       .positive = true,
			       .median_in_headline = true,
			       .prom = "tiertune_recommended_bandwidth_bytes_per_second",
			       .prom_scale = 1 },
	[TT_FIG_LATENCY] = { .name = "loaded latency",
			     .stem = "lat",
			     .si = "_ns",
			     .best = "lat_best_ns",
			     .median = "lat_median_ns",
			     .worst = "lat_max_ns",
			     .worst_word = "max",
			     .label = "ns",
			     .row = "ns/load",
			     .csv_unit = "ns",
			     .plot_unit = "ns",
			     .divisor = 1,
			     .decimals = 1,
			     .lower_better = true,
			     .positive = true,
			     .median_in_headline = true,
			     .prom = "tiertune_recommended_latency_seconds",
			     .prom_scale = 1e-9 },
	[TT_FIG_WALL_TIME] = { .name = "wall time",
			       .stem = "time",
			       .si = "_s",
			       .best = "time_best_s",
			       .median = "time_median_s",
			       .worst = "time_max_s",
			       .worst_word = "max",
			       .label = "s",
			       .row = "seconds",
			       .csv_unit = "s",
			       .plot_unit = "s",
			       .divisor = 1,
			       .decimals = 3,
			       .lower_better = true,
			       .positive = true,
			       .prom = "tiertune_recommended_run_time_seconds",
			       .prom_scale = 1 },
	[TT_FIG_METRIC] = { .name = "the program's metric",
			    .stem = "metric",
			    .si = "",
			    .best = "metric_best",
			    .median = "metric_median",
			    .worst = "metric_worst",
			    .worst_word = "worst",
			    .label = "",
			    .row = "metric",
			    .csv_unit = "",
			    .plot_unit = "metric",
			    .divisor = 1,
			    .decimals = -1,
			    .prom = "tiertune_recommended_metric",
			    .prom_scale = 1 },
	[TT_FIG_PASS_TIME] = { .name = "time per pass",
			       .stem = "pass",
			       .si = "_s",
			       .best = "pass_best_s",
			       .median = "pass_median_s",
			       .worst = "pass_max_s",
			       .mean = "pass_mean_s",
			       .worst_word = "max",
			       .label = "s",
			       .row = "seconds",
			       .csv_unit = "s",
			       .plot_unit = "s",
			       .divisor = 1,
			       .decimals = 6,
			       .lower_better = true,
			       .positive = true },
	[TT_FIG_SIZE] = { .name = "size",
			  .stem = "size",
			  .si = "_bytes",
			  .label = "MiB",
			  .row = "MiB",
			  .csv_unit = "bytes",
			  .plot_unit = "MiB",
			  .divisor = 1 << 20,
			  .decimals = 1,
			  .positive = true },
	[TT_FIG_MOVE_RATE] = { .name = "move rate",
			       .stem = "rate",
			       .si = "_bytes_s",
			       .label = "MiB/s",
			       .row = "MiB/s",
			       .csv_unit = "bytes/s",
			       .plot_unit = "MiB/s",
			       .divisor = 1 << 20,
			       .decimals = 1,
			       .positive = true },
	[TT_FIG_MEMORY] = { .name = "memory",
			    .stem = "mem",
			    .si = "_bytes",
			    .label = "GiB",
			    .row = "GiB",
			    .csv_unit = "bytes",
			    .plot_unit = "GiB",
			    .divisor = 1 << 30,
			    .decimals = 1,
			    .positive = true },
	[TT_FIG_HMAT_BW] = { .name = "HMAT bandwidth",
			     .stem = "hmat_bw",
			     .si = "_bytes_s",
			     .label = "MB/s",
			     .row = "MB/s",
			     .csv_unit = "bytes/s",
			     .plot_unit = "MB/s",
			     .divisor = 1e6,
			     .decimals = 0,
			     .positive = true },
	[TT_FIG_HMAT_LAT] = { .name = "HMAT latency",
			      .stem = "hmat_lat",
			      .si = "_ns",
			      .label = "ns",
			      .row = "ns",
			      .csv_unit = "ns",
			      .plot_unit = "ns",
			      .divisor = 1,
			      .decimals = 0,
			      .positive = true },
};

const struct tt_figure *tt_objective_figure(const struct tt_objective *o)
{
	switch (o->kind) {
	case TT_OBJ_BANDWIDTH:
	case TT_OBJ_MATRIX:
		return tt_figure(TT_FIG_BANDWIDTH);
	case TT_OBJ_LATENCY:
		return tt_figure(TT_FIG_LATENCY);
	case TT_OBJ_WALL_TIME:
		return tt_figure(TT_FIG_WALL_TIME);
	case TT_OBJ_METRIC:
		return tt_figure(TT_FIG_METRIC);
	case TT_OBJ_NONE:
	default:
		return NULL;
	}
}

bool tt_objective_lower_better(const struct tt_objective *o)
{
	const struct tt_figure *f = tt_objective_figure(o);

	return o->kind == TT_OBJ_METRIC ? o->lower_better : f && f->lower_better;
}

int tt_figure_print(const struct tt_figure *f, double value, char *buf, size_t size)
{
	if (f->decimals < 0)
		return snprintf(buf, size, "%g", value / f->divisor);
	return snprintf(buf, size, "%.*f", f->decimals, value / f->divisor);
}

int tt_figure_text(const struct tt_figure *f, double value, char *buf, size_t size)
{
	int n = tt_figure_print(f, value, buf, size);

	if (n < 0 || (size_t)n >= size || !f->label[0])
		return n;
	return n + snprintf(buf + n, size - (size_t)n, " %s", f->label);
}

int tt_page_size_text(uint64_t bytes, char *buf, size_t size)
{
	static const char *const units[] = { "KiB", "MiB", "GiB" };
	int u = 0;

	bytes >>= 10;
	while (u < 2 && bytes >= 1024 && bytes % 1024 == 0) {
		bytes >>= 10;
		u++;
	}
	return snprintf(buf, size, "%" PRIu64 " %s", bytes, units[u]);
}

void tt_figure_key(const struct tt_figure *f, const char *part, char *buf, size_t size)
{
	snprintf(buf, size, "%s_%s%s", f->stem, part, f->si);
}
