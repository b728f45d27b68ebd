// SPDX-License-Identifier: GPL-3.0-or-later
/* How long the database takes to store what a run produces: 100,000
 * collector samples in one transaction (the target: under 1 s),
 * and 1,000 trials of 4 nodes each, one transaction per trial as the tuner
 * writes them. Prints figures; not a test.
 *
 *	make perf && build/tests/perf-db-insert [DIR]
 */
#include "../../core/error.h"
#include "../../db/db.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	enum { SAMPLES = 100000, TRIALS = 1000 };
	char path[4096];
	struct tt_node nodes[1] = { { .id = 0, .ncpus = 1, .has_memory = true } };
	struct tt_topo t = { .nnodes = 1, .nodes = nodes };
	struct tt_db_trial_node tn[4] = { { 0, 5, .4, .4, 400 },
					  { 1, 3, .3, .3, 300 },
					  { 2, 1, .1, .1, 100 },
					  { 3, 2, .2, .2, 200 } };
	struct tt_db_sample *s = calloc(SAMPLES, sizeof(*s));
	struct tt_db *db;
	int64_t host, run, trial;

	snprintf(path, sizeof(path), "%s/perf-db-insert-%d.db", argc > 1 ? argv[1] : "/tmp",
		 (int)getpid());
	if (!s || tt_db_open(&db, path, 0) < 0 || tt_db_host(db, &t, &host) < 0 ||
	    tt_db_run_begin(
		    db, &(struct tt_db_run){ .host_id = host, .kind = "perf", .source_node = -1 },
		    &run) < 0) {
		fprintf(stderr, "perf-db-insert: %s\n", tt_err_msg());
		return 1;
	}
	for (int i = 0; i < SAMPLES; i++)
		s[i] = (struct tt_db_sample){ .t_s = i * 0.1,
					      .collector = "perf-uncore",
					      .metric = "imc_read_bytes",
					      .node = i % 4,
					      .value = i };
	double t0 = now();
	if (tt_db_samples_add(db, run, 0, s, SAMPLES) < 0)
		goto fail;
	double t1 = now();
	for (int i = 0; i < TRIALS; i++)
		if (tt_db_trial_add(db, run,
				    &(struct tt_db_trial){ .kernel = "triad",
							   .placement = "exact",
							   .threads = 8,
							   .size_bytes = 1 << 30,
							   .bw_best_bytes_s = 1e11,
							   .validated = true,
							   .nnodes = 4,
							   .nodes = tn },
				    &trial) < 0)
			goto fail;
	double t2 = now();
	printf("%d samples in one transaction: %.3f s (%.0f samples/s)\n", SAMPLES, t1 - t0,
	       SAMPLES / (t1 - t0));
	printf("%d trials of 4 nodes, a transaction each: %.3f s (%.2f ms per trial)\n", TRIALS,
	       t2 - t1, (t2 - t1) * 1e3 / TRIALS);
	tt_db_close(db);
	unlink(path);
	free(s);
	return 0;
fail:
	fprintf(stderr, "perf-db-insert: %s\n", tt_err_msg());
	return 1;
}
