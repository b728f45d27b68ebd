/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Applying weights as a transaction. A plan (core/plan.h) is a list of
 * sysfs writes, each with the value it replaces, plus the values the kernel
 * changes by itself as a side effect. Running a plan: take the lock (state folder, one for
 * every apply and restore),
 * re-read the old values, write a journal of them (temp file, fsync,
 * rename), write each value and read it back, and on any failure put every
 * old value back. Once all is written, a record of old and new values is
 * appended to the history and fsynced, and only then does the journal go:
 * a process killed at any point leaves either the journal (the next
 * tiertune puts the old values back) or the record (restore --last does).
 *
 *	struct tt_apply_plan p;
 *	tt_apply_plan_init(&p, be, &sfs);          (be from tt_wi_pick)
 *	tt_apply_plan_weights(&p, &topo, src, &weights);
 *	tt_apply_run(&p, state_dir, "apply", &res);   (or tt_apply_print)
 *	tt_apply_plan_release(&p);
 *
 * The library writes nothing to the database: callers mirror res there.
 */
#ifndef TT_APPLY_H
#define TT_APPLY_H

#include "../core/plan.h"

#include <stdbool.h>
#include <stdio.h>

/* restore --last: the newest apply recorded in the history for this root
 * that no earlier restore --last undid (so each steps back one), its writes
 * undone in reverse order, the mode file last. With verify,
 * each write expects the value the apply wrote. TT_EINPUT when the history
 * holds no apply of this root; *when is its commit time. A plan without an
 * interface (p->be NULL) takes the one that apply used, as the history
 * records it; one with an interface refuses an apply made on another. */
int tt_apply_plan_last(struct tt_apply_plan *p, const char *state_dir, bool verify,
		       long long *when);
/* The tiers whose weights the kernel has put back to 1 since the last apply
 * on this root (a node joining a tier resets it: seed 003's memset, seed
 * 010's "interleave_weight = 1"): each tier whose weights that apply set to
 * something else and which now read 1 wherever it wrote, as tier ids in
 * *tiers. The number of tiers; 0 without such an apply, or for an
 * interface keyed by node. */
int tt_apply_tiers_reset(const struct tt_wi_backend *be, const struct tt_sysfs *s,
			 const char *state_dir, struct tt_weights *tiers);

struct tt_apply_result {
	int written;   /* values written and read back */
	bool restored; /* a failure was rolled back */
	bool auto_turned_off;
	int recovered;	   /* writes restored from a journal left by a dead process */
	bool journal_kept; /* committed, but the journal could not be removed
			      (harmless: recovery sees the history record) */
};

/* What recovering a journal did. */
struct tt_recovery {
	int restored;	/* writes put back */
	bool committed; /* the journal's transaction had committed (its
			   history record exists): removed, nothing written */
	/* Set aside, not put back whole: written under another boot of the
	 * kernel, or naming files gone since (a node no longer online; the
	 * others were put back). The path it was moved to and why. */
	char aside[4300];
	char aside_why[512];
};

/* How long a transaction waits for the state folder's lock held by
 * another tiertune: TIERTUNE_LOCK_WAIT seconds (0-86400), by default (unset
 * or empty) TT_APPLY_LOCK_WAIT_S; TT_EINPUT for any other value.
 * tt_apply_lock_waited_ms: how long the last lock taken was waited for (a
 * front end says so). */
#define TT_APPLY_LOCK_WAIT_S 30
int tt_apply_lock_wait_ms(int *ms);
extern int tt_apply_lock_waited_ms;
/* The pid of the tiertune that held it then ("" unknown). */
extern char tt_apply_lock_holder[32];

/* Call before planning: puts back a journal left by a dead process, so
 * the plan starts from the machine as it was. */
int tt_apply_recover_leftover(const char *state_dir, const struct tt_sysfs *sfs,
			      struct tt_recovery *rec);
/* Runs the plan as a transaction (see above); kind ("apply", "restore")
 * goes into the history. On failure the message says what failed and that
 * the old values are back (or, if even that failed, which journal still
 * holds them). */
int tt_apply_run(struct tt_apply_plan *p, const char *state_dir, const char *kind,
		 struct tt_apply_result *res);

/* A change held for a while and then undone, never committed: a tuner
 * trial under written weights. tt_apply_hold takes the lock and writes the
 * plan as tt_apply_run does (re-read the old values, journal them, write
 * and read back, put back on any failure), but keeps the lock and the
 * journal; tt_apply_unhold puts the old values back, removes the journal
 * and drops the lock. Nothing goes into the history: restore --last still
 * undoes the last real apply. A process killed in between leaves the
 * journal, which the next tiertune puts back (tt_apply_recover_leftover). */
struct tt_apply_hold {
	struct tt_apply_plan *p;
	int fd; /* the lock; -1: not held */
	char journal[4200];
};
int tt_apply_hold(struct tt_apply_plan *p, const char *state_dir, struct tt_apply_hold *h);
/* *restored: values put back. On failure the journal stays and the
 * message names it. */
int tt_apply_unhold(struct tt_apply_hold *h, int *restored);

/* restore --defaults when the journal cannot be put back (not a journal,
 * unreadable): under the lock, the state folder's journal moved aside as
 * recovery moves one (rec->aside, why), so that the defaults go on. A
 * journal of another root stays (TT_EINPUT). */
int tt_apply_set_aside(const char *state_dir, const struct tt_sysfs *sfs, const char *why,
		       struct tt_recovery *rec);

/* A journal left by a process that is gone: 1 and its path when there is
 * one, 0 when none (or its process still runs). */
int tt_apply_leftover(const char *state_dir, char *path, size_t size);
/* Under the state folder's lock, puts back what a journal (NULL: the state
 * folder's) holds onto sfs and removes it. A journal of another root is
 * TT_EINPUT naming that root; so is a file that is not a journal (nothing
 * written either way). */
int tt_apply_recover(const char *state_dir, const char *journal, const struct tt_sysfs *sfs,
		     struct tt_recovery *rec);

#endif
