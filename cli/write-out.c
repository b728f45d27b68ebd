// SPDX-License-Identifier: GPL-3.0-or-later
/* The CLI's side of the one write path (writer/writer.h): its hooks (what
 * the CLI says along the way, the database) and the result as text or
 * JSON, the same for apply, restore and auto --apply. */
#include "auto-display.h"
#include "cli.h"

#include "../db/db.h"
#include "../writer/recos.h"
#include "../writer/writer.h"

#include <stdio.h>
#include <string.h>

static void note(void *ctx, enum tt_writer_note n, const void *detail)
{
	const struct tt_recovery *rec = detail;
	const struct tt_writer_req *rq = detail;

	(void)ctx;
	switch (n) {
	case TT_NOTE_RECOVERED:
		cli_warn("first put back %d value%s from a journal left by an interrupted tiertune",
			 rec->restored, rec->restored == 1 ? "" : "s");
		break;
	case TT_NOTE_RECOVERED_DONE:
		cli_warn("removed the journal of an interrupted tiertune whose change had finished "
			 "('tiertune restore --last' undoes it)");
		break;
	case TT_NOTE_SET_ASIDE:
		cli_warn(
			"set aside the journal of an interrupted tiertune as '%s', kept for you to "
			"read: %s",
			rec->aside, rec->aside_why);
		break;
	case TT_NOTE_SIMULATED:
		cli_warn("SIMULATED: %s's weights come from a performance model, not from "
			 "measurements on this machine",
			 (const char *)detail);
		break;
	case TT_NOTE_GLOBAL_OTHERS:
		cli_warn("%s weights are global: tasks on every other source node will use source "
			 "node %d's weights too",
			 rq->be->name, rq->source);
		break;
	case TT_NOTE_AUTO_WOULD_REFUSE:
		cli_warn(
			"writing weights turns the kernel's auto mode off, and this kernel cannot "
			"turn it back on (no HMAT/CDAT bandwidth data): apply refuses this without "
			"--force");
		break;
	case TT_NOTE_AUTO_FORCED:
		cli_warn("auto mode goes off for good (no bandwidth data to turn it back on)");
		break;
	case TT_NOTE_HISTORY_DAMAGED:
		cli_warn("the undo history holds %d damaged record%s (cut by a full disk or a "
			 "crash): skipped",
			 *(const int *)detail, *(const int *)detail == 1 ? "" : "s");
		break;
	case TT_NOTE_LAST_GONE: {
		const struct tt_apply_plan *p = detail;

		cli_warn("%d file%s the change wrote %s gone, %s node%s no memory now: left out "
			 "(%s)",
			 p->gone, p->gone == 1 ? "" : "s", p->gone == 1 ? "is" : "are",
			 p->gone == 1 ? "its" : "their", p->gone == 1 ? " has" : "s have",
			 p->gone_files);
		break;
	}
	case TT_NOTE_DRY_NOT_WRITABLE:
		cli_warn("%s; this is the plan, which a run as root would write", tt_err_msg());
		break;
	case TT_NOTE_JOURNAL_KEPT:
		cli_warn("the weights are written, but the journal could not be removed: %s "
			 "(harmless: the history marks it done)",
			 tt_err_msg());
		break;
	}
}

static int open_db(void *ctx, struct tt_db **db)
{
	return cli_db(ctx, 0, db);
}

/* Mirrors an apply or restore into the database as a run with its writes,
 * for 'runs' and 'show'. The undo record that restore --last reads is the
 * state folder's history, fsynced before the writer returned, so a
 * database that cannot be written costs a warning, not the way back. */
static void record(void *ctx, const struct tt_topo *t, const char *kind, const char *objective,
		   const struct tt_apply_plan *p)
{
	struct tt_cli *cli = ctx;
	struct tt_db *db;

	if (cli_db(cli, 0, &db) < 0) {
		cli_warn(
			"the weights are written (and 'tiertune restore --last' can undo them) but "
			"not recorded in the database: %s",
			tt_err_msg());
		return;
	}
	if (tt_db_apply_record(db, t, kind, cli->cmdline, objective, p) < 0)
		cli_warn(
			"the weights are written (and 'tiertune restore --last' can undo them) but "
			"recording them in the database failed: %s",
			tt_err_msg());
	tt_db_close(db);
}

/* The plan's writes: file, the value there and the value to write. */
static json_t *writes_json(const struct tt_apply_plan *p)
{
	json_t *w = json_array();

	for (int i = 0; i < p->n; i++)
		json_array_append_new(w, json_pack("{s:s,s:s,s:s}", "file", p->w[i].file, "old",
						   p->w[i].old, "new", p->w[i].value));
	return w;
}

/* What apply and restore print with --json, the same fields whether it
 * ran, was a dry run or had nothing to write (docs/json.md, doc apply);
 * a run that recommends no weights adds what it recommends. */
static int print_json(const struct tt_writer_req *rq, const struct tt_writer_result *res)
{
	const struct tt_apply_plan *p = &res->plan;
	json_t *j = json_pack("{s:s,s:b,s:s,s:i,s:o,s:i,s:b}", "action",
			      rq->kind == TT_WRITER_RESTORE ? "restore" : "apply", "dry_run",
			      rq->dry_run, "interface", p->be->name, "written", res->written,
			      "writes", writes_json(p), "unchanged", p->unchanged,
			      "auto_turned_off", res->auto_turned_off);

	if (res->action[0]) {
		json_object_set_new(j, "recommended_action", json_string(res->action));
		json_object_set_new(j, "source_node",
				    res->action_source >= 0 ? json_integer(res->action_source)
							    : json_null());
	}
	return cli_print_json(j);
}

/* A per_source run's recipe, as its report gave it (the database was just
 * read for the run; a failure now leaves the line above alone). */
static void print_recipe(const struct tt_writer_req *rq)
{
	struct tt_db *db;
	json_t *run;

	if (open_db(rq->hooks.ctx, &db) < 0)
		return;
	if (tt_db_run_get(db, rq->run_id, &run) == 0) {
		/* Nothing was to be written either way: a stored recipe that is
		 * no recipe is said, not printed. */
		if (cli_auto_run_recipe(run, stdout) < 0)
			cli_warn("%s", tt_err_msg());
		json_decref(run);
	}
	tt_db_close(db);
}

/* A run whose recommendation is no weights: what it says to do instead. */
static void print_action(const struct tt_writer_result *res)
{
	char src[48] = "";

	if (res->action_source >= 0)
		snprintf(src, sizeof(src), " for source node %d", res->action_source);
	if (strcmp(res->action, "keep_auto") == 0)
		printf("%s recommends keeping the kernel's auto mode%s (the best weights found "
		       "were not significantly better): nothing written\n",
		       res->what, src);
	else if (strcmp(res->action, "bind_local") == 0)
		printf("%s recommends binding memory to the local node%s (interleaving was not "
		       "better than local memory alone: numactl --localalloc): nothing written\n",
		       res->what, src);
	else if (strcmp(res->action, "per_source") == 0)
		printf("%s recommends no global weights%s: nothing written\n", res->what, src);
	else
		printf("%s recommends %s%s, not weights: nothing written\n", res->what,
		       tt_recos_action_says(res->action), src);
}

static void print_text(const struct tt_writer_req *rq, const struct tt_writer_result *res)
{
	const struct tt_apply_plan *p = &res->plan;

	if (res->action[0]) {
		print_action(res);
		/* per_source: what to do instead, as the run's report said it. */
		if (strcmp(res->action, "per_source") == 0 && rq->from == TT_WRITER_RUN)
			print_recipe(rq);
	} else if (res->nothing) {
		printf("%d value%s already as wanted: nothing to write\n", p->unchanged,
		       p->unchanged == 1 ? " is" : "s are");
	} else if (rq->dry_run) {
		tt_apply_print(p, stdout);
		if (p->unchanged)
			printf("(%d value%s already as wanted, left alone)\n", p->unchanged,
			       p->unchanged == 1 ? "" : "s");
	} else {
		for (int i = 0; i < p->n; i++) {
			const struct tt_write *w = &p->w[i];

			printf("%s%s: %s -> %s%s", p->sfs->live ? "" : p->sfs->root, w->file,
			       w->old, w->value, w->side ? " (set by the kernel)" : "");
			/* Written and read back, then changed by a later write of
			 * the plan (auto mode on recomputes the node weights). */
			if (w->after[0] && strcmp(w->after, w->value))
				printf(", then %s (the kernel recomputed it)", w->after);
			printf("\n");
		}
		printf("%d value%s written and read back", res->written,
		       res->written == 1 ? "" : "s");
		if (p->unchanged)
			printf("; %d already as wanted, left alone", p->unchanged);
		printf("\n");
		if (res->held)
			printf("held while the program runs: the old weights%s go back when "
			       "it ends\n",
			       res->auto_turned_off ? " and the kernel's auto mode" : "");
		else if (res->auto_turned_off)
			printf("note: writing node weights turned the kernel's auto mode off; "
			       "'tiertune restore --last' brings back the old weights and auto "
			       "mode\n");
	}
}

void cli_write_hooks(struct tt_cli *cli, struct tt_writer_req *rq)
{
	rq->sfs = &cli->sfs;
	rq->hooks.ctx = cli;
	rq->hooks.note = note;
	rq->hooks.open_db = open_db;
	rq->hooks.record = record;
}

int cli_recover_first(struct tt_cli *cli)
{
	struct tt_writer_req rq = { 0 };

	cli_write_hooks(cli, &rq);
	return tt_writer_recover(&rq);
}

int cli_write(struct tt_cli *cli, struct tt_writer_req *rq)
{
	struct tt_writer_result res;
	int rc = cli_write_keep(cli, rq, &res);

	tt_writer_result_release(&res);
	return rc;
}

int cli_write_keep(struct tt_cli *cli, struct tt_writer_req *rq, struct tt_writer_result *res)
{
	int rc;

	cli_write_hooks(cli, rq);
	rc = tt_writer_run(rq, res);
	/* Said, so that a boot unit's log explains a late apply. */
	if (tt_apply_lock_waited_ms >= 1000)
		cli_warn("waited %d s for the lock another tiertune held%s%s%s",
			 tt_apply_lock_waited_ms / 1000, tt_apply_lock_holder[0] ? " (pid " : "",
			 tt_apply_lock_holder, tt_apply_lock_holder[0] ? ")" : "");
	if (rc == 0)
		rc = cli->json ? print_json(rq, res) : (print_text(rq, res), 0);
	return rc;
}
