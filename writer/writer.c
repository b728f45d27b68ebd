// SPDX-License-Identifier: GPL-3.0-or-later
/* The one write path (writer.h): recover, load, convert, merge, the
 * auto-mode rule, writability, dry run or run, record. */
#include "writer.h"

#include "recos.h"

#include "../core/error.h"
#include "../core/state.h"
#include "../db/db.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void note(const struct tt_writer_req *rq, enum tt_writer_note n, const void *detail)
{
	if (rq->hooks.note)
		rq->hooks.note(rq->hooks.ctx, n, detail);
}

/* A journal left by a killed tiertune goes back before anything is
 * planned, so the plan starts from the machine as it was. (A dry run only
 * hears about it, from the front end's warning.) The root is open: a
 * journal of another root is refused, not put back there. */
static int recover_first(const struct tt_writer_req *rq, const char *state, int *recovered)
{
	struct tt_recovery rec;
	int rc = tt_apply_recover_leftover(state, rq->sfs, &rec);

	*recovered = rec.restored;
	if (rc == 0 && rec.restored)
		note(rq, TT_NOTE_RECOVERED, &rec);
	if (rc == 0 && rec.committed)
		note(rq, TT_NOTE_RECOVERED_DONE, &rec);
	if (rc == 0 && rec.aside[0])
		note(rq, TT_NOTE_SET_ASIDE, &rec);
	/* restore --defaults is the way back that needs nothing but the
	 * kernel: a journal that cannot be put back (not a journal, a value
	 * no weight file takes) does not stop it; it is moved aside, kept,
	 * and said. */
	if (rc < 0 && rq->from == TT_WRITER_DEFAULTS && rc != TT_EUNAVAIL) {
		char why[600];

		snprintf(why, sizeof(why), "restore --defaults went on without it: %s",
			 tt_err_msg());
		if (tt_apply_set_aside(state, rq->sfs, why, &rec) == 0) {
			if (rec.aside[0])
				note(rq, TT_NOTE_SET_ASIDE, &rec);
			rc = 0;
		}
	}
	return rc;
}

/* A run's recommendation that is no weights (schema 4: keep the kernel's
 * auto mode, bind to local memory) for the sources asked for. */
static bool no_weights(const struct tt_writer_req *rq, const struct tt_recos *rs,
		       struct tt_writer_result *res)
{
	for (int i = 0; i < rs->nactions; i++) {
		int src = rs->actions[i].source_node;

		if (rq->source >= 0 && !rq->all_sources && src >= 0 && src != rq->source)
			continue;
		snprintf(res->action, sizeof(res->action), "%s", rs->actions[i].action);
		res->action_source = src;
		return true;
	}
	return false;
}

/* A node online whose memory is not (a DIMM or CXL block left offline at
 * boot, memory offlined later; has_memory, not online, says it): its
 * weight is for memory that will come, and the machine differs from the
 * one the weights were found on only until it does. Said as the wait it
 * is (exit 3, as for a node not online), before the fingerprint, which
 * counts the node's memory and would call the host other hardware. */
static int check_memory(const struct tt_recos *rs, const struct tt_topo *t, const char *what)
{
	bool other = rs->cpu_model[0] && t->cpu_model[0] && strcmp(rs->cpu_model, t->cpu_model);
	int id;

	for (int i = 0; i < rs->n && !other; i++) {
		const struct tt_wi_backend *be = tt_wi_find(rs->r[i].interface);

		if (be && be->key == TT_WI_BY_TIER)
			continue;
		tt_nodemask_for_each (id, &rs->r[i].w.set) {
			if (!tt_nodemask_test(&t->online, id) ||
			    tt_nodemask_test(&t->mem_nodes, id))
				continue;
			tt_err(TT_EUNAVAIL, "%s: node %d has no memory yet: nothing written", what,
			       id);
			tt_err_hint("its memory online (daxctl online-memory, or the kernel's "
				    "auto-online) starts tiertune-apply.service again");
			return TT_EUNAVAIL;
		}
	}
	return 0;
}

/* Typed weights, a run or a profile: the recommendations as they are. */
static int load(const struct tt_writer_req *rq, struct tt_recos *rs, struct tt_writer_result *res)
{
	struct tt_db *db;
	int rc;

	memset(rs, 0, sizeof(*rs));
	if (rq->from == TT_WRITER_WEIGHTS) {
		/* Typed weights for a node online without memory are refused
		 * as a profile's are (a node not online, the interface's check
		 * refuses, or plan() where its file is there): not written to a
		 * weight file for memory that is not there yet. */
		rc = tt_recos_from_args(rq->weights, rq->tier_weights, rq->source, rq->be, rs);
		return rc < 0 ? rc : check_memory(rs, rq->topo, "--weights");
	}
	if (rq->from == TT_WRITER_PROFILE) {
		rc = tt_recos_from_profile(rq->profile, rs);
		snprintf(res->what, sizeof(res->what), "profile '%s'", rq->profile);
		/* The fingerprint is what keeps another machine's weights off
		 * this one: a profile without one (edited by hand, or made by
		 * a tool other than export) is refused as one from other
		 * hardware is, unless forced. */
		if (rc == 0 && !rs->fingerprint[0] && !rq->force) {
			tt_err(TT_EINPUT, "%s has no hardware fingerprint (machine.fingerprint)",
			       res->what);
			tt_err_hint(
				"make it with 'tiertune export --format json' on this hardware, "
				"or --force to apply it anyway");
			return TT_EINPUT;
		}
	} else {
		rc = rq->hooks.open_db(rq->hooks.ctx, &db);
		if (rc < 0)
			return rc;
		rc = tt_recos_from_run(db, rq->run_id, rs);
		tt_db_close(db);
		snprintf(res->what, sizeof(res->what), "run %jd", (intmax_t)rq->run_id);
	}
	if (rc == 0)
		rc = tt_recos_check_present(rs, rq->topo, res->what);
	if (rc == 0)
		rc = check_memory(rs, rq->topo, res->what);
	if (rc == 0)
		rc = tt_recos_check_machine(rs, rq->topo, rq->force, res->what);
	if (rc == 0 && rs->simulated)
		note(rq, TT_NOTE_SIMULATED, res->what);
	return rc;
}

/* The recommendations in the interface's keys, as its writes: merged (or
 * refused where sources disagree) when it holds one weight for every
 * source, else each source's own. */
static int plan_recos(const struct tt_writer_req *rq, struct tt_recos *rs, struct tt_apply_plan *p,
		      struct tt_writer_result *res)
{
	const struct tt_wi_backend *be = rq->be;
	int rc = tt_recos_convert(rs, rq->topo, be), used = 0;

	if (rc < 0)
		return rc;
	if (rs->run_id)
		snprintf(res->objective, sizeof(res->objective), "run %jd", (intmax_t)rs->run_id);
	if (!be->per_source) {
		struct tt_weights w;
		bool others = false;

		rc = tt_recos_merged(rs, be, rq->all_sources ? -1 : rq->source, &w);
		if (rc < 0)
			return rc;
		for (int i = 0; i < rs->n; i++)
			others |= rq->source >= 0 && rs->r[i].source_node >= 0 &&
				  rs->r[i].source_node != rq->source;
		if (others)
			note(rq, TT_NOTE_GLOBAL_OTHERS, rq);
		return tt_apply_plan_weights(p, rq->topo, -1, &w);
	}
	for (int i = 0; i < rs->n && rc == 0; i++) {
		const struct tt_reco *r = &rs->r[i];

		if (rq->source >= 0 && !rq->all_sources && r->source_node != rq->source)
			continue;
		used++;
		rc = tt_apply_plan_weights(p, rq->topo, r->source_node, &r->w);
	}
	if (rc == 0 && !used)
		rc = tt_err(TT_EINPUT, "no %s (per-%s) recommendation to apply%s", be->name,
			    be->unit, rq->source >= 0 ? " for that source node" : "");
	return rc;
}

static int plan(const struct tt_writer_req *rq, const char *state, struct tt_writer_result *res)
{
	struct tt_apply_plan *p = &res->plan;
	struct tt_recos rs;
	int rc;

	switch (rq->from) {
	case TT_WRITER_WEIGHTS:
	case TT_WRITER_RUN:
	case TT_WRITER_PROFILE:
		rc = tt_topo_check_source(rq->topo, rq->source);
		if (rc == 0)
			rc = load(rq, &rs, res);
		if (rc == 0 && rq->from == TT_WRITER_RUN && no_weights(rq, &rs, res))
			return 0;
		/* A profile of a run that kept auto mode persists that: auto
		 * mode on (the boot unit's apply --profile). */
		if (rc == 0 && rq->from == TT_WRITER_PROFILE && !rs.n && rs.nactions)
			return tt_apply_plan_auto(p, rq->topo, true);
		if (rc == 0)
			rc = plan_recos(rq, &rs, p, res);
		/* Typed weights for a node not online whose weight file is
		 * there (a kernel before 6.16 has one for every possible node,
		 * so the interface's check above passes) are refused as a
		 * profile's are, exit 3; one with no file stays bad input. */
		if (rc == 0 && rq->from == TT_WRITER_WEIGHTS)
			rc = tt_recos_check_present(&rs, rq->topo, "--weights");
		return rc;
	case TT_WRITER_PLANNER:
		return rq->hooks.plan(rq->hooks.plan_ctx, p);
	case TT_WRITER_LAST:
		rc = tt_apply_plan_last(p, state, !rq->force, &res->when);
		if (p->history_damaged)
			note(rq, TT_NOTE_HISTORY_DAMAGED, &p->history_damaged);
		if (rc == 0 && p->gone)
			note(rq, TT_NOTE_LAST_GONE, p);
		snprintf(res->objective, sizeof(res->objective), "undo the apply of %lld",
			 res->when);
		return rc;
	case TT_WRITER_DEFAULTS:
		return tt_apply_plan_defaults(p, rq->topo);
	case TT_WRITER_AUTO_ON:
		return tt_apply_plan_auto(p, rq->topo, true);
	}
	return tt_err(TT_EFAIL, "no such source of weights (%d)", (int)rq->from);
}

/* run --apply: the weights for the program's run only, so a user who
 * launches one program per socket (issue 43) does not leave global
 * weights and auto mode off behind. Held as a tuner trial holds its
 * weights: journalled, the lock kept, nothing in the history (restore
 * --last still undoes the last real apply); a killed tiertune leaves the
 * journal, which the next command puts back as any leftover. */
static int hold(struct tt_apply_plan *p, const char *state, struct tt_writer_result *res)
{
	int rc = tt_apply_hold(p, state, &res->hold);

	if (rc < 0)
		return rc;
	res->ran = res->held = true;
	for (int i = 0; i < p->n; i++)
		res->written += p->w[i].done;
	for (int i = 0; i < p->nimplied; i++)
		res->auto_turned_off |= strcmp(p->implied[i].old, p->implied[i].value) != 0;
	return 0;
}

/* Writability, then the plan verified (a dry run refuses what the run
 * would refuse, for the same reason) or run as a transaction. */
static int execute(const struct tt_writer_req *rq, const char *state, struct tt_writer_result *res)
{
	struct tt_apply_plan *p = &res->plan;
	struct tt_apply_result ar;
	int rc;

	if (!p->n && p->unchanged) {
		res->nothing = true;
		return 0;
	}
	if (!p->n)
		return tt_err(TT_EINPUT, "nothing to write");
	rc = tt_apply_check_writable(p);
	/* A preview needs no root: what only root may write is said, and the
	 * plan shown. A link or a missing file is still refused. */
	if (rc == TT_EUNAVAIL && rq->dry_run && geteuid() != 0) {
		note(rq, TT_NOTE_DRY_NOT_WRITABLE, NULL);
		rc = 0;
	}
	if (rc < 0 || rq->dry_run)
		return rc < 0 ? rc : tt_apply_verify(p);
	if (rq->kind == TT_WRITER_RUN_HELD)
		return hold(p, state, res);
	/* The history's kind: restore --last takes back an "apply" or a
	 * "restore" (--defaults, and --auto, whose record holds the weights
	 * the kernel recomputed as side writes; the "restore-auto" records
	 * of earlier versions hold only the mode and stay out of the undo). */
	rc = tt_apply_run(p, state, rq->kind != TT_WRITER_RESTORE ? "apply" : "restore", &ar);
	if (rc < 0)
		return rc;
	res->ran = true;
	res->written = ar.written;
	res->auto_turned_off = ar.auto_turned_off;
	if (ar.journal_kept)
		note(rq, TT_NOTE_JOURNAL_KEPT, NULL);
	if (rq->hooks.record)
		rq->hooks.record(rq->hooks.ctx, rq->topo,
				 rq->kind == TT_WRITER_RESTORE ? "restore" : "apply",
				 res->objective[0] ? res->objective : NULL, p);
	return 0;
}

int tt_writer_recover(const struct tt_writer_req *rq)
{
	char state[4096];
	int recovered, rc = tt_state_dir(TT_DIR_STATE, state, sizeof(state));

	return rc < 0 ? rc : recover_first(rq, state, &recovered);
}

int tt_writer_run(const struct tt_writer_req *rq, struct tt_writer_result *res)
{
	char state[4096] = "";
	int rc = 0;

	memset(res, 0, sizeof(*res));
	res->action_source = -1;
	tt_apply_plan_init(&res->plan, rq->be, rq->sfs);
	if (rq->objective)
		snprintf(res->objective, sizeof(res->objective), "%s", rq->objective);
	/* A dry run of typed weights needs no state folder (nor one that
	 * can be named): only recovery, the history and the run do. */
	if (!rq->dry_run || rq->from == TT_WRITER_LAST)
		rc = tt_state_dir(TT_DIR_STATE, state, sizeof(state));
	if (rc == 0 && !rq->dry_run)
		rc = recover_first(rq, state, &res->recovered);
	if (rc == 0)
		rc = plan(rq, state, res);
	if (rc < 0 || res->action[0])
		return rc;
	/* Permission first: without root, that is what the user must fix,
	 * before an auto-mode refusal suggests --force and --force's warning
	 * would follow (issue 34). execute() checks again, once planned. */
	if (!rq->dry_run && res->plan.n && (rc = tt_apply_check_writable(&res->plan)) < 0)
		return rc;
	switch (tt_writer_auto_rule(rq, &res->plan)) {
	case TT_AUTO_REFUSE:
		return TT_EUNAVAIL;
	case TT_AUTO_DRY_REFUSES:
		note(rq, TT_NOTE_AUTO_WOULD_REFUSE, NULL);
		break;
	case TT_AUTO_FORCED:
		note(rq, TT_NOTE_AUTO_FORCED, NULL);
		break;
	case TT_AUTO_ALLOW:
		break;
	}
	return execute(rq, state, res);
}

int tt_writer_unhold(struct tt_writer_result *res, int *restored)
{
	*restored = 0;
	if (!res->held)
		return 0;
	res->held = false;
	return tt_apply_unhold(&res->hold, restored);
}

void tt_writer_result_release(struct tt_writer_result *res)
{
	tt_apply_plan_release(&res->plan);
}
