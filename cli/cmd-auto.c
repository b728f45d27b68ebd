/* tiertune auto: search the best weights for one source node, prove them
 * against the baselines, record them, and optionally apply them; and
 * tiertune sweep, the same run with the exhaustive grid as its strategy
 * (one file: the two differ only in their options and the trial table).
 * The search, the model and the report are tuner/'s; this file picks the
 * measurement (real trials through tuner/trial.h, or the model's seeded
 * measure), prints, records and applies. */
#include "cli.h"

#include "../bench/kernels.h"
#include "../core/apply.h"
#include "../core/parse.h"
#include "../core/topo.h"
#include "../core/wi.h"
#include "../db/db.h"
#include "../core/state.h"
#include "../tuner/app.h"
#include "../tuner/model.h"
#include "../tuner/policy.h"
#include "../tuner/profile.h"
#include "../tuner/report.h"
#include "../tuner/search.h"
#include "../tuner/trial.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Real trials: 60 measurements, the 14 that the baselines and the final
 * comparison of three baselines need and room for a 1-D search of two
 * groups to settle (tuner/README.md), a few minutes of triad. The model
 * costs microseconds a measurement: 200 lets a 3-node simplex search
 * settle too. */
#define DEFAULT_BUDGET "60"
#define DEFAULT_BUDGET_MODEL "200"

/* A real sweep without --budget must end in reasonable time: at a few
 * seconds a measurement, this many is already hours. */
#define SWEEP_REAL_MAX 2000
/* On the model a measurement is microseconds, but each trial is kept in
 * memory and printed: a million (--grid 64 over 3 nodes is 450k, a few
 * seconds) bounds both; --grid 255 over 3 nodes would be 28 million. */
#define SWEEP_MODEL_MAX 1000000

struct auto_args {
	const char *kind; /* "auto" or "sweep": the run's kind */
	int64_t source;
	const char *nodes, *mix, *budget, *model, *noise, *strategy;
	uint64_t threads, max_weight, seed, size, repeat;
	bool no_record, apply, no_profile;
	bool real_only; /* --size or --repeat given */
	/* The objective and the search space (auto only): --objective,
	 * --max-latency, --traffic-rate, --granularity, --all-sources. */
	const char *objective, *max_latency, *traffic, *granularity;
	bool all_sources;
	struct all_sources *all; /* set while --all-sources runs each source */
	/* Trials under the kernel's policy (policy_setup): --placement, and
	 * app mode's program, its metric and direction. */
	const char *placement, *metric;
	bool higher_is_better;
	bool bench_only; /* --mix, --threads, --size or --repeat given */
	char **app_argv; /* NULL-terminated; NULL: the bandwidth objective */
};

/* What a real measurement saw, kept per trial for the record: the
 * measure callback cannot know its trial, the progress callback that
 * follows every measurement does. */
struct placed {
	double achieved[TT_SEARCH_MAX_NODES]; /* fraction of checked pages */
	bool validated;
};

struct auto_ctx {
	struct tt_cli *cli;
	const struct tt_topo *t;
	const struct tt_kernel *kernel;
	int source;
	int threads;	   /* 0: every CPU of the source node */
	size_t size_bytes; /* per array; 0: STREAM's rule */
	int repeat;
	bool simulated;
	struct tt_model_sim sim; /* with --model */
	struct placed last;	 /* the latest real measurement */
	struct placed *per_trial;
	int nper;
	size_t array_bytes; /* as the last real trial allocated */
	int used_threads;
	/* The real measurements' arrays, placed once and kept: each new vector
	 * moves only the pages whose node changes (bench/run.h). */
	struct tt_bench_ctx *reuse;
	bool latency;		/* the latency objective: scores are 1e9 / lat_ns */
	double traffic_bytes_s; /* its stated traffic, bytes/s */
	double max_lat_ns;	/* --max-latency; 0: none */
	/* --granularity tier: the search's groups are tiers, and every
	 * measurement splits their weights over the tiers' nodes first. */
	bool tiers;
	tt_sample_fn inner;
	tt_measure_fn inner_measure;
	void *inner_ctx;
	struct tt_profile profile; /* the prior's figures */
	int profile_cost;	   /* measurements of the budget it took */
	const char *auto_from;	   /* the auto baseline's figures: "hmat", the prior's */
	/* Trials under written weights: --placement kernel, or app mode. */
	enum tt_place_mode mode;
	struct tt_policy pol;
	struct tt_policy_measure pm;
	struct tt_app *app; /* app mode's program */
	char state[4096];   /* the state folder: lock, journal, the program's log */
	char log[4200];	    /* its output */
	json_t *discarded;  /* [{weights, why}] */
};

/* What a real trial placed and used, for the record. */
static void note_placement(struct auto_ctx *c, const struct tt_weights *w,
			   const struct tt_trial_result *r)
{
	memset(&c->last, 0, sizeof(c->last));
	c->last.validated = r->bench.validated;
	c->array_bytes = r->bench.array_bytes;
	c->used_threads = r->bench.threads;
	if (r->bench.place.checked) {
		int node, k = 0;

		tt_nodemask_for_each (node, &w->set) {
			if (k < TT_SEARCH_MAX_NODES)
				c->last.achieved[k++] = (double)r->bench.place.got[node] /
							(double)r->bench.place.checked;
		}
	}
}

/* One real measurement: the kernel under exact placement (no root, no
 * global setting), its median pass as the score, in the arrays the
 * earlier ones placed. Not recorded by the trial layer: the auto run
 * records its trials itself, one per vector. */
static int real_measure(void *ctx, const struct tt_weights *w, double *score)
{
	struct auto_ctx *c = ctx;
	int rc = c->reuse ? 0 : tt_bench_ctx_new(&c->reuse);
	struct tt_trial_opts o = { .bench = { .kernel = c->kernel,
					      .topo = c->t,
					      .source_node = c->source,
					      .threads = c->threads,
					      .array_bytes = c->size_bytes,
					      .repeat = c->repeat,
					      .sfs = &c->cli->sfs,
					      .reuse = c->reuse },
				   .weights = w,
				   .command = c->cli->cmdline };
	struct tt_trial_result *r;

	if (rc == 0)
		rc = tt_place_init(&o.bench.place, c->mode, &w->set, w, c->source);
	if (rc == 0)
		rc = tt_trial_run(&o, &r);
	if (rc < 0)
		return rc;
	*score = r->bench.bw_median_bytes_s;
	note_placement(c, w, r);
	tt_trial_free(r);
	return 0;
}

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
static double shown(const struct auto_ctx *c, double score)
{
	return c->app ? tt_app_shown(c->app, score) : c->latency ? 1e9 / score : score / 1e9;
}

static int precision(const struct auto_ctx *c)
{
	return c->app ? 3 : c->latency ? 1 : 2;
}

static void print_figure(const struct auto_ctx *c, FILE *f, double score, double half)
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

static const char *unit(const struct auto_ctx *c)
{
	return c->app ? (c->app->metric ? "metric" : "s") : c->latency ? "ns" : "GB/s";
}

/* A trial's figure as measured (a latency bound's penalty is for ranking,
 * not to show), with its interval; NaN when unmeasured. */
static void print_trial(const struct auto_ctx *c, FILE *f, const struct tt_trial *tr)
{
	double mean = NAN, half = NAN;

	if (tr->n)
		tt_trial_raw(tr, &mean, &half);
	print_figure(c, f, mean, half);
}

/* The final comparison's line: round, arm, score, and for a baseline the
 * winner's running gain over it (± the 95% interval's half width). */
static void progress_confirm(const struct auto_ctx *c, const struct tt_search *s, int trial)
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
static void progress(void *ctx, const struct tt_search *s, int trial)
{
	struct auto_ctx *c = ctx;
	char w[96], bw[96] = "-";
	const struct tt_trial *lead = &s->trials[s->leader];

	if (s->confirming) {
		if (!c->cli->json)
			progress_confirm(c, s, trial);
		return;
	}
	if (!c->simulated && trial >= c->nper) {
		struct placed *p = realloc(c->per_trial, (size_t)(trial + 16) * sizeof(*p));

		if (p) {
			memset(p + c->nper, 0, (size_t)(trial + 16 - c->nper) * sizeof(*p));
			c->per_trial = p;
			c->nper = trial + 16;
		}
	}
	if (!c->simulated && trial < c->nper)
		c->per_trial[trial] = c->last;
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

/* --nodes local: the memory nodes nearer (SLIT) to the source than to any
 * other CPU node, ties to the lower CPU node; so that --all-sources on a
 * two-socket machine tunes each socket over its own nodes, which upstream's
 * global weights can then hold together. */
static void local_nodes(const struct tt_topo *t, int src, struct tt_nodemask *mask)
{
	memset(mask, 0, sizeof(*mask));
	for (int m = 0; m < t->nnodes; m++) {
		const struct tt_node *mn = &t->nodes[m];
		int near = -1, best = 0;

		if (!mn->has_memory)
			continue;
		for (int i = 0; i < t->nnodes; i++)
			if (t->nodes[i].has_cpu && (near < 0 || mn->distance[i] < best)) {
				near = t->nodes[i].id;
				best = mn->distance[i];
			}
		if (near == src)
			tt_bit_set(mask->bits, (unsigned int)mn->id);
	}
}

/* The nodes to interleave over: --nodes, else every memory node (a model
 * must describe each: tt_model_check_machine); each must be a memory node
 * of the machine (weights of a node without memory are meaningless to the
 * kernel). */
static int pick_nodes(const struct auto_args *a, const struct tt_topo *t, const struct tt_model *m,
		      struct tt_search_cfg *cfg)
{
	struct tt_nodemask mask = { 0 };
	int node, rc;

	if (a->nodes && strcmp(a->nodes, "local") == 0) {
		local_nodes(t, (int)a->source, &mask);
	} else if (a->nodes) {
		if (tt_parse_list(a->nodes, mask.bits, TT_MAX_NODES) || !tt_nodemask_weight(&mask))
			return tt_err(TT_EINPUT, "--nodes '%s' is not a node list (want e.g. 0-2)",
				      a->nodes);
	} else {
		mask = t->mem_nodes;
	}
	rc = tt_topo_check_nodes(t, &mask, "--nodes");
	if (rc < 0)
		return rc;
	cfg->nnodes = 0;
	tt_nodemask_for_each (node, &mask) {
		if (!tt_nodemask_test(&t->mem_nodes, node))
			return tt_err(TT_EINPUT, "node %d in --nodes has no memory", node);
		if (cfg->nnodes == TT_SEARCH_MAX_NODES)
			return tt_err(TT_EINPUT, "more than %d nodes to interleave",
				      TT_SEARCH_MAX_NODES);
		cfg->nodes[cfg->nnodes++] = node;
	}
	if (m && (rc = tt_model_check_machine(m, (int)a->source, t, cfg->nodes, cfg->nnodes)) < 0)
		tt_err_hint("model '%s' is not a model of this machine; give --sysfs-root a copy "
			    "of the fixture it describes (tests/fixtures/sysfs/%s)",
			    m->path, m->name);
	return rc;
}

/* The prior and the auto-mode baseline. The auto baseline is what the
 * kernel's auto mode would do: HMAT's figures where every node has them,
 * else the prior's. The prior is the profile measured from the source
 * (tuner/profile.h), or the model's with --model; HMAT's, a first guess
 * from each node's best initiator, only when the profile is skipped
 * (--no-profile, sweep, a budget too small to hold it) or cut short.
 *
 * The profile counts against the budget: a measurement per node (its
 * bandwidth run costs what a search measurement does; the latency run is
 * shorter), and with a duration its time, of which it takes at most about
 * a quarter. */
static int pick_prior(struct auto_ctx *c, const struct auto_args *a, const struct tt_model *m,
		      struct tt_search_cfg *cfg)
{
	struct tt_profile hmat, *p = &c->profile;
	int cost = tt_profile_cost(cfg->nnodes), rc = 0;

	tt_profile_hmat(&hmat, c->t, c->source, cfg->nodes, cfg->nnodes);
	c->auto_from = "hmat";
	if (tt_profile_complete(&hmat))
		tt_profile_bw(&hmat, cfg->auto_bw_bytes_s);
	if (m && !a->no_profile) {
		rc = tt_profile_model(p, m, c->source, cfg->nodes, cfg->nnodes);
	} else if (a->no_profile || m || strcmp(a->kind, "sweep") == 0 ||
		   (cfg->budget_trials && cfg->budget_trials - cost < tt_search_need(cfg))) {
		*p = hmat;
		p->skipped = a->no_profile		     ? "--no-profile"
			     : strcmp(a->kind, "sweep") == 0 ? "sweep tries every vector"
							     : "the budget is too small for it";
	} else {
		struct tt_bench_opts o = { .kernel = c->kernel,
					   .topo = c->t,
					   .source_node = c->source,
					   .threads = c->threads,
					   .array_bytes = c->size_bytes,
					   .repeat = c->repeat,
					   .sfs = &c->cli->sfs };

		if (!c->cli->json)
			fprintf(stderr,
				"profile: bandwidth and idle latency from node %d to each "
				"node alone...\n",
				c->source);
		rc = tt_profile_measure(p, &o, cfg->nodes, cfg->nnodes, cfg->budget_s / 4);
		if (rc == 0 && cfg->budget_trials) {
			c->profile_cost = cost;
			cfg->budget_trials -= cost;
		}
		/* The search's clock starts after the profile. */
		if (rc == 0 && cfg->budget_s > 0)
			cfg->budget_s = fmax(cfg->budget_s - p->elapsed_s, 1e-3);
	}
	if (rc < 0)
		return rc;
	if (tt_profile_complete(p)) {
		tt_profile_bw(p, cfg->prior_bw_bytes_s);
		snprintf(cfg->prior_from, sizeof(cfg->prior_from), "%s",
			 p->skipped ? "hmat"
			 : m	    ? "model"
				    : "profile");
	} else if (tt_profile_complete(&hmat)) {
		tt_profile_bw(&hmat, cfg->prior_bw_bytes_s);
		snprintf(cfg->prior_from, sizeof(cfg->prior_from), "hmat");
	} else {
		snprintf(cfg->prior_from, sizeof(cfg->prior_from), "none");
	}
	if (!tt_profile_complete(&hmat))
		c->auto_from = strcmp(cfg->prior_from, "none") == 0 ? NULL : cfg->prior_from;
	return 0;
}

static double median(const double *x, int n)
{
	double v[TT_CONFIRM_MAX * 4 + 64];
	int m = n < (int)(sizeof(v) / sizeof(v[0])) ? n : (int)(sizeof(v) / sizeof(v[0]));

	memcpy(v, x, (size_t)m * sizeof(*v));
	for (int i = 1; i < m; i++)
		for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
			double tmp = v[j];

			v[j] = v[j - 1];
			v[j - 1] = tmp;
		}
	return m ? (m % 2 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2) : NAN;
}

static const char *baseline_label(const char *name)
{
	return strcmp(name, "local") == 0  ? "local DRAM"
	       : strcmp(name, "1:1") == 0  ? "1:1 interleave"
	       : strcmp(name, "auto") == 0 ? "kernel auto mode"
					   : name;
}

/* --- The objective, tier groups and every source (auto only) --- */

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
static int parse_objective(const struct auto_args *a, struct auto_ctx *c)
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

/* Tier weights searched on a machine whose interface holds node weights
 * (upstream) are recommended as it takes them, split over the tiers' nodes
 * as the RFC splits them: what is stored, exported and applied is then one
 * thing, named for the interface the machine has. */
static int reco_for_machine(struct tt_cli *cli, const struct auto_ctx *c, struct tt_recos *rs)
{
	const struct tt_wi_backend *be;

	if (!c->tiers || !rs->n || cli_pick_interface(cli, NULL, &be) < 0 ||
	    be->key == TT_WI_BY_TIER)
		return 0;
	return tt_recos_convert(rs, c->t, be);
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

/* --granularity tier: the search's groups become the tiers of the nodes
 * picked, each whole (the RFC weighs a tier for all its nodes: seed 003),
 * its prior the sum of its nodes', the local baseline the source's tier. */
static int group_tiers(const struct tt_topo *t, struct tt_search_cfg *cfg)
{
	struct tt_search_cfg g = *cfg;
	const struct tt_node *local =
		cfg->local_node >= 0 ? tt_topo_node(t, cfg->local_node) : NULL;

	for (int k = 0; k < cfg->nnodes; k++) {
		const struct tt_node *n = tt_topo_node(t, cfg->nodes[k]);

		if (!n || n->tier < 0)
			return tt_err(TT_EINPUT,
				      "node %d is in no memory tier: --granularity tier "
				      "has nothing to weigh it by",
				      cfg->nodes[k]);
	}
	g.nnodes = 0;
	g.local_node = local ? local->tier : -1;
	for (int i = 0; i < t->ntiers; i++) {
		const struct tt_tier *tr = &t->tiers[i];
		double bw = 0;
		double abw = 0;
		bool used = false, known = true, aknown = true;
		int node;

		for (int k = 0; k < cfg->nnodes; k++)
			if (tt_nodemask_test(&tr->nodes, cfg->nodes[k])) {
				used = true;
				bw += cfg->prior_bw_bytes_s[k];
				known &= cfg->prior_bw_bytes_s[k] > 0;
				abw += cfg->auto_bw_bytes_s[k];
				aknown &= cfg->auto_bw_bytes_s[k] > 0;
			}
		if (!used)
			continue;
		tt_nodemask_for_each (node, &tr->nodes) {
			bool in = false;

			for (int k = 0; k < cfg->nnodes; k++)
				in |= cfg->nodes[k] == node;
			if (!in) {
				tt_err(TT_EINPUT,
				       "memory tier %d has node %d, which is not among the nodes "
				       "searched: --granularity tier weighs whole tiers",
				       tr->id, node);
				tt_err_hint("give --nodes with every node of the tiers");
				return TT_EINPUT;
			}
		}
		if (tr->id >= TT_MAX_NODES)
			return tt_err(TT_EINPUT, "memory tier id %d is beyond %d", tr->id,
				      TT_MAX_NODES - 1);
		g.nodes[g.nnodes] = tr->id;
		g.auto_bw_bytes_s[g.nnodes] = aknown ? abw : 0;
		g.prior_bw_bytes_s[g.nnodes++] = known ? bw : 0;
	}
	*cfg = g;
	return 0;
}

/* Tier weights to the node weights a measurement places by: the RFC's
 * split, as recommend.c converts a tier recommendation for upstream. */
static int tier_nodes(const struct auto_ctx *c, const struct tt_weights *tiers,
		      struct tt_weights *nodes)
{
	struct tt_recos *rs = calloc(1, sizeof(*rs));
	char buf[512];
	int rc =
		rs ? tt_weights_format(tiers, buf, sizeof(buf)) : tt_err(TT_EFAIL, "out of memory");

	if (rc >= 0)
		rc = tt_recos_add(rs, c->source, tt_wi_for_key(TT_WI_BY_TIER)->name, buf, NAN,
				  "--granularity tier");
	if (rc == 0)
		rc = tt_recos_convert(rs, c->t, tt_wi_for_key(TT_WI_BY_NODE));
	if (rc == 0)
		*nodes = rs->r[0].w;
	free(rs);
	return rc < 0 ? rc : 0;
}

static int tier_measure(void *ctx, const struct tt_weights *w, double *score)
{
	struct auto_ctx *c = ctx;
	struct tt_weights nw;
	int rc = tier_nodes(c, w, &nw);

	return rc < 0 ? rc : c->inner_measure(c->inner_ctx, &nw, score);
}

static int tier_sample(void *ctx, const struct tt_weights *w, struct tt_sample *out)
{
	struct auto_ctx *c = ctx;
	struct tt_weights nw;
	int rc = tier_nodes(c, w, &nw);

	return rc < 0 ? rc : c->inner(c->inner_ctx, &nw, out);
}

/* Delays (spin iterations per cache line) that step the mix from flat out
 * towards idle: the traffic levels a real latency-objective trial measures
 * at, to find the stated one among them. */
static const uint64_t traffic_ladder[] = { 0, 20, 100, 400, 2000 };

/* One real measurement with latency: bench's loaded-latency kernel under
 * exact placement by w, one thread chasing pointers through pages placed
 * by w while the others run the mix over arrays placed by w. Bandwidth
 * objective (the bound): flat out, its bandwidth and latency; latency
 * objective: the ladder, the latency at the stated traffic. */
static int real_sample(void *ctx, const struct tt_weights *w, struct tt_sample *out)
{
	struct auto_ctx *c = ctx;
	int n = c->latency ? (int)(sizeof(traffic_ladder) / sizeof(*traffic_ladder)) : 1;
	struct tt_trial_opts o = { .bench = { .kernel = tt_kernel_find("loaded-latency"),
					      .topo = c->t,
					      .source_node = c->source,
					      .threads = c->threads,
					      .array_bytes = c->size_bytes,
					      .repeat = c->repeat,
					      .sfs = &c->cli->sfs,
					      .traffic = c->kernel,
					      .ndelays = n,
					      .point_s = 0.25 },
				   .weights = w,
				   .command = c->cli->cmdline };
	struct tt_trial_result *r;
	int rc = tt_place_init(&o.bench.place, TT_PLACE_EXACT, &w->set, w, c->source);

	memcpy(o.bench.delays, traffic_ladder, (size_t)n * sizeof(*traffic_ladder));
	if (rc == 0)
		rc = tt_trial_run(&o, &r);
	if (rc < 0)
		return rc;
	if (c->latency) {
		out->lat_ns = tt_trial_lat_at(r->bench.points, r->bench.npoints, c->traffic_bytes_s,
					      &out->overloaded, &out->capacity_bytes_s);
		out->score = 1e9 / out->lat_ns;
	} else {
		out->lat_ns = r->bench.points[0].lat_ns;
		out->score = r->bench.points[0].bw_bytes_s;
	}
	note_placement(c, w, r);
	tt_trial_free(r);
	return 0;
}

/* The measurement for the objective and the granularity: the model's or a
 * real one, with latency when the objective or a bound needs it, through
 * the tier split with --granularity tier. */
static int search_init(struct auto_ctx *c, const struct tt_search_cfg *base, bool model,
		       struct tt_search *s)
{
	struct tt_search_cfg k = *base, *cfg = &k;
	bool lat = c->latency || c->max_lat_ns > 0;

	k.max_lat_ns = c->max_lat_ns;
	c->inner = model ? tt_model_sample : real_sample;
	c->inner_measure = model ? tt_model_measure : real_measure;
	c->inner_ctx = model ? (void *)&c->sim : c;
	if (model)
		c->sim.traffic_bytes_s = c->latency ? c->traffic_bytes_s : 0;
	/* Trials under written weights wrap the node-weight measurement, so
	 * that --granularity tier splits its tiers before they are written. */
	if (c->pm.pol) {
		c->pm.inner = c->app ? tt_app_measure : c->inner_measure;
		c->pm.inner_ctx = c->app ? (void *)c->app : c->inner_ctx;
		c->inner_measure = tt_policy_measure;
		c->inner_ctx = &c->pm;
	}
	if (lat)
		return tt_search_init_sampled(s, cfg, c->tiers ? tier_sample : c->inner,
					      c->tiers ? c : c->inner_ctx);
	return tt_search_init(s, cfg, c->tiers ? tier_measure : c->inner_measure,
			      c->tiers ? c : c->inner_ctx);
}

/* A trial's node rows for the database: its weights (split over the tiers'
 * nodes with --granularity tier), shares requested and, for real trials,
 * achieved. */
static int trial_nodes(const struct auto_ctx *c, const struct tt_search *s, int i,
		       struct tt_db_trial_node *nodes, int max, int *nn)
{
	uint32_t w[TT_SEARCH_MAX_NODES], sum = 0;
	struct tt_weights tw;
	int node, rc;

	tt_search_trial_weights(s, i, w);
	tt_search_weights(s, w, &tw);
	if (c->tiers && (rc = tier_nodes(c, &tw, &tw)) < 0)
		return rc;
	tt_nodemask_for_each (node, &tw.set)
		sum += tw.w[node];
	*nn = 0;
	tt_nodemask_for_each (node, &tw.set) {
		double share = (double)tw.w[node] / sum;

		if (!tw.w[node] || *nn == max)
			continue;
		nodes[*nn] = (struct tt_db_trial_node){
			.node = node,
			.weight = tw.w[node],
			.requested_share = share,
			/* A model's and a program's pages are not counted: their
			 * share is the policy's. */
			.achieved_share = c->simulated || c->app || i >= c->nper
						  ? share
						  : c->per_trial[i].achieved[*nn]
		};
		++*nn;
	}
	return 0;
}

/* A trial's figures for the database: bandwidth from the callback's own
 * scores (not a bound's ranking; none for the latency objective, whose
 * score is not one), latency where it was measured. */
/* App mode's figures in the program's own terms: seconds, or the metric
 * and its direction. The scores are 1/s or 1/metric where less is better,
 * so the best run is the highest score whichever way it is shown. */
static void app_figures(const struct tt_app *app, const struct tt_trial *tr, struct tt_db_trial *d)
{
	double v[TT_CONFIRM_MAX * 4 + 64], lo = INFINITY, hi = -INFINITY;
	int n = tr->n < (int)(sizeof(v) / sizeof(v[0])) ? tr->n : (int)(sizeof(v) / sizeof(v[0]));

	for (int j = 0; j < n; j++) {
		v[j] = tt_app_shown(app, tr->raw[j]);
		lo = fmin(lo, tr->raw[j]);
		hi = fmax(hi, tr->raw[j]);
	}
	if (!app->metric) {
		d->time_best_s = tt_app_shown(app, hi);
		d->time_median_s = median(v, n);
		d->time_max_s = tt_app_shown(app, lo);
		return;
	}
	d->metric = true;
	d->metric_higher_is_better = app->higher_is_better;
	d->metric_best = tt_app_shown(app, hi);
	d->metric_median = median(v, n);
	d->metric_worst = tt_app_shown(app, lo);
}

static void trial_figures(const struct auto_ctx *c, const struct tt_trial *tr,
			  struct tt_db_trial *d)
{
	double lo = INFINITY, hi = -INFINITY, llo = INFINITY, lhi = -INFINITY;

	for (int j = 0; j < tr->n; j++) {
		lo = fmin(lo, tr->raw[j]);
		hi = fmax(hi, tr->raw[j]);
		llo = fmin(llo, tr->lat_ns[j]);
		lhi = fmax(lhi, tr->lat_ns[j]);
	}
	if (c->app) {
		app_figures(c->app, tr, d);
		return;
	}
	if (!c->latency) {
		d->bw_best_bytes_s = hi;
		d->bw_median_bytes_s = median(tr->raw, tr->n);
		d->bw_min_bytes_s = lo;
	}
	if (isfinite(llo)) {
		d->lat_best_ns = llo;
		d->lat_median_ns = median(tr->lat_ns, tr->n);
		d->lat_max_ns = lhi;
	}
}

/* The figures of a trial, a baseline or the best beside the bandwidth
 * ones: its loaded latency and, under a bound, whether it keeps it; the
 * latency objective's score is no bandwidth, so those go null. */
static void figures_json(json_t *o, const struct auto_ctx *c, double lat_ns, bool feasible)
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
static void objective_json(json_t *j, const struct auto_ctx *c, const struct tt_search *s,
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
static void objective_text(const struct auto_ctx *c, const struct tt_report *r,
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

/* No trial kept the bound, or none carried the stated traffic: the nearest
 * miss named, nothing recommended, recorded or applied (exit 1). */
static int infeasible(const struct auto_ctx *c, const struct tt_report *r)
{
	char w[96];

	tt_weights_format(&r->best_w, w, sizeof(w));
	if (!(c->max_lat_ns > 0)) {
		tt_err(TT_EFAIL,
		       "%s--traffic-rate %.1f GB/s exceeds every candidate's capacity: none of %d "
		       "trials carried it; the highest capacity found was %.1f GB/s",
		       c->simulated ? "SIMULATED: " : "", c->traffic_bytes_s / 1e9, r->nmeasured,
		       r->max_capacity_bytes_s / 1e9);
		tt_err_hint("state a traffic within the capacity (--traffic-rate), or give more "
			    "nodes (--nodes)");
		return TT_EFAIL;
	}
	tt_err(TT_EFAIL,
	       "%sno weights met the latency bound of %.0f ns in %d trials; the least loaded "
	       "latency was %.0f ns, with weights %s",
	       c->simulated ? "SIMULATED: " : "", c->max_lat_ns, r->nmeasured, r->best_lat_ns, w);
	tt_err_hint("raise --max-latency, or lighten the mix (--threads)");
	return TT_EFAIL;
}

/* --all-sources: every source's recommendation and run, for recommend.c's
 * merge once all have run. */
struct all_sources {
	struct tt_recos rs;
	int64_t run[TT_RECO_MAX];
	json_t *docs; /* --json: each source's summary */
};

static int all_add(struct all_sources *all, const struct tt_recos *rs, int64_t run, json_t *doc)
{
	if (all->rs.n == TT_RECO_MAX)
		return tt_err(TT_EINPUT, "more than %d sources", TT_RECO_MAX);
	all->run[all->rs.n] = run;
	all->rs.r[all->rs.n++] = rs->r[0];
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

/* The run, its trials (one per weight vector, its measurements as passes)
 * and the recommendation. The run row is begun only now, after the search:
 * a search refused or failed leaves the database as it was. */
static int record(struct tt_cli *cli, const struct auto_args *a, const struct auto_ctx *c,
		  const struct tt_search *s, const struct tt_report *r, const struct tt_recos *rs,
		  int64_t *run_id)
{
	struct tt_db *db;
	char objective[64];
	int64_t host, run = 0, id;
	int rc = cli_db(cli, 0, &db);

	if (rc < 0)
		return rc;
	/* App mode: the program is in the run's command line. */
	if (c->app && c->app->metric)
		snprintf(objective, sizeof(objective), "app:metric,%s-is-better",
			 c->app->higher_is_better ? "higher" : "lower");
	else if (c->app)
		snprintf(objective, sizeof(objective), "app:wall-time");
	else if (c->latency)
		snprintf(objective, sizeof(objective), "latency:%s@%gGB/s", c->kernel->name,
			 c->traffic_bytes_s / 1e9);
	else
		snprintf(objective, sizeof(objective), "%s:%s%s", c->kernel->kind->objective,
			 c->kernel->name, c->max_lat_ns > 0 ? ",latency-bound" : "");
	rc = tt_db_host(db, c->t, &host);
	if (rc == 0)
		rc = tt_db_run_begin(db,
				     &(struct tt_db_run){ .host_id = host,
							  .kind = a->kind,
							  .command = cli->cmdline,
							  .source_node = c->source,
							  .objective = objective,
							  .kernel_release = c->t->kernel_release,
							  .simulated = c->simulated },
				     &run);
	for (int i = 0; rc == 0 && i < s->ntrials; i++) {
		struct tt_db_trial_node nodes[TT_SEARCH_MAX_NODES];
		struct tt_db_trial d = {
			/* App mode: the program is its own traffic, on the
			 * source node's CPUs (0: wherever allowed). */
			.kernel = c->app ? "app" : c->kernel->name,
			.mix = c->app ? c->app->path : c->kernel->counting,
			.placement = c->simulated ? "model" : tt_place_mode_names[c->mode],
			.threads = c->app	  ? c->app->ncpus
				   : c->simulated ? c->threads
						  : c->used_threads,
			.size_bytes = c->simulated || c->app ? 0 : c->array_bytes,
			.validated = !c->simulated && i < c->nper && c->per_trial[i].validated,
			.simulated = c->simulated,
			.nodes = nodes,
		};

		if (!s->trials[i].n)
			continue;
		rc = trial_nodes(c, s, i, nodes, TT_SEARCH_MAX_NODES, &d.nnodes);
		trial_figures(c, &s->trials[i], &d);
		if (rc == 0)
			rc = tt_db_trial_add(db, run, &d, &id);
	}
	if (rc == 0) {
		const struct tt_report_baseline *over = NULL;

		for (int i = 0; i < r->nbaselines; i++)
			if (strcmp(r->base[i].name, r->reco_gain_over) == 0)
				over = &r->base[i];
		rc = tt_db_recommendation_add(
			db, run,
			&(struct tt_db_recommendation){
				.source_node = c->source,
				.interface = rs->r[0].interface,
				.weights = &rs->r[0].w,
				.score = r->best_mean,
				.gain = r->reco_gain,
				.gain_ci_low = over && r->reco_gain != 0 ? over->gain_lo : NAN,
				.gain_ci_high = over && r->reco_gain != 0 ? over->gain_hi : NAN,
				.baseline = over ? baseline_label(over->name) : NULL });
	}
	if (rc == 0)
		rc = tt_db_run_finish(db, run, TT_RUN_DONE);
	if (rc < 0 && run) {
		char msg[1024];

		snprintf(msg, sizeof(msg), "%s", tt_err_msg());
		tt_db_run_finish(db, run, TT_RUN_FAILED);
		tt_err(rc, "recording the run failed: %s", msg);
	}
	tt_db_close(db);
	if (rc == 0)
		*run_id = run;
	return rc;
}

/* The plan apply would run for the recommendation, on the interface this
 * kernel has: the node weights, merged, or the source's weights in the
 * interface's unit. */
static int plan(struct tt_cli *cli, const struct tt_topo *t, const struct tt_recos *reco, int src,
		struct tt_apply_plan *p)
{
	const struct tt_wi_backend *be;
	struct tt_recos rs = *reco;
	struct tt_weights w;
	int rc = cli_pick_interface(cli, NULL, &be);

	if (rc == 0)
		rc = tt_recos_convert(&rs, t, be);
	if (rc < 0)
		return rc;
	p->be = be;
	if (be->per_source)
		return tt_apply_plan_weights(p, t, src, &rs.r[0].w);
	rc = tt_recos_merged(&rs, be, src, &w);
	return rc < 0 ? rc : tt_apply_plan_weights(p, t, -1, &w);
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
	struct auto_ctx *c = ctx;
	char ws[96];

	if (tt_weights_format(w, ws, sizeof(ws)) < 0)
		snprintf(ws, sizeof(ws), "?");
	fprintf(stderr, "trial %s discarded, measuring again: the weights moved under it (%s)\n",
		ws, why);
	json_array_append_new(c->discarded,
			      json_pack("{s:o,s:s}", "weights", tt_json_weights(w), "why", why));
}

/* The test hook's policy nodes: this host's memory nodes. */
static int host_mem_nodes(struct tt_nodemask *m)
{
	struct tt_sysfs live;
	int rc = tt_sysfs_init(&live, "/");

	memset(m, 0, sizeof(*m));
	return rc < 0 ? rc
		      : tt_sysfs_read_list(&live, m->bits, TT_MAX_NODES,
					   "/sys/devices/system/node/has_memory");
}

/* After the checks of the search's input: the program found, the weight
 * files writable (exit 3 otherwise, nothing written), a journal left by a
 * killed tiertune put back, signals caught. A library status. */
static int policy_setup(struct tt_cli *cli, const struct auto_args *a, struct auto_ctx *c,
			const struct tt_search_cfg *cfg)
{
	struct tt_weights ones;
	int rc;

	if (a->app_argv || (a->placement && strcmp(a->placement, "kernel") == 0))
		c->mode = TT_PLACE_KERNEL;
	if (!a->app_argv && c->mode != TT_PLACE_KERNEL)
		return 0;
	rc = tt_state_dir(TT_DIR_STATE, c->state, sizeof(c->state));
	if (rc == 0)
		rc = tt_state_prepare(c->state);
	if (rc < 0)
		return rc;
	if (a->app_argv) {
		c->app = calloc(1, sizeof(*c->app));
		if (!c->app)
			return tt_err(TT_EFAIL, "out of memory");
		snprintf(c->log, sizeof(c->log), "%s/auto-app.log", c->state);
		rc = tt_app_init(c->app, a->app_argv, a->metric, a->higher_is_better, c->log);
		if (rc < 0) {
			free(c->app);
			c->app = NULL;
			return rc;
		}
		if (app_on_fixture(cli, a)) {
			c->app->host_nodes = true;
			rc = host_mem_nodes(&c->app->nodes);
		} else {
			int cpus[TT_MAX_CPUS], n;

			rc = tt_bench_cpus(c->t, c->source, cpus, &n);
			if (rc == 0)
				tt_app_pin(c->app, cpus, n);
		}
		if (rc < 0)
			return rc;
	}
	c->pol = (struct tt_policy){ .sfs = &cli->sfs, .topo = c->t, .state_dir = c->state };
	c->pm = (struct tt_policy_measure){ .pol = &c->pol,
					    .inner = c->app ? tt_app_measure : real_measure,
					    .inner_ctx = c->app ? (void *)c->app : c,
					    .discarded = on_discard,
					    .discarded_ctx = c };
	c->discarded = json_array();
	tt_weights_clear(&ones);
	for (int k = 0; k < cfg->nnodes; k++)
		tt_weights_put(&ones, cfg->nodes[k], 1);
	rc = tt_policy_check(&c->pol, &ones);
	if (rc == 0)
		rc = cli_apply_recover_first(cli);
	if (rc == 0)
		tt_policy_catch_signals();
	return rc;
}

static void print_app_objective(const struct auto_ctx *c)
{
	printf("%s of '%s'", c->app->metric ? "the number --metric matches" : "the wall time",
	       c->app->argv[0]);
	if (c->app->metric)
		printf(" (%s is better)", c->app->higher_is_better ? "higher" : "lower");
}

static void print_policy_trials(const struct auto_ctx *c)
{
	char nodes[128] = "";

	printf("under the kernel's MPOL_WEIGHTED_INTERLEAVE: each candidate's weights written, "
	       "read back before and after, and put back; %d measurement%s so, %d discarded "
	       "(the weights moved under it)\n",
	       c->pol.trials, c->pol.trials == 1 ? "" : "s", c->pol.discarded);
	if (!c->app)
		return;
	printf("the program's output: %s\n", c->log);
	if (c->app->host_nodes) {
		tt_bit_format_list(c->app->nodes.bits, TT_MAX_NODES, nodes, sizeof(nodes));
		printf("TEST HOOK (%s): the weights went to '%s', but the program ran under this "
		       "host's nodes %s and their weights, not the fixture's\n",
		       APP_TEST_HOOK, c->cli->sysfs_root, nodes);
	}
}

/* App mode's figures in JSON: each score shown in the program's terms
 * (seconds, or its metric), the bandwidth fields null. */
static void app_scores_json(const struct auto_ctx *c, json_t *o)
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

static json_t *policy_json(const struct auto_ctx *c, json_t *j)
{
	json_t *x;
	size_t i;

	json_object_set_new(j, "placement",
			    json_string(c->simulated ? "model" : tt_place_mode_names[c->mode]));
	json_object_set_new(j, "discarded",
			    c->discarded ? json_incref(c->discarded) : json_array());
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
static json_t *profile_json(const struct auto_ctx *c)
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

static json_t *report_json(const struct auto_ctx *c, const struct auto_args *a,
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
		json_pack("{s:s,s:o,s:s,s:o,s:o,s:o}", "interface", rs->r[0].interface, "weights",
			  tt_json_weights(&rs->r[0].w), "weights_keyed_by",
			  tt_wi_find(rs->r[0].interface)->unit, "gain", tt_json_real(r->reco_gain),
			  "gain_over",
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
static void print_trials(const struct auto_ctx *c, const struct tt_search *s)
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
static void print_profile(const struct auto_ctx *c)
{
	const struct tt_profile *p = &c->profile;

	if (c->simulated && !p->skipped)
		printf("SIMULATED profile from node %d (the model's figures):\n", p->source);
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

static void report_text(const struct auto_ctx *c, const struct auto_args *a,
			const struct tt_report *r, const struct tt_recos *rs, int64_t run,
			const struct tt_apply_plan *p, const char *plan_why)
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
		       a->model, c->cli->sysfs_root);
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
		print_policy_trials(c);

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
	printf("\n\n");

	printf("%sbest weights %s:", sim, w);
	for (int i = 0; i < r->nbaselines; i++) {
		const struct tt_report_baseline *b = &r->base[i];

		printf("\n  vs %-17s ", baseline_label(b->name));
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
	const struct tt_report_baseline *over = NULL;

	for (int i = 0; i < r->nbaselines; i++)
		if (strcmp(r->base[i].name, r->reco_gain_over) == 0)
			over = &r->base[i];
	printf("%srecommendation for source node %d: %s", sim, c->source, w);
	if (over && over->verdict == TT_VERDICT_SAME)
		printf(" (the %s baseline itself)\n", baseline_label(over->name));
	else if (isnan(r->reco_gain))
		printf(" (gain unknown)\n");
	else if (r->reco_gain == 0)
		printf(" (no gain over %s beyond the noise)\n", baseline_label(r->reco_gain_over));
	else
		printf(" (%+.1f%% over %s)\n", 100 * r->reco_gain,
		       baseline_label(r->reco_gain_over));
	for (int k = 0; !c->tiers && k < r->nnodes; k++) {
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
	} else {
		printf("\napply: not possible here: %s\n", plan_why);
	}
	/* The commands name the root the weights are for: a fixture's nodes
	 * are not this machine's. */
	char root[600] = "";

	if (!c->cli->sfs.live)
		snprintf(root, sizeof(root), "--sysfs-root %s ", c->cli->sysfs_root);
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
	struct auto_ctx c = { .cli = cli,
			      .source = (int)a->source,
			      .threads = (int)a->threads,
			      .size_bytes = a->size,
			      .repeat = (int)a->repeat };
	struct tt_model *m = NULL;
	struct tt_search_cfg cfg;
	struct tt_search s;
	struct tt_report r;
	struct tt_recos rs = { 0 };
	struct tt_apply_plan p;
	struct tt_mix mix;
	struct tt_topo t;
	char plan_why[512] = "";
	double sigma = 0.03;
	int64_t run = 0;
	bool searched = false, planned = false;
	int rc;

	tt_search_cfg_default(&cfg);
	cfg.strategy = a->strategy;
	cfg.max_weight = (uint32_t)a->max_weight;
	if (a->noise) {
		char *end;

		errno = 0;
		sigma = strtod(a->noise, &end);
		if (end == a->noise || *end || errno || !(sigma >= 0 && sigma <= 0.2))
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
	if (a->model) {
		m = malloc(sizeof(*m));
		if (!m)
			return cli_fail(tt_err(TT_EFAIL, "out of memory"));
		rc = tt_model_load(m, a->model);
		if (rc < 0) {
			free(m);
			return cli_fail(rc);
		}
	}
	rc = cli_load_topo(cli, &t);
	if (rc) {
		free(m);
		return rc;
	}
	c.t = &t;
	c.simulated = m != NULL;
	if (!a->granularity && tier_interface(cli, a))
		c.tiers = true;
	tt_apply_plan_init(&p, NULL, &cli->sfs);
	rc = tt_topo_check_source(&t, c.source);
	if (rc == 0 && !tt_topo_node(&t, c.source)->has_cpu)
		rc = tt_err(TT_EINPUT, "source node %d has no CPUs to run threads on", c.source);
	if (rc == 0)
		rc = pick_nodes(a, &t, m, &cfg);
	if (rc < 0)
		goto out;
	if (!m && !cli->sfs.live && !app_on_fixture(cli, a)) {
		rc = tt_err(TT_EINPUT,
			    "--sysfs-root '%s' is not this machine: real trials allocate "
			    "and time this machine's memory",
			    cli->sysfs_root);
		tt_err_hint(
			"run the search on a model of it with --model tuner/models/<file>.json");
		goto out;
	}
	if (cfg.nnodes < 2) {
		rc = tt_err(TT_EUNAVAIL,
			    "nothing to interleave: node %d is the only memory node %s",
			    cfg.nodes[0], a->nodes ? "in --nodes" : "of this machine");
		tt_err_hint(
			"weighted interleave needs two or more memory nodes; to see the search on "
			"a modelled CXL machine: --model tuner/models/spr-ddr5-2cxl.json "
			"--sysfs-root <a copy of tests/fixtures/sysfs/spr-ddr5-2cxl>");
		goto out;
	}
	for (int k = 0; k < cfg.nnodes; k++)
		if (cfg.nodes[k] == c.source)
			cfg.local_node = c.source;
	if (!cfg.budget_trials && !(cfg.budget_s > 0) &&
	    tt_grid_count(cfg.nnodes, cfg.max_weight) * cfg.min_repeats >
		    (m ? SWEEP_MODEL_MAX : SWEEP_REAL_MAX)) {
		rc = tt_err(TT_EINPUT,
			    "--grid %u over %d nodes is %ld vectors, each measured %d "
			    "times, more than the %d a sweep %s runs without --budget: give "
			    "--budget, or a smaller --grid",
			    cfg.max_weight, cfg.nnodes, tt_grid_count(cfg.nnodes, cfg.max_weight),
			    cfg.min_repeats, m ? SWEEP_MODEL_MAX : SWEEP_REAL_MAX,
			    m ? "on the model" : "of real trials");
		goto out;
	}
	rc = pick_prior(&c, a, m, &cfg);
	if (rc == 0 && c.tiers)
		rc = group_tiers(&t, &cfg);
	if (rc < 0)
		goto out;
	if (m) {
		rc = tt_model_sim_init(&c.sim, m, c.source, a->mix, c.threads, sigma, a->seed);
		if (rc < 0)
			goto out;
		if (!c.threads)
			c.threads = tt_model_source(m, c.source)->threads;
	}
	rc = policy_setup(cli, a, &c, &cfg);
	if (rc < 0)
		goto out;
	cfg.progress = progress;
	cfg.progress_ctx = &c;
	rc = search_init(&c, &cfg, m != NULL, &s);
	if (rc < 0)
		goto out;
	searched = true;
	rc = tt_search_run(&s);
	if (rc == 0)
		rc = tt_report_build(&r, &s, c.source, c.simulated);
	if (rc == 0 && r.none_feasible)
		rc = infeasible(&c, &r);
	r.tiers = c.tiers;
	if (rc == 0)
		rc = tt_report_reco(&r, &rs);
	if (rc == 0)
		rc = reco_for_machine(cli, &c, &rs);
	if (rc < 0)
		goto out;
	if (!a->no_record) {
		rc = record(cli, a, &c, &s, &r, &rs, &run);
		if (rc < 0)
			goto out;
	}
	if (plan(cli, &t, &rs, c.source, &p) == 0) {
		planned = true;
	} else {
		snprintf(plan_why, sizeof(plan_why), "%s", tt_err_msg());
	}
	if (cli->json) {
		json_t *doc = report_json(&c, a, &s, &r, &rs, run, planned ? &p : NULL,
					  planned ? NULL : plan_why);

		objective_json(doc, &c, &s, &r);
		policy_json(&c, doc);
		rc = a->all ? all_add(a->all, &rs, run, doc) : cli_print_json(doc);
		goto out;
	}
	if (a->all)
		printf("%s=== source node %d ===\n", a->all->rs.n ? "\n" : "", c.source);
	if (strcmp(a->kind, "sweep") == 0)
		print_trials(&c, &s);
	report_text(&c, a, &r, &rs, run, planned ? &p : NULL, plan_why);
	objective_text(&c, &r, &rs);
	if (a->all && (rc = all_add(a->all, &rs, run, NULL)) < 0)
		goto out;
	if (!a->apply || a->all)
		goto out;
	printf("\n");
	if (!planned) {
		rc = tt_err(TT_EUNAVAIL, "cannot apply: %s", plan_why);
	} else if (p.auto_lost) {
		rc = tt_err(TT_EUNAVAIL,
			    "writing weights turns the kernel's auto mode off, and this "
			    "kernel cannot turn it back on (no HMAT/CDAT bandwidth data)");
		tt_err_hint("'tiertune apply --run %jd --force' applies anyway", (intmax_t)run);
	} else {
		char objective[64];

		snprintf(objective, sizeof(objective), "run %jd", (intmax_t)run);
		/* The plan read the old values before the search's report; a
		 * journal left since then goes back first, as apply does. */
		rc = cli_apply_recover_first(cli);
		if (rc == 0)
			rc = cli_apply_execute(cli, &t, &p, false, "apply", run ? objective : NULL);
	}
out:
	if (searched)
		tt_search_release(&s);
	tt_apply_plan_release(&p);
	tt_topo_release(&t);
	tt_bench_ctx_free(c.reuse);
	free(c.per_trial);
	free(m);
	if (c.app)
		tt_app_release(c.app);
	free(c.app);
	json_decref(c.discarded);
	return rc < 0 ? auto_fail(rc) : rc;
}

/* The set's summary: each source's weights, and what the machine's weight
 * interface makes of them together. */
static void all_report(struct tt_cli *cli, const struct all_sources *all,
		       const struct tt_wi_backend *be, const struct tt_weights *merged,
		       const char *conflict, const char *why, bool simulated)
{
	const char *sim = simulated ? "SIMULATED " : "";
	char w[512];

	if (cli->json) {
		json_t *j = json_object(), *srcs = json_array();

		for (int i = 0; i < all->rs.n; i++)
			json_array_append_new(srcs, json_integer(all->rs.r[i].source_node));
		json_object_set_new(j, "kind", json_string("auto"));
		json_object_set_new(j, "all_sources", json_true());
		json_object_set_new(j, "simulated", json_boolean(simulated));
		json_object_set_new(j, "source_nodes", srcs);
		json_object_set_new(j, "sources", json_incref(all->docs));
		json_object_set_new(j, "interface", be ? json_string(be->name) : json_null());
		json_object_set_new(j, "merged_weights",
				    be && !be->per_source && !conflict[0] ? tt_json_weights(merged)
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
	       all->rs.n, be && be->per_source ? ", by tier (the interface's form)" : "");
	for (int i = 0; i < all->rs.n; i++) {
		tt_weights_format(&all->rs.r[i].w, w, sizeof(w));
		printf("  source node %d: %s %s", all->rs.r[i].source_node, all->rs.r[i].interface,
		       w);
		if (all->run[i])
			printf(" (run %jd)", (intmax_t)all->run[i]);
		printf("\n");
	}
	if (!be) {
		printf("apply: not possible here: %s\n", why);
	} else if (be->per_source) {
		printf("%s%s holds %s weights per source node: each source's apply as they "
		       "are\n",
		       sim, be->name, be->unit);
	} else if (conflict[0]) {
		printf("%s%s holds one global weight per %s, and the sources overlap: %s\n"
		       "apply refuses the set; 'tiertune apply --run RUN' applies one source's "
		       "weights (every other source then uses them too)\n",
		       sim, be->name, be->unit, conflict);
	} else {
		tt_weights_format(merged, w, sizeof(w));
		printf("%s%s holds one global weight per %s; the sources do not overlap "
		       "(or agree), merged: %s\n",
		       sim, be->name, be->unit, w);
	}
}

/* The plan for the whole set: upstream's merged weights, or every source's
 * tier weights on the RFC. */
static int all_plan(const struct all_sources *all, const struct tt_topo *t,
		    const struct tt_weights *merged, struct tt_apply_plan *p)
{
	int rc = 0;

	if (!p->be->per_source)
		return tt_apply_plan_weights(p, t, -1, merged);
	for (int i = 0; i < all->rs.n && rc == 0; i++)
		rc = tt_apply_plan_weights(p, t, all->rs.r[i].source_node, &all->rs.r[i].w);
	return rc;
}

/* --all-sources: the search for each CPU node in turn, each its own run
 * of kind auto, then the set through recommend.c: upstream's one global
 * weight per node merges sources whose nodes do not overlap (or agree) and
 * names a conflict; the RFC holds every source's tier weights. --apply
 * writes the set, and refuses a conflict as 'apply --run' does. */
static int run_all(struct tt_cli *cli, const struct auto_args *a)
{
	struct all_sources *all = calloc(1, sizeof(*all));
	const struct tt_wi_backend *be = NULL;
	struct tt_weights merged;
	struct tt_apply_plan p;
	struct tt_topo t;
	char conflict[1024] = "", why[512] = "";
	int rc, node;

	if (!all)
		return cli_fail(tt_err(TT_EFAIL, "out of memory"));
	rc = cli_load_topo(cli, &t);
	if (rc) {
		free(all);
		return rc;
	}
	tt_apply_plan_init(&p, NULL, &cli->sfs);
	all->docs = json_array();
	tt_weights_clear(&merged);
	tt_nodemask_for_each (node, &t.cpu_nodes) {
		struct auto_args one = *a;

		one.source = node;
		one.all = all;
		rc = run_auto(cli, &one);
		if (rc)
			goto out;
	}
	if (cli_pick_interface(cli, NULL, &be) < 0 || tt_recos_convert(&all->rs, &t, be) < 0) {
		snprintf(why, sizeof(why), "%s", tt_err_msg());
		be = NULL;
	} else if (!be->per_source && tt_recos_merged(&all->rs, be, -1, &merged) < 0) {
		snprintf(conflict, sizeof(conflict), "%s", tt_err_msg());
	}
	all_report(cli, all, be, &merged, conflict, why, a->model != NULL);
	if (!a->apply)
		goto out;
	printf("\n");
	p.be = be;
	if (!be) {
		rc = cli_fail(tt_err(TT_EUNAVAIL, "cannot apply: %s", why));
	} else if (conflict[0]) {
		tt_err(TT_EINPUT, "%s", conflict);
		tt_err_hint("apply one source's run: 'tiertune apply --run RUN'");
		rc = cli_fail(TT_EINPUT);
	} else if ((rc = all_plan(all, &t, &merged, &p)) < 0 ||
		   (rc = cli_apply_recover_first(cli)) < 0) {
		rc = cli_fail(rc);
	} else if (p.auto_lost) {
		tt_err(TT_EUNAVAIL, "writing weights turns the kernel's auto mode off, and this "
				    "kernel cannot turn it back on (no HMAT/CDAT bandwidth data)");
		rc = cli_fail(TT_EUNAVAIL);
	} else {
		rc = cli_apply_execute(cli, &t, &p, false, "apply", "auto --all-sources");
	}
out:
	json_decref(all->docs);
	tt_apply_plan_release(&p);
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
		CLI_STRING(
			"model", &a.model, "FILE.json",
			"measure on a performance model (tuner/models/) instead of this machine: "
			"every figure SIMULATED"),
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
	if ((rc = parse_objective(&a, &(struct auto_ctx){ 0 })) || (rc = policy_args(&a)))
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
