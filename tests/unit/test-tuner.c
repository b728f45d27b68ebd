// SPDX-License-Identifier: GPL-3.0-or-later
/* tuner/search.c, the strategies and report.c, on the shipped models: the
 * grid and snapping; the known optimum found; noise handled;
 * budgets kept; no vector tried twice; baselines first; a gain within noise
 * reported as such; the recommendation. */
#include "test.h"

#include "../../core/error.h"
#include "../../bench/kernels.h"
#include "../../core/sysfs.h"
#include "../../core/topo.h"
#include "../../model/model.h"
#include "../../measure/profile.h"
#include "../../tuner/report.h"
#include "../../tuner/search.h"
#include "../../measure/trial.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The machines and node sets the tests and the quality benchmark use. */
static const struct qcase {
	const char *model;
	int src;
	int nnodes;
	int nodes[4];
} cases[] = {
	{ "spr-ddr5-2cxl", 0, 3, { 0, 1, 2 } },	 { "2s-genoa-cxl", 0, 2, { 0, 2 } },
	{ "2s-genoa-cxl", 1, 3, { 0, 1, 3 } },	 { "xeon-max-hbm-flat", 0, 2, { 0, 2 } },
	{ "xeon-max-hbm-flat", 1, 2, { 1, 3 } },
};

static struct tt_model model;

static void load(const char *name)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/model/machines/%s.json",
		 getenv("TT_TOP") ? getenv("TT_TOP") : ".", name);
	if (tt_model_load(&model, path) < 0)
		fail_msg("%s", tt_err_msg());
}

static double truth(const struct qcase *c, const struct tt_mix *mix, const uint32_t *w)
{
	struct tt_weights tw;
	struct tt_model_result r;

	tt_weights_clear(&tw);
	for (int k = 0; k < c->nnodes; k++)
		if (w[k])
			tt_weights_put(&tw, c->nodes[k], w[k]);
	assert_int_equal(tt_model_eval(&model, c->src, mix, 0, &tw, &r), 0);
	return r.bw_bytes_s;
}

/* The noise-free optimum by the grid, and the grid's size. */
static double grid_optimum(const struct qcase *c, const struct tt_mix *mix, long *count)
{
	struct tt_grid g;
	uint32_t w[TT_SEARCH_MAX_NODES];
	double top = 0;

	*count = 0;
	tt_grid_init(&g, c->nnodes, 32);
	while (tt_grid_next(&g, w)) {
		double x = truth(c, mix, w);

		++*count;
		if (x > top)
			top = x;
	}
	return top;
}

/* Records what the search asks for, then measures on the model. */
struct spy {
	struct tt_model_sim sim;
	int calls;
	uint32_t w[4096][4];
	int nnodes;
	int nodes[4];
};

static int spy_measure(void *ctx, const struct tt_weights *w, double *score)
{
	struct spy *sp = ctx;

	if (sp->calls < 4096)
		for (int k = 0; k < sp->nnodes; k++)
			sp->w[sp->calls][k] = tt_weights_get(w, sp->nodes[k], 0);
	sp->calls++;
	return tt_model_measure(&sp->sim, w, score);
}

static void setup(const struct qcase *c, struct tt_search_cfg *cfg, struct spy *sp, const char *mix,
		  double sigma, uint64_t seed, int budget, const char *strategy)
{
	tt_search_cfg_default(cfg);
	cfg->nnodes = c->nnodes;
	memcpy(cfg->nodes, c->nodes, sizeof(c->nodes));
	cfg->local_node = c->src;
	cfg->budget_trials = budget;
	cfg->strategy = strategy;
	snprintf(cfg->prior_from, sizeof(cfg->prior_from), "model");
	assert_int_equal(
		tt_model_profile(&model, c->src, c->nodes, c->nnodes, cfg->prior_bw_bytes_s), 0);
	memset(sp, 0, sizeof(*sp));
	sp->nnodes = c->nnodes;
	memcpy(sp->nodes, c->nodes, sizeof(c->nodes));
	assert_int_equal(tt_model_sim_init(&sp->sim, &model, c->src, mix, 0, sigma, seed), 0);
}

static struct spy spy;
static struct tt_search s;

/* Runs one search; returns the noise-free gap of its winner. */
static double gap_of(const struct qcase *c, const char *mix, double sigma, uint64_t seed,
		     int budget, const char *strategy, double opt)
{
	struct tt_search_cfg cfg;
	uint32_t w[TT_SEARCH_MAX_NODES];

	struct tt_report r;

	setup(c, &cfg, &spy, mix, sigma, seed, budget, strategy);
	if (tt_search_init(&s, &cfg, spy_measure, &spy) < 0 || tt_search_run(&s) < 0 ||
	    tt_report_build(&r, &s, c->src, true) < 0)
		fail_msg("%s", tt_err_msg());
	/* What is recommended: the winner, or the baseline it lost to. */
	for (int k = 0; k < c->nnodes; k++)
		w[k] = tt_weights_get(r.lost_to >= 0 ? &r.base[r.lost_to].w : &r.best_w,
				      c->nodes[k], 0);
	return 1 - truth(c, &spy.sim.mix, w) / opt;
}

static void test_grid(void **state)
{
	static const struct {
		int n;
		uint32_t max;
		long count;
	} v[] = { { 1, 32, 1 },	  { 2, 1, 3 },	{ 2, 2, 5 },
		  { 2, 32, 649 }, { 3, 2, 19 }, { 3, 32, 29485 } };

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		assert_int_equal(tt_grid_count(v[i].n, v[i].max), v[i].count);
}

static void test_snap(void **state)
{
	static const struct {
		int n;
		double share[3];
		uint32_t max;
		uint32_t want[3];
	} v[] = {
		{ 2, { 0.9, 0.1 }, 32, { 9, 1 } },	  { 2, { 1, 0 }, 32, { 1, 0 } },
		{ 2, { 0.5, 0.5 }, 32, { 1, 1 } },	  { 3, { 0.7, 0.2, 0.1 }, 32, { 7, 2, 1 } },
		{ 2, { 0.97, 0.03 }, 32, { 32, 1 } },	  { 2, { 0.97, 0.03 }, 8, { 1, 0 } },
		{ 2, { 0.0588, 0.9412 }, 32, { 1, 16 } }, { 3, { 0, 0, 0 }, 32, { 1, 1, 1 } },
	};
	struct tt_search_cfg cfg;

	(void)state;
	tt_search_cfg_default(&cfg);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		uint32_t w[3];

		cfg.nnodes = v[i].n;
		for (int k = 0; k < v[i].n; k++)
			cfg.nodes[k] = k;
		cfg.max_weight = v[i].max;
		assert_int_equal(tt_search_init(&s, &cfg, spy_measure, &spy), 0);
		tt_search_snap(&s, v[i].share, w);
		for (int k = 0; k < v[i].n; k++)
			if (w[k] != v[i].want[k])
				fail_msg("vector %zu: node %d got %u, want %u", i, k, w[k],
					 v[i].want[k]);
		tt_search_release(&s);
	}
}

/* Noise-free, the search lands on the grid's optimum (the fitted peak may
 * sit on a neighbouring vector of equal score to 0.1%). */
static void test_optimum_found(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *mixes[] = { "triad", "reads", "1r1w" };

		load(cases[i].model);
		for (int mi = 0; mi < 3; mi++) {
			struct tt_mix mix;
			long count;
			double opt, gap;

			assert_int_equal(tt_mix_from_kernel(mixes[mi], &mix), 0);
			opt = grid_optimum(&cases[i], &mix, &count);
			gap = gap_of(&cases[i], mixes[mi], 0, 1, (int)(count / 10), "shares", opt);
			if (gap > 0.001)
				fail_msg("%s src %d %s: gap %.3f%%", cases[i].model, cases[i].src,
					 mixes[mi], 100 * gap);
			assert_true(s.measurements <= count / 10);
			tt_search_release(&s);
		}
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* On every case, triad at 3% noise, seeds 1 to 5: the recommended
 * weights' gap to the optimum is within 1% in the median and 3% at worst,
 * with a budget of 10% of the grid (0) or of budget measurements. */
static void noisy_gaps(const char *strategy, int budget)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct tt_mix mix;
		long count;
		double opt, gaps[5];
		int b;

		load(cases[i].model);
		assert_int_equal(tt_mix_from_kernel("triad", &mix), 0);
		opt = grid_optimum(&cases[i], &mix, &count);
		b = budget ? budget : (int)(count / 10);
		for (int seed = 1; seed <= 5; seed++) {
			gaps[seed - 1] =
				gap_of(&cases[i], "triad", 0.03, (uint64_t)seed, b, strategy, opt);
			assert_true(s.measurements <= b);
			tt_search_release(&s);
		}
		qsort(gaps, 5, sizeof(double), cmp_double);
		if (gaps[2] > 0.01 || gaps[4] > 0.03)
			fail_msg("%s, %s src %d: median gap %.2f%%, worst %.2f%%", strategy,
				 cases[i].model, cases[i].src, 100 * gaps[2], 100 * gaps[4]);
	}
}

/* The default on 10% of the grid's trials. Not within 1% on every seed: on
 * the Genoa pair the whole peak (local DRAM to the optimum) spans 2.5%, and
 * a seed that reads local DRAM 3.6% high can put the peak there. The
 * quality benchmark (bench/scripts/tuner-quality.sh, 20 seeds) prints the
 * full distribution. */
static void test_noise_handled(void **state)
{
	(void)state;
	noisy_gaps("shares", 0);
}

/* The fitted surrogate at a model run's budget (200), as noisy_gaps asks.
 * It ends: once its star was full at the finest step and the
 * most measurements, the branch's first version proposed the same vector
 * for ever without measuring (spr-ddr5-2cxl at 200 never returned). */
static void test_fitted(void **state)
{
	(void)state;
	noisy_gaps("fitted", 200);
}

static void test_budget(void **state)
{
	static const int budgets[] = { 20, 33, 64 };

	(void)state;
	load("spr-ddr5-2cxl");
	/* Every strategy of the table, so that a new one is held to its budget
	 * without a list here to keep. */
	for (const struct tt_strategy *const *st = tt_strategies; *st; st++)
		for (size_t bi = 0; bi < 3; bi++) {
			gap_of(&cases[0], "triad", 0.03, 9, budgets[bi], (*st)->name, 1);
			if (s.measurements > budgets[bi] || spy.calls != s.measurements)
				fail_msg("%s: %d measurements (%d calls) on a budget of %d",
					 (*st)->name, s.measurements, spy.calls, budgets[bi]);
			tt_search_release(&s);
		}
}

static double last_start_s; /* CLOCK_MONOTONIC when slow_measure last began */

static int slow_measure(void *ctx, const struct tt_weights *w, double *score)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	last_start_s = (double)t0.tv_sec + (double)t0.tv_nsec * 1e-9;
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while ((t.tv_sec - t0.tv_sec) * 1e9 + (t.tv_nsec - t0.tv_nsec) < 2e6);
	return spy_measure(ctx, w, score);
}

static void test_budget_seconds(void **state)
{
	struct tt_search_cfg cfg;

	(void)state;
	load("xeon-max-hbm-flat");
	setup(&cases[3], &cfg, &spy, "triad", 0.03, 1, 0, "shares");
	cfg.budget_s = 0.1;
	assert_int_equal(tt_search_init(&s, &cfg, slow_measure, &spy), 0);
	assert_int_equal(tt_search_run(&s), 0);
	/* The rule, which holds however loaded the machine: no measurement
	 * begins once the budget is spent. How far the last one runs over
	 * is the scheduler's (a 50 ms bound failed under a loaded make
	 * check), so the end is held only to a gross bound. */
	assert_true(last_start_s - s.t0_s <= cfg.budget_s);
	assert_true(s.elapsed_s <= cfg.budget_s + 1);
	assert_string_equal(s.stop_reason, "budget of 0.1 s reached");
	tt_search_release(&s);
}

/* Each vector is one trial; the callback sees a vector again only as that
 * trial's repeats or in the final comparison (one a round at most). */
static void test_no_vector_twice(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int extra = 0;

		load(cases[i].model);
		gap_of(&cases[i], "reads", 0.03, 5, 400, "shares", 1);
		assert_true(spy.calls <= 4096);
		for (int t = 0; t < s.ntrials; t++) {
			uint32_t w[TT_SEARCH_MAX_NODES];
			int seen = 0;

			tt_search_trial_weights(&s, t, w);
			assert_int_equal(tt_search_find(&s, w), t);
			for (int c = 0; c < spy.calls; c++)
				seen += memcmp(spy.w[c], w,
					       sizeof(uint32_t) * (size_t)cases[i].nnodes) == 0;
			assert_true(seen >= s.trials[t].n);
			assert_true(seen - s.trials[t].n <= s.confirm_planned);
			extra += seen - s.trials[t].n;
		}
		for (int t = 0; t < s.ntrials; t++)
			for (int u = t + 1; u < s.ntrials; u++)
				assert_false(memcmp(s.trials[t].w, s.trials[u].w,
						    sizeof(s.trials[t].w)) == 0);
		assert_true(extra <= s.confirm_planned * (1 + s.nbaselines));
		tt_search_release(&s);
	}
}

static void test_baselines_first(void **state)
{
	/* SPR from node 0: local 1:0:0, 1:1:1, and auto from min(read, write)
	 * = 245800, 30000, 30000 MB/s: 32 * bw / sum = 25, 3, 3. */
	static const uint32_t want[3][3] = { { 1, 0, 0 }, { 1, 1, 1 }, { 25, 3, 3 } };
	static const char *const names[3] = { "local", "1:1", "auto" };

	(void)state;
	load("spr-ddr5-2cxl");
	gap_of(&cases[0], "triad", 0.03, 3, 200, "shares", 1);
	assert_int_equal(s.nbaselines, 3);
	for (int b = 0; b < 3; b++) {
		assert_string_equal(s.base[b].name, names[b]);
		for (int r = 0; r < s.cfg.min_repeats; r++)
			for (int k = 0; k < 3; k++)
				assert_int_equal(spy.w[b * s.cfg.min_repeats + r][k], want[b][k]);
		assert_int_equal(s.trials[s.base[b].trial].phase, TT_PHASE_BASELINE);
	}
	for (int t = 3; t < s.ntrials; t++)
		assert_int_equal(s.trials[t].phase, TT_PHASE_SEARCH);
	tt_search_release(&s);
}

/* The final comparison reports each of its measurements: the winner
 * first in each round, then each distinct baseline, with the running gain
 * that ends as the reported one. */
struct seen {
	int search, confirm, arms[64], rounds[64];
	double last_gain[TT_BASELINES];
};

static void count_progress(void *ctx, const struct tt_search *srch, int trial)
{
	struct seen *sn = ctx;

	if (!srch->confirming) {
		sn->search++;
		return;
	}
	if (sn->confirm < 64) {
		sn->arms[sn->confirm] = srch->confirm_arm;
		sn->rounds[sn->confirm] = srch->confirm_round;
	}
	sn->confirm++;
	assert_int_equal(trial,
			 srch->confirm_arm < 0 ? srch->best : srch->base[srch->confirm_arm].trial);
	if (srch->confirm_arm >= 0) {
		double lo, hi;

		tt_confirm_gain(&srch->base[srch->confirm_arm], &sn->last_gain[srch->confirm_arm],
				&lo, &hi);
	}
}

static void test_confirm_progress(void **state)
{
	struct tt_search_cfg cfg;
	struct seen sn = { 0 };
	bool distinct[TT_BASELINES];
	int i = 0, most = 0;

	(void)state;
	load("spr-ddr5-2cxl");
	setup(&cases[0], &cfg, &spy, "triad", 0.03, 5, 200, "shares");
	cfg.progress = count_progress;
	cfg.progress_ctx = &sn;
	assert_int_equal(tt_search_init(&s, &cfg, spy_measure, &spy), 0);
	assert_int_equal(tt_search_run(&s), 0);
	assert_false(s.confirming);
	for (int b = 0; b < s.nbaselines; b++) {
		distinct[b] = !s.base[b].same_as_best;
		for (int e = 0; e < b; e++)
			distinct[b] &= s.base[e].trial != s.base[b].trial;
		if (distinct[b])
			most = s.base[b].planned > most ? s.base[b].planned : most;
		assert_true(s.base[b].planned >= cfg.confirm_rounds);
	}
	assert_int_equal(s.confirm_planned, most);
	/* Every measurement is reported once, in the search or the comparison:
	 * round by round the winner, then each distinct baseline still within
	 * its planned rounds. */
	assert_int_equal(sn.search + sn.confirm, s.measurements);
	for (int r = 0; r < most; r++) {
		assert_int_equal(sn.rounds[i], r);
		assert_true(sn.arms[i++] < 0);
		for (int b = 0; b < s.nbaselines; b++)
			if (distinct[b] && r < s.base[b].planned) {
				assert_int_equal(sn.rounds[i], r);
				assert_int_equal(sn.arms[i++], b);
			}
	}
	assert_int_equal(sn.confirm, i);
	for (int b = 0; b < s.nbaselines; b++)
		if (!s.base[b].same_as_best && s.base[b].rounds >= 2 &&
		    sn.last_gain[b] == sn.last_gain[b])
			assert_true(fabs(sn.last_gain[b] - s.base[b].gain) < 1e-12);
	tt_search_release(&s);
}

/* The auto baseline takes the kernel's figures (HMAT), the prior the
 * measured ones: the prior's formula vector is then the first candidate. */
static void test_prior_seed(void **state)
{
	struct tt_search_cfg cfg;
	uint32_t want[3] = { 0 }, bw[3];
	struct tt_weights pw;

	(void)state;
	load("spr-ddr5-2cxl");
	setup(&cases[0], &cfg, &spy, "triad", 0.03, 5, 200, "shares");
	/* As HMAT would say from the best initiator: CXL as fast as DRAM. */
	cfg.auto_bw_bytes_s[0] = 100e9;
	cfg.auto_bw_bytes_s[1] = 100e9;
	cfg.auto_bw_bytes_s[2] = 100e9;
	snprintf(cfg.prior_from, sizeof(cfg.prior_from), "profile");
	assert_int_equal(tt_search_init(&s, &cfg, spy_measure, &spy), 0);
	assert_int_equal(s.nbaselines, 3);
	assert_string_equal(s.base[2].name, "auto");
	for (int k = 0; k < 3; k++)
		assert_int_equal(tt_weights_get(&s.auto_w, k, 0), 1);
	assert_int_equal(tt_search_run(&s), 0);
	/* local and auto (= 1:1 here) are two trials; the prior's is the third. */
	assert_int_equal(s.prior_trial, 2);
	assert_int_equal(s.trials[2].phase, TT_PHASE_SEARCH);
	for (int k = 0; k < 3; k++)
		bw[k] = (uint32_t)(cfg.prior_bw_bytes_s[k] / 1e6);
	tt_weights_auto(cfg.nodes, bw, 3, &pw);
	for (int k = 0; k < 3; k++)
		want[k] = tt_weights_get(&pw, k, 0);
	tt_weights_reduce_array(want, 3);
	for (int k = 0; k < 3; k++)
		assert_int_equal(s.trials[2].w[k], want[k]);
	tt_search_release(&s);
	/* Without separate auto figures the prior is the auto baseline: no
	 * extra trial. */
	setup(&cases[0], &cfg, &spy, "triad", 0.03, 5, 200, "shares");
	assert_int_equal(tt_search_init(&s, &cfg, spy_measure, &spy), 0);
	assert_int_equal(tt_search_run(&s), 0);
	assert_int_equal(s.prior_trial, -1);
	tt_search_release(&s);
}

/* The measured profile on this machine, read first: from the first node
 * with CPUs to every memory node (at most two, each alone), small arrays
 * so the test is quick. What must hold anywhere: every node measured, a
 * positive bandwidth and idle latency, two kernel runs a node, and the
 * figures a prior the search takes. */
static void test_profile_live(void **state)
{
	struct tt_sysfs sfs;
	struct tt_topo t;
	struct tt_profile p;
	struct tt_search_cfg cfg;
	int src = -1, nodes[2], n = 0, node;

	(void)state;
	assert_int_equal(tt_sysfs_init(&sfs, "/"), 0);
	assert_int_equal(tt_topo_load(&t, &sfs), 0);
	for (int i = 0; i < t.nnodes && src < 0; i++)
		if (t.nodes[i].ncpus)
			src = t.nodes[i].id;
	assert_true(src >= 0);
	tt_nodemask_for_each (node, &t.mem_nodes)
		if (n < 2)
			nodes[n++] = node;
	assert_true(n >= 1);
	struct tt_bench_opts o = { .kernel = tt_kernel_find("triad"),
				   .topo = &t,
				   .source_node = src,
				   .array_bytes = 4 << 20,
				   .repeat = 2,
				   .sfs = &sfs };

	if (tt_profile_measure(&p, &o, nodes, n, 0) < 0)
		fail_msg("%s", tt_err_msg());
	assert_int_equal(p.source, src);
	assert_int_equal(p.n, n);
	/* Two passes: a bandwidth and a latency run per node each, and a
	 * third of a figure that drifted between them. */
	assert_true(p.runs >= 4 * n && p.runs <= 6 * n);
	assert_null(p.skipped);
	assert_true(p.elapsed_s > 0);
	assert_true(tt_profile_complete(&p));
	for (int k = 0; k < n; k++) {
		assert_int_equal(p.nodes[k].node, nodes[k]);
		assert_string_equal(p.nodes[k].from, "measured");
		assert_true(p.nodes[k].bw_bytes_s > 1e6 && isfinite(p.nodes[k].bw_bytes_s));
		/* Unknown where the chase was a cache's (this VM's, say). */
		assert_true(p.nodes[k].lat_ns == 0 || (p.nodes[k].lat_ns >= TT_PROFILE_MIN_LAT_NS &&
						       p.nodes[k].lat_ns < 1e7));
	}
	tt_search_cfg_default(&cfg);
	cfg.nnodes = n;
	memcpy(cfg.nodes, nodes, sizeof(nodes));
	tt_profile_bw(&p, cfg.prior_bw_bytes_s);
	cfg.budget_trials = 100;
	assert_int_equal(tt_search_init(&s, &cfg, spy_measure, &spy), 0);
	assert_int_equal(s.have_auto, n > 1);
	tt_search_release(&s);

	/* A time budget already spent by the first node: the second is not
	 * begun (the node measured twice stands for a second node where the
	 * machine has one), and the profile is incomplete. */
	nodes[1] = nodes[0];
	assert_int_equal(tt_profile_measure(&p, &o, nodes, 2, 1e-9), 0);
	assert_int_equal(p.runs, 2);
	assert_string_equal(p.nodes[1].from, "none");
	assert_false(tt_profile_complete(&p));
	assert_non_null(p.skipped);
	tt_topo_release(&t);
}

static void fixture_topo(const char *name, struct tt_sysfs *sfs, struct tt_topo *t)
{
	char root[1024];

	snprintf(root, sizeof(root), "%s/tests/fixtures/sysfs/%s",
		 getenv("TT_TOP") ? getenv("TT_TOP") : ".", name);
	assert_int_equal(tt_sysfs_init(sfs, root), 0);
	assert_int_equal(tt_topo_load(t, sfs), 0);
}

/* HMAT's figures on a fixture: access1, the lesser of read and write. */
static void test_profile_hmat(void **state)
{
	static const int nodes[3] = { 0, 1, 2 };
	struct tt_sysfs sfs;
	struct tt_topo t;
	struct tt_profile p;

	(void)state;
	fixture_topo("spr-ddr5-2cxl", &sfs, &t);
	tt_profile_hmat(&p, &t, 0, nodes, 3);
	assert_true(tt_profile_complete(&p));
	assert_int_equal(p.runs, 0);
	assert_true(p.nodes[0].bw_bytes_s == 307200e6 && p.nodes[0].lat_ns == 110);
	assert_true(p.nodes[1].bw_bytes_s == 36000e6 && p.nodes[1].lat_ns == 250);
	assert_true(p.nodes[2].bw_bytes_s == 36000e6);
	assert_string_equal(p.nodes[2].from, "hmat");
	assert_int_equal(tt_profile_cost(3), 6);
	tt_topo_release(&t);
	/* A machine without HMAT: no figure, "none". */
	fixture_topo("vm-1node", &sfs, &t);
	tt_profile_hmat(&p, &t, 0, nodes, 1);
	assert_false(tt_profile_complete(&p));
	assert_string_equal(p.nodes[0].from, "none");
	tt_topo_release(&t);
}

/* Every vector scores the same but for noise: no gain may be a win. */
static int flat_measure(void *ctx, const struct tt_weights *w, double *score)
{
	struct spy *sp = ctx;

	(void)w;
	*score = 100e9 * (1 + 0.03 * tt_rng_normal(sp->sim.rng));
	return 0;
}

static void test_within_noise(void **state)
{
	struct tt_search_cfg cfg;
	struct tt_report r;

	(void)state;
	load("spr-ddr5-2cxl");
	setup(&cases[0], &cfg, &spy, "triad", 0.03, 11, 300, "shares");
	assert_int_equal(tt_search_init(&s, &cfg, flat_measure, &spy), 0);
	assert_int_equal(tt_search_run(&s), 0);
	assert_int_equal(tt_report_build(&r, &s, 0, true), 0);
	for (int b = 0; b < r.nbaselines; b++) {
		assert_true(r.base[b].verdict == TT_VERDICT_NOISE ||
			    r.base[b].verdict == TT_VERDICT_SAME);
		assert_true(r.base[b].rounds == 0 || r.base[b].rounds == s.base[b].planned);
	}
	assert_int_equal(r.base[r.gain_over].kind, TT_BASE_LOCAL);
	assert_true(r.reco_gain == 0);
	assert_string_equal(tt_verdict_name(TT_VERDICT_NOISE), "within noise");
	tt_search_release(&s);
}

/* Two vectors 6% apart: local DRAM alone scores 100, every other 106. */
static int step_measure(void *ctx, const struct tt_weights *w, double *score)
{
	struct spy *sp = ctx;
	bool local = true;

	for (int k = 0; k < sp->nnodes; k++)
		local &= sp->nodes[k] == 0 || tt_weights_get(w, sp->nodes[k], 0) == 0;
	*score = (local ? 100e9 : 106e9) * (1 + 0.03 * tt_rng_normal(sp->sim.rng));
	return 0;
}

/* The verdict rule (issue 22 item 4): a true gain of 5% or more at 3% noise
 * is "better" in at least 95% of runs at a model run's budget (200, auto's
 * 5 rounds); the rounds are fixed before the first, and a gain of 0 (1:1,
 * auto: both 106 here) is "better" no more often than the interval allows. With every baseline at
 * the 5 rounds auto asks for, 24 of 40 runs said "better" of the 6% gain. */
static void test_verdict_power(void **state)
{
	int better = 0, runs = 40, wrong = 0, even = 0;

	(void)state;
	assert_int_equal(tt_confirm_rounds_for(0.05, 0.03, TT_CONFIRM_MAX), 13);
	assert_int_equal(tt_confirm_rounds_for(0.30, 0.03, TT_CONFIRM_MAX), 2);
	assert_int_equal(tt_confirm_rounds_for(0.05, 0.10, TT_CONFIRM_MAX), TT_CONFIRM_MAX);
	load("spr-ddr5-2cxl");
	for (int seed = 0; seed < runs; seed++) {
		struct tt_search_cfg cfg;
		struct tt_report r;

		setup(&cases[0], &cfg, &spy, "triad", 0.03, (uint64_t)seed + 1, 200, "shares");
		cfg.confirm_rounds = 5;
		assert_int_equal(tt_search_init(&s, &cfg, step_measure, &spy), 0);
		assert_int_equal(tt_search_run(&s), 0);
		assert_int_equal(tt_report_build(&r, &s, 0, true), 0);
		assert_true(s.measurements <= cfg.budget_trials);
		for (int b = 0; b < r.nbaselines; b++) {
			assert_true(s.base[b].rounds <= s.base[b].planned);
			if (r.base[b].kind == TT_BASE_LOCAL)
				better += r.base[b].verdict == TT_VERDICT_BETTER;
			else if (r.base[b].verdict != TT_VERDICT_SAME)
				wrong += r.base[b].verdict == TT_VERDICT_BETTER, even++;
		}
		tt_search_release(&s);
	}
	assert_true(better * 100 >= 95 * runs);
	/* A 95% interval misses a zero gain in 2.5% of comparisons on the
	 * side of "better": about one of these 80. */
	assert_true(even > 0 && wrong * 20 <= even);
}

static void test_report_reco(void **state)
{
	struct tt_report r;
	struct tt_recos rs;
	char buf[256], want[256];

	(void)state;
	load("xeon-max-hbm-flat");
	gap_of(&cases[4], "triad", 0.03, 2, 64, "shares", 1);
	assert_int_equal(tt_report_build(&r, &s, 1, true), 0);
	assert_true(r.simulated);
	assert_int_equal(r.nbaselines, 3);
	assert_int_equal(r.measurements, s.measurements);
	assert_true(r.have_auto);
	/* HBM beside DRAM nearly doubles a socket's bandwidth: a win over
	 * local DRAM far beyond the noise. */
	assert_string_equal(r.base[0].name, "local");
	assert_int_equal(r.base[0].verdict, TT_VERDICT_BETTER);
	assert_true(r.base[0].gain_lo > 0.5 && r.reco_gain == r.base[0].gain);
	memset(&rs, 0, sizeof(rs));
	assert_int_equal(tt_report_reco(&r, &rs), 0);
	assert_int_equal(rs.n, 1);
	assert_int_equal(rs.r[0].source_node, 1);
	assert_string_equal(rs.r[0].interface, "upstream");
	assert_true(tt_weights_format(&rs.r[0].w, buf, sizeof(buf)) > 0);
	assert_true(tt_weights_format(&r.best_w, want, sizeof(want)) > 0);
	assert_string_equal(buf, want);
	assert_true(tt_weights_get(&r.best_w, 3, 0) > 0);
	tt_search_release(&s);
}

/* Local DRAM scores low while the baselines are measured and high ever
 * after: the search's winner then loses the final comparison, and the
 * recommendation is the baseline it lost to, never the loser. */
static int spiteful_measure(void *ctx, const struct tt_weights *w, double *score)
{
	struct spy *sp = ctx;
	bool local =
		tt_weights_get(w, 0, 0) && !tt_weights_get(w, 1, 0) && !tt_weights_get(w, 2, 0);

	*score = local ? (sp->calls < 2 ? 50e9 : 200e9) : 100e9;
	sp->calls++;
	return 0;
}

static void test_winner_lost(void **state)
{
	struct tt_search_cfg cfg;
	struct tt_report r;
	struct tt_recos rs;
	char buf[64];

	(void)state;
	load("spr-ddr5-2cxl");
	setup(&cases[0], &cfg, &spy, "triad", 0, 1, 100, "shares");
	assert_int_equal(tt_search_init(&s, &cfg, spiteful_measure, &spy), 0);
	assert_int_equal(tt_search_run(&s), 0);
	assert_int_equal(tt_report_build(&r, &s, 0, true), 0);
	assert_string_equal(r.base[0].name, "local");
	assert_int_equal(r.base[0].verdict, TT_VERDICT_WORSE);
	assert_int_equal(r.lost_to, 0);
	assert_true(isnan(r.reco_gain));
	memset(&rs, 0, sizeof(rs));
	assert_int_equal(tt_report_reco(&r, &rs), 0);
	assert_true(tt_weights_format(&rs.r[0].w, buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "0:1");
	tt_search_release(&s);
}

static void test_bad_config(void **state)
{
	static const struct {
		const char *strategy;
		uint32_t max_weight;
		int local, budget, rounds;
		const char *msg;
	} v[] = {
		{ "nosuch", 32, 0, 100, 3, "unknown search strategy 'nosuch'" },
		{ "shares", 300, 0, 100, 3, "max weight '300' out of range (1-255)" },
		{ "shares", 32, 5, 100, 3, "local node 5 is not among the nodes to search" },
		{ "shares", 32, 0, 19, 3,
		  "budget of 19 trials is below the 20 that baselines, one candidate and "
		  "confirmation need" },
		{ "shares", 32, 0, 100, 1, "confirmation rounds '1' out of range (2-48)" },
	};

	(void)state;
	load("spr-ddr5-2cxl");
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct tt_search_cfg cfg;

		setup(&cases[0], &cfg, &spy, "triad", 0.03, 1, v[i].budget, v[i].strategy);
		cfg.max_weight = v[i].max_weight;
		cfg.local_node = v[i].local;
		cfg.confirm_rounds = v[i].rounds;
		assert_int_equal(tt_search_init(&s, &cfg, spy_measure, &spy), TT_EINPUT);
		assert_string_equal(tt_err_msg(), v[i].msg);
	}
	/* The profile's latencies: a number of nanoseconds or 0 (unknown). */
	for (int i = 0; i < 2; i++) {
		struct tt_search_cfg cfg;

		setup(&cases[0], &cfg, &spy, "triad", 0.03, 1, 100, "fitted");
		cfg.prior_lat_ns[1] = i ? NAN : -5;
		assert_int_equal(tt_search_init(&s, &cfg, spy_measure, &spy), TT_EINPUT);
		assert_string_equal(tt_err_msg(),
				    "prior latency of node 1 is not a non-negative number");
	}
}

/* The grid strategy, unbounded and noise-free, is the reference itself. */
static void test_grid_strategy(void **state)
{
	struct tt_mix mix;
	long count;
	double opt;

	(void)state;
	load("2s-genoa-cxl");
	assert_int_equal(tt_mix_from_kernel("1r1w", &mix), 0);
	opt = grid_optimum(&cases[1], &mix, &count);
	assert_true(gap_of(&cases[1], "1r1w", 0, 1, 0, "grid", opt) == 0);
	assert_int_equal(s.ntrials, count);
	assert_non_null(tt_strategy_find("hillclimb"));
	for (const struct tt_strategy *const *st = tt_strategies; *st; st++)
		assert_true((*st)->name && (*st)->summary && (*st)->run);
	tt_search_release(&s);
}

/* A latency bound on the model: spr-ddr5-2cxl from node 0 over nodes 0
 * and 1 with 400 threads is bandwidth-bound, so the bandwidth optimum
 * (242 GB/s of triad) saturates a node and waits 420 ns a load, while 8:1
 * keeps within 300 ns for 5% less bandwidth. A 300 ns bound makes the
 * grid's best within it the optimum: the winner scores within 1% of it
 * (noise-free), is feasible, and the feasible trials are counted. */
static const struct qcase lat_case = { "spr-ddr5-2cxl", 0, 2, { 0, 1 } };

static void eval_lat(const uint32_t *w, double *bw, double *lat)
{
	struct tt_weights tw;
	struct tt_model_result r;

	tt_weights_clear(&tw);
	for (int k = 0; k < lat_case.nnodes; k++)
		if (w[k])
			tt_weights_put(&tw, lat_case.nodes[k], w[k]);
	assert_int_equal(tt_model_eval(&model, 0, &spy.sim.mix, 400, &tw, &r), 0);
	*bw = r.bw_bytes_s;
	*lat = r.mean_lat_ns;
}

/* After every measurement: the search's leader is the measured trial with
 * the highest mean, feasible ones first, as a full scan finds it (the
 * leader is kept incrementally). Counts the checks made. */
static void check_leader(void *ctx, const struct tt_search *srch, int trial)
{
	const struct tt_trial *lead;
	int *checks = ctx;

	(void)trial;
	if (srch->confirming)
		return;
	assert_true(srch->leader >= 0 && srch->leader < srch->ntrials);
	lead = &srch->trials[srch->leader];
	assert_true(lead->n > 0);
	for (int t = 0; t < srch->ntrials; t++) {
		const struct tt_trial *tr = &srch->trials[t];

		if (!tr->n)
			continue;
		if (tr->feasible != lead->feasible)
			assert_true(lead->feasible);
		else if (tr->mean > lead->mean)
			fail_msg(
				"after %d measurements trial %d leads (%g) over the leader %d (%g)",
				srch->measurements, t, tr->mean, srch->leader, lead->mean);
	}
	(*checks)++;
}

static int leader_checks;

static void bound_search(double bound, double sigma, int budget, struct tt_report *r)
{
	struct tt_search_cfg cfg;

	load(lat_case.model);
	setup(&lat_case, &cfg, &spy, "triad", sigma, 3, budget, "shares");
	assert_int_equal(tt_model_sim_init(&spy.sim, &model, 0, "triad", 400, sigma, 3), 0);
	cfg.max_lat_ns = bound;
	cfg.progress = check_leader;
	cfg.progress_ctx = &leader_checks;
	assert_int_equal(tt_search_init_sampled(&s, &cfg, tt_model_sample, &spy.sim), 0);
	assert_int_equal(tt_search_run(&s), 0);
	assert_int_equal(tt_report_build(r, &s, 0, true), 0);
}

static void test_latency_bound(void **state)
{
	struct tt_grid g;
	struct tt_report r;
	uint32_t w[TT_SEARCH_MAX_NODES], top_w[TT_SEARCH_MAX_NODES] = { 0 };
	double bw, lat, top = 0, free_top = 0, free_lat = 0;
	long count = 0;

	(void)state;
	load(lat_case.model);
	assert_int_equal(tt_model_sim_init(&spy.sim, &model, 0, "triad", 400, 0, 1), 0);
	tt_grid_init(&g, 2, 32);
	while (tt_grid_next(&g, w)) {
		count++;
		eval_lat(w, &bw, &lat);
		if (bw > free_top) {
			free_top = bw;
			free_lat = lat;
		}
		if (lat <= 300 && bw > top) {
			top = bw;
			memcpy(top_w, w, sizeof(top_w));
		}
	}
	/* The bound binds: the free optimum is beyond it. */
	if (!(free_lat > 300 && top < free_top && top > 0))
		fail_msg("free %.2f GB/s at %.0f ns, bounded %u:%u %.2f", free_top / 1e9, free_lat,
			 top_w[0], top_w[1], top / 1e9);
	bound_search(300, 0, (int)(count / 5), &r);
	assert_false(r.none_feasible);
	assert_true(r.nfeasible > 0 && r.nfeasible < r.ntrials);
	assert_true(r.best_lat_ns <= 300);
	for (int k = 0; k < 2; k++)
		w[k] = tt_weights_get(&r.best_w, lat_case.nodes[k], 0);
	eval_lat(w, &bw, &lat);
	if (bw < 0.99 * top)
		fail_msg("bounded winner %u:%u scores %.2f GB/s, the bound's optimum %u:%u %.2f",
			 w[0], w[1], bw / 1e9, top_w[0], top_w[1], top / 1e9);
	/* Local DRAM alone saturates: over the bound, and said so. */
	assert_string_equal(r.base[0].name, "local");
	assert_false(r.base[0].feasible);
	assert_true(r.base[0].lat_ns > 300);
	tt_search_release(&s);

	/* With 3% noise the winner still keeps the bound. */
	bound_search(300, 0.03, (int)(count / 5), &r);
	assert_false(r.none_feasible);
	assert_true(r.best_lat_ns <= 300);
	tt_search_release(&s);
}

/* The leader the progress lines show, under a bound and without one, with
 * noise that makes a leader's mean fall (the rescan's case): always the
 * full scan's (check_leader), and at the end the winner within the bound. */
static void test_leader(void **state)
{
	struct tt_report r;

	(void)state;
	leader_checks = 0;
	bound_search(300, 0.05, 120, &r);
	assert_true(leader_checks > 50);
	assert_int_equal(s.leader, s.best);
	tt_search_release(&s);
	leader_checks = 0;
	bound_search(0, 0.05, 120, &r);
	assert_true(leader_checks > 50);
	tt_search_release(&s);
}

/* No vector meets 100 ns from this source: nothing is recommended, and the
 * report's best is the least-latency trial, to be named. */
static void test_latency_infeasible(void **state)
{
	struct tt_report r;
	struct tt_recos rs;

	(void)state;
	bound_search(100, 0.03, 60, &r);
	assert_true(r.none_feasible);
	assert_int_equal(r.nfeasible, 0);
	for (int t = 0; t < s.ntrials; t++)
		assert_true(!s.trials[t].n || s.trials[t].lat_mean_ns >= r.best_lat_ns);
	memset(&rs, 0, sizeof(rs));
	assert_int_equal(tt_report_reco(&r, &rs), TT_EUNAVAIL);
	assert_string_equal(tt_err_msg(), "no weights met the latency bound of 100 ns");
	assert_int_equal(rs.n, 0);
	tt_search_release(&s);

	/* A bound with a callback that cannot report latency is refused. */
	struct tt_search_cfg cfg;

	setup(&lat_case, &cfg, &spy, "triad", 0, 1, 100, "shares");
	cfg.max_lat_ns = 300;
	assert_int_equal(tt_search_init(&s, &cfg, spy_measure, &spy), TT_EINPUT);
	cfg.max_lat_ns = -1;
	assert_int_equal(tt_search_init_sampled(&s, &cfg, tt_model_sample, &spy.sim), TT_EINPUT);
}

/* The latency objective at a stated traffic: genoa from node 0 over its
 * DRAM and CXL at 100 GB/s of triad. The score is 1e9 / latency, so the
 * winner is the grid's least-latency vector that carries the traffic; one
 * that cannot carry it is infeasible, counted, never the winner. Beyond
 * every vector's capacity nothing is recommended, and the highest capacity
 * found is the one to name. */
static void test_latency_objective(void **state)
{
	struct tt_search_cfg cfg;
	struct tt_report r;
	struct tt_grid g;
	struct tt_model_result mr;
	struct tt_weights tw;
	uint32_t w[TT_SEARCH_MAX_NODES];
	double least = INFINITY, top = 0;
	long count = 0;
	int over = 0;
	struct tt_recos rs;

	(void)state;
	load("2s-genoa-cxl");
	setup(&cases[1], &cfg, &spy, "triad", 0, 1, 0, "shares");
	spy.sim.traffic_bytes_s = 100e9;
	tt_grid_init(&g, 2, 32);
	while (tt_grid_next(&g, w)) {
		count++;
		tt_search_weights(&(struct tt_search){ .cfg = cfg }, w, &tw);
		assert_int_equal(tt_model_eval_at(&model, 0, &spy.sim.mix, 0, &tw, 100e9, &mr), 0);
		if (!mr.overloaded && mr.mean_lat_ns < least)
			least = mr.mean_lat_ns;
		if (mr.peak_bytes_s > top)
			top = mr.peak_bytes_s;
	}
	cfg.budget_trials = (int)(count / 5);
	assert_int_equal(tt_search_init_sampled(&s, &cfg, tt_model_sample, &spy.sim), 0);
	assert_int_equal(tt_search_run(&s), 0);
	assert_int_equal(tt_report_build(&r, &s, 0, true), 0);
	assert_true(fabs(r.best_lat_ns - least) < 0.01 * least);
	assert_true(fabs(r.best_mean - 1e9 / r.best_lat_ns) < 1e-6 * r.best_mean);
	for (int t = 0; t < s.ntrials; t++)
		if (s.trials[t].n && s.trials[t].overloaded) {
			over++;
			assert_false(s.trials[t].feasible);
			assert_true(s.trials[t].capacity_bytes_s < 100e9);
		}
	/* The CXL-heavy vectors cannot carry 100 GB/s: the search met some. */
	assert_true(over > 0);
	assert_int_equal(r.noverloaded, over);
	assert_false(r.none_feasible);
	assert_false(s.trials[s.best].overloaded);
	tt_search_release(&s);

	spy.sim.traffic_bytes_s = 1.2 * top;
	assert_int_equal(tt_search_init_sampled(&s, &cfg, tt_model_sample, &spy.sim), 0);
	assert_int_equal(tt_search_run(&s), 0);
	assert_int_equal(tt_report_build(&r, &s, 0, true), 0);
	assert_true(r.none_feasible);
	assert_int_equal(r.nfeasible, 0);
	assert_true(r.noverloaded > 0 && r.noverloaded == r.ntrials);
	assert_true(r.max_capacity_bytes_s > 0 && r.max_capacity_bytes_s <= top);
	memset(&rs, 0, sizeof(rs));
	assert_int_equal(tt_report_reco(&r, &rs), TT_EUNAVAIL);
	assert_string_equal(tt_err_msg(), "no weights carried the stated traffic");
	tt_search_release(&s);
}

/* A real latency-objective trial's points (delays rising, bandwidth
 * falling): the latency at a stated traffic between two points, below the
 * lightest, and beyond flat out. */
static void test_trial_lat_at(void **state)
{
	static const struct tt_loaded_point p[] = {
		{ .lat_ns = 300, .bw_bytes_s = 100e9 },
		{ .lat_ns = 200, .bw_bytes_s = 60e9 },
		{ .lat_ns = 120, .bw_bytes_s = 20e9 },
	};
	/* Beyond the ladder's highest bandwidth the latency is extrapolated
	 * and the weights are overloaded: they did not carry the traffic. */
	static const struct {
		double traffic, lat_ns;
		bool over;
	} v[] = {
		{ 80e9, 250, false },	  { 60e9, 200, false },	 { 40e9, 160, false },
		{ 10e9, 120, false },	  { 100e9, 300, false }, { 150e9, 450, true },
		{ 100.1e9, 300.3, true },
	};
	bool over;
	double cap, lat;

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		lat = tt_trial_lat_at(p, 3, v[i].traffic, &over, &cap);
		if (fabs(lat - v[i].lat_ns) > 1e-9 || over != v[i].over || cap != 100e9)
			fail_msg("%g bytes/s: %g ns, overloaded %d, capacity %g; want %g, %d",
				 v[i].traffic, lat, over, cap, v[i].lat_ns, v[i].over);
	}
	assert_true(isinf(tt_trial_lat_at(p, 0, 1e9, &over, &cap)));
	assert_true(over && cap == 0);
}

/* Issue 33 item 5: a profile that drift cannot bias. A scripted machine
 * whose every run reads slower the later it runs (bandwidth falling 2% a
 * run from the first, latency as the QEMU suite showed it: the first run
 * 137 ns, later ones 17 and 16): each node measured twice, in opposite
 * orders, the nodes' true figures equal, so the profile must find them
 * equal; the latency's drift is said, and 16 ns is refused as no memory's. */
struct drift_probe {
	int runs;
};

static int drift_bw(void *ctx, int node, double *bytes_s)
{
	struct drift_probe *d = ctx;

	(void)node;
	*bytes_s = 100e9 * (1 - 0.02 * d->runs++);
	return 0;
}

static int drift_lat(void *ctx, int node, double *ns)
{
	struct drift_probe *d = ctx;

	(void)node;
	*ns = d->runs++ == 1 ? 137 : 16;
	return 0;
}

static void test_profile_drift(void **state)
{
	static const int nodes[3] = { 0, 1, 2 };
	struct drift_probe d = { 0 };
	const struct tt_profile_probe pr = { .bw = drift_bw, .lat = drift_lat, .ctx = &d };
	struct tt_profile p;
	(void)state;

	assert_int_equal(tt_profile_run(&p, &pr, 0, nodes, 3, 0), 0);
	assert_true(tt_profile_complete(&p));
	for (int k = 1; k < 3; k++)
		if (fabs(p.nodes[k].bw_bytes_s / p.nodes[0].bw_bytes_s - 1) > 1e-9)
			fail_msg("drift biased the profile: node 0 %.4g, node %d %.4g GB/s",
				 p.nodes[0].bw_bytes_s / 1e9, k, p.nodes[k].bw_bytes_s / 1e9);
	/* Node 0's first latency, 137 ns, and its second, 16: a third. */
	assert_true(p.ndrift >= 1);
	assert_non_null(strstr(p.drift, "node 0's idle latency"));
	for (int k = 0; k < 3; k++)
		assert_true(p.nodes[k].lat_ns == 0);
	assert_non_null(strstr(p.lat_refused, "below any memory's"));
}

/* Near ties (issue 33 item 4): a strategy that measured 9:29 and 1:2 on
 * two nodes whose bandwidth is the same there (9:29 ahead by 0.1%, in noise
 * of about 0.3%): the winner is 1:2, the simpler, not 9:29 by its raw
 * mean; and 5:1, 2% behind (beyond the noise), is not picked for being
 * simpler than 9:29. */
static int tie_calls;

static int tie_measure(void *ctx, const struct tt_weights *w, double *score)
{
	uint32_t a = tt_weights_get(w, 0, 0), b = tt_weights_get(w, 1, 0);
	double share = (double)b / (a + b), base;

	(void)ctx;
	/* Flat between shares 0.6 and 0.8, a slope of 0.1% over it. */
	base = share >= 0.6 && share <= 0.8 ? 100 + 0.01 * (share - 0.6) / 0.2 * 10
					    : 98 - fabs(share - 0.7);
	*score = base * (1 + ((tie_calls++ & 1) ? 0.003 : -0.003));
	return 0;
}

static int tie_strategy_run(struct tt_search *srch)
{
	static const uint32_t v[][2] = { { 9, 29 }, { 1, 2 }, { 5, 1 } };

	for (size_t i = 0; i < sizeof(v) / sizeof(*v); i++) {
		int rc = tt_search_try(srch, v[i], srch->cfg.min_repeats, TT_PHASE_SEARCH);

		if (rc < 0)
			return rc;
	}
	return 0;
}

static void test_near_tie_simpler(void **state)
{
	static const struct tt_strategy tie = { .name = "tie", .run = tie_strategy_run };
	struct tt_search_cfg cfg;
	struct tt_search sr;
	uint32_t w[TT_SEARCH_MAX_NODES];
	(void)state;

	tt_search_cfg_default(&cfg);
	cfg.nnodes = 2;
	cfg.nodes[0] = 0;
	cfg.nodes[1] = 1;
	cfg.local_node = -1;
	cfg.prior_bw_bytes_s[0] = cfg.prior_bw_bytes_s[1] = 50e9;
	cfg.budget_trials = 40;
	tie_calls = 0;
	assert_int_equal(tt_search_init(&sr, &cfg, tie_measure, NULL), 0);
	sr.strategy = &tie;
	assert_int_equal(tt_search_run(&sr), 0);
	tt_search_trial_weights(&sr, sr.best, w);
	if (w[0] != 1 || w[1] != 2)
		fail_msg("near tie: the winner is %u:%u, want 1:2 (9:29 is 0.1%% ahead, "
			 "within the noise)",
			 w[0], w[1]);
	tt_search_release(&sr);
}

/* Why a run keeps what the machine has, in the one set of words the
 * report, the record and the plot use (issue 34: the plot said "the best
 * is within noise of it" where the report said auto beat the best). */
static void test_keep_why(void **state)
{
	struct tt_report *r = calloc(1, sizeof(*r));
	char why[160];
	(void)state;

	assert_non_null(r);
	r->nbaselines = 1;
	r->action = TT_ACTION_KEEP_AUTO;
	r->action_base = 0;
	r->base[0].verdict = TT_VERDICT_WORSE;
	tt_report_keep_why(r, why, sizeof(why));
	assert_string_equal(why,
			    "no weights beat it beyond the noise; it beat the search's winner");
	r->base[0].verdict = TT_VERDICT_NOISE;
	tt_report_keep_why(r, why, sizeof(why));
	assert_string_equal(why, "no weights beat it beyond the noise");
	r->action = TT_ACTION_BIND_LOCAL;
	tt_report_keep_why(r, why, sizeof(why));
	assert_string_equal(why,
			    "interleaving beat local memory alone by nothing beyond the noise");
	r->action = TT_ACTION_APPLY;
	tt_report_keep_why(r, why, sizeof(why));
	assert_string_equal(why, "");
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grid),
		cmocka_unit_test(test_snap),
		cmocka_unit_test(test_optimum_found),
		cmocka_unit_test(test_noise_handled),
		cmocka_unit_test(test_fitted),
		cmocka_unit_test(test_budget),
		cmocka_unit_test(test_budget_seconds),
		cmocka_unit_test(test_no_vector_twice),
		cmocka_unit_test(test_baselines_first),
		cmocka_unit_test(test_confirm_progress),
		cmocka_unit_test(test_prior_seed),
		cmocka_unit_test(test_profile_live),
		cmocka_unit_test(test_profile_hmat),
		cmocka_unit_test(test_within_noise),
		cmocka_unit_test(test_verdict_power),
		cmocka_unit_test(test_report_reco),
		cmocka_unit_test(test_winner_lost),
		cmocka_unit_test(test_bad_config),
		cmocka_unit_test(test_grid_strategy),
		cmocka_unit_test(test_latency_bound),
		cmocka_unit_test(test_leader),
		cmocka_unit_test(test_latency_infeasible),
		cmocka_unit_test(test_latency_objective),
		cmocka_unit_test(test_trial_lat_at),
		cmocka_unit_test(test_near_tie_simpler),
		cmocka_unit_test(test_profile_drift),
		cmocka_unit_test(test_keep_why),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
