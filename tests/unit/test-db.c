// SPDX-License-Identifier: GPL-3.0-or-later
/* db/: schema, migration from an empty file, every insert read back, samples
 * in bulk, a killed writer's run marked interrupted, a reader beside a
 * writer, merge (twice adds nothing), strings that look like SQL. */
#include "test.h"

#include "../../core/error.h"
#include "../../core/topo.h"
#include "../../db/db.h"
#include "../../db/schema.h"

#include <sqlite3.h>

#include <signal.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[256], path[512];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "%s/tt-db-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		return -1;
	/* A folder that does not exist yet: open must make it. */
	snprintf(path, sizeof(path), "%s/sub/dir/t.db", dir);
	return 0;
}

static int teardown(void **state)
{
	char cmd[600];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* A two-node topology without sysfs: enough for a host row. */
static struct tt_topo *topo(const char *hostname)
{
	static struct tt_node nodes[2];
	static struct tt_topo t;

	memset(&t, 0, sizeof(t));
	memset(nodes, 0, sizeof(nodes));
	nodes[0] = (struct tt_node){ .id = 0,
				     .has_cpu = true,
				     .has_memory = true,
				     .ncpus = 4,
				     .mem_total_bytes = (uint64_t)64 << 30,
				     .tier = 4 };
	nodes[1] = (struct tt_node){
		.id = 1, .has_memory = true, .mem_total_bytes = (uint64_t)128 << 30, .tier = 87
	};
	nodes[1].access[1] = (struct tt_hmat){ .present = true,
					       .read_bw_mb_s = 36000,
					       .write_bw_mb_s = 36000,
					       .read_lat_ns = 280,
					       .write_lat_ns = 280 };
	t.nnodes = 2;
	t.nodes = nodes;
	snprintf(t.kernel_release, sizeof(t.kernel_release), "6.16.0");
	snprintf(t.cpu_model, sizeof(t.cpu_model), "Test CPU");
	snprintf(t.hostname, sizeof(t.hostname), "%s", hostname);
	return &t;
}

static int64_t record_run(struct tt_db *db, const char *hostname, const char *command, double bw)
{
	static const struct tt_db_trial_node nodes[] = { { 0, 3, 0.75, 0.75, 768 },
							 { 1, 1, 0.25, 0.25, 256 } };
	int64_t host, run, trial;

	assert_int_equal(tt_db_host(db, topo(hostname), &host), 0);
	assert_int_equal(tt_db_run_begin(db,
					 &(struct tt_db_run){ .host_id = host,
							      .kind = "bench",
							      .command = command,
							      .source_node = 0,
							      .kernel_release = "6.16.0" },
					 &run),
			 0);
	assert_int_equal(tt_db_trial_add(db, run,
					 &(struct tt_db_trial){ .kernel = "triad",
								.mix = "STREAM",
								.placement = "exact",
								.threads = 4,
								.size_bytes = 1 << 22,
								.bw_best_bytes_s = bw,
								.validated = true,
								.nnodes = 2,
								.nodes = nodes },
					 &trial),
			 0);
	assert_int_equal(tt_db_run_finish(db, run, TT_RUN_DONE), 0);
	return run;
}

static int count_rows(json_t *row, void *ctx)
{
	(void)row;
	(*(int *)ctx)++;
	return 0;
}

static void test_roundtrip(void **state)
{
	struct tt_db *db;
	char problem[256];
	int version, n = 0;
	json_t *run;
	struct tt_weights w;
	int64_t host;
	(void)state;

	assert_int_equal(tt_db_open(&db, path, 0), 0);
	assert_int_equal(tt_db_check(db, &version, problem, sizeof(problem)), 0);
	assert_int_equal(version, TT_DB_SCHEMA_VERSION);
	assert_string_equal(problem, "");
	int64_t id = record_run(db, "box-a", "tiertune bench --kernel triad", 3e10);
	tt_weights_clear(&w);
	tt_weights_put(&w, 0, 3);
	tt_weights_put(&w, 1, 1);
	assert_int_equal(
		tt_db_recommendation_add(db, id,
					 &(struct tt_db_recommendation){ .source_node = 0,
									 .interface = "upstream",
									 .weights = &w,
									 .gain = 0.12,
									 .baseline = "1:1" }),
		0);
	assert_int_equal(tt_db_host(db, topo("box-a"), &host), 0);
	assert_int_equal(tt_db_apply_log(db, &(struct tt_db_apply){ .host_id = host,
								    .run_id = id,
								    .interface = "upstream",
								    .file = "/sys/x/node1",
								    .old_value = "1",
								    .new_value = "3",
								    .outcome = "written" }),
			 0);
	assert_int_equal(tt_db_run_get(db, id, &run), 0);
	assert_string_equal(json_string_value(json_object_get(run, "status")), "done");
	assert_string_equal(json_string_value(json_object_get(run, "host")), "box-a");
	json_t *t = json_array_get(json_object_get(run, "trials"), 0);
	assert_true(json_real_value(json_object_get(t, "bw_best_bytes_s")) == 3e10);
	assert_true(json_is_null(json_object_get(t, "lat_median_ns")));
	assert_true(json_is_true(json_object_get(t, "validated")));
	assert_true(json_is_false(json_object_get(t, "simulated")));
	json_t *n1 = json_array_get(json_object_get(t, "nodes"), 1);
	assert_int_equal(json_integer_value(json_object_get(n1, "weight")), 1);
	assert_true(json_real_value(json_object_get(n1, "achieved_share")) == 0.25);
	json_t *rec = json_array_get(json_object_get(run, "recommendations"), 0);
	/* Weights are an object in every document (docs/json.md). */
	json_t *rw = json_object_get(rec, "weights");
	assert_int_equal(json_object_size(rw), 2);
	assert_int_equal(json_integer_value(json_object_get(rw, "0")), 3);
	assert_int_equal(json_integer_value(json_object_get(rw, "1")), 1);
	assert_string_equal(json_string_value(json_object_get(rec, "weights_keyed_by")), "node");
	json_t *layout = json_object_get(run, "layout");
	assert_int_equal(json_array_size(json_object_get(layout, "nodes")), 2);
	assert_true(json_integer_value(json_object_get(
			    json_object_get(json_array_get(json_object_get(layout, "nodes"), 1),
					    "hmat"),
			    "read_bw_bytes_s")) == (json_int_t)36000 * 1000000);
	json_decref(run);
	assert_int_equal(tt_db_apply_history(db, id, count_rows, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(tt_db_run_get(db, 999, &run), TT_EINPUT);
	assert_non_null(strstr(tt_err_msg(), "no run 999"));
	tt_db_close(db);
}

static void test_samples_bulk(void **state)
{
	enum { N = 100000 };
	struct tt_db_sample *s = calloc(N, sizeof(*s));
	struct tt_db *db;
	json_t *row;
	(void)state;

	assert_non_null(s);
	for (int i = 0; i < N; i++)
		s[i] = (struct tt_db_sample){ .t_s = i * 0.1,
					      .collector = "numastat",
					      .metric = "numa_hit",
					      .node = i % 3,
					      .value = i };
	assert_int_equal(tt_db_open(&db, path, 0), 0);
	int64_t run = record_run(db, "box-a", "samples", 1e9);
	assert_int_equal(tt_db_samples_add(db, run, 0, s, N), 0);
	free(s);
	assert_int_equal(tt_db_run_get(db, run, &row), 0);
	json_decref(row);
	tt_db_close(db);
}

/* A writer that dies between run_begin and run_finish. */
static void test_interrupted(void **state)
{
	struct tt_db *db;
	json_t *run;
	int status;
	pid_t pid;
	int64_t id = 0;
	int fds[2];
	(void)state;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int64_t host;

		if (tt_db_open(&db, path, 0) < 0 || tt_db_host(db, topo("box-a"), &host) < 0 ||
		    tt_db_run_begin(db,
				    &(struct tt_db_run){ .host_id = host,
							 .kind = "auto",
							 .command = "killed",
							 .source_node = 0 },
				    &id) < 0)
			_exit(1);
		if (write(fds[1], &id, sizeof(id)) != sizeof(id))
			_exit(1);
		pause(); /* until killed */
		_exit(0);
	}
	/* A writer that fails before it writes gives end of file, not a
	 * read that waits for ever. */
	close(fds[1]);
	assert_int_equal(read(fds[0], &id, sizeof(id)), sizeof(id));
	/* While the writer lives, its run is running. */
	assert_int_equal(tt_db_open(&db, path, 0), 0);
	assert_int_equal(tt_db_interrupted(db), 0);
	assert_int_equal(tt_db_run_get(db, id, &run), 0);
	assert_string_equal(json_string_value(json_object_get(run, "status")), "running");
	json_decref(run);
	tt_db_close(db);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	assert_int_equal(tt_db_open(&db, path, 0), 0);
	assert_int_equal(tt_db_interrupted(db), 1);
	assert_int_equal(tt_db_run_get(db, id, &run), 0);
	assert_string_equal(json_string_value(json_object_get(run, "status")), "interrupted");
	json_decref(run);
	tt_db_close(db);
	close(fds[0]);
}

/* tiertop and `runs` read while the tuner writes: never "locked". */
static void test_reader_beside_writer(void **state)
{
	enum { TRIALS = 300 };
	struct tt_db *db;
	int status, reads = 0;
	pid_t pid;
	(void)state;

	assert_int_equal(tt_db_open(&db, path, 0), 0);
	tt_db_close(db);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct tt_db_sample smp[50];

		if (tt_db_open(&db, path, 0) < 0)
			_exit(1);
		for (int i = 0; i < 50; i++)
			smp[i] = (struct tt_db_sample){
				.t_s = i, .collector = "c", .metric = "m", .node = -1, .value = i
			};
		for (int i = 0; i < TRIALS; i++) {
			int64_t run = record_run(db, "box-w", "writer", 1e9 + i);

			if (tt_db_samples_add(db, run, 0, smp, 50) < 0)
				_exit(2);
		}
		tt_db_close(db);
		_exit(0);
	}
	while (waitpid(pid, &status, WNOHANG) == 0) {
		int n = 0;

		assert_int_equal(tt_db_open(&db, path, 0), 0);
		assert_int_equal(tt_db_runs(db, NULL, 50, count_rows, &n), 0);
		tt_db_close(db);
		reads++;
	}
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_true(reads > 0);
}

static void test_merge(void **state)
{
	char other[600], garbage[600];
	struct tt_db *a, *b;
	struct tt_db_merge_stats st, two[2];
	int n = 0;
	(void)state;

	snprintf(other, sizeof(other), "%s/other %%?#.db", dir); /* URI characters */
	assert_int_equal(tt_db_open(&b, other, 0), 0);
	record_run(b, "box-b", "on b", 2e10);
	record_run(b, "box-b", "on b again", 2.1e10);
	record_run(b, "box-a", "box-a's run recorded in b", 2.2e10);
	tt_db_close(b);
	assert_int_equal(tt_db_open(&a, path, 0), 0);
	int before = 0;
	assert_int_equal(tt_db_runs(a, NULL, 0, count_rows, &before), 0);
	char *files[] = { other, garbage };
	int mid = 0;

	/* A good file then a bad one: all or nothing. */
	snprintf(garbage, sizeof(garbage), "%s/garbage.db", dir);
	FILE *f = fopen(garbage, "w");
	assert_non_null(f);
	fputs("not a database at all, but long enough to have a header of 100 bytes: "
	      "..............................................................\n",
	      f);
	fclose(f);
	assert_int_equal(tt_db_merge(a, files, 2, two), TT_EINPUT);
	assert_non_null(strstr(tt_err_msg(), "garbage.db"));
	assert_int_equal(tt_db_runs(a, NULL, 0, count_rows, &mid), 0);
	assert_int_equal(mid, before);
	assert_int_equal(two[0].runs_added, 0);
	assert_int_equal(tt_db_merge(a, files, 1, &st), 0);
	assert_int_equal(st.hosts_added, 1); /* box-a is already in a */
	assert_int_equal(st.runs_added, 3);
	assert_int_equal(st.trials_added, 3);
	assert_int_equal(tt_db_merge(a, files, 1, &st), 0);
	assert_int_equal(st.hosts_added, 0);
	assert_int_equal(st.runs_added, 0);
	assert_int_equal(st.runs_skipped, 3);
	assert_int_equal(st.trials_added, 0);
	assert_int_equal(tt_db_runs(a, "box-b", 0, count_rows, &n), 0);
	assert_int_equal(n, 2);
	n = 0;
	assert_int_equal(tt_db_runs(a, NULL, 0, count_rows, &n), 0);
	assert_int_equal(n, before + 3);
	char problem[256];
	int version;
	assert_int_equal(tt_db_check(a, &version, problem, sizeof(problem)), 0);
	assert_string_equal(problem, "");
	tt_db_close(a);
}

static int find_host(json_t *row, void *ctx)
{
	return strcmp(json_string_value(json_object_get(row, "host")), ctx) == 0 &&
			       strstr(json_string_value(json_object_get(row, "command")),
				      "'; DELETE")
		       ? 7
		       : 0;
}

static void test_strings_are_parameters(void **state)
{
	static const char evil[] = "o'brien\"); DROP TABLE runs; --";
	struct tt_db *db;
	(void)state;

	assert_int_equal(tt_db_open(&db, path, 0), 0);
	record_run(db, evil, "bench --sysfs-root '/tmp/x'; DELETE FROM runs; --'", 1e9);
	/* The walk stops (7) at the row with both strings intact. */
	assert_int_equal(tt_db_runs(db, evil, 0, find_host, (void *)evil), 7);
	tt_db_close(db);
}

static void test_bad_files(void **state)
{
	char p[600];
	struct tt_db *db;
	FILE *f;
	(void)state;

	snprintf(p, sizeof(p), "%s/garbage.db", dir);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs("this is not a database, and it is long enough to fill a sqlite header of 100 "
	      "bytes............",
	      f);
	fclose(f);
	assert_int_equal(tt_db_open(&db, p, 0), TT_EINPUT);
	assert_non_null(strstr(tt_err_msg(), "is not a sqlite database"));
	assert_non_null(strstr(tt_err_msg(), p));
	snprintf(p, sizeof(p), "%s/missing.db", dir);
	assert_int_equal(tt_db_open(&db, p, TT_DB_READONLY), TT_EINPUT);
	assert_non_null(strstr(tt_err_msg(), "does not exist"));
	assert_int_equal(access(p, F_OK), -1); /* not created */
}

/* A database file as schema `version` left it, with rows, opened (so
 * migrated) and checked to be whole and current. */
static struct tt_db *old_db(const char *name, int version, const char *rows)
{
	char p[600], problem[256];
	sqlite3 *h;
	struct tt_db *db;
	int v;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	assert_int_equal(sqlite3_open(p, &h), SQLITE_OK);
	for (int i = 0; i < version; i++)
		assert_int_equal(sqlite3_exec(h, tt_db_migrations[i], NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, rows, NULL, NULL, NULL), SQLITE_OK);
	snprintf(problem, sizeof(problem), "PRAGMA user_version = %d;", version);
	assert_int_equal(sqlite3_exec(h, problem, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	assert_int_equal(tt_db_open(&db, p, 0), 0);
	assert_int_equal(tt_db_check(db, &v, problem, sizeof(problem)), 0);
	assert_int_equal(v, TT_DB_SCHEMA_VERSION);
	assert_string_equal(problem, "");
	return db;
}

/* A database as schema 1 left it, brought forward: every figure keeps what
 * it was (v1's bw_bytes_s was the best pass, lat_ns the median, lat_min_ns
 * the best), and the host's HMAT bandwidth turns from MB/s into bytes/s. */
static void test_migrate_v1(void **state)
{
	struct tt_db *db =
		old_db("v1.db", 1,
		       "INSERT INTO hosts VALUES (1, 'old', 'fp', 'cpu', '{\"cpu_model\":\"cpu\","
		       "\"nodes\":[{\"node\":0,\"cpus\":2,\"tier\":4},{\"node\":1,\"tier\":87,"
		       "\"hmat\":{\"read_bw_mb_s\":36000,\"write_bw_mb_s\":30000,"
		       "\"read_lat_ns\":280,\"write_lat_ns\":290}}]}', 1);"
		       "INSERT INTO runs VALUES (1, 'u-1', 1, 'bench', 'tiertune bench', 0, "
		       "'latency:latency', '6.1', 1, 2, 'done', 0, 'old', 'b', 1, 1);"
		       "INSERT INTO trials VALUES (1, 1, 1, 'latency', 'pointer chase', 'exact', "
		       "1, "
		       "4096, NULL, NULL, NULL, 70.7, 62.2, 90.1, 1, 0);");
	json_t *run;
	(void)state;

	assert_int_equal(tt_db_run_get(db, 1, &run), 0);
	json_t *t = json_array_get(json_object_get(run, "trials"), 0);
	assert_true(json_real_value(json_object_get(t, "lat_best_ns")) == 62.2);
	assert_true(json_real_value(json_object_get(t, "lat_median_ns")) == 70.7);
	assert_true(json_real_value(json_object_get(t, "lat_max_ns")) == 90.1);
	assert_true(json_is_null(json_object_get(t, "bw_best_bytes_s")));
	/* runs' best latency is the best pass, as bench reported it. */
	assert_true(json_real_value(json_object_get(run, "lat_best_ns")) == 62.2);
	json_t *hm = json_object_get(
		json_array_get(json_object_get(json_object_get(run, "layout"), "nodes"), 1),
		"hmat");
	assert_true(json_number_value(json_object_get(hm, "read_bw_bytes_s")) == 36000e6);
	assert_true(json_number_value(json_object_get(hm, "write_bw_bytes_s")) == 30000e6);
	assert_int_equal(json_integer_value(json_object_get(hm, "read_lat_ns")), 280);
	assert_null(json_object_get(hm, "read_bw_mb_s"));
	assert_int_equal(
		json_integer_value(json_object_get(
			json_array_get(json_object_get(json_object_get(run, "layout"), "nodes"), 0),
			"ncpus")),
		2);
	json_decref(run);
	tt_db_close(db);
}

/* An app-mode run of two trials, read back. */
static json_t *app_run(struct tt_db *db, const char *objective, const struct tt_db_trial *trials)
{
	int64_t run_id, trial;
	json_t *run;

	assert_int_equal(tt_db_run_begin(db,
					 &(struct tt_db_run){ .host_id = 1,
							      .kind = "auto",
							      .command = "tiertune auto -- ./prog",
							      .source_node = 0,
							      .objective = objective,
							      .kernel_release = "6.1" },
					 &run_id),
			 0);
	for (int i = 0; i < 2; i++)
		assert_int_equal(tt_db_trial_add(db, run_id, &trials[i], &trial), 0);
	assert_int_equal(tt_db_run_get(db, run_id, &run), 0);
	return run;
}

/* A database as schema 2 left it, brought forward: a bench trial keeps its
 * figures and has no app figures; then app mode's trials go in with their
 * own units (seconds; a metric of any sign and its direction) and come
 * back as runs and show have them. */
static void test_migrate_v2_app_trials(void **state)
{
	static const struct tt_db_trial_node nodes[] = { { 0, 3, 0.75, 0.75, 0 },
							 { 1, 1, 0.25, 0.25, 0 } };
	struct tt_db *db =
		old_db("v2.db", 2,
		       "INSERT INTO hosts VALUES (1, 'old', 'fp', 'cpu', '{}', 1);"
		       "INSERT INTO runs VALUES (1, 'u-2', 1, 'bench', 'tiertune bench', 0, "
		       "'bandwidth:triad', '6.1', 1, 2, 'done', 0, 'old', 'b', 1, 1);"
		       "INSERT INTO trials VALUES (1, 1, 1, 'triad', 'STREAM', 'exact', 2, "
		       "4096, 3e10, 2.9e10, 2.8e10, NULL, NULL, NULL, 1, 0);");
	json_t *run, *t;
	(void)state;

	assert_int_equal(tt_db_run_get(db, 1, &run), 0);
	t = json_array_get(json_object_get(run, "trials"), 0);
	assert_true(json_real_value(json_object_get(t, "bw_best_bytes_s")) == 3e10);
	assert_true(json_is_null(json_object_get(t, "time_best_s")));
	assert_true(json_is_null(json_object_get(t, "metric_best")));
	assert_true(json_is_null(json_object_get(t, "metric_higher_is_better")));
	assert_true(json_is_null(json_object_get(run, "time_best_s")));
	json_decref(run);

	/* App mode: one run timed, one scored by a metric where lower (here
	 * negative) is better. */
	struct tt_db_trial timed[2], scored[2];

	for (int i = 0; i < 2; i++) {
		timed[i] = (struct tt_db_trial){ .kernel = "app",
						 .mix = "./prog",
						 .placement = "kernel",
						 .time_best_s = 1.5 - i,
						 .time_median_s = 1.75 - i,
						 .time_max_s = 2 - i,
						 .nnodes = 2,
						 .nodes = nodes };
		scored[i] = (struct tt_db_trial){ .kernel = "app",
						  .placement = "kernel",
						  .metric = true,
						  .metric_best = -4 - i,
						  .metric_median = 0,
						  .metric_worst = 3,
						  .nnodes = 2,
						  .nodes = nodes };
	}
	run = app_run(db, "app:wall-time", timed);
	t = json_array_get(json_object_get(run, "trials"), 0);
	assert_true(json_real_value(json_object_get(t, "time_best_s")) == 1.5);
	assert_true(json_real_value(json_object_get(t, "time_median_s")) == 1.75);
	assert_true(json_real_value(json_object_get(t, "time_max_s")) == 2);
	assert_true(json_is_null(json_object_get(t, "bw_best_bytes_s")));
	assert_true(json_is_null(json_object_get(t, "metric_best")));
	assert_true(json_real_value(json_object_get(run, "time_best_s")) == 0.5);
	json_decref(run);
	run = app_run(db, "app:metric,lower-is-better", scored);
	t = json_array_get(json_object_get(run, "trials"), 1);
	assert_true(json_real_value(json_object_get(t, "metric_best")) == -5);
	assert_true(json_real_value(json_object_get(t, "metric_median")) == 0);
	assert_true(json_real_value(json_object_get(t, "metric_worst")) == 3);
	assert_true(json_is_false(json_object_get(t, "metric_higher_is_better")));
	assert_true(json_is_null(json_object_get(t, "time_best_s")));
	/* The run's best is the least, as lower is better. */
	assert_true(json_real_value(json_object_get(run, "metric_best")) == -5);
	assert_true(json_is_false(json_object_get(run, "metric_higher_is_better")));
	json_decref(run);
	tt_db_close(db);
}

/* v3 to v4: an older recommendation was always applied, and had no
 * interval on its score; an older trial's working set was never checked
 * against the cache (NULL, not "no"). A new trial that was checked keeps
 * its flags; a new recommendation its action and interval. */
static void test_migrate_v3_actions(void **state)
{
	static const struct tt_db_trial_node nodes[] = { { 0, 1, 1, 1, 2048 } };
	struct tt_db *db =
		old_db("v3.db", 3,
		       "INSERT INTO hosts VALUES (1, 'old', 'fp', 'cpu', '{}', 1);"
		       "INSERT INTO runs VALUES (1, 'u-3', 1, 'auto', 'tiertune auto', 0, "
		       "'bandwidth:triad', '6.1', 1, 2, 'done', 0, 'old', 'b', 1, 1);"
		       "INSERT INTO trials (id, run_id, seq, kernel, mix, placement, threads, "
		       "size_bytes, bw_best_bytes_s, validated, simulated) VALUES (1, 1, 1, "
		       "'triad', 'STREAM', 'exact', 2, 4096, 3e10, 1, 0);"
		       "INSERT INTO recommendations (run_id, source_node, interface, weights, "
		       "score, gain) VALUES (1, 0, 'upstream', '0:3,1:1', 3e10, 0.1);");
	struct tt_weights w;
	int64_t run_id, trial_id;
	json_t *run, *t, *rec;
	(void)state;

	assert_int_equal(tt_db_run_get(db, 1, &run), 0);
	t = json_array_get(json_object_get(run, "trials"), 0);
	assert_true(json_is_null(json_object_get(t, "llc_bytes")));
	assert_true(json_is_null(json_object_get(t, "cache_resident")));
	rec = json_array_get(json_object_get(run, "recommendations"), 0);
	assert_string_equal(json_string_value(json_object_get(rec, "action")), "apply");
	assert_true(json_is_null(json_object_get(rec, "score_ci_low")));
	assert_true(json_is_null(json_object_get(rec, "score_n")));
	json_decref(run);

	assert_int_equal(tt_db_run_begin(db,
					 &(struct tt_db_run){ .kind = "auto",
							      .command = "tiertune auto",
							      .objective = "bandwidth:triad",
							      .host_id = 1 },
					 &run_id),
			 0);
	assert_int_equal(tt_db_trial_add(db, run_id,
					 &(struct tt_db_trial){ .kernel = "triad",
								.mix = "STREAM",
								.placement = "exact",
								.threads = 2,
								.size_bytes = 8 << 20,
								.bw_best_bytes_s = 9e10,
								.llc_bytes = 32 << 20,
								.cache_resident = true,
								.nnodes = 1,
								.nodes = nodes },
					 &trial_id),
			 0);
	assert_int_equal(tt_weights_parse("0:1,1:1", &w), 0);
	assert_int_equal(
		tt_db_recommendation_add(db, run_id,
					 &(struct tt_db_recommendation){ .source_node = 0,
									 .interface = "upstream",
									 .weights = &w,
									 .action = "keep_auto",
									 .score = 2e10,
									 .score_ci_low = 1.9e10,
									 .score_ci_high = 2.1e10,
									 .score_n = 6,
									 .gain = NAN,
									 .gain_ci_low = NAN,
									 .gain_ci_high = NAN }),
		0);
	assert_int_equal(tt_db_run_get(db, run_id, &run), 0);
	t = json_array_get(json_object_get(run, "trials"), 0);
	assert_int_equal(json_integer_value(json_object_get(t, "llc_bytes")), 32 << 20);
	assert_true(json_is_true(json_object_get(t, "cache_resident")));
	assert_true(json_is_false(json_object_get(t, "short_pass")));
	rec = json_array_get(json_object_get(run, "recommendations"), 0);
	assert_string_equal(json_string_value(json_object_get(rec, "action")), "keep_auto");
	assert_true(json_real_value(json_object_get(rec, "score_ci_low")) == 1.9e10);
	assert_int_equal(json_integer_value(json_object_get(rec, "score_n")), 6);
	json_decref(run);
	tt_db_close(db);
}

/* v4 to v5 (issue 34): v4's cache_resident was STREAM's 4x rule, now
 * below_llc_rule; cache_resident is then known only where it must be false
 * (not below the rule, or one array alone larger than the cache), else
 * NULL; unstable and the pages were not checked (NULL); a recommendation
 * has no recorded reason. A new trial and recommendation keep theirs. */
static void test_migrate_v4_judgements(void **state)
{
	static const struct tt_db_trial_node nodes[] = { { 0, 1, 1, 1, 2048 } };
	struct tt_db *db = old_db(
		"v4.db", 4,
		"INSERT INTO hosts VALUES (1, 'old', 'fp', 'cpu', '{}', 1);"
		"INSERT INTO runs VALUES (1, 'u-4', 1, 'bench', 'tiertune bench', 0, "
		"'bandwidth:triad', '6.1', 1, 2, 'done', 0, 'old', 'b', 1, 1);"
		"INSERT INTO trials (id, run_id, seq, kernel, mix, placement, threads, "
		"size_bytes, bw_best_bytes_s, validated, simulated, llc_bytes, cache_resident, "
		"short_pass) VALUES "
		"(1, 1, 1, 'triad', 'STREAM', 'exact', 2, 8388608, 3e10, 1, 0, 33554432, 1, 0),"
		"(2, 1, 2, 'triad', 'STREAM', 'exact', 2, 67108864, 3e10, 1, 0, 33554432, 1, 0),"
		"(3, 1, 3, 'triad', 'STREAM', 'exact', 2, 134217728, 3e10, 1, 0, 33554432, 0, 0),"
		"(4, 1, 4, 'triad', 'STREAM', 'exact', 2, 134217728, 3e10, 1, 0, NULL, NULL, NULL);"
		"INSERT INTO recommendations (run_id, source_node, interface, weights, score, "
		"gain, "
		"action) VALUES (1, 0, 'upstream', '0:3,1:1', 3e10, 0.1, 'keep_auto');");
	int64_t trial_id;
	json_t *run, *t;
	(void)state;

	assert_int_equal(tt_db_run_get(db, 1, &run), 0);
	static const char *const below[] = { "true", "true", "false", "null" },
				 *const resident[] = { "null", "false", "false", "null" };
	for (int i = 0; i < 4; i++) {
		t = json_array_get(json_object_get(run, "trials"), (size_t)i);
		char *b = json_dumps(json_object_get(t, "below_llc_rule"), JSON_ENCODE_ANY),
		     *r = json_dumps(json_object_get(t, "cache_resident"), JSON_ENCODE_ANY);

		assert_string_equal(b, below[i]);
		assert_string_equal(r, resident[i]);
		free(b);
		free(r);
		assert_true(json_is_null(json_object_get(t, "unstable")));
		assert_true(json_is_null(json_object_get(t, "page_bytes")));
	}
	assert_true(json_is_null(json_object_get(
		json_array_get(json_object_get(run, "recommendations"), 0), "action_why")));
	json_decref(run);

	assert_int_equal(tt_db_trial_add(db, 1,
					 &(struct tt_db_trial){ .kernel = "triad",
								.mix = "STREAM",
								.placement = "exact",
								.threads = 2,
								.size_bytes = 64 << 20,
								.bw_best_bytes_s = 9e10,
								.llc_bytes = 32 << 20,
								.below_llc_rule = true,
								.checked = true,
								.unstable = true,
								.page_bytes = 4096,
								.thp_requested = true,
								.huge_page_share = 0.5,
								.nnodes = 1,
								.nodes = nodes },
					 &trial_id),
			 0);
	assert_int_equal(tt_db_run_get(db, 1, &run), 0);
	t = json_array_get(json_object_get(run, "trials"), 4);
	assert_true(json_is_true(json_object_get(t, "below_llc_rule")));
	assert_true(json_is_false(json_object_get(t, "cache_resident")));
	assert_true(json_is_true(json_object_get(t, "unstable")));
	assert_int_equal(json_integer_value(json_object_get(t, "page_bytes")), 4096);
	assert_true(json_is_true(json_object_get(t, "thp_requested")));
	assert_true(json_real_value(json_object_get(t, "huge_page_share")) == 0.5);
	json_decref(run);
	tt_db_close(db);
}

/* v5 to v6 (issue 33): a recommendation may be per_source, with the
 * per-socket recipe the report gave. The table is rebuilt for its CHECK:
 * every row and column of v5 comes through (ids too), and the other
 * actions read as they did, with no recipe. */
static void test_migrate_v5_per_source(void **state)
{
	struct tt_db *db = old_db(
		"v5.db", 5,
		"INSERT INTO hosts VALUES (1, 'old', 'fp', 'cpu', '{}', 1);"
		"INSERT INTO runs VALUES (1, 'u-5', 1, 'auto', 'tiertune auto', 0, "
		"'bandwidth:triad', '6.1', 1, 2, 'done', 0, 'old', 'b', 1, 1);"
		"INSERT INTO recommendations (id, run_id, source_node, interface, weights, score, "
		"gain, gain_ci_low, gain_ci_high, baseline, action, score_ci_low, score_ci_high, "
		"score_n, action_why) VALUES (7, 1, 0, 'upstream', '0:3,1:1', 3e10, 0.02, -0.01, "
		"0.05, 'auto mode', 'keep_auto', 2.9e10, 3.1e10, 6, 'within noise of auto mode');");
	struct tt_weights w;
	json_t *run, *rec, *recipe;
	(void)state;

	assert_int_equal(tt_db_run_get(db, 1, &run), 0);
	rec = json_array_get(json_object_get(run, "recommendations"), 0);
	assert_string_equal(json_string_value(json_object_get(rec, "action")), "keep_auto");
	assert_string_equal(json_string_value(json_object_get(rec, "action_why")),
			    "within noise of auto mode");
	assert_string_equal(json_string_value(json_object_get(rec, "baseline")), "auto mode");
	assert_true(json_real_value(json_object_get(rec, "gain_ci_high")) == 0.05);
	assert_true(json_real_value(json_object_get(rec, "score_ci_low")) == 2.9e10);
	assert_int_equal(json_integer_value(json_object_get(rec, "score_n")), 6);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(rec, "weights"), "0")),
			 3);
	assert_null(json_object_get(rec, "recipe"));
	json_decref(run);

	assert_int_equal(tt_weights_parse("0:9,1:2", &w), 0);
	assert_int_equal(
		tt_db_recommendation_add(
			db, 1,
			&(struct tt_db_recommendation){
				.source_node = 0,
				.interface = "upstream",
				.weights = &w,
				.action = "per_source",
				.score = 2.9e11,
				.gain = 0.05,
				.gain_ci_low = NAN,
				.gain_ci_high = NAN,
				.score_ci_low = NAN,
				.score_ci_high = NAN,
				.recipe = "{\"source_node\":0,\"weights\":\"0:9,1:2\",\"nodes\":"
					  "\"0-1\","
					  "\"cpus\":\"0-47\",\"others\":[{\"source_node\":1,"
					  "\"mems\":\"1,3\"}]}" }),
		0);
	assert_int_equal(tt_db_run_get(db, 1, &run), 0);
	rec = json_array_get(json_object_get(run, "recommendations"), 1);
	assert_string_equal(json_string_value(json_object_get(rec, "action")), "per_source");
	recipe = json_object_get(rec, "recipe");
	assert_string_equal(json_string_value(json_object_get(recipe, "cpus")), "0-47");
	assert_string_equal(json_string_value(json_object_get(
				    json_array_get(json_object_get(recipe, "others"), 0), "mems")),
			    "1,3");
	json_decref(run);
	/* Not JSON: refused by the column's CHECK, nothing half-stored. */
	assert_true(tt_db_recommendation_add(
			    db, 1,
			    &(struct tt_db_recommendation){ .source_node = 0,
							    .interface = "upstream",
							    .weights = &w,
							    .action = "per_source",
							    .recipe = "{not json" }) < 0);
	tt_db_close(db);
}

/* v6 to v7 (issue 44): a trial's descheduled, cpu_share and judged. An
 * older trial was not checked for them (NULL, and its run's judged NULL);
 * a new one keeps what it was given, and its run's judged is its trials'
 * distinct verdicts. */
static void test_migrate_v6_descheduled(void **state)
{
	static const struct tt_db_trial_node nodes[] = { { 0, 1, 1, 1, 2048 } };
	struct tt_db *db =
		old_db("v6.db", 6,
		       "INSERT INTO hosts VALUES (1, 'old', 'fp', 'cpu', '{}', 1);"
		       "INSERT INTO runs VALUES (1, 'u-6', 1, 'bench', 'tiertune bench', 0, "
		       "'bandwidth:latency', '6.1', 1, 2, 'done', 0, 'old', 'b', 1, 1);"
		       "INSERT INTO trials (id, run_id, seq, kernel, mix, placement, threads, "
		       "size_bytes, lat_median_ns, validated, simulated, unstable) VALUES "
		       "(1, 1, 1, 'latency', 'MLC', 'exact', 1, 134217728, 1164.3, 1, 0, 0);");
	int64_t trial_id;
	json_t *run, *t;
	(void)state;

	assert_int_equal(tt_db_run_get(db, 1, &run), 0);
	t = json_array_get(json_object_get(run, "trials"), 0);
	assert_true(json_is_false(json_object_get(t, "unstable")));
	assert_true(json_is_null(json_object_get(t, "descheduled")));
	assert_true(json_is_null(json_object_get(t, "cpu_share")));
	assert_true(json_is_null(json_object_get(t, "judged")));
	assert_true(json_is_null(json_object_get(run, "judged")));
	json_decref(run);

	for (int i = 0; i < 2; i++)
		assert_int_equal(tt_db_trial_add(db, 1,
						 &(struct tt_db_trial){
							 .kernel = "latency",
							 .mix = "MLC",
							 .placement = "exact",
							 .threads = 1,
							 .size_bytes = 128 << 20,
							 .lat_median_ns = 1164.3,
							 .validated = true,
							 .checked = true,
							 .descheduled = i == 0,
							 .cpu_share = i == 0 ? 0.15 : NAN,
							 .judged = i == 0 ? "descheduled" : "valid",
							 .nnodes = 1,
							 .nodes = nodes },
						 &trial_id),
				 0);
	assert_int_equal(tt_db_run_get(db, 1, &run), 0);
	t = json_array_get(json_object_get(run, "trials"), 1);
	assert_true(json_is_true(json_object_get(t, "descheduled")));
	assert_true(json_real_value(json_object_get(t, "cpu_share")) == 0.15);
	assert_string_equal(json_string_value(json_object_get(t, "judged")), "descheduled");
	t = json_array_get(json_object_get(run, "trials"), 2);
	assert_true(json_is_false(json_object_get(t, "descheduled")));
	assert_true(json_is_null(json_object_get(t, "cpu_share")));
	assert_string_equal(json_string_value(json_object_get(run, "judged")), "descheduled");
	json_decref(run);
	tt_db_close(db);
}

static int first_row(json_t *row, void *ctx)
{
	json_t **out = ctx;

	if (!*out)
		*out = json_deep_copy(row);
	return 0;
}

/* Why a rebalance ended short (issue 45: a process out of reach was
 * recorded failed with no word of why): schema 9's runs.end_reason. A v8
 * file's run has it null; a rebalance recorded with one reads it back in
 * runs and in the run, and a merge carries it. */
static void test_migrate_v8_end_reason(void **state)
{
	static const char why[] = "process 42 may no longer be moved (the kernel refused: it took "
				  "other credentials)";
	struct tt_db *db =
		old_db("v8.db", 8,
		       "INSERT INTO hosts VALUES (1, 'old', 'fp', 'cpu', '{}', 1);"
		       "INSERT INTO runs VALUES (1, 'u-8', 1, 'rebalance', 'tiertune rebalance', "
		       "-1, 'pid 42 (a)', '6.1', 1, 2, 'failed', 0, 'old', 'b', 1, 1);");
	uint64_t pages[TT_MAX_NODES] = { 2 };
	struct tt_db_sample moves[] = { { .collector = "rebalance",
					  .metric = "process_unreachable",
					  .node = -1,
					  .value = 1 } };
	struct tt_weights w;
	uint64_t want[TT_MAX_NODES] = { 1, 1 };
	int64_t id;
	json_t *run, *row = NULL;
	char merged[600];
	struct tt_db *m;
	struct tt_db_merge_stats st;
	char *files[1];
	(void)state;

	assert_int_equal(tt_db_run_get(db, 1, &run), 0);
	assert_true(json_is_null(json_object_get(run, "end_reason")));
	json_decref(run);
	tt_weights_clear(&w);
	tt_weights_put(&w, 0, 1);
	tt_weights_put(&w, 1, 1);
	assert_int_equal(tt_db_rebalance_record(db, topo("box-r"),
						&(struct tt_db_rebalance){ .command = "tiertune "
										      "rebalance",
									   .process = "pid 42 (a)",
									   .weights = &w,
									   .want = want,
									   .before = pages,
									   .after = pages,
									   .before_total = 2,
									   .after_total = 2,
									   .moves = moves,
									   .nmoves = 1,
									   .end_reason = why },
						&id),
			 0);
	assert_int_equal(tt_db_run_get(db, id, &run), 0);
	assert_string_equal(json_string_value(json_object_get(run, "end_reason")), why);
	assert_string_equal(json_string_value(json_object_get(run, "status")), "failed");
	json_decref(run);
	assert_int_equal(tt_db_runs(db, "box-r", 1, first_row, &row), 0);
	assert_non_null(row);
	assert_string_equal(json_string_value(json_object_get(row, "end_reason")), why);
	json_decref(row);
	tt_db_close(db);

	snprintf(merged, sizeof(merged), "%s/merged-v9.db", dir);
	assert_int_equal(tt_db_open(&m, merged, 0), 0);
	snprintf(merged, sizeof(merged), "%s/v8.db", dir);
	files[0] = merged;
	assert_int_equal(tt_db_merge(m, files, 1, &st), 0);
	assert_int_equal(st.runs_added, 2);
	row = NULL;
	assert_int_equal(tt_db_runs(m, "box-r", 1, first_row, &row), 0);
	assert_non_null(row);
	assert_string_equal(json_string_value(json_object_get(row, "end_reason")), why);
	json_decref(row);
	tt_db_close(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_samples_bulk),
		cmocka_unit_test(test_interrupted),
		cmocka_unit_test(test_reader_beside_writer),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_strings_are_parameters),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_migrate_v1),
		cmocka_unit_test(test_migrate_v2_app_trials),
		cmocka_unit_test(test_migrate_v3_actions),
		cmocka_unit_test(test_migrate_v4_judgements),
		cmocka_unit_test(test_migrate_v5_per_source),
		cmocka_unit_test(test_migrate_v6_descheduled),
		cmocka_unit_test(test_migrate_v8_end_reason),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
