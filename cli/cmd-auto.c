// SPDX-License-Identifier: GPL-3.0-or-later
/* tiertune auto: search the best weights for one source node, prove them
 * against the baselines, record them, and optionally apply them; and
 * tiertune sweep, the same run with the exhaustive grid as its strategy
 * (one file: the two differ only in their options). The run is a session
 * of tuner/auto.h (a typed request in, one report document out); this file
 * parses and checks the options into the request, drives the session,
 * prints its progress and its report (auto-display.c renders the document
 * as text or JSON), and applies. */
#include "auto-display.h"
#include "cli.h"

#include "../bench/kernels.h"
#include "../core/apply.h"
#include "../core/wi.h"
#include "../tuner/auto.h"
#include "../tuner/model.h"
#include "../writer/writer.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Real trials: 60 measurements, the 14 that the baselines and the final
 * comparison of three baselines need and room for a 1-D search of two
 * groups to settle (tuner/README.md), a few minutes of triad. The model
 * costs microseconds a measurement: 200 lets a 3-node simplex search
 * settle too. */
#define DEFAULT_BUDGET "60"
#define DEFAULT_BUDGET_MODEL "200"

struct all_sources;

struct auto_args {
	enum tt_run_kind kind;
	int64_t source;
	const char *nodes, *mix, *budget, *model, *noise, *strategy;
	uint64_t threads, max_weight, seed, size, repeat;
	bool no_record, apply, no_profile, allow_cache_resident, verbose;
	bool real_only; /* --size or --repeat given */
	/* The objective and the search space (auto only): --objective,
	 * --max-latency, --traffic-rate, --granularity, --all-sources. */
	const char *objective, *max_latency, *traffic, *granularity;
	bool all_sources;
	struct all_sources *all; /* set while --all-sources runs each source */
	/* Trials under the kernel's policy (tuner/auto.h): --placement, and
	 * app mode's program, its metric and direction. */
	const char *placement, *metric;
	bool higher_is_better;
	bool bench_only; /* --mix, --threads, --size or --repeat given */
	char **app_argv; /* NULL-terminated; NULL: the bandwidth objective */
};

/* --all-sources: every source's recommendation and run (tuner/auto.h),
 * and with --json each source's summary. */
struct all_sources {
	struct tt_auto_all set;
	json_t *docs;
	bool unrecorded; /* a source's run could not be recorded (said there) */
};

/* A person waiting at a terminal sees one status line on stderr,
 * rewritten in place (at most ten times a second) and cleared before the
 * report; a log, or --verbose, gets a line per measurement. stdout holds
 * only the report (or the JSON document). */
struct watch {
	struct tt_cli *cli;
	bool tty, shown;
	double t0, last;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void status_clear(struct watch *w)
{
	if (w->shown)
		fprintf(stderr, "\r\033[K");
	w->shown = false;
}

static void progress(void *ctx, const struct tt_auto *c, const struct tt_search *s, int trial)
{
	struct watch *w = ctx;
	double t = now_s();
	char line[256];

	if (!w->tty) {
		if (!s->confirming)
			cli_auto_progress(stderr, c, s, trial);
		else if (!w->cli->json)
			cli_auto_confirm(stderr, c, s, trial);
		return;
	}
	if (w->shown && t - w->last < 0.1)
		return;
	cli_auto_status(line, sizeof(line), c, s, t - w->t0);
	fprintf(stderr, "\r\033[K%s", line);
	fflush(stderr);
	w->shown = true;
	w->last = t;
}

static void on_discard(void *ctx, const struct tt_weights *w, const char *why)
{
	char ws[96];

	status_clear(ctx);
	if (tt_weights_format(w, ws, sizeof(ws)) < 0)
		snprintf(ws, sizeof(ws), "?");
	fprintf(stderr, "trial %s discarded, measuring again: the weights moved under it (%s)\n",
		ws, why);
}

static void profiling(void *ctx, const struct tt_auto *c)
{
	const struct tt_cli *cli = ((struct watch *)ctx)->cli;

	if (!cli->json)
		fprintf(stderr,
			"profile: bandwidth and idle latency from node %d to each node alone...\n",
			c->req.source);
}

static int recover(void *ctx)
{
	return cli_recover_first(((struct watch *)ctx)->cli);
}

static int open_db(void *ctx, struct tt_db **db)
{
	return cli_db(((struct watch *)ctx)->cli, 0, db);
}

/* --budget: a number of measurements, or a duration (90s, 5m, 1h). */
static int parse_budget(const char *arg, struct tt_auto_req *q)
{
	char *end;
	double scale = 0;

	errno = 0;
	double v = strtod(arg, &end);

	if (end == arg || errno || !isfinite(v))
		goto bad;
	if (*end == '\0')
		scale = 0;
	else if (strcmp(end, "s") == 0)
		scale = 1;
	else if (strcmp(end, "m") == 0)
		scale = 60;
	else if (strcmp(end, "h") == 0)
		scale = 3600;
	else
		goto bad;
	if (scale == 0) {
		if (v != floor(v) || v < 1 || v > 1000000)
			goto bad;
		q->budget_trials = (int)v;
		return 0;
	}
	if (!(v > 0) || v * scale > 7 * 86400.0)
		goto bad;
	q->budget_s = v * scale;
	return 0;
bad:
	return tt_err(TT_EINPUT,
		      "--budget '%s' is not a number of trials (1-1000000) or a "
		      "duration (90s, 5m, 1h; at most a week)",
		      arg);
}

/* A positive decimal at most max; false for anything else. */
static bool positive(const char *arg, double max, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(arg, &end);
	return end != arg && !*end && !errno && *out > 0 && *out <= max;
}

/* --objective, --max-latency, --traffic-rate, --granularity and the --max-weight
 * they allow: checked before anything is read, so bad input writes
 * nothing. An exit code (2 with the message printed) or 0. */
static int parse_objective(const struct auto_args *a, struct tt_auto_req *q)
{
	const char *obj = a->objective ? a->objective : "bandwidth";
	const char *gran = a->granularity ? a->granularity : "node";

	if (strcmp(obj, "bandwidth") && strcmp(obj, "latency"))
		return cli_usage("unknown --objective '%s' (one of: bandwidth, latency)", obj);
	q->objective = strcmp(obj, "latency") == 0 ? TT_OBJECTIVE_LATENCY : TT_OBJECTIVE_BANDWIDTH;
	if (a->max_latency && !positive(a->max_latency, 1e6, &q->max_lat_ns))
		return cli_usage("--max-latency '%s' is not a latency in ns (above 0, at most "
				 "1000000)",
				 a->max_latency);
	if (a->max_latency && q->objective == TT_OBJECTIVE_LATENCY)
		return cli_usage("--max-latency bounds the bandwidth objective; --objective "
				 "latency minimises the latency itself");
	if (a->traffic && !positive(a->traffic, 1e5, &q->traffic_bytes_s))
		return cli_usage("--traffic-rate '%s' is not a bandwidth in GB/s (above 0, at most "
				 "100000)",
				 a->traffic);
	q->traffic_bytes_s *= 1e9;
	if (a->traffic && q->objective != TT_OBJECTIVE_LATENCY)
		return cli_usage("--traffic-rate states the level for --objective latency");
	if (q->objective == TT_OBJECTIVE_LATENCY && !a->traffic)
		return cli_usage(
			"--objective latency needs --traffic-rate GB/S: the traffic at which "
			"to minimise the loaded latency");
	if (strcmp(gran, "node") && strcmp(gran, "tier"))
		return cli_usage("unknown --granularity '%s' (one of: node, tier)", gran);
	q->granularity = !a->granularity	     ? TT_GRANULARITY_DEFAULT
			 : strcmp(gran, "tier") == 0 ? TT_GRANULARITY_TIER
						     : TT_GRANULARITY_NODE;
	if (q->granularity == TT_GRANULARITY_TIER && a->max_weight > 100)
		return cli_usage("--max-weight %ju with --granularity tier: tier weights are "
				 "0-100 (the RFC's range)",
				 (uintmax_t)a->max_weight);
	return 0;
}

/* The options that go with one objective only: exit 2 when mixed. */
static int policy_args(const struct auto_args *a)
{
	if (a->placement && strcmp(a->placement, "exact") && strcmp(a->placement, "kernel"))
		return cli_usage("--placement '%s' is not exact or kernel", a->placement);
	if ((a->metric || a->higher_is_better) && !a->app_argv)
		return cli_usage("--%s scores a program: give it after '--' (auto --source-node N "
				 "[options] -- COMMAND ARGS...)",
				 a->metric ? "metric" : "higher-is-better");
	if (a->higher_is_better && !a->metric)
		return cli_usage("--higher-is-better is the direction of --metric; wall time is "
				 "lower-is-better");
	if (a->app_argv && a->placement && strcmp(a->placement, "kernel"))
		return cli_usage("a program runs under the kernel's policy: --placement '%s' does "
				 "not apply to it",
				 a->placement);
	if (a->app_argv && a->bench_only)
		return cli_usage("--mix, --threads, --size and --repeat shape bench trials; a "
				 "program after '--' is its own traffic");
	if (a->app_argv && (a->objective || a->traffic || a->max_latency || a->granularity))
		return cli_usage(
			"--objective, --traffic-rate, --max-latency and --granularity shape "
			"bench trials; a program after '--' is scored by its own time or "
			"--metric");
	if ((a->app_argv || a->placement) && a->all_sources)
		return cli_usage("--all-sources runs bench trials with exact placement; app mode "
				 "and --placement take one --source-node");
	if (a->placement && strcmp(a->placement, "kernel") == 0 &&
	    ((a->objective && strcmp(a->objective, "bandwidth")) || a->max_latency))
		return cli_usage("--placement kernel measures bandwidth only, not the latency "
				 "objective or bound");
	if ((a->app_argv || (a->placement && strcmp(a->placement, "kernel") == 0)) && a->model)
		return cli_usage("--model measures nothing: trials under the kernel's policy (app "
				 "mode, --placement kernel) run on this machine");
	return 0;
}

/* A model describes one machine, so without --sysfs-root its topology is
 * the tree the model names: --model alone runs the search on that machine
 * from any host (a one-node one included), every figure simulated. The tree
 * ships with tiertune and is never written: --apply needs a copy of it. */
static char model_root[sizeof(((struct tt_model *)0)->machine_sysfs)];

static int model_machine(struct tt_cli *cli, const struct auto_args *a, const struct tt_model *m)
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
static int model_open(struct tt_cli *cli, const struct auto_args *a, struct tt_model **out)
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
	fprintf(stderr, "tiertune: stopped: %s\n", tt_err_msg());
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

	printf("\n");
	if (c->r.action == TT_ACTION_KEEP_AUTO) {
		printf("--apply: %s\n", c->plan_why);
		return 0;
	}
	if (tt_report_keeps(&c->r))
		return cli_fail(tt_err(TT_EUNAVAIL, "cannot apply: %s", c->plan_why));
	snprintf(objective, sizeof(objective), "run %jd", (intmax_t)c->run);
	rq.objective = c->run ? objective : NULL;
	return cli_write(cli, &rq);
}

/* auto --all-sources --apply: the set, when every source's run supports
 * writing and the sources agree. An exit code. */
static int apply_all(struct tt_cli *cli, const struct all_sources *all, const struct tt_topo *t)
{
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
		printf("--apply: nothing written: not every source's run supports writing "
		       "weights (%s)\n",
		       set->keep);
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

/* The options checked before anything is read, so that bad input writes
 * nothing, into the request; 0 or an exit code (the message printed). */
static int check_args(const struct tt_cli *cli, const struct auto_args *a, struct tt_auto_req *q)
{
	int rc;

	if (a->noise) {
		char *end;

		errno = 0;
		q->sigma = strtod(a->noise, &end);
		if (end == a->noise || *end || errno || !(q->sigma >= 0 && q->sigma <= 0.2))
			return cli_usage("--noise '%s' is not a relative sigma in 0..0.2",
					 a->noise);
		if (!a->model)
			return cli_usage("--noise goes with --model (real trials bring their own)");
	}
	if (a->real_only && a->model)
		return cli_usage("--size and --repeat shape real trials; --model has none");
	if ((rc = policy_args(a)))
		return rc;
	if (a->apply && cli->json)
		return cli_usage(
			"--apply prints apply's own report; give it without --json, or run "
			"'tiertune apply --run RUN --json' afterwards");
	if ((rc = parse_objective(a, q)))
		return rc;
	if (tt_mix_from_kernel(a->mix, &(struct tt_mix){ 0 }) < 0 ||
	    !(q->kernel = tt_kernel_find(a->mix)))
		return cli_fail(TT_EINPUT);
	if (!(q->strategy = tt_strategy_find(a->strategy))) {
		char names[256] = "";

		for (const struct tt_strategy *const *st = tt_strategies; *st; st++)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 names[0] ? ", " : "", (*st)->name);
		return cli_usage("unknown --strategy '%s' (one of: %s)", a->strategy, names);
	}
	rc = a->budget || a->kind == TT_RUN_AUTO ? parse_budget(a->budget  ? a->budget
								: a->model ? DEFAULT_BUDGET_MODEL
									   : DEFAULT_BUDGET,
								q)
						 : 0;
	return rc < 0 ? cli_fail(rc) : 0;
}

/* The request from the options; the checks first (check_args). */
static int request(const struct tt_cli *cli, const struct auto_args *a, struct tt_auto_req *q)
{
	*q = (struct tt_auto_req){ .kind = a->kind,
				   .command = cli->cmdline,
				   .source = (int)a->source,
				   .nodes = a->nodes,
				   .threads = (int)a->threads,
				   .size_bytes = a->size,
				   .allow_cache_resident = a->allow_cache_resident,
				   .repeat = (int)a->repeat,
				   .no_profile = a->no_profile,
				   .sigma = 0.03,
				   .seed = a->seed,
				   .max_weight = (uint32_t)a->max_weight,
				   .app = { .argv = a->app_argv,
					    .metric = a->metric,
					    .higher_is_better = a->higher_is_better } };
	if (a->placement && strcmp(a->placement, "kernel") == 0)
		q->placement = TT_PLACE_KERNEL;
	return check_args(cli, a, q);
}

/* The session from the topology to the report: the nodes, the prior, the
 * search, the record (unless --no-record) and the document. */
static int session(struct tt_cli *cli, const struct auto_args *a, struct tt_auto *c,
		   const struct tt_auto_doc **d)
{
	char options[2100];
	struct tt_auto_where where = { .root = cli->sysfs_root,
				       .model_tree = on_model_tree(cli, &c->req),
				       .options = options };
	int rc = tt_auto_nodes(c);

	cli_global_options(cli, options, sizeof(options));
	if (rc < 0)
		return rc;
	if (!c->req.model && !cli->sfs.live && !c->req.app.host_nodes) {
		rc = tt_err(TT_EINPUT,
			    "--sysfs-root '%s' is not this machine: real trials allocate "
			    "and time this machine's memory",
			    cli->sysfs_root);
		tt_err_hint(
			"run the search on a model of it with --model tuner/models/<file>.json");
		return rc;
	}
	rc = tt_auto_prepare(c);
	if (rc == 0)
		rc = tt_auto_search(c);
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

static int run_auto(struct tt_cli *cli, const struct auto_args *a)
{
	struct watch w = { .cli = cli, .tty = isatty(STDERR_FILENO) && !a->verbose, .t0 = now_s() };
	struct tt_auto_hooks hooks = { .progress = progress,
				       .profiling = profiling,
				       .discarded = on_discard,
				       .recover = recover,
				       .open_db = open_db,
				       .ctx = &w };
	struct tt_auto_req q;
	const struct tt_auto_doc *d;
	struct tt_model *m = NULL;
	struct tt_auto c;
	struct tt_topo t;
	int rc = request(cli, a, &q);

	if (rc)
		return rc;
	if (a->model && (rc = model_open(cli, a, &m)))
		return rc;
	if ((rc = cli_load_topo(cli, &t))) {
		free(m);
		return rc;
	}
	q.model = m;
	q.app.host_nodes = a->app_argv && !cli->sfs.live && getenv(CLI_APP_TEST_HOOK);
	tt_auto_init(&c, &q, &t, &cli->sfs, &hooks);
	/* ^C, SIGTERM, SIGHUP: the search stops between measurements (a real
	 * trial between its passes) and says where; weights a trial wrote go
	 * back first. */
	tt_policy_catch_signals();
	rc = session(cli, a, &c, &d);
	status_clear(&w);
	if (rc == 0)
		rc = report(&c, d, cli, a->all);
	if (rc == 0 && a->apply && !a->all && !cli->json)
		rc = apply_one(cli, &c, &t);
	if (rc == 0 && c.record_why[0]) {
		rc = cli_fail(tt_err(TT_EFAIL, "the run was not stored in the database: %s",
				     c.record_why));
		if (a->all) {
			a->all->unrecorded = true;
			rc = 0;
		}
	}
	tt_auto_release(&c);
	tt_topo_release(&t);
	free(m);
	return rc < 0 ? auto_fail(rc) : rc;
}

/* --all-sources: the search for each CPU node in turn, each its own run
 * of kind auto, then the set as the machine's interface holds it
 * (tt_auto_all_merge). --apply writes the set, and refuses a conflict as
 * 'apply --run' does. */
static int run_all(struct tt_cli *cli, const struct auto_args *a)
{
	struct all_sources *all = calloc(1, sizeof(*all));
	struct tt_topo t;
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
	if ((rc = cli_load_topo(cli, &t))) {
		free(all);
		return rc;
	}
	all->docs = json_array();
	tt_nodemask_for_each (node, &t.cpu_nodes) {
		struct auto_args one = *a;

		one.source = node;
		one.all = all;
		if ((rc = run_auto(cli, &one)))
			goto out;
	}
	tt_auto_all_merge(&all->set, &cli->sfs, &t);
	if (cli->json)
		cli_print_json(cli_auto_all_json(&all->set, all->docs, a->model != NULL));
	else
		cli_auto_all_text(stdout, &all->set, a->model != NULL);
	if (a->apply)
		rc = apply_all(cli, all, &t);
	if (rc == 0 && all->unrecorded)
		rc = 1;
out:
	json_decref(all->docs);
	tt_topo_release(&t);
	free(all);
	return rc;
}

static bool given(const struct cli_opt *opts, const char *name)
{
	for (; opts->kind != CLI_OPT_END; opts++)
		if (strcmp(opts->name, name) == 0)
			return opts->seen;
	return false;
}

/* The options auto and sweep share: the model's noise, real trials' size
 * and passes, and recording. */
#define TRIAL_OPTIONS(a)                                                                           \
	CLI_STRING("noise", &(a).noise, "SIGMA",                                                   \
		   "the model's relative measurement noise (0..0.2, default 0.03)"),               \
		CLI_U64("seed", &(a).seed, "S", "the model's noise seed (default 1)", 0,           \
			UINT64_MAX),                                                               \
		CLI_SIZE("size", &(a).size, "BYTES",                                               \
			 "real trials: bytes per array (default: STREAM's rule)", 4096,            \
			 UINT64_C(1) << 46),                                                       \
		CLI_U64("repeat", &(a).repeat, "R", "real trials: timed passes each (default 5)",  \
			1, 1000),                                                                  \
		CLI_FLAG("allow-cache-resident", &(a).allow_cache_resident,                        \
			 "real trials: allow --size under 4x the last-level cache (they then "     \
			 "measure the cache)"),                                                    \
		CLI_FLAG("no-record", &(a).no_record,                                              \
			 "do not store the run in the database (stored by default)"),              \
		CLI_FLAG("verbose", &(a).verbose,                                                  \
			 "a line per measurement on a terminal too (default there: one status "    \
			 "line)")

/* App mode's program: the arguments after "--", and only those. */
static int app_command(const struct tt_cli *cli, struct auto_args *a, char **argv, int nargs,
		       const struct cli_opt *opts)
{
	if (nargs && cli->dashdash != 0)
		return cli_usage("auto takes a program only after '--', got '%s'", argv[0]);
	if (cli->dashdash == 0 && !nargs)
		return cli_usage("no command after '--' (auto --source-node N [options] -- COMMAND "
				 "ARGS...)");
	if (!nargs)
		return 0;
	/* argv has room: the positional arguments are fewer than argc. */
	argv[nargs] = NULL;
	a->app_argv = argv;
	a->bench_only = given(opts, "mix") || given(opts, "threads") || a->real_only;
	return 0;
}

int cmd_auto(struct tt_cli *cli, int argc, char **argv)
{
	struct auto_args a = { .kind = TT_RUN_AUTO,
			       .source = -1,
			       .mix = "triad",
			       .strategy = "shares",
			       .max_weight = TT_WEIGHTINESS,
			       .seed = 1,
			       .repeat = 5 };
	struct cli_opt opts[] = {
		CLI_I64("source-node", &a.source, "N",
			"the CPU node whose threads the weights are for (or --all-sources)", 0,
			TT_MAX_NODES - 1),
		CLI_STRING("nodes", &a.nodes, "LIST",
			   "the memory nodes to interleave over (default: every memory node, which "
			   "a --model must describe; 'local': those nearest the source)"),
		CLI_STRING(
			"mix", &a.mix, "KERNEL",
			"the traffic: a bench bandwidth kernel (default triad; see 'tiertune bench "
			"--list')"),
		CLI_U64("threads", &a.threads, "T",
			"threads on the source node (default: one per CPU; the model's count with "
			"--model)",
			1, 4096),
		CLI_U64("max-weight", &a.max_weight, "W", "the largest weight tried (default 32)",
			1, TT_SEARCH_MAX_WEIGHT),
		CLI_STRING("budget", &a.budget, "TRIALS|DURATION",
			   "measurements in all, or a duration such as 90s, 5m, 1h (default 60 "
			   "measurements; 200 with --model)"),
		CLI_STRING(
			"model", &a.model, "FILE.json",
			"measure on a performance model (tuner/models/) instead of this machine: "
			"every figure SIMULATED; the topology is the modelled machine's tree the "
			"model names, unless --sysfs-root"),
		CLI_STRING("strategy", &a.strategy, "NAME",
			   "search strategy: shares (default), fitted, hillclimb or grid"),
		CLI_STRING("objective", &a.objective, "NAME",
			   "bandwidth (default) or latency: the loaded latency at --traffic-rate"),
		CLI_STRING("traffic-rate", &a.traffic, "GB/S",
			   "the mix's traffic at which --objective latency measures (10^9 bytes/s, "
			   "the mix's counting)"),
		CLI_STRING("max-latency", &a.max_latency, "NS",
			   "bandwidth within a loaded-latency bound, in ns: weights over it are "
			   "infeasible"),
		CLI_STRING("granularity", &a.granularity, "node|tier",
			   "search node weights (default) or memory-tier weights (the RFC's "
			   "per-tier form)"),
		CLI_FLAG("all-sources", &a.all_sources,
			 "search for every CPU node in turn and merge the set (instead of "
			 "--source-node)"),
		CLI_FLAG("no-profile", &a.no_profile,
			 "skip the profile (bandwidth and latency from the source to each node): "
			 "HMAT's figures as the prior"),
		CLI_STRING("placement", &a.placement, "MODE",
			   "bench trials: exact (default: userspace placement, no root, nothing "
			   "written) or kernel (each candidate's weights written to sysfs for its "
			   "trial and put back, MPOL_WEIGHTED_INTERLEAVE; root)"),
		CLI_STRING("metric", &a.metric, "REGEX",
			   "app mode: the score is the number the program prints that REGEX "
			   "matches (its first group, else the whole match; the last match) "
			   "instead of its wall time"),
		CLI_FLAG("higher-is-better", &a.higher_is_better,
			 "app mode: a larger --metric is better (default: smaller, like time)"),
		TRIAL_OPTIONS(a),
		CLI_FLAG(
			"apply", &a.apply,
			"write the recommendation through the apply transaction ('tiertune restore "
			"--last' undoes it)"),
		CLI_END,
	};
	int nargs, rc = cli_parse(cli, cli_find_command("auto"), opts, argc, argv, &nargs);

	if (rc >= 0)
		return rc;
	a.real_only = given(opts, "size") || given(opts, "repeat");
	if (a.all_sources && a.source >= 0)
		return cli_usage("--all-sources searches for every CPU node: give it or "
				 "--source-node, not both");
	if (!a.all_sources && a.source < 0)
		return cli_usage("auto needs --source-node N (or --all-sources)");
	rc = app_command(cli, &a, argv, nargs, opts);
	if (rc)
		return rc;
	/* Checked here too, so that --all-sources refuses before its first
	 * source prints anything. */
	if ((rc = parse_objective(&a, &(struct tt_auto_req){ 0 })) || (rc = policy_args(&a)))
		return rc;
	return a.all_sources ? run_all(cli, &a) : run_auto(cli, &a);
}

int cmd_sweep(struct tt_cli *cli, int argc, char **argv)
{
	struct auto_args a = { .kind = TT_RUN_SWEEP,
			       .source = -1,
			       .mix = "triad",
			       .strategy = "grid",
			       .seed = 1,
			       .repeat = 5 };
	struct cli_opt opts[] = {
		CLI_I64("source-node", &a.source, "N", "the CPU node whose threads run the trials",
			0, TT_MAX_NODES - 1, .required = true),
		CLI_STRING("nodes", &a.nodes, "LIST",
			   "the memory nodes (default: every memory node, which a --model must "
			   "describe)"),
		CLI_U64("grid", &a.max_weight, "W",
			"every reduced vector of weights 0..W over the nodes", 1,
			TT_SEARCH_MAX_WEIGHT, .required = true),
		CLI_STRING("mix", &a.mix, "KERNEL",
			   "the traffic: a bench bandwidth kernel (default "
			   "triad)"),
		CLI_U64("threads", &a.threads, "T",
			"threads on the source node (default: one per CPU; the model's count with "
			"--model)",
			1, 4096),
		CLI_STRING(
			"budget", &a.budget, "TRIALS|DURATION",
			"stop after this many measurements or this long (default: the whole grid; "
			"real trials: at most 2000 measurements without it)"),
		CLI_STRING("model", &a.model, "FILE.json",
			   "measure on a performance model instead of this machine: every figure "
			   "SIMULATED"),
		TRIAL_OPTIONS(a),
		CLI_END,
	};
	int nargs, rc = cli_parse(cli, cli_find_command("sweep"), opts, argc, argv, &nargs);

	if (rc >= 0)
		return rc;
	a.real_only = given(opts, "size") || given(opts, "repeat");
	return run_auto(cli, &a);
}
