/* The tuner's own cost per real trial: each trial is auto's measurement
 * (cli/cmd-auto.c real_measure: the mix kernel through the trial layer,
 * exact placement, not recorded), here with every page on one node, the
 * only placement a one-node machine has. Printed side by side: the trial's
 * wall time, the timed kernel passes it holds (the measured phase,
 * tt_trial_result.measured_s), and the rest: placement (mmap and mbind,
 * first touch, move_pages verification) and everything else (the warm-up
 * pass, threads, validation, unmapping). The target (issue 14) is an
 * overhead under 2% of the trial. Figures, not a test
 * (bench/scripts/tuner-overhead.sh runs it).
 *
 *	build/tests/perf-tuner-overhead [TRIALS [KERNEL [BYTES [REPEAT]]]]
 */
#include "../../bench/kernels.h"
#include "../../core/error.h"
#include "../../core/sysfs.h"
#include "../../core/topo.h"
#include "../../tuner/trial.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	int ntrials = argc > 1 ? atoi(argv[1]) : 5;
	const char *kname = argc > 2 ? argv[2] : "triad";
	size_t bytes = argc > 3 ? strtoull(argv[3], NULL, 0) : 0;
	int repeat = argc > 4 ? atoi(argv[4]) : 5; /* auto's default */
	double sum_total = 0, sum_meas = 0, sum_place = 0;
	struct tt_sysfs sfs;
	struct tt_topo t;
	struct tt_weights w;
	int src = -1, mem = -1, node;

	if (ntrials < 1 || repeat < 1 || !tt_kernel_find(kname)) {
		fprintf(stderr, "perf-tuner-overhead: [TRIALS [KERNEL [BYTES [REPEAT]]]]\n");
		return 2;
	}
	if (tt_sysfs_init(&sfs, "/") < 0 || tt_topo_load(&t, &sfs) < 0) {
		fprintf(stderr, "perf-tuner-overhead: %s\n", tt_err_msg());
		return 1;
	}
	for (int i = 0; i < t.nnodes && src < 0; i++)
		if (t.nodes[i].ncpus)
			src = t.nodes[i].id;
	/* The source's own memory where it has some, else the first node's. */
	tt_nodemask_for_each (node, &t.mem_nodes)
		if (mem < 0 || node == src)
			mem = node;
	tt_weights_clear(&w);
	tt_weights_put(&w, mem, 1);
	printf("kernel %s, exact placement on node %d from node %d, %d timed passes after a "
	       "warm-up, as auto's trials\n",
	       kname, mem, src, repeat);
	printf("%5s %10s %10s %10s %10s %9s\n", "trial", "trial s", "passes s", "placing s",
	       "other s", "overhead");
	for (int i = 0; i < ntrials; i++) {
		struct tt_trial_opts o = { .bench = { .kernel = tt_kernel_find(kname),
						      .topo = &t,
						      .source_node = src,
						      .array_bytes = bytes,
						      .repeat = repeat,
						      .sfs = &sfs },
					   .weights = &w };
		struct tt_trial_result *r;
		double t0 = now_s(), total;

		if (tt_place_init(&o.bench.place, TT_PLACE_EXACT, &w.set, &w, src) < 0 ||
		    tt_trial_run(&o, &r) < 0) {
			fprintf(stderr, "perf-tuner-overhead: %s\n", tt_err_msg());
			return 1;
		}
		total = now_s() - t0;
		printf("%5d %10.3f %10.3f %10.3f %10.3f %8.1f%%\n", i + 1, total, r->measured_s,
		       r->bench.place_s, total - r->measured_s - r->bench.place_s,
		       100 * (1 - r->measured_s / total));
		sum_total += total;
		sum_meas += r->measured_s;
		sum_place += r->bench.place_s;
		if (i == 0)
			printf("      (arrays of %zu bytes, %d threads)\n", r->bench.array_bytes,
			       r->bench.threads);
		tt_trial_free(r);
	}
	printf("%5s %10.3f %10.3f %10.3f %10.3f %8.1f%%   (target: overhead under 2%%)\n", "mean",
	       sum_total / ntrials, sum_meas / ntrials, sum_place / ntrials,
	       (sum_total - sum_meas - sum_place) / ntrials, 100 * (1 - sum_meas / sum_total));
	tt_topo_release(&t);
	return 0;
}
