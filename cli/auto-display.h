/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * auto's and sweep's output: the report document of a run (tuner/auto.h)
 * rendered as text and as JSON, each from that one document, so that the
 * two cannot drift; the --all-sources summary; and the lines printed along
 * the way (a line per measurement, the final comparison's rounds).
 * auto-text.c writes the text, auto-json.c the JSON, auto-display.c the
 * cells both the report and the lines along the way print, those lines,
 * and the per-socket recipe. Every figure and gain goes through view/
 * (score.h, interval.h): no unit, scale or decimal of its own here.
 *
 *	const struct tt_auto_doc *d;
 *	tt_auto_report(&c, &where, &d);
 *	cli_auto_text(stdout, d);     or     json_t *j = cli_auto_json(d);
 */
#ifndef TT_CLI_AUTO_DISPLAY_H
#define TT_CLI_AUTO_DISPLAY_H

#include "../core/test-hooks.h"
#include "../tuner/auto.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/* Shared by the report and the lines along the way: a mean score and its
 * 95% interval [lo, hi] on scores as a table's cells, "%8s %16s", as show
 * prints them ("188.20..197.12", "unbounded", "n/a"); a score as shown into
 * buf (48 bytes); weights as text ("?" when they do not fit). */
void cli_auto_figure(FILE *f, const struct tt_objective *o, double score, double lo, double hi);
const char *cli_auto_score(const struct tt_objective *o, double score, char *buf);
void cli_auto_weights(const struct tt_weights *w, char *buf, size_t size);

/* The report: a sweep's table of every vector first, then the machine,
 * the search, the profile, the baselines with their verdicts, the
 * recommendation, the plan and the next commands. */
void cli_auto_text(FILE *f, const struct tt_auto_doc *d);
/* The same as one JSON object (docs/json.md, "auto"); NULL: out of memory. */
json_t *cli_auto_json(const struct tt_auto_doc *d);

/* --all-sources' summary of the set: each source's weights, and what the
 * machine's interface makes of them together. */
void cli_auto_all_text(FILE *f, const struct tt_auto_all *all, bool simulated);
/* The same as JSON, with docs: each source's summary (cli_auto_all_source). */
json_t *cli_auto_all_json(const struct tt_auto_all *all, json_t *docs, bool simulated);
/* A source's summary for the set: its run, nodes and recommendation. */
json_t *cli_auto_all_source(const json_t *doc, int source);

/* A measurement's line on f: the trial, its figure, the best so far; a
 * round of the final comparison with the running gain (confirm). */
void cli_auto_progress(FILE *f, const struct tt_auto *c, const struct tt_search *s, int trial);
void cli_auto_confirm(FILE *f, const struct tt_auto *c, const struct tt_search *s, int trial);
/* The one status line a terminal shows instead: measurement n of N (or the
 * final comparison's round), the best so far, the time left by the budget;
 * elapsed_s since the run began. */
/* A per_source run's per-socket recipe as the report, apply, export and
 * show print it (db/recipe.h: struct tt_recipe). */
void cli_auto_recipe_text(FILE *f, const struct tt_recipe *r);
/* A recorded run's (tt_db_run_get's document) per_source recipe: 1 and
 * *r when it has one, 0 when none, TT_EINPUT (message naming the run and
 * the field) when the one stored is no recipe. cli_auto_run_recipe prints
 * it to f, with the same results. */
int cli_auto_run_recipe_get(const json_t *run, struct tt_recipe *r);
int cli_auto_run_recipe(const json_t *run, FILE *f);
void cli_auto_status(char *buf, size_t size, const struct tt_auto *c, const struct tt_search *s,
		     double elapsed_s);

#endif
