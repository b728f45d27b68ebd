/* An auto or sweep run: its nodes, prior, measurement, search, record and
 * plan (auto.h). */
#include "auto.h"

#include "../bench/kernels.h"
#include "../core/apply.h"
#include "../core/error.h"
#include "../core/parse.h"
#include "../core/state.h"
#include "../core/wi.h"
#include "../db/db.h"
#include "app.h"
#include "trial.h"

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

/* What a real trial placed and used, for the record. */
static void note_placement(struct tt_auto *c, const struct tt_weights *w,
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

/* What every real run from the source shares: the mix, the threads, the
 * arrays' size and the passes. */
static struct tt_bench_opts bench_opts(const struct tt_auto *c)
{
	return (struct tt_bench_opts){ .kernel = c->kernel,
				       .topo = c->t,
				       .source_node = c->source,
				       .threads = c->threads,
				       .array_bytes = c->size_bytes,
				       .repeat = c->repeat,
				       .sfs = c->sfs };
}

/* One real measurement: the kernel under exact placement (no root, no
 * global setting), its median pass as the score, in the arrays the
 * earlier ones placed. Not recorded by the trial layer: the auto run
 * records its trials itself, one per vector. */
static int real_measure(void *ctx, const struct tt_weights *w, double *score)
{
	struct tt_auto *c = ctx;
	int rc = c->reuse ? 0 : tt_bench_ctx_new(&c->reuse);
	struct tt_trial_opts o = { .bench = bench_opts(c), .weights = w, .command = c->command };
	struct tt_trial_result *r;

	o.bench.reuse = c->reuse;
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
	struct tt_auto *c = ctx;
	int n = c->latency ? (int)(sizeof(traffic_ladder) / sizeof(*traffic_ladder)) : 1;
	struct tt_trial_opts o = { .bench = bench_opts(c), .weights = w, .command = c->command };
	struct tt_trial_result *r;
	int rc = tt_place_init(&o.bench.place, TT_PLACE_EXACT, &w->set, w, c->source);

	o.bench.kernel = tt_kernel_find("loaded-latency");
	o.bench.traffic = c->kernel;
	o.bench.ndelays = n;
	o.bench.point_s = 0.25;
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
int tt_auto_nodes(struct tt_auto *c, struct tt_search_cfg *cfg)
{
	const struct tt_topo *t = c->t;
	const struct tt_model *m = c->model;
	struct tt_nodemask mask = { 0 };
	int node, rc = tt_topo_check_source(t, c->source);

	c->simulated = m != NULL;
	if (rc == 0 && !tt_topo_node(t, c->source)->has_cpu)
		rc = tt_err(TT_EINPUT, "source node %d has no CPUs to run threads on", c->source);
	if (rc < 0)
		return rc;
	if (c->nodes && strcmp(c->nodes, "local") == 0) {
		local_nodes(t, c->source, &mask);
	} else if (c->nodes) {
		if (tt_parse_list(c->nodes, mask.bits, TT_MAX_NODES) || !tt_nodemask_weight(&mask))
			return tt_err(TT_EINPUT, "--nodes '%s' is not a node list (want e.g. 0-2)",
				      c->nodes);
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
	if (m && (rc = tt_model_check_machine(m, c->source, t, cfg->nodes, cfg->nnodes)) < 0)
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
static int pick_prior(struct tt_auto *c, struct tt_search_cfg *cfg)
{
	const struct tt_model *m = c->model;
	struct tt_profile hmat, *p = &c->profile;
	int cost = tt_profile_cost(cfg->nnodes), rc = 0;
	bool sweep = strcmp(c->kind, "sweep") == 0;

	tt_profile_hmat(&hmat, c->t, c->source, cfg->nodes, cfg->nnodes);
	c->auto_from = "hmat";
	if (tt_profile_complete(&hmat))
		tt_profile_bw(&hmat, cfg->auto_bw_bytes_s);
	if (m && !c->no_profile) {
		rc = tt_profile_model(p, m, c->source, cfg->nodes, cfg->nnodes);
	} else if (c->no_profile || m || sweep ||
		   (cfg->budget_trials && cfg->budget_trials - cost < tt_search_need(cfg))) {
		*p = hmat;
		p->skipped = c->no_profile ? "--no-profile"
			     : sweep	   ? "sweep tries every vector"
					   : "the budget is too small for it";
	} else {
		struct tt_bench_opts o = bench_opts(c);

		if (c->hooks.profiling)
			c->hooks.profiling(c->hooks.ctx, c);
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
static int tier_nodes(const struct tt_auto *c, const struct tt_weights *tiers,
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
	struct tt_auto *c = ctx;
	struct tt_weights nw;
	int rc = tier_nodes(c, w, &nw);

	return rc < 0 ? rc : c->inner_measure(c->inner_ctx, &nw, score);
}

static int tier_sample(void *ctx, const struct tt_weights *w, struct tt_sample *out)
{
	struct tt_auto *c = ctx;
	struct tt_weights nw;
	int rc = tier_nodes(c, w, &nw);

	return rc < 0 ? rc : c->inner(c->inner_ctx, &nw, out);
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

/* Trials under the kernel's policy (--placement kernel) and app mode: the
 * candidate's weights written for each trial and put back (policy.h), the
 * program run under them (app.h). After the checks of the search's input:
 * the program found, the weight files writable (TT_EUNAVAIL otherwise,
 * nothing written), a journal left by a killed tiertune put back, signals
 * caught. */
static int policy_setup(struct tt_auto *c, const struct tt_search_cfg *cfg)
{
	struct tt_weights ones;
	int rc;

	if (!c->app_argv && c->mode != TT_PLACE_KERNEL)
		return 0;
	rc = tt_state_dir(TT_DIR_STATE, c->state, sizeof(c->state));
	if (rc == 0)
		rc = tt_state_prepare(c->state);
	if (rc < 0)
		return rc;
	if (c->app_argv) {
		c->app = calloc(1, sizeof(*c->app));
		if (!c->app)
			return tt_err(TT_EFAIL, "out of memory");
		snprintf(c->log, sizeof(c->log), "%s/auto-app.log", c->state);
		rc = tt_app_init(c->app, c->app_argv, c->metric, c->higher_is_better, c->log);
		if (rc < 0) {
			free(c->app);
			c->app = NULL;
			return rc;
		}
		if (c->app_host_nodes) {
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
	c->pol = (struct tt_policy){ .sfs = c->sfs, .topo = c->t, .state_dir = c->state };
	c->pm = (struct tt_policy_measure){ .pol = &c->pol,
					    .inner = c->app ? tt_app_measure : real_measure,
					    .inner_ctx = c->app ? (void *)c->app : c,
					    .discarded = c->hooks.discarded,
					    .discarded_ctx = c->hooks.ctx };
	tt_weights_clear(&ones);
	for (int k = 0; k < cfg->nnodes; k++)
		tt_weights_put(&ones, cfg->nodes[k], 1);
	rc = tt_policy_check(&c->pol, &ones);
	if (rc == 0 && c->hooks.recover)
		rc = c->hooks.recover(c->hooks.ctx);
	if (rc == 0)
		tt_policy_catch_signals();
	return rc;
}

/* Node weights on an interface keyed by tier (the RFC's): a tier's weight
 * is split evenly over its nodes, so two searched nodes in one tier could
 * be given weights no write can make, and the run would recommend what it
 * never measured. */
static int node_weights_writable(const struct tt_auto *c, const struct tt_search_cfg *cfg)
{
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
 * noise. Refused before any trial unless the caller allows it (the model
 * and app mode allocate no arrays). */
static int cache_check(const struct tt_auto *c)
{
	struct tt_llc llc;

	if (c->model || c->app_argv || !c->size_bytes || c->allow_cache_resident ||
	    tt_bench_llc(c->sfs, &llc) < 0 || c->size_bytes >= llc.bytes * TT_LLC_FACTOR)
		return 0;
	tt_err(TT_EINPUT,
	       "--size %.1f MiB arrays are under %dx the last-level cache (L%d, %.1f MiB, from "
	       "%s): the trials would measure the cache, not memory",
	       (double)c->size_bytes / (1 << 20), TT_LLC_FACTOR, llc.level,
	       (double)llc.bytes / (1 << 20), llc.from);
	tt_err_hint("give --size %.0fM or more (or leave it out: STREAM's rule), or "
		    "--allow-cache-resident to search the cache's figures knowingly",
		    ceil((double)llc.bytes * TT_LLC_FACTOR / (1 << 20)));
	return TT_EINPUT;
}

int tt_auto_prepare(struct tt_auto *c, struct tt_search_cfg *cfg)
{
	const struct tt_model *m = c->model;
	int rc;

	if (cfg->nnodes < 2) {
		rc = tt_err(TT_EUNAVAIL,
			    "nothing to interleave: node %d is the only memory node %s",
			    cfg->nodes[0], c->nodes ? "in --nodes" : "of this machine");
		tt_err_hint(
			"weighted interleave needs two or more memory nodes; to see the search on "
			"a modelled CXL machine: --model spr-ddr5-2cxl");
		return rc;
	}
	for (int k = 0; k < cfg->nnodes; k++)
		if (cfg->nodes[k] == c->source)
			cfg->local_node = c->source;
	if ((rc = cache_check(c)) < 0)
		return rc;
	if (!c->tiers && (rc = node_weights_writable(c, cfg)) < 0)
		return rc;
	/* The final comparison's interval narrows with its rounds (t of n-1
	 * degrees of freedom over sqrt(n): +-2.5 sd at 3 rounds, 1.2 at 5, 0.7
	 * at 10), and 3 cannot tell a 10% gain from noise at 3% noise. A budget
	 * buys rounds at a fortieth of it: a model run's 200 gets 5, the default
	 * real run's 60 keeps 3. The count is fixed before any round is seen,
	 * so stopping early on a lucky interval cannot bias the verdict. */
	if (cfg->budget_trials / 40 > cfg->confirm_rounds)
		cfg->confirm_rounds = cfg->budget_trials / 40 < TT_CONFIRM_MAX
					      ? cfg->budget_trials / 40
					      : TT_CONFIRM_MAX;
	if (!cfg->budget_trials && !(cfg->budget_s > 0) &&
	    tt_grid_count(cfg->nnodes, cfg->max_weight) * cfg->min_repeats >
		    (m ? SWEEP_MODEL_MAX : SWEEP_REAL_MAX))
		return tt_err(TT_EINPUT,
			      "--grid %u over %d nodes is %ld vectors, each measured %d "
			      "times, more than the %d a sweep %s runs without --budget: give "
			      "--budget, or a smaller --grid",
			      cfg->max_weight, cfg->nnodes,
			      tt_grid_count(cfg->nnodes, cfg->max_weight), cfg->min_repeats,
			      m ? SWEEP_MODEL_MAX : SWEEP_REAL_MAX,
			      m ? "on the model" : "of real trials");
	rc = pick_prior(c, cfg);
	if (rc == 0 && c->tiers)
		rc = group_tiers(c->t, cfg);
	if (rc < 0)
		return rc;
	if (m) {
		rc = tt_model_sim_init(&c->sim, m, c->source, c->mix, c->threads, c->sigma,
				       c->seed);
		if (rc < 0)
			return rc;
		if (!c->threads)
			c->threads = tt_model_source(m, c->source)->threads;
	}
	return policy_setup(c, cfg);
}

/* Keeps what the latest real measurement placed with its trial, then
 * passes the measurement on to the caller's progress hook. */
static void progress(void *ctx, const struct tt_search *s, int trial)
{
	struct tt_auto *c = ctx;

	if (!s->confirming && !c->simulated && trial >= c->nper) {
		struct tt_auto_placed *p = realloc(c->per_trial, (size_t)(trial + 16) * sizeof(*p));

		if (p) {
			memset(p + c->nper, 0, (size_t)(trial + 16 - c->nper) * sizeof(*p));
			c->per_trial = p;
			c->nper = trial + 16;
		}
	}
	if (!s->confirming && !c->simulated && trial < c->nper)
		c->per_trial[trial] = c->last;
	if (c->hooks.progress)
		c->hooks.progress(c->hooks.ctx, c, s, trial);
}

/* The measurement for the objective and the granularity: the model's or a
 * real one, with latency when the objective or a bound needs it, through
 * the tier split with --granularity tier. */
static int search_init(struct tt_auto *c, const struct tt_search_cfg *base, struct tt_search *s)
{
	struct tt_search_cfg k = *base, *cfg = &k;
	bool lat = c->latency || c->max_lat_ns > 0, model = c->model != NULL;

	k.max_lat_ns = c->max_lat_ns;
	k.progress = progress;
	k.progress_ctx = c;
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

/* No trial kept the bound, or none carried the stated traffic: the nearest
 * miss named, nothing recommended, recorded or applied. */
static int infeasible(const struct tt_auto *c, const struct tt_report *r)
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

/* Tier weights searched on a machine whose interface holds node weights
 * (upstream) are recommended as it takes them, split over the tiers' nodes
 * as the RFC splits them: what is stored, exported and applied is then one
 * thing, named for the interface the machine has. */
static int reco_for_machine(const struct tt_auto *c, struct tt_recos *rs)
{
	const struct tt_wi_backend *be;

	if (!c->tiers || !rs->n || tt_wi_pick(c->sfs, NULL, &be) < 0 || be->key == TT_WI_BY_TIER)
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

int tt_auto_search(struct tt_auto *c, const struct tt_search_cfg *cfg, struct tt_search *s,
		   struct tt_report *r, struct tt_recos *rs)
{
	int rc = search_init(c, cfg, s);

	if (rc < 0)
		return rc;
	rc = tt_search_run(s);
	if (rc == 0)
		rc = tt_report_build(r, s, c->source, c->simulated);
	if (rc == 0 && r->none_feasible)
		rc = infeasible(c, r);
	r->tiers = c->tiers;
	if (rc == 0)
		tt_report_decide(r, kernel_auto_on(c));
	if (rc == 0)
		rc = tt_report_reco(r, rs);
	if (rc == 0)
		rc = reco_for_machine(c, rs);
	if (rc < 0)
		tt_search_release(s);
	return rc;
}

/* A trial's node rows for the database: its weights (split over the tiers'
 * nodes with --granularity tier), shares requested and, for real trials,
 * achieved. */
static int trial_nodes(const struct tt_auto *c, const struct tt_search *s, int i,
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

/* A trial's figures for the database: bandwidth from the callback's own
 * scores (not a bound's ranking; none for the latency objective, whose
 * score is not one), latency where it was measured. */
static void trial_figures(const struct tt_auto *c, const struct tt_trial *tr, struct tt_db_trial *d)
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

/* The run, its trials (one per weight vector, its measurements as passes)
 * and the recommendation. The run row is begun only now, after the search:
 * a search refused or failed leaves the database as it was. */
int tt_auto_record(struct tt_auto *c, const struct tt_search *s, const struct tt_report *r,
		   const struct tt_recos *rs, int64_t *run_id)
{
	struct tt_db *db;
	char objective[64];
	int64_t host, run = 0, id;
	int rc = c->hooks.open_db(c->hooks.ctx, &db);

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
							  .kind = c->kind,
							  .command = c->command,
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
		const struct tt_report_baseline *over = tt_report_gain_over(r);

		rc = tt_db_recommendation_add(
			db, run,
			&(struct tt_db_recommendation){
				.source_node = c->source,
				.interface = rs->r[0].interface,
				.weights = &rs->r[0].w,
				.action = tt_reco_action_name(r->action),
				.score = r->best_mean,
				.score_ci_low = r->best_ci_lo,
				.score_ci_high = r->best_ci_hi,
				.score_n = r->best_trial >= 0 ? r->trials[r->best_trial].n : 0,
				.gain = r->reco_gain,
				.gain_ci_low = over && r->reco_gain != 0 ? over->gain_lo : NAN,
				.gain_ci_high = over && r->reco_gain != 0 ? over->gain_hi : NAN,
				.baseline =
					over ? tt_report_baseline_label(r, over->name) : NULL });
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
int tt_auto_plan(const struct tt_auto *c, const struct tt_recos *reco, struct tt_apply_plan *p)
{
	const struct tt_wi_backend *be;
	struct tt_recos rs = *reco;
	struct tt_weights w;
	int rc, id, one = -1;

	/* One node (the local DRAM baseline, say) is no interleave at all.
	 * Weights cannot say that: upstream's are global, so writing the one
	 * node's would only shift every interleaving task towards the nodes
	 * left out; the RFC's are per tier, the others untouched. */
	if (tt_nodemask_weight(&reco->r[0].w.set) == 1) {
		tt_nodemask_for_each (id, &reco->r[0].w.set)
			one = id;
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
		return tt_apply_plan_weights(p, c->t, c->source, &rs.r[0].w);
	rc = tt_recos_merged(&rs, be, c->source, &w);
	return rc < 0 ? rc : tt_apply_plan_weights(p, c->t, -1, &w);
}

void tt_auto_release(struct tt_auto *c)
{
	tt_bench_ctx_free(c->reuse);
	c->reuse = NULL;
	free(c->per_trial);
	c->per_trial = NULL;
	c->nper = 0;
	if (c->app)
		tt_app_release(c->app);
	free(c->app);
	c->app = NULL;
}

int tt_auto_all_add(struct tt_auto_all *all, const struct tt_recos *rs, int64_t run)
{
	if (all->rs.n == TT_RECO_MAX)
		return tt_err(TT_EINPUT, "more than %d sources", TT_RECO_MAX);
	all->run[all->rs.n] = run;
	all->rs.r[all->rs.n++] = rs->r[0];
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
