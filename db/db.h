/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The results database: every host, run, trial, collector sample,
 * recommendation and sysfs write, in one sqlite file. The only module that
 * includes sqlite3.h. Writers (bench --record, the tuner, apply) and readers
 * (runs, show, tiertop) can work at the same time: WAL journal, a busy
 * timeout, and short transactions.
 *
 *	struct tt_db *db;
 *	if (tt_db_open(&db, path, 0) < 0) ...
 *	tt_db_host(db, &topo, &host);
 *	tt_db_run_begin(db, &(struct tt_db_run){.host_id = host, ...}, &run);
 *	tt_db_trial_add(db, run, &trial, &trial_id);   (one transaction each)
 *	tt_db_run_finish(db, run, TT_RUN_DONE);
 *	tt_db_close(db);
 *
 * Strings from outside (hostnames, command lines, metric names) only ever
 * reach SQL as bound parameters.
 */
#ifndef TT_DB_H
#define TT_DB_H

#include "../core/topo.h"
#include "../core/weights.h"

#include <jansson.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TT_DB_SCHEMA_VERSION 9

struct tt_db;

enum tt_run_status { TT_RUN_RUNNING, TT_RUN_DONE, TT_RUN_FAILED, TT_RUN_INTERRUPTED };
extern const char *const tt_run_status_names[];

enum { TT_DB_READONLY = 1 }; /* open flags: readers never migrate or create */

/* $TIERTUNE_DB, else /var/lib/tiertune/tiertune.db for root, else
 * $XDG_DATA_HOME/tiertune/tiertune.db or ~/.local/share/tiertune/tiertune.db. */
int tt_db_default_path(char *buf, size_t size);

/* Opens (creating the file and its folder unless READONLY), checks that it
 * is a whole sqlite database of a schema this build knows, migrates it
 * forward, and marks runs of this host whose process is gone as
 * interrupted. A file that is not ours is never altered. READONLY opens
 * read-only and writes nothing: a missing, empty or older database is an
 * error, and "" is refused whatever the flags. */
int tt_db_open(struct tt_db **db, const char *path, unsigned int flags);
void tt_db_close(struct tt_db *db);
const char *tt_db_path(const struct tt_db *db);
/* Runs found running with their process gone, by tt_db_open: marked
 * interrupted, or on a read-only handle only shown so by the queries. */
int tt_db_interrupted(const struct tt_db *db);
bool tt_db_readonly(const struct tt_db *db);

/* The host row for this topology (hostname + fingerprint), made on first use. */
int tt_db_host(struct tt_db *db, const struct tt_topo *t, int64_t *host_id);

struct tt_db_run {
	int64_t host_id;
	const char *kind;      /* "bench", "auto", "apply", ... */
	const char *command;   /* the command line, for the record */
	int source_node;       /* -1: none */
	const char *objective; /* e.g. "bw:triad"; NULL */
	const char *kernel_release;
	bool simulated;
};
/* One transaction around several writes (a run written whole at its end,
 * as auto's and apply's records are: a kill or a full disk leaves the run
 * there or not, never in part). The writes inside it are savepoints; end
 * commits when rc is 0 and returns rc (or TT_EFAIL when the commit
 * fails), else rolls all of it back and returns rc. */
int tt_db_tx_begin(struct tt_db *db);
int tt_db_tx_end(struct tt_db *db, int rc);
/* Commits a run row with status running, this process's identity and the
 * start time, so that a killed run can be found later (within
 * tt_db_tx_begin, with the rest of the transaction). */
int tt_db_run_begin(struct tt_db *db, const struct tt_db_run *run, int64_t *run_id);
int tt_db_run_finish(struct tt_db *db, int64_t run_id, enum tt_run_status status);

struct tt_db_trial_node {
	int node;
	unsigned int weight; /* 0: no weight (not an interleave placement) */
	double requested_share;
	double achieved_share;
	uint64_t pages;
};

struct tt_db_trial {
	const char *kernel;
	const char *mix; /* byte counting or traffic, e.g. "STREAM", "MLC -W2" */
	const char *placement;
	int threads;
	uint64_t size_bytes;
	/* Per pass; 0 where the kernel gives no such figure (stored NULL).
	 * Best is the best pass: the highest bandwidth, the lowest latency. */
	double bw_best_bytes_s, bw_median_bytes_s, bw_min_bytes_s;
	double lat_best_ns, lat_median_ns, lat_max_ns;
	/* App mode's runs of the program (0 in bench trials, stored NULL):
	 * wall time, s; or, with a metric, the number it printed (NaN: none),
	 * the best and worst by its direction. */
	double time_best_s, time_median_s, time_max_s;
	double metric_best, metric_median, metric_worst;
	bool metric; /* the metric figures and direction are set */
	bool metric_higher_is_better;
	bool validated;
	bool simulated;
	/* Was memory measured? llc_bytes is the last-level cache the working
	 * set was held to (0: not checked; the two flags are then stored NULL). */
	uint64_t llc_bytes;
	bool below_llc_rule; /* each array under 4 x llc_bytes (STREAM's rule) */
	bool cache_resident; /* all a pass touches within llc_bytes */
	bool short_pass;     /* a pass under 20 clock ticks */
	/* Bench trials (checked: false in app mode and the model's, stored
	 * NULL): the passes or the curve disagree beyond the bench's bounds;
	 * the base page size, THP asked, and the share of the buffers on huge
	 * pages. */
	bool checked;
	bool unstable;
	/* With checked: the threads did not run through the passes, and the
	 * median pass's least share of CPU time (NaN: not measured, stored
	 * NULL); judged: the verdict in bench's words (NULL: stored NULL).
	 * App mode's program is judged on whether it ran alone: judged set,
	 * checked not, descheduled and cpu_share its (measure/app.h). */
	bool descheduled;
	double cpu_share;
	const char *judged;
	uint64_t page_bytes;
	bool thp_requested;
	double huge_page_share;
	int nnodes;
	const struct tt_db_trial_node *nodes;
};
/* The trial and its per-node rows, in one transaction. */
int tt_db_trial_add(struct tt_db *db, int64_t run_id, const struct tt_db_trial *t,
		    int64_t *trial_id);

struct tt_db_sample {
	double t_s; /* CLOCK_MONOTONIC seconds */
	const char *collector;
	const char *metric;
	int node; /* -1: not per node */
	double value;
	bool simulated; /* from a model (the model collector), not measured */
};
/* Many samples in one transaction; trial_id 0 when not tied to a trial. */
int tt_db_samples_add(struct tt_db *db, int64_t run_id, int64_t trial_id,
		      const struct tt_db_sample *s, size_t n);

struct tt_db_recommendation {
	int source_node;
	const char *interface; /* a weight interface's name (core/wi.h) */
	const struct tt_weights *weights;
	double score;
	double gain; /* over the baseline, as a fraction: 0.12 = +12% */
	double gain_ci_low, gain_ci_high;
	const char *baseline; /* e.g. "1:1 interleave" */
	/* "apply" (NULL is "apply"), "keep_auto" or "bind_local" (schema v4),
	 * "per_source" (v6). */
	const char *action;
	double score_ci_low, score_ci_high; /* the score's 95% interval; NaN: none */
	int score_n;			    /* measurements behind the score; 0: unknown */
	const char *action_why;		    /* why keep_auto or bind_local; NULL: none */
	/* per_source (schema v6): the per-socket recipe, a JSON object's
	 * text (tt_recipe_json); NULL for the other actions. */
	const char *recipe;
};
int tt_db_recommendation_add(struct tt_db *db, int64_t run_id,
			     const struct tt_db_recommendation *r);

struct tt_db_apply {
	int64_t host_id;
	int64_t run_id; /* 0: none */
	const char *interface, *file, *old_value, *new_value, *outcome;
};
int tt_db_apply_log(struct tt_db *db, const struct tt_db_apply *a);
struct tt_apply_plan;
/* A plan that tt_apply_run has written, mirrored as a run of its kind
 * ("apply", "restore") with one apply-log row per write and per value the
 * kernel changed with them: what tiertune apply and restore and tiertop's
 * w and u record, for runs and show. (restore --last reads the state
 * folder's history, not this.) */
int tt_db_apply_record(struct tt_db *db, const struct tt_topo *t, const char *kind,
		       const char *command, const char *objective, const struct tt_apply_plan *p);

/* A rebalance (tiertune rebalance --move): a run of kind "rebalance", its
 * process in the objective ("pid 4242 (postgres)"), trials "before" and
 * "after" whose nodes carry the weight, the target share (requested) and
 * the share held (achieved) and pages; the per-page outcomes as samples of
 * collector "rebalance" (pages_moved, pages_ebusy, ..., process_gone: the
 * mover names them, migrate/rebalance.h tt_rb_figures), and why it ended
 * short in the run's end_reason (schema 9). Done when the after shares are
 * within the tolerance, else failed. The caller passes counts and outcomes
 * as plain figures: db/ stands below migrate/ and knows none of its types. */
struct tt_db_rebalance {
	const char *command, *process;
	const struct tt_weights *weights;
	const uint64_t *want;		    /* pages per node, TT_MAX_NODES */
	const uint64_t *before, *after;	    /* 4 KiB pages held per node, TT_MAX_NODES */
	uint64_t before_total, after_total; /* 4 KiB pages */
	const struct tt_db_sample *moves;   /* the mover's outcomes */
	size_t nmoves;
	bool within; /* the after shares are within the tolerance */
	/* Why the moves ended short (the process gone or out of reach and
	 * why, a full node, an error), as the report says it; NULL: none. */
	const char *end_reason;
};
int tt_db_rebalance_record(struct tt_db *db, const struct tt_topo *t,
			   const struct tt_db_rebalance *r, int64_t *run_id);

/* Queries hand rows to a callback as JSON objects (borrowed for the
 * call), so the CLI and tiertop print what they like; a non-zero return
 * stops the walk and is returned. */
typedef int (*tt_db_row_fn)(json_t *row, void *ctx);
/* Newest first; host matches hostname or fingerprint; NULL: all. */
int tt_db_runs(struct tt_db *db, const char *host, int limit, tt_db_row_fn fn, void *ctx);
/* Bandwidth measured from CPU node src to each memory node alone on this
 * machine: the newest finished, non-simulated matrix run of t's host (bench
 * --matrix), its row for src, bytes/s indexed by node (0: not measured).
 * TT_EUNAVAIL when there is none; *run_id the run it came from. */
int tt_db_measured_bw(struct tt_db *db, const struct tt_topo *t, int src, double *bw_bytes_s,
		      int64_t *run_id);
/* One run with its host, trials (with nodes) and recommendations; TT_EINPUT
 * when there is no such run. *json is a new reference. */
int tt_db_run_get(struct tt_db *db, int64_t run_id, json_t **json);
/* The newest apply-log rows of one run (or of any run for 0). */
int tt_db_apply_history(struct tt_db *db, int64_t run_id, tt_db_row_fn fn, void *ctx);
/* A run's samples from one collector as rows (trial_id, t_s, metric, node,
 * value), by trial and time: "search" holds each measurement of an auto or
 * sweep run's trials. */
int tt_db_run_samples(struct tt_db *db, int64_t run_id, const char *collector, tt_db_row_fn fn,
		      void *ctx);

/* sqlite's integrity_check and foreign_key_check; *version = user_version. */
int tt_db_check(struct tt_db *db, int *version, char *problem, size_t size);

struct tt_db_merge_stats {
	int hosts_added, runs_added, runs_skipped;
	int64_t trials_added, samples_added, applies_added;
};
/* Imports other tiertune databases: hosts are matched by hostname and
 * fingerprint, runs and apply-log rows by their uuid, so merging the same
 * file twice adds nothing. One transaction for all n files (all or
 * nothing), so n is at most sqlite's attach limit; the files are only
 * read. stats[i] is file i's. */
int tt_db_merge(struct tt_db *db, char *const *files, int n, struct tt_db_merge_stats *stats);

#endif
