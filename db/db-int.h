/* SPDX-License-Identifier: GPL-3.0-or-later */
/* db/'s own: the handle and the small sqlite steps every file of the store
 * shares (static inline, so no symbol of theirs leaves the folder). */
#ifndef TT_DB_INT_H
#define TT_DB_INT_H

#include "db.h"

#include "../core/error.h"

#include <sqlite3.h>
#include <stdbool.h>
#include <time.h>

struct tt_db {
	sqlite3 *h;
	char path[4096];
	int interrupted;
	bool readonly;
	bool immutable; /* opened with immutable=1: see open_readonly() */
	int tx_depth;	/* transactions begun by begin_tx and not ended */
};

/* How long a writer or reader waits for the other before giving up. Every
 * transaction here is short (one trial, one batch of samples), so this is
 * only reached by a stuck process. */
#define BUSY_MS 10000

static inline int db_fail(struct tt_db *db, const char *what)
{
	int code = sqlite3_errcode(db->h);
	int status = TT_EFAIL;

	if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT)
		status = TT_EINPUT;
	return tt_err(status, "database '%s': %s: %s", db->path, what, sqlite3_errmsg(db->h));
}

static inline int exec(struct tt_db *db, const char *sql)
{
	if (sqlite3_exec(db->h, sql, NULL, NULL, NULL) != SQLITE_OK)
		return db_fail(db, sql);
	return 0;
}

static inline int prepare(struct tt_db *db, sqlite3_stmt **st, const char *sql)
{
	if (sqlite3_prepare_v2(db->h, sql, -1, st, NULL) != SQLITE_OK)
		return db_fail(db, "preparing a statement");
	return 0;
}

/* Steps a statement that returns no row (or ignores them) and finalizes it. */
static inline int step_done(struct tt_db *db, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st);

	while (rc == SQLITE_ROW)
		rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_fail(db, what);
}

static inline void rollback(struct tt_db *db)
{
	if (!sqlite3_get_autocommit(db->h))
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
}

/* Begins a writer's transaction; inside another (tt_db_tx_begin: a whole
 * run in one) a savepoint, so that the outer one still decides. */
static inline int begin_tx(struct tt_db *db)
{
	if (exec(db, db->tx_depth ? "SAVEPOINT tt_tx" : "BEGIN IMMEDIATE") < 0)
		return TT_EFAIL;
	db->tx_depth++;
	return 0;
}

/* Ends the transaction a writer began: COMMIT when rc is 0 (its message
 * recorded otherwise), else ROLLBACK, so a failure leaves nothing behind.
 * A savepoint is released, or rolled back to and released. */
static inline int end_tx(struct tt_db *db, sqlite3_stmt *st, int rc)
{
	sqlite3_finalize(st);
	if (db->tx_depth > 0)
		db->tx_depth--;
	if (db->tx_depth) {
		if (rc == 0 && exec(db, "RELEASE tt_tx") == 0)
			return 0;
		sqlite3_exec(db->h, "ROLLBACK TO tt_tx; RELEASE tt_tx", NULL, NULL, NULL);
		return TT_EFAIL;
	}
	if (rc == 0 && exec(db, "COMMIT") == 0)
		return 0;
	rollback(db);
	return TT_EFAIL;
}

static inline double wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline void bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

/* A run of this machine left "running" by a process that is gone (the
 * tt_gone SQL function, db.c). */
#define GONE "r.status = 'running' AND tt_gone(r.proc_host, r.boot_id, r.pid, r.pid_start)"

/* sqlite's URI form of a path with a query string (db.c). */
int tt_db_file_uri(const char *path, const char *query, char *out, size_t size);

#endif
