/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A plan of weight writes: each sysfs write with the value it replaces, plus
 * the values the kernel changes by itself as a side effect (the backend
 * lists them: writing any nodeN of the upstream interface turns its auto
 * mode off). Building one only reads: the backends fill it (their plan
 * hooks call tt_apply_plan_add and tt_apply_plan_writes), the checks read
 * the files it names, and it prints as shell lines. Running it is the
 * writer's transaction (writer/apply.h: lock, journal, write, read back,
 * history); measure/ and db/ read plans too, so the type lives here, on the
 * floor every one of them stands on.
 *
 *	struct tt_apply_plan p;
 *	tt_apply_plan_init(&p, be, &sfs);          (be from tt_wi_pick)
 *	tt_apply_plan_weights(&p, &topo, src, &weights);
 *	tt_apply_print(&p, stdout);                (or writer/apply.h's tt_apply_run)
 *	tt_apply_plan_release(&p);
 */
#ifndef TT_PLAN_H
#define TT_PLAN_H

#include "sysfs.h"
#include "topo.h"
#include "weights.h"
#include "wi.h"

#include <stdbool.h>
#include <stdio.h>

struct tt_write {
	enum tt_write_kind kind;
	char file[160];	 /* path under the sysfs root, e.g. /sys/kernel/mm/... */
	char old[40];	 /* what restore writes back */
	char value[40];	 /* what apply writes */
	char expect[40]; /* what the file must hold before writing ("": anything) */
	int src;	 /* TT_WRITE_ENTRY: its source node */
	bool done;	 /* written and read back */
	/* Not written: the kernel sets it as a consequence of the plan's
	 * other writes (auto mode on recomputes every node weight). old is
	 * what it held, value what it holds once they are written (read
	 * back then): the journal and the history can put it back. */
	bool side;
	/* What the file held once the whole plan was written ("": not read):
	 * a later write may change it (auto mode turned on recomputes every
	 * node weight), and the report says so instead of the value written. */
	char after[40];
};

struct tt_apply_plan {
	const struct tt_wi_backend *be;
	const struct tt_sysfs *sfs;
	int n, cap;
	struct tt_write *w;
	/* Side effects the backend listed as implied (a mode file that
	 * writing weights turns off). old is what it held, value what the
	 * kernel will make it. */
	int nimplied;
	struct tt_write implied[1];
	/* Auto mode is on and would go off for good: without HMAT/CDAT
	 * bandwidth data the kernel refuses to turn it back on (ENODEV). */
	bool auto_lost;
	int unchanged;	      /* values already as wanted, left out of w[] */
	bool write_unchanged; /* keep them in (set by a plan whose writes matter anyway) */
	bool undo;	      /* restore --last's: recorded as "undo", which takes
				 that apply off the history's stack */
	/* The transaction's identity, random, set when it starts (tt_apply_run,
	 * tt_apply_hold): its journal and its history record carry it, so a
	 * journal is matched to its own record, never to another transaction
	 * of the same process (tiertop's second edit). */
	char txn[33];
	int history_damaged; /* tt_apply_plan_last: damaged records skipped */
	/* tt_apply_plan_last: writes of the change left out because their
	 * weight file is gone (the node has no memory now), and the files. */
	int gone;
	char gone_files[256];
};

void tt_apply_plan_init(struct tt_apply_plan *p, const struct tt_wi_backend *be,
			const struct tt_sysfs *sfs);
void tt_apply_plan_release(struct tt_apply_plan *p);
/* What w's file says now, in the form of its value: the whole file, or
 * "src:w" of the line's entry for src (the transaction reads the old
 * values again under its lock, and each value back once written). */
int tt_apply_write_current(const struct tt_sysfs *s, const struct tt_write *w, char *out,
			   size_t size);
/* Adds one write, reading the value it replaces. */
int tt_apply_plan_add(struct tt_apply_plan *p, enum tt_write_kind kind, int src, const char *value,
		      const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Weights w, keyed by the backend's unit, for source src (-1 unless the
 * backend is per source): checked (tt_wi_check), then its writes (the
 * backend's plan hook where it has one). */
int tt_apply_plan_weights(struct tt_apply_plan *p, const struct tt_topo *t, int src,
			  const struct tt_weights *w);
/* The backend's writes for w, added as they are (for plan hooks). */
int tt_apply_plan_writes(struct tt_apply_plan *p, const struct tt_topo *t, int src,
			 const struct tt_weights *w);
/* The kernel's default weights, for every source node with CPUs when the
 * backend is per source (restore --defaults). */
int tt_apply_plan_defaults(struct tt_apply_plan *p, const struct tt_topo *t);
/* The kernel's auto mode on (true) or off: TT_EUNAVAIL naming the
 * interfaces that have one when this one has none. Turning it on lists
 * the weights the kernel then recomputes as side writes, first, so that
 * the undo puts them back after the mode (restore --last after
 * restore --auto brings back the tuned weights). */
int tt_apply_plan_auto(struct tt_apply_plan *p, const struct tt_topo *t, bool on);

/* Every file can be opened for writing, beneath the root; TT_EUNAVAIL
 * naming the first that cannot and why (not root, read-only), TT_EINPUT
 * for a link on the way. */
int tt_apply_check_writable(const struct tt_apply_plan *p);
/* Every write with an expected value finds it (restore --last: the values
 * the apply wrote are still there). TT_EFAIL naming each file that changed. */
int tt_apply_verify(const struct tt_apply_plan *p);
/* "echo 5 > /sys/.../node1" lines, and what the kernel will change too. */
void tt_apply_print(const struct tt_apply_plan *p, FILE *f);

#endif
