/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A recorded run's figures as the readers show them: its headline (runs,
 * show, export's Prometheus gauges) and its trials as CSV (show --csv,
 * export --format csv).
 *
 *	struct tt_headline h;
 *	tt_run_headline(run, &h);           (a row of tt_db_runs, or tt_db_run_get's run)
 *	tt_headline_text(&h, buf, size);    or tt_headline_json(run, &h)
 *
 * The headline of an auto or sweep run is its recommendation's mean with
 * the 95% interval the search ranked it by, in the objective's unit; of a
 * bench run, STREAM's best pass with the median beside it, named so; of a
 * loaded-latency curve, which has points and no passes, its lowest latency
 * and the peak bandwidth its traffic reached. One lucky pass of a trial
 * that was not recommended is never the headline.
 */
#ifndef TT_RUN_FIGURES_H
#define TT_RUN_FIGURES_H

#include "../core/figure.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct tt_db;
struct tt_objective;

enum tt_headline_kind {
	TT_HEADLINE_NONE,
	TT_HEADLINE_MEAN,  /* the recommendation's mean and interval */
	TT_HEADLINE_BEST,  /* the best pass, the median beside it */
	TT_HEADLINE_CURVE, /* a loaded-latency curve: its lowest latency, its peak bandwidth */
};

struct tt_headline {
	enum tt_headline_kind kind;
	const struct tt_figure *q; /* what it is, its unit (core/figure.h) */
	double mean, lo, hi;	   /* MEAN, in q's SI unit; lo, hi NaN: no interval */
	int n;			   /* measurements behind the mean; 0: unknown */
	double best, median;	   /* BEST, in q's SI unit; median NaN: none */
	/* CURVE: best the lowest latency of its points (q latency), peak the
	 * most bandwidth its traffic moved at any (bytes/s). */
	double peak;
	const char *action; /* the recommendation's: "apply", "keep_auto", "bind_local"; or NULL */
};

/* A recorded run's objective (core/objective.h): TT_EINPUT naming the run
 * when the text does not parse; TT_OBJ_NONE for a run that measures
 * nothing. */
int tt_run_objective(json_t *run, struct tt_objective *o);
/* The headline of a run: from the reco_* fields of tt_db_runs' row (or the
 * same fields of tt_db_run_get's run), else its best pass; none, and
 * TT_EINPUT naming the run for the caller to warn of, when its objective
 * does not parse. */
int tt_run_headline(json_t *run, struct tt_headline *h);
/* The figure of one recommendation (an element of tt_db_run_get's
 * "recommendations") of run. */
void tt_reco_headline(json_t *run, json_t *reco, struct tt_headline *h);
/* "194.44 GB/s mean (95% CI 189.33..199.56)", "54.96 GB/s best pass,
 * median 53.10", "curve: 433.2 ns lowest latency, 6.36 GB/s peak"; the
 * action first when it is not "apply" ("keep auto
 * mode; best measured ..."). */
void tt_headline_text(const struct tt_headline *h, char *buf, size_t size);
/* The headline's fields into run (docs/json.md, doc runs), the reco_*
 * fields it was made from taken out. */
void tt_headline_json(json_t *run, const struct tt_headline *h);

/* A trial's array size as show's column gives it, in tt_size_unit (MiB:
 * 2^20 bytes, as bench's --size counts them) to 0.1; snprintf's return. */
extern const char tt_size_unit[];
int tt_size_print(double bytes, char *buf, size_t size);

/* Trials whose figures the tool does not stand behind, as recorded with
 * them (bench/run.h: unstable, cache_resident, below_llc_rule): show says
 * each with its count and reason under the trials, runs the word after the
 * headline. One place for the words, so that the list and the run say the
 * same. */
enum tt_distrust {
	TT_DISTRUST_UNSTABLE, /* passes spread beyond TT_SPREAD_MAX, or a curve not monotone */
	TT_DISTRUST_CACHE_RESIDENT, /* all a pass touches fitted in the last-level cache */
	TT_DISTRUST_BELOW_RULE,	    /* arrays under STREAM's 4x the cache: a caveat, not disowned */
	TT_DISTRUST_DESCHEDULED,    /* a measuring thread ran under TT_RAN_MIN of its passes */
	/* app mode: a thread of the program waited for a CPU over 1 - TT_RAN_MIN of its run */
	TT_DISTRUST_DESCHEDULED_PROGRAM,
	TT_DISTRUSTS,
};
/* "UNSTABLE", "cache-resident", "below STREAM's 4x rule", "DESCHEDULED". */
const char *tt_distrust_word(enum tt_distrust d);
/* show's lines for n trials so marked: "UNSTABLE: 2 trials whose passes
 * spread beyond 10%, ..." (nothing for n 0). */
void tt_distrust_text(enum tt_distrust d, size_t n, FILE *f);

/* A run as tt_db_run_get reads it (TT_EINPUT naming the run when its
 * objective does not parse), each trial with the figures of its
 * measurements (auto, sweep: samples of collector "search"): the
 * objective's mean, 95% interval and their count, as docs/json.md lists
 * them under show (trials[].bw_mean_bytes_s ...); the recommended trial's
 * are the recommendation's. What show, export and their CSV print. */
int tt_run_get(struct tt_db *db, int64_t id, json_t **run);
/* The run's "search" samples on its trials, as arrays "measurements" (in
 * the objective's unit) and "baselines" (their kinds): what plot draws. */
int tt_run_measurements(struct tt_db *db, json_t *run);
/* A table of the trials' figures (tt_run_get): trial, mean, 95% interval
 * ("n/a" under 2 measurements), measurements; nothing when none has one. */
void tt_trials_text(json_t *run, FILE *f);
/* A run (tt_run_get's JSON) as CSV (RFC 4180): a row per trial and node,
 * the columns docs/tiertune.1 lists under export. */
void tt_trials_csv(json_t *run, FILE *f);

#endif
