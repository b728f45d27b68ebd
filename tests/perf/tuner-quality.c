/* The models are symmetric between sockets, so each source is run on a
 * different node set: its own package (2 nodes), its package and the other
 * socket's DRAM (3), or every node (4). */
/* How good is the search? On every shipped model, mix triad, reads and 1r1w
 * (1:1), and NSEEDS noise seeds: the gap between the noise-free score of
 * the search's final weights and the exhaustive grid's optimum (same weight
 * space), and the trials it used against the grid's; beside the
 * Caption-style hill climb on the same budget and the kernel's auto-mode
 * formula. Figures, not a test (bench/scripts/tuner-quality.sh runs it).
 *
 *	build/tests/perf-tuner-quality [MODELS-DIR [SEEDS [SIGMA]]]
 *
 * Each run over 1% is listed (its final weights, its gap, the optimum);
 * TT_QUALITY_DEBUG=1 also dumps such a run's trials to stderr (mean and
 * noise-free score of each, relative to the optimum).
 */
#include "../../core/error.h"
#include "../../tuner/model.h"
#include "../../tuner/report.h"
#include "../../tuner/search.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct qcase {
	const char *model;
	int src;
	int nnodes;
	int nodes[4];
};

static const struct qcase cases[] = {
	{ "spr-ddr5-2cxl", 0, 3, { 0, 1, 2 } },	       { "2s-genoa-cxl", 0, 2, { 0, 2 } },
	{ "2s-genoa-cxl", 1, 3, { 0, 1, 3 } },	       { "xeon-max-hbm-flat", 0, 2, { 0, 2 } },
	{ "xeon-max-hbm-flat", 1, 4, { 0, 1, 2, 3 } },
};
static const char *const mixes[] = { "triad", "reads", "1r1w" };

static double score(const struct tt_model *m, const struct qcase *c, const struct tt_mix *mix,
		    const uint32_t *w)
{
	struct tt_weights tw;
	struct tt_model_result r;

	tt_weights_clear(&tw);
	for (int k = 0; k < c->nnodes; k++)
		if (w[k])
			tt_weights_put(&tw, c->nodes[k], w[k]);
	if (tt_model_eval(m, c->src, mix, 0, &tw, &r) < 0) {
		fprintf(stderr, "perf-tuner-quality: %s\n", tt_err_msg());
		exit(1);
	}
	return r.bw_bytes_s;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Runs one strategy; returns the gap of its final (recommended) weights
 * and the measurements it used. */
static int run(const struct tt_model *m, const struct qcase *c, const char *mixname,
	       const char *strategy, int budget, double sigma, uint64_t seed, double opt,
	       double *gap, int *used, uint32_t *final)
{
	struct tt_search_cfg cfg;
	struct tt_model_sim sim;
	struct tt_search s;
	uint32_t w[TT_SEARCH_MAX_NODES];
	int rc;

	tt_search_cfg_default(&cfg);
	cfg.nnodes = c->nnodes;
	memcpy(cfg.nodes, c->nodes, sizeof(c->nodes));
	cfg.local_node = c->src;
	cfg.budget_trials = budget;
	cfg.strategy = strategy;
	if ((rc = tt_model_profile(m, c->src, c->nodes, c->nnodes, cfg.prior_bw_bytes_s)) < 0 ||
	    (rc = tt_model_sim_init(&sim, m, c->src, mixname, 0, sigma, seed)) < 0 ||
	    (rc = tt_search_init(&s, &cfg, tt_model_measure, &sim)) < 0)
		return rc;
	if ((rc = tt_search_run(&s)) < 0)
		goto out;
	/* The final weights are what the report recommends: the winner, or
	 * the baseline it lost to in the final comparison. */
	{
		struct tt_report r;

		if ((rc = tt_report_build(&r, &s, c->src, true)) < 0)
			goto out;
		for (int k = 0; k < c->nnodes; k++)
			w[k] = tt_weights_get(r.lost_to >= 0 ? &r.base[r.lost_to].w : &r.best_w,
					      c->nodes[k], 0);
	}
	*gap = 1 - score(m, c, &sim.mix, w) / opt;
	*used = s.measurements;
	memcpy(final, w, sizeof(*w) * (size_t)c->nnodes);
	if (getenv("TT_QUALITY_DEBUG") && *gap > 0.01) {
		uint32_t bw[TT_SEARCH_MAX_NODES];

		tt_search_trial_weights(&s, s.best, bw);
		fprintf(stderr, "seed %llu %s: winner", (unsigned long long)seed, c->model);
		for (int k = 0; k < c->nnodes; k++)
			fprintf(stderr, " %u", bw[k]);
		fprintf(stderr, " gap %.2f%%, %d trials\n",
			100 * (1 - score(m, c, &sim.mix, bw) / opt), s.ntrials);
		for (int b = 0; b < s.nbaselines; b++)
			fprintf(stderr, "   baseline %s: %d rounds, gain %.4f (%.4f..%.4f)\n",
				s.base[b].name, s.base[b].rounds, s.base[b].gain, s.base[b].gain_lo,
				s.base[b].gain_hi);
		for (int t = 0; t < s.ntrials; t++) {
			uint32_t tw[TT_SEARCH_MAX_NODES];

			tt_search_trial_weights(&s, t, tw);
			fprintf(stderr, "   ");
			for (int k = 0; k < c->nnodes; k++)
				fprintf(stderr, " %u", tw[k]);
			fprintf(stderr, " n=%d mean %.4f true %.4f\n", s.trials[t].n,
				s.trials[t].mean / opt, score(m, c, &sim.mix, tw) / opt);
		}
	}
out:
	tt_search_release(&s);
	return rc;
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "tuner/models";
	int nseeds = argc > 2 ? atoi(argv[2]) : 20;
	double sigma = argc > 3 ? atof(argv[3]) : 0.03, worst_all = 0, worst_hc_all = 0;
	int over = 0, over_budget = 0;
	static char misses[16384];

	if (nseeds < 1 || nseeds > 64 || !(sigma >= 0 && sigma <= 0.2)) {
		fprintf(stderr, "perf-tuner-quality: seeds 1-64 and sigma 0-0.2, please\n");
		return 2;
	}

	printf("noise sigma %.1f%%, %d seeds; gap = 1 - score(final weights) / grid optimum, "
	       "noise-free; trials = measurements, baselines and confirmation included\n",
	       sigma * 100, nseeds);
	printf("%-18s %3s %-7s %-5s %6s %6s | %-18s %6s %6s | %-11s %6s | %6s\n", "model", "src",
	       "nodes", "mix", "grid", "budget", "shares trials med/max", "gap", "worst",
	       "hillclimb", "worst", "auto");
	for (size_t ci = 0; ci < sizeof(cases) / sizeof(cases[0]); ci++) {
		const struct qcase *c = &cases[ci];
		struct tt_model m;
		char path[1024], nodes[16] = "";

		snprintf(path, sizeof(path), "%s/%s.json", dir, c->model);
		if (tt_model_load(&m, path) < 0) {
			fprintf(stderr, "perf-tuner-quality: %s\n", tt_err_msg());
			return 1;
		}
		for (int k = 0; k < c->nnodes; k++)
			snprintf(nodes + strlen(nodes), sizeof(nodes) - strlen(nodes), "%s%d",
				 k ? "," : "", c->nodes[k]);
		for (size_t mi = 0; mi < sizeof(mixes) / sizeof(mixes[0]); mi++) {
			struct tt_mix mix;
			struct tt_grid g;
			uint32_t w[TT_SEARCH_MAX_NODES], bw[TT_SEARCH_MAX_NODES],
				optw[TT_SEARCH_MAX_NODES] = { 0 };
			double opt = 0, gaps[64], hgaps[64], prior[TT_SEARCH_MAX_NODES];
			double tr[64], htr[64];
			long grid = 0;
			int budget;
			struct tt_weights aw;

			tt_mix_from_kernel(mixes[mi], &mix);
			tt_grid_init(&g, c->nnodes, TT_WEIGHTINESS);
			while (tt_grid_next(&g, w)) {
				double sc = score(&m, c, &mix, w);

				grid++;
				if (sc > opt) {
					opt = sc;
					memcpy(optw, w, sizeof(optw));
				}
			}
			budget = (int)(grid / 10);
			for (int sd = 0; sd < nseeds; sd++) {
				uint32_t fw[TT_SEARCH_MAX_NODES];
				int used;

				if (run(&m, c, mixes[mi], "shares", budget, sigma, 1000 + sd, opt,
					&gaps[sd], &used, fw) < 0 ||
				    (tr[sd] = used, 0) ||
				    run(&m, c, mixes[mi], "hillclimb", budget, sigma, 1000 + sd,
					opt, &hgaps[sd], &used, w) < 0) {
					fprintf(stderr, "perf-tuner-quality: %s\n", tt_err_msg());
					return 1;
				}
				htr[sd] = used;
				if (gaps[sd] > 0.01) {
					char fs[64] = "", os[64] = "";

					for (int k = 0; k < c->nnodes; k++) {
						snprintf(fs + strlen(fs), sizeof(fs) - strlen(fs),
							 "%s%u", k ? ":" : "", fw[k]);
						snprintf(os + strlen(os), sizeof(os) - strlen(os),
							 "%s%u", k ? ":" : "", optw[k]);
					}
					snprintf(misses + strlen(misses),
						 sizeof(misses) - strlen(misses),
						 "  %s from %d, %s, seed %d: %s, %.2f%% below the "
						 "optimum %s\n",
						 c->model, c->src, mixes[mi], 1000 + sd, fs,
						 100 * gaps[sd], os);
					over++;
				}
				if (tr[sd] > grid / 10.0)
					over_budget++;
			}
			tt_model_profile(&m, c->src, c->nodes, c->nnodes, prior);
			for (int k = 0; k < c->nnodes; k++)
				bw[k] = (uint32_t)(prior[k] / 1e6);
			tt_weights_auto(c->nodes, bw, c->nnodes, &aw);
			for (int k = 0; k < c->nnodes; k++)
				w[k] = tt_weights_get(&aw, c->nodes[k], 0);
			qsort(gaps, (size_t)nseeds, sizeof(double), cmp_d);
			qsort(hgaps, (size_t)nseeds, sizeof(double), cmp_d);
			qsort(tr, (size_t)nseeds, sizeof(double), cmp_d);
			qsort(htr, (size_t)nseeds, sizeof(double), cmp_d);
			printf("%-18s %3d %-7s %-5s %6ld %6d | %8.0f / %-7.0f %5.2f%% %5.2f%% | "
			       "%4.0f/%-6.0f %5.2f%% | %5.2f%%\n",
			       c->model, c->src, nodes, mixes[mi], grid, budget, tr[nseeds / 2],
			       tr[nseeds - 1], 100 * gaps[nseeds / 2], 100 * gaps[nseeds - 1],
			       htr[nseeds / 2], htr[nseeds - 1], 100 * hgaps[nseeds - 1],
			       100 * (1 - score(&m, c, &mix, w) / opt));
			if (gaps[nseeds - 1] > worst_all)
				worst_all = gaps[nseeds - 1];
			if (hgaps[nseeds - 1] > worst_hc_all)
				worst_hc_all = hgaps[nseeds - 1];
		}
	}
	if (over)
		printf("runs over 1%% (final weights, noise-free gap, the grid's optimum):\n%s",
		       misses);
	printf("worst gap: shares %.2f%%, hillclimb %.2f%%; runs over 1%%: %d; runs over 10%% of "
	       "the grid: %d\n",
	       100 * worst_all, 100 * worst_hc_all, over, over_budget);
	return 0;
}
