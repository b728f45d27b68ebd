/* tiertune auto: search the best weights for one source node, prove them
 * against the baselines, record them, and optionally apply them; and
 * tiertune sweep, the same run with the exhaustive grid as its strategy
 * (one file: the two differ only in their options and the trial table).
 * The run is tuner/auto.h's (the nodes, the prior, the measurement, the
 * search, the record, the plan); this file parses and checks the options,
 * prints the progress lines and the report (or the JSON document), and
 * applies. */
#include "cli.h"

#include "../bench/kernels.h"
#include "../core/apply.h"
#include "../core/wi.h"
#include "../tuner/app.h"
#include "../tuner/auto.h"
#include "../tuner/model.h"
#include "../tuner/report.h"
#include "../tuner/search.h"
#include "../writer/writer.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Real trials: 60 measurements, the 14 that the baselines and the final
 * comparison of three baselines need and room for a 1-D search of two
 * groups to settle (tuner/README.md), a few minutes of triad. The model
 * costs microseconds a measurement: 200 lets a 3-node simplex search
 * settle too. */
#define DEFAULT_BUDGET "60"
#define DEFAULT_BUDGET_MODEL "200"

struct auto_args {
	const char *kind; /* "auto" or "sweep": the run's kind */
	int64_t source;
	const char *nodes, *mix, *budget, *model, *noise, *strategy;
	uint64_t threads, max_weight, seed, size, repeat;
	bool no_record, apply, no_profile, allow_cache_resident;
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

/* The hooks' context: what the run's lines and JSON need beside it. */
struct auto_out {
	struct tt_cli *cli;
	json_t *discarded; /* [{weights, why}]; NULL: none */
};

static void weights_str(const struct tt_search *s, int trial, char *buf, size_t size)
{
	uint32_t w[TT_SEARCH_MAX_NODES];
	struct tt_weights tw;

	tt_search_trial_weights(s, trial, w);
	tt_search_weights(s, w, &tw);
	if (tt_weights_format(&tw, buf, size) < 0)
		snprintf(buf, size, "?");
}

/* A figure in the objective's unit: GB/s; ns for the latency objective
 * (its score is 1e9 / ns); in app mode seconds or the program's metric (a
 * score of 1/s or 1/metric shown inverted). The interval's half width maps
 * to first order. */
static double shown(const struct tt_auto *c, double score)
{
	return c->app ? tt_app_shown(c->app, score) : c->latency ? 1e9 / score : score / 1e9;
}

static int precision(const struct tt_auto *c)
{
	return c->app ? 3 : c->latency ? 1 : 2;
}

static void print_figure(const struct tt_auto *c, FILE *f, double score, double half)
{
	double v = shown(c, score);

	if (c->app)
		half = v == score ? half : half * v * v;
	else if (c->latency)
		half = 1e9 / score * half / score;
	else
		half /= 1e9;
	fprintf(f, "%8.*f", precision(c), v);
	if (isfinite(half))
		fprintf(f, " ±%6.*f", precision(c), half);
	else
		fprintf(f, " ±%6s", "-");
}

static const char *unit(const struct tt_auto *c)
{
	return c->app ? (c->app->metric ? "metric" : "s") : c->latency ? "ns" : "GB/s";
}

/* A trial's figure as measured (a latency bound's penalty is for ranking,
 * not to show), with its interval; NaN when unmeasured. */
static void print_trial(const struct tt_auto *c, FILE *f, const struct tt_trial *tr)
{
	double mean = NAN, half = NAN;

	if (tr->n)
		tt_trial_raw(tr, &mean, &half);
	print_figure(c, f, mean, half);
}

/* The final comparison's line: round, arm, score, and for a baseline the
 * winner's running gain over it (± the 95% interval's half width). */
static void progress_confirm(const struct tt_auto *c, const struct tt_search *s, int trial)
{
	char w[96];

	weights_str(s, trial, w, sizeof(w));
	fprintf(stderr, "%sconfirm %d/%d %-5s %-14s ", c->simulated ? "SIMULATED " : "",
		s->confirm_round + 1, s->cfg.confirm_rounds,
		s->confirm_arm < 0 ? "best" : s->base[s->confirm_arm].name, w);
	fprintf(stderr, "%8.*f %s", precision(c), shown(c, s->confirm_score), unit(c));
	if (s->confirm_arm >= 0) {
		double g, lo, hi;

		tt_confirm_gain(&s->base[s->confirm_arm], &g, &lo, &hi);
		fprintf(stderr, "  gain %+.1f%%", 100 * g);
		if (isfinite(lo))
			fprintf(stderr, " ±%.1f%%", 100 * (hi - lo) / 2);
	}
	fprintf(stderr, "\n");
}

/* One line per measurement, on stderr so that stdout holds only the
 * report (or the JSON document); the final comparison's in text mode only. */
static void progress(void *ctx, const struct tt_auto *c, const struct tt_search *s, int trial)
{
	const struct auto_out *o = ctx;
	char w[96], bw[96] = "-";
	const struct tt_trial *lead = &s->trials[s->leader];

	if (s->confirming) {
		if (!o->cli->json)
			progress_confirm(c, s, trial);
		return;
	}
	weights_str(s, trial, w, sizeof(w));
	weights_str(s, s->leader, bw, sizeof(bw));
	/* Counted as the user's budget, the profile's share included. */
	fprintf(stderr, "%strial %d", c->simulated ? "SIMULATED " : "",
		s->measurements + c->profile_cost);
	if (s->cfg.budget_trials)
		fprintf(stderr, "/%d", s->cfg.budget_trials + c->profile_cost);
	else if (s->cfg.budget_s > 0)
		fprintf(stderr, " (%.0f of %.0f s)", s->elapsed_s, s->cfg.budget_s);
	fprintf(stderr, " %-14s", w);
	print_trial(c, stderr, &s->trials[trial]);
	fprintf(stderr, " %s", unit(c));
	if (c->max_lat_ns > 0)
		fprintf(stderr, " %5.0f ns%s", s->trials[trial].lat_mean_ns,
			s->trials[trial].feasible ? "" : " over");
	/* The search's leader; under a bound none may be feasible yet. */
	if (lead->feasible)
		fprintf(stderr, "  best %s %.*f\n", bw, precision(c), shown(c, lead->raw_mean));
	else
		fprintf(stderr, "  best - (none within %.0f ns yet)\n", c->max_lat_ns);
}

/* --budget: a number of measurements, or a duration (90s, 5m, 1h). */
static int parse_budget(const char *arg, struct tt_search_cfg *cfg)
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
		cfg->budget_trials = (int)v;
		return 0;
	}
	if (!(v > 0) || v * scale > 7 * 86400.0)
		goto bad;
	cfg->budget_s = v * scale;
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
static int parse_objective(const struct auto_args *a, struct tt_auto *c)
{
	const char *obj = a->objective ? a->objective : "bandwidth";
	const char *gran = a->granularity ? a->granularity : "node";

	if (strcmp(obj, "bandwidth") && strcmp(obj, "latency"))
		return cli_usage("unknown --objective '%s' (one of: bandwidth, latency)", obj);
	c->latency = strcmp(obj, "latency") == 0;
	if (a->max_latency && !positive(a->max_latency, 1e6, &c->max_lat_ns))
		return cli_usage("--max-latency '%s' is not a latency in ns (above 0, at most "
				 "1000000)",
				 a->max_latency);
	if (a->max_latency && c->latency)
		return cli_usage("--max-latency bounds the bandwidth objective; --objective "
				 "latency minimises the latency itself");
	if (a->traffic && !positive(a->traffic, 1e5, &c->traffic_bytes_s))
		return cli_usage("--traffic-rate '%s' is not a bandwidth in GB/s (above 0, at most "
				 "100000)",
				 a->traffic);
	c->traffic_bytes_s *= 1e9;
	if (a->traffic && !c->latency)
		return cli_usage("--traffic-rate states the level for --objective latency");
	if (c->latency && !a->traffic)
		return cli_usage(
			"--objective latency needs --traffic-rate GB/S: the traffic at which "
			"to minimise the loaded latency");
	if (strcmp(gran, "node") && strcmp(gran, "tier"))
		return cli_usage("unknown --granularity '%s' (one of: node, tier)", gran);
	c->tiers = strcmp(gran, "tier") == 0;
	if (c->tiers && a->max_weight > 100)
		return cli_usage("--max-weight %ju with --granularity tier: tier weights are "
				 "0-100 (the RFC's range)",
				 (uintmax_t)a->max_weight);
	return 0;
}

/* An interface that holds a weight for every tier of a source (the RFC) is
 * searched by tier unless --granularity says otherwise: every tier then
 * gets a weight (0 leaves it out), where node weights summed per tier would
 * leave a tier no node used at the weight it had. auto's bench objectives
 * only: app mode and kernel placement write node weights for each trial,
 * and a sweep is over the nodes asked for. */
static bool tier_interface(struct tt_cli *cli, const struct auto_args *a)
{
	const struct tt_wi_backend *be;

	return strcmp(a->kind, "auto") == 0 && !a->app_argv && !a->placement &&
	       a->max_weight <= 100 && cli_pick_interface(cli, NULL, &be) == 0 &&
	       be->key == TT_WI_BY_TIER;
}

/* The figures of a trial, a baseline or the best beside the bandwidth
 * ones: its loaded latency and, under a bound, whether it keeps it; the
 * latency objective's score is no bandwidth, so those go null. */
static void figures_json(json_t *o, const struct tt_auto *c, double lat_ns, bool feasible)
{
	json_object_set_new(o, "lat_mean_ns", tt_json_real(lat_ns));
	json_object_set_new(o, "feasible",
			    c->max_lat_ns > 0 || c->latency ? json_boolean(feasible) : json_null());
	if (c->latency) {
		json_object_set_new(o, "bw_mean_bytes_s", json_null());
		json_object_set_new(o, "bw_ci_low_bytes_s", json_null());
		json_object_set_new(o, "bw_ci_high_bytes_s", json_null());
	}
}

/* What report_json leaves to the objective and the granularity. */
static void objective_json(json_t *j, const struct tt_auto *c, const struct tt_search *s,
			   const struct tt_report *r)
{
	json_t *trials = json_object_get(j, "trials"), *bases = json_object_get(j, "baselines");

	json_object_set_new(j, "objective", json_string(c->latency ? "latency" : "bandwidth"));
	json_object_set_new(j, "traffic_bytes_s",
			    c->latency ? json_real(c->traffic_bytes_s) : json_null());
	json_object_set_new(j, "max_lat_ns",
			    c->max_lat_ns > 0 ? json_real(c->max_lat_ns) : json_null());
	json_object_set_new(j, "nfeasible",
			    c->max_lat_ns > 0 ? json_integer(r->nfeasible) : json_null());
	json_object_set_new(j, "noverloaded",
			    c->latency ? json_integer(r->noverloaded) : json_null());
	json_object_set_new(j, "granularity", json_string(c->tiers ? "tier" : "node"));
	if (c->tiers) {
		json_t *tiers = json_array(), *nodes = json_array();
		int node;

		for (int k = 0; k < r->nnodes; k++) {
			const struct tt_tier *tr = tt_topo_tier(c->t, r->nodes[k]);

			json_array_append_new(tiers, json_integer(r->nodes[k]));
			tt_nodemask_for_each (node, &tr->nodes)
				json_array_append_new(nodes, json_integer(node));
		}
		json_object_set_new(j, "tiers", tiers);
		json_object_set_new(j, "nodes", nodes);
	} else {
		json_object_set_new(j, "tiers", json_null());
	}
	for (int i = 0; i < s->ntrials; i++)
		figures_json(json_array_get(trials, (size_t)i), c, s->trials[i].lat_mean_ns,
			     s->trials[i].feasible);
	for (int i = 0; i < r->nbaselines; i++)
		figures_json(json_array_get(bases, (size_t)i), c, r->base[i].lat_ns,
			     r->base[i].feasible);
	figures_json(json_object_get(j, "best"), c, r->best_lat_ns, !r->none_feasible);
}

/* What report_text leaves to the objective and the granularity. */
static void objective_text(const struct tt_auto *c, const struct tt_report *r,
			   const struct tt_recos *rs)
{
	const char *sim = c->simulated ? "SIMULATED " : "";
	char w[96];

	tt_weights_format(&r->best_w, w, sizeof(w));
	if (c->latency)
		printf("\n%sloaded latency at %.1f GB/s of %s: best %s at %.1f ns. The gains above "
		       "are in dependent loads per second (1/latency): +25%% is 20%% less "
		       "latency\n",
		       sim, c->traffic_bytes_s / 1e9, c->kernel->name, w, r->best_lat_ns);
	if (c->latency && r->noverloaded)
		printf("%s%d of %d trials could not carry %.1f GB/s (overloaded: their latency is "
		       "an extrapolation, and none is recommended)\n",
		       sim, r->noverloaded, r->nmeasured, c->traffic_bytes_s / 1e9);
	if (c->max_lat_ns > 0) {
		printf("\n%slatency bound %.0f ns: %d of %d trials within it; the best within it, "
		       "%s, moves %.2f GB/s at %.0f ns\n",
		       sim, c->max_lat_ns, r->nfeasible, r->nmeasured, w, r->best_mean / 1e9,
		       r->best_lat_ns);
		for (int i = 0; i < r->nbaselines; i++) {
			tt_weights_format(&r->base[i].w, w, sizeof(w));
			printf("  %-8s %-16s %6.0f ns  %s\n", r->base[i].name, w, r->base[i].lat_ns,
			       r->base[i].feasible ? "within the bound" : "over the bound");
		}
	}
	if (c->tiers && rs->n) {
		tt_weights_format(&rs->r[0].w, w, sizeof(w));
		printf("\n%stier weights for source node %d (the RFC's form, tier:weight; 0 leaves "
		       "a tier out): %s\n",
		       sim, c->source, w);
	}
}

/* --all-sources: every source's recommendation and run (tuner/auto.h),
 * and with --json each source's summary. */
struct all_sources {
	struct tt_auto_all set;
	json_t *docs;
	char keep[512]; /* the sources whose run recommends writing nothing, and why */
};

static int all_add(struct all_sources *all, const struct tt_recos *rs, int64_t run, json_t *doc)
{
	int rc = tt_auto_all_add(&all->set, rs, run);

	if (rc < 0) {
		json_decref(doc);
		return rc;
	}
	if (doc) {
		json_array_append_new(all->docs,
				      json_pack("{s:i,s:O,s:O,s:O}", "source_node",
						rs->r[0].source_node, "run",
						json_object_get(doc, "run"), "nodes",
						json_object_get(doc, "nodes"), "recommendation",
						json_object_get(doc, "recommendation")));
		json_decref(doc);
	}
	return 0;
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

/* Trials under the kernel's policy (--placement kernel) and app mode: the
 * candidate's weights written for each trial and put back (tuner/policy.h),
 * the program run under them (tuner/app.h). */

/* Orchestration tests only: app mode on a fixture copy writes the copy's
 * weights, but its program can only run on this host's nodes, under this
 * host's weights. Never a measurement of the fixture's machine. */
#define APP_TEST_HOOK "TIERTUNE_TEST_APP_HOST_NODES"

static bool app_on_fixture(const struct tt_cli *cli, const struct auto_args *a)
{
	return a->app_argv && !cli->sfs.live && getenv(APP_TEST_HOOK);
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

static void on_discard(void *ctx, const struct tt_weights *w, const char *why)
{
	struct auto_out *o = ctx;
	char ws[96];

	if (tt_weights_format(w, ws, sizeof(ws)) < 0)
		snprintf(ws, sizeof(ws), "?");
	fprintf(stderr, "trial %s discarded, measuring again: the weights moved under it (%s)\n",
		ws, why);
	if (!o->discarded)
		o->discarded = json_array();
	json_array_append_new(o->discarded,
			      json_pack("{s:o,s:s}", "weights", tt_json_weights(w), "why", why));
}

static void profiling(void *ctx, const struct tt_auto *c)
{
	const struct auto_out *o = ctx;

	if (!o->cli->json)
		fprintf(stderr,
			"profile: bandwidth and idle latency from node %d to each node alone...\n",
			c->source);
}

static int recover(void *ctx)
{
	const struct auto_out *o = ctx;

	return cli_recover_first(o->cli);
}

static int open_db(void *ctx, struct tt_db **db)
{
	const struct auto_out *o = ctx;

	return cli_db(o->cli, 0, db);
}

/* The action keeps something the search did not beat: auto mode, or
 * local memory when the winner was other weights within its noise. (The
 * winner being local memory itself is the one-node recommendation, which
 * the plan refuses as it always has: exit 3, "bind instead".) */
static bool keeps(const struct tt_report *r)
{
	return r->action == TT_ACTION_KEEP_AUTO ||
	       (r->action == TT_ACTION_BIND_LOCAL &&
		r->base[r->action_base].verdict != TT_VERDICT_SAME);
}

/* Why a run whose action is not "apply" writes nothing, for the report's
 * apply line and --apply. */
static void keep_why(const struct tt_report *r, char *buf, size_t size)
{
	const struct tt_report_baseline *b = r->action_base >= 0 ? &r->base[r->action_base] : NULL;

	snprintf(buf, size,
		 r->action == TT_ACTION_KEEP_AUTO
			 ? "nothing to write: keep the kernel's auto mode (no weights beat it "
			   "beyond "
			   "the noise%s)"
			 : "nothing to write: bind the program's memory to the local node (numactl "
			   "--membind; interleaving beat local memory alone by nothing beyond the "
			   "noise%s)",
		 b && b->verdict == TT_VERDICT_NOISE   ? ", see its row above"
		 : b && b->verdict == TT_VERDICT_WORSE ? "; it beat the search's winner"
						       : "");
}

/* --apply's planners for the writer (writer/writer.h), called after a
 * leftover journal went back, so that the plan reads the weights as it
 * left them: one source's recommendation, or the set's. */
struct auto_planner {
	const struct tt_auto *c;
	const struct tt_recos *rs;
	const struct tt_auto_all *set;
	const struct tt_topo *t;
};

static int plan_auto(void *ctx, struct tt_apply_plan *p)
{
	const struct auto_planner *ap = ctx;
	char why[1024];

	if (tt_auto_plan(ap->c, ap->rs, p) == 0)
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

static void print_app_objective(const struct tt_auto *c)
{
	printf("%s of '%s'", c->app->metric ? "the number --metric matches" : "the wall time",
	       c->app->argv[0]);
	if (c->app->metric)
		printf(" (%s is better)", c->app->higher_is_better ? "higher" : "lower");
}

static void print_policy_trials(const struct tt_cli *cli, const struct tt_auto *c)
{
	char nodes[128] = "";

	printf("under the kernel's MPOL_WEIGHTED_INTERLEAVE: each candidate's weights written, "
	       "read back before and after, and put back; %d measurement%s so, %d discarded "
	       "(the weights moved under it)\n",
	       c->pol.trials, c->pol.trials == 1 ? "" : "s", c->pol.discarded);
	if (!c->app)
		return;
	printf("the program's output: %s\n", c->log);
	printf("processes the runs left behind, ended after them: %d\n", c->app->leftovers);
	if (c->app->host_nodes) {
		tt_bit_format_list(c->app->nodes.bits, TT_MAX_NODES, nodes, sizeof(nodes));
		printf("TEST HOOK (%s): the weights went to '%s', but the program ran under this "
		       "host's nodes %s and their weights, not the fixture's\n",
		       APP_TEST_HOOK, cli->sysfs_root, nodes);
	}
}

/* App mode's figures in JSON: each score shown in the program's terms
 * (seconds, or its metric), the bandwidth fields null. */
static void app_scores_json(const struct tt_auto *c, json_t *o)
{
	static const char *const bw[] = { "bw_mean_bytes_s", "bw_ci_low_bytes_s",
					  "bw_ci_high_bytes_s" };
	static const char *const secs[] = { "time_mean_s", "time_ci_low_s", "time_ci_high_s" };
	static const char *const metric[] = { "metric_mean", "metric_ci_low", "metric_ci_high" };
	bool inverse = tt_app_shown(c->app, 2) != 2;
	double v[3];

	for (int i = 0; i < 3; i++) {
		json_t *x = json_object_get(o, bw[i]);

		v[i] = json_is_number(x) ? json_number_value(x) : NAN;
		json_object_set_new(o, bw[i], json_null());
	}
	for (int i = 0; i < 3; i++) {
		/* The inverse swaps the interval's ends; a score interval
		 * reaching zero leaves the time's unbounded (null). */
		double x = v[inverse && i ? 3 - i : i];

		json_object_set_new(o, (c->app->metric ? metric : secs)[i],
				    tt_json_real(isfinite(x) && (!inverse || x > 0)
							 ? tt_app_shown(c->app, x)
							 : NAN));
	}
}

static json_t *policy_json(const struct tt_auto *c, const struct auto_out *o, json_t *j)
{
	json_t *x;
	size_t i;

	json_object_set_new(j, "placement",
			    json_string(c->simulated ? "model" : tt_place_mode_names[c->mode]));
	json_object_set_new(j, "discarded",
			    o->discarded ? json_incref(o->discarded) : json_array());
	if (!c->app) {
		json_object_set_new(j, "app", json_null());
		return j;
	}
	/* The program is the traffic, not a bench kernel. */
	json_object_set_new(j, "objective", json_string("app"));
	json_object_set_new(j, "kernel", json_null());
	json_object_set_new(j, "counting", json_null());
	json_t *argv = json_array();

	for (char **p = c->app->argv; *p; p++)
		json_array_append_new(argv, json_string(*p));
	json_object_set_new(
		j, "app",
		json_pack("{s:o,s:o,s:b,s:s,s:o}", "argv", argv, "metric",
			  str_or_null(c->app->metric), "higher_is_better", c->app->higher_is_better,
			  "log", c->log, "host_nodes",
			  c->app->host_nodes ? tt_json_nodes(&c->app->nodes) : json_null()));
	json_array_foreach (json_object_get(j, "trials"), i, x)
		app_scores_json(c, x);
	json_array_foreach (json_object_get(j, "baselines"), i, x)
		app_scores_json(c, x);
	app_scores_json(c, json_object_get(j, "best"));
	return j;
}

/* The exit code of a failed search: 128 + the signal when one stopped it
 * (the weights are back by then), as a shell reports a process it killed. */
static int auto_fail(int rc)
{
	int code = cli_fail(rc);

	return tt_policy_signal() ? 128 + tt_policy_signal() : code;
}

/* The profile: where each node's figures came from, and what it cost. */
static json_t *profile_json(const struct tt_auto *c)
{
	const struct tt_profile *p = &c->profile;
	json_t *nodes = json_array();

	for (int k = 0; k < p->n; k++)
		json_array_append_new(
			nodes,
			json_pack("{s:i,s:o,s:o,s:s}", "node", p->nodes[k].node, "bw_bytes_s",
				  tt_json_real(p->nodes[k].bw_bytes_s > 0 ? p->nodes[k].bw_bytes_s
									  : NAN),
				  "lat_ns",
				  tt_json_real(p->nodes[k].lat_ns > 0 ? p->nodes[k].lat_ns : NAN),
				  "from", p->nodes[k].from));
	return json_pack("{s:o,s:i,s:i,s:f,s:o}", "skipped", str_or_null(p->skipped), "kernel_runs",
			 p->runs, "measurements", c->profile_cost, "elapsed_s", p->elapsed_s,
			 "nodes", nodes);
}

static json_t *report_json(const struct tt_auto *c, const struct auto_args *a,
			   const struct tt_search *s, const struct tt_report *r,
			   const struct tt_recos *rs, int64_t run, const struct tt_apply_plan *p,
			   const char *plan_why)
{
	json_t *j = json_object(), *nodes = json_array(), *trials = json_array(),
	       *bases = json_array(), *writes = json_array();

	json_object_set_new(j, "kind", json_string(a->kind));
	json_object_set_new(j, "simulated", json_boolean(c->simulated));
	json_object_set_new(j, "model", str_or_null(a->model));
	json_object_set_new(j, "host", json_string(c->t->hostname));
	json_object_set_new(j, "kernel_release", json_string(c->t->kernel_release));
	json_object_set_new(j, "source_node", json_integer(c->source));
	for (int k = 0; k < r->nnodes; k++)
		json_array_append_new(nodes, json_integer(r->nodes[k]));
	json_object_set_new(j, "nodes", nodes);
	json_object_set_new(j, "kernel", json_string(c->kernel->name));
	json_object_set_new(j, "counting", str_or_null(c->kernel->counting));
	json_object_set_new(j, "threads",
			    c->simulated || c->used_threads
				    ? json_integer(c->simulated ? c->threads : c->used_threads)
				    : json_null());
	json_object_set_new(j, "strategy", json_string(r->strategy));
	json_object_set_new(j, "prior_from", json_string(r->prior_from));
	json_object_set_new(j, "max_weight", json_integer(r->max_weight));
	json_object_set_new(j, "budget_trials",
			    s->cfg.budget_trials
				    ? json_integer(s->cfg.budget_trials + c->profile_cost)
				    : json_null());
	json_object_set_new(j, "budget_s",
			    s->cfg.budget_s > 0 ? json_real(s->cfg.budget_s) : json_null());
	json_object_set_new(j, "measurements", json_integer(r->measurements));
	json_object_set_new(j, "profile", profile_json(c));
	json_object_set_new(j, "auto_from", str_or_null(c->auto_from));
	json_object_set_new(j, "ntrials", json_integer(r->nmeasured));
	json_object_set_new(j, "elapsed_s", json_real(r->elapsed_s));
	json_object_set_new(j, "stop_reason", json_string(r->stop_reason));
	for (int i = 0; i < r->ntrials; i++) {
		const struct tt_trial *tr = &r->trials[i];
		uint32_t v[TT_SEARCH_MAX_NODES];
		struct tt_weights w;
		double mean = NAN, half = NAN;

		if (!tr->n)
			continue;
		/* As measured: under a latency bound the ranked mean is a penalty. */
		if (tr->n)
			tt_trial_raw(tr, &mean, &half);
		tt_search_trial_weights(s, i, v);
		tt_search_weights(s, v, &w);
		json_array_append_new(
			trials,
			json_pack("{s:o,s:s,s:i,s:o,s:o,s:o}", "weights", tt_json_weights(&w),
				  "phase", tr->phase == TT_PHASE_BASELINE ? "baseline" : "search",
				  "measurements", tr->n, "bw_mean_bytes_s", tt_json_real(mean),
				  "bw_ci_low_bytes_s", tt_json_real(mean - half),
				  "bw_ci_high_bytes_s", tt_json_real(mean + half)));
	}
	json_object_set_new(j, "trials", trials);
	for (int i = 0; i < r->nbaselines; i++) {
		const struct tt_report_baseline *b = &r->base[i];

		json_array_append_new(bases,
				      json_pack("{s:s,s:o,s:o,s:o,s:o,s:i,s:o,s:o,s:o,s:s}", "name",
						b->name, "weights", tt_json_weights(&b->w),
						"bw_mean_bytes_s", tt_json_real(b->mean),
						"bw_ci_low_bytes_s", tt_json_real(b->ci_lo),
						"bw_ci_high_bytes_s", tt_json_real(b->ci_hi),
						"rounds", b->rounds, "gain", tt_json_real(b->gain),
						"gain_ci_low", tt_json_real(b->gain_lo),
						"gain_ci_high", tt_json_real(b->gain_hi), "verdict",
						tt_verdict_name(b->verdict)));
	}
	json_object_set_new(j, "baselines", bases);
	json_object_set_new(j, "best",
			    json_pack("{s:o,s:o,s:o,s:o}", "weights", tt_json_weights(&r->best_w),
				      "bw_mean_bytes_s", tt_json_real(r->best_mean),
				      "bw_ci_low_bytes_s", tt_json_real(r->best_ci_lo),
				      "bw_ci_high_bytes_s", tt_json_real(r->best_ci_hi)));
	json_object_set_new(j, "auto_weights",
			    r->have_auto ? tt_json_weights(&r->auto_w) : json_null());
	json_object_set_new(j, "best_is_auto", json_boolean(r->best_is_auto));
	json_object_set_new(
		j, "recommendation",
		json_pack("{s:s,s:s,s:o,s:s,s:o,s:o,s:o}", "action", tt_reco_action_name(r->action),
			  "interface", rs->r[0].interface, "weights", tt_json_weights(&rs->r[0].w),
			  "weights_keyed_by", tt_wi_find(rs->r[0].interface)->unit, "gain",
			  tt_json_real(r->reco_gain), "gain_over",
			  r->reco_gain_over[0] ? json_string(r->reco_gain_over) : json_null(),
			  "lost_to",
			  r->lost_to >= 0 ? json_string(r->base[r->lost_to].name) : json_null()));
	json_object_set_new(j, "run", run ? json_integer(run) : json_null());
	for (int i = 0; p && i < p->n; i++)
		json_array_append_new(writes, json_pack("{s:s,s:s,s:s}", "file", p->w[i].file,
							"old", p->w[i].old, "new", p->w[i].value));
	json_object_set_new(j, "apply_interface", p ? json_string(p->be->name) : json_null());
	json_object_set_new(j, "apply_writes", writes);
	json_object_set_new(j, "apply_unavailable", plan_why ? json_string(plan_why) : json_null());
	return j;
}

/* A gain with its interval, in percent: "+12.3% (95% CI +10.1%..+14.5%)". */
static void print_gain(double gain, double lo, double hi)
{
	printf("%+.1f%%", 100 * gain);
	if (isfinite(lo) && isfinite(hi))
		printf(" (95%% CI %+.1f%%..%+.1f%%)", 100 * lo, 100 * hi);
}

/* sweep: every vector with the share of the nodes other than the source's
 * (the slow tier when the source's node is the fast one). */
static void print_trials(const struct tt_auto *c, const struct tt_search *s)
{
	printf("%s%-20s %14s %8s %8s %s\n", c->simulated ? "SIMULATED " : "", "weights",
	       "remote share", unit(c), "95% CI", "measurements");
	for (int i = 0; i < s->ntrials; i++) {
		const struct tt_trial *tr = &s->trials[i];
		uint32_t w[TT_SEARCH_MAX_NODES], sum = 0, remote = 0;
		char ws[96];

		tt_search_trial_weights(s, i, w);
		for (int k = 0; k < s->cfg.nnodes; k++) {
			sum += w[k];
			remote += s->cfg.nodes[k] == c->source ? 0 : w[k];
		}
		weights_str(s, i, ws, sizeof(ws));
		printf("%s%-20s %13.1f%% ", c->simulated ? "SIMULATED " : "", ws,
		       100.0 * remote / sum);
		print_trial(c, stdout, tr);
		printf(" %d\n", tr->n);
	}
	printf("\n");
}

/* The profile table: each node's figures from the source and their source. */
static void print_profile(const struct tt_auto *c)
{
	const struct tt_profile *p = &c->profile;

	if (c->simulated && !p->skipped)
		printf("SIMULATED profile from node %d (the model's peak figures, the lesser of "
		       "read and write: not the mix's with these threads):\n",
		       p->source);
	else if (p->skipped && !tt_profile_complete(p))
		printf("profile skipped (%s), and HMAT lacks figures here: no prior\n", p->skipped);
	else if (p->skipped)
		printf("profile skipped (%s): HMAT's figures, from each node's best initiator, "
		       "as a first guess\n",
		       p->skipped);
	else
		printf("profile from node %d: %d kernel runs in %.1f s, %d measurements of the "
		       "budget%s\n",
		       p->source, p->runs, p->elapsed_s, c->profile_cost,
		       tt_profile_complete(p) ? "" : " (cut short by the time budget)");
	printf("%6s %10s %10s  %s\n", "node", "GB/s", "idle ns", "from");
	for (int k = 0; k < p->n; k++) {
		const struct tt_profile_node *pn = &p->nodes[k];

		char bw[16] = "-", lat[16] = "-";

		if (pn->bw_bytes_s > 0)
			snprintf(bw, sizeof(bw), "%.2f", pn->bw_bytes_s / 1e9);
		if (pn->lat_ns > 0)
			snprintf(lat, sizeof(lat), "%.1f", pn->lat_ns);
		printf("%6d %10s %10s  %s\n", pn->node, bw, lat, pn->from);
	}
	printf("\n");
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
static bool on_model_tree(const struct tt_cli *cli, const struct tt_auto *c)
{
	return c->model && cli->sysfs_root == model_root;
}

/* The weights to apply and their gain over the baseline named. */
static void print_reco_gain(const struct tt_report *r, const struct tt_report_baseline *over,
			    const char *sim, int source, const char *w)
{
	printf("%srecommendation for source node %d: %s", sim, source, w);
	if (over && over->verdict == TT_VERDICT_SAME)
		printf(" (the %s baseline itself)\n", tt_report_baseline_label(r, over->name));
	else if (isnan(r->reco_gain))
		printf(" (gain unknown)\n");
	else if (r->reco_gain == 0)
		printf(" (no gain over %s beyond the noise)\n",
		       tt_report_baseline_label(r, r->reco_gain_over));
	else
		printf(" (%+.1f%% over %s)\n", 100 * r->reco_gain,
		       tt_report_baseline_label(r, r->reco_gain_over));
}

static void report_text(const struct tt_cli *cli, const struct tt_auto *c,
			const struct auto_args *a, const struct tt_report *r,
			const struct tt_recos *rs, int64_t run, const struct tt_apply_plan *p,
			const char *plan_why)
{
	const char *sim = c->simulated ? "SIMULATED " : "";
	char nodes[128], w[96];
	FILE *f = stdout;

	nodes[0] = '\0';
	for (int k = 0; k < r->nnodes; k++)
		snprintf(nodes + strlen(nodes), sizeof(nodes) - strlen(nodes), "%s%d", k ? "," : "",
			 r->nodes[k]);
	if (c->simulated)
		printf("SIMULATED: every figure comes from model '%s', not a measurement; the "
		       "topology is '%s'\n",
		       a->model, cli->sysfs_root);
	printf("machine: %s (%s), kernel %s\n", c->t->hostname[0] ? c->t->hostname : "-",
	       c->t->cpu_model[0] ? c->t->cpu_model : "unknown CPU", c->t->kernel_release);
	printf("source node %d, interleaving %s %s; objective: ", c->source,
	       c->tiers ? "memory tiers" : "nodes", nodes);
	if (c->app)
		print_app_objective(c);
	else if (c->latency)
		printf("loaded latency at %.1f GB/s of %s", c->traffic_bytes_s / 1e9,
		       c->kernel->name);
	else
		printf("%s bandwidth (%s counting)%s", c->kernel->name,
		       c->kernel->counting ? c->kernel->counting : "-",
		       c->max_lat_ns > 0 ? " within the latency bound" : "");
	if (c->simulated ? c->threads : c->used_threads)
		printf(", %d threads", c->simulated ? c->threads : c->used_threads);
	printf("\nsearch: %s strategy, prior from %s, max weight %u; %d measurements of %d "
	       "trials in %.1f s (%s)\n",
	       r->strategy, r->prior_from, r->max_weight, r->measurements, r->ntrials, r->elapsed_s,
	       r->stop_reason);
	print_profile(c);
	if (c->pm.pol)
		print_policy_trials(cli, c);

	if (c->simulated)
		printf("SIMULATED figures:\n");
	printf("%-8s %-16s %8s %8s  %-26s %s\n", "", "weights", unit(c), "95% CI",
	       "best's gain over it", "verdict");
	for (int i = 0; i < r->nbaselines; i++) {
		const struct tt_report_baseline *b = &r->base[i];
		char gain[40] = "-";

		tt_weights_format(&b->w, w, sizeof(w));
		if (b->verdict != TT_VERDICT_SAME && isfinite(b->gain) && isfinite(b->gain_lo))
			snprintf(gain, sizeof(gain), "%+.1f%% (%+.1f..%+.1f)", 100 * b->gain,
				 100 * b->gain_lo, 100 * b->gain_hi);
		printf("%-8s %-16s", b->name, w);
		print_figure(c, f, b->mean, isfinite(b->ci_hi) ? (b->ci_hi - b->ci_lo) / 2 : NAN);
		printf("  %-26s %s\n", gain, tt_verdict_name(b->verdict));
	}
	tt_weights_format(&r->best_w, w, sizeof(w));
	printf("%-8s %-16s", "best", w);
	print_figure(c, f, r->best_mean,
		     isfinite(r->best_ci_hi) ? (r->best_ci_hi - r->best_ci_lo) / 2 : NAN);
	printf("\n");
	/* The two columns come from different measurements, and their ratio
	 * need not match the gain: say which. */
	int rounds = 0;

	for (int i = 0; i < r->nbaselines; i++)
		if (r->base[i].rounds > rounds)
			rounds = r->base[i].rounds;
	printf("(%s: the mean of each vector's measurements in the search; gain: the final\n"
	       " comparison alone, the best and each baseline measured alternately, %d paired "
	       "round%s)\n\n",
	       unit(c), rounds, rounds == 1 ? "" : "s");

	printf("%sbest weights %s:", sim, w);
	for (int i = 0; i < r->nbaselines; i++) {
		const struct tt_report_baseline *b = &r->base[i];

		printf("\n  vs %-17s ", tt_report_baseline_label(r, b->name));
		switch (b->verdict) {
		case TT_VERDICT_SAME:
			printf("the same weights");
			break;
		case TT_VERDICT_UNKNOWN:
			printf("unknown (too few paired rounds within the budget)");
			break;
		case TT_VERDICT_NOISE:
			print_gain(b->gain, b->gain_lo, b->gain_hi);
			printf(": within noise, not a win");
			break;
		default:
			print_gain(b->gain, b->gain_lo, b->gain_hi);
			printf(" %s", tt_verdict_name(b->verdict));
		}
	}
	printf("\n");
	if (r->have_auto) {
		tt_weights_format(&r->auto_w, w, sizeof(w));
		printf("kernel auto mode (its formula on the %s bandwidths) gives %s: %s\n",
		       c->auto_from ? c->auto_from : "-", w,
		       r->best_is_auto ? "the search found nothing better" : "see its row above");
	} else {
		printf("kernel auto mode: no bandwidth figures (no HMAT), so no auto baseline\n");
	}
	tt_weights_format(&rs->r[0].w, w, sizeof(w));
	if (r->lost_to >= 0)
		printf("the search's winner lost to the %s baseline beyond the noise: recommending "
		       "that baseline instead\n",
		       r->base[r->lost_to].name);
	const struct tt_report_baseline *over = tt_report_gain_over(r);

	if (keeps(r))
		printf("%srecommendation for source node %d: %s; the best measured, %s, is no "
		       "gain beyond the noise over it\n",
		       sim, c->source,
		       r->action == TT_ACTION_KEEP_AUTO ? "keep the kernel's auto mode"
							: "bind to local memory, no interleave",
		       w);
	else
		print_reco_gain(r, over, sim, c->source, w);
	for (int k = 0; !c->tiers && !keeps(r) && k < r->nnodes; k++) {
		/* Upstream weights are 1-255: a node the search left out cannot
		 * be given 0, it has to stay out of the task's nodemask. */
		if (!tt_weights_get(&rs->r[0].w, r->nodes[k], 0))
			printf("node %d gets no weight: leave it out of the policy's nodes "
			       "(numactl "
			       "-w, set_mempolicy); apply leaves its sysfs weight as it is\n",
			       r->nodes[k]);
	}
	if (p) {
		printf("\napply would write (%s interface):\n", p->be->name);
		for (int i = 0; i < p->n; i++)
			printf("  %s%s: %s -> %s\n", p->sfs->live ? "" : p->sfs->root, p->w[i].file,
			       p->w[i].old, p->w[i].value);
	} else if (keeps(r)) {
		printf("\napply: %s\n", plan_why);
	} else {
		printf("\napply: not possible here: %s\n", plan_why);
	}
	/* The commands name the database the run is in and the root the
	 * weights are for (a fixture's nodes are not this machine's): run as
	 * printed, they mean this run. */
	char root[5200] = "";

	cli_global_options(cli, root, sizeof(root));
	if (keeps(r)) {
		if (run)
			printf("\nrecorded as run %jd%s ('apply --run %jd' writes nothing for it); "
			       "to see it:\n  tiertune %sshow %jd\n",
			       (intmax_t)run, c->simulated ? " (simulated)" : "", (intmax_t)run,
			       root, (intmax_t)run);
		return;
	}
	if (on_model_tree(cli, c)) {
		printf("\nthe weights are for the model's machine; to try them, on a copy of its "
		       "tree:\n  cp -a '%s' DIR\n",
		       cli->sysfs_root);
		snprintf(root + strlen(root), sizeof(root) - strlen(root), "--sysfs-root DIR ");
	}
	if (run) {
		printf("\nrecorded as run %jd%s; to use it:\n", (intmax_t)run,
		       c->simulated ? " (simulated)" : "");
		printf("  tiertune %sapply --run %jd   ('restore --last' undoes it)\n", root,
		       (intmax_t)run);
		printf("  tiertune %sexport --run %jd --format shell|tmpfiles|numactl|json\n", root,
		       (intmax_t)run);
	} else {
		printf("\nnot recorded (--no-record); to apply: tiertune %sapply --weights %s\n",
		       root, w);
	}
}

static int run_auto(struct tt_cli *cli, const struct auto_args *a)
{
	struct auto_out o = { .cli = cli };
	struct tt_auto c = { .kind = a->kind,
			     .sfs = &cli->sfs,
			     .command = cli->cmdline,
			     .mix = a->mix,
			     .source = (int)a->source,
			     .nodes = a->nodes,
			     .threads = (int)a->threads,
			     .size_bytes = a->size,
			     .allow_cache_resident = a->allow_cache_resident,
			     .repeat = (int)a->repeat,
			     .no_profile = a->no_profile,
			     .sigma = 0.03,
			     .seed = a->seed,
			     .app_argv = a->app_argv,
			     .metric = a->metric,
			     .higher_is_better = a->higher_is_better,
			     .hooks = { .progress = progress,
					.profiling = profiling,
					.discarded = on_discard,
					.recover = recover,
					.open_db = open_db,
					.ctx = &o } };
	struct tt_model *m = NULL;
	struct tt_search_cfg cfg;
	struct tt_search s;
	struct tt_report r;
	struct tt_recos rs = { 0 };
	struct tt_apply_plan p;
	struct tt_mix mix;
	struct tt_topo t;
	char plan_why[512] = "";
	int64_t run = 0;
	bool searched = false, planned = false;
	int rc;

	tt_search_cfg_default(&cfg);
	cfg.strategy = a->strategy;
	cfg.max_weight = (uint32_t)a->max_weight;
	if (a->noise) {
		char *end;

		errno = 0;
		c.sigma = strtod(a->noise, &end);
		if (end == a->noise || *end || errno || !(c.sigma >= 0 && c.sigma <= 0.2))
			return cli_usage("--noise '%s' is not a relative sigma in 0..0.2",
					 a->noise);
		if (!a->model)
			return cli_usage("--noise goes with --model (real trials bring their own)");
	}
	if (a->real_only && a->model)
		return cli_usage("--size and --repeat shape real trials; --model has none");
	rc = policy_args(a);
	if (rc)
		return rc;
	if (a->apply && cli->json)
		return cli_usage(
			"--apply prints apply's own report; give it without --json, or run "
			"'tiertune apply --run RUN --json' afterwards");
	if ((rc = parse_objective(a, &c)))
		return rc;
	if (tt_mix_from_kernel(a->mix, &mix) < 0 || !(c.kernel = tt_kernel_find(a->mix)))
		return cli_fail(TT_EINPUT);
	if (!tt_strategy_find(a->strategy)) {
		char names[256] = "";

		for (const struct tt_strategy *const *st = tt_strategies; *st; st++)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 names[0] ? ", " : "", (*st)->name);
		return cli_usage("unknown --strategy '%s' (one of: %s)", a->strategy, names);
	}
	rc = a->budget || strcmp(a->kind, "auto") == 0
		     ? parse_budget(a->budget  ? a->budget
				    : a->model ? DEFAULT_BUDGET_MODEL
					       : DEFAULT_BUDGET,
				    &cfg)
		     : 0;
	if (rc < 0)
		return cli_fail(rc);
	if (a->model && (rc = model_open(cli, a, &m)))
		return rc;
	rc = cli_load_topo(cli, &t);
	if (rc) {
		free(m);
		return rc;
	}
	c.t = &t;
	c.model = m;
	if (a->app_argv || (a->placement && strcmp(a->placement, "kernel") == 0))
		c.mode = TT_PLACE_KERNEL;
	c.app_host_nodes = app_on_fixture(cli, a);
	if (!a->granularity && tier_interface(cli, a))
		c.tiers = true;
	tt_apply_plan_init(&p, NULL, &cli->sfs);
	rc = tt_auto_nodes(&c, &cfg);
	if (rc < 0)
		goto out;
	if (!m && !cli->sfs.live && !c.app_host_nodes) {
		rc = tt_err(TT_EINPUT,
			    "--sysfs-root '%s' is not this machine: real trials allocate "
			    "and time this machine's memory",
			    cli->sysfs_root);
		tt_err_hint("run the search on a model of it with --model NAME (tuner/models/)");
		goto out;
	}
	rc = tt_auto_prepare(&c, &cfg);
	if (rc == 0)
		rc = tt_auto_search(&c, &cfg, &s, &r, &rs);
	if (rc < 0)
		goto out;
	searched = true;
	if (!a->no_record) {
		rc = tt_auto_record(&c, &s, &r, &rs, &run);
		if (rc < 0)
			goto out;
	}
	if (keeps(&r))
		keep_why(&r, plan_why, sizeof(plan_why));
	else if (tt_auto_plan(&c, &rs, &p) == 0)
		planned = true;
	else
		snprintf(plan_why, sizeof(plan_why), "%s", tt_err_msg());
	if (a->all && keeps(&r))
		snprintf(a->all->keep + strlen(a->all->keep),
			 sizeof(a->all->keep) - strlen(a->all->keep), "%ssource node %d: %s",
			 a->all->keep[0] ? "; " : "", c.source, tt_reco_action_name(r.action));
	if (cli->json) {
		json_t *doc = report_json(&c, a, &s, &r, &rs, run, planned ? &p : NULL,
					  planned ? NULL : plan_why);

		objective_json(doc, &c, &s, &r);
		policy_json(&c, &o, doc);
		rc = a->all ? all_add(a->all, &rs, run, doc) : cli_print_json(doc);
		goto out;
	}
	if (a->all)
		printf("%s=== source node %d ===\n", a->all->set.rs.n ? "\n" : "", c.source);
	if (strcmp(a->kind, "sweep") == 0)
		print_trials(&c, &s);
	report_text(cli, &c, a, &r, &rs, run, planned ? &p : NULL, plan_why);
	objective_text(&c, &r, &rs);
	if (a->all && (rc = all_add(a->all, &rs, run, NULL)) < 0)
		goto out;
	if (!a->apply || a->all)
		goto out;
	printf("\n");
	if (r.action == TT_ACTION_KEEP_AUTO) {
		printf("--apply: %s\n", plan_why);
		goto out;
	}
	if (keeps(&r)) {
		rc = cli_fail(tt_err(TT_EUNAVAIL, "cannot apply: %s", plan_why));
		goto out;
	}
	struct auto_planner ap = { &c, &rs, NULL, &t };
	struct tt_writer_req rq = { .kind = TT_WRITER_AUTO,
				    .from = TT_WRITER_PLANNER,
				    .topo = &t,
				    .run_id = run,
				    .source = c.source,
				    .hooks = { .plan = plan_auto, .plan_ctx = &ap } };
	char objective[64];

	snprintf(objective, sizeof(objective), "run %jd", (intmax_t)run);
	rq.objective = run ? objective : NULL;
	rc = cli_write(cli, &rq);
out:
	if (searched)
		tt_search_release(&s);
	tt_apply_plan_release(&p);
	tt_topo_release(&t);
	tt_auto_release(&c);
	free(m);
	json_decref(o.discarded);
	return rc < 0 ? auto_fail(rc) : rc;
}

/* The set's summary: each source's weights, and what the machine's weight
 * interface makes of them together. */
static void all_report(struct tt_cli *cli, const struct all_sources *all, bool simulated)
{
	const struct tt_auto_all *set = &all->set;
	const struct tt_wi_backend *be = set->be;
	const char *sim = simulated ? "SIMULATED " : "", *conflict = set->conflict, *why = set->why;
	char w[512];

	if (cli->json) {
		json_t *j = json_object(), *srcs = json_array();

		for (int i = 0; i < set->rs.n; i++)
			json_array_append_new(srcs, json_integer(set->rs.r[i].source_node));
		json_object_set_new(j, "kind", json_string("auto"));
		json_object_set_new(j, "all_sources", json_true());
		json_object_set_new(j, "simulated", json_boolean(simulated));
		json_object_set_new(j, "source_nodes", srcs);
		json_object_set_new(j, "sources", json_incref(all->docs));
		json_object_set_new(j, "interface", be ? json_string(be->name) : json_null());
		json_object_set_new(j, "merged_weights",
				    be && !be->per_source && !conflict[0]
					    ? tt_json_weights(&set->merged)
					    : json_null());
		json_object_set_new(j, "conflict",
				    conflict[0] ? json_string(conflict) : json_null());
		/* A conflict is as much a reason not to apply as no interface. */
		json_object_set_new(j, "apply_unavailable",
				    !be		  ? json_string(why)
				    : conflict[0] ? json_string(conflict)
						  : json_null());
		cli_print_json(j);
		return;
	}
	printf("\n=== every source ===\n%s%d CPU nodes searched, each its own run%s:\n", sim,
	       set->rs.n, be && be->per_source ? ", by tier (the interface's form)" : "");
	for (int i = 0; i < set->rs.n; i++) {
		tt_weights_format(&set->rs.r[i].w, w, sizeof(w));
		printf("  source node %d: %s %s", set->rs.r[i].source_node, set->rs.r[i].interface,
		       w);
		if (set->run[i])
			printf(" (run %jd)", (intmax_t)set->run[i]);
		printf("\n");
	}
	if (!be) {
		printf("apply: not possible here: %s\n", why);
	} else if (be->per_source) {
		printf("%s%s holds %s weights per source node: each source's apply as they "
		       "are\n",
		       sim, be->name, be->unit);
	} else if (conflict[0]) {
		/* The conflict says already that the kernel holds one weight. */
		printf("%sthe sources overlap: %s\n"
		       "apply refuses the set; 'tiertune apply --run RUN' applies one source's "
		       "weights (every other source then uses them too)\n",
		       sim, conflict);
	} else {
		tt_weights_format(&set->merged, w, sizeof(w));
		printf("%s%s holds one global weight per %s; the sources do not overlap "
		       "(or agree), merged: %s\n",
		       sim, be->name, be->unit, w);
	}
}

/* --all-sources: the search for each CPU node in turn, each its own run
 * of kind auto, then the set as the machine's interface holds it
 * (tt_auto_all_merge). --apply writes the set, and refuses a conflict as
 * 'apply --run' does. */
static int run_all(struct tt_cli *cli, const struct auto_args *a)
{
	struct all_sources *all = calloc(1, sizeof(*all));
	const struct tt_auto_all *set = &all->set;
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
	rc = cli_load_topo(cli, &t);
	if (rc) {
		free(all);
		return rc;
	}
	all->docs = json_array();
	tt_nodemask_for_each (node, &t.cpu_nodes) {
		struct auto_args one = *a;

		one.source = node;
		one.all = all;
		rc = run_auto(cli, &one);
		if (rc)
			goto out;
	}
	tt_auto_all_merge(&all->set, &cli->sfs, &t);
	all_report(cli, all, a->model != NULL);
	if (!a->apply)
		goto out;
	printf("\n");
	if (all->keep[0]) {
		/* Weights are global: one source's gain would turn auto mode off
		 * (or interleave) for a source whose run found no reason to. */
		printf("--apply: nothing written: not every source's run supports writing "
		       "weights (%s)\n",
		       all->keep);
	} else if (!set->be) {
		rc = cli_fail(tt_err(TT_EUNAVAIL, "cannot apply: %s", set->why));
	} else if (set->conflict[0]) {
		tt_err(TT_EINPUT, "%s", set->conflict);
		tt_err_hint("apply one source's run: 'tiertune apply --run RUN'");
		rc = cli_fail(TT_EINPUT);
	} else {
		struct auto_planner ap = { NULL, NULL, set, &t };
		struct tt_writer_req rq = { .kind = TT_WRITER_AUTO_ALL,
					    .from = TT_WRITER_PLANNER,
					    .topo = &t,
					    .be = set->be,
					    .source = -1,
					    .objective = "auto --all-sources",
					    .hooks = { .plan = plan_all, .plan_ctx = &ap } };

		rc = cli_write(cli, &rq);
		rc = rc < 0 ? cli_fail(rc) : rc;
	}
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
			 "do not store the run in the database (stored by default)")

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
	struct auto_args a = { .kind = "auto",
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
		CLI_STRING("model", &a.model, "NAME|FILE",
			   "measure on a performance model instead of this machine, a file or a "
			   "shipped model's name (spr-ddr5-2cxl): every figure SIMULATED; the "
			   "topology is the modelled machine's tree the model names, unless "
			   "--sysfs-root"),
		CLI_STRING("strategy", &a.strategy, "NAME",
			   "search strategy: shares (default), hillclimb or grid"),
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
	if ((rc = parse_objective(&a, &(struct tt_auto){ 0 })) || (rc = policy_args(&a)))
		return rc;
	return a.all_sources ? run_all(cli, &a) : run_auto(cli, &a);
}

int cmd_sweep(struct tt_cli *cli, int argc, char **argv)
{
	struct auto_args a = { .kind = "sweep",
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
		CLI_STRING("model", &a.model, "NAME|FILE",
			   "measure on a performance model (a file or a shipped model's name) "
			   "instead of this machine: every figure SIMULATED"),
		TRIAL_OPTIONS(a),
		CLI_END,
	};
	int nargs, rc = cli_parse(cli, cli_find_command("sweep"), opts, argc, argv, &nargs);

	if (rc >= 0)
		return rc;
	a.real_only = given(opts, "size") || given(opts, "repeat");
	return run_auto(cli, &a);
}
