/* tiertune apply: write weights to sysfs as a transaction (core/apply.c)
 * and record what changed in the database; restore (cmd-restore.c) shares
 * cli_apply_execute and cli_apply_recover_first. */
#include "cli.h"

#include "../core/apply.h"
#include "../core/parse.h"
#include "../core/state.h"
#include "../db/db.h"
#include "../tuner/recos.h"

#include <stdio.h>
#include <string.h>

/* Mirrors an apply or restore into the database as a run with its writes,
 * for 'runs' and 'show'. The undo record that restore --last reads is the
 * state folder's history, fsynced before apply returned, so a database
 * that cannot be written costs a warning, not the way back. */
static void log_writes(struct tt_cli *cli, const struct tt_topo *t, const char *kind,
		       const struct tt_apply_plan *p, const char *objective)
{
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
 * ran, was a dry run or had nothing to write (docs/json.md, doc apply). */
static int print_json(const struct tt_apply_plan *p, const char *kind, bool dry_run, int written,
		      bool auto_turned_off)
{
	return cli_print_json(json_pack("{s:s,s:b,s:s,s:i,s:o,s:i,s:b}", "action", kind, "dry_run",
					dry_run, "interface", p->be->name, "written", written,
					"writes", writes_json(p), "unchanged", p->unchanged,
					"auto_turned_off", auto_turned_off));
}

/* Validate, dry-run or run, report, record: the part apply and restore share. */
int cli_apply_execute(struct tt_cli *cli, const struct tt_topo *t, struct tt_apply_plan *p,
		      bool dry_run, const char *kind, const char *objective)
{
	struct tt_apply_result res;
	char state[4096];
	int rc;

	if (!p->n && p->unchanged) {
		if (cli->json)
			return print_json(p, kind, dry_run, 0, false);
		printf("%d value%s already as wanted: nothing to write\n", p->unchanged,
		       p->unchanged == 1 ? " is" : "s are");
		return 0;
	}
	if (!p->n)
		return tt_err(TT_EINPUT, "nothing to write");
	/* A dry run refuses what the run would refuse, and for the same reason. */
	rc = tt_apply_check_writable(p);
	if (rc == 0 && dry_run)
		rc = tt_apply_verify(p);
	if (rc == 0 && dry_run) {
		if (cli->json)
			return print_json(p, kind, true, 0, false);
		tt_apply_print(p, stdout);
		if (p->unchanged)
			printf("(%d value%s already as wanted, left alone)\n", p->unchanged,
			       p->unchanged == 1 ? "" : "s");
		return 0;
	}
	if (rc == 0)
		rc = tt_state_dir(TT_DIR_STATE, state, sizeof(state));
	if (rc == 0)
		rc = tt_apply_run(p, state, kind, &res);
	if (rc < 0)
		return rc;
	if (res.journal_kept)
		cli_warn("the weights are written, but the journal could not be removed: %s "
			 "(harmless: "
			 "the history marks it done)",
			 tt_err_msg());
	if (cli->json) {
		rc = print_json(p, kind, false, res.written, res.auto_turned_off);
	} else {
		for (int i = 0; i < p->n; i++)
			printf("%s%s: %s -> %s\n", p->sfs->live ? "" : p->sfs->root, p->w[i].file,
			       p->w[i].old, p->w[i].value);
		printf("%d value%s written and read back", res.written,
		       res.written == 1 ? "" : "s");
		if (p->unchanged)
			printf("; %d already as wanted, left alone", p->unchanged);
		printf("\n");
		if (res.auto_turned_off)
			printf("note: writing node weights turned the kernel's auto mode off; "
			       "'tiertune "
			       "restore --last' brings back the old weights and auto mode\n");
	}
	log_writes(cli, t, kind, p, objective);
	return rc;
}

struct apply_args {
	const char *weights, *tier_weights, *profile, *interface;
	int64_t run, source;
	bool force, all_sources, dry_run;
};

static int load_recos(struct tt_cli *cli, const struct apply_args *a, const struct tt_topo *t,
		      struct tt_recos *rs)
{
	int rc;

	memset(rs, 0, sizeof(*rs));
	if (a->weights || a->tier_weights) {
		char buf[1024];
		const char *w = cli_weights_arg(cli, t, a->weights, buf, sizeof(buf), &rc);

		return rc < 0 ? rc : tt_recos_from_args(w, a->tier_weights, (int)a->source, rs);
	}
	char what[4200];

	if (a->profile) {
		rc = tt_recos_from_profile(a->profile, rs);
		snprintf(what, sizeof(what), "profile '%s'", a->profile);
	} else {
		struct tt_db *db;

		rc = cli_db(cli, 0, &db);
		if (rc < 0)
			return rc;
		rc = tt_recos_from_run(db, a->run, rs);
		tt_db_close(db);
		snprintf(what, sizeof(what), "run %jd", (intmax_t)a->run);
	}
	if (rc == 0)
		rc = tt_recos_check_machine(rs, t, a->force, what);
	if (rc == 0 && rs->simulated)
		cli_warn("SIMULATED: %s's weights come from a performance model, not from "
			 "measurements on this machine",
			 what);
	return rc;
}

/* A journal left by a killed apply goes back before anything is planned.
 * (A dry run only hears about it, from main's warning.) The root must be
 * open: a journal of another root is refused, not put back there. */
int cli_apply_recover_first(struct tt_cli *cli)
{
	char state[4096];
	struct tt_recovery rec;
	int rc = tt_state_dir(TT_DIR_STATE, state, sizeof(state));

	if (rc == 0)
		rc = tt_apply_recover_leftover(state, &cli->sfs, &rec);
	if (rc == 0 && rec.restored)
		cli_warn("first put back %d value%s from a journal left by an interrupted tiertune",
			 rec.restored, rec.restored == 1 ? "" : "s");
	if (rc == 0 && rec.committed)
		cli_warn("removed the journal of an interrupted tiertune whose change had finished "
			 "('tiertune restore --last' undoes it)");
	return rc;
}

static int apply(struct tt_cli *cli, const struct apply_args *a)
{
	const struct tt_wi_backend *be;
	struct tt_apply_plan p;
	struct tt_topo t;
	struct tt_recos rs;
	char objective[64] = "";
	int rc = cli_open_root(cli);

	if (rc)
		return rc;
	rc = a->dry_run ? 0 : cli_apply_recover_first(cli);
	if (rc < 0)
		return cli_fail(rc);
	rc = cli_load_topo(cli, &t);
	if (rc)
		return rc;
	tt_apply_plan_init(&p, NULL, &cli->sfs);
	rc = cli_pick_interface(cli, a->interface, &be);
	if (rc == 0)
		rc = tt_topo_check_source(&t, (int)a->source);
	if (rc == 0)
		rc = load_recos(cli, a, &t, &rs);
	if (rc == 0)
		rc = tt_recos_convert(&rs, &t, be);
	if (rc < 0)
		goto out;
	p.be = be;
	if (rs.run_id)
		snprintf(objective, sizeof(objective), "run %jd", (intmax_t)rs.run_id);
	if (!be->per_source) {
		struct tt_weights w;
		bool others = false;

		rc = tt_recos_merged(&rs, be, a->all_sources ? -1 : (int)a->source, &w);
		if (rc < 0)
			goto out;
		for (int i = 0; i < rs.n; i++)
			others |= a->source >= 0 && rs.r[i].source_node >= 0 &&
				  rs.r[i].source_node != a->source;
		if (others)
			cli_warn("%s weights are global: tasks on every other source node will "
				 "use source node %jd's weights too",
				 be->name, (intmax_t)a->source);
		rc = tt_apply_plan_weights(&p, &t, -1, &w);
		/* A dry run shows the plan and says what the run would refuse. */
		if (rc == 0 && p.auto_lost && !a->force && a->dry_run) {
			cli_warn(
				"writing weights turns the kernel's auto mode off, and this kernel "
				"cannot turn it back on (no HMAT/CDAT bandwidth data): apply "
				"refuses "
				"this without --force");
		} else if (rc == 0 && p.auto_lost && !a->force) {
			rc = tt_err(TT_EUNAVAIL,
				    "writing weights turns the kernel's auto mode off, and "
				    "this kernel cannot turn it back on: it has no HMAT/CDAT "
				    "bandwidth data, so writing 'true' fails (ENODEV)");
			tt_err_hint(
				"--force applies anyway; restore then brings back the weights but "
				"leaves auto mode off");
		} else if (rc == 0 && p.auto_lost) {
			cli_warn("auto mode goes off for good (no bandwidth data to turn it back "
				 "on)");
		}
	} else {
		int used = 0;

		for (int i = 0; i < rs.n && rc == 0; i++) {
			const struct tt_reco *r = &rs.r[i];

			if (a->source >= 0 && !a->all_sources && r->source_node != a->source)
				continue;
			used++;
			rc = tt_apply_plan_weights(&p, &t, r->source_node, &r->w);
		}
		if (rc == 0 && !used)
			rc = tt_err(TT_EINPUT, "no %s (per-%s) recommendation to apply%s", be->name,
				    be->unit, a->source >= 0 ? " for that source node" : "");
	}
	if (rc == 0)
		rc = cli_apply_execute(cli, &t, &p, a->dry_run, "apply",
				       objective[0] ? objective : NULL);
out:
	tt_apply_plan_release(&p);
	tt_topo_release(&t);
	return rc < 0 ? cli_fail(rc) : rc;
}

int cmd_apply(struct tt_cli *cli, int argc, char **argv)
{
	struct apply_args a = { .source = -1, .run = -1 };
	char ifaces[256];
	struct cli_opt opts[] = {
		CLI_STRING(
			"weights", &a.weights, "N:W,...|auto",
			"per-node weights (upstream 1-255; RFC: per node, turned into tier "
			"weights for --source-node), or 'auto' for the kernel's auto-mode formula "
			"on the HMAT figures (for kernels without auto mode)"),
		CLI_STRING(
			"tier-weights", &a.tier_weights, "TIER:W,...",
			"per-tier weights: RFC 0-100 for --source-node; upstream, split over the "
			"tier's nodes"),
		CLI_I64("run", &a.run, "RUN", "the recommendation recorded with run RUN", 1,
			INT64_MAX),
		CLI_STRING("profile", &a.profile, "FILE",
			   "a profile from 'export --format json' (its hardware fingerprint must "
			   "match this host's unless --force)"),
		CLI_FLAG("force", &a.force, "apply a profile or run from other hardware"),
		CLI_SOURCE_NODE(&a.source,
				"the source node whose recommendation to apply (RFC: whose "
				"tier weights to write)"),
		CLI_FLAG("all-sources", &a.all_sources,
			 "every source node's recommendation (upstream: merged, refused where they "
			 "disagree)"),
		CLI_STRING("interface", &a.interface, cli_interfaces(ifaces, sizeof(ifaces), NULL),
			   "the kernel interface to write (default: the one this kernel has)"),
		CLI_FLAG("dry-run", &a.dry_run,
			 "show the plan (old -> new per file), write nothing"),
		CLI_END,
	};
	int nargs, rc = cli_parse(cli, cli_find_command("apply"), opts, argc, argv, &nargs);

	if (rc >= 0)
		return rc;
	if (opts[0].seen + opts[1].seen + opts[2].seen + opts[3].seen != 1)
		return cli_usage("apply needs exactly one of --weights, --tier-weights, --run, "
				 "--profile");
	if (a.all_sources && a.source >= 0)
		return cli_usage("--source-node and --all-sources do not go together");
	return apply(cli, &a);
}
