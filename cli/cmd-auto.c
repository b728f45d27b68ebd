// SPDX-License-Identifier: GPL-3.0-or-later
/* tiertune auto: search the best weights for one source node, prove them
 * against the baselines, record them, and optionally apply them; and
 * tiertune sweep, the same run with the exhaustive grid as its strategy
 * (one file: the two differ only in their options). The run is a session
 * of tuner/auto.h (a typed request in, one report document out); the
 * options make the request (auto-options.c), this file drives the session,
 * prints its progress and its report (auto-display.c renders the document
 * as text or JSON), and applies. */
#include "auto-display.h"
#include "auto-options.h"
#include "cli.h"
#include "progress.h"

#include "../bench/kernels.h"
#include "../writer/apply.h"
#include "../core/bitmap.h"
#include "../core/deadline.h"
#include "../core/wi.h"
#include "../tuner/auto.h"
#include "../model/model.h"
#include "../writer/writer.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* --all-sources: every source's recommendation and run (tuner/auto.h),
 * and with --json each source's summary. */
struct all_sources {
	struct tt_auto_all set;
	json_t *docs;
	bool unrecorded; /* a source's run could not be recorded (said there) */
	int last;	 /* the last CPU node: its session judges the merged set */
};

/* A person waiting at a terminal sees one status line on stderr,
 * rewritten in place (at most ten times a second) and cleared before the
 * report: the run's state (measurement n of N, the best so far, time left)
 * and inside a real trial the trial's own (first touch, pass n of N), in
 * the status line bench shows (progress.h). A log, or --verbose, gets a
 * line per measurement. stdout holds only the report (or the JSON
 * document). */
struct watch {
	struct tt_cli *cli;
	bool tty;
	struct cli_progress line;
	/* The real trials' kernel, for the status line's words: NULL in the
	 * profile, whose bandwidth and idle-latency runs alternate. */
	const struct tt_kernel *kernel;
};

static void progress(void *ctx, const struct tt_auto *c, const struct tt_search *s, int trial)
{
	struct watch *w = ctx;
	double el = tt_mono_s() - w->line.t0;
	char line[256], tail[64];
	size_t n, k;

	if (!w->tty) {
		if (!s->confirming)
			cli_auto_progress(stderr, c, s, trial);
		else if (!w->cli->json)
			cli_auto_confirm(stderr, c, s, trial);
		return;
	}
	/* cli_auto_status ends with the seconds elapsed, which the status
	 * line keeps counting itself (after the trial's state, if any). */
	cli_auto_status(line, sizeof(line), c, s, el);
	snprintf(tail, sizeof(tail), ", %.0f s elapsed", el);
	n = strlen(line);
	k = strlen(tail);
	if (n >= k && strcmp(line + n - k, tail) == 0)
		line[n - k] = '\0';
	cli_progress_head(&w->line, line);
}

static int trial_started(void *ctx, const struct tt_bench_result *r)
{
	struct watch *w = ctx;

	cli_progress_started(&w->line, w->kernel, r);
	return 0;
}

static void trial_progress(void *ctx, int n, int of)
{
	struct watch *w = ctx;

	cli_progress_pass(&w->line, n, of);
}

static void on_discard(void *ctx, const struct tt_weights *w, const char *why)
{
	char ws[96];

	cli_progress_hide(&((struct watch *)ctx)->line);
	if (tt_weights_format(w, ws, sizeof(ws)) < 0)
		snprintf(ws, sizeof(ws), "?");
	fprintf(stderr, "trial %s discarded, measuring again: the weights moved under it (%s)\n",
		ws, why);
}

static void profiling(void *ctx, const struct tt_auto *c)
{
	struct watch *w = ctx;

	if (!w->cli->json)
		fprintf(stderr,
			"profile: bandwidth and idle latency from node %d to each node alone...\n",
			c->req.source);
	cli_progress_head(&w->line, "profile");
}

static void judging(void *ctx, const struct tt_auto *c, const struct tt_weights *cand, int source,
		    const struct tt_nodemask *nodes)
{
	struct watch *w = ctx;
	char ws[96], ns[96];

	cli_progress_hide(&w->line);
	if (w->cli->json)
		return;
	if (tt_weights_format(cand, ws, sizeof(ws)) < 0)
		snprintf(ws, sizeof(ws), "?");
	if (tt_bit_format_list(nodes->bits, TT_MAX_NODES, ns, sizeof(ns)) < 0)
		snprintf(ns, sizeof(ns), "?");
	/* Each source is judged on every mask its tasks use: the nodes say
	 * which measurement this is. */
	fprintf(stderr,
		"%sthe weights are global: measuring %s from node %d over nodes %s against "
		"what it runs now (%d rounds)...\n",
		c->simulated ? "SIMULATED: " : "", ws, source, ns, c->cfg.confirm_rounds);
	/* Its trials' progress follows this, not the search's last state. */
	snprintf(ws, sizeof(ws), "from node %d", source);
	cli_progress_head(&w->line, ws);
}

static int recover(void *ctx)
{
	return cli_recover_first(((struct watch *)ctx)->cli);
}

static int open_db(void *ctx, struct tt_db **db)
{
	return cli_db(((struct watch *)ctx)->cli, 0, db);
}

/* A model describes one machine, so without --sysfs-root its topology is
 * the tree the model names: --model alone runs the search on that machine
 * from any host (a one-node one included), every figure simulated. The tree
 * ships with tiertune and is never written: --apply needs a copy of it. */
static char model_root[sizeof(((struct tt_model *)0)->machine_sysfs)];

static int model_machine(struct tt_cli *cli, const struct cli_auto_args *a,
			 const struct tt_model *m)
{
	if (!m->machine_sysfs[0])
		return 0;
	struct stat st;

	if (stat(m->machine_sysfs, &st) == 0 && !S_ISDIR(st.st_mode)) {
		int rc = tt_err(TT_EINPUT,
				"model '%s' names '%s' as its machine's sysfs tree, which is "
				"not a folder",
				a->model, m->machine_sysfs);
		tt_err_hint("give --sysfs-root the tree of the machine the model describes");
		return rc;
	}
	if (access(m->machine_sysfs, R_OK | X_OK) != 0) {
		int rc = tt_err_sys(TT_EINPUT, errno,
				    "model '%s' names '%s' as its machine's sysfs tree, which "
				    "cannot be read",
				    a->model, m->machine_sysfs);
		tt_err_hint("give --sysfs-root the tree of the machine the model describes");
		return rc;
	}
	if (a->apply) {
		int rc = tt_err(TT_EINPUT,
				"--apply with --model writes the modelled machine's weights, and "
				"without --sysfs-root that machine is the model's own tree '%s', "
				"which tiertune does not write",
				m->machine_sysfs);
		tt_err_hint("copy it and give the copy: cp -a '%s' DIR; tiertune --sysfs-root "
			    "DIR auto ... --apply",
			    m->machine_sysfs);
		return rc;
	}
	/* The root outlives the model (--all-sources loads one per source). */
	snprintf(model_root, sizeof(model_root), "%s", m->machine_sysfs);
	cli->sysfs_root = model_root;
	return 0;
}

/* --sysfs-root naming the model's own tree (the shipped fixture) with
 * --apply: refused as --model alone refuses it; a copy is what to write. */
static int model_tree_given(const struct tt_cli *cli, const struct tt_model *m)
{
	char *real = realpath(cli->sysfs_root, NULL);
	bool same = real && strcmp(real, m->machine_sysfs) == 0;

	free(real);
	if (!same)
		return 0;
	tt_err(TT_EINPUT,
	       "--apply would write '%s', the tree the model ships with as its machine's; "
	       "tiertune does not write it",
	       cli->sysfs_root);
	tt_err_hint("copy it and give the copy: cp -a '%s' DIR; tiertune --sysfs-root DIR auto "
		    "... --apply",
		    m->machine_sysfs);
	return TT_EINPUT;
}

/* Loads --model, and without --sysfs-root takes its machine's tree as the
 * root (before anything reads the topology); 0 or an exit code. */
static int model_open(struct tt_cli *cli, const struct cli_auto_args *a, struct tt_model **out)
{
	struct tt_model *m = malloc(sizeof(*m));
	int rc;

	if (!m)
		return cli_fail(tt_err(TT_EFAIL, "out of memory"));
	rc = tt_model_load(m, a->model);
	if (rc == 0 && !cli->sysfs_root_given)
		rc = model_machine(cli, a, m);
	else if (rc == 0 && a->apply && m->machine_sysfs[0])
		rc = model_tree_given(cli, m);
	if (rc < 0) {
		free(m);
		return cli_fail(rc);
	}
	*out = m;
	return 0;
}

/* The run's topology is the model's own tree (model_machine). */
static bool on_model_tree(const struct tt_cli *cli, const struct tt_auto_req *q)
{
	return q->model && cli->sysfs_root == model_root;
}

/* The exit code of a failed run: 128 + the signal when one stopped it
 * (the weights are back by then), as a shell reports a process it killed. */
static int auto_fail(int rc)
{
	if (!tt_policy_signal())
		return cli_fail(rc);
	fflush(stdout);
	cli_say("tiertune: stopped: ", tt_err_msg());
	return 128 + tt_policy_signal();
}

/* --apply's planners for the writer (writer/writer.h), called after a
 * leftover journal went back, so that the plan reads the weights as it
 * left them: one source's recommendation, or the set's. */
struct auto_planner {
	const struct tt_auto *c;
	const struct tt_auto_all *set;
	const struct tt_topo *t;
};

static int plan_auto(void *ctx, struct tt_apply_plan *p)
{
	const struct auto_planner *ap = ctx;
	char why[1024];

	if (tt_auto_plan(ap->c, p) == 0)
		return 0;
	snprintf(why, sizeof(why), "%s", tt_err_msg());
	return tt_err(TT_EUNAVAIL, "cannot apply: %s", why);
}

static int plan_all(void *ctx, struct tt_apply_plan *p)
{
	const struct auto_planner *ap = ctx;

	p->be = ap->set->be;
	return tt_auto_all_plan(ap->set, ap->t, p);
}

/* auto --apply: the run's recommendation through the one write path; a
 * run that keeps what is writes nothing. An exit code. */
static int apply_one(struct tt_cli *cli, const struct tt_auto *c, const struct tt_topo *t)
{
	struct auto_planner ap = { c, NULL, t };
	struct tt_writer_req rq = { .kind = TT_WRITER_AUTO,
				    .from = TT_WRITER_PLANNER,
				    .topo = t,
				    .run_id = c->run,
				    .source = c->req.source,
				    .hooks = { .plan = plan_auto, .plan_ctx = &ap } };
	char objective[64];

	/* The report ended saying --apply writes now: the writes follow it. */
	if (c->r.action == TT_ACTION_APPLY && !tt_report_keeps(&c->r) && c->planned)
		goto write;
	printf("\n");
	/* Weights that cost another source (tt_auto_sources) are a decision
	 * as much as auto mode kept: nothing written, said, not a failure. */
	if (c->r.action == TT_ACTION_KEEP_AUTO || c->r.action == TT_ACTION_KEEP_NOW ||
	    c->r.action == TT_ACTION_PER_SOURCE) {
		printf("--apply: %s\n", c->plan_why);
		return 0;
	}
	if (tt_report_keeps(&c->r))
		return cli_fail(tt_err(TT_EUNAVAIL, "cannot apply: %s", c->plan_why));
write:
	snprintf(objective, sizeof(objective), "run %jd", (intmax_t)c->run);
	rq.objective = c->run ? objective : NULL;
	return cli_write(cli, &rq);
}

/* auto --all-sources --apply: the set, when every source's run supports
 * writing and the sources agree. An exit code. On a model (simulated) its
 * refusals say so, as every line of a simulated run does. */
static int apply_all(struct tt_cli *cli, const struct all_sources *all, const struct tt_topo *t,
		     bool simulated)
{
	const char *sim = simulated ? "SIMULATED: " : "";
	const struct tt_auto_all *set = &all->set;
	struct auto_planner ap = { NULL, set, t };
	struct tt_writer_req rq = { .kind = TT_WRITER_AUTO_ALL,
				    .from = TT_WRITER_PLANNER,
				    .topo = t,
				    .be = set->be,
				    .source = -1,
				    .objective = "auto --all-sources",
				    .hooks = { .plan = plan_all, .plan_ctx = &ap } };
	int rc;

	printf("\n");
	if (set->keep[0]) {
		/* Weights are global: one source's gain would turn auto mode off
		 * (or interleave) for a source whose run found no reason to. */
		printf("%s--apply: nothing written: not every source's run supports writing "
		       "weights (%s)\n",
		       sim, set->keep);
		return 0;
	}
	if (set->refused[0]) {
		printf("%s--apply: nothing written: %s\n", sim, set->refused);
		return 0;
	}
	if (!set->be)
		return cli_fail(tt_err(TT_EUNAVAIL, "cannot apply: %s", set->why));
	if (set->conflict[0]) {
		tt_err(TT_EINPUT, "%s", set->conflict);
		tt_err_hint("apply one source's run: 'tiertune apply --run RUN'");
		return cli_fail(TT_EINPUT);
	}
	rc = cli_write(cli, &rq);
	return rc < 0 ? cli_fail(rc) : rc;
}

/* The session from the topology to the report: the nodes, the prior, the
 * search, the record (unless --no-record) and the document. */
static int session(struct tt_cli *cli, const struct cli_auto_args *a, struct tt_auto *c,
		   const struct tt_auto_doc **d)
{
	char options[2100];
	struct tt_auto_where where = { .root = cli->sysfs_root,
				       .model_tree = on_model_tree(cli, &c->req),
				       .options = options,
				       .applying = a->apply && !a->all_sources && !cli->json };
	int rc = tt_auto_nodes(c);

	cli_global_options(cli, options, sizeof(options));
	if (rc < 0)
		return rc;
	if (!c->req.model && !cli->sfs.live &&
	    !(c->req.app.argv && tt_test_hooks && tt_test_hooks->app_host_nodes)) {
		rc = tt_err(TT_EINPUT,
			    "--sysfs-root '%s' is not this machine: real trials allocate "
			    "and time this machine's memory",
			    cli->sysfs_root);
		tt_err_hint(
			"run the search on a model of it with --model model/machines/<file>.json");
		return rc;
	}
	rc = tt_auto_prepare(c);
	if (rc == 0 && !c->req.model && !c->req.app.argv) {
		struct watch *w = c->hooks.ctx;
		char head[64];

		/* The search's real trials: the mix's passes, or with latency
		 * the loaded-latency kernel's points (tt_trial_loaded). */
		w->kernel = c->pipe.sampled ? tt_kernel_find("loaded-latency") : c->req.kernel;
		snprintf(head, sizeof(head), "search from node %d", c->req.source);
		cli_progress_head(&w->line, head);
	}
	if (rc == 0)
		rc = tt_auto_search(c);
	/* --all-sources searches every source and merges: nothing to judge. */
	if (rc == 0 && !a->all_sources)
		rc = tt_auto_sources(c);
	/* A record that fails (c->record_why) costs the record, not the
	 * report nor --apply after the whole search: run_auto says it last. */
	if (rc == 0 && !a->no_record)
		tt_auto_record(c);
	return rc < 0 ? rc : tt_auto_report(c, &where, d);
}

/* The report, as text or JSON; with --all-sources the source joins the
 * set. An exit code. */
static int report(const struct tt_auto *c, const struct tt_auto_doc *d, const struct tt_cli *cli,
		  struct all_sources *all)
{
	json_t *doc;
	int rc;

	if (all && (rc = tt_auto_all_add(&all->set, c)) < 0)
		return rc;
	if (!cli->json) {
		if (all)
			printf("%s=== source node %d ===\n", all->set.rs.n > 1 ? "\n" : "",
			       c->req.source);
		cli_auto_text(stdout, d);
		return 0;
	}
	doc = cli_auto_json(d);
	if (!all)
		return cli_print_json(doc);
	json_array_append_new(all->docs, cli_auto_all_source(doc, c->req.source));
	json_decref(doc);
	return 0;
}

/* One source's run; with --all-sources its report joins all. */
static int run_auto(struct tt_cli *cli, const struct cli_auto_args *a, struct all_sources *all)
{
	struct watch w = { .cli = cli, .tty = isatty(STDERR_FILENO) && !a->verbose };
	struct tt_auto_hooks hooks = { .progress = progress,
				       .profiling = profiling,
				       .judging = judging,
				       .discarded = on_discard,
				       .recover = recover,
				       .open_db = open_db,
				       .ctx = &w };

	cli_progress_init(&w.line, w.tty);
	if (w.tty) {
		hooks.trial_started = trial_started;
		hooks.trial_progress = trial_progress;
		hooks.touched_bytes = cli_progress_counter(&w.line);
	}
	struct tt_auto_req q = a->req;
	const struct tt_auto_doc *d;
	struct tt_model *m = NULL;
	struct tt_auto c;
	struct tt_topo *t;
	int rc;

	if (a->model && (rc = model_open(cli, a, &m)))
		return rc;
	if ((rc = cli_setup(cli))) {
		free(m);
		return rc;
	}
	t = cli->topo;
	q.model = m;
	tt_auto_init(&c, &q, t, &cli->sfs, &hooks);
	/* ^C, SIGTERM, SIGHUP: the search stops between measurements (a real
	 * trial between its passes) and says where; weights a trial wrote go
	 * back first. */
	tt_policy_catch_signals();
	rc = session(cli, a, &c, &d);
	cli_progress_end(&w.line);
	if (rc == 0)
		rc = report(&c, d, cli, all);
	/* The set, once every source is in, judged as one source's weights
	 * are, through the last source's session (issue 43). */
	if (rc == 0 && all && c.req.source == all->last) {
		tt_auto_all_merge(&all->set, &cli->sfs, t);
		rc = tt_auto_all_judge(&all->set, &c);
	}
	if (rc == 0 && a->apply && !all && !cli->json)
		rc = apply_one(cli, &c, t);
	/* Exit 1: the run, what auto is for, is lost. What --apply did stands
	 * (its undo is the state folder's history, not the database), and the
	 * message says so rather than leave a failure read as "not applied". */
	if (rc == 0 && c.record_why[0]) {
		rc = cli_fail(tt_err(TT_EFAIL, "the run was not stored in the database: %s%s",
				     c.record_why,
				     a->apply && !all ? " (--apply's result above stands: "
							"'tiertune restore --last' undoes it)"
						      : ""));
		if (all) {
			all->unrecorded = true;
			rc = 0;
		}
	}
	tt_auto_release(&c);
	free(m);
	return rc < 0 ? auto_fail(rc) : rc;
}

/* --all-sources: the search for each CPU node in turn, each its own run
 * of kind auto, then the set as the machine's interface holds it
 * (tt_auto_all_merge). --apply writes the set, and refuses a conflict as
 * 'apply --run' does. */
static int run_all(struct tt_cli *cli, const struct cli_auto_args *a)
{
	struct all_sources *all = calloc(1, sizeof(*all));
	struct tt_topo *t;
	int rc, node;

	if (!all)
		return cli_fail(tt_err(TT_EFAIL, "out of memory"));
	/* The sources are the model's machine's CPU nodes when the model
	 * brings its tree: read it first. */
	if (a->model) {
		struct tt_model *m;

		if ((rc = model_open(cli, a, &m))) {
			free(all);
			return rc;
		}
		free(m);
	}
	if ((rc = cli_setup(cli))) {
		free(all);
		return rc;
	}
	t = cli->topo;
	all->docs = json_array();
	tt_nodemask_for_each (node, &t->cpu_nodes)
		all->last = node;
	tt_nodemask_for_each (node, &t->cpu_nodes) {
		struct cli_auto_args one = *a;

		one.req.source = node;
		if ((rc = run_auto(cli, &one, all)))
			goto out;
	}
	if (cli->json)
		cli_print_json(cli_auto_all_json(&all->set, all->docs, a->model != NULL));
	else
		cli_auto_all_text(stdout, &all->set, a->model != NULL);
	if (a->apply)
		rc = apply_all(cli, all, t, a->model != NULL);
	if (rc == 0 && all->unrecorded)
		rc = 1;
out:
	json_decref(all->docs);
	free(all);
	return rc;
}

int cmd_auto(struct tt_cli *cli, int argc, char **argv)
{
	struct cli_auto_args a;
	int rc = cli_auto_parse(cli, TT_RUN_AUTO, argc, argv, &a);

	if (rc >= 0)
		return rc;
	return a.all_sources ? run_all(cli, &a) : run_auto(cli, &a, NULL);
}

int cmd_sweep(struct tt_cli *cli, int argc, char **argv)
{
	struct cli_auto_args a;
	int rc = cli_auto_parse(cli, TT_RUN_SWEEP, argc, argv, &a);

	return rc >= 0 ? rc : run_auto(cli, &a, NULL);
}
