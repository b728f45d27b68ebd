// SPDX-License-Identifier: GPL-3.0-or-later
/* An auto or sweep run as a session: its nodes, prior, search, plan and
 * the --all-sources set (auto.h). The pipeline is auto-pipe.c's, the
 * record auto-record.c's, the report document auto-doc.c's. */
#include "auto.h"

#include "../bench/kernels.h"
#include "../bench/run.h"
#include "../writer/apply.h"
#include "../core/error.h"
#include "../core/parse.h"
#include "../core/wi.h"
#include "../measure/trial.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A real sweep without --budget must end in reasonable time: at a few
 * seconds a measurement, this many is already hours. */
#define SWEEP_REAL_MAX 2000
/* On the model a measurement is microseconds, but each trial is kept in
 * memory and printed: a million (--grid 64 over 3 nodes is 450k, a few
 * seconds) bounds both; --grid 255 over 3 nodes would be 28 million. */
#define SWEEP_MODEL_MAX 1000000

const char *const tt_granularity_names[] = { "node", "tier", NULL };

/* An interface that holds a weight for every tier of a source (the RFC) is
 * searched by tier unless the request says otherwise: every tier then gets
 * a weight (0 leaves it out), where node weights summed per tier would
 * leave a tier no node used at the weight it had. auto's bench trials
 * only: app mode and kernel placement write node weights for each trial,
 * and a sweep is over the nodes asked for. */
static bool tier_interface(const struct tt_auto *c)
{
	const struct tt_wi_backend *be;

	return c->req.kind == TT_RUN_AUTO && !c->req.app.argv &&
	       c->req.placement != TT_PLACE_KERNEL && c->req.max_weight <= 100 &&
	       tt_wi_pick(c->sfs, NULL, &be) == 0 && be->key == TT_WI_BY_TIER;
}

/* The request's objective completed from the rest of it, as the run
 * records it: app mode's program (in the run's command line) is scored by
 * its wall time or metric and names no kernel; a bench mix's kernel is
 * named, the bandwidth of a kind that has its own (the matrix) is its
 * kind's, and --max-latency marks the bandwidth as bounded. */
static void objective_of(const struct tt_auto_req *req, struct tt_objective *o)
{
	const struct tt_auto_app *app = req->app.argv ? &req->app : NULL;
	bool latency = o->kind == TT_OBJ_LATENCY;

	*o = (struct tt_objective){
		.kind = app && app->metric ? TT_OBJ_METRIC
			: app		   ? TT_OBJ_WALL_TIME
			: latency	   ? TT_OBJ_LATENCY
					   : req->kernel->kind->objective,
		.lower_better = app && app->metric && !app->higher_is_better,
		.traffic_gb_s = !app && latency ? o->traffic_gb_s : 0,
		.latency_bound = !app && !latency && req->max_lat_ns > 0,
	};
	if (!app)
		snprintf(o->kernel, sizeof(o->kernel), "%s", req->kernel->name);
}

void tt_auto_init(struct tt_auto *c, const struct tt_auto_req *req, const struct tt_topo *t,
		  const struct tt_sysfs *sfs, const struct tt_auto_hooks *hooks)
{
	memset(c, 0, sizeof(*c));
	c->req = *req;
	c->t = t;
	c->sfs = sfs;
	if (hooks)
		c->hooks = *hooks;
	/* A program runs under the kernel's policy: its weights written. */
	if (req->app.argv)
		c->req.placement = TT_PLACE_KERNEL;
	if (req->granularity == TT_GRANULARITY_DEFAULT)
		c->req.granularity = tier_interface(c) ? TT_GRANULARITY_TIER : TT_GRANULARITY_NODE;
	c->tiers = c->req.granularity == TT_GRANULARITY_TIER;
	objective_of(req, &c->req.objective);
	c->simulated = req->model != NULL;
	c->req_threads = req->threads;
	tt_search_cfg_default(&c->cfg);
	if (req->strategy)
		c->cfg.strategy = req->strategy->name;
	if (req->max_weight)
		c->cfg.max_weight = req->max_weight;
	c->cfg.budget_trials = req->budget_trials;
	c->cfg.budget_s = req->budget_s;
	tt_apply_plan_init(&c->plan, NULL, sfs);
}

/* The nodes --nodes names: a list, "local", or every memory node. */
static int nodes_asked(const struct tt_auto *c, struct tt_nodemask *mask)
{
	const char *nodes = c->req.nodes;

	memset(mask, 0, sizeof(*mask));
	if (nodes && strcmp(nodes, "local") == 0)
		tt_auto_local_nodes(c->t, c->req.source, mask);
	else if (!nodes)
		*mask = c->t->mem_nodes;
	else if (tt_parse_list(nodes, mask->bits, TT_MAX_NODES) || !tt_nodemask_weight(mask))
		return tt_err(TT_EINPUT, "--nodes '%s' is not a node list (want e.g. 0-2)", nodes);
	return tt_topo_check_nodes(c->t, mask, "--nodes");
}

/* The nodes to interleave over: --nodes, else every memory node (a model
 * must describe each: tt_model_check_machine); each must be a memory node
 * of the machine (weights of a node without memory are meaningless to the
 * kernel). */
int tt_auto_nodes(struct tt_auto *c)
{
	const struct tt_topo *t = c->t;
	const struct tt_model *m = c->req.model;
	struct tt_search_cfg *cfg = &c->cfg;
	struct tt_nodemask mask;
	int node, rc = tt_topo_check_source(t, c->req.source);

	if (rc == 0 && !tt_topo_node(t, c->req.source)->has_cpu)
		rc = tt_err(TT_EINPUT, "source node %d has no CPUs to run threads on",
			    c->req.source);
	if (rc == 0)
		rc = nodes_asked(c, &mask);
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
	if (m && (rc = tt_model_check_machine(m, c->req.source, t, cfg->nodes, cfg->nnodes)) < 0)
		tt_err_hint("model '%s' is not a model of this machine; give --sysfs-root a copy "
			    "of the fixture it describes (tests/fixtures/sysfs/%s)",
			    m->path, m->name);
	return rc;
}

/* Why the profile is skipped, or NULL to measure it. */
static const char *profile_skipped(const struct tt_auto *c, int cost)
{
	const struct tt_search_cfg *cfg = &c->cfg;

	if (c->req.no_profile)
		return "--no-profile";
	if (c->req.kind == TT_RUN_SWEEP)
		return "sweep tries every vector";
	if (cfg->budget_trials && cfg->budget_trials - cost < tt_search_need(cfg))
		return "the budget is too small for it";
	return NULL;
}

/* The profile measured from the source, its cost taken from the budget. */
static int profile_measure(struct tt_auto *c, int cost)
{
	struct tt_search_cfg *cfg = &c->cfg;
	struct tt_profile *p = &c->prior.profile;
	struct tt_bench_opts o = tt_auto_trial_bench(c);
	int rc;

	if (c->hooks.profiling)
		c->hooks.profiling(c->hooks.ctx, c);
	rc = tt_profile_measure(p, &o, cfg->nodes, cfg->nnodes, cfg->budget_s / 4);
	if (rc == 0 && cfg->budget_trials) {
		c->prior.cost = cost;
		cfg->budget_trials -= cost;
	}
	/* The search's clock starts after the profile. */
	if (rc == 0 && cfg->budget_s > 0)
		cfg->budget_s = fmax(cfg->budget_s - p->elapsed_s, 1e-3);
	return rc;
}

/* The request's profile is of this source and these nodes, measured. */
static bool given_profile(const struct tt_auto *c)
{
	const struct tt_profile *p = c->req.profile;

	if (!p || p->source != c->req.source || p->n != c->cfg.nnodes || !tt_profile_complete(p))
		return false;
	for (int k = 0; k < p->n; k++)
		if (p->nodes[k].node != c->cfg.nodes[k])
			return false;
	return true;
}

/* The prior and the auto-mode baseline. The auto baseline is what the
 * kernel's auto mode would do: HMAT's figures where every node has them,
 * else the prior's. The prior is the profile measured from the source
 * (measure/profile.h), or the model's with --model; HMAT's, a first guess
 * from each node's best initiator, only when the profile is skipped
 * (--no-profile, sweep, a budget too small to hold it) or cut short.
 *
 * The profile counts against the budget: a measurement per node (its
 * bandwidth run costs what a search measurement does; the latency run is
 * shorter), and with a duration its time, of which it takes at most about
 * a quarter. */
static int pick_prior(struct tt_auto *c)
{
	const struct tt_model *m = c->req.model;
	struct tt_search_cfg *cfg = &c->cfg;
	struct tt_profile hmat, *p = &c->prior.profile;
	int cost = tt_profile_cost(cfg->nnodes), rc = 0;
	const char *skipped = profile_skipped(c, cost);

	tt_profile_hmat(&hmat, c->t, c->req.source, cfg->nodes, cfg->nnodes);
	c->prior.auto_from = "hmat";
	if (tt_profile_complete(&hmat))
		tt_profile_bw(&hmat, cfg->auto_bw_bytes_s);
	if (m && !c->req.no_profile) {
		rc = tt_profile_model(p, m, c->req.source, cfg->nodes, cfg->nnodes);
	} else if (given_profile(c)) {
		*p = *c->req.profile;
	} else if (m || skipped) {
		*p = hmat;
		p->skipped = skipped ? skipped : "the budget is too small for it";
	} else {
		rc = profile_measure(c, cost);
	}
	if (rc < 0)
		return rc;
	if (tt_profile_complete(p)) {
		tt_profile_bw(p, cfg->prior_bw_bytes_s);
		/* HMAT's latencies are its best initiator's, not the source's. */
		if (!p->skipped)
			tt_profile_lat(p, cfg->prior_lat_ns);
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
		c->prior.auto_from = strcmp(cfg->prior_from, "none") == 0 ? NULL : cfg->prior_from;
	return 0;
}

/* Every node of tier tr is among the nodes searched. */
static int whole_tier(const struct tt_search_cfg *cfg, const struct tt_tier *tr)
{
	int node;

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
	return 0;
}

/* --granularity tier: the search's groups become the tiers of the nodes
 * picked, each whole (the RFC weighs a tier for all its nodes: seed 003),
 * its prior the sum of its nodes', the local baseline the source's tier. */
static int group_tiers(const struct tt_topo *t, struct tt_search_cfg *cfg)
{
	struct tt_search_cfg g = *cfg;
	const struct tt_node *local =
		cfg->local_node >= 0 ? tt_topo_node(t, cfg->local_node) : NULL;
	int rc;

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
		double bw = 0, abw = 0, lat = 0;
		bool used = false, known = true, aknown = true, lknown = true;
		int nin = 0;

		for (int k = 0; k < cfg->nnodes; k++)
			if (tt_nodemask_test(&tr->nodes, cfg->nodes[k])) {
				used = true;
				bw += cfg->prior_bw_bytes_s[k];
				known &= cfg->prior_bw_bytes_s[k] > 0;
				/* The RFC splits a tier's weight evenly over its
				 * nodes (tt_rfc_split): its pages' mean latency. */
				lat += cfg->prior_lat_ns[k];
				lknown &= cfg->prior_lat_ns[k] > 0;
				nin++;
				abw += cfg->auto_bw_bytes_s[k];
				aknown &= cfg->auto_bw_bytes_s[k] > 0;
			}
		if (!used)
			continue;
		if ((rc = whole_tier(cfg, tr)) < 0)
			return rc;
		g.nodes[g.nnodes] = tr->id;
		g.auto_bw_bytes_s[g.nnodes] = aknown ? abw : 0;
		g.prior_lat_ns[g.nnodes] = lknown ? lat / nin : 0;
		g.prior_bw_bytes_s[g.nnodes++] = known ? bw : 0;
	}
	*cfg = g;
	return 0;
}

/* Node weights on an interface keyed by tier (the RFC's): a tier's weight
 * is split evenly over its nodes, so two searched nodes in one tier could
 * be given weights no write can make, and the run would recommend what it
 * never measured. */
static int node_weights_writable(const struct tt_auto *c)
{
	const struct tt_search_cfg *cfg = &c->cfg;
	const struct tt_wi_backend *be;

	if (tt_wi_pick(c->sfs, NULL, &be) < 0 || be->key != TT_WI_BY_TIER)
		return 0;
	for (int i = 0; i < cfg->nnodes; i++)
		for (int k = i + 1; k < cfg->nnodes; k++) {
			const struct tt_node *a = tt_topo_node(c->t, cfg->nodes[i]),
					     *b = tt_topo_node(c->t, cfg->nodes[k]);

			if (a && b && a->tier >= 0 && a->tier == b->tier) {
				tt_err(TT_EINPUT,
				       "node weights: nodes %d and %d share memory tier %d, "
				       "whose weight this kernel's %s interface splits evenly "
				       "between them, so a search by node would recommend "
				       "weights no write can make",
				       a->id, b->id, a->tier, be->name);
				tt_err_hint("search by tier (--granularity tier), or over "
					    "nodes of distinct tiers (--nodes)");
				return TT_EINPUT;
			}
		}
	return 0;
}

/* Real bench trials whose arrays the last-level cache can hold measure
 * the cache, whose bandwidth no weight changes: the search would rank
 * noise. Refused before any trial (tt_trial_check_cache) unless the caller
 * allows it; the model and app mode allocate no arrays. */
static int cache_check(const struct tt_auto *c)
{
	const struct tt_auto_req *q = &c->req;
	struct tt_bench_opts o = tt_auto_bench_opts(c);

	if (q->model || q->app.argv || !q->size_bytes || q->allow_cache_resident)
		return 0;
	return tt_trial_check_cache(&o);
}

/* The final comparison's interval narrows with its rounds (t of n-1
 * degrees of freedom over sqrt(n): +-2.5 sd at 3 rounds, 1.2 at 5, 0.7 at
 * 10), and 3 cannot tell a 10% gain from noise at 3% noise. A budget buys
 * rounds at a fortieth of it: a model run's 200 gets 5, the default real
 * run's 60 keeps 3. The count is fixed before any round is seen, so
 * stopping early on a lucky interval cannot bias the verdict. A sweep
 * without a budget must stay within reach. */
static int budget_rounds(struct tt_auto *c)
{
	struct tt_search_cfg *cfg = &c->cfg;
	bool m = c->req.model != NULL;

	/* At most 16, as before the comparison with now could take 48
	 * (search.h: TT_DECIDE_PLAN): the least every baseline gets. */
	if (cfg->budget_trials / 40 > cfg->confirm_rounds)
		cfg->confirm_rounds = cfg->budget_trials / 40 < 16 ? cfg->budget_trials / 40 : 16;
	if (cfg->budget_trials || cfg->budget_s > 0 ||
	    tt_grid_count(cfg->nnodes, cfg->max_weight) * cfg->min_repeats <=
		    (m ? SWEEP_MODEL_MAX : SWEEP_REAL_MAX))
		return 0;
	return tt_err(TT_EINPUT,
		      "--grid %u over %d nodes is %ld vectors, each measured %d "
		      "times, more than the %d a sweep %s runs without --budget: give "
		      "--budget, or a smaller --grid",
		      cfg->max_weight, cfg->nnodes, tt_grid_count(cfg->nnodes, cfg->max_weight),
		      cfg->min_repeats, m ? SWEEP_MODEL_MAX : SWEEP_REAL_MAX,
		      m ? "on the model" : "of real trials");
}

/* The model's simulation, its thread count the model's unless asked. */
/* A real trial's timed passes by default (cli/auto-options.c), the
 * passes a model trial stands for. */
#define MODEL_PASSES 5

static int model_setup(struct tt_auto *c)
{
	const struct tt_model *m = c->req.model;
	int rc;

	if (!m)
		return 0;
	rc = tt_model_sim_init(&c->pipe.sim, m, c->req.source, c->req.kernel->name, c->req.threads,
			       c->req.sigma, c->req.seed);
	if (rc < 0)
		return rc;
	if (!c->req.threads)
		c->req.threads = tt_model_source(m, c->req.source)->threads;
	/* The simulated clock (issue 33 item 7): the wall clock made a model
	 * run's --budget 30s and its elapsed time depend on the host's load,
	 * not on its seed. A trial moves what a real one would: the arrays
	 * (--size, else STREAM's rule on the modelled machine's cache, as the
	 * tree describes it) once per pass, auto's default passes and the
	 * warm-up. The shipped trees list no cache size, so their trials are
	 * STREAM's minimum, about a millisecond: a seconds budget on a model
	 * is then mostly the measurement count's. */
	{
		struct tt_llc llc;
		char rule[128];
		size_t bytes = c->req.size_bytes;

		/* The tree's cache only: the fallbacks (glibc, CPUID, hwloc)
		 * ask the host, which is not the modelled machine. */
		if (!bytes) {
			if (tt_bench_llc(c->sfs, &llc) < 0 || strcmp(llc.from, "sysfs") != 0)
				llc = (struct tt_llc){ .from = "the modelled machine's tree" };
			bytes = tt_bench_default_bytes(&llc, rule, sizeof(rule));
		}
		c->pipe.sim_s = 0;
		c->pipe.sim_trial_bytes = (double)bytes / sizeof(double) *
					  c->pipe.sim.mix.counted_bytes * (MODEL_PASSES + 1);
		c->cfg.clock = tt_auto_pipe_clock;
		c->cfg.clock_ctx = &c->pipe;
	}
	return 0;
}

int tt_auto_one_node(int node, bool in_nodes)
{
	int rc = tt_err(TT_EUNAVAIL, "nothing to interleave: node %d is the only memory node %s",
			node, in_nodes ? "in --nodes" : "of this machine");

	tt_err_hint("weighted interleave needs two or more memory nodes; to see the search on "
		    "a modelled CXL machine: --model spr-ddr5-2cxl");
	return rc;
}

int tt_auto_prepare(struct tt_auto *c)
{
	struct tt_search_cfg *cfg = &c->cfg;
	int rc;

	if (cfg->nnodes < 2)
		return tt_auto_one_node(cfg->nodes[0], c->req.nodes != NULL);
	for (int k = 0; k < cfg->nnodes; k++)
		if (cfg->nodes[k] == c->req.source)
			cfg->local_node = c->req.source;
	if ((rc = cache_check(c)) < 0)
		return rc;
	if (!c->tiers && (rc = node_weights_writable(c)) < 0)
		return rc;
	if ((rc = budget_rounds(c)) < 0)
		return rc;
	rc = pick_prior(c);
	if (rc == 0)
		tt_auto_baselines(c);
	if (rc == 0 && c->tiers)
		rc = group_tiers(c->t, cfg);
	if (rc == 0)
		rc = model_setup(c);
	return rc < 0 ? rc : tt_auto_pipe_build(c);
}

/* Keeps what the latest real measurement placed with its trial, then
 * passes the measurement on to the caller's progress hook. */
static void progress(void *ctx, const struct tt_search *s, int trial)
{
	struct tt_auto *c = ctx;
	struct tt_auto_seen *seen = &c->seen;

	if (!s->confirming && !c->simulated && trial >= seen->nper) {
		struct tt_auto_placed *p =
			realloc(seen->per_trial, (size_t)(trial + 16) * sizeof(*p));

		if (p) {
			memset(p + seen->nper, 0, (size_t)(trial + 16 - seen->nper) * sizeof(*p));
			seen->per_trial = p;
			seen->nper = trial + 16;
		}
	}
	if (!s->confirming && !c->simulated && trial < seen->nper)
		tt_auto_seen_keep(seen, trial);
	if (c->hooks.progress)
		c->hooks.progress(c->hooks.ctx, c, s, trial);
}

/* No trial kept the bound, or none carried the stated traffic: the nearest
 * miss named, nothing recommended, recorded or applied. */
static int infeasible(const struct tt_auto *c, const struct tt_report *r)
{
	char w[96];

	tt_weights_format(&r->best_w, w, sizeof(w));
	if (!(c->req.max_lat_ns > 0)) {
		tt_err(TT_EFAIL,
		       "%s--traffic-rate %.1f GB/s exceeds every candidate's capacity: none of %d "
		       "trials carried it; the highest capacity found was %.1f GB/s",
		       c->simulated ? "SIMULATED: " : "", c->req.objective.traffic_gb_s,
		       r->nmeasured, r->max_capacity_bytes_s / 1e9);
		tt_err_hint("state a traffic within the capacity (--traffic-rate), or give more "
			    "nodes (--nodes)");
		return TT_EFAIL;
	}
	tt_err(TT_EFAIL,
	       "%sno weights met the latency bound of %.0f ns in %d trials; the least loaded "
	       "latency was %.0f ns, with weights %s",
	       c->simulated ? "SIMULATED: " : "", c->req.max_lat_ns, r->nmeasured, r->best_lat_ns,
	       w);
	tt_err_hint("raise --max-latency, or lighten the mix (--threads)");
	return TT_EFAIL;
}

/* Tier weights searched on a machine whose interface holds node weights
 * (upstream) are recommended as it takes them, split over the tiers' nodes
 * as the RFC splits them, and on one with the other tier interface
 * (rfcv1) named for it: what is stored, exported and applied is then one
 * thing, named for the interface the machine has. */
static int reco_for_machine(const struct tt_auto *c, struct tt_recos *rs)
{
	const struct tt_wi_backend *be;

	if (!c->tiers || !rs->n || tt_wi_pick(c->sfs, NULL, &be) < 0)
		return 0;
	return tt_recos_convert(rs, c->t, be);
}

/* The kernel's auto mode is there and on (upstream 6.16+): leaving it
 * then needs a gain beyond the noise (tt_report_decide). */
static bool kernel_auto_on(const struct tt_auto *c)
{
	const struct tt_wi_backend *be;
	struct tt_wi_state st;
	bool on;

	if (tt_wi_pick(c->sfs, NULL, &be) < 0)
		return false;
	tt_wi_state_init(&st);
	on = be->read(c->sfs, c->t, &st) == 0 && st.auto_mode == 1;
	tt_wi_state_release(&st);
	return on;
}

int tt_auto_search(struct tt_auto *c)
{
	struct tt_search_cfg cfg = c->cfg;
	struct tt_report *r = &c->r;
	int rc;

	cfg.max_lat_ns = c->req.max_lat_ns;
	cfg.progress = progress;
	cfg.progress_ctx = c;
	/* Only the latency objective and a bound need the sampling search
	 * (its pattern search and golden section); the bandwidth objective
	 * runs the line and the fitted surrogate, the search the quality
	 * table measures (tests/perf/tuner-quality.c drives this session).
	 * Through the sampling search auto had 2 of 20 to 7 of 20 seeds over
	 * 1% on the shipped models where this one has none (issue 33). */
	rc = c->pipe.sampled ? tt_search_init_sampled(&c->s, &cfg, tt_auto_pipe_sample, &c->pipe)
			     : tt_search_init(&c->s, &cfg, tt_auto_pipe_measure, &c->pipe);
	if (rc < 0)
		return rc;
	c->searched = true;
	rc = tt_search_run(&c->s);
	if (rc < 0 && tt_policy_signal()) {
		char msg[1024];

		/* The run is recorded when its search ends: stopped, there is
		 * no run to mark, and nothing half-written. */
		snprintf(msg, sizeof(msg), "%s", tt_err_msg());
		return tt_err(rc,
			      "the search from node %d stopped after %d measurements: %s; nothing "
			      "recorded",
			      c->req.source, c->s.measurements + c->prior.cost, msg);
	}
	if (rc == 0)
		rc = tt_report_build(r, &c->s, c->req.source, c->simulated);
	if (rc == 0 && c->req.objective.kind == TT_OBJ_LATENCY)
		tt_report_latency_objective(r, &c->s);
	if (rc == 0 && r->none_feasible)
		rc = infeasible(c, r);
	r->tiers = c->tiers;
	if (rc == 0)
		tt_report_decide(r, kernel_auto_on(c), tt_auto_now_base(c));
	if (rc == 0)
		rc = tt_report_reco(r, &c->rs);
	if (rc == 0)
		rc = reco_for_machine(c, &c->rs);
	return rc;
}

/* The plan apply would run for the recommendation, on the interface this
 * kernel has: the node weights, merged, or the source's weights in the
 * interface's unit. */
int tt_auto_plan(const struct tt_auto *c, struct tt_apply_plan *p)
{
	const struct tt_wi_backend *be;
	struct tt_recos rs = c->rs;
	struct tt_weights w;
	int rc, id, one = -1;

	/* One node (the local DRAM baseline, say) is no interleave at all.
	 * Weights cannot say that: upstream's are global, so writing the one
	 * node's would only shift every interleaving task towards the nodes
	 * left out; the RFC's are per tier, the others untouched. */
	if (tt_weights_count(&c->rs.r[0].w) == 1) {
		tt_weights_for_each(id, &c->rs.r[0].w) one = id;
		return tt_err(TT_EUNAVAIL,
			      "the best is %s %d alone, no interleave, which no weight can say "
			      "(written, it would only move other tasks' interleaved pages "
			      "towards the %ss left out): run the program with its memory "
			      "bound there (numactl --membind or --localalloc) instead",
			      c->tiers ? "tier" : "node", one, c->tiers ? "tier" : "node");
	}
	rc = tt_wi_pick(c->sfs, NULL, &be);
	if (rc == 0)
		rc = tt_recos_convert(&rs, c->t, be);
	if (rc < 0)
		return rc;
	p->be = be;
	if (be->per_source)
		return tt_apply_plan_weights(p, c->t, c->req.source, &rs.r[0].w);
	rc = tt_recos_merged(&rs, be, c->req.source, &w);
	return rc < 0 ? rc : tt_apply_plan_weights(p, c->t, -1, &w);
}

/* Here, not in auto-doc.c, which builds the document: auto-doc.c calls
 * this file (tt_auto_plan), never the other way. */
void tt_auto_doc_release(struct tt_auto_doc *d)
{
	free(d->trials);
	d->trials = NULL;
}

void tt_auto_release(struct tt_auto *c)
{
	if (c->searched)
		tt_search_release(&c->s);
	c->searched = false;
	tt_auto_pipe_release(&c->pipe);
	free(c->seen.per_trial);
	free(c->seen.discarded);
	memset(&c->seen, 0, sizeof(c->seen));
	tt_apply_plan_release(&c->plan);
	tt_auto_doc_release(&c->doc);
}

int tt_auto_all_add(struct tt_auto_all *all, const struct tt_auto *c)
{
	if (all->rs.n == TT_RECO_MAX)
		return tt_err(TT_EINPUT, "more than %d sources", TT_RECO_MAX);
	if (c->r.action != TT_ACTION_APPLY && tt_report_keeps(&c->r))
		snprintf(all->keep + strlen(all->keep), sizeof(all->keep) - strlen(all->keep),
			 "%ssource node %d: %s", all->keep[0] ? "; " : "", c->req.source,
			 tt_reco_action_name(c->r.action));
	all->run[all->rs.n] = c->run;
	all->rs.r[all->rs.n++] = c->rs.r[0];
	return 0;
}

void tt_auto_all_merge(struct tt_auto_all *all, const struct tt_sysfs *sfs, const struct tt_topo *t)
{
	tt_weights_clear(&all->merged);
	all->conflict[0] = all->why[0] = '\0';
	if (tt_wi_pick(sfs, NULL, &all->be) < 0 || tt_recos_convert(&all->rs, t, all->be) < 0) {
		snprintf(all->why, sizeof(all->why), "%s", tt_err_msg());
		all->be = NULL;
	} else if (!all->be->per_source &&
		   tt_recos_merged(&all->rs, all->be, -1, &all->merged) < 0) {
		snprintf(all->conflict, sizeof(all->conflict), "%s", tt_err_msg());
	}
}

int tt_auto_all_plan(const struct tt_auto_all *all, const struct tt_topo *t,
		     struct tt_apply_plan *p)
{
	int rc = 0;

	if (!p->be->per_source)
		return tt_apply_plan_weights(p, t, -1, &all->merged);
	for (int i = 0; i < all->rs.n && rc == 0; i++)
		rc = tt_apply_plan_weights(p, t, all->rs.r[i].source_node, &all->rs.r[i].w);
	return rc;
}
