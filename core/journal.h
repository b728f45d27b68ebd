/*
 * The apply journal's file format (internal to core/apply.c): the values a
 * transaction replaces, written before the first sysfs write. Text, one
 * record a line, so that an operator can read it after a crash:
 *
 *	tiertune-journal 1
 *	owner PID STARTTIME BOOT_ID
 *	interface upstream
 *	write plain /sys/kernel/mm/mempolicy/weighted_interleave/node1 1 5
 *	write rfc /sys/devices/virtual/memory_tiering/memory_tier4/interleave_weight 0:50 0:85
 *	implied plain /sys/kernel/mm/mempolicy/weighted_interleave/auto true false
 *	root /
 *
 * Kernel paths and values have no spaces; the root, last, may.
 */
#ifndef TT_JOURNAL_H
#define TT_JOURNAL_H

#include "apply.h"

#include <sys/types.h>

struct tt_journal {
	pid_t pid;
	long long starttime;
	char boot_id[64];
	char interface[32];
	char root[4096];
	int n, nimplied;
	struct tt_write *w;         /* n, malloc'd */
	struct tt_write implied[1];
};

/* Atomically: temp file, fsync, rename, fsync of the folder. */
int tt_journal_write(const char *path, const struct tt_apply_plan *p);
/* TT_EINPUT naming the file and line for anything but a whole journal. */
int tt_journal_read(const char *path, struct tt_journal *j);
void tt_journal_release(struct tt_journal *j);
/* Removes it and syncs the folder, so a crash cannot bring it back. */
int tt_journal_remove(const char *path);

#endif
