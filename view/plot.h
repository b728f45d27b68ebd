/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Recorded runs as gnuplot scripts that answer "how much better than what I
 * have": the trials of an auto or sweep run on the simplex of their shares
 * (one axis for two nodes, a ternary plot for three, a panel per pair of
 * nodes beyond) coloured by their figure, with the winner and the baselines
 * (local DRAM, 1:1, the kernel's auto mode) marked and labelled, and the
 * trials ranked against reference lines at the baselines; a bench run's
 * loaded-latency curve (several runs overlaid) or its CPU-node x
 * memory-node matrix as a labelled heat map. No interpolation: every mark
 * is a measurement. The palette is viridis (perceptually uniform, readable
 * with the common colour-vision deficiencies).
 *
 *	struct tt_plot *pl;
 *	tt_plot_new(&pl, runs, nruns);         (tt_db_run_get's documents)
 *	tt_plot_write_data(pl, f);             (the points as a table)
 *	tt_plot_write_script(pl, "plots/run12", g);
 *	tt_plot_free(pl);
 *
 * Nothing from a run reaches the script but as a single-quoted gnuplot
 * string (no backquote, @macro or backslash expansion there) or as a
 * number: the runs may come from another host through db merge. Library
 * code: nothing here prints.
 */
#ifndef TT_PLOT_H
#define TT_PLOT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#define TT_PLOT_MAX_RUNS 16 /* runs overlaid on one loaded-latency plot */
#define TT_PLOT_MAX_NODES 8 /* nodes of a search run (the search's limit) */

enum tt_plot_kind {
	TT_PLOT_SEARCH, /* an auto or sweep run */
	TT_PLOT_LOADED, /* bench loaded-latency runs: latency against bandwidth */
	TT_PLOT_MATRIX, /* a bench --matrix run */
};

/* The winner and the baselines, in the order they are marked: the weights
 * set now (what the report's headline gain is against) and the fast tier
 * alone (flat-mode HBM) where the search measured them. */
enum tt_plot_mark {
	TT_MARK_BEST,
	TT_MARK_LOCAL,
	TT_MARK_EVEN,
	TT_MARK_AUTO,
	TT_MARK_NOW,
	TT_MARK_FAST,
	TT_MARKS
};

struct tt_plot;
struct tt_objective;

/* Whether a run of run_kind ("auto", "bench", ...) and objective o is one
 * plot draws, and as what: what tt_plot_new refuses and completion leaves
 * out (cli/completion.bash). */
bool tt_plot_draws(const char *run_kind, const struct tt_objective *o, enum tt_plot_kind *kind);

/* A plot of runs (tt_db_run_get's documents, borrowed until
 * tt_plot_free): one auto or sweep run, one matrix run, or 1 to
 * TT_PLOT_MAX_RUNS loaded-latency runs. TT_EINPUT naming the run when it
 * cannot be drawn. */
int tt_plot_new(struct tt_plot **pl, json_t *const *runs, int nruns);
void tt_plot_free(struct tt_plot *pl);

enum tt_plot_kind tt_plot_kind(const struct tt_plot *pl);
bool tt_plot_simulated(const struct tt_plot *pl); /* any run from a model */
int tt_plot_points(const struct tt_plot *pl);	  /* rows of the data table */
/* What the first figure shows: "shares of nodes 0 and 1", "a ternary plot
 * of nodes 0, 1 and 2", "a panel per pair of 4 nodes", "loaded latency
 * against bandwidth", "the CPU-node x memory-node matrix". */
const char *tt_plot_view(const struct tt_plot *pl);
/* A search run's mark: its weights ("0:29,1:2,2:1") and label, or NULL
 * when the run has no such trial (or, for auto mode, no HMAT bandwidth
 * for every node, from which the kernel's vector is known). */
const char *tt_plot_mark(const struct tt_plot *pl, enum tt_plot_mark m, const char **label);
/* Figure file suffixes the script draws, "" then "-rank" for a search run,
 * NULL-terminated. */
const char *const *tt_plot_figures(const struct tt_plot *pl);

/* The points as a whitespace table with '#' header lines. */
int tt_plot_write_data(const struct tt_plot *pl, FILE *f);
/* The script: the data inline, then each figure as PREFIX<suffix>.png and
 * .svg. prefix is a plain path (the caller refuses '|' and '<' first). */
int tt_plot_write_script(const struct tt_plot *pl, const char *prefix, FILE *f);

#endif
