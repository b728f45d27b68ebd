// SPDX-License-Identifier: GPL-3.0-or-later
#define _GNU_SOURCE /* getrandom, syscall */
#include "db.h"
#include "json.h"

#include "../core/apply.h"
#include "../core/error.h"
#include "../core/proc.h"
#include "../core/state.h"
#include "../core/wi.h"
#include "schema.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

struct tt_db {
	sqlite3 *h;
	char path[4096];
	int interrupted;
	bool readonly;
	bool immutable; /* opened with immutable=1: see open_readonly() */
};

const char *const tt_run_status_names[] = { "running", "done", "failed", "interrupted" };

/* How long a writer or reader waits for the other before giving up. Every
 * transaction here is short (one trial, one batch of samples), so this is
 * only reached by a stuck process. */
#define BUSY_MS 10000

static int db_fail(struct tt_db *db, const char *what)
{
	int code = sqlite3_errcode(db->h);
	int status = TT_EFAIL;

	if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT)
		status = TT_EINPUT;
	return tt_err(status, "database '%s': %s: %s", db->path, what, sqlite3_errmsg(db->h));
}

static int exec(struct tt_db *db, const char *sql)
{
	if (sqlite3_exec(db->h, sql, NULL, NULL, NULL) != SQLITE_OK)
		return db_fail(db, sql);
	return 0;
}

static int prepare(struct tt_db *db, sqlite3_stmt **st, const char *sql)
{
	if (sqlite3_prepare_v2(db->h, sql, -1, st, NULL) != SQLITE_OK)
		return db_fail(db, "preparing a statement");
	return 0;
}

/* Steps a statement that returns no row (or ignores them) and finalizes it. */
static int step_done(struct tt_db *db, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st);

	while (rc == SQLITE_ROW)
		rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_fail(db, what);
}

static void rollback(struct tt_db *db)
{
	if (!sqlite3_get_autocommit(db->h))
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
}

/* Ends the transaction a writer began: COMMIT when rc is 0 (its message
 * recorded otherwise), else ROLLBACK, so a failure leaves nothing behind. */
static int end_tx(struct tt_db *db, sqlite3_stmt *st, int rc)
{
	sqlite3_finalize(st);
	if (rc == 0 && exec(db, "COMMIT") == 0)
		return 0;
	rollback(db);
	return TT_EFAIL;
}

static double wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

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

enum file_state { FILE_OK, FILE_MISSING, FILE_EMPTY };

/* Before sqlite sees a file: is it a whole sqlite database? sqlite would
 * say "file is not a database" only at the first read, and on a file cut
 * short it answers queries until one reaches a missing page. Returns an
 * enum file_state or a negative status. */
static int check_file(const char *path)
{
	unsigned char h[100];
	struct stat sb;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return FILE_MISSING;
		return tt_err_sys(errno == EACCES || errno == EPERM ? TT_EUNAVAIL : TT_EFAIL, errno,
				  "cannot open database '%s'", path);
	}
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		return tt_err(TT_EINPUT, "database '%s' is not a regular file", path);
	}
	if (sb.st_size == 0) {
		close(fd);
		return FILE_EMPTY; /* sqlite treats an empty file as a new database */
	}
	ssize_t got = read(fd, h, sizeof(h));
	close(fd);
	if (got < (ssize_t)sizeof(h) || memcmp(h, "SQLite format 3", 16) != 0)
		return tt_err(TT_EINPUT, "'%s' is not a sqlite database", path);
	uint32_t page = (uint32_t)h[16] << 8 | h[17];
	uint32_t pages =
		(uint32_t)h[28] << 24 | (uint32_t)h[29] << 16 | (uint32_t)h[30] << 8 | h[31];

	if (page == 1)
		page = 65536;
	/* The in-header size is valid when the change counter matches the
	 * version-valid-for number (sqlite's file format, section 1.3.7). With
	 * a -wal file beside it a checkpoint may be growing the file right now,
	 * header first, so only a database at rest is measured. */
	char wal[4200];
	snprintf(wal, sizeof(wal), "%s-wal", path);
	bool valid = memcmp(h + 24, h + 92, 4) == 0 && pages > 0 && access(wal, F_OK) < 0;
	if (page < 512 || (page & (page - 1)) || (uint64_t)sb.st_size % page ||
	    (valid && (uint64_t)sb.st_size < (uint64_t)pages * page))
		return tt_err(TT_EINPUT,
			      "database '%s' is truncated or damaged: %jd bytes, the "
			      "header says %ju pages of %u bytes",
			      path, (intmax_t)sb.st_size, (uintmax_t)pages, page);
	return FILE_OK;
}

/* sqlite's URI form of a path with a query string: '%', '?' and '#' would
 * otherwise end or escape the path. */
static int file_uri(const char *path, const char *query, char *out, size_t size)
{
	size_t o = 0;
	int n = snprintf(out, size, "file:");

	o = (size_t)n;
	for (const char *p = path; *p; p++) {
		if (o + 4 >= size)
			return tt_err(TT_EINPUT, "database path '%.64s...' is too long", path);
		if (*p == '%' || *p == '?' || *p == '#')
			o += (size_t)snprintf(out + o, size - o, "%%%02X", (unsigned char)*p);
		else
			out[o++] = *p;
	}
	if ((size_t)snprintf(out + o, size - o, "%s", query) >= size - o)
		return tt_err(TT_EINPUT, "database path '%.64s...' is too long", path);
	return 0;
}

/* Does path-wal hold frames, i.e. commits not yet in the main file? */
static bool wal_has_frames(const char *path)
{
	char wal[4200];
	struct stat sb;

	snprintf(wal, sizeof(wal), "%s-wal", path);
	return stat(wal, &sb) == 0 && sb.st_size > 0;
}

/* Created 0700 by the one function that makes tiertune's folders, so that
 * /var/lib/tiertune is the same whichever command makes it first. */
static int make_dirs(const char *path)
{
	char dir[4096], *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	return tt_state_mkdirs(dir);
}

int tt_db_default_path(char *buf, size_t size)
{
	const char *env = getenv("TIERTUNE_DB");
	char dir[4096];
	int n, rc;

	if (env && *env) {
		n = snprintf(buf, size, "%s", env);
	} else {
		rc = tt_state_dir(TT_DIR_DATA, dir, sizeof(dir));
		if (rc < 0) {
			tt_err_hint("or set TIERTUNE_DB, or pass --db");
			return rc;
		}
		n = snprintf(buf, size, "%s/tiertune.db", dir);
	}
	if (n < 0 || (size_t)n >= size)
		return tt_err(TT_EINPUT, "database path is too long");
	return 0;
}

static int user_version(struct tt_db *db, const char *schema, int *v)
{
	char sql[64];
	sqlite3_stmt *st;
	int rc;

	snprintf(sql, sizeof(sql), "PRAGMA %s.user_version", schema);
	if (prepare(db, &st, sql) < 0)
		return TT_EFAIL;
	rc = sqlite3_step(st);
	*v = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : db_fail(db, "reading the schema version");
}

static int migrate(struct tt_db *db, int from)
{
	char sql[64];

	/* IMMEDIATE: two first uses at once must not both build the schema. */
	if (exec(db, "BEGIN IMMEDIATE") < 0)
		return TT_EFAIL;
	if (user_version(db, "main", &from) < 0)
		goto fail;
	for (int v = from; v < tt_db_nmigrations; v++) {
		if (sqlite3_exec(db->h, tt_db_migrations[v], NULL, NULL, NULL) != SQLITE_OK) {
			db_fail(db, "migrating");
			tt_err_prefix("schema version %d to %d", v, v + 1);
			goto fail;
		}
	}
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", tt_db_nmigrations);
	if (exec(db, sql) < 0 || exec(db, "COMMIT") < 0)
		goto fail;
	return 0;
fail:
	rollback(db);
	return TT_EFAIL;
}

/* SQL tt_gone(proc_host, boot_id, pid, pid_start): 1 for a run of this
 * machine whose process is gone (another boot, or the pid reused or
 * free), 0 for a live one or another machine's, which cannot be told. The
 * one rule for "interrupted": writers store it, readers show it. */
static void sql_gone(sqlite3_context *cx, int argc, sqlite3_value **v)
{
	const char *host = (const char *)sqlite3_value_text(v[0]);
	const char *b = (const char *)sqlite3_value_text(v[1]);
	struct utsname u;
	char boot[64];

	(void)argc;
	uname(&u);
	if (!host || strcmp(host, u.nodename) != 0) {
		sqlite3_result_int(cx, 0);
		return;
	}
	tt_proc_boot_id(boot, sizeof(boot));
	sqlite3_result_int(
		cx, !(b && strcmp(b, boot) == 0 &&
		      tt_proc_alive((pid_t)sqlite3_value_int64(v[2]), sqlite3_value_int64(v[3]))));
}

static void setup_handle(struct tt_db *db)
{
	sqlite3_busy_timeout(db->h, BUSY_MS);
	sqlite3_extended_result_codes(db->h, 0);
	sqlite3_create_function(db->h, "tt_gone", 4, SQLITE_UTF8, NULL, sql_gone, NULL, NULL);
}

#define GONE "r.status = 'running' AND tt_gone(r.proc_host, r.boot_id, r.pid, r.pid_start)"

/* Runs of this machine left "running" by a process that is gone: marked
 * interrupted by a writer, only counted by a reader (whose queries show
 * them as interrupted all the same, through tt_gone). */
static int mark_interrupted(struct tt_db *db, bool write)
{
	sqlite3_stmt *st;
	int rc;

	if (prepare(db, &st,
		    write ? "UPDATE runs AS r SET status = 'interrupted', finished = ? "
			    "WHERE " GONE
			  : "SELECT count(*) FROM runs r WHERE " GONE) < 0)
		return TT_EFAIL;
	if (write)
		sqlite3_bind_double(st, 1, wall_now());
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		db->interrupted = sqlite3_column_int(st, 0);
	else if (rc == SQLITE_DONE)
		db->interrupted = sqlite3_changes(db->h);
	sqlite3_finalize(st);
	if (rc != (write ? SQLITE_DONE : SQLITE_ROW))
		return db_fail(db, "marking interrupted runs");
	return 0;
}

/* Readers open read-only and create nothing: not the database, not its
 * folder. To read a WAL database sqlite needs its -shm file, which it makes
 * when it is missing (sqlite.org/wal.html, "Read-Only Databases"); in a
 * read-only folder or on a full disk it cannot, and the first read fails
 * with CANTOPEN or IOERR (both seen with sqlite 3.40). When the -wal holds
 * no frames every commit is in the main file, and immutable=1 reads it
 * without a -shm. No writer can change it meanwhile: a commit goes into the
 * -wal first, which the same folder or full disk refuses, and a checkpoint
 * only copies frames that are there. */
static int open_readonly(struct tt_db *db, int *version)
{
	char uri[8300];
	bool frames = wal_has_frames(db->path);
	int rc = 0;

	for (int immutable = 0; immutable < 2; immutable++) {
		rc = file_uri(db->path, immutable ? "?mode=ro&immutable=1" : "?mode=ro", uri,
			      sizeof(uri));
		if (rc < 0)
			return rc;
		rc = sqlite3_open_v2(uri, &db->h,
				     SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI,
				     NULL);
		if (rc != SQLITE_OK)
			return tt_err(TT_EFAIL, "cannot open database '%s': %s", db->path,
				      sqlite3_errstr(rc));
		setup_handle(db);
		rc = user_version(db, "main", version);
		if (rc == 0) {
			db->readonly = true;
			db->immutable = immutable;
			return 0;
		}
		int code = sqlite3_errcode(db->h);

		if (immutable || frames || (code != SQLITE_CANTOPEN && code != SQLITE_IOERR))
			break;
		sqlite3_close(db->h);
		db->h = NULL;
	}
	if (frames)
		tt_err_hint("its -wal file holds commits that sqlite can only read with a -shm "
			    "file beside it, which this folder refuses");
	return rc;
}

/* Open flag of our own: the database being created under a temporary name. */
enum { CREATING = 1u << 30 };

/* A missing database is made whole under a temporary name beside it (schema
 * and all) and linked into place, which fails if another first writer got
 * there first: then theirs is used. So no writer ever opens one half made
 * (empty, or without its tables). */
static int create_whole(const char *path, unsigned int flags)
{
	char tmp[PATH_MAX];
	struct tt_db *db;
	int rc;

	if (snprintf(tmp, sizeof(tmp), "%s.new-%ld", path, (long)getpid()) >= (int)sizeof(tmp))
		return tt_err(TT_EINPUT, "database path '%.64s...' is too long", path);
	unlink(tmp);
	rc = tt_db_open(&db, tmp, flags | CREATING);
	if (rc < 0) {
		unlink(tmp);
		return rc;
	}
	tt_db_close(db);
	if (link(tmp, path) < 0 && errno != EEXIST) {
		rc = tt_err_sys(TT_EFAIL, errno, "cannot create database '%s'", path);
		unlink(tmp);
		return rc;
	}
	unlink(tmp);
	return 0;
}

int tt_db_open(struct tt_db **out, const char *path, unsigned int flags)
{
	struct tt_db *db;
	int rc, version = 0, exists, oflags;

	*out = NULL;
	/* sqlite would open "" as a private temporary database: a run recorded
	 * there is lost, and a reader would show an empty one. */
	if (!*path)
		return tt_err(TT_EINPUT, "database path '' is empty");
	db = calloc(1, sizeof(*db));
	if (!db)
		return tt_err(TT_EFAIL, "out of memory");
	if (snprintf(db->path, sizeof(db->path), "%s", path) >= (int)sizeof(db->path)) {
		free(db);
		return tt_err(TT_EINPUT, "database path '%.64s...' is too long", path);
	}
	rc = check_file(path);
	if (rc < 0) {
		free(db);
		return rc;
	}
	exists = rc != FILE_MISSING;
	/* sqlite takes an empty file for an empty database and would make it
	 * one; a file that exists is the user's, not ours to fill. */
	if (rc == FILE_EMPTY) {
		rc = tt_err(TT_EINPUT, "database '%s' is empty (0 bytes), not a tiertune database",
			    path);
		tt_err_hint("remove it, or give another --db");
		goto fail;
	}
	if (flags & TT_DB_READONLY) {
		if (rc == FILE_MISSING)
			rc = tt_err(TT_EINPUT, "database '%s' does not exist", path);
		else
			rc = open_readonly(db, &version);
		if (rc < 0)
			goto fail;
		goto opened;
	}
	if (!exists && (rc = make_dirs(path)) < 0) {
		free(db);
		return rc;
	}
	if (!exists && !(flags & CREATING)) {
		free(db);
		rc = create_whole(path, flags);
		return rc < 0 ? rc : tt_db_open(out, path, flags);
	}
	oflags = SQLITE_OPEN_READWRITE | (exists ? 0 : SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX |
		 SQLITE_OPEN_URI;
	rc = sqlite3_open_v2(path, &db->h, oflags, NULL);
	if (rc == SQLITE_READONLY || (rc == SQLITE_CANTOPEN && exists)) {
		/* A reader may still read what it cannot write. */
		sqlite3_close(db->h);
		db->readonly = true;
		rc = sqlite3_open_v2(path, &db->h, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
	}
	if (rc != SQLITE_OK) {
		int err = errno;

		rc = tt_err(TT_EFAIL, "cannot %s database '%s': %s%s%s", exists ? "open" : "create",
			    path, sqlite3_errstr(rc), err ? ": " : "", err ? strerror(err) : "");
		goto fail;
	}
	setup_handle(db);
	rc = user_version(db, "main", &version);
	if (rc < 0)
		goto fail;
opened:
	if (version > TT_DB_SCHEMA_VERSION) {
		rc = tt_err(TT_EINPUT,
			    "database '%s' has schema version %d, newer than this "
			    "tiertune's %d; it was left as it is",
			    path, version, TT_DB_SCHEMA_VERSION);
		tt_err_hint("use the tiertune that wrote it, or a newer one");
		goto fail;
	}
	if (version > 0) {
		/* A database of ours has our tables; another program's has not. */
		sqlite3_stmt *st;
		int n = 0;

		rc = prepare(db, &st,
			     "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
			     "name IN ('hosts','runs','trials')");
		if (rc < 0)
			goto fail;
		if (sqlite3_step(st) == SQLITE_ROW)
			n = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
		if (n != 3) {
			rc = tt_err(TT_EINPUT, "'%s' is a sqlite database but not a tiertune one",
				    path);
			goto fail;
		}
	} else if (exists) {
		sqlite3_stmt *st;
		int n = 0;

		rc = prepare(db, &st, "SELECT count(*) FROM sqlite_master");
		if (rc < 0)
			goto fail;
		if (sqlite3_step(st) == SQLITE_ROW)
			n = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
		if (n) {
			rc = tt_err(TT_EINPUT, "'%s' is a sqlite database but not a tiertune one",
				    path);
			goto fail;
		}
	}
	rc = exec(db, "PRAGMA foreign_keys = ON");
	if (rc < 0)
		goto fail;
	if (db->readonly || (flags & TT_DB_READONLY)) {
		if (version < TT_DB_SCHEMA_VERSION) {
			rc = tt_err(TT_EINPUT,
				    "database '%s' has schema version %d and is read-only "
				    "here, so it cannot be brought to version %d",
				    path, version, TT_DB_SCHEMA_VERSION);
			tt_err_hint("bring it forward once with 'tiertune db migrate --db %s'",
				    path);
			goto fail;
		}
		if ((rc = mark_interrupted(db, false)) < 0)
			goto fail;
		*out = db;
		return 0;
	}
	/* WAL: readers never block the writer nor the writer them; NORMAL
	 * sync is durable across a crash of the process (not of the OS) and
	 * consistent across both. */
	if ((rc = exec(db, "PRAGMA journal_mode = WAL")) < 0 ||
	    (rc = exec(db, "PRAGMA synchronous = NORMAL")) < 0)
		goto fail;
	if (version < TT_DB_SCHEMA_VERSION && (rc = migrate(db, version)) < 0)
		goto fail;
	if ((rc = mark_interrupted(db, true)) < 0)
		goto fail;
	*out = db;
	return 0;
fail:
	sqlite3_close(db->h);
	free(db);
	return rc;
}

void tt_db_close(struct tt_db *db)
{
	if (!db)
		return;
	sqlite3_close(db->h);
	free(db);
}

const char *tt_db_path(const struct tt_db *db)
{
	return db->path;
}

int tt_db_interrupted(const struct tt_db *db)
{
	return db->interrupted;
}

bool tt_db_readonly(const struct tt_db *db)
{
	return db->readonly;
}

static json_t *layout_json(const struct tt_topo *t)
{
	json_t *nodes = json_array();

	for (int i = 0; i < t->nnodes; i++) {
		const struct tt_node *n = &t->nodes[i];
		const struct tt_hmat *a = &n->access[n->access[1].present ? 1 : 0];
		json_t *o = json_pack("{s:i,s:i,s:I,s:i}", "node", n->id, "ncpus", n->ncpus,
				      "mem_total_bytes", (json_int_t)n->mem_total_bytes, "tier",
				      n->tier);

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
	if (prepare(db, &st,
		    "SELECT r.id FROM runs r JOIN hosts h ON h.id = r.host_id "
		    "WHERE h.hostname = ? AND h.fingerprint = ? AND r.status = 'done' "
		    "AND r.simulated = 0 AND r.objective LIKE 'matrix:%' "
		    "ORDER BY r.started DESC, r.id DESC LIMIT 1") < 0)
		return TT_EFAIL;
	bind_text(st, 1, t->hostname[0] ? t->hostname : "unknown");
	bind_text(st, 2, fp);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*run_id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		return tt_err(TT_EUNAVAIL, "no matrix run of this machine in the database");
	if (rc != SQLITE_ROW)
		return db_fail(db, "looking up the matrix run");
	/* record_matrix (tuner/trial.c) names each row's CPU node in its mix. */
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

int tt_db_trial_add(struct tt_db *db, int64_t run_id, const struct tt_db_trial *t,
		    int64_t *trial_id)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (exec(db, "BEGIN IMMEDIATE") < 0)
		return TT_EFAIL;
	if (prepare(db, &st,
		    "INSERT INTO trials (run_id, seq, kernel, mix, placement, threads, "
		    "size_bytes, bw_best_bytes_s, bw_median_bytes_s, bw_min_bytes_s, "
		    "lat_best_ns, lat_median_ns, lat_max_ns, validated, simulated, time_best_s, "
		    "time_median_s, time_max_s, metric_best, metric_median, metric_worst, "
		    "metric_higher_is_better, llc_bytes, cache_resident, short_pass) VALUES (?1, "
		    "(SELECT coalesce(max(seq), 0) + 1 FROM trials WHERE run_id = ?1), ?2, ?3, "
		    "?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, "
		    "?20, ?21, ?22, ?23, ?24)") < 0)
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
	}
	/* step_done finalizes st, whatever happens. */
	rc = step_done(db, st, "recording a trial");
	st = NULL;
	if (rc < 0)
		goto fail;
	*trial_id = sqlite3_last_insert_rowid(db->h);
	if (prepare(db, &st,
		    "INSERT INTO trial_nodes (trial_id, node, weight, requested_share, "
		    "achieved_share, pages) VALUES (?, ?, ?, ?, ?, ?)") < 0)
		goto fail;
	for (int i = 0; i < t->nnodes; i++) {
		const struct tt_db_trial_node *n = &t->nodes[i];

		sqlite3_bind_int64(st, 1, *trial_id);
		sqlite3_bind_int(st, 2, n->node);
		if (n->weight)
			sqlite3_bind_int(st, 3, (int)n->weight);
		else
			sqlite3_bind_null(st, 3);
		sqlite3_bind_double(st, 4, n->requested_share);
		sqlite3_bind_double(st, 5, n->achieved_share);
		sqlite3_bind_int64(st, 6, (sqlite3_int64)n->pages);
		if (sqlite3_step(st) != SQLITE_DONE) {
			db_fail(db, "recording a trial's nodes");
			goto fail;
		}
		sqlite3_reset(st);
	}
	return end_tx(db, st, 0);
fail:
	return end_tx(db, st, TT_EFAIL);
}

int tt_db_samples_add(struct tt_db *db, int64_t run_id, int64_t trial_id,
		      const struct tt_db_sample *s, size_t n)
{
	sqlite3_stmt *st = NULL;

	if (exec(db, "BEGIN IMMEDIATE") < 0)
		return TT_EFAIL;
	if (prepare(db, &st,
		    "INSERT INTO samples (run_id, trial_id, t_s, collector, metric, node, "
		    "value, simulated) VALUES (?, ?, ?, ?, ?, ?, ?, ?)") < 0)
		goto fail;
	for (size_t i = 0; i < n; i++) {
		sqlite3_bind_int64(st, 1, run_id);
		if (trial_id)
			sqlite3_bind_int64(st, 2, trial_id);
		else
			sqlite3_bind_null(st, 2);
		sqlite3_bind_double(st, 3, s[i].t_s);
		sqlite3_bind_text(st, 4, s[i].collector, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 5, s[i].metric, -1, SQLITE_STATIC);
		if (s[i].node >= 0)
			sqlite3_bind_int(st, 6, s[i].node);
		else
			sqlite3_bind_null(st, 6);
		sqlite3_bind_double(st, 7, s[i].value);
		sqlite3_bind_int(st, 8, s[i].simulated);
		if (sqlite3_step(st) != SQLITE_DONE) {
			db_fail(db, "recording samples");
			goto fail;
		}
		sqlite3_reset(st);
	}
	return end_tx(db, st, 0);
fail:
	return end_tx(db, st, TT_EFAIL);
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
		    "score_ci_high, score_n) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)") < 0)
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
	if (a->run_id)
		sqlite3_bind_int64(st, 3, a->run_id);
	else
		sqlite3_bind_null(st, 3);
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

int tt_db_apply_record(struct tt_db *db, const struct tt_topo *t, const char *kind,
		       const char *command, const char *objective, const struct tt_apply_plan *p)
{
	int64_t host, run;
	int rc = tt_db_host(db, t, &host);

	if (rc == 0)
		rc = tt_db_run_begin(db,
				     &(struct tt_db_run){ .host_id = host,
							  .kind = kind,
							  .command = command,
							  .source_node = -1,
							  .objective = objective,
							  .kernel_release = t->kernel_release },
				     &run);
	for (int i = 0; rc == 0 && i < p->n; i++)
		rc = log_write(db, host, run, p, &p->w[i], "written");
	/* Noted for a rollback even when auto was off: nothing changed then. */
	for (int i = 0; rc == 0 && i < p->nimplied; i++)
		if (strcmp(p->implied[i].old, p->implied[i].value) != 0)
			rc = log_write(db, host, run, p, &p->implied[i], "set by the kernel");
	if (rc == 0)
		rc = tt_db_run_finish(db, run, TT_RUN_DONE);
	return rc;
}

/* The columns that hold a flag (CHECK (x IN (0,1)) in the schema): JSON
 * booleans, as every other command writes them. */
static bool flag_column(const char *name)
{
	return strcmp(name, "validated") == 0 || strcmp(name, "simulated") == 0 ||
	       strcmp(name, "metric_higher_is_better") == 0 ||
	       strcmp(name, "cache_resident") == 0 || strcmp(name, "short_pass") == 0;
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

#define RUN_COLUMNS                                                                                \
	"r.id, r.uuid, h.hostname AS host, h.fingerprint, r.kind, r.command, r.source_node, "      \
	"r.objective, r.kernel_release, r.started, r.finished, "                                   \
	"CASE WHEN " GONE " THEN 'interrupted' ELSE r.status END AS status, r.simulated, "         \
	"(SELECT count(*) FROM trials t WHERE t.run_id = r.id) AS ntrials, "                       \
	"(SELECT max(bw_best_bytes_s) FROM trials t WHERE t.run_id = r.id) AS bw_best_bytes_s, "   \
	"(SELECT min(lat_best_ns) FROM trials t WHERE t.run_id = r.id) AS lat_best_ns, "           \
	"(SELECT min(time_best_s) FROM trials t WHERE t.run_id = r.id) AS time_best_s, "           \
	"(SELECT CASE WHEN max(metric_higher_is_better) THEN max(metric_best) ELSE "               \
	"min(metric_best) END FROM trials t WHERE t.run_id = r.id) AS metric_best, "               \
	"(SELECT max(metric_higher_is_better) FROM trials t WHERE t.run_id = r.id) AS "            \
	"metric_higher_is_better "

int tt_db_runs(struct tt_db *db, const char *host, int limit, tt_db_row_fn fn, void *ctx)
{
	sqlite3_stmt *st;

	if (prepare(db, &st,
		    "SELECT " RUN_COLUMNS "FROM runs r JOIN hosts h ON h.id = r.host_id "
		    "WHERE ?1 IS NULL OR h.hostname = ?1 OR h.fingerprint = ?1 "
		    "ORDER BY r.started DESC, r.id DESC LIMIT ?2") < 0)
		return TT_EFAIL;
	bind_text(st, 1, host);
	sqlite3_bind_int(st, 2, limit > 0 ? limit : -1);
	return each_row(db, st, fn, ctx);
}

/* A recommendation's weights as every document has them (docs/json.md): an
 * object from id to weight, and what the ids are (its interface's unit).
 * The table keeps the text its writer checked. */
static void recommendation_weights(json_t *rec)
{
	const struct tt_wi_backend *be =
		tt_wi_find(json_string_value(json_object_get(rec, "interface")) ?: "");
	struct tt_weights w;

	if (tt_weights_parse(json_string_value(json_object_get(rec, "weights")) ?: "", &w) != 0)
		tt_weights_clear(&w);
	json_object_set_new(rec, "weights", tt_json_weights(&w));
	json_object_set_new(rec, "weights_keyed_by", be ? json_string(be->unit) : json_null());
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
	if (prepare(db, &st,
		    "SELECT id, seq, kernel, mix, placement, threads, size_bytes, "
		    "bw_best_bytes_s, bw_median_bytes_s, bw_min_bytes_s, lat_best_ns, "
		    "lat_median_ns, lat_max_ns, validated, simulated, time_best_s, time_median_s, "
		    "time_max_s, metric_best, metric_median, metric_worst, "
		    "metric_higher_is_better, "
		    "llc_bytes, cache_resident, short_pass FROM trials WHERE run_id = ? "
		    "ORDER BY "
		    "seq") < 0 ||
	    (sqlite3_bind_int64(st, 1, run_id), each_row(db, st, append_row, trials)) < 0)
		goto fail;
	size_t i;
	json_t *t;
	json_array_foreach (trials, i, t) {
		json_t *nodes = json_array();

		if (prepare(db, &st,
			    "SELECT node, weight, requested_share, achieved_share, pages "
			    "FROM trial_nodes WHERE trial_id = ? ORDER BY node") < 0 ||
		    (sqlite3_bind_int64(st, 1, json_integer_value(json_object_get(t, "id"))),
		     each_row(db, st, append_row, nodes)) < 0) {
			json_decref(nodes);
			goto fail;
		}
		json_object_set_new(t, "nodes", nodes);
	}
	if (prepare(db, &st,
		    "SELECT source_node, interface, weights, action, score, score_ci_low, "
		    "score_ci_high, score_n, gain, gain_ci_low, gain_ci_high, baseline FROM "
		    "recommendations WHERE run_id = ? ORDER BY "
		    "source_node, id") < 0 ||
	    (sqlite3_bind_int64(st, 1, run_id), each_row(db, st, append_row, recs)) < 0)
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
	sqlite3_stmt *st;

	if (prepare(db, &st,
		    "SELECT a.id, a.uuid, h.hostname AS host, a.run_id, a.t, a.interface, "
		    "a.file, a.old_value, a.new_value, a.outcome FROM apply_log a JOIN hosts "
		    "h ON h.id = a.host_id WHERE ?1 = 0 OR a.run_id = ?1 ORDER BY a.t DESC, "
		    "a.id DESC") < 0)
		return TT_EFAIL;
	sqlite3_bind_int64(st, 1, run_id);
	return each_row(db, st, fn, ctx);
}

int tt_db_check(struct tt_db *db, int *version, char *problem, size_t size)
{
	sqlite3_stmt *st;
	int rc;

	problem[0] = '\0';
	if (user_version(db, "main", version) < 0)
		return TT_EFAIL;
	if (prepare(db, &st, "PRAGMA integrity_check") < 0)
		return TT_EFAIL;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && strcmp((const char *)sqlite3_column_text(st, 0), "ok") != 0)
		snprintf(problem, size, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return db_fail(db, "checking integrity");
	if (problem[0])
		return 0;
	if (prepare(db, &st, "PRAGMA foreign_key_check") < 0)
		return TT_EFAIL;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		snprintf(problem, size, "table %s row %lld refers to a missing %s row",
			 (const char *)sqlite3_column_text(st, 0), sqlite3_column_int64(st, 1),
			 (const char *)sqlite3_column_text(st, 2));
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_fail(db, "checking foreign keys");
	return 0;
}

/* One file's rows into main, from the schema it is attached as (the %1$s
 * below), inside the caller's transaction. */
static int merge_one(struct tt_db *db, const char *schema, struct tt_db_merge_stats *stats)
{
	static const char *const steps[] = {
		"DELETE FROM temp.hostmap; DELETE FROM temp.runmap; DELETE FROM temp.trialmap",
		"INSERT INTO main.hosts (hostname, fingerprint, cpu_model, layout, created) SELECT "
		"hostname, fingerprint, cpu_model, layout, created FROM %1$s.hosts s WHERE NOT "
		"EXISTS "
		"(SELECT 1 FROM main.hosts m WHERE m.hostname = s.hostname AND m.fingerprint = "
		"s.fingerprint)",
		"INSERT INTO temp.hostmap SELECT s.id, m.id FROM %1$s.hosts s JOIN main.hosts m ON "
		"m.hostname = s.hostname AND m.fingerprint = s.fingerprint",
		"INSERT INTO temp.runmap (src, uuid) SELECT id, uuid FROM %1$s.runs WHERE uuid NOT "
		"IN "
		"(SELECT uuid FROM main.runs)",
		"INSERT INTO main.runs (uuid, host_id, kind, command, source_node, objective, "
		"kernel_release, started, finished, status, simulated, proc_host, boot_id, pid, "
		"pid_start) SELECT r.uuid, h.dst, r.kind, r.command, r.source_node, r.objective, "
		"r.kernel_release, r.started, r.finished, r.status, r.simulated, r.proc_host, "
		"r.boot_id, r.pid, r.pid_start FROM %1$s.runs r JOIN temp.runmap n ON n.src = r.id "
		"JOIN temp.hostmap h ON h.src = r.host_id ORDER BY r.id",
		"UPDATE temp.runmap SET dst = (SELECT id FROM main.runs m WHERE m.uuid = "
		"temp.runmap.uuid)",
		"INSERT INTO main.trials (run_id, seq, kernel, mix, placement, threads, "
		"size_bytes, "
		"bw_best_bytes_s, bw_median_bytes_s, bw_min_bytes_s, lat_best_ns, lat_median_ns, "
		"lat_max_ns, validated, simulated, time_best_s, time_median_s, time_max_s, "
		"metric_best, metric_median, metric_worst, metric_higher_is_better, llc_bytes, "
		"cache_resident, short_pass) SELECT rm.dst, "
		"t.seq, t.kernel, t.mix, t.placement, t.threads, t.size_bytes, t.bw_best_bytes_s, "
		"t.bw_median_bytes_s, t.bw_min_bytes_s, t.lat_best_ns, t.lat_median_ns, "
		"t.lat_max_ns, t.validated, t.simulated, t.time_best_s, t.time_median_s, "
		"t.time_max_s, t.metric_best, t.metric_median, t.metric_worst, "
		"t.metric_higher_is_better, t.llc_bytes, t.cache_resident, t.short_pass FROM "
		"%1$s.trials t JOIN "
		"temp.runmap rm ON rm.src = t.run_id ORDER BY t.id",
		"INSERT INTO temp.trialmap SELECT t.id, m.id FROM %1$s.trials t JOIN temp.runmap "
		"rm ON "
		"rm.src = t.run_id JOIN main.trials m ON m.run_id = rm.dst AND m.seq = t.seq",
		"INSERT INTO main.trial_nodes SELECT tm.dst, n.node, n.weight, n.requested_share, "
		"n.achieved_share, n.pages FROM %1$s.trial_nodes n JOIN temp.trialmap tm ON tm.src "
		"= "
		"n.trial_id",
		"INSERT INTO main.samples SELECT rm.dst, tm.dst, s.t_s, s.collector, s.metric, "
		"s.node, "
		"s.value, s.simulated FROM %1$s.samples s JOIN temp.runmap rm ON rm.src = s.run_id "
		"LEFT JOIN temp.trialmap tm ON tm.src = s.trial_id",
		"INSERT INTO main.recommendations (run_id, source_node, interface, weights, score, "
		"gain, gain_ci_low, gain_ci_high, baseline, action, score_ci_low, score_ci_high, "
		"score_n) SELECT rm.dst, r.source_node, r.interface, r.weights, r.score, r.gain, "
		"r.gain_ci_low, r.gain_ci_high, r.baseline, r.action, r.score_ci_low, "
		"r.score_ci_high, r.score_n "
		"FROM %1$s.recommendations r JOIN temp.runmap rm ON rm.src = r.run_id ORDER BY "
		"r.id",
		"INSERT INTO main.apply_log (uuid, host_id, run_id, t, interface, file, old_value, "
		"new_value, outcome) SELECT a.uuid, h.dst, (SELECT m.id FROM main.runs m JOIN "
		"%1$s.runs sr ON sr.uuid = m.uuid WHERE sr.id = a.run_id), a.t, a.interface, "
		"a.file, "
		"a.old_value, a.new_value, a.outcome FROM %1$s.apply_log a JOIN temp.hostmap h ON "
		"h.src = a.host_id WHERE a.uuid NOT IN (SELECT uuid FROM main.apply_log) ORDER BY "
		"a.id",
		"SELECT count(*) FROM %1$s.runs",
	};
	/* Where each step's row count goes (NULL: not counted). */
	int64_t hosts = 0, runs = 0, all = 0;
	int64_t *count[] = { NULL,
			     &hosts,
			     NULL,
			     NULL,
			     &runs,
			     NULL,
			     &stats->trials_added,
			     NULL,
			     NULL,
			     &stats->samples_added,
			     NULL,
			     &stats->applies_added,
			     NULL };
	_Static_assert(sizeof(count) / sizeof(*count) == sizeof(steps) / sizeof(*steps),
		       "a count slot per step");
	char sql[2048];
	size_t last = sizeof(steps) / sizeof(*steps) - 1;

	for (size_t i = 0; i < last; i++) {
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
		rc = file_uri(files[i], immutable ? "?mode=ro&immutable=1" : "?mode=ro", uri,
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
