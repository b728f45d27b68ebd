// SPDX-License-Identifier: GPL-3.0-or-later
/* Reading runs back as JSON rows (db.h). */
#include "db-int.h"
#include "json.h"
#include "recipe.h"

#include "../core/plan.h"
#include "../core/error.h"
#include "../core/proc.h"
#include "../core/state.h"
#include "../core/wi.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The columns that hold a flag (CHECK (x IN (0,1)) in the schema): JSON
 * booleans, as every other command writes them. */
static bool flag_column(const char *name)
{
	return strcmp(name, "validated") == 0 || strcmp(name, "simulated") == 0 ||
	       strcmp(name, "metric_higher_is_better") == 0 ||
	       strcmp(name, "cache_resident") == 0 || strcmp(name, "short_pass") == 0 ||
	       strcmp(name, "below_llc_rule") == 0 || strcmp(name, "unstable") == 0 ||
	       strcmp(name, "descheduled") == 0 || strcmp(name, "thp_requested") == 0;
}

/* A row as a JSON object keyed by column name, NULL as null. */
static json_t *row_json(sqlite3_stmt *st)
{
	json_t *o = json_object();

	for (int i = 0; i < sqlite3_column_count(st); i++) {
		const char *name = sqlite3_column_name(st, i);
		json_t *v;

		switch (sqlite3_column_type(st, i)) {
		case SQLITE_INTEGER:
			v = flag_column(name) ? json_boolean(sqlite3_column_int64(st, i))
					      : json_integer(sqlite3_column_int64(st, i));
			break;
		case SQLITE_FLOAT:
			v = json_real(sqlite3_column_double(st, i));
			break;
		case SQLITE_NULL:
			v = json_null();
			break;
		default:
			v = json_string((const char *)sqlite3_column_text(st, i));
		}
		json_object_set_new(o, name, v ? v : json_null());
	}
	return o;
}

/* Steps st, handing each row to fn; finalizes st. */
static int each_row(struct tt_db *db, sqlite3_stmt *st, tt_db_row_fn fn, void *ctx)
{
	int rc, stop = 0;

	while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		json_t *row = row_json(st);

		stop = fn(row, ctx);
		json_decref(row);
	}
	sqlite3_finalize(st);
	if (stop)
		return stop;
	return rc == SQLITE_DONE ? 0 : db_fail(db, "reading");
}

static int append_row(json_t *row, void *ctx)
{
	json_array_append(ctx, row);
	return 0;
}

/* The rows of sql, whose one parameter is id, each handed to fn. */
static int rows_by_id(struct tt_db *db, const char *sql, int64_t id, tt_db_row_fn fn, void *ctx)
{
	sqlite3_stmt *st;

	if (prepare(db, &st, sql) < 0)
		return TT_EFAIL;
	sqlite3_bind_int64(st, 1, id);
	return each_row(db, st, fn, ctx);
}

/* What a run's headline needs (view/run-figures.c, which takes the reco_
 * fields out): the median of the trial that holds the best pass, and the
 * first recommendation's action and score with its interval. */
#define RUN_RECO(col)                                                                              \
	"(SELECT c." col " FROM recommendations c WHERE c.run_id = r.id ORDER BY c.source_node, "  \
	"c.id LIMIT 1) AS reco_" col ", "
#define RUN_HEADLINE                                                                               \
	"(SELECT t.bw_median_bytes_s FROM trials t WHERE t.run_id = r.id AND t.bw_best_bytes_s "   \
	"IS NOT NULL ORDER BY t.bw_best_bytes_s DESC LIMIT 1) AS bw_median_bytes_s, "              \
	"(SELECT t.lat_median_ns FROM trials t WHERE t.run_id = r.id AND t.lat_best_ns IS NOT "    \
	"NULL ORDER BY t.lat_best_ns LIMIT 1) AS lat_median_ns, " RUN_RECO("action")               \
		RUN_RECO("score") RUN_RECO("score_ci_low") RUN_RECO("score_ci_high")               \
			RUN_RECO("score_n")

/* A run's verdict: its trials' (trials.judged, bench's words), each
 * distinct one once, "; " between, "valid" when all are; NULL when none was
 * judged (app mode, the model, rows recorded before schema 7). */
#define RUN_JUDGED                                                                                 \
	"(SELECT CASE WHEN count(*) = 0 THEN NULL WHEN max(j != 'valid') = 0 THEN 'valid' ELSE "   \
	"(SELECT group_concat(d, '; ') FROM (SELECT DISTINCT judged AS d FROM trials u WHERE "     \
	"u.run_id = r.id AND u.judged IS NOT NULL AND u.judged != 'valid' ORDER BY u.id)) END "    \
	"FROM (SELECT judged AS j FROM trials t WHERE t.run_id = r.id AND t.judged IS NOT NULL)) " \
	"AS judged "
#define RUN_COLUMNS                                                                                \
	"r.id, r.uuid, h.hostname AS host, h.fingerprint, r.kind, r.command, r.source_node, "      \
	"r.objective, r.kernel_release, r.started, r.finished, r.end_reason, "                     \
	"CASE WHEN " GONE " THEN 'interrupted' ELSE r.status END AS status, r.simulated, "         \
	"(SELECT count(*) FROM trials t WHERE t.run_id = r.id) AS ntrials, "                       \
	"(SELECT max(bw_best_bytes_s) FROM trials t WHERE t.run_id = r.id) AS bw_best_bytes_s, "   \
	"(SELECT min(lat_best_ns) FROM trials t WHERE t.run_id = r.id) AS lat_best_ns, "           \
	"(SELECT min(time_best_s) FROM trials t WHERE t.run_id = r.id) AS time_best_s, "           \
	"(SELECT CASE WHEN max(metric_higher_is_better) THEN max(metric_best) ELSE "               \
	"min(metric_best) END FROM trials t WHERE t.run_id = r.id) AS metric_best, " RUN_HEADLINE  \
	"(SELECT max(metric_higher_is_better) FROM trials t WHERE t.run_id = r.id) AS "            \
	"metric_higher_is_better, " RUN_JUDGED

int tt_db_runs(struct tt_db *db, const char *host, int limit, tt_db_row_fn fn, void *ctx)
{
	sqlite3_stmt *st;

	/* The trials the tool does not stand behind, counted for the list
	 * (runs says so beside the headline, as show does under the trials);
	 * a run's document has each trial's flags instead. */
	if (prepare(db, &st,
		    "SELECT " RUN_COLUMNS ", (SELECT count(*) FROM trials t WHERE t.run_id = r.id "
		    "AND t.unstable = 1) AS unstable_trials, (SELECT count(*) FROM trials t WHERE "
		    "t.run_id = r.id AND t.cache_resident = 1) AS cache_resident_trials, "
		    "(SELECT count(*) FROM trials t WHERE t.run_id = r.id AND t.descheduled = 1) "
		    "AS descheduled_trials "
		    "FROM runs r JOIN hosts h ON h.id = r.host_id "
		    "WHERE ?1 IS NULL OR h.hostname = ?1 OR h.fingerprint = ?1 "
		    "ORDER BY r.started DESC, r.id DESC LIMIT ?2") < 0)
		return TT_EFAIL;
	bind_text(st, 1, host);
	sqlite3_bind_int(st, 2, limit > 0 ? limit : -1);
	return each_row(db, st, fn, ctx);
}

/* A recommendation's weights as every document has them (docs/json.md): an
 * object from id to weight, and what the ids are (its interface's unit).
 * The table keeps the text its writer checked; a text that does not parse
 * (a damaged database, or a hostile one merged in) is null weights and the
 * text as it is, weights_text, for the reader to name: as {} it read as
 * "weights '' are empty". */
static void recommendation_weights(json_t *rec)
{
	const struct tt_wi_backend *be =
		tt_wi_find(json_string_value(json_object_get(rec, "interface")) ?: "");
	struct tt_weights w;

	/* Tier ids run past node ids (tier 1350 on a real kernel). */
	int max_id = be && be->key == TT_WI_BY_TIER ? TT_MAX_TIER_ID : TT_MAX_NODES - 1;

	if (tt_weights_parse_ids(json_string_value(json_object_get(rec, "weights")) ?: "", max_id,
				 &w) == 0) {
		json_object_set_new(rec, "weights", tt_json_weights(&w));
	} else {
		json_object_set(rec, "weights_text", json_object_get(rec, "weights"));
		json_object_set_new(rec, "weights", json_null());
	}
	json_object_set_new(rec, "weights_keyed_by", be ? json_string(be->unit) : json_null());
	/* per_source's recipe as the object it is, once it holds what a
	 * recipe holds (tt_recipe_parse): it is printed as commands to paste.
	 * One that does not (a hostile store merged before merge checked, or
	 * a damaged one) is null and its text recipe_text, for the reader to
	 * refuse. The other actions have none, and their documents stay as
	 * they were. */
	const char *text = json_string_value(json_object_get(rec, "recipe"));
	struct tt_recipe r;

	if (!text) {
		json_object_del(rec, "recipe");
	} else if (tt_recipe_parse(text, &r) == 0) {
		json_object_set_new(rec, "recipe", json_loads(text, 0, NULL));
	} else {
		json_object_set(rec, "recipe_text", json_object_get(rec, "recipe"));
		json_object_set_new(rec, "recipe", json_null());
	}
}

int tt_db_run_get(struct tt_db *db, int64_t run_id, json_t **out)
{
	sqlite3_stmt *st;
	json_t *run = NULL, *trials = json_array(), *recs = json_array();
	int rc, status = TT_EFAIL;

	*out = NULL;
	if (prepare(db, &st,
		    "SELECT " RUN_COLUMNS ", h.cpu_model, h.layout FROM runs r JOIN hosts "
		    "h ON h.id = r.host_id WHERE r.id = ?") < 0)
		goto fail;
	sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		run = row_json(st);
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE) {
		status = tt_err(TT_EINPUT, "no run %jd in database '%s'", (intmax_t)run_id,
				db->path);
		goto fail;
	}
	if (rc != SQLITE_ROW) {
		db_fail(db, "reading the run");
		goto fail;
	}
	if (rows_by_id(
		    db,
		    "SELECT id, seq, kernel, mix, placement, threads, size_bytes, "
		    "bw_best_bytes_s, bw_median_bytes_s, bw_min_bytes_s, lat_best_ns, "
		    "lat_median_ns, lat_max_ns, validated, simulated, time_best_s, time_median_s, "
		    "time_max_s, metric_best, metric_median, metric_worst, "
		    "metric_higher_is_better, "
		    "llc_bytes, below_llc_rule, cache_resident, short_pass, unstable, page_bytes, "
		    "thp_requested, huge_page_share, descheduled, cpu_share, judged FROM trials "
		    "WHERE run_id = ? "
		    "ORDER BY "
		    "seq",
		    run_id, append_row, trials) < 0)
		goto fail;
	size_t i;
	json_t *t;
	json_array_foreach (trials, i, t) {
		json_t *nodes = json_array();

		if (rows_by_id(db,
			       "SELECT node, weight, requested_share, achieved_share, pages "
			       "FROM trial_nodes WHERE trial_id = ? ORDER BY node",
			       json_integer_value(json_object_get(t, "id")), append_row,
			       nodes) < 0) {
			json_decref(nodes);
			goto fail;
		}
		json_object_set_new(t, "nodes", nodes);
	}
	if (rows_by_id(db,
		       "SELECT source_node, interface, weights, action, score, score_ci_low, "
		       "score_ci_high, score_n, gain, gain_ci_low, gain_ci_high, baseline, "
		       "action_why, recipe FROM "
		       "recommendations WHERE run_id = ? ORDER BY "
		       "source_node, id",
		       run_id, append_row, recs) < 0)
		goto fail;
	json_t *rec;
	json_array_foreach (recs, i, rec)
		recommendation_weights(rec);
	json_t *layout = json_loads(json_string_value(json_object_get(run, "layout")), 0, NULL);
	json_object_set_new(run, "layout", layout ? layout : json_null());
	json_object_set_new(run, "trials", trials);
	json_object_set_new(run, "recommendations", recs);
	*out = run;
	return 0;
fail:
	json_decref(run);
	json_decref(trials);
	json_decref(recs);
	return status;
}

int tt_db_apply_history(struct tt_db *db, int64_t run_id, tt_db_row_fn fn, void *ctx)
{
	return rows_by_id(db,
			  "SELECT a.id, a.uuid, h.hostname AS host, a.run_id, a.t, a.interface, "
			  "a.file, a.old_value, a.new_value, a.outcome FROM apply_log a JOIN hosts "
			  "h ON h.id = a.host_id WHERE ?1 = 0 OR a.run_id = ?1 ORDER BY a.t DESC, "
			  "a.id DESC",
			  run_id, fn, ctx);
}

int tt_db_run_samples(struct tt_db *db, int64_t run_id, const char *collector, tt_db_row_fn fn,
		      void *ctx)
{
	sqlite3_stmt *st;

	if (prepare(db, &st,
		    "SELECT trial_id, t_s, metric, node, value FROM samples WHERE run_id = ?1 AND "
		    "collector = ?2 ORDER BY trial_id, t_s, rowid") < 0)
		return TT_EFAIL;
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_text(st, 2, collector, -1, SQLITE_TRANSIENT);
	return each_row(db, st, fn, ctx);
}
