/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The apply journal's and undo history's file format (internal to
 * writer/apply.c). The journal holds the values a transaction replaces,
 * written before the first sysfs write; the history holds one record per
 * committed transaction, appended and fsynced before the journal goes, so
 * that at every instant one of them can undo the change. Text, one item a
 * line, so that an operator can read it after a crash:
 *
 *	tiertune-journal 1
 *	owner PID STARTTIME BOOT_ID
 *	txn 5f0c9a1e3b7d42c8a6e1f09b2d4c7a38
 *	interface upstream
 *	write plain /sys/kernel/mm/mempolicy/weighted_interleave/node1 1 5
 *	write entry /sys/devices/virtual/memory_tiering/memory_tier4/interleave_weight 0:50 0:85
 *	implied plain /sys/kernel/mm/mempolicy/weighted_interleave/auto true false
 *	root /
 *
 * A history record is the same lines followed by "done KIND UNIX_TIME",
 * framed so that no cut can spoil another record:
 *
 *	tiertune-record LENGTH CRC32
 *	<LENGTH bytes: the lines above, done line included>
 *
 * A record is read only whole and with its checksum; a damaged one (cut by
 * a full disk or a crash) is skipped and counted, and the next header is
 * looked for anywhere after it, so a record appended after a cut one is
 * found even when glued to it. Unframed records (before this format) are
 * still read. Kernel paths and values have no spaces; the root may. Only
 * weight files (tt_wi_weight_file) are accepted in either.
 *
 * The owner (pid, start time, boot) says whether the process that wrote a
 * journal still runs; the txn (random, per transaction) says which history
 * record is the journal's own: one process commits many transactions.
 */
#ifndef TT_JOURNAL_H
#define TT_JOURNAL_H

#include "apply.h"

#include <stdbool.h>
#include <sys/types.h>

struct tt_journal {
	char txn[33]; /* "" in journals and records from before txn */
	pid_t pid;
	long long starttime;
	char boot_id[64];
	char interface[32];
	char root[4096];
	int n, nimplied;
	struct tt_write *w; /* n, malloc'd */
	struct tt_write implied[1];
	char kind[16];	/* history: "apply" or "restore" */
	long long when; /* history: commit time, seconds since 1970 */
};

/* Atomically: a new temp file (O_EXCL, never through a link), fsync,
 * rename, fsync of the folder. */
int tt_journal_write(const char *path, const struct tt_apply_plan *p);
/* TT_EINPUT naming the file and line for anything but a whole journal
 * (and for a symlink in its place). */
int tt_journal_read(const char *path, struct tt_journal *j);
void tt_journal_release(struct tt_journal *j);
/* Every value j holds, old and new, is one a weight file takes (a weight,
 * true or false, SRC:WEIGHT): TT_EINPUT naming what (the journal, the
 * record), the text and its file otherwise. A journal or a record with its
 * checksum right may still hold text no tiertune wrote: it is refused, not
 * written to the kernel. */
int tt_journal_check_values(const struct tt_journal *j, const char *what);
/* Syncs the folder that holds path (a rename or unlink there durable). */
int tt_journal_sync_dir(const char *path);
/* Removes it and syncs the folder, so a crash cannot bring it back. */
int tt_journal_remove(const char *path);
/* The journal and record of one transaction: the same txn (or, for two
 * written before txn existed, the same process and boot). */
bool tt_journal_same_txn(const struct tt_journal *a, const struct tt_journal *b);
/* A new transaction identity (32 hex digits) for p->txn. */
int tt_journal_new_txn(struct tt_apply_plan *p);

/* Past this size the history becomes PATH.1 (replacing the one before)
 * when the next record is appended; tt_history_last reads both. */
#define TT_HISTORY_ROTATE_BYTES (1 << 20)

/* Appends the plan's record, framed, as one write, and fsyncs it; a write
 * cut short (ENOSPC, EIO) is cut off again, so the file ends as it was. */
int tt_history_append(const char *path, const struct tt_apply_plan *p, const char *kind);
/* The newest whole record for root (a resolved path) of kind (NULL: any),
 * in PATH and the rotated PATH.1: 1 and *j filled, 0 when there is none
 * (or no history). *damaged (may be NULL): records skipped as damaged. */
int tt_history_last(const char *path, const char *root, const char *kind, struct tt_journal *j,
		    int *damaged);
/* The newest change for root (an apply, or a restore --defaults/--auto)
 * that no "undo" record (restore --last) has taken back yet: changes and
 * undos pair as a stack, so restore --last steps back one each time. 1 and
 * *j filled, or 0. */
int tt_history_undoable(const char *path, const char *root, struct tt_journal *j, int *damaged);
/* Both files of the history can be read as restore --last reads them
 * (regular files, no links; missing is fine): checked before a
 * transaction commits, so that its undo cannot be lost to a history
 * that restore cannot read. */
int tt_history_check(const char *path);

#endif
