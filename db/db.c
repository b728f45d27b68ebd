// SPDX-License-Identifier: GPL-3.0-or-later
/* Opening a store: file checks, creation whole, migration, runs found
 * interrupted; closing it; its check (db.h). */
#include "db-int.h"
#include "json.h"

#include "../core/plan.h"
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

const char *const tt_run_status_names[] = { "running", "done", "failed", "interrupted" };

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

	/* O_NONBLOCK: a FIFO (or a device) in the database's place would
	 * block the open itself until a writer came, before the S_ISREG test
	 * below could refuse it. A regular file reads the same either way. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
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
int tt_db_file_uri(const char *path, const char *query, char *out, size_t size)
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
		rc = tt_db_file_uri(db->path, immutable ? "?mode=ro&immutable=1" : "?mode=ro", uri,
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
/* open_file's status when it made the file: open it afresh. */
enum { REOPEN = 1 };

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

/* A read-write handle on a file that may not exist yet (created), or a
 * read-only one where this process may not write it: a reader may still
 * read what it cannot write. */
static int open_handle(struct tt_db *db, bool exists, int *version)
{
	int err, rc = sqlite3_open_v2(db->path, &db->h,
				      SQLITE_OPEN_READWRITE | (exists ? 0 : SQLITE_OPEN_CREATE) |
					      SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI,
				      NULL);

	if (rc == SQLITE_READONLY || (rc == SQLITE_CANTOPEN && exists)) {
		sqlite3_close(db->h);
		db->readonly = true;
		rc = sqlite3_open_v2(db->path, &db->h, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI,
				     NULL);
	}
	if (rc != SQLITE_OK) {
		err = errno;
		return tt_err(TT_EFAIL, "cannot %s database '%s': %s%s%s",
			      exists ? "open" : "create", db->path, sqlite3_errstr(rc),
			      err ? ": " : "", err ? strerror(err) : "");
	}
	setup_handle(db);
	return user_version(db, "main", version);
}

static int count_rows(struct tt_db *db, const char *sql, int *n)
{
	sqlite3_stmt *st;

	*n = 0;
	if (prepare(db, &st, sql) < 0)
		return TT_EFAIL;
	if (sqlite3_step(st) == SQLITE_ROW)
		*n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return 0;
}

/* A database of ours has our tables at a version this tiertune knows;
 * another program's, or an unversioned one with anything in it, is not
 * ours to touch. */
static int check_ours(struct tt_db *db, int version, bool exists)
{
	int n;

	if (version > TT_DB_SCHEMA_VERSION) {
		tt_err(TT_EINPUT,
		       "database '%s' has schema version %d, newer than this "
		       "tiertune's %d; it was left as it is",
		       db->path, version, TT_DB_SCHEMA_VERSION);
		tt_err_hint("use the tiertune that wrote it, or a newer one");
		return TT_EINPUT;
	}
	if (version > 0 && count_rows(db,
				      "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
				      "name IN ('hosts','runs','trials')",
				      &n) < 0)
		return TT_EFAIL;
	if (version > 0 && n != 3)
		return tt_err(TT_EINPUT, "'%s' is a sqlite database but not a tiertune one",
			      db->path);
	if (version == 0 && exists && count_rows(db, "SELECT count(*) FROM sqlite_master", &n) < 0)
		return TT_EFAIL;
	if (version == 0 && exists && n)
		return tt_err(TT_EINPUT, "'%s' is a sqlite database but not a tiertune one",
			      db->path);
	return 0;
}

/* A reader takes the file as it is: one of an older version cannot be
 * read by this tiertune's queries, and it may not bring it forward. */
static int finish_readonly(struct tt_db *db, int version)
{
	if (version < TT_DB_SCHEMA_VERSION) {
		tt_err(TT_EINPUT,
		       "database '%s' has schema version %d and is read-only "
		       "here, so it cannot be brought to version %d",
		       db->path, version, TT_DB_SCHEMA_VERSION);
		tt_err_hint("bring it forward once with 'tiertune db migrate --db %s'", db->path);
		return TT_EINPUT;
	}
	return mark_interrupted(db, false);
}

/* WAL: readers never block the writer nor the writer them; NORMAL sync is
 * durable across a crash of the process (not of the OS) and consistent
 * across both. Then the schema brought forward. */
static int finish_writable(struct tt_db *db, int version)
{
	int rc;

	if ((rc = exec(db, "PRAGMA journal_mode = WAL")) < 0 ||
	    (rc = exec(db, "PRAGMA synchronous = NORMAL")) < 0)
		return rc;
	if (version < TT_DB_SCHEMA_VERSION && (rc = migrate(db, version)) < 0)
		return rc;
	return mark_interrupted(db, true);
}

/* The file as found: made whole first if missing (then opened again), an
 * empty one refused, a read-only open for readers. */
static int open_file(struct tt_db *db, unsigned int flags, bool *exists, int *version)
{
	int rc = check_file(db->path);

	if (rc < 0)
		return rc;
	*exists = rc != FILE_MISSING;
	/* sqlite takes an empty file for an empty database and would make it
	 * one; a file that exists is the user's, not ours to fill. */
	if (rc == FILE_EMPTY) {
		tt_err(TT_EINPUT, "database '%s' is empty (0 bytes), not a tiertune database",
		       db->path);
		tt_err_hint("remove it, or give another --db");
		return TT_EINPUT;
	}
	if (flags & TT_DB_READONLY)
		return *exists ? open_readonly(db, version)
			       : tt_err(TT_EINPUT, "database '%s' does not exist", db->path);
	if (!*exists && (rc = make_dirs(db->path)) < 0)
		return rc;
	if (!*exists && !(flags & CREATING))
		return (rc = create_whole(db->path, flags)) < 0 ? rc : REOPEN;
	return open_handle(db, *exists, version);
}

int tt_db_open(struct tt_db **out, const char *path, unsigned int flags)
{
	struct tt_db *db;
	bool exists = false;
	int rc, version = 0;

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
	rc = open_file(db, flags, &exists, &version);
	if (rc == REOPEN) {
		free(db);
		return tt_db_open(out, path, flags);
	}
	if (rc == 0)
		rc = check_ours(db, version, exists);
	if (rc == 0)
		rc = exec(db, "PRAGMA foreign_keys = ON");
	if (rc == 0)
		rc = db->readonly || (flags & TT_DB_READONLY) ? finish_readonly(db, version)
							      : finish_writable(db, version);
	if (rc == 0) {
		*out = db;
		return 0;
	}
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
