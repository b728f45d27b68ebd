// SPDX-License-Identifier: GPL-3.0-or-later
/* tiertune export: recommended weights in the forms operators deploy them
 * with. Written to a temp file and renamed, so a reader never sees half. */
#include "auto-display.h"
#include "cli.h"
#include "export.h"
#include "../view/run-figures.h"

#include "../writer/apply.h"
#include "../core/parse.h"
#include "../migrate/rebalance.h"
#include "../core/wi.h"
#include "../db/db.h"
#include "../migrate/damon.h"
#include "../writer/recos.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void shell_line(FILE *f, const struct tt_wi_backend *be, const char *file, const char *value,
		       bool first, bool implied)
{
	(void)first;
	/* The kernel does this by itself after the writes above; saying so in
	 * the script keeps it exact on any root. */
	if (implied)
		fprintf(f, "echo %s > \"$root%s\"   # what the %s writes did\n", value, file,
			be->unit);
	else
		fprintf(f, "echo %s > \"$root%s\"\n", value, file);
}

/* The check before any write: every file the script writes is there (at
 * the top, or inside an interface's "if" for several interfaces). */
static void check_line(FILE *f, const char *indent, const char *file, bool first)
{
	if (first)
		fprintf(f, "%s[ -f \"$root%s\" ] || missing \"%s\"\n", indent, file, file);
}

static void shell_check(FILE *f, const struct tt_wi_backend *be, const char *file,
			const char *value, bool first, bool implied)
{
	(void)be;
	(void)value;
	(void)implied;
	check_line(f, "", file, first);
}

static void shell_check_in(FILE *f, const struct tt_wi_backend *be, const char *file,
			   const char *value, bool first, bool implied)
{
	(void)be;
	(void)value;
	(void)implied;
	check_line(f, "\t", file, first);
}

static void shell_first(FILE *f, const struct tt_wi_backend *be, const char *file,
			const char *value, bool first, bool implied)
{
	(void)be;
	(void)value;
	(void)implied;
	if (first && !ftell(f))
		fputs(file, f);
}

/* Every file is checked before any is written, and none is created: on a
 * root where a node is not online yet (its weight file absent) the script
 * writes nothing. It still cannot be all or nothing: a write that fails
 * half-way leaves the ones before it, with no journal to put them back.
 * With several interfaces (--interface both, for a mixed fleet) each is
 * written where its first file is there, and one at least must be. */
static int shell(const struct export *e, FILE *f)
{
	bool any = e->nbe > 1;
	int rc = 0;

	fprintf(f,
		"#!/bin/sh\n# %s\n"
		"# NOT ALL OR NOTHING: every file below is checked before any is written, but a\n"
		"# write that fails half-way leaves the ones before it written, and nothing here\n"
		"# checks the hardware fingerprint. tiertune-apply.service (tiertune apply\n"
		"# --profile FILE, docs/fleet.md) is all or nothing, and runs again when memory\n"
		"# comes online: use it where tiertune is installed.\n"
		"# Run as root; an optional argument is a root folder to write under instead of "
		"/.\n"
		"set -e\nroot=${1:-}\n"
		"missing() { echo \"$0: no $root$1 (a node not online yet?): nothing written\" "
		">&2; "
		"exit 1; }\n",
		cli_export_header(e));
	for (int i = 0; i < e->nbe && rc == 0; i++) {
		const struct tt_wi_backend *be = e->be[i];
		char first[512] = "";
		FILE *mf = fmemopen(first, sizeof(first), "w");

		if (!mf)
			return tt_err(TT_EFAIL, "out of memory");
		rc = cli_export_each_write(e, be, mf, shell_first);
		fclose(mf);
		fprintf(f, "\n# the %s interface: %s\n", be->name, be->summary);
		/* The two RFCs share the tier files' path; what a file holds
		 * tells them apart, as tt_wi_tier_form does: the earlier one a
		 * plain number, the per-source one SRC:WEIGHT entries. */
		if (any && be->key == TT_WI_BY_TIER)
			fprintf(f,
				"use_%s=\nif [ -f \"$root%s\" ] && %sgrep -qxE '[0-9]+' "
				"\"$root%s\"; then\n\tuse_%s=1\n",
				be->name, first, be->per_source ? "! " : "", first, be->name);
		else if (any)
			fprintf(f, "use_%s=\nif [ -f \"$root%s\" ]; then\n\tuse_%s=1\n", be->name,
				first, be->name);
		if (rc == 0)
			rc = cli_export_each_write(e, be, f, any ? shell_check_in : shell_check);
		if (any)
			fputs("fi\n", f);
	}
	if (any) {
		fputs("[ -n \"", f);
		for (int i = 0; i < e->nbe; i++)
			fprintf(f, "$use_%s", e->be[i]->name);
		fputs("\" ] || { echo \"$0: no weight interface here: nothing written\" >&2; exit "
		      "1; }\n",
		      f);
	}
	for (int i = 0; i < e->nbe && rc == 0; i++) {
		fprintf(f, "\n# the %s interface\n", e->be[i]->name);
		if (any)
			fprintf(f, "if [ -n \"$use_%s\" ]; then\n", e->be[i]->name);
		rc = cli_export_each_write(e, e->be[i], f, shell_line);
		if (any)
			fputs("fi\n", f);
	}
	return rc;
}

static void tmpfiles_line(FILE *f, const struct tt_wi_backend *be, const char *file,
			  const char *value, bool first, bool implied)
{
	(void)be;
	/* Only what is written: the kernel does the implied by itself. One
	 * line per path unless appended with w+: systemd-tmpfiles skips
	 * duplicate paths. */
	if (!implied)
		fprintf(f, "%-3s %s - - - - %s\n", first ? "w" : "w+", file, value);
}

static int tmpfiles(const struct export *e, FILE *f)
{
	int rc = 0;

	fprintf(f,
		"# %s\n# /etc/tmpfiles.d/tiertune.conf: sets the weights at every boot.\n"
		"# NOT ALL OR NOTHING: systemd-tmpfiles writes each line on its own, skips a\n"
		"# path that is not there yet (a CXL node onlined after boot) and still exits\n"
		"# 0, and checks no hardware fingerprint. tiertune-apply.service (tiertune\n"
		"# apply --profile FILE, docs/fleet.md) is all or nothing, and runs again when\n"
		"# memory comes online: use it where tiertune is installed.\n",
		cli_export_header(e));
	fprintf(f, "#Type Path%*s Mode User Group Age Argument\n", 50, "");
	for (int i = 0; i < e->nbe && rc == 0; i++)
		rc = cli_export_each_write(e, e->be[i], f, tmpfiles_line);
	return rc;
}

static int csv(const struct export *e, FILE *f)
{
	if (!e->run)
		return tt_err(TT_EINPUT, "csv exports a run's trials: give --run RUN or --latest");
	tt_trials_csv(e->run, f);
	return 0;
}

static int profile(const struct export *e, FILE *f)
{
	json_t *j = tt_recos_profile_json(&e->rs, e->t);
	int rc = j && json_dumpf(j, f, JSON_INDENT(2) | JSON_SORT_KEYS) == 0 ? 0 : -1;

	json_decref(j);
	if (rc < 0)
		return tt_err(TT_EFAIL, "cannot write the profile");
	fputc('\n', f);
	return 0;
}

/* Every format refuses what apply would refuse: the same check
 * (tt_wi_check) of the weights as each interface would get them. */
static int check_recos(const struct export *e)
{
	struct tt_recos rs;
	struct tt_weights w;
	int rc = tt_topo_check_source(e->t, e->source);

	for (int k = 0; k < e->nbe && rc == 0; k++) {
		const struct tt_wi_backend *be = e->be[k];
		char why[256];
		/* --interface both is for a mixed fleet: an interface this root
		 * lacks is converted (its weights checked in its own range) but
		 * not held to files this root does not have. */
		bool here = e->nbe == 1 || be->detect(&e->cli->sfs, why, sizeof(why)) == 0;

		rs = e->rs;
		rc = tt_recos_convert(&rs, e->t, be);
		if (rc == 0 && !be->per_source) {
			rc = tt_recos_merged(&rs, be, e->source, &w);
			if (rc == 0 && here)
				rc = tt_wi_check(be, &e->cli->sfs, e->t, -1, &w);
			continue;
		}
		for (int i = 0; rc == 0 && here && i < rs.n; i++)
			if (e->source < 0 || rs.r[i].source_node == e->source)
				rc = tt_wi_check(be, &e->cli->sfs, e->t, rs.r[i].source_node,
						 &rs.r[i].w);
	}
	return rc;
}

/* Per-node shares in basis points (migrate/rebalance.h: one cycle of the
 * kernel's interleave walk, apportioned to exactly 10000 by the largest
 * remainder), one line per node: the goals DAMON's weighted
 * migrate_hot/migrate_cold take as dests (a dest's id is the node, its
 * weight the basis points) and DAMON's node_eligible_mem_bp quota goal
 * (nid the node, target_value the basis points; docs/damon.md), the name
 * the metric landed under (the RFC's first was node_sys_bp). */
static int shares(const struct export *e, FILE *f)
{
	const struct tt_wi_backend *be = tt_wi_for_key(TT_WI_BY_NODE);
	struct tt_recos *rs = malloc(sizeof(*rs));
	uint32_t bp[TT_MAX_NODES];
	int rc = rs && be ? 0 : tt_err(TT_EFAIL, "out of memory");

	if (rc == 0) {
		*rs = e->rs;
		rc = tt_recos_convert(rs, e->t, be);
	}
	if (rc == 0)
		fprintf(f,
			"# %s\n# per-node shares of pages in basis points (sum 10000, largest "
			"remainder):\n# DAMON's weighted migrate_hot/migrate_cold (Linux 6.17+) "
			"takes them as\n# schemes/<S>/dests/<D>/id = node, dests/<D>/weight = "
			"share_bp\n# and DAMON's quota goal node_eligible_mem_bp as goals/<G>/nid "
			"= node,\n"
			"# goals/<G>/target_value = share_bp (docs/damon.md)\n"
			"# source_node node share_bp\n",
			cli_export_header(e));
	for (int i = 0; rc == 0 && i < rs->n; i++) {
		const struct tt_reco *r = &rs->r[i];
		int id;

		if (e->source >= 0 && r->source_node >= 0 && r->source_node != e->source)
			continue;
		rc = tt_rb_shares_bp(&r->w, bp);
		tt_nodemask_for_each (id, &r->w.set) {
			if (rc < 0)
				break;
			if (r->source_node >= 0)
				fprintf(f, "%d %d %u\n", r->source_node, id, bp[id]);
			else
				fprintf(f, "- %d %u\n", id, bp[id]);
		}
	}
	free(rs);
	return rc;
}

/* The same scheme set rebalance --damon sets up (migrate/damon.h), as a
 * file damo loads (damo start --kdamonds FILE) or a boot unit hands it:
 * one set for the machine, so one recommendation (--source-node picks
 * one of a per-source run's). */
static int damon(const struct export *e, FILE *f)
{
	const struct tt_wi_backend *be = tt_wi_for_key(TT_WI_BY_NODE);
	struct tt_recos *rs = malloc(sizeof(*rs));
	struct tt_damon_set *set = malloc(sizeof(*set));
	const struct tt_reco *r = NULL;
	json_t *j = NULL;
	int rc = rs && set && be ? 0 : tt_err(TT_EFAIL, "out of memory");

	if (rc == 0) {
		*rs = e->rs;
		rc = tt_recos_convert(rs, e->t, be);
	}
	for (int i = 0; rc == 0 && i < rs->n; i++) {
		if (e->source >= 0 && rs->r[i].source_node >= 0 &&
		    rs->r[i].source_node != e->source)
			continue;
		if (r)
			rc = tt_err(TT_EINPUT,
				    "DAMON keeps one set of shares for the machine: give "
				    "--source-node to pick one source's weights");
		r = &rs->r[i];
	}
	if (rc == 0 && !r)
		rc = tt_err(TT_EINPUT, "no recommendation to export");
	if (rc == 0)
		rc = tt_damon_set_from_weights(e->t, &r->w, set);
	if (rc == 0)
		tt_damon_read_spans(&e->cli->sfs, set);
	if (rc == 0 && !(j = tt_damon_damo_json(set)))
		rc = tt_err(TT_EFAIL, "out of memory");
	if (rc == 0 && json_dumpf(j, f, JSON_INDENT(2)) < 0)
		rc = tt_err(TT_EFAIL, "cannot write the DAMON schemes");
	if (rc == 0)
		fputc('\n', f);
	json_decref(j);
	free(set);
	free(rs);
	return rc;
}

/* An export format: its writer and the traits that set how export reads
 * and checks what it writes. To add one: 1. write its writer above (the
 * recommendation is e->rs, converted per interface as shell's is; the
 * run is e->run when it sets .run); 2. add its descriptor to formats[]
 * below, traits included (--format's choices, help, error and completion
 * all come from the table); 3. describe it under --format in
 * docs/tiertune.1 (t0013 holds the man page to every choice) and, if it
 * is read by a program, test it against that program (t0040). */
struct format {
	const char *name;
	const char *about; /* in --format's help after the name, or NULL */
	int (*write)(const struct export *e, FILE *f);
	/* The run's trials, not its recommendation: a run only (a profile
	 * holds no trials); nothing to check against this root; a run that
	 * recommends keeping auto mode or binding locally exports too. */
	bool trials;
	bool run; /* reads the run itself (e->run), not only its recommendation */
	/* Carries the machine it was made for (a profile): checked where it
	 * is applied, not against this root; a keep-auto verdict exports. */
	bool portable;
	/* node_exporter's textfile, read by another user: 0644, written
	 * through no link; a bad --profile still writes the sysfs weights
	 * and the reason (prometheus_bad_profile). */
	bool textfile;
};

static const struct format formats[] = {
	{ .name = "shell", .write = shell },
	{ .name = "json",
	  .about = "a profile for identical hosts",
	  .write = profile,
	  .portable = true },
	{ .name = "tmpfiles", .write = tmpfiles },
	{ .name = "numactl", .write = cli_export_numactl },
	{ .name = "systemd", .about = "a drop-in for a service", .write = cli_export_systemd },
	{ .name = "prometheus", .write = cli_export_prometheus, .run = true, .textfile = true },
	{ .name = "csv", .about = "the run's trials", .write = csv, .trials = true, .run = true },
	{ .name = "shares", .about = "per-node basis points", .write = shares },
	{ .name = "damon", .about = "damo's --kdamonds file", .write = damon },
	{ .name = NULL },
};

/* --format's choices: the table's names. */
static const char *format_name(int i)
{
	return i >= 0 && i < (int)(sizeof(formats) / sizeof(*formats)) ? formats[i].name : NULL;
}

/* --format's help, from the table: "shell, json (a profile ...), ...,
 * or shares (...)". */
static const char *formats_help(char *buf, size_t size)
{
	FILE *f = fmemopen(buf, size, "w");

	if (!f)
		return "the format";
	for (const struct format *m = formats; m->name; m++)
		fprintf(f, "%s%s%s%s%s",
			m == formats ? ""
			: m[1].name  ? ", "
				     : ", or ",
			m->name, m->about ? " (" : "", m->about ? m->about : "",
			m->about ? ")" : "");
	fclose(f);
	return buf;
}

void cli_export_formats(FILE *f)
{
	for (const struct format *m = formats; m->name; m++)
		fprintf(f, "%s\n", m->name);
}

struct emit_ctx {
	const struct export *e;
	int (*write)(const struct export *, FILE *);
};

static int emit_write(void *ctx, FILE *f)
{
	const struct emit_ctx *c = ctx;

	return c->write(c->e, f);
}

static int emit(const struct export *e, const struct format *fmt, const char *out)
{
	struct emit_ctx c = { e, fmt->write };

	if (out && fmt->textfile)
		return cli_write_textfile(out, emit_write, &c);
	return out ? cli_write_file(out, emit_write, &c) : fmt->write(e, stdout);
}

/* The metrics timer's textfile with a profile that is bad (unreadable,
 * from other hardware, naming a node not online): the weights in sysfs
 * now and the reason are written all the same (a file left as it was
 * served the last good minute's "current" weights: node 0 at 25 while
 * sysfs held 9), and the command still fails with the profile's error. */
static int prometheus_bad_profile(struct export *e, const struct format *fmt, int rc,
				  const char *out)
{
	char msg[1024], hint[1024];
	int wrc;

	snprintf(msg, sizeof(msg), "%s", tt_err_msg());
	snprintf(hint, sizeof(hint), "%s", tt_err_hint_msg());
	memset(&e->rs, 0, sizeof(e->rs));
	e->profile_error = msg;
	wrc = emit(e, fmt, out);
	if (wrc < 0)
		return wrc;
	tt_err(rc, "%s", msg);
	if (hint[0])
		tt_err_hint("%s", hint);
	return rc;
}

/* --interface: the one named (default: the one this kernel has), or
 * every one. */
static int pick_interfaces(struct export *e, const char *interface)
{
	int rc;

	if (interface && strcmp(interface, "both") == 0) {
		for (const struct tt_wi_backend *const *b = tt_wi_backends;
		     *b && e->nbe < (int)(sizeof(e->be) / sizeof(e->be[0])); b++)
			e->be[e->nbe++] = *b;
		return 0;
	}
	rc = cli_pick_interface(e->cli, interface, &e->be[0]);
	if (rc == 0)
		e->nbe = 1;
	return rc;
}

/* --profile: its recommendation, checked against this root's hardware
 * unless it is exported as a profile again. */
/* --weights (or "auto") or --tier-weights, read once as typed weights. */
static int from_args(struct tt_cli *cli, struct export *e, const char *weights,
		     const char *tier_weights)
{
	struct tt_weights w;
	int rc;

	if (weights)
		rc = cli_weights_read(cli, e->t, weights, CLI_NODE_WEIGHTS_OR_AUTO, &w);
	else
		rc = cli_weights_read(cli, e->t, tier_weights, CLI_TIER_WEIGHTS, &w);
	if (rc < 0)
		return rc;
	return tt_recos_from_args(weights ? &w : NULL, weights ? NULL : &w, e->source,
				  e->nbe == 1 ? e->be[0] : NULL, &e->rs);
}

static int from_profile(struct export *e, const char *file, const struct format *fmt, bool force)
{
	char what[4200];
	int rc;

	snprintf(what, sizeof(what), "profile '%s'", file);
	e->profile = file;
	rc = tt_recos_from_profile(file, &e->rs);
	if (rc == 0 && fmt->trials)
		rc = tt_err(TT_EINPUT, "csv exports a run's trials, which a profile does "
				       "not hold: give --run RUN or --latest");
	if (rc == 0 && !fmt->portable)
		rc = tt_recos_check_machine(&e->rs, e->t, force, what);
	return rc;
}

/* --run RUN, or the newest run of this hardware (run 0): its
 * recommendation (and the run itself for csv and prometheus). A status
 * > 0 is the exit code of a database that did not open (said already). */
static int from_run(struct export *e, int64_t run, const struct format *fmt, bool force)
{
	struct tt_db *db;
	int rc = cli_open_db(e->cli, TT_DB_READONLY, &db);

	if (rc)
		return rc;
	rc = run ? tt_recos_from_run(db, run, &e->rs) : tt_recos_latest(db, e->t, &e->rs);
	if (rc == 0 && fmt->run)
		rc = tt_run_get(db, e->rs.run_id, &e->run);
	/* A run that recommends keeping auto mode or binding locally has no
	 * weights for a script to write (CSV still has its trials). */
	/* keep_auto as a profile (json) turns auto mode on where it is
	 * applied: a fleet persists the verdict as it persists weights. */
	if (rc == 0 && !e->rs.n && e->rs.nactions && !fmt->trials &&
	    !(fmt->portable && strcmp(e->rs.actions[0].action, "keep_auto") == 0))
		rc = tt_err(TT_EINPUT,
			    "run %jd recommends %s for source node %d: no weights to export",
			    (intmax_t)e->rs.run_id, tt_recos_action_says(e->rs.actions[0].action),
			    e->rs.actions[0].source_node);
	if (rc < 0 && !e->rs.n && e->rs.nactions &&
	    strcmp(e->rs.actions[0].action, "keep_auto") == 0)
		tt_err_hint("--format json exports it as a profile that turns auto mode on where "
			    "'tiertune apply --profile' (the boot unit) applies it");
	/* per_source: what to do instead, as the run's report said it. */
	if (rc < 0 && !e->rs.n && e->rs.nactions &&
	    strcmp(e->rs.actions[0].action, "per_source") == 0) {
		json_t *doc;

		if (tt_db_run_get(db, e->rs.run_id, &doc) == 0) {
			int refused = cli_auto_run_recipe(doc, stderr);

			/* Its refusal is the error then, still exit 2. */
			if (refused < 0)
				rc = refused;
			json_decref(doc);
		}
	}
	tt_db_close(db);
	/* Checked against this root's interfaces and nodes, the weights must
	 * be for its hardware; a profile (json) carries the run's own machine
	 * and is checked where it is applied. */
	if (rc == 0 && !fmt->trials && !fmt->portable) {
		char what[64];

		snprintf(what, sizeof(what), "run %jd", (intmax_t)e->rs.run_id);
		rc = tt_recos_check_machine(&e->rs, e->t, force, what);
	}
	return rc;
}

int cmd_export(struct tt_cli *cli, int argc, char **argv)
{
	const char *out = NULL, *weights = NULL, *tier_weights = NULL, *interface = NULL,
		   *profile_file = NULL;
	struct export e = { .cli = cli, .source = -1 };
	uint64_t run = 0;
	int64_t source = -1;
	bool latest = false, all = false, force = false;
	char ifaces[256], about[512];
	int fmt = -1;
	struct cli_opt opts[] = {
		CLI_U64("run", &run, "RUN", "the recommendation recorded with run RUN", 1,
			INT64_MAX),
		CLI_FLAG("latest", &latest, "the newest run's recommendation"),
		CLI_STRING(
			"weights", &weights, "N:W,...|auto",
			"these per-node weights, or 'auto': the kernel's auto-mode formula on the "
			"HMAT figures"),
		CLI_STRING("tier-weights", &tier_weights, "TIER:W,...", "these per-tier weights"),
		CLI_STRING("profile", &profile_file, "FILE",
			   "the recommendation in a profile (export --format json) made on this "
			   "hardware"),
		CLI_SOURCE_NODE(&source, "the source node whose recommendation to export"),
		CLI_FLAG("all-sources", &all, "every source node's recommendation"),
		CLI_FLAG("force", &force, "export a run from other hardware for this root"),
		CLI_CHOICE("format", &fmt, NULL, formats_help(about, sizeof(about)),
			   .choice = format_name, .required = true),
		CLI_STRING("output", &out, "FILE",
			   "write to FILE (a regular file through a temporary file and rename; a "
			   "device, FIFO or symlink written through, but prometheus's textfile "
			   "replaces a link, mode 0644) instead of standard output",
			   .short_name = 'o'),
		CLI_STRING("interface", &interface, cli_interfaces(ifaces, sizeof(ifaces), "|both"),
			   "the interface to export for, or every one (default: the one this "
			   "kernel has)"),
		CLI_END,
	};
	static const struct tt_opt_rule rules[] = {
		{ .kind = TT_OPT_ONE_OF,
		  .terms = { "run", "latest", "weights", "tier-weights", "profile" },
		  .message = "export needs exactly one of --run, --latest, --weights, "
			     "--tier-weights, --profile" },
		{ .kind = TT_OPT_EXCLUDES, .terms = { "source-node", "all-sources" } },
		{ .kind = TT_OPT_RULE_END },
	};
	int nargs, rc = cli_parse_rules(cli, cli_find_command("export"), opts, rules, argc, argv,
					&nargs);
	struct tt_topo *t;

	if (rc >= 0)
		return rc;
	/* The service's command, for a systemd without weighted-interleave:
	 * after "--" only, and for that format only. */
	if (nargs && (cli->dashdash != 0 || strcmp(formats[fmt].name, "systemd")))
		return cli_usage("export takes a command only after '--', for --format systemd "
				 "(the service's command), got '%s'",
				 argv[0]);
	e.command = argv;
	e.ncommand = nargs;
	if (cli_export_command_ok(argv, nargs) < 0)
		return cli_fail(TT_EINPUT);
	e.source = (int)source;
	rc = cli_setup(cli);
	if (rc)
		return rc;
	t = cli->topo;
	e.t = t;
	rc = pick_interfaces(&e, interface);
	if (rc < 0)
		goto fail;
	if (weights || tier_weights) {
		rc = from_args(cli, &e, weights, tier_weights);
	} else if (profile_file) {
		rc = from_profile(&e, profile_file, &formats[fmt], force);
	} else {
		rc = from_run(&e, latest ? 0 : (int64_t)run, &formats[fmt], force);
		if (rc > 0) { /* the database's exit code: said already */
			return rc;
		}
	}
	/* A profile of weights found on other hardware is checked where it is
	 * applied, not against this root. */
	if (rc == 0 && !formats[fmt].trials && e.rs.n &&
	    !(formats[fmt].portable && tt_recos_other_hw(&e.rs, t)))
		rc = check_recos(&e);
	/* As apply --weights refuses them, after the interface's check (a
	 * node with no weight file is bad input): a node not online here may
	 * still have one (kernels before 6.16 make one per possible node),
	 * and a profile naming it never applies. */
	if (rc == 0 && (weights || tier_weights))
		rc = tt_recos_check_present(&e.rs, t, "--weights");
	if (rc < 0 && profile_file && formats[fmt].textfile)
		rc = prometheus_bad_profile(&e, &formats[fmt], rc, out);
	else if (rc == 0)
		rc = emit(&e, &formats[fmt], out);
	json_decref(e.run);
	if (rc < 0)
		goto fail;
	return 0;
fail:
	return cli_fail(rc);
}
