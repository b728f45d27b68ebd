// SPDX-License-Identifier: GPL-3.0-or-later
/* Writing a run: its host, the run, trials, samples, recommendations and
 * the sysfs writes applied (db.h). */
#define _GNU_SOURCE /* getrandom */
#include "db-int.h"
#include "json.h"

#include "../core/plan.h"
#include "../core/error.h"
#include "../core/objective.h"
#include "../core/proc.h"
#include "../core/state.h"
#include "../core/wi.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/random.h>
#include <sys/utsname.h>

static int make_uuid(char out[37])
{
	unsigned char b[16];

	if (getrandom(b, sizeof(b), 0) != (ssize_t)sizeof(b))
		return tt_err_sys(TT_EFAIL, errno, "cannot read random bytes for a run id");
	b[6] = (unsigned char)((b[6] & 0x0f) | 0x40); /* version 4 */
	b[8] = (unsigned char)((b[8] & 0x3f) | 0x80); /* RFC 4122 variant */
	snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12],
		 b[13], b[14], b[15]);
	return 0;
}

static json_t *layout_json(const struct tt_topo *t)
{
	json_t *nodes = json_array();

	for (int i = 0; i < t->nnodes; i++) {
		const struct tt_node *n = &t->nodes[i];
		const struct tt_hmat *a = &n->access[n->access[1].present ? 1 : 0];
		int near = tt_topo_near_cpu(t, i);
		/* The CPU node it is local to: plot tells local HBM from
		 * remote by it, as DRAM by its CPUs (issue 44). */
		json_t *o = json_pack("{s:i,s:i,s:I,s:i,s:o}", "node", n->id, "ncpus", n->ncpus,
				      "mem_total_bytes", (json_int_t)n->mem_total_bytes, "tier",
				      n->tier, "cpu_node",
				      near >= 0 ? json_integer(near) : json_null());

		if (a->present)
			json_object_set_new(o, "hmat",
					    json_pack("{s:I,s:I,s:I,s:I}", "read_bw_bytes_s",
						      (json_int_t)a->read_bw_mb_s * 1000000,
						      "write_bw_bytes_s",
						      (json_int_t)a->write_bw_mb_s * 1000000,
						      "read_lat_ns", (json_int_t)a->read_lat_ns,
						      "write_lat_ns", (json_int_t)a->write_lat_ns));
		json_array_append_new(nodes, o);
	}
	return json_pack("{s:s,s:o}", "cpu_model", t->cpu_model, "nodes", nodes);
}

int tt_db_measured_bw(struct tt_db *db, const struct tt_topo *t, int src, double *bw_bytes_s,
		      int64_t *run_id)
{
	char fp[17], mix[64];
	sqlite3_stmt *st;
	int rc, found = 0;

	for (int k = 0; k < TT_MAX_NODES; k++)
		bw_bytes_s[k] = 0;
	tt_topo_fingerprint(t, fp);
	/* The newest bench run whose objective is a matrix: the objective's
	 * text is core/objective.c's to read, so each is parsed here rather
	 * than matched by a pattern. */
	if (prepare(db, &st,
		    "SELECT r.id, r.objective FROM runs r JOIN hosts h ON h.id = r.host_id "
		    "WHERE h.hostname = ? AND h.fingerprint = ? AND r.status = 'done' "
		    "AND r.simulated = 0 "
		    "ORDER BY r.started DESC, r.id DESC") < 0)
		return TT_EFAIL;
	bind_text(st, 1, t->hostname[0] ? t->hostname : "unknown");
	bind_text(st, 2, fp);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct tt_objective o;

		if (tt_objective_parse((const char *)sqlite3_column_text(st, 1), &o) == 0 &&
		    o.kind == TT_OBJ_MATRIX) {
			*run_id = sqlite3_column_int64(st, 0);
			break;
		}
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		return tt_err(TT_EUNAVAIL, "no matrix run of this machine in the database");
	if (rc != SQLITE_ROW)
		return db_fail(db, "looking up the matrix run");
	/* record_matrix (measure/trial.c) names each row's CPU node in its mix. */
	snprintf(mix, sizeof(mix), "%% from CPU node %d", src);
	if (prepare(db, &st,
		    "SELECT n.node, t.bw_best_bytes_s FROM trials t JOIN trial_nodes n ON "
		    "n.trial_id = t.id WHERE t.run_id = ? AND t.mix LIKE ? AND t.bw_best_bytes_s > "
		    "0") < 0)
		return TT_EFAIL;
	sqlite3_bind_int64(st, 1, *run_id);
	bind_text(st, 2, mix);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int node = sqlite3_column_int(st, 0);

		if (node >= 0 && node < TT_MAX_NODES) {
			bw_bytes_s[node] = sqlite3_column_double(st, 1);
			found++;
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(db, "reading the matrix run");
	return found ? 0
		     : tt_err(TT_EUNAVAIL, "matrix run %jd has no row from node %d",
			      (intmax_t)*run_id, src);
}

int tt_db_host(struct tt_db *db, const struct tt_topo *t, int64_t *host_id)
{
	char fp[17], *layout;
	const char *name = t->hostname[0] ? t->hostname : "unknown";
	sqlite3_stmt *st;
	int rc;

	tt_topo_fingerprint(t, fp);
	if (prepare(db, &st, "SELECT id FROM hosts WHERE hostname = ? AND fingerprint = ?") < 0)
		return TT_EFAIL;
	bind_text(st, 1, name);
	bind_text(st, 2, fp);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*host_id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return 0;
	if (rc != SQLITE_DONE)
		return db_fail(db, "looking up the host");
	json_t *j = layout_json(t);
	layout = j ? json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
	json_decref(j);
	if (!layout)
		return tt_err(TT_EFAIL, "out of memory");
	/* OR IGNORE: another process may have added it since the SELECT. */
	if (prepare(db, &st,
		    "INSERT OR IGNORE INTO hosts (hostname, fingerprint, cpu_model, layout, "
		    "created) VALUES (?, ?, ?, ?, ?)") < 0) {
		free(layout);
		return TT_EFAIL;
	}
	bind_text(st, 1, name);
	bind_text(st, 2, fp);
	bind_text(st, 3, t->cpu_model);
	bind_text(st, 4, layout);
	sqlite3_bind_double(st, 5, wall_now());
	free(layout);
	if (step_done(db, st, "adding the host") < 0)
		return TT_EFAIL;
	return tt_db_host(db, t, host_id);
}

int tt_db_run_begin(struct tt_db *db, const struct tt_db_run *r, int64_t *run_id)
{
	char uuid[37], boot[64];
	struct utsname u;
	sqlite3_stmt *st;

	if (make_uuid(uuid) < 0)
		return TT_EFAIL;
	uname(&u);
	tt_proc_boot_id(boot, sizeof(boot));
	if (prepare(db, &st,
		    "INSERT INTO runs (uuid, host_id, kind, command, source_node, "
		    "objective, kernel_release, started, status, simulated, proc_host, "
		    "boot_id, pid, pid_start) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, "
		    "?, ?, ?, ?)") < 0)
		return TT_EFAIL;
	bind_text(st, 1, uuid);
	sqlite3_bind_int64(st, 2, r->host_id);
	bind_text(st, 3, r->kind);
	bind_text(st, 4, r->command ? r->command : "");
	if (r->source_node >= 0)
		sqlite3_bind_int(st, 5, r->source_node);
	bind_text(st, 6, r->objective);
	bind_text(st, 7, r->kernel_release ? r->kernel_release : "");
	sqlite3_bind_double(st, 8, wall_now());
	sqlite3_bind_int(st, 9, r->simulated);
	bind_text(st, 10, u.nodename);
	bind_text(st, 11, boot);
	sqlite3_bind_int64(st, 12, getpid());
	sqlite3_bind_int64(st, 13, tt_proc_starttime(getpid()));
	if (step_done(db, st, "recording the run") < 0)
		return TT_EFAIL;
	*run_id = sqlite3_last_insert_rowid(db->h);
	return 0;
}

int tt_db_tx_begin(struct tt_db *db)
{
	return begin_tx(db);
}

int tt_db_tx_end(struct tt_db *db, int rc)
{
	int ended = end_tx(db, NULL, rc);

	return rc < 0 ? rc : ended;
}

int tt_db_run_finish(struct tt_db *db, int64_t run_id, enum tt_run_status status)
{
	sqlite3_stmt *st;

	if (prepare(db, &st, "UPDATE runs SET status = ?, finished = ? WHERE id = ?") < 0)
		return TT_EFAIL;
	bind_text(st, 1, tt_run_status_names[status]);
	sqlite3_bind_double(st, 2, wall_now());
	sqlite3_bind_int64(st, 3, run_id);
	return step_done(db, st, "finishing the run");
}

static void bind_figure(sqlite3_stmt *st, int i, double v)
{
	if (v > 0)
		sqlite3_bind_double(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

/* A figure of any sign (a program's metric); NaN stored NULL. */
static void bind_number(sqlite3_stmt *st, int i, double v)
{
	if (isfinite(v))
		sqlite3_bind_double(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

/* An id or count where 0 (or, for a node, a negative one) means none: NULL. */
static void bind_int_or_null(sqlite3_stmt *st, int i, int64_t v, bool present)
{
	if (present)
		sqlite3_bind_int64(st, i, (sqlite3_int64)v);
	else
		sqlite3_bind_null(st, i);
}

/* Binds row i of rows (with whatever the rows share) to st. */
typedef void bind_row_fn(sqlite3_stmt *st, const void *rows, size_t i);

/* One statement run for each of n rows, all of them or none: in a
 * transaction of its own (a savepoint inside a run's or a trial's), rolled
 * back at the first row that fails, with what it was doing in the message. */
static int insert_rows(struct tt_db *db, const char *sql, bind_row_fn *bind, const void *rows,
		       size_t n, const char *what)
{
	sqlite3_stmt *st = NULL;
	int rc = 0;

	if (begin_tx(db) < 0)
		return TT_EFAIL;
	if (prepare(db, &st, sql) < 0)
		rc = TT_EFAIL;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		bind(st, rows, i);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = db_fail(db, what);
		else
			sqlite3_reset(st);
	}
	return end_tx(db, st, rc);
}

/* A trial's nodes, each with the trial's id. */
struct node_rows {
	int64_t trial_id;
	const struct tt_db_trial_node *nodes;
};

static void bind_node(sqlite3_stmt *st, const void *rows, size_t i)
{
	const struct node_rows *r = rows;
	const struct tt_db_trial_node *n = &r->nodes[i];

	sqlite3_bind_int64(st, 1, r->trial_id);
	sqlite3_bind_int(st, 2, n->node);
	bind_int_or_null(st, 3, n->weight, n->weight != 0);
	sqlite3_bind_double(st, 4, n->requested_share);
	sqlite3_bind_double(st, 5, n->achieved_share);
	sqlite3_bind_int64(st, 6, (sqlite3_int64)n->pages);
}

int tt_db_trial_add(struct tt_db *db, int64_t run_id, const struct tt_db_trial *t,
		    int64_t *trial_id)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (begin_tx(db) < 0)
		return TT_EFAIL;
	if (prepare(db, &st,
		    "INSERT INTO trials (run_id, seq, kernel, mix, placement, threads, "
		    "size_bytes, bw_best_bytes_s, bw_median_bytes_s, bw_min_bytes_s, "
		    "lat_best_ns, lat_median_ns, lat_max_ns, validated, simulated, time_best_s, "
		    "time_median_s, time_max_s, metric_best, metric_median, metric_worst, "
		    "metric_higher_is_better, llc_bytes, cache_resident, short_pass, "
		    "below_llc_rule, unstable, page_bytes, thp_requested, huge_page_share, "
		    "descheduled, cpu_share, judged) "
		    "VALUES (?1, "
		    "(SELECT coalesce(max(seq), 0) + 1 FROM trials WHERE run_id = ?1), ?2, ?3, "
		    "?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, "
		    "?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31, ?32)") < 0)
		goto fail;
	sqlite3_bind_int64(st, 1, run_id);
	bind_text(st, 2, t->kernel);
	bind_text(st, 3, t->mix);
	bind_text(st, 4, t->placement);
	sqlite3_bind_int(st, 5, t->threads);
	sqlite3_bind_int64(st, 6, (sqlite3_int64)t->size_bytes);
	bind_figure(st, 7, t->bw_best_bytes_s);
	bind_figure(st, 8, t->bw_median_bytes_s);
	bind_figure(st, 9, t->bw_min_bytes_s);
	bind_figure(st, 10, t->lat_best_ns);
	bind_figure(st, 11, t->lat_median_ns);
	bind_figure(st, 12, t->lat_max_ns);
	sqlite3_bind_int(st, 13, t->validated);
	sqlite3_bind_int(st, 14, t->simulated);
	bind_figure(st, 15, t->time_best_s);
	bind_figure(st, 16, t->time_median_s);
	bind_figure(st, 17, t->time_max_s);
	if (t->metric) {
		bind_number(st, 18, t->metric_best);
		bind_number(st, 19, t->metric_median);
		bind_number(st, 20, t->metric_worst);
		sqlite3_bind_int(st, 21, t->metric_higher_is_better);
	}
	if (t->llc_bytes) {
		sqlite3_bind_int64(st, 22, (sqlite3_int64)t->llc_bytes);
		sqlite3_bind_int(st, 23, t->cache_resident);
		sqlite3_bind_int(st, 24, t->short_pass);
		sqlite3_bind_int(st, 25, t->below_llc_rule);
	}
	if (t->checked || t->judged) {
		sqlite3_bind_int(st, 30, t->descheduled);
		bind_number(st, 31, t->cpu_share);
	}
	if (t->checked) {
		sqlite3_bind_int(st, 26, t->unstable);
		if (t->page_bytes) {
			sqlite3_bind_int64(st, 27, (sqlite3_int64)t->page_bytes);
			sqlite3_bind_int(st, 28, t->thp_requested);
			bind_number(st, 29, t->huge_page_share);
		}
	}
	bind_text(st, 32, t->judged);
	/* step_done finalizes st, whatever happens. */
	rc = step_done(db, st, "recording a trial");
	st = NULL;
	if (rc < 0)
		goto fail;
	*trial_id = sqlite3_last_insert_rowid(db->h);
	rc = insert_rows(db,
			 "INSERT INTO trial_nodes (trial_id, node, weight, requested_share, "
			 "achieved_share, pages) VALUES (?, ?, ?, ?, ?, ?)",
			 bind_node, &(struct node_rows){ *trial_id, t->nodes }, (size_t)t->nnodes,
			 "recording a trial's nodes");
	return end_tx(db, NULL, rc);
fail:
	return end_tx(db, st, TT_EFAIL);
}

/* Samples of a run, and of one of its trials (trial_id 0: none). */
struct sample_rows {
	int64_t run_id, trial_id;
	const struct tt_db_sample *s;
};

static void bind_sample(sqlite3_stmt *st, const void *rows, size_t i)
{
	const struct sample_rows *r = rows;
	const struct tt_db_sample *s = &r->s[i];

	sqlite3_bind_int64(st, 1, r->run_id);
	bind_int_or_null(st, 2, r->trial_id, r->trial_id != 0);
	sqlite3_bind_double(st, 3, s->t_s);
	sqlite3_bind_text(st, 4, s->collector, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, s->metric, -1, SQLITE_STATIC);
	bind_int_or_null(st, 6, s->node, s->node >= 0);
	sqlite3_bind_double(st, 7, s->value);
	sqlite3_bind_int(st, 8, s->simulated);
}

int tt_db_samples_add(struct tt_db *db, int64_t run_id, int64_t trial_id,
		      const struct tt_db_sample *s, size_t n)
{
	return insert_rows(db,
			   "INSERT INTO samples (run_id, trial_id, t_s, collector, metric, node, "
			   "value, simulated) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
			   bind_sample, &(struct sample_rows){ run_id, trial_id, s }, n,
			   "recording samples");
}

int tt_db_recommendation_add(struct tt_db *db, int64_t run_id, const struct tt_db_recommendation *r)
{
	char w[4096];
	sqlite3_stmt *st;

	if (tt_weights_format(r->weights, w, sizeof(w)) < 0)
		return TT_EFAIL;
	if (prepare(db, &st,
		    "INSERT INTO recommendations (run_id, source_node, interface, weights, "
		    "score, gain, gain_ci_low, gain_ci_high, baseline, action, score_ci_low, "
		    "score_ci_high, score_n, action_why, recipe) VALUES (?, ?, ?, ?, ?, ?, ?, ?, "
		    "?, ?, ?, ?, ?, ?, ?)") < 0)
		return TT_EFAIL;
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_int(st, 2, r->source_node);
	bind_text(st, 3, r->interface);
	bind_text(st, 4, w);
	sqlite3_bind_double(st, 5, r->score);
	sqlite3_bind_double(st, 6, r->gain);
	sqlite3_bind_double(st, 7, r->gain_ci_low);
	sqlite3_bind_double(st, 8, r->gain_ci_high);
	bind_text(st, 9, r->baseline);
	bind_text(st, 10, r->action ? r->action : "apply");
	bind_number(st, 11, r->score_ci_low);
	bind_number(st, 12, r->score_ci_high);
	if (r->score_n > 0)
		sqlite3_bind_int(st, 13, r->score_n);
	bind_text(st, 14, r->action_why);
	bind_text(st, 15, r->recipe);
	return step_done(db, st, "recording the recommendation");
}

int tt_db_apply_log(struct tt_db *db, const struct tt_db_apply *a)
{
	char uuid[37];
	sqlite3_stmt *st;

	if (make_uuid(uuid) < 0)
		return TT_EFAIL;
	if (prepare(db, &st,
		    "INSERT INTO apply_log (uuid, host_id, run_id, t, interface, file, "
		    "old_value, new_value, outcome) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)") < 0)
		return TT_EFAIL;
	bind_text(st, 1, uuid);
	sqlite3_bind_int64(st, 2, a->host_id);
	bind_int_or_null(st, 3, a->run_id, a->run_id != 0);
	sqlite3_bind_double(st, 4, wall_now());
	bind_text(st, 5, a->interface);
	bind_text(st, 6, a->file);
	bind_text(st, 7, a->old_value);
	bind_text(st, 8, a->new_value);
	bind_text(st, 9, a->outcome);
	return step_done(db, st, "recording the apply log");
}

static int log_write(struct tt_db *db, int64_t host, int64_t run, const struct tt_apply_plan *p,
		     const struct tt_write *w, const char *outcome)
{
	return tt_db_apply_log(db, &(struct tt_db_apply){ .host_id = host,
							  .run_id = run,
							  .interface = p->be->name,
							  .file = w->file,
							  .old_value = w->old,
							  .new_value = w->value,
							  .outcome = outcome });
}

/* A run of this host with no source node (an apply, a rebalance), begun
 * in a transaction for the whole record: on success the caller adds to it
 * and ends it (tt_db_tx_end); on failure it is ended here. */
static int run_open(struct tt_db *db, const struct tt_topo *t, const char *kind,
		    const char *command, const char *objective, int64_t *host, int64_t *run)
{
	int rc = tt_db_tx_begin(db);

	if (rc < 0)
		return rc;
	rc = tt_db_host(db, t, host);
	if (rc == 0)
		rc = tt_db_run_begin(db,
				     &(struct tt_db_run){ .host_id = *host,
							  .kind = kind,
							  .command = command,
							  .source_node = -1,
							  .objective = objective,
							  .kernel_release = t->kernel_release },
				     run);
	return rc < 0 ? tt_db_tx_end(db, rc) : 0;
}

int tt_db_apply_record(struct tt_db *db, const struct tt_topo *t, const char *kind,
		       const char *command, const char *objective, const struct tt_apply_plan *p)
{
	int64_t host, run;
	int rc = run_open(db, t, kind, command, objective, &host, &run);

	if (rc < 0)
		return rc;
	for (int i = 0; rc == 0 && i < p->n; i++)
		rc = log_write(db, host, run, p, &p->w[i],
			       p->w[i].side ? "set by the kernel" : "written");
	/* Noted for a rollback even when auto was off: nothing changed then. */
	for (int i = 0; rc == 0 && i < p->nimplied; i++)
		if (strcmp(p->implied[i].old, p->implied[i].value) != 0)
			rc = log_write(db, host, run, p, &p->implied[i], "set by the kernel");
	if (rc == 0)
		rc = tt_db_run_finish(db, run, TT_RUN_DONE);
	return tt_db_tx_end(db, rc);
}

static int rebalance_trial(struct tt_db *db, int64_t run, const struct tt_db_rebalance *r,
			   const char *placement, const uint64_t *pages, uint64_t total)
{
	struct tt_db_trial_node nodes[64];
	int n = 0;
	int64_t trial;

	for (int id = 0; id < TT_MAX_NODES && n < 64; id++) {
		if (!pages[id] && !r->want[id] && !tt_nodemask_test(&r->weights->set, id))
			continue;
		nodes[n++] = (struct tt_db_trial_node){
			.node = id,
			.weight = tt_weights_get(r->weights, id, 0),
			.requested_share = total ? (double)r->want[id] / (double)total : 0,
			.achieved_share = total ? (double)pages[id] / (double)total : 0,
			.pages = pages[id],
		};
	}
	return tt_db_trial_add(db, run,
			       &(struct tt_db_trial){ .kernel = "rebalance",
						      .mix = r->process,
						      .placement = placement,
						      .size_bytes = total * 4096,
						      .validated = true,
						      .nnodes = n,
						      .nodes = nodes },
			       &trial);
}

int tt_db_rebalance_record(struct tt_db *db, const struct tt_topo *t,
			   const struct tt_db_rebalance *r, int64_t *run_id)
{
	int64_t host;
	int rc = run_open(db, t, "rebalance", r->command, r->process, &host, run_id);

	if (rc < 0)
		return rc;
	rc = rebalance_trial(db, *run_id, r, "before", r->before, r->before_total);
	if (rc == 0)
		rc = rebalance_trial(db, *run_id, r, "after", r->after, r->after_total);
	if (rc == 0)
		rc = tt_db_samples_add(db, *run_id, 0, r->moves, r->nmoves);
	if (rc == 0)
		rc = tt_db_run_finish(db, *run_id, r->within ? TT_RUN_DONE : TT_RUN_FAILED);
	if (rc == 0 && r->end_reason && r->end_reason[0]) {
		sqlite3_stmt *st;

		rc = prepare(db, &st, "UPDATE runs SET end_reason = ? WHERE id = ?");
		if (rc == 0) {
			bind_text(st, 1, r->end_reason);
			sqlite3_bind_int64(st, 2, *run_id);
			rc = step_done(db, st, "recording why the rebalance ended");
		}
	}
	return tt_db_tx_end(db, rc);
}
