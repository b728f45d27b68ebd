// SPDX-License-Identifier: GPL-3.0-or-later
/* bench/llc.c: the last-level cache a run's CPUs share, from sysfs at any
 * level (fixtures, exact figures) or, without cpuN/cache, from sysconf
 * times the packages the CPUs are on; STREAM's sizing rule on it; and the
 * judgement of a run as cache-resident or too short to time; the tuner's
 * unstable trials measured again, then refused; whether the measuring
 * threads ran (bench/ran.c), and descheduled trials measured again, then
 * refused. */
#define _GNU_SOURCE /* CPU_SET, pthread_setaffinity_np */
#include "test.h"

#include "../../bench/harness.h"
#include "../../bench/run.h"
#include "../../core/error.h"
#include "../../core/sysfs.h"
#include "../../core/test-hooks.h"
#include "../../measure/trial.h"

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MIB ((uint64_t)1 << 20)

static void root(struct tt_sysfs *s, const char *fixture)
{
	char p[1024];

	snprintf(p, sizeof(p), "%s/tests/fixtures/llc/%s",
		 getenv("TT_TOP") ? getenv("TT_TOP") : ".", fixture);
	assert_int_equal(tt_sysfs_init(s, p), 0);
}

/* No index3: the highest unified cache (index2, L2) is the last level, the
 * L1 data and instruction caches are not; private caches add up. */
static void test_sysfs_not_index3(void **state)
{
	struct tt_sysfs s;
	struct tt_llc llc;
	char rule[128];
	int three[] = { 0, 1, 2 }, one[] = { 3 };

	(void)state;
	root(&s, "arm-l2");
	tt_bench_llc_of(&s, three, 3, &llc);
	assert_int_equal(llc.bytes, 3 * MIB);
	assert_int_equal(llc.level, 2);
	assert_int_equal(llc.count, 3);
	assert_string_equal(llc.from, "sysfs");
	assert_int_equal(tt_bench_default_bytes(&llc, rule, sizeof(rule)), 12 * MIB);
	assert_string_equal(rule, "STREAM's rule: 4x the L2 cache of 3.0 MiB, from sysfs");
	/* One 1 MiB cache: 4 MiB is under STREAM's minimum of 1M elements. */
	tt_bench_llc_of(&s, one, 1, &llc);
	assert_int_equal(llc.bytes, MIB);
	assert_int_equal(tt_bench_default_bytes(&llc, rule, sizeof(rule)), 8 * MIB);
	assert_string_equal(rule, "1M elements (STREAM's minimum; larger than 4x the L2 1.0 MiB)");
}

/* A shared cache counts once however many of the run's CPUs share it; a
 * second socket's counts too (the live fixture of a 2-socket box has none,
 * so a copy of the Arm one with shared L2s). */
static void test_sysfs_shared_once(void **state)
{
	char dir[] = "/tmp/tt-llc-XXXXXX", cmd[2048];
	struct tt_sysfs s;
	struct tt_llc llc;
	int all[] = { 0, 1, 2, 3 }, first[] = { 0, 1 };

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd),
		 "cp -r %s/tests/fixtures/llc/arm-l2/sys %s/ && cd %s/sys/devices/system/cpu "
		 "&& for c in 0 1 2 3; do echo 32768K >cpu$c/cache/index2/size; "
		 "echo $((c / 2 * 2))-$((c / 2 * 2 + 1)) >cpu$c/cache/index2/shared_cpu_list; "
		 "done",
		 getenv("TT_TOP") ? getenv("TT_TOP") : ".", dir, dir);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(tt_sysfs_init(&s, dir), 0);
	tt_bench_llc_of(&s, all, 4, &llc);
	assert_int_equal(llc.bytes, 64 * MIB);
	assert_int_equal(llc.count, 2);
	tt_bench_llc_of(&s, first, 2, &llc);
	assert_int_equal(llc.bytes, 32 * MIB);
	assert_int_equal(llc.count, 1);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* What glibc says this host's last-level cache is, as bench/llc.c asks. */
static long host_sysconf(int *level)
{
	long v;

#ifdef _SC_LEVEL4_CACHE_SIZE
	if ((v = sysconf(_SC_LEVEL4_CACHE_SIZE)) > 0)
		return *level = 4, v;
#endif
	if ((v = sysconf(_SC_LEVEL3_CACHE_SIZE)) > 0)
		return *level = 3, v;
	if ((v = sysconf(_SC_LEVEL2_CACHE_SIZE)) > 0)
		return *level = 2, v;
	return 0;
}

/* No cpuN/cache: sysconf's figure (this host's), once per package the CPUs
 * are on; the default arrays are 4x that. */
static void test_no_cache_sysfs(void **state)
{
	struct tt_sysfs s;
	struct tt_llc llc;
	char rule[128];
	int one_pkg[] = { 0, 1 }, two_pkg[] = { 1, 2 }, level = 0;
	long v = host_sysconf(&level);

	(void)state;
	if (v <= 0)
		skip(); /* sysconf knows no cache here: CPUID or hwloc answer (not exact) */
	root(&s, "none-2pkg");
	tt_bench_llc_of(&s, one_pkg, 2, &llc);
	assert_int_equal(llc.bytes, (uint64_t)v);
	assert_int_equal(llc.level, level);
	assert_int_equal(llc.count, 1);
	assert_string_equal(llc.from, "sysconf/CPUID");
	tt_bench_llc_of(&s, two_pkg, 2, &llc);
	assert_int_equal(llc.bytes, 2 * (uint64_t)v);
	assert_int_equal(llc.count, 2);
	if (4 * 2 * (uint64_t)v > 8 * MIB) {
		assert_int_equal(tt_bench_default_bytes(&llc, rule, sizeof(rule)), 8 * (uint64_t)v);
		assert_non_null(strstr(rule, "STREAM's rule: 4x the L"));
	}
}

/* Nothing says: 0, "unknown", STREAM's minimum. */
static void test_unknown(void **state)
{
	struct tt_llc llc = { .from = "none in sysfs cpu*/cache" };
	char rule[128];

	(void)state;
	assert_int_equal(tt_bench_default_bytes(&llc, rule, sizeof(rule)), 8 * MIB);
	assert_string_equal(rule, "1M elements (STREAM's minimum; last-level cache unknown: none "
				  "in sysfs cpu*/cache)");
}

/* Below STREAM's rule under 4x the LLC, not at it; cache-resident only
 * when all a pass touches fits in the LLC (and a chase was not slower than
 * memory); too short under 20 ticks, not at them; unstable when the median
 * pass is over 10% slower than the best; nothing judged when the LLC is
 * unknown or there were no passes. */
static void test_judge(void **state)
{
	struct tt_bench_result *r = calloc(1, sizeof(*r));

	(void)state;
	assert_non_null(r);
	r->llc.bytes = 508 * MIB;
	r->array_bytes = 8 * MIB; /* --size 8M */
	r->touched_bytes = 3 * 8 * MIB;
	r->best_s = 2e-4;
	r->median_s = 2e-4;
	tt_bench_judge(r, 1e-9);
	assert_true(r->below_rule);
	assert_true(r->cache_resident);
	assert_false(r->short_pass);
	assert_false(r->unstable);
	r->array_bytes = 4 * 508 * MIB;
	r->touched_bytes = 3 * r->array_bytes;
	tt_bench_judge(r, 1e-9);
	assert_false(r->below_rule);
	assert_false(r->cache_resident);
	r->array_bytes = 4 * 508 * MIB - 1;
	tt_bench_judge(r, 1e-9);
	assert_true(r->below_rule);
	assert_false(r->cache_resident);
	/* Issue 34: triad --size 1G beside a 300 MiB L3: 3 GiB touched per
	 * pass is below the 4x rule, and not cache-resident. */
	r->llc.bytes = 300 * MIB;
	r->array_bytes = 1024 * MIB;
	r->touched_bytes = 3 * r->array_bytes;
	tt_bench_judge(r, 1e-9);
	assert_true(r->below_rule);
	assert_false(r->cache_resident);
	/* ... and its passes: best 5.5 GB/s, median 4.2: unstable. */
	r->best_s = 3.0 * 1024 * MIB / 5.5e9;
	r->median_s = 3.0 * 1024 * MIB / 4.2e9;
	tt_bench_judge(r, 1e-9);
	assert_true(r->unstable);
	assert_non_null(strstr(r->unstable_why, "the median pass took 31% longer than the best"));
	r->median_s = r->best_s * 1.10;
	tt_bench_judge(r, 1e-9);
	assert_false(r->unstable);
	/* Issue 34: a 64 MiB chase at 278-301 ns beside a 300 MiB L3 was
	 * served from memory: below the rule, not cache-resident. */
	r->array_bytes = r->touched_bytes = 64 * MIB;
	r->loads = 1 << 20;
	r->lat_median_ns = 290;
	tt_bench_judge(r, 1e-9);
	assert_true(r->below_rule);
	assert_false(r->cache_resident);
	r->lat_median_ns = 40;
	tt_bench_judge(r, 1e-9);
	assert_true(r->cache_resident);
	r->loads = 0;
	r->array_bytes = 4 * 508 * MIB - 1;
	r->touched_bytes = 0;
	r->llc.bytes = 508 * MIB;
	r->best_s = 2e-4;
	r->median_s = 2e-4;
	/* A coarse clock: 4 ms ticks (no high-resolution timers). */
	tt_bench_judge(r, 4e-3);
	assert_true(r->short_pass);
	r->best_s = r->median_s = 20 * 4e-3;
	tt_bench_judge(r, 4e-3);
	assert_false(r->short_pass);
	assert_true(r->tick_s == 4e-3);
	r->llc.bytes = 0;
	r->best_s = 0;
	tt_bench_judge(r, 4e-3);
	assert_false(r->below_rule);
	assert_false(r->cache_resident);
	assert_false(r->short_pass);
	assert_false(r->unstable);
	assert_true(tt_bench_tick_s() > 0);
	free(r);
}

/* This host's topology and a node with CPUs and memory to run on (the
 * test skipped where there is none). */
static int live_node(struct tt_sysfs *s, struct tt_topo *t)
{
	int src = -1;

	assert_int_equal(tt_sysfs_init(s, "/"), 0);
	assert_int_equal(tt_topo_load(t, s), 0);
	for (int i = 0; i < t->nnodes && src < 0; i++)
		if (t->nodes[i].ncpus && t->nodes[i].has_memory)
			src = t->nodes[i].id;
	if (src < 0) {
		tt_topo_release(t);
		skip();
	}
	return src;
}

/* The tuner's rule, in the library: with refuse_cache a cache-resident
 * run is refused before it maps anything (exit 2, naming the sizes and
 * the option), through the trial layer the tuner calls; without, it runs
 * and is marked. A live run of 4 KiB arrays: under 4x any real LLC. */
static void test_refuse_cache(void **state)
{
	struct tt_sysfs s;
	struct tt_topo t;
	struct tt_trial_opts o = { .bench = { .kernel = tt_kernel_find("triad"),
					      .array_bytes = 4096,
					      .repeat = 1,
					      .refuse_cache = true } };
	struct tt_trial_result *r = NULL;
	struct tt_nodemask one = { 0 };
	int src;

	(void)state;
	src = live_node(&s, &t);
	o.bench.topo = &t;
	o.bench.sfs = &s;
	o.bench.source_node = src;
	tt_bit_set(one.bits, (unsigned int)src);
	assert_int_equal(tt_place_init(&o.bench.place, TT_PLACE_BIND, &one, NULL, src), 0);
	int rc = tt_trial_run(&o, &r);

	if (rc == 0 && r->bench.llc.bytes == 0) {
		tt_trial_free(r);
		tt_topo_release(&t);
		skip(); /* this host reports no last-level cache: nothing is refused */
	}
	assert_int_equal(rc, TT_EINPUT);
	assert_null(r);
	assert_non_null(strstr(tt_err_msg(), "triad's 0.0 MiB arrays are below STREAM's 4x rule: "
					     "under 4x the last-level cache of its CPUs"));
	assert_non_null(strstr(tt_err_msg(), "all a pass touches fits there"));
	assert_non_null(strstr(tt_err_hint_msg(), "--allow-cache-resident"));
	o.bench.refuse_cache = false;
	assert_int_equal(tt_trial_run(&o, &r), 0);
	assert_true(r->bench.cache_resident);
	assert_true(r->bench.validated);
	assert_int_equal(r->bench.array_bytes, 4096);
	tt_trial_free(r);
	tt_topo_release(&t);
}

/* The spread each run gets, in turn (the test seam, core/test-hooks.h):
 * the median pass is the best times it; the last one repeats. */
static const double *spreads;
static int nspreads, runs;

static double next_spread(void)
{
	double f = spreads[runs < nspreads ? runs : nspreads - 1];

	runs++;
	return f;
}

/* Every run judged as if its threads ran throughout: this host may be busy
 * enough to deschedule them (bench/ran.c), which is not what is tested. */
static double ran_all(void)
{
	return 1;
}

static const struct tt_test_hooks spread_hooks = { .pass_spread = next_spread,
						   .ran_share = ran_all };

static void spread(const double *f, int n)
{
	spreads = f;
	nspreads = n;
	runs = 0;
}

/* Issue 34: a tuner's trial whose passes spread (a busy host) is measured
 * again, through the trial layer auto, sweep and the profile call, and
 * refused only when TT_UNSTABLE_RUNS runs in a row are unstable, naming
 * the trial's weights; with refuse_unstable off it is kept and marked.
 * Before, the first unstable run ended the search (exit 2, no re-measure,
 * the trial unnamed, the hint pointing at --allow-cache-resident). A live
 * triad run on the host's first node with CPUs and memory; the spreads
 * are the seam's, so a loaded host cannot change the outcome. */
static void test_unstable_measured_again(void **state)
{
	static const double noisy_once[] = { 1.5, 1 }, noisy[] = { 1.5 }, steady[] = { 1 };
	struct tt_sysfs s;
	struct tt_topo t;
	struct tt_weights w;
	struct tt_trial_opts o = { .bench = { .kernel = tt_kernel_find("triad"),
					      .array_bytes = 1 << 20,
					      .repeat = 3,
					      .refuse_unstable = true },
				   .weights = &w };
	struct tt_trial_result *r = NULL;
	char want[256];
	int src, rc;

	(void)state;
	src = live_node(&s, &t);
	o.bench.topo = &t;
	o.bench.sfs = &s;
	o.bench.source_node = src;
	tt_weights_clear(&w);
	tt_weights_put(&w, src, 1);
	assert_int_equal(tt_place_init(&o.bench.place, TT_PLACE_EXACT, &w.set, &w, src), 0);
	tt_test_hooks = &spread_hooks;

	/* Unstable once: measured again, the steady run kept. */
	spread(noisy_once, 2);
	rc = tt_trial_run(&o, &r);
	if (rc < 0)
		fail_msg("%s", tt_err_msg());
	assert_int_equal(runs, 2);
	assert_false(r->bench.unstable);
	assert_int_equal(r->bench.unstable_runs, 1);
	assert_true(r->bench.validated);
	tt_trial_free(r);

	/* Steady: one run. */
	spread(steady, 1);
	assert_int_equal(tt_trial_run(&o, &r), 0);
	assert_int_equal(runs, 1);
	assert_int_equal(r->bench.unstable_runs, 0);
	tt_trial_free(r);

	/* Unstable three times running: refused, the trial named. */
	spread(noisy, 1);
	assert_int_equal(tt_trial_run(&o, &r), TT_EFAIL);
	assert_null(r);
	assert_int_equal(runs, TT_UNSTABLE_RUNS);
	snprintf(want, sizeof(want),
		 "trial %d:1: triad's trial is unstable in 3 runs in a row (the last: the median "
		 "pass took 50%% longer than the best (more than 10%%))",
		 src);
	assert_string_equal(tt_err_msg(), want);
	assert_non_null(strstr(tt_err_hint_msg(), "--allow-unstable"));
	assert_null(strstr(tt_err_hint_msg(), "--allow-cache-resident"));

	/* --allow-unstable: one run, kept and marked. */
	o.bench.refuse_unstable = false;
	spread(noisy, 1);
	assert_int_equal(tt_trial_run(&o, &r), 0);
	assert_int_equal(runs, 1);
	assert_true(r->bench.unstable);
	assert_int_equal(r->bench.unstable_runs, 0);
	assert_non_null(strstr(r->bench.unstable_why, "took 50% longer than the best"));
	tt_trial_free(r);
	tt_test_hooks = NULL;
	tt_topo_release(&t);
}

/* Issue 44: a run whose thread barely ran is not memory's figure. The
 * median pass's least share judges it (TT_RAN_MIN, 90%), with the figures
 * in the reason; steal over the passes too, by the least its ticks may
 * have been. Exact figures. */
static void test_judge_descheduled(void **state)
{
	struct tt_bench_result *r = calloc(1, sizeof(*r));
	double tick = 1.0 / (double)sysconf(_SC_CLK_TCK);
	char text[160];

	(void)state;
	assert_non_null(r);
	r->validated = true;
	r->array_bytes = 1024 * MIB;
	r->llc.bytes = 32 * MIB;
	r->best_s = r->median_s = 1;
	/* The latency run under nice 10: 15% of a CPU, 884 switches. */
	r->ran = (struct tt_bench_ran){ .passes = 3,
					.descheduled = 3,
					.share = 0.15,
					.cpu = 0,
					.least_share = 0.14,
					.nivcsw = 884,
					.wall_s = 13.8,
					.steal_s = NAN,
					.ncpus = 1 };
	tt_bench_judge(r, 1e-9);
	assert_true(r->descheduled);
	assert_false(r->unstable); /* every pass slowed alike: the spread rule cannot see it */
	assert_string_equal(r->descheduled_why,
			    "the thread on CPU 0 ran 15% of the median pass (3 of 3 passes under "
			    "90%; 884 involuntary context switches)");
	assert_int_equal(tt_bench_judged(r), 1u << TT_JUDGED_DESCHEDULED);
	tt_judged_text(tt_bench_judged(r), text, sizeof(text));
	assert_string_equal(text, "descheduled");
	/* A quiet pass: the thread ran 97% of it. */
	r->ran.share = 0.97;
	r->ran.descheduled = 0;
	tt_bench_judge(r, 1e-9);
	assert_false(r->descheduled);
	assert_string_equal(r->descheduled_why, "");
	assert_int_equal(tt_bench_judged(r), 0);
	tt_judged_text(0, text, sizeof(text));
	assert_string_equal(text, "valid");
	/* At the bound: 90% is not under it. */
	r->ran.share = TT_RAN_MIN;
	tt_bench_judge(r, 1e-9);
	assert_false(r->descheduled);
	/* Steal: 0.3 s of 1 s on one CPU, though the thread's clock (which
	 * does not see steal without paravirtual accounting) says it ran. */
	r->ran = (struct tt_bench_ran){ .passes = 5,
					.share = 0.99,
					.least_share = 0.98,
					.wall_s = 1,
					.steal_s = 0.3,
					.ncpus = 1 };
	tt_bench_judge(r, 1e-9);
	assert_true(r->descheduled);
	assert_string_equal(r->descheduled_why,
			    "the hypervisor stole 30% of the measuring CPUs' time over the passes "
			    "(0.30 s of 1.00 s, steal in /proc/stat)");
	/* Under 10% and a tick, which could be the counter's step: not
	 * judged. */
	r->ran.steal_s = 0.095 + tick;
	tt_bench_judge(r, 1e-9);
	assert_false(r->descheduled);
	/* Nothing timed (a run before its passes): not judged. */
	memset(&r->ran, 0, sizeof(r->ran));
	tt_bench_judge(r, 1e-9);
	assert_false(r->descheduled);
	/* Every judgement, in the text's order and words. */
	r->validated = false;
	r->cache_resident = r->short_pass = r->unstable = r->descheduled = true;
	tt_judged_text(tt_bench_judged(r), text, sizeof(text));
	assert_string_equal(text,
			    "NOT VALIDATED, cache-resident, too short, descheduled, unstable");
	free(r);
}

/* The passes' slots summed: each pass starts when its first thread does
 * (a thread woken late lost that time too), its share is its least
 * thread's, and the run's is the median pass's. Exact figures. */
static void test_ran_sum(void **state)
{
	/* 3 passes of 2 threads on CPUs 4 and 5. */
	static const struct tt_ran_slot slots[] = {
		{ 10.0, 11.0, 1.0, 0 },	 { 10.0, 11.0, 0.98, 1 }, /* both ran */
		{ 20.0, 21.0, 0.95, 2 }, { 20.5, 21.0, 0.5, 3 },  /* CPU 5 woke late */
		{ 30.0, 31.0, 0.2, 40 }, { 30.0, 30.5, 0.5, 0 },  /* CPU 4 ran 20% */
	};
	static const int cpus[] = { 4, 5 };
	long hz = sysconf(_SC_CLK_TCK);
	struct tt_bench_ran ran;

	(void)state;
	tt_ran_sum(slots, 3, 2, cpus, hz / 2, &ran);
	assert_int_equal(ran.passes, 3);
	assert_int_equal(ran.descheduled, 2);
	assert_true(fabs(ran.share - 0.5) < 1e-12); /* the median: CPU 5's 0.5 of 1 s */
	assert_int_equal(ran.cpu, 5);
	assert_true(fabs(ran.least_share - 0.2) < 1e-12);
	assert_int_equal(ran.nivcsw, 46);
	assert_true(fabs(ran.wall_s - 21.0) < 1e-12);
	assert_true(fabs(ran.steal_s - 0.5) < 1e-12);
	assert_int_equal(ran.ncpus, 2);
	/* Unknown steal is NaN, not 0. */
	tt_ran_sum(slots, 1, 2, cpus, -1, &ran);
	assert_true(isnan(ran.steal_s));
	assert_true(fabs(ran.share - 0.98) < 1e-12);
}

/* Steal from /proc/stat under the root: the CPUs' eighth figure, summed;
 * a CPU without its line is unknown (-1), as is a root without the file. */
static void test_steal(void **state)
{
	char dir[] = "/tmp/tt-test-steal-XXXXXX", p[256];
	int cpus[] = { 1, 3 }, missing[] = { 1, 7 };
	struct tt_sysfs s;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(tt_sysfs_init(&s, dir), 0);
	assert_int_equal(tt_ran_steal(&s, cpus, 2), -1);
	snprintf(p, sizeof(p), "%s/proc", dir);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/proc/stat", dir);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs("cpu  100 0 50 900 1 0 2 30 0 0\n"
	      "cpu0 25 0 10 200 0 0 0 5 0 0\n"
	      "cpu1 25 0 10 200 0 0 1 7 0 0\n"
	      "cpu3 25 0 10 200 0 0 1 11 0 0\n"
	      "intr 1 2 3\n",
	      f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(tt_ran_steal(&s, cpus, 2), 18);
	assert_int_equal(tt_ran_steal(&s, missing, 2), -1);
	snprintf(p, sizeof(p), "rm -rf '%s'", dir);
	assert_int_equal(system(p), 0);
}

/* The starving seam of this test: a thread burning each measuring CPU
 * beside the measuring thread, at the same priority, so that it runs about
 * half of each pass on any host; stopped at the end of the test. */
static atomic_bool burn_stop;
static pthread_t burners[64];
static int burned[64], nburners; /* the CPU of each */

static void *burn(void *arg)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET((int)(long)arg, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	while (!atomic_load_explicit(&burn_stop, memory_order_relaxed))
		;
	return NULL;
}

static void starve(int cpu)
{
	for (int i = 0; i < nburners; i++)
		if (burned[i] == cpu)
			return;
	if (nburners < 64 && pthread_create(&burners[nburners], NULL, burn, (void *)(long)cpu) == 0)
		burned[nburners++] = cpu;
}

static const struct tt_test_hooks starve_hooks = { .measuring = starve };

/* Issue 44 through the trial layer auto, sweep and the profile call: a
 * trial whose thread is starved is descheduled (the spread rule alone
 * passed it), measured again, and refused after TT_UNSTABLE_RUNS such runs
 * with the share it ran; with refuse_unstable off (--allow-unstable) it is
 * kept, judged descheduled. A live latency run on the host's first node
 * with CPUs and memory, its CPU burned by the seam. Before: judged valid. */
static void test_descheduled_measured_again(void **state)
{
	struct tt_sysfs s;
	struct tt_topo t;
	struct tt_trial_opts o = { .bench = { .kernel = tt_kernel_find("latency"),
					      .array_bytes = 64 * MIB,
					      .repeat = 3,
					      .refuse_unstable = true } };
	struct tt_trial_result *r = NULL;
	struct tt_weights w;
	char text[160];

	(void)state;
	o.bench.source_node = live_node(&s, &t);
	o.bench.topo = &t;
	o.bench.sfs = &s;
	tt_weights_clear(&w);
	tt_weights_put(&w, o.bench.source_node, 1);
	assert_int_equal(
		tt_place_init(&o.bench.place, TT_PLACE_EXACT, &w.set, &w, o.bench.source_node), 0);
	tt_test_hooks = &starve_hooks;
	assert_int_equal(tt_trial_run(&o, &r), TT_EFAIL);
	assert_null(r);
	assert_non_null(strstr(tt_err_msg(),
			       "latency's trial is descheduled in 3 runs in a row (the last: the "
			       "thread on CPU "));
	assert_non_null(strstr(tt_err_hint_msg(), "--allow-unstable"));
	assert_non_null(strstr(tt_err_hint_msg(), "recorded as descheduled"));

	o.bench.refuse_unstable = false;
	assert_int_equal(tt_trial_run(&o, &r), 0);
	assert_true(r->bench.descheduled);
	assert_true(r->bench.validated); /* the output was right: only that */
	assert_int_equal(r->bench.ran.passes, 3);
	assert_true(r->bench.ran.share < TT_RAN_MIN);
	snprintf(text, sizeof(text), "the thread on CPU %d ran %.0f%% of the median pass",
		 r->bench.ran.cpu, r->bench.ran.share * 100);
	assert_non_null(strstr(r->bench.descheduled_why, text));
	tt_judged_text(tt_bench_judged(&r->bench), text, sizeof(text));
	assert_non_null(strstr(text, "descheduled"));
	tt_trial_free(r);
	tt_test_hooks = NULL;
	atomic_store(&burn_stop, true);
	for (int i = 0; i < nburners; i++)
		pthread_join(burners[i], NULL);
	tt_topo_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sysfs_not_index3),
		cmocka_unit_test(test_sysfs_shared_once),
		cmocka_unit_test(test_no_cache_sysfs),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_judge),
		cmocka_unit_test(test_refuse_cache),
		cmocka_unit_test(test_unstable_measured_again),
		cmocka_unit_test(test_judge_descheduled),
		cmocka_unit_test(test_ran_sum),
		cmocka_unit_test(test_steal),
		cmocka_unit_test(test_descheduled_measured_again),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
