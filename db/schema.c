// SPDX-License-Identifier: GPL-3.0-or-later
/* The schema as forward migrations: migrations[i] takes a database from
 * user_version i to i + 1. To change the schema: 1. append a migration
 * (never edit a released one); 2. raise TT_DB_SCHEMA_VERSION in db.h;
 * 3. add the old version to the migration test's table. */
#include "schema.h"

#include "db.h"

/* Times are Unix seconds (REAL) except samples.t_s, the collector's
 * monotonic clock. Shares are fractions of 1; bandwidth bytes/s; latency ns. */
static const char v1[] =
	"CREATE TABLE hosts ("
	"  id INTEGER PRIMARY KEY,"
	"  hostname TEXT NOT NULL,"
	"  fingerprint TEXT NOT NULL,"
	"  cpu_model TEXT NOT NULL,"
	"  layout TEXT NOT NULL," /* JSON: nodes, memory, tiers, HMAT */
	"  created REAL NOT NULL,"
	"  UNIQUE (hostname, fingerprint));"
	"CREATE TABLE runs ("
	"  id INTEGER PRIMARY KEY,"
	"  uuid TEXT NOT NULL UNIQUE,"
	"  host_id INTEGER NOT NULL REFERENCES hosts(id),"
	"  kind TEXT NOT NULL,"
	"  command TEXT NOT NULL,"
	"  source_node INTEGER,"
	"  objective TEXT,"
	"  kernel_release TEXT NOT NULL,"
	"  started REAL NOT NULL,"
	"  finished REAL,"
	"  status TEXT NOT NULL CHECK (status IN ('running','done','failed','interrupted')),"
	"  simulated INTEGER NOT NULL CHECK (simulated IN (0,1)),"
	"  proc_host TEXT NOT NULL," /* uname nodename of the process */
	"  boot_id TEXT NOT NULL,"
	"  pid INTEGER NOT NULL,"
	"  pid_start INTEGER NOT NULL);" /* /proc/PID/stat starttime: pids are reused */
	"CREATE INDEX runs_started ON runs(started);"
	"CREATE TABLE trials ("
	"  id INTEGER PRIMARY KEY,"
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  seq INTEGER NOT NULL,"
	"  kernel TEXT NOT NULL,"
	"  mix TEXT,"
	"  placement TEXT NOT NULL,"
	"  threads INTEGER NOT NULL,"
	"  size_bytes INTEGER NOT NULL,"
	"  bw_bytes_s REAL, bw_median_bytes_s REAL, bw_min_bytes_s REAL,"
	"  lat_ns REAL, lat_min_ns REAL, lat_max_ns REAL,"
	"  validated INTEGER NOT NULL CHECK (validated IN (0,1)),"
	"  simulated INTEGER NOT NULL CHECK (simulated IN (0,1)),"
	"  UNIQUE (run_id, seq));"
	"CREATE TABLE trial_nodes ("
	"  trial_id INTEGER NOT NULL REFERENCES trials(id) ON DELETE CASCADE,"
	"  node INTEGER NOT NULL,"
	"  weight INTEGER,"
	"  requested_share REAL NOT NULL,"
	"  achieved_share REAL NOT NULL,"
	"  pages INTEGER NOT NULL,"
	"  PRIMARY KEY (trial_id, node));"
	"CREATE TABLE samples ("
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  trial_id INTEGER REFERENCES trials(id) ON DELETE CASCADE,"
	"  t_s REAL NOT NULL,"
	"  collector TEXT NOT NULL,"
	"  metric TEXT NOT NULL,"
	"  node INTEGER,"
	"  value REAL NOT NULL,"
	"  simulated INTEGER NOT NULL CHECK (simulated IN (0,1)));" /* a model's, not measured */
	"CREATE INDEX samples_run ON samples(run_id, trial_id);"
	"CREATE TABLE recommendations ("
	"  id INTEGER PRIMARY KEY,"
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  source_node INTEGER NOT NULL,"
	"  interface TEXT NOT NULL,"
	"  weights TEXT NOT NULL," /* "0:5,1:2" */
	"  score REAL, gain REAL, gain_ci_low REAL, gain_ci_high REAL,"
	"  baseline TEXT);"
	"CREATE TABLE apply_log ("
	"  id INTEGER PRIMARY KEY,"
	"  uuid TEXT NOT NULL UNIQUE,"
	"  host_id INTEGER NOT NULL REFERENCES hosts(id),"
	"  run_id INTEGER REFERENCES runs(id),"
	"  t REAL NOT NULL,"
	"  interface TEXT NOT NULL,"
	"  file TEXT NOT NULL,"
	"  old_value TEXT,"
	"  new_value TEXT,"
	"  outcome TEXT NOT NULL);";

/* v2: a trial's figures say which pass they are. v1 stored the best pass's
 * bandwidth as bw_bytes_s but the median latency as lat_ns (the best as
 * lat_min_ns), and `runs` called the least of those medians "best". The
 * renames keep every stored value with what it always was. The hosts'
 * layouts carry HMAT bandwidth in bytes/s, as everything else does (the
 * ABI's MB/s, 10^6 bytes), and a node's CPU count as ncpus (cpus is a
 * list of CPUs in every other document). */
static const char v2[] =
	"ALTER TABLE trials RENAME COLUMN bw_bytes_s TO bw_best_bytes_s;"
	"ALTER TABLE trials RENAME COLUMN lat_ns TO lat_median_ns;"
	"ALTER TABLE trials RENAME COLUMN lat_min_ns TO lat_best_ns;"
	"UPDATE hosts SET layout = json_set(layout, '$.nodes', (SELECT json_group_array("
	"  CASE WHEN json_type(n.value, '$.hmat') = 'object' THEN json_set(n.value, '$.hmat',"
	"    json_object('read_bw_bytes_s', json_extract(n.value, '$.hmat.read_bw_mb_s') * 1000000,"
	"      'write_bw_bytes_s', json_extract(n.value, '$.hmat.write_bw_mb_s') * 1000000,"
	"      'read_lat_ns', json_extract(n.value, '$.hmat.read_lat_ns'),"
	"      'write_lat_ns', json_extract(n.value, '$.hmat.write_lat_ns')))"
	"  ELSE json(n.value) END) FROM json_each(hosts.layout, '$.nodes') n))"
	"  WHERE json_valid(layout) AND json_type(layout, '$.nodes') = 'array';"
	"UPDATE hosts SET layout = json_set(layout, '$.nodes', (SELECT json_group_array("
	"  json_set(json_remove(n.value, '$.cpus'), '$.ncpus', json_extract(n.value, '$.cpus')))"
	"  FROM json_each(hosts.layout, '$.nodes') n))"
	"  WHERE json_valid(layout) AND json_type(layout, '$.nodes') = 'array';";

/* v3: app mode's trials (auto -- COMMAND) are scored by the program, not a
 * bench kernel: its wall time in seconds, or the number its --metric
 * matches and which way is better. Their own columns, so that no bandwidth
 * or latency column ever holds another unit; NULL for bench trials. Best is
 * the best run (the shortest, the best metric), as for passes. */
static const char v3[] = "ALTER TABLE trials ADD COLUMN time_best_s REAL;"
			 "ALTER TABLE trials ADD COLUMN time_median_s REAL;"
			 "ALTER TABLE trials ADD COLUMN time_max_s REAL;"
			 "ALTER TABLE trials ADD COLUMN metric_best REAL;"
			 "ALTER TABLE trials ADD COLUMN metric_median REAL;"
			 "ALTER TABLE trials ADD COLUMN metric_worst REAL;"
			 "ALTER TABLE trials ADD COLUMN metric_higher_is_better INTEGER"
			 "  CHECK (metric_higher_is_better IN (0,1));";

/* v4: what a run's figures can be trusted for, and what its recommendation
 * says to do. A recommendation is an action: apply its weights, keep the
 * kernel's auto mode (the best was not significantly better), or bind to
 * local memory (interleaving was not better than local alone); older rows
 * were all "apply". Its score carries the interval it was ranked by, so a
 * headline can name the recommendation's mean and not one lucky pass.
 * A bench trial says which last-level cache its working set was held to
 * and whether it fitted there (under 4x, STREAM's rule) or had passes too
 * short to time (under 20 clock ticks): such figures measure the cache or
 * the clock, not memory. NULL: not checked (app mode, older rows). */
static const char v4[] =
	"ALTER TABLE recommendations ADD COLUMN action TEXT NOT NULL DEFAULT 'apply'"
	"  CHECK (action IN ('apply','keep_auto','bind_local'));"
	"ALTER TABLE recommendations ADD COLUMN score_ci_low REAL;"
	"ALTER TABLE recommendations ADD COLUMN score_ci_high REAL;"
	"ALTER TABLE recommendations ADD COLUMN score_n INTEGER;"
	"ALTER TABLE trials ADD COLUMN llc_bytes INTEGER;"
	"ALTER TABLE trials ADD COLUMN cache_resident INTEGER CHECK (cache_resident IN (0,1));"
	"ALTER TABLE trials ADD COLUMN short_pass INTEGER CHECK (short_pass IN (0,1));";

/* v5: what a trial's figures can be trusted for, said only where true
 * (issue 34). v4's cache_resident was STREAM's rule (each array under 4x
 * the cache), which is not residence: 3 GiB touched a pass beside a
 * 300 MiB L3 was called cache-resident. It moves to below_llc_rule, and
 * cache_resident (all a pass touches fits in the cache) is known for an
 * older row only where it was not below the rule or where one array alone
 * outgrows the cache (then no), else NULL: not known. unstable: the passes
 * spread, or a loaded-latency curve was not monotone (NULL: not checked).
 * The pages that backed the buffers: the base page size, whether THP was
 * asked, and the share of the buffers on huge pages (NULL: not read).
 * A recommendation that keeps what the machine has says why in the
 * report's words (action_why; NULL: older rows, or apply). */
static const char v5[] =
	"ALTER TABLE trials ADD COLUMN below_llc_rule INTEGER CHECK (below_llc_rule IN (0,1));"
	"ALTER TABLE trials ADD COLUMN unstable INTEGER CHECK (unstable IN (0,1));"
	"ALTER TABLE trials ADD COLUMN page_bytes INTEGER;"
	"ALTER TABLE trials ADD COLUMN thp_requested INTEGER CHECK (thp_requested IN (0,1));"
	"ALTER TABLE trials ADD COLUMN huge_page_share REAL;"
	"ALTER TABLE recommendations ADD COLUMN action_why TEXT;"
	"UPDATE trials SET below_llc_rule = cache_resident, cache_resident = CASE WHEN "
	"  cache_resident = 0 OR size_bytes > llc_bytes THEN 0 ELSE NULL END"
	"  WHERE llc_bytes IS NOT NULL;";

/* v6 (issue 33): a recommendation may be per_source: the source's best
 * weights cost another CPU node beyond the noise, so nothing global is to
 * be written, and the run's advice is a per-socket launch recipe, kept as
 * the report gives it (recipe, JSON: source_node, its cpus, the weights and
 * their nodes, each other source's local memory nodes; NULL for the other
 * actions). SQLite cannot change a column's CHECK, so the table is built
 * anew and its rows copied whole, ids kept (nothing references them). */
static const char v6[] =
	"CREATE TABLE recommendations_v6 ("
	"  id INTEGER PRIMARY KEY,"
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  source_node INTEGER NOT NULL,"
	"  interface TEXT NOT NULL,"
	"  weights TEXT NOT NULL,"
	"  score REAL, gain REAL, gain_ci_low REAL, gain_ci_high REAL,"
	"  baseline TEXT,"
	"  action TEXT NOT NULL DEFAULT 'apply'"
	"    CHECK (action IN ('apply','keep_auto','bind_local','per_source')),"
	"  score_ci_low REAL, score_ci_high REAL, score_n INTEGER,"
	"  action_why TEXT,"
	"  recipe TEXT CHECK (recipe IS NULL OR json_valid(recipe)));"
	"INSERT INTO recommendations_v6 (id, run_id, source_node, interface, weights, score, "
	"  gain, gain_ci_low, gain_ci_high, baseline, action, score_ci_low, score_ci_high, "
	"  score_n, action_why) SELECT id, run_id, source_node, interface, weights, score, "
	"  gain, gain_ci_low, gain_ci_high, baseline, action, score_ci_low, score_ci_high, "
	"  score_n, action_why FROM recommendations;"
	"DROP TABLE recommendations;"
	"ALTER TABLE recommendations_v6 RENAME TO recommendations;";

/* v7 (issue 44): whether a bench trial's measuring threads ran through
 * its passes: descheduled (a thread ran under 90% of the median pass, or
 * steal took more; NULL: not checked, as unstable), the median pass's
 * least share of CPU time (cpu_share, 0..1; NULL: not measured), and the
 * verdict in bench's words (judged: "valid", "descheduled, unstable"...;
 * NULL: recorded before, or not a bench trial). */
static const char v7[] =
	"ALTER TABLE trials ADD COLUMN descheduled INTEGER CHECK (descheduled IN (0,1));"
	"ALTER TABLE trials ADD COLUMN cpu_share REAL;"
	"ALTER TABLE trials ADD COLUMN judged TEXT;";

/* v8 (issue 43): a recommendation may keep the weights set now (keep_now:
 * the best did not beat them beyond the noise); the table built anew as in
 * v6, rows copied whole. */
static const char v8[] =
	"CREATE TABLE recommendations_v8 ("
	"  id INTEGER PRIMARY KEY,"
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  source_node INTEGER NOT NULL,"
	"  interface TEXT NOT NULL,"
	"  weights TEXT NOT NULL,"
	"  score REAL, gain REAL, gain_ci_low REAL, gain_ci_high REAL,"
	"  baseline TEXT,"
	"  action TEXT NOT NULL DEFAULT 'apply'"
	"    CHECK (action IN ('apply','keep_auto','bind_local','per_source','keep_now')),"
	"  score_ci_low REAL, score_ci_high REAL, score_n INTEGER,"
	"  action_why TEXT,"
	"  recipe TEXT CHECK (recipe IS NULL OR json_valid(recipe)));"
	"INSERT INTO recommendations_v8 SELECT id, run_id, source_node, interface, weights, "
	"  score, gain, gain_ci_low, gain_ci_high, baseline, action, score_ci_low, "
	"  score_ci_high, score_n, action_why, recipe FROM recommendations;"
	"DROP TABLE recommendations;"
	"ALTER TABLE recommendations_v8 RENAME TO recommendations;";

/* v9 (issue 45): why a run ended as it did, in the report's words, where
 * its status alone does not say (a rebalance whose process exited or may
 * no longer be moved, a full node, an error midway; NULL: nothing to add,
 * or recorded before). */
static const char v9[] = "ALTER TABLE runs ADD COLUMN end_reason TEXT;";

const char *const tt_db_migrations[] = { v1, v2, v3, v4, v5, v6, v7, v8, v9 };
const int tt_db_nmigrations = sizeof(tt_db_migrations) / sizeof(tt_db_migrations[0]);

_Static_assert(sizeof(tt_db_migrations) / sizeof(tt_db_migrations[0]) == TT_DB_SCHEMA_VERSION,
	       "one migration per schema version");
