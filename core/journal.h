/*
 * The apply journal's and undo history's file format (internal to
 * core/apply.c). The journal holds the values a transaction replaces,
 * written before the first sysfs write; the history holds one record per
 * committed transaction, appended and fsynced before the journal goes, so
 * that at every instant one of them can undo the change. Text, one item a
 * line, so that an operator can read it after a crash:
 *
 *	tiertune-journal 1
 *	owner PID STARTTIME BOOT_ID
 *	interface upstream
 *	write plain /sys/kernel/mm/mempolicy/weighted_interleave/node1 1 5
 *	write entry /sys/devices/virtual/memory_tiering/memory_tier4/interleave_weight 0:50 0:85
 *	implied plain /sys/kernel/mm/mempolicy/weighted_interleave/auto true false
 *	root /
 *
 * A history record is the same lines followed by "done KIND UNIX_TIME"; a
 * record without its done line (cut by a crash) does not count. Kernel paths
 * and values have no spaces; the root may. Only weight files
 * (tt_wi_weight_file) are accepted in either.
 */
#ifndef TT_JOURNAL_H
#define TT_JOURNAL_H

#include "apply.h"

#include <stdbool.h>
#include <sys/types.h>

struct tt_journal {
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
/* Removes it and syncs the folder, so a crash cannot bring it back. */
int tt_journal_remove(const char *path);
/* Same process, same boot: the journal and record of one transaction. */
bool tt_journal_same_owner(const struct tt_journal *a, const struct tt_journal *b);

/* Past this size the history becomes PATH.1 (replacing the one before)
 * when the next record is appended; tt_history_last reads both. */
#define TT_HISTORY_ROTATE_BYTES (1 << 20)

/* Appends the plan's record, as one write, and fsyncs it. */
int tt_history_append(const char *path, const struct tt_apply_plan *p, const char *kind);
/* The newest whole record for root (a resolved path) of kind (NULL: any),
 * in PATH and the rotated PATH.1: 1 and *j filled, 0 when there is none
 * (or no history). */
int tt_history_last(const char *path, const char *root, const char *kind, struct tt_journal *j);
/* The newest apply for root that no "undo" record (restore --last) has
 * taken back yet: applies and undos pair as a stack, so restore --last
 * steps back one apply each time. 1 and *j filled, or 0. */
int tt_history_undoable(const char *path, const char *root, struct tt_journal *j);

#endif
