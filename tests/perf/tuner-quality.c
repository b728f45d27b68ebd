// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * How good is the search where users run it? On every shipped model and on
 * models of the harder machines of issue 22 (model/machines/), at auto's
 * default budgets (60 measurements for a real run, 200 on a model) and at
 * 10% of the weight grid, at 1%, 3%, 5% and 10% noise: the gap between the
 * noise-free score of the weights the run ends with and the exhaustive
 * grid's optimum (same weight space: 0..32 a node, reduced), beside the
 * Caption-style hill climb on the same budget and the kernel's auto-mode
 * formula (runs more than 1% below it, and runs whose true gain over it lies
 * below the 95% interval the run reported); and how often the final
 * comparison's verdicts (better / within noise) agree with the model's
 * noise-free truth, in all and by baseline. Every model in MODELS-DIR is
 * run from every CPU node of its machine too (every node, triad), so that a
 * newly shipped model is never left out. Figures, not a test:
 * bench/scripts/tuner-quality.sh runs it. Everything is simulated.
 *
 *	build/tests/perf-tuner-quality [-m MODELS-DIR] [-F FIXTURES-DIR] [-s SEEDS]
 *		[-n NOISES] [-b BUDGETS] [-S STRATEGY] [-c CASE] [-g] [-v]
 *
 * NOISES is a list of relative sigmas (0.01,0.03,0.05,0.1); BUDGETS a list
 * of 60, 200 or any count, and "grid" for 10% of the grid (at most
 * GRID_BUDGET_MAX); CASE keeps the cases whose name contains it; -g checks
 * the grid optimum of the cases too large to enumerate (5+ nodes) against
 * the enumeration where that is feasible (5 nodes: a minute each); -v lists
 * every run over 1% (its final weights and the optimum).
 *
 * How each run is made: through the session `tiertune auto --model` runs
 * (tuner/auto.h: the request, tt_auto_nodes, tt_auto_prepare,
 * tt_auto_search), on the fixture tree the model describes (-F, default
 * tests/fixtures/sysfs), so that these figures are of the code auto runs
 * and cannot drift from a copy of its setup (issue 33: they had; auto ran
 * the sampling search while this file measured the plain one). The prior is
 * therefore the model's figures at every budget (a model run's profile),
 * the auto baseline the session's (HMAT's where the tree has it, else the
 * prior's), the final comparison's rounds auto's. Budget 60 is a model run
 * at a real run's default count, not a simulation of a real run's noisy
 * profile (which the session does not run on a model). A verdict agrees
 * with the truth when "better" is said of a true gain above zero, or
 * "within noise" of a true gain below 5% (issue 22 item 4: a true gain of
 * 5% or more should be "better"). Cases: the list below, then every
 * shipped model from every CPU node of its machine over every memory node
 * (auto's defaults, triad) that the list does not already hold.
 *
 * Every case and noise level runs the same seeds (1000 on; -f names
 * another first), so that a change is compared seed for seed; the rows are
 * therefore not independent samples; another first seed is a second sample
 * of every row. Where two cases' searches end at the same measurement, their
 * final comparisons draw the same noise (scaled by sigma at each level):
 * at 200 measurements and 1% noise, of the 23 comparisons with auto whose
 * interval missed the true gain (either end), 17 were seeds 1004 and 1009
 * (in 9 and 8 of the 15 cases). So a row's ci count scatters far more than
 * a binomial of its runs would; -s 200 narrows it.
 */

#include "quality.h"

/* The shipped models as before (each source on its own package, or its
 * package and the other socket's DRAM, or every node), then the machines
 * of issue 22: 5 and 8 nodes with CXL devices of unequal speed; a second
 * socket tuned for CXL behind the first; a source with few threads; a
 * write-asymmetric tier (Optane PMem: read 2.8x write); HBM, DDR and CXL. */
static const struct qcase cases[] = {
	{ "spr 3n triad", "spr-ddr5-2cxl", 0, 3, { 0, 1, 2 }, "triad", 0 },
	{ "spr 3n 1r1w", "spr-ddr5-2cxl", 0, 3, { 0, 1, 2 }, "1r1w", 0 },
	{ "genoa 2n triad", "2s-genoa-cxl", 0, 2, { 0, 2 }, "triad", 0 },
	{ "genoa far 3n triad", "2s-genoa-cxl", 1, 3, { 0, 1, 3 }, "triad", 0 },
	{ "xmax 2n triad", "xeon-max-hbm-flat", 0, 2, { 0, 2 }, "triad", 0 },
	{ "xmax 4n triad", "xeon-max-hbm-flat", 1, 4, { 0, 1, 2, 3 }, "triad", 0 },
	{ "spr 8 threads", "spr-ddr5-2cxl", 0, 3, { 0, 1, 2 }, "triad", 8 },
	{ "spr 16 threads", "spr-ddr5-2cxl", 0, 3, { 0, 1, 2 }, "triad", 16 },
	{ "4cxl 5n triad", "spr-ddr5-4cxl", 0, 5, { 0, 1, 2, 3, 4 }, "triad", 0 },
	{ "4cxl 5n reads", "spr-ddr5-4cxl", 0, 5, { 0, 1, 2, 3, 4 }, "reads", 0 },
	{ "6cxl 8n triad", "2s-spr-6cxl", 0, 8, { 0, 1, 2, 3, 4, 5, 6, 7 }, "triad", 0 },
	{ "6cxl far 5n triad", "2s-spr-6cxl", 1, 5, { 0, 1, 2, 3, 4 }, "triad", 0 },
	{ "pmem 2n reads", "clx-ddr4-pmem", 0, 2, { 0, 1 }, "reads", 0 },
	{ "pmem 2n triad-nt", "clx-ddr4-pmem", 0, 2, { 0, 1 }, "triad-nt", 0 },
	{ "hbm+cxl 3n triad", "xeon-max-hbm-cxl", 0, 3, { 0, 1, 2 }, "triad", 0 },
};

static bool listed(const struct qcase *x)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct qcase *c = &cases[i];

		if (strcmp(c->model, x->model) == 0 && c->src == x->src && c->nnodes == x->nnodes &&
		    !c->threads && strcmp(c->mix, x->mix) == 0 &&
		    memcmp(c->nodes, x->nodes, sizeof(int) * (size_t)c->nnodes) == 0)
			return true;
	}
	return false;
}

struct opts {
	const char *dir;
	const char *fix; /* the fixtures the models describe */
	int seeds;
	int first; /* the first seed */
	int nnoise;
	double noise[MAX_LIST];
	int nbudget;
	int budget[MAX_LIST]; /* 0: the grid's 10% */
	const char *strategy;
	const char *only;
	bool verify_grid;
	bool verbose;
};

/* One run's outcome. */
struct outcome {
	double gap;	  /* 1 - score(final weights) / optimum */
	double vs_auto;	  /* score(final) / score(auto formula) - 1, noise-free */
	int used;	  /* measurements, profile included */
	int nverdict;	  /* baselines compared */
	int agree;	  /* verdicts that agree with the truth */
	int big;	  /* of them, true gains of 5% or more */
	int big_better;	  /* ... said to be "better" */
	int false_better; /* "better" of a true gain <= 0 */
	/* The final weights are the winner's and their true gain over the
	 * auto formula lies below the 95% interval the run gave it: below
	 * auto beyond its own interval (issue 22 item 1). */
	bool auto_miss;
	int kind_n[TT_BASELINES], kind_agree[TT_BASELINES]; /* verdicts by baseline */
	uint32_t final[TT_SEARCH_MAX_NODES];
	enum tt_reco_action action;
	const char *lost_to; /* the baseline the winner lost to, else "" */
};

/* The kernel's auto-mode weights as the session takes them (HMAT's, else
 * the prior's), from a search initialised on its configuration. */
static int auto_of(struct qrun *q)
{
	struct tt_auto a;
	struct tt_search s;
	int rc = session(q, NULL, 200, 0.03, 1, &a);

	if (rc == 0)
		rc = tt_search_init(&s, &a.cfg, tt_auto_pipe_measure, &a.pipe);
	if (rc == 0) {
		for (int k = 0; k < q->c->nnodes; k++)
			q->autow[k] =
				s.have_auto ? tt_weights_get(&s.auto_w, q->c->nodes[k], 0) : 1;
		tt_search_release(&s);
	}
	tt_auto_release(&a);
	return rc;
}

static int run(const struct qrun *q, const char *strategy, int budget, double sigma, uint64_t seed,
	       struct outcome *o)
{
	const struct qcase *c = q->c;
	struct tt_auto a;
	struct tt_report *r = &a.r;
	int rc = session(q, strategy, budget, sigma, seed, &a);

	memset(o, 0, sizeof(*o));
	if (rc == 0)
		rc = tt_auto_search(&a);
	if (rc < 0)
		goto out;
	for (int k = 0; k < c->nnodes; k++)
		o->final[k] = tt_weights_get(r->lost_to >= 0 ? &r->base[r->lost_to].w : &r->best_w,
					     c->nodes[k], 0);
	o->gap = 1 - score(q, o->final) / q->opt;
	o->vs_auto = score(q, o->final) / score(q, q->autow) - 1;
	o->used = a.s.measurements + a.prior.cost;
	o->action = r->action;
	o->lost_to = r->lost_to >= 0 ? tt_baseline_names[r->base[r->lost_to].kind] : "";
	{
		uint32_t bw[TT_SEARCH_MAX_NODES];
		double best;

		tt_search_trial_weights(&a.s, a.s.best, bw);
		best = score(q, bw);
		for (int b = 0; b < r->nbaselines; b++) {
			const struct tt_report_baseline *rb = &r->base[b];
			uint32_t w[TT_SEARCH_MAX_NODES];
			double g;
			bool ok;

			if (rb->verdict == TT_VERDICT_SAME)
				continue;
			for (int k = 0; k < c->nnodes; k++)
				w[k] = tt_weights_get(&rb->w, c->nodes[k], 0);
			g = best / score(q, w) - 1;
			ok = rb->verdict == TT_VERDICT_BETTER  ? g > 0
			     : rb->verdict == TT_VERDICT_NOISE ? g < 0.05
			     : rb->verdict == TT_VERDICT_WORSE ? g < 0
							       : false;
			o->nverdict++;
			o->agree += ok;
			o->kind_n[rb->kind]++;
			o->kind_agree[rb->kind] += ok;
			if (rb->kind == TT_BASE_AUTO && r->lost_to < 0 && rb->rounds >= 2 &&
			    g < rb->gain_lo)
				o->auto_miss = true;
			o->big += g >= 0.05;
			o->big_better += g >= 0.05 && rb->verdict == TT_VERDICT_BETTER;
			o->false_better += g <= 0 && rb->verdict == TT_VERDICT_BETTER;
		}
	}
out:
	tt_auto_release(&a);
	return rc;
}

static int parse_list(const char *s, double *out, int max, bool budgets)
{
	char buf[256], *tok, *save = NULL;
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ",", &save); tok && n < max; tok = strtok_r(NULL, ",", &save)) {
		char *end;

		if (budgets && strcmp(tok, "grid") == 0) {
			out[n++] = 0;
			continue;
		}
		out[n] = strtod(tok, &end);
		if (end == tok || *end || !(out[n] >= 0))
			return -1;
		n++;
	}
	return n;
}

static void usage(void)
{
	fprintf(stderr, "usage: perf-tuner-quality [-m MODELS-DIR] [-F FIXTURES-DIR] [-s SEEDS] "
			"[-n NOISES] "
			"[-b BUDGETS] [-S STRATEGY] [-c CASE] [-f FIRST-SEED] [-g] [-v]\n");
	exit(2);
}

/* Totals over every case of one budget and noise. */
struct total {
	int runs, over, hc_over, below_auto, auto_miss, nverdict, agree, big, big_better,
		false_better;
	int kind_n[TT_BASELINES], kind_agree[TT_BASELINES]; /* verdicts by baseline */
	int cases_ok; /* cases with >= 95% of runs within 1% */
	int ncases;
	double worst, hc_worst;
};

int main(int argc, char **argv)
{
	struct opts o = { .dir = "model/machines",
			  .fix = "tests/fixtures/sysfs",
			  .seeds = 10,
			  .first = 1000,
			  .strategy = NULL };
	double list[MAX_LIST];
	struct total tot[MAX_LIST][MAX_LIST];
	clock_t t0 = clock();
	static char misses[1 << 16];

	o.nnoise = parse_list("0.01,0.03,0.05,0.10", o.noise, MAX_LIST, false);
	o.nbudget = 3;
	o.budget[0] = 60;
	o.budget[1] = 200;
	o.budget[2] = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(a, "-g") == 0)
			o.verify_grid = true;
		else if (strcmp(a, "-v") == 0)
			o.verbose = true;
		else if (!v)
			usage();
		else if (strcmp(a, "-m") == 0)
			o.dir = v, i++;
		else if (strcmp(a, "-F") == 0)
			o.fix = v, i++;
		else if (strcmp(a, "-s") == 0)
			o.seeds = atoi(v), i++;
		else if (strcmp(a, "-f") == 0)
			o.first = atoi(v), i++;
		else if (strcmp(a, "-S") == 0)
			o.strategy = v, i++;
		else if (strcmp(a, "-c") == 0)
			o.only = v, i++;
		else if (strcmp(a, "-n") == 0) {
			if ((o.nnoise = parse_list(v, o.noise, MAX_LIST, false)) < 1)
				usage();
			i++;
		} else if (strcmp(a, "-b") == 0) {
			int n = parse_list(v, list, MAX_LIST, true);

			if (n < 1)
				usage();
			o.nbudget = n;
			for (int k = 0; k < n; k++)
				o.budget[k] = (int)list[k];
			i++;
		} else
			usage();
	}
	if (o.seeds < 1 || o.seeds > MAX_SEEDS || o.first < 0)
		usage();
	for (int k = 0; k < o.nnoise; k++)
		if (!(o.noise[k] <= 0.2))
			usage();
	memset(tot, 0, sizeof(tot));

	printf("SIMULATED: every figure is from the models in %s, not a machine.\n", o.dir);
	printf("%d seeds per row (a modest count, so the table runs in minutes on 2 shared "
	       "cores: a row's\n'>1%%' is out of %d runs). gap = 1 - score(final weights) / the "
	       "grid's noise-free optimum;\nthe final weights are the winner's, or the baseline's "
	       "it lost to. hc: the hill climb, same\nbudget. auto: the kernel formula on HMAT's "
	       "(else the model's) "
	       "figures. <auto: runs whose weights score more\nthan 1%% below auto's; ci: runs "
	       "whose true gain over auto is below the 95%% interval\nthe run gave it. verdicts: "
	       "agreeing with the truth / compared; >=5%%: true gains of\n5%% or more said "
	       "\"better\" / their count; fb: \"better\" said of a true gain <= 0.\n",
	       o.seeds, o.seeds);
	add_sources(o.dir, o.fix, listed);
	for (size_t ci = 0; ci < sizeof(cases) / sizeof(cases[0]) + (size_t)nextra; ci++) {
		const struct qcase *c = ci < sizeof(cases) / sizeof(cases[0])
						? &cases[ci]
						: &extra[ci - sizeof(cases) / sizeof(cases[0])];
		struct qrun q;
		char ow[64], aw[64];

		if (o.only && !strstr(c->name, o.only))
			continue;
		if (load_case(&q, c, o.dir, o.fix) < 0 || auto_of(&q) < 0)
			die(c->model);
		grid_opt(&q, false);
		if (o.verify_grid && q.grid > GRID_ENUM_MAX) {
			uint32_t w[TT_SEARCH_MAX_NODES];
			double opt = q.opt;

			memcpy(w, q.optw, sizeof(w));
			if (c->nnodes <= 5) {
				grid_opt(&q, true);
				fmt_w(w, c->nnodes, ow, sizeof(ow));
				fmt_w(q.optw, c->nnodes, aw, sizeof(aw));
				printf("grid check, %s: descent %s %.6g, enumeration %s %.6g: %s\n",
				       c->name, ow, opt, aw, q.opt,
				       opt >= q.opt * (1 - 1e-12) ? "same" : "DIFFERENT");
			}
		}
		q.auto_gap = 1 - score(&q, q.autow) / q.opt;
		fmt_w(q.optw, c->nnodes, ow, sizeof(ow));
		fmt_w(q.autow, c->nnodes, aw, sizeof(aw));
		printf("\n%s: %s from node %d, %d nodes, %s%s%.0d; grid %ld vectors%s, optimum "
		       "%s (%.1f GB/s); auto %s, %.2f%% below\n",
		       c->name, c->model, c->src, c->nnodes, c->mix, c->threads ? ", threads " : "",
		       c->threads, q.grid, q.grid > GRID_ENUM_MAX ? " (by descent)" : "", ow,
		       q.opt / 1e9, aw, 100 * q.auto_gap);
		printf("%6s %5s | %-26s | %-19s | %5s %3s | %-8s %-7s %3s\n", "budget", "noise",
		       "gap median worst >1% meas", "hc median worst >1%", "<auto", "ci",
		       "verdicts", ">=5%", "fb");
		for (int bi = 0; bi < o.nbudget; bi++)
			for (int ni = 0; ni < o.nnoise; ni++) {
				int budget = o.budget[bi] ? o.budget[bi]
							  : (int)(q.grid / 10 < GRID_BUDGET_MAX
									  ? q.grid / 10
									  : GRID_BUDGET_MAX);
				double gaps[MAX_SEEDS], hgaps[MAX_SEEDS], meas[MAX_SEEDS];
				struct total *t = &tot[bi][ni];
				struct outcome sum = { 0 };
				int over = 0, hover = 0, below = 0, miss = 0;

				for (int sd = 0; sd < o.seeds; sd++) {
					struct outcome a, h;

					if (run(&q, o.strategy, budget, o.noise[ni],
						(uint64_t)o.first + (uint64_t)sd, &a) < 0 ||
					    run(&q, "hillclimb", budget, o.noise[ni],
						(uint64_t)o.first + (uint64_t)sd, &h) < 0)
						die(c->name);
					gaps[sd] = a.gap;
					hgaps[sd] = h.gap;
					meas[sd] = a.used;
					over += a.gap > 0.01;
					hover += h.gap > 0.01;
					below += a.vs_auto < -0.01;
					miss += a.auto_miss;
					for (int k = 0; k < TT_BASELINES; k++) {
						t->kind_n[k] += a.kind_n[k];
						t->kind_agree[k] += a.kind_agree[k];
					}
					sum.nverdict += a.nverdict;
					sum.agree += a.agree;
					sum.big += a.big;
					sum.big_better += a.big_better;
					sum.false_better += a.false_better;
					if (a.gap > 0.01 && o.verbose) {
						char fw[64];

						fmt_w(a.final, c->nnodes, fw, sizeof(fw));
						snprintf(misses + strlen(misses),
							 sizeof(misses) - strlen(misses),
							 "  %s, budget %d, noise %.0f%%, seed %d: "
							 "%s, %.2f%% below the optimum %s%s%s\n",
							 c->name, budget, 100 * o.noise[ni],
							 o.first + sd, fw, 100 * a.gap, ow,
							 *a.lost_to ? "; the winner lost to " : "",
							 a.lost_to);
					}
				}
				qsort(gaps, (size_t)o.seeds, sizeof(double), cmp_d);
				qsort(hgaps, (size_t)o.seeds, sizeof(double), cmp_d);
				qsort(meas, (size_t)o.seeds, sizeof(double), cmp_d);
				printf("%6d %4.0f%% | %6.2f%% %6.2f%% %3d %6.0f | %6.2f%% %6.2f%% "
				       "%3d | %5d %3d | %4d/%-4d %3d/%-3d %3d\n",
				       budget, 100 * o.noise[ni], 100 * gaps[o.seeds / 2],
				       100 * gaps[o.seeds - 1], over, meas[o.seeds / 2],
				       100 * hgaps[o.seeds / 2], 100 * hgaps[o.seeds - 1], hover,
				       below, miss, sum.agree, sum.nverdict, sum.big_better,
				       sum.big, sum.false_better);
				t->runs += o.seeds;
				t->over += over;
				t->hc_over += hover;
				t->below_auto += below;
				t->auto_miss += miss;
				t->nverdict += sum.nverdict;
				t->agree += sum.agree;
				t->big += sum.big;
				t->big_better += sum.big_better;
				t->false_better += sum.false_better;
				t->ncases++;
				t->cases_ok += over * 20 <= o.seeds;
				t->worst = fmax(t->worst, gaps[o.seeds - 1]);
				t->hc_worst = fmax(t->hc_worst, hgaps[o.seeds - 1]);
			}
		tt_topo_release(&q.t);
	}
	printf("\ntotals over the cases (budget 0: the grid's 10%%, capped at %d)\n",
	       GRID_BUDGET_MAX);
	printf("%6s %5s | %9s %7s %11s | %9s %7s | %5s %3s | %-11s %-9s %3s\n", "budget", "noise",
	       ">1%/runs", "worst", "cases >=95%", "hc >1%", "worst", "<auto", "ci", "verdicts",
	       ">=5%", "fb");
	for (int bi = 0; bi < o.nbudget; bi++)
		for (int ni = 0; ni < o.nnoise; ni++) {
			const struct total *t = &tot[bi][ni];

			printf("%6d %4.0f%% | %4d/%-4d %6.2f%% %5d/%-5d | %9d %6.2f%% | %5d %3d | "
			       "%5d/%-5d %4d/%-4d %3d\n",
			       o.budget[bi], 100 * o.noise[ni], t->over, t->runs, 100 * t->worst,
			       t->cases_ok, t->ncases, t->hc_over, 100 * t->hc_worst, t->below_auto,
			       t->auto_miss, t->agree, t->nverdict, t->big_better, t->big,
			       t->false_better);
		}
	printf("\nverdicts agreeing with the truth, by baseline\n%6s %5s |", "budget", "noise");
	for (int k = 0; k < TT_BASELINES; k++)
		printf(" %11s", tt_baseline_names[k]);
	printf("\n");
	for (int bi = 0; bi < o.nbudget; bi++)
		for (int ni = 0; ni < o.nnoise; ni++) {
			const struct total *t = &tot[bi][ni];

			printf("%6d %4.0f%% |", o.budget[bi], 100 * o.noise[ni]);
			for (int k = 0; k < TT_BASELINES; k++)
				printf(" %5d/%-5d", t->kind_agree[k], t->kind_n[k]);
			printf("\n");
		}
	if (o.verbose && misses[0])
		printf("\nruns over 1%% (final weights, noise-free gap, the optimum):\n%s", misses);
	printf("\n%.0f s of CPU\n", (double)(clock() - t0) / CLOCKS_PER_SEC);
	return 0;
}
