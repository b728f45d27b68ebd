/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The one write path: from a recommendation to the kernel's weight files.
 * Every front end that writes weights (apply, restore, auto --apply and
 * --all-sources, tiertop's w and u) fills a request and calls
 * tt_writer_run, which does the whole sequence in one order:
 *
 *	1. put back a journal left by a killed tiertune (not on a dry run)
 *	2. load the recommendation: typed weights, a recorded run, a profile,
 *	   the history (restore --last), the kernel's defaults or auto mode,
 *	   or the caller's own planner (auto's recommendation in hand)
 *	3. convert it to the interface's keys, merge it (or refuse where
 *	   sources disagree) for an interface that is not per source
 *	4. the auto-mode rule (tt_writer_auto_rule), decided here only
 *	5. writability, then a dry run (plan and verify) or the transaction
 *	   (or, for run --apply, the change held until tt_writer_unhold)
 *	6. record through the caller's hook (the database)
 *
 * and returns a result the front end prints. Nothing here prints: what a
 * front end says along the way (a journal put back, a simulated source)
 * goes through hooks.note, in the order it happens.
 *
 *	struct tt_writer_req rq = { .from = TT_WRITER_WEIGHTS, .kind = TT_WRITER_APPLY,
 *				    .sfs = &sfs, .topo = &t, .be = be, .weights = &w,
 *				    .source = -1, .hooks = {...} };
 *	struct tt_writer_result res;
 *	rc = tt_writer_run(&rq, &res);       (res.plan: what was or would be written)
 *	tt_writer_result_release(&res);
 */
#ifndef TT_WRITER_H
#define TT_WRITER_H

#include "apply.h"
#include "../core/recommend.h"

#include <stdbool.h>
#include <stdint.h>

struct tt_db;

/* Where the weights come from. */
enum tt_writer_from {
	TT_WRITER_WEIGHTS,  /* weights / tier_weights, as typed */
	TT_WRITER_RUN,	    /* run_id's recommendation (hooks.open_db) */
	TT_WRITER_PROFILE,  /* profile: a file from export --format json */
	TT_WRITER_PLANNER,  /* planner: the caller plans (a recommendation in hand) */
	TT_WRITER_LAST,	    /* restore --last: undo the newest apply in the history */
	TT_WRITER_DEFAULTS, /* restore --defaults: the kernel's default weights */
	TT_WRITER_AUTO_ON,  /* restore --auto: the kernel's auto mode back on */
};

/* What the write is, for the history, the database and the auto-mode rule. */
enum tt_writer_kind {
	TT_WRITER_APPLY,    /* apply: new weights typed or loaded */
	TT_WRITER_AUTO,	    /* auto --apply: its own run's recommendation */
	TT_WRITER_AUTO_ALL, /* auto --all-sources --apply: the set */
	TT_WRITER_TOP_EDIT, /* tiertop's w */
	TT_WRITER_RESTORE,  /* restore and tiertop's u: back to what was */
	/* run --apply: held while the program runs (tt_apply_hold), then put
	 * back by tt_writer_unhold; never in the history. */
	TT_WRITER_RUN_HELD,
	TT_WRITER_NKINDS,
};

/* What a front end may say along the way (hooks.note), with its detail. */
enum tt_writer_note {
	TT_NOTE_RECOVERED,	/* struct tt_recovery: values put back from a leftover journal */
	TT_NOTE_RECOVERED_DONE, /* struct tt_recovery: its change had finished: removed */
	TT_NOTE_SET_ASIDE,	/* struct tt_recovery: a journal moved aside (aside, aside_why) */
	TT_NOTE_SIMULATED,	/* the source in words: its weights come from a model */
	TT_NOTE_GLOBAL_OTHERS,	/* the request: global weights, other sources use them too */
	TT_NOTE_AUTO_WOULD_REFUSE, /* dry run: the run would refuse (auto mode lost) */
	TT_NOTE_AUTO_FORCED,	   /* --force: auto mode goes off for good */
	TT_NOTE_JOURNAL_KEPT,	   /* committed; the journal could not go (message set) */
	TT_NOTE_HISTORY_DAMAGED,   /* int: damaged history records skipped (restore --last) */
	TT_NOTE_LAST_GONE,	   /* the plan: restore --last left out files gone since (gone) */
	TT_NOTE_DRY_NOT_WRITABLE,  /* dry run, not root: the run could not write (message set) */
};

/* The auto-mode rule's verdict on a plan. */
enum tt_auto_verdict {
	TT_AUTO_ALLOW,	     /* nothing lost, or a restore */
	TT_AUTO_FORCED,	     /* lost for good, and --force says so */
	TT_AUTO_DRY_REFUSES, /* a dry run: shown, but the run would refuse */
	TT_AUTO_REFUSE,	     /* refused (TT_EUNAVAIL, message set) */
};

struct tt_writer_req;

struct tt_writer_hooks {
	void *ctx;
	/* A leftover journal, a model's weights...: the front end says it. */
	void (*note)(void *ctx, enum tt_writer_note note, const void *detail);
	/* The database, for TT_WRITER_RUN (a status; the caller closes it). */
	int (*open_db)(void *ctx, struct tt_db **db);
	/* A committed write, mirrored where the front end keeps them (the
	 * history already holds the undo): kind "apply" or "restore". */
	void (*record)(void *ctx, const struct tt_topo *t, const char *kind, const char *objective,
		       const struct tt_apply_plan *p);
	/* TT_WRITER_PLANNER: adds the writes to p (p->be set to the interface). */
	int (*plan)(void *plan_ctx, struct tt_apply_plan *p);
	void *plan_ctx;
};

struct tt_writer_req {
	enum tt_writer_from from;
	enum tt_writer_kind kind;
	const struct tt_sysfs *sfs;
	const struct tt_topo *topo;
	const struct tt_wi_backend *be; /* the interface written */
	/* TT_WRITER_WEIGHTS: as the command line read them (cli_weights_read),
	 * node or tier weights. */
	const struct tt_weights *weights, *tier_weights;
	int64_t run_id;	     /* TT_WRITER_RUN; for AUTO: its run (0: none) */
	const char *profile; /* TT_WRITER_PROFILE */
	int source;	     /* the source node, -1: none given */
	bool all_sources;
	bool force;   /* apply what another machine found; lose auto mode; undo changed files */
	bool dry_run; /* plan and verify, write nothing */
	const char *objective; /* for the record when the source names none */
	struct tt_writer_hooks hooks;
};

struct tt_writer_result {
	struct tt_apply_plan plan; /* what was written, or would be */
	bool ran;		   /* the transaction ran (not a dry run, something to write) */
	bool nothing;		   /* every value already as wanted (plan.unchanged of them) */
	int written;		   /* values written and read back */
	bool auto_turned_off;
	int recovered;	    /* values put back from a leftover journal first */
	long long when;	    /* TT_WRITER_LAST: the undone apply's commit time */
	char what[4200];    /* the source in words: "run 12", "profile 'p.json'" */
	char objective[64]; /* what the record says it was for */
	/* TT_WRITER_RUN_HELD: the change held, the lock with it, until
	 * tt_writer_unhold (held is false when nothing was written). */
	struct tt_apply_hold hold;
	bool held;
	/* The run recommends no weights (schema 4): "keep_auto" or
	 * "bind_local", for source node action_source; nothing written. */
	char action[16];
	int action_source;
};

/* The rule "this write turns the kernel's auto mode off", for every front
 * end: a plan that would lose auto mode for good (no bandwidth data to turn
 * it back on) is refused unless forced; a dry run is shown with a warning;
 * a restore goes back to what was and is never refused. The message of a
 * refusal (and its hint) is kind's. */
enum tt_auto_verdict tt_writer_auto_rule(const struct tt_writer_req *rq,
					 const struct tt_apply_plan *p);

/* Step 1 alone, for a front end that writes later (auto's trials hold
 * weights through tt_apply_hold): rq->sfs and rq->hooks.note are used. */
int tt_writer_recover(const struct tt_writer_req *rq);
/* The whole sequence (above). res is filled as far as it got, also on
 * failure (release it either way). */
int tt_writer_run(const struct tt_writer_req *rq, struct tt_writer_result *res);
/* TT_WRITER_RUN_HELD: puts back what tt_writer_run wrote (the old weights,
 * then auto mode), removes the journal and drops the lock; *restored:
 * values put back. On failure the journal stays, named in the message,
 * and the next tiertune puts it back. Nothing held: 0. */
int tt_writer_unhold(struct tt_writer_result *res, int *restored);
void tt_writer_result_release(struct tt_writer_result *res);

#endif
