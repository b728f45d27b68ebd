// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * How far is the performance model (model/model.h) from published
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

/* The root mean square of the residuals r[i] of the cases sel picks. */
static double rms(const double *r, const bool *sel, int *n)
{
	double sum = 0;

	*n = 0;
	for (size_t i = 0; i < CALIB_NCASES; i++)
		if (sel[i]) {
			sum += r[i] * r[i];
			++*n;
		}
	return *n ? sqrt(sum / *n) : 0;
}

int main(int argc, char **argv)
{
	const char *top = ".", *before = NULL;
	double res[2][CALIB_NCASES]; /* [before/after][case], points */
	bool sel[3][CALIB_NCASES];   /* issue's 12 / all / held to */
	const char *what[3] = { "issue 22's", "all", "held to" };
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
	       "'x' marks a case that contradicts another (a table at odds with itself,\n"
	       "or a second reading of one source).\n\n");
	printf("%-23s %-16s %8s %8s %6s %8s %6s %4s %s\n", "case", "source", "publ.%",
	       before ? "before%" : "", before ? "resid" : "", "after%", "resid", "tol", "a");
	for (size_t i = 0; i < CALIB_NCASES; i++) {
		const struct calib_case *c = &calib_cases[i];
		struct tt_model m;
		char path[2048], a[64] = "", bf[2][16] = { "", "" };
		uint32_t av[CALIB_MAX_NODES];
		double g[2] = { 0, 0 };
		int n;

		if (before) {
			snprintf(path, sizeof(path), "%s/spr-ddr5-2cxl.json", before);
			if (tt_model_load(&m, path) < 0)
				die(path);
			n = min_int(c->nnodes, m.src[0].nnodes);
			if (calib_gain(c, &m, n, c->threads_before, true, av, &g[0]) < 0)
				die(c->id);
			snprintf(bf[0], sizeof(bf[0]), "%+.1f", 100 * g[0]);
			snprintf(bf[1], sizeof(bf[1]), "%+.1f", 100 * (g[0] - c->published));
		}
		snprintf(path, sizeof(path), "%s/%s", top, c->model);
		if (tt_model_load(&m, path) < 0)
			die(path);
		n = min_int(c->nnodes, m.src[0].nnodes);
		if (calib_gain(c, &m, n, c->threads, false, av, &g[1]) < 0)
			die(c->id);
		vec(a, sizeof(a), av, n);
		for (int k = 0; k < 2; k++)
			res[k][i] = 100 * (g[k] - c->published);
		printf("%-23s %-16s %+8.1f %8s %6s %+8.1f %+6.1f %3.0f%s %s\n", c->id, c->source,
		       100 * c->published, bf[0], bf[1], 100 * g[1], res[1][i], c->tol,
		       c->other ? "x" : " ", a);
	}
	/* Of a pair that contradicts itself no model meets both: the cases
	 * held to are those without a twin and, of each pair, those the
	 * calibrated model meets (as unit/test-calibration.c holds them). */
	for (size_t i = 0; i < CALIB_NCASES; i++) {
		sel[0][i] = i < CALIB_NISSUE;
		sel[1][i] = true;
		sel[2][i] = !calib_cases[i].other || fabs(res[1][i]) <= calib_cases[i].tol;
	}
	printf("\nroot mean square residual, points:\n");
	for (int k = 0; k < 3; k++) {
		int n;
		double after = rms(res[1], sel[k], &n);

		printf("  %-10s %2d cases:", what[k], n);
		if (before)
			printf(" before %5.1f,", rms(res[0], sel[k], &n));
		printf(" after %5.1f\n", after);
	}
	return 0;
}
