/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What a figure is: the one table that bench's per-pass rows, show, runs,
 * the CSV and Prometheus exports, plot and tiertop render from. A figure
 * is stored in its SI unit (bytes/s, ns, s) under the JSON names spelled
 * here, and shown as value / divisor with its decimals and its label.
 *
 *	const struct tt_figure *f = tt_figure(TT_FIG_BANDWIDTH);
 *	printf("%.*f %s", f->decimals, v / f->divisor, f->label);   (tt_figure_print)
 *	f = tt_objective_figure(&objective);     (what a run was ranked by)
 *
 * To add a figure: 1. its id in enum tt_figure_id; 2. its line in
 * tt_figures[] (figure.c). Its columns in the database (db/schema.c) and
 * the measurement that fills them are the only other places it is named.
 */
#ifndef TT_FIGURE_H
#define TT_FIGURE_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

struct tt_objective;

enum tt_figure_id {
	TT_FIG_BANDWIDTH, /* bytes moved per second */
	TT_FIG_LATENCY,	  /* ns per dependent load */
	TT_FIG_WALL_TIME, /* a program's wall time */
	TT_FIG_METRIC,	  /* a number the program prints */
	TT_FIG_PASS_TIME, /* a bandwidth kernel's seconds per pass */
	/* Shown, not ranked by: no passes, no objective, no gauge. */
	TT_FIG_SIZE,	  /* bytes of memory: a buffer, a cache, a process's pages */
	TT_FIG_MOVE_RATE, /* bytes of memory moved per second (rebalance) */
	TT_FIG_MEMORY,	  /* a node's memory, total or free (topo) */
	TT_FIG_HMAT_BW,	  /* HMAT's bandwidth of a node from its initiators, bytes/s */
	TT_FIG_HMAT_LAT,  /* HMAT's latency of a node from its initiators, ns */
	TT_FIGURES,
};

struct tt_figure {
	const char *name; /* what it is, in words: "bandwidth", "loaded latency" */
	/* The JSON names (docs/json.md): the stem and SI unit of the
	 * computed ones ("bw" "_ci_low" "_bytes_s"), and each recorded one in
	 * full, as grep finds them. "Best" is the best pass (highest
	 * bandwidth, lowest latency), "worst" the other end. */
	const char *stem, *si;
	const char *best, *median, *worst, *mean; /* mean: NULL when none is kept; */
						  /* all NULL for a size, which has no passes */
	const char *worst_word;			  /* "min", "max", "worst": as worst names it */
	const char *label;			  /* the unit shown: "GB/s", "ns", "s", "" */
	const char *row;			  /* bench's per-pass row: "GB/s", "ns/load" */
	const char *csv_unit;			  /* export's unit column: "bytes/s" */
	const char *plot_unit;			  /* plot's axis: as label, "metric" for none */
	/* shown = value / divisor. A division, not a product with 1e-9:
	 * 1e9 is exact and 1e-9 is not, and the two print differently
	 * (54.955e9 bytes/s is 54.95 GB/s divided, 54.96 multiplied), so
	 * bench and show gave one pass two numbers. */
	double divisor;
	int decimals;	   /* shown with %.*f; -1: %g */
	bool lower_better; /* the metric's comes from its objective */
	bool positive;	   /* cannot be below 0: no interval end below */
	/* A bench run's headline gives the median pass beside the best one
	 * (STREAM's report); an app run's, the best alone. */
	bool median_in_headline;
	const char *prom;  /* Prometheus' gauge, in its base unit */
	double prom_scale; /* Prometheus' value = value * prom_scale */
};

extern const struct tt_figure tt_figures[TT_FIGURES];

static inline const struct tt_figure *tt_figure(enum tt_figure_id id)
{
	return &tt_figures[id];
}

/* The figure an objective ranks trials by: bandwidth for a kernel's
 * bandwidth and the matrix, latency, wall time, the metric; NULL for
 * TT_OBJ_NONE. */
const struct tt_figure *tt_objective_figure(const struct tt_objective *o);
/* Whether lower is better for o's figure (the metric's from o). */
bool tt_objective_lower_better(const struct tt_objective *o);

/* value as shown: value / divisor with the figure's decimals (%g when it
 * has none). snprintf's return. */
int tt_figure_print(const struct tt_figure *f, double value, char *buf, size_t size);
/* The same with its label after a space ("14.6 MiB"; none when the figure
 * has none, the metric). */
int tt_figure_text(const struct tt_figure *f, double value, char *buf, size_t size);
/* A page size as the kernel names its sizes, in its own binary unit and
 * whole ("4 KiB", "2 MiB", "1 GiB"; arm64's "64 KiB"): a page size is
 * never a fraction of one. snprintf's return. */
int tt_page_size_text(uint64_t bytes, char *buf, size_t size);
/* A computed JSON name: stem, part, SI unit ("bw" "mean" "_bytes_s" ->
 * "bw_mean_bytes_s"). */
void tt_figure_key(const struct tt_figure *f, const char *part, char *buf, size_t size);

#endif
