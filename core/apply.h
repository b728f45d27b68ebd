/*
 * Applying weights as a transaction. A plan is a list of sysfs writes, each
 * with the value it replaces, plus the values the kernel changes by itself
 * as a side effect (writing any nodeN turns upstream auto mode off). Running
 * a plan: take the lock, re-read the old values, write a journal of them
 * (temp file, fsync, rename), write each value and read it back, and on any
 * failure put every old value back. The journal goes once all is well; a
 * process killed half-way leaves it, and the next tiertune restores it.
 *
 *	struct tt_apply_plan p;
 *	tt_apply_plan_init(&p, &tt_wi_upstream, &sfs);
 *	tt_apply_plan_upstream(&p, &topo, &weights);
 *	tt_apply_run(&p, state_dir, &res);   (or tt_apply_print for --dry-run)
 *	tt_apply_plan_release(&p);
 *
 * The library writes nothing to the database: callers log res.
 */
#ifndef TT_APPLY_H
#define TT_APPLY_H

#include "sysfs.h"
#include "topo.h"
#include "weights.h"
#include "wi.h"

#include <stdbool.h>
#include <stdio.h>

enum tt_write_kind {
	TT_WRITE_PLAIN,     /* the file holds exactly the value written */
	TT_WRITE_RFC_ENTRY, /* "src:w" updates one source's entry of an RFC line */
};

struct tt_write {
	enum tt_write_kind kind;
	char file[160];   /* path under the sysfs root, e.g. /sys/kernel/mm/... */
	char old[40];     /* what restore writes back */
	char value[40];   /* what apply writes */
	int src;          /* RFC entry: its source node */
	bool done;        /* written and read back */
};

struct tt_apply_plan {
	const struct tt_wi_backend *be;
	const struct tt_sysfs *sfs;
	int n, cap;
	struct tt_write *w;
	/* Side effects: the upstream mode file, when writing nodes turns it
	 * off. old is what it held, value what the kernel will make it. */
	int nimplied;
	struct tt_write implied[1];
	/* Auto mode is on and would go off for good: without HMAT/CDAT
	 * bandwidth data the kernel refuses to turn it back on (ENODEV). */
	bool auto_lost;
};

void tt_apply_plan_init(struct tt_apply_plan *p, const struct tt_wi_backend *be,
			const struct tt_sysfs *sfs);
void tt_apply_plan_release(struct tt_apply_plan *p);
/* Adds one write, reading the value it replaces. */
int tt_apply_plan_add(struct tt_apply_plan *p, enum tt_write_kind kind, int src, const char *value,
		      const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Upstream nodeN weights; checks nodes and the 1-255 range first. */
int tt_apply_plan_upstream(struct tt_apply_plan *p, const struct tt_topo *t,
			   const struct tt_weights *w);
/* Upstream mode: auto on (true) or off. TT_EUNAVAIL before Linux 6.16. */
int tt_apply_plan_auto(struct tt_apply_plan *p, bool on);
/* RFC: the weight of each tier (by tier id in tiers) for one source node. */
int tt_apply_plan_rfc(struct tt_apply_plan *p, const struct tt_topo *t, int src,
		      const struct tt_weights *tiers);

/* Every file can be opened for writing; TT_EUNAVAIL naming the first that
 * cannot and why (not root, read-only). */
int tt_apply_check_writable(const struct tt_apply_plan *p);
/* "echo 5 > /sys/.../node1" lines, and what the kernel will change too. */
void tt_apply_print(const struct tt_apply_plan *p, FILE *f);

/* $TIERTUNE_STATE_DIR, else /var/lib/tiertune for root, else
 * $XDG_STATE_HOME/tiertune or ~/.local/state/tiertune. */
int tt_apply_state_dir(char *buf, size_t size);

struct tt_apply_result {
	int written;        /* values written and read back */
	bool restored;      /* a failure was rolled back */
	bool auto_turned_off;
	int recovered;      /* writes restored from a journal left by a dead process */
};
/* Call before planning: puts back a journal left by a dead process, so
 * the plan starts from the machine as it was. *restored counts writes. */
int tt_apply_recover_leftover(const char *state_dir, int *restored);
/* Runs the plan as a transaction (see above). On failure the message says
 * what failed and that the old values are back (or, if even that failed,
 * which journal still holds them). */
int tt_apply_run(struct tt_apply_plan *p, const char *state_dir, struct tt_apply_result *res);

/* A journal left by a process that is gone: 1 and its path when there is
 * one, 0 when none (or its process still runs). */
int tt_apply_leftover(const char *state_dir, char *path, size_t size);
/* Puts back what a journal holds and removes it; *restored counts writes.
 * TT_EINPUT for a file that is not a journal (nothing written). */
int tt_apply_recover(const char *journal, int *restored);

#endif
