/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The harness: allocate, place, first-touch, verify, time and validate a
 * kernel, with threads pinned to the source node's CPUs. The tuner calls
 * tt_bench_run() once per candidate weight vector; tt_bench_matrix() gives
 * the CPU-node x memory-node view the weight heuristics start from.
 *
 *	struct tt_bench_opts o = {.kernel = tt_kernel_find("triad"), ...};
 *	struct tt_bench_result r;
 *	if (tt_bench_run(&o, &r) < 0) ...
 *
 * A sequence of runs (the tuner's measurements) passes one context in
 * o.reuse, made by tt_bench_ctx_new and freed by tt_bench_ctx_free after the
 * last run: a bandwidth kernel's arrays are then mapped, placed and touched
 * once, and a run under new exact weights moves only the pages whose node
 * changes (see tt_bench_ctx_new).
 */
#ifndef TT_BENCH_RUN_H
#define TT_BENCH_RUN_H

#include "../core/topo.h"
#include "kernels.h"
#include "place.h"

#include <signal.h>
#include <stdint.h>

#define TT_MAX_DELAYS 64
/* STREAM's rules: each array at least TT_LLC_FACTOR times the last-level
 * cache, and no pass under TT_MIN_TICKS ticks of the clock. */
#define TT_LLC_FACTOR 4
#define TT_MIN_TICKS 20
/* A run is unstable when its median pass took more than TT_SPREAD_MAX
 * longer than its best (STREAM and likwid-bench print both and judge
 * neither). 10%, a bound we chose: the tuner's verdicts turn on
 * differences of a few percent (issue 34's report: -3.1%, CI -5.6..-0.5),
 * which passes spread wider than that cannot resolve. The busy host of
 * issue 34 gave a best of 5.5 GB/s and a median of 4.2 (31%). */
#define TT_SPREAD_MAX 0.10
/* A tuner's trial judged unstable is measured again, up to TT_UNSTABLE_RUNS
 * runs in all (refuse_unstable): one noisy run on a busy host should not
 * end a search of many minutes, as a trial whose written weights moved is
 * measured again up to three times (measure/policy.h); three unstable runs
 * in a row say the host, not one trial, is too busy to rank weights. */
#define TT_UNSTABLE_RUNS 3
/* A loaded-latency curve must be monotone within TT_CURVE_NOISE: no point
 * may exceed the lowest latency at a higher load (a shorter delay) by
 * more than that share, and none may be under the idle latency by more
 * than that share (more load never makes a load faster). 15%, a bound we
 * chose, wider than TT_SPREAD_MAX as a point is one mean of 0.5 s, not
 * the median of passes; issue 34's busy host gave 790-8389 ns, 10x. */
#define TT_CURVE_NOISE 0.15
/* A timed pass is descheduled when one of its measuring threads ran
 * (CLOCK_THREAD_CPUTIME_ID) under TT_RAN_MIN of the pass's wall time; a
 * run, when its median pass is (the statistic the spread rule judges), or
 * when the hypervisor stole more than 1 - TT_RAN_MIN of the measuring
 * CPUs' time over its passes (steal in /proc/stat). 90%, the spread rule's
 * bound seen from the other side: a thread off its CPU for a tenth of a
 * pass makes it up to a tenth slower, what TT_SPREAD_MAX allows between
 * passes. On issue 44's 2-CPU VM at load 12-15 (bench/README.md): latency
 * at STREAM's size ran 29-53% of its median pass without nice, 3-38% under
 * nice 10, 1-57% beside two busy loops; none near the bound, so the bound
 * rests on the spread rule's reason, not on a quiet figure from there. */
#define TT_RAN_MIN 0.90
/* The steal of cpus (/proc/stat under s's root), summed, in USER_HZ ticks;
 * -1 unknown. Read before the first timed pass and after the last: in
 * ticks of 10 ms, too coarse for one pass. App mode reads it around a
 * program's run (measure/app.c). */
int64_t tt_ran_steal(const struct tt_sysfs *s, const int *cpus, int n);
/* A pointer chase at or above this many ns per load was served from
 * memory, whatever the cache's size says: a last-level cache hit takes
 * tens of ns. A package's L3 can be the sum of slices a core does not all
 * reach (issue 34: a 64 MiB chase at 278-301 ns beside a 300 MiB L3). */
#define TT_CACHE_LAT_NS 100

/* The last-level cache the benchmark's data competes for: the highest
 * cache level that holds data, every instance once, summed (tt_bench_llc). */
struct tt_llc {
	uint64_t bytes;	  /* 0: unknown */
	int level;	  /* 2, 3, 4 */
	int count;	  /* instances summed (sysfs, hwloc), or packages (sysconf, CPUID) */
	const char *from; /* "sysfs", "sysconf/CPUID", "CPUID", "hwloc", or why none */
};

struct tt_bench_ctx;

struct tt_bench_opts {
	const struct tt_kernel *kernel;
	const struct tt_topo *topo;
	struct tt_placement place;
	/* The matrix's idle-latency runs take these pages (as place's thp and
	 * huge_shift), its bandwidth runs place's: each run binds one node, so
	 * no weight counts their pages, and MLC's latency matrix is taken on
	 * 2 MiB pages. Other runs ignore them. */
	bool matrix_lat_thp;
	int matrix_lat_huge_shift;
	int source_node;
	int threads;	     /* 0: one per CPU of the source node (of those this
			      * process may use); more is refused */
	size_t array_bytes;  /* per array; 0: STREAM's rule */
	int repeat;	     /* timed passes, after one untimed warm-up */
	uint64_t verify_max; /* pages to ask move_pages about; 0 = all */
	const struct tt_sysfs *sfs;
	/* Loaded latency: the bandwidth threads' kernel (NULL: reads), the
	 * injected delays in spin iterations per cache line (none: the
	 * default sweep), and how long each point runs. */
	const struct tt_kernel *traffic;
	uint64_t delays[TT_MAX_DELAYS];
	int ndelays;
	double point_s; /* 0: 0.5 s */
	/* Called with true just before the timed passes start and false when
	 * they end, from the thread that times them, so that collectors can
	 * keep only what was measured then. NULL: none. */
	void (*phase)(void *ctx, bool measuring);
	void *phase_ctx;
	/* Arrays kept across runs (bandwidth kernels); NULL: fresh arrays,
	 * unmapped when the run ends. Other kinds ignore it. */
	struct tt_bench_ctx *reuse;
	/* The tuner's trials: arrays under TT_LLC_FACTOR times the last-level
	 * cache or a best pass under TT_MIN_TICKS ticks are an error
	 * (TT_EINPUT) rather than a result marked below_rule or short_pass, so
	 * that cache bandwidth is never ranked as memory's. */
	bool refuse_cache;
	/* The tuner's trials: a run whose passes spread beyond TT_SPREAD_MAX
	 * (a curve beyond TT_CURVE_NOISE) is run again, up to TT_UNSTABLE_RUNS
	 * runs in all, the first steady one kept; all unstable is an error
	 * (TT_EFAIL: the host's other work, not the input) rather than a
	 * result marked unstable, so that the host's other work is never
	 * ranked as memory's. false: one run, marked unstable when it is. */
	bool refuse_unstable;
	/* Set (by a signal handler) to stop the run between passes, points or
	 * slices of the first touch: the run fails with a message saying where
	 * it stopped. NULL: never. */
	const volatile sig_atomic_t *stop;
	/* For a person waiting, from the thread that times the run, never
	 * inside a timed pass. started: the buffers are mapped and fit, before
	 * they are touched. progress: placing (n = 0, of = 0), then before pass
	 * n of of (pass 0: the warm-up) or point n of of of a curve. NULL:
	 * none. started returning < 0 ends the run with that status. */
	int (*started)(void *ctx, const struct tt_bench_result *r);
	void (*progress)(void *ctx, int n, int of);
	void *report_ctx;
	/* The first touch's bytes so far, added to by the touching threads a
	 * slice at a time, for a caller who shows it while waiting (from its
	 * own thread: progress is not called during the touch). NULL: none. */
	_Atomic uint64_t *touched_bytes;
};

struct tt_loaded_point {
	uint64_t delay;	   /* spin iterations per cache line */
	double delay_ns;   /* the same, in ns, from a calibration */
	double lat_ns;	   /* mean ns per dependent load of the latency thread */
	double bw_bytes_s; /* the bandwidth threads together */
};

/* The pages that backed a run's buffers: the page size of their mappings
 * (KernelPageSize: the base page, or hugetlbfs's), whether THP was asked
 * (madvise(MADV_HUGEPAGE)) and how many of the buffers' bytes were on huge
 * pages (AnonHugePages, Private_Hugetlb and Shared_Hugetlb of their
 * mappings in /proc/self/smaps, read after the first touch). */
struct tt_pages_got {
	size_t page_bytes;
	bool thp_asked;
	uint64_t huge_bytes, buffer_bytes;
	/* The size of each huge page among them: hugetlbfs's KernelPageSize,
	 * or the THP's (hpage_pmd_size); 0 when none was obtained. */
	size_t huge_page_size;
};

/* Whether the measuring threads ran through the timed passes (a curve's
 * points): tt_bench_judge calls a run descheduled from it. */
struct tt_bench_ran {
	int passes;	    /* timed passes (points) measured; 0: none */
	int descheduled;    /* of them, the ones a thread ran under TT_RAN_MIN of */
	double share;	    /* the median pass's least share: CPU time of its least-running
			     * thread over the pass's wall time, 0..1 */
	int cpu;	    /* that thread's CPU */
	double least_share; /* the least of any pass */
	uint64_t nivcsw;    /* involuntary context switches of the threads over the passes */
	double wall_s;	    /* from the first pass's start to the last's end */
	double steal_s;	    /* steal of the measuring CPUs over the passes; NaN: unknown */
	int ncpus;	    /* measuring CPUs */
};

struct tt_bench_result {
	size_t elements; /* per array (latency: cache lines) */
	size_t array_bytes;
	int threads; /* thread i pinned to cpus[i] */
	int ncpus;   /* CPUs of the source node this process may use */
	int cpus[TT_MAX_CPUS];
	double best_s, median_s, max_s, mean_s; /* seconds per pass */
	double bw_best_bytes_s, bw_median_bytes_s, bw_min_bytes_s, bw_mean_bytes_s;
	double lat_best_ns, lat_median_ns, lat_max_ns; /* latency: ns per load */
	uint64_t loads;				       /* latency: dependent loads per pass */
	int npoints;				       /* loaded latency */
	struct tt_loaded_point points[TT_MAX_DELAYS];
	struct tt_place_report place; /* over all arrays */
	const char *place_method;
	double place_s;			    /* placement + first touch + verification, seconds */
	double policy_s, touch_s, verify_s; /* its parts (bandwidth kernels): mmap and
					     * mbind, first touch, move_pages */
	bool validated;
	/* With o->reuse: the arrays were already placed and touched by an
	 * earlier run, and moved_pages of their pages changed node for this
	 * one; the place report is then of every page, the moved ones as
	 * move_pages left them, the others as verified before and spot-checked
	 * now. */
	bool reused;
	uint64_t moved_pages;
	char size_rule[128]; /* how the size was chosen */
	/* The last-level cache of the threads' CPUs the arrays were held to
	 * (bytes 0: unknown), and whether they were under TT_LLC_FACTOR times
	 * it: then the figures are the cache's, not the memory's (STREAM's
	 * rule). */
	struct tt_llc llc;
	/* below_rule: each array under TT_LLC_FACTOR times the cache (STREAM's
	 * rule; part of the working set may be served from cache). cache_resident:
	 * all a pass touches (touched_bytes: every array, or the chain and the
	 * traffic arrays) fits in the cache, so the figures are the cache's. */
	bool below_rule, cache_resident;
	size_t touched_bytes;
	/* The passes (or a curve's points) disagree beyond TT_SPREAD_MAX (or
	 * TT_CURVE_NOISE): why says how, for text and JSON. */
	bool unstable;
	char unstable_why[160];
	/* refuse_unstable: the runs judged unstable and measured again before
	 * this one (0..TT_UNSTABLE_RUNS - 1); TT_UNSTABLE_RUNS: all were, and
	 * the run was refused. */
	int unstable_runs;
	/* Whether the threads ran (ran); descheduled: a thread ran under
	 * TT_RAN_MIN of the median pass, or steal took more (why says how).
	 * Never valid, and refused (measured again) as unstable is. */
	struct tt_bench_ran ran;
	bool descheduled;
	char descheduled_why[200];
	/* Loaded latency: the chain alone on its CPU, traffic threads idle,
	 * before the points: the floor the curve is checked against. */
	double idle_lat_ns;
	struct tt_pages_got pages;
	/* The fastest pass took under TT_MIN_TICKS ticks of the clock
	 * (tick_s, tt_bench_tick_s): too short to time (STREAM warns under 20). */
	bool short_pass;
	double tick_s;
	const char *isa; /* instruction set of the kernel loops */
};

/* The last-level cache of the CPUs (a run's threads'; tt_bench_llc: every
 * CPU sysfs lists): from sysfs under the root, each CPU's highest cache
 * that holds data (index3 on most x86, index2 on many Arm parts, index4
 * where there is an L4), each instance once, summed; without it the C
 * library's figure (glibc asks CPUID), then CPUID, times the packages the
 * CPUs are on; then hwloc (the live system only). -1 when none is known
 * (bytes 0; from says why). */
int tt_bench_llc_of(const struct tt_sysfs *s, const int *cpus, int ncpus, struct tt_llc *out);
int tt_bench_llc(const struct tt_sysfs *s, struct tt_llc *out);
/* STREAM's rule: each array at least 4x the total last-level cache and at
 * least 1M elements; rule says which applied and where the cache's size
 * came from. */
size_t tt_bench_default_bytes(const struct tt_llc *llc, char *rule, size_t size);
/* The clock's resolution as STREAM measures it (the least step between two
 * distinct readings), seconds. */
double tt_bench_tick_s(void);
/* Sets r->below_rule and r->cache_resident from r->llc, r->array_bytes and
 * r->touched_bytes, r->short_pass from r->best_s against tick_s, r->tick_s,
 * r->unstable: a curve by tt_bench_curve_check, passes by their spread, and
 * r->descheduled from r->ran. */
void tt_bench_judge(struct tt_bench_result *r, double tick_s);
/* What a run's figures are judged, one list for every reader: bench's
 * verdict and summary, the JSON's "judged" and the record's. In the order
 * the text gives them. */
enum tt_judgement {
	TT_JUDGED_NOT_VALIDATED, /* the output was wrong */
	TT_JUDGED_CACHE_RESIDENT,
	TT_JUDGED_BELOW_RULE, /* and not cache-resident: that says more */
	TT_JUDGED_SHORT_PASS,
	TT_JUDGED_DESCHEDULED,
	TT_JUDGED_UNSTABLE,
	TT_JUDGEMENTS,
};
/* Its JSON name ("below_llc_rule") and its words ("below 4x rule"). */
const char *tt_judged_json(enum tt_judgement j);
const char *tt_judged_word(enum tt_judgement j);
/* What a run (or the matrix, or a recorded trial) was found to be. */
struct tt_judging {
	bool validated, cache_resident, below_rule, short_pass, descheduled, unstable;
};
/* The judgements v fails, a bit (1u << j) each; 0: valid. */
unsigned int tt_judged(const struct tt_judging *v);
/* The same of a run's result, and of the matrix's runs together. */
unsigned int tt_bench_judged(const struct tt_bench_result *r);
struct tt_matrix;
unsigned int tt_matrix_judged(const struct tt_matrix *m);
/* "valid", or the words of the judgements failed, ", " between. */
void tt_judged_text(unsigned int fails, char *buf, size_t size);
/* A loaded-latency curve (points in the order measured, delays ascending
 * or not) against its idle latency (0: unknown, not checked): true when it
 * is monotone within TT_CURVE_NOISE and no point is under idle by more;
 * else false with why: the points under idle, counted, before any other
 * offence (the idle point is the floor the rest is read against), else
 * the first offence by load. */
bool tt_bench_curve_check(const struct tt_loaded_point *pts, int n, double idle_ns, char *why,
			  size_t size);
/* The CPUs a run from node may use: the node's CPUs that this process's
 * affinity (sched_getaffinity: a cpuset, taskset) allows, ascending; none
 * is an error naming both sets. cpus has room for TT_MAX_CPUS. */
int tt_bench_cpus(const struct tt_topo *t, int node, int *cpus, int *n);
/* Runs o->kernel by its kind (struct tt_kind), with every thread pinned to its own CPU
 * of tt_bench_cpus() (a pin that fails fails the run, naming the CPU). */
int tt_bench_run(const struct tt_bench_opts *o, struct tt_bench_result *r);
/* tt_bench_run's checks before it maps anything: the CPUs, the threads,
 * the last-level cache and the arrays' size in r, and with refuse_cache
 * arrays the cache can hold refused; so that a tuner refuses before its
 * first trial by the rule each trial follows. */
int tt_bench_prepare(const struct tt_bench_opts *o, struct tt_bench_result *r);

/* A context for a sequence of bandwidth runs. The first run (and any run
 * whose kernel, array size, CPUs or threads differ from the last's, or
 * whose placement is not exact) maps, places, first-touches and fully
 * verifies fresh arrays, as tt_bench_run does without one. A later exact
 * run keeps them: it moves with move_pages only the pages not on the node
 * its weights want (none for the same weights), spot-checks a sample of
 * the others, skips the warm-up pass when nothing moved (the last run's
 * passes warmed the same pages), and validates a sample of the output it
 * poisoned before the passes (a full check would pass on the last run's
 * values). */
int tt_bench_ctx_new(struct tt_bench_ctx **out);
void tt_bench_ctx_free(struct tt_bench_ctx *c);

/* Bandwidth (o->kernel, reads by default) and idle latency from every node
 * with CPUs to every node with memory, each memory node bound in turn. */
struct tt_matrix {
	int ncpu, nmem;
	int *cpu_node, *mem_node; /* [ncpu], [nmem] */
	int *threads;		  /* [ncpu]: bandwidth threads of each CPU node */
	double *bw_bytes_s;	  /* [ncpu * nmem], row = CPU node */
	double *lat_ns;
	uint64_t *pages;    /* [ncpu * nmem]: pages verified on the memory node */
	size_t array_bytes; /* of the bandwidth runs */
	/* The latency runs' pages, summed over the runs (the figure pages
	 * change: a TLB miss per load on base pages), and the bandwidth
	 * runs', which keep base pages unless asked (place.c). */
	struct tt_pages_got lat_pages, bw_pages;
	/* Any of its runs (bandwidth or latency) cache-resident or too short;
	 * the largest last-level cache they were held to. */
	struct tt_llc llc;
	bool below_rule, cache_resident, short_pass, unstable, descheduled;
	char descheduled_why[200]; /* the first descheduled run's */
};
int tt_bench_matrix(const struct tt_bench_opts *tmpl, struct tt_matrix *m);
void tt_matrix_release(struct tt_matrix *m);

#endif
