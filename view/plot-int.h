/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Internal to view/plot.c and view/plot-gp.c: a plot as read from its runs
 * (plot.c: points, marks, names) and the gnuplot script written from it
 * (plot-gp.c: the data table, the layout, each kind's figure).
 */
#ifndef TT_PLOT_INT_H
#define TT_PLOT_INT_H

#include "plot.h"

#include "../core/figure.h"
#include "../core/objective.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct point {
	int run;			 /* index in the plot's runs */
	double share[TT_PLOT_MAX_NODES]; /* requested, by index in nodes[] */
	double value, worse, better;	 /* the figure's unit: mean and 95% CI, else
					    median, worst and best */
	int nmeas;			 /* measurements behind value (mean_ci) */
	bool unbounded;			 /* their interval has no upper end */
	double bw_gb_s, lat_ns;		 /* loaded latency and matrix */
	int cpu, mem;			 /* matrix: CPU node and memory node */
	int rank;			 /* search: 1 + the trials better than it */
	long delay;			 /* loaded latency: spin iterations a line; -1: unknown */
	char weights[96];
};

struct mark {
	int point; /* -1: not in the run */
	char label[256];
};

struct tt_plot {
	enum tt_plot_kind kind;
	json_t *const *runs;
	int nruns;
	bool simulated;
	bool cache_resident; /* a trial's working set fitted in the LLC */
	bool below_rule;     /* a trial's arrays were under 4x the LLC (STREAM's rule) */
	bool unstable;	     /* a trial's passes spread, or a curve was not monotone */
	bool descheduled;    /* a trial's measuring threads did not run through its passes */
	/* Each run's objective, and as its text; a search run's figure is the
	 * one its objective ranks by (core/figure.h), the recommendation's
	 * score converted back to it through tuner/score.h. */
	struct tt_objective obj[TT_PLOT_MAX_RUNS];
	char objective[TT_PLOT_MAX_RUNS][TT_OBJECTIVE_TEXT_MAX];
	const struct tt_figure *fig;
	/* The run kept each measurement (samples of collector "search",
	 * attached to its trials as "measurements"): points are means with
	 * 95% intervals, as the report ranks; a run recorded before that has
	 * only each trial's median and range. */
	bool mean_ci;
	bool lower_better;
	int source;
	int nnodes, nodes[TT_PLOT_MAX_NODES];
	int n;
	struct point *p;
	struct mark mark[TT_MARKS];
	/* The mark that is the recommendation: the best for apply (and
	 * per_source, whose weights are the best launched per socket), the
	 * baseline the action keeps for keep_auto (auto) and bind_local
	 * (local): tuner/report.h tt_report_decide. */
	enum tt_plot_mark reco;
	char action[320]; /* the recommendation, in words */
	/* Each node of the search as the axes name it: its role from the
	 * source and its tier (node_name). */
	char node_name[TT_PLOT_MAX_NODES][96];
	/* Its kind alone, "local DRAM, tier 4": a second line where the
	 * whole name would not fit (the ternary's corners, the panels' axes). */
	char node_kind[TT_PLOT_MAX_NODES][64];
	char view[96];
};

/* The key's and the lines' words, by enum tt_plot_mark. */
extern const char *const tt_plot_mark_words[TT_MARKS];
/* A run document's id. */
int64_t tt_plot_run_id(json_t *run);
/* A run document's string member, "" when absent. */
const char *tt_plot_str(json_t *o, const char *key);
/* v in the plot's figure and unit, "12.34 GB/s". */
void tt_plot_figure_text(const struct tt_plot *pl, double v, char *buf, size_t size);

#endif
