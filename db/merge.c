// SPDX-License-Identifier: GPL-3.0-or-later
/* Merging other stores into this one, each row once (db.h). */
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

/* Every per-socket recipe of the runs being added holds what a recipe
 * holds (tt_recipe_parse): a store from elsewhere is printed from by
 * show, export and apply as commands to paste, and sqlite's CHECK asks
 * only that it be JSON. The first that does not refuses the merge. */
static int check_recipes(struct tt_db *db, const char *schema)
{
	char sql[512];
	sqlite3_stmt *st;
	int rc = 0, step;

	snprintf(sql, sizeof(sql),
		 "SELECT r.run_id, r.recipe FROM %s.recommendations r JOIN temp.runmap rm ON "
		 "rm.src = r.run_id WHERE r.recipe IS NOT NULL ORDER BY r.id",
		 schema);
	if (prepare(db, &st, sql) < 0)
		return TT_EFAIL;
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
		struct tt_recipe r;

		if (tt_recipe_parse((const char *)sqlite3_column_text(st, 1), &r) < 0) {
			rc = TT_EINPUT;
			tt_err_prefix("its run %jd's recommendation is refused",
				      (intmax_t)sqlite3_column_int64(st, 0));
		}
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = db_fail(db, "reading the recipes to merge");
	sqlite3_finalize(st);
	return rc;
}

/* merge_one's steps, each named by the table it fills (or the map it
 * keeps: hostmap, runmap and trialmap take the source's ids to ours), in
 * the order they run. */
enum merge_step {
	STEP_CLEAR,
	STEP_HOSTS,
	STEP_HOSTMAP,
	STEP_RUNMAP,
	STEP_RUNS,
	STEP_RUNMAP_DST,
	STEP_TRIALS,
	STEP_TRIALMAP,
	STEP_TRIAL_NODES,
	STEP_SAMPLES,
	STEP_RECOMMENDATIONS,
	STEP_APPLY_LOG,
	STEP_COUNT_RUNS,
	STEP_N,
};

/* One file's rows into main, from the schema it is attached as (the %1$s
 * below), inside the caller's transaction. */
static int merge_one(struct tt_db *db, const char *schema, struct tt_db_merge_stats *stats)
{
	static const char *const steps[STEP_N] = {
		[STEP_CLEAR] = "DELETE FROM temp.hostmap; DELETE FROM temp.runmap; DELETE FROM "
			       "temp.trialmap",
		[STEP_HOSTS] = "INSERT INTO main.hosts (hostname, fingerprint, cpu_model, layout, "
			       "created) "
			       "SELECT hostname, fingerprint, cpu_model, layout, created FROM "
			       "%1$s.hosts s "
			       "WHERE NOT EXISTS (SELECT 1 FROM main.hosts m WHERE m.hostname = "
			       "s.hostname "
			       "AND m.fingerprint = s.fingerprint)",
		[STEP_HOSTMAP] =
			"INSERT INTO temp.hostmap SELECT s.id, m.id FROM %1$s.hosts s JOIN "
			"main.hosts m ON m.hostname = s.hostname AND m.fingerprint = s.fingerprint",
		[STEP_RUNMAP] =
			"INSERT INTO temp.runmap (src, uuid) SELECT id, uuid FROM %1$s.runs WHERE "
			"uuid NOT IN (SELECT uuid FROM main.runs)",
		[STEP_RUNS] =
			"INSERT INTO main.runs (uuid, host_id, kind, command, source_node, "
			"objective, kernel_release, started, finished, status, simulated, "
			"proc_host, boot_id, pid, pid_start, end_reason) SELECT r.uuid, h.dst, "
			"r.kind, r.command, r.source_node, r.objective, r.kernel_release, "
			"r.started, r.finished, r.status, r.simulated, r.proc_host, r.boot_id, "
			"r.pid, r.pid_start, r.end_reason FROM %1$s.runs r JOIN temp.runmap n ON "
			"n.src = r.id JOIN temp.hostmap h ON h.src = r.host_id ORDER BY r.id",
		[STEP_RUNMAP_DST] =
			"UPDATE temp.runmap SET dst = (SELECT id FROM main.runs m WHERE m.uuid = "
			"temp.runmap.uuid)",
		[STEP_TRIALS] =
			"INSERT INTO main.trials (run_id, seq, kernel, mix, placement, threads, "
			"size_bytes, bw_best_bytes_s, bw_median_bytes_s, bw_min_bytes_s, "
			"lat_best_ns, lat_median_ns, lat_max_ns, validated, simulated, "
			"time_best_s, "
			"time_median_s, time_max_s, metric_best, metric_median, metric_worst, "
			"metric_higher_is_better, llc_bytes, cache_resident, short_pass, "
			"below_llc_rule, unstable, page_bytes, thp_requested, huge_page_share, "
			"descheduled, cpu_share, judged) SELECT rm.dst, t.seq, t.kernel, t.mix, "
			"t.placement, t.threads, t.size_bytes, t.bw_best_bytes_s, "
			"t.bw_median_bytes_s, t.bw_min_bytes_s, t.lat_best_ns, t.lat_median_ns, "
			"t.lat_max_ns, t.validated, t.simulated, t.time_best_s, t.time_median_s, "
			"t.time_max_s, t.metric_best, t.metric_median, t.metric_worst, "
			"t.metric_higher_is_better, t.llc_bytes, t.cache_resident, t.short_pass, "
			"t.below_llc_rule, t.unstable, t.page_bytes, t.thp_requested, "
			"t.huge_page_share, t.descheduled, t.cpu_share, t.judged FROM %1$s.trials "
			"t "
			"JOIN temp.runmap rm ON rm.src = t.run_id ORDER BY t.id",
		[STEP_TRIALMAP] =
			"INSERT INTO temp.trialmap SELECT t.id, m.id FROM %1$s.trials t JOIN "
			"temp.runmap rm ON rm.src = t.run_id JOIN main.trials m ON m.run_id = "
			"rm.dst AND m.seq = t.seq",
		[STEP_TRIAL_NODES] =
			"INSERT INTO main.trial_nodes SELECT tm.dst, n.node, n.weight, "
			"n.requested_share, n.achieved_share, n.pages FROM %1$s.trial_nodes n JOIN "
			"temp.trialmap tm ON tm.src = n.trial_id",
		[STEP_SAMPLES] =
			"INSERT INTO main.samples SELECT rm.dst, tm.dst, s.t_s, s.collector, "
			"s.metric, s.node, s.value, s.simulated FROM %1$s.samples s JOIN "
			"temp.runmap rm ON rm.src = s.run_id LEFT JOIN temp.trialmap tm ON tm.src "
			"= "
			"s.trial_id",
		[STEP_RECOMMENDATIONS] =
			"INSERT INTO main.recommendations (run_id, source_node, interface, "
			"weights, "
			"score, gain, gain_ci_low, gain_ci_high, baseline, action, score_ci_low, "
			"score_ci_high, score_n, action_why, recipe) SELECT rm.dst, r.source_node, "
			"r.interface, r.weights, r.score, r.gain, r.gain_ci_low, r.gain_ci_high, "
			"r.baseline, r.action, r.score_ci_low, r.score_ci_high, r.score_n, "
			"r.action_why, r.recipe FROM %1$s.recommendations r JOIN temp.runmap rm ON "
			"rm.src = r.run_id ORDER BY r.id",
		[STEP_APPLY_LOG] =
			"INSERT INTO main.apply_log (uuid, host_id, run_id, t, interface, file, "
			"old_value, new_value, outcome) SELECT a.uuid, h.dst, (SELECT m.id FROM "
			"main.runs m JOIN %1$s.runs sr ON sr.uuid = m.uuid WHERE sr.id = "
			"a.run_id), "
			"a.t, a.interface, a.file, a.old_value, a.new_value, a.outcome FROM "
			"%1$s.apply_log a JOIN temp.hostmap h ON h.src = a.host_id WHERE a.uuid "
			"NOT "
			"IN (SELECT uuid FROM main.apply_log) ORDER BY a.id",
		[STEP_COUNT_RUNS] = "SELECT count(*) FROM %1$s.runs",
	};
	/* Where each step's row count goes (NULL: not counted). */
	int64_t hosts = 0, runs = 0, all = 0;
	int64_t *count[STEP_N] = { [STEP_HOSTS] = &hosts,
				   [STEP_RUNS] = &runs,
				   [STEP_TRIALS] = &stats->trials_added,
				   [STEP_SAMPLES] = &stats->samples_added,
				   [STEP_APPLY_LOG] = &stats->applies_added };
	char sql[2048];
	size_t last = STEP_COUNT_RUNS;
	int rc;

	for (size_t i = 0; i < last; i++) {
		/* Once the runs to add are known (runmap), before any row. */
		if (i == STEP_RUNS && (rc = check_recipes(db, schema)) < 0)
			return rc;
		snprintf(sql, sizeof(sql), steps[i], schema);
		if (exec(db, sql) < 0)
			return TT_EFAIL;
		if (count[i])
			*count[i] += sqlite3_changes(db->h);
	}
	sqlite3_stmt *st;

	snprintf(sql, sizeof(sql), steps[last], schema);
	if (prepare(db, &st, sql) < 0)
		return TT_EFAIL;
	if (sqlite3_step(st) == SQLITE_ROW)
		all = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	stats->hosts_added = (int)hosts;
	stats->runs_added = (int)runs;
	stats->runs_skipped = (int)(all - runs);
	return 0;
}

static void detach_all(struct tt_db *db, int n)
{
	char sql[32];

	for (int i = 0; i < n; i++) {
		snprintf(sql, sizeof(sql), "DETACH src%d", i);
		sqlite3_exec(db->h, sql, NULL, NULL, NULL);
	}
}

int tt_db_merge(struct tt_db *db, char *const *files, int n, struct tt_db_merge_stats *stats)
{
	/* ATTACH is refused inside a transaction, so every file is attached
	 * first, and sqlite caps how many (SQLITE_MAX_ATTACHED, 10 unless
	 * built otherwise). */
	int max = sqlite3_limit(db->h, SQLITE_LIMIT_ATTACHED, -1), attached = 0, i, rc;
	char uri[8300], name[32];
	sqlite3_stmt *st;

	memset(stats, 0, sizeof(*stats) * (size_t)n);
	if (n > max)
		return tt_err(TT_EINPUT,
			      "cannot merge %d databases in one transaction: sqlite attaches "
			      "at most %d at once; merge them in several commands",
			      n, max);
	for (i = 0; i < n; i++) {
		struct tt_db *src;
		bool immutable;

		/* Open it on its own first: the same checks as any database, and a
		 * migration would be a write to a file we only read. */
		rc = tt_db_open(&src, files[i], TT_DB_READONLY);
		if (rc < 0)
			goto detach;
		immutable = src->immutable;
		tt_db_close(src);
		rc = tt_db_file_uri(files[i], immutable ? "?mode=ro&immutable=1" : "?mode=ro", uri,
				    sizeof(uri));
		if (rc < 0 || (rc = prepare(db, &st, "ATTACH ? AS ?")) < 0)
			goto detach;
		snprintf(name, sizeof(name), "src%d", i);
		bind_text(st, 1, uri);
		bind_text(st, 2, name);
		rc = step_done(db, st, "attaching the database to merge");
		if (rc < 0)
			goto detach;
		attached++;
	}
	/* One transaction for all: a file that fails leaves main as it was. */
	rc = exec(db, "BEGIN IMMEDIATE");
	if (rc < 0) {
		i = 0;
		goto detach;
	}
	rc = exec(db, "CREATE TEMP TABLE hostmap (src INTEGER PRIMARY KEY, dst INTEGER NOT NULL); "
		      "CREATE TEMP TABLE runmap (src INTEGER PRIMARY KEY, dst INTEGER, uuid TEXT); "
		      "CREATE TEMP TABLE trialmap (src INTEGER PRIMARY KEY, dst INTEGER NOT NULL)");
	for (i = 0; i < n && rc == 0; i++) {
		snprintf(name, sizeof(name), "src%d", i);
		rc = merge_one(db, name, &stats[i]);
	}
	if (rc < 0) {
		i--;
		rollback(db);
		goto detach;
	}
	rc = exec(db, "DROP TABLE temp.hostmap; DROP TABLE temp.runmap; DROP TABLE temp.trialmap");
	if (rc == 0)
		rc = exec(db, "COMMIT");
	if (rc < 0) {
		rollback(db);
		detach_all(db, attached);
		memset(stats, 0, sizeof(*stats) * (size_t)n);
		return TT_EFAIL;
	}
	detach_all(db, attached);
	return 0;
detach:
	detach_all(db, attached);
	memset(stats, 0, sizeof(*stats) * (size_t)n);
	if (i >= 0 && i < n)
		tt_err_prefix("merging '%s'", files[i]);
	return rc;
}
