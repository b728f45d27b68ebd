// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * How far is the performance model (tuner/model.h) from published
 * measurements? Every calibration case of tests/unit/calibration-cases.h
 * (sources, models and tolerances there; docs/models.md says why each),
 * the published gain beside the model's, the residual (model - published,
 * points) and the root mean square over issue 22's twelve points and over
 * all. With -b, also the model before calibration: the models in DIR (the
 * shipped models of f039f4f, bench/scripts/model-calibration.sh extracts
 * them), where every case ran on spr-ddr5-2cxl (its DRAM and as many CXL
 * devices as it has) at the threads it was run with then. Figures, not a
 * test (unit/test-calibration.c is the test). Everything the model gives is
 * simulated.
 *
 *	build/tests/perf-model-calibration [-t TOP] [-b BEFORE-MODELS-DIR]
 */
#include "../unit/calibration-cases.h"

#include <math.h>
#include <stdlib.h>
#include <unistd.h>

static void die(const char *what)
{
	fprintf(stderr, "perf-model-calibration: %s: %s\n", what, tt_err_msg());
	exit(1);
}

static int min_int(int a, int b)
{
	return a < b ? a : b;
}

static void vec(char *out, size_t len, const uint32_t *w, int n)
{
	out[0] = '\0';
	for (int k = 0; k < n; k++)
		snprintf(out + strlen(out), len - strlen(out), "%s%u", k ? ":" : "", w[k]);
}

int main(int argc, char **argv)
{
	const char *top = ".", *before = NULL;
	double sum2[2][3] = { { 0 } }; /* [before/after][issue's 12 / all / no twin] */
	int nsingle = 0;
	int opt;

	while ((opt = getopt(argc, argv, "t:b:")) != -1) {
		if (opt == 't')
			top = optarg;
		else if (opt == 'b')
			before = optarg;
		else {
			fprintf(stderr, "usage: perf-model-calibration [-t TOP] [-b BEFORE-DIR]\n");
			return 2;
		}
	}
	printf("SIMULATED: the model's figures are from model files, not a machine.\n"
	       "gain = score(a) / score(b) - 1, node 0 DRAM, then CXL devices; a given as\n"
	       "'best' is the model's optimum; residual = model - published, points;\n"
	       "'x' marks a case that contradicts another of the same table.\n\n");
	printf("%-23s %-16s %8s %8s %6s %8s %6s %4s %s\n", "case", "source", "publ.%",
	       before ? "before%" : "", before ? "resid" : "", "after%", "resid", "tol", "a");
	for (size_t i = 0; i < CALIB_NCASES; i++) {
		const struct calib_case *c = &calib_cases[i];
		struct tt_model m;
		char path[2048], a[64] = "";
		uint32_t av[CALIB_MAX_NODES];
		double g[2] = { 0, 0 };
		int n;

		if (before) {
			snprintf(path, sizeof(path), "%s/spr-ddr5-2cxl.json", before);
			if (tt_model_load(&m, path) < 0)
				die(path);
			n = min_int(c->nnodes, m.src[0].nnodes);
			if (calib_gain(c, &m, n, c->threads_before, av, &g[0]) < 0)
				die(c->id);
		}
		snprintf(path, sizeof(path), "%s/%s", top, c->model);
		if (tt_model_load(&m, path) < 0)
			die(path);
		n = min_int(c->nnodes, m.src[0].nnodes);
		if (calib_gain(c, &m, n, c->threads, av, &g[1]) < 0)
			die(c->id);
		vec(a, sizeof(a), av, n);
		for (int k = 0; k < 2; k++) {
			double r = 100 * (g[k] - c->published);

			sum2[k][1] += r * r;
			if (i < CALIB_NISSUE)
				sum2[k][0] += r * r;
			if (!c->other)
				sum2[k][2] += r * r;
		}
		nsingle += !c->other;
		if (before)
			printf("%-23s %-16s %+8.1f %+8.1f %+6.1f %+8.1f %+6.1f %3.0f%s %s\n", c->id,
			       c->source, 100 * c->published, 100 * g[0],
			       100 * (g[0] - c->published), 100 * g[1], 100 * (g[1] - c->published),
			       c->tol, c->other ? "x" : " ", a);
		else
			printf("%-23s %-16s %+8.1f %8s %6s %+8.1f %+6.1f %3.0f%s %s\n", c->id,
			       c->source, 100 * c->published, "", "", 100 * g[1],
			       100 * (g[1] - c->published), c->tol, c->other ? "x" : " ", a);
	}
	printf("\nroot mean square residual, points: ");
	if (before)
		printf("before %.1f over issue 22's %d, %.1f over all %zu; ",
		       sqrt(sum2[0][0] / CALIB_NISSUE), CALIB_NISSUE,
		       sqrt(sum2[0][1] / CALIB_NCASES), CALIB_NCASES);
	printf("%s%.1f over issue 22's %d, %.1f over all %zu\n", before ? "after " : "",
	       sqrt(sum2[1][0] / CALIB_NISSUE), CALIB_NISSUE, sqrt(sum2[1][1] / CALIB_NCASES),
	       CALIB_NCASES);
	/* A twin pair cannot both be met: without them, what the model can be
	 * held to. */
	printf("over the %d cases without a contradicting twin: ", nsingle);
	if (before)
		printf("before %.1f, after ", sqrt(sum2[0][2] / nsingle));
	printf("%.1f\n", sqrt(sum2[1][2] / nsingle));
	return 0;
}
