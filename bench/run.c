// SPDX-License-Identifier: GPL-3.0-or-later
#define _GNU_SOURCE /* CPU_SET, pthread_setaffinity_np */
#include "harness.h"

#include "../core/deadline.h"
#include "../core/error.h"
#include "../core/mpol.h"
#include "../core/parse.h"
#include "../core/test-hooks.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

int tt_bench_started(const struct tt_bench_opts *o, const struct tt_bench_result *r)
{
	int rc = o->started ? o->started(o->report_ctx, r) : 0;

	if (rc == 0)
		tt_bench_progress(o, 0, 0);
	return rc;
}

void tt_bench_progress(const struct tt_bench_opts *o, int n, int of)
{
	if (o->progress)
		o->progress(o->report_ctx, n, of);
}

int tt_bench_cpus(const struct tt_topo *t, int node, int *cpus, int *n)
{
	const struct tt_node *nd = tt_topo_node(t, node);
	size_t size = CPU_ALLOC_SIZE(TT_MAX_CPUS);
	cpu_set_t *allowed;
	uint64_t have[TT_MAX_CPUS / 64] = { 0 }, may[TT_MAX_CPUS / 64] = { 0 };
	char hs[512], ms[512];

	*n = 0;
	if (!nd || nd->ncpus == 0)
		return tt_err(TT_EINPUT, "source node %d has no CPUs to run on", node);
	allowed = CPU_ALLOC(TT_MAX_CPUS);
	if (!allowed)
		return tt_err(TT_EFAIL, "out of memory");
	/* The process's allowed set, as a cpuset or taskset leaves it: a
	 * pin outside it fails (EINVAL), and a thread left unpinned would run
	 * where the scheduler puts it, maybe on another node. */
	if (sched_getaffinity(0, size, allowed) < 0) {
		int err = errno;

		CPU_FREE(allowed);
		return tt_err_sys(TT_EFAIL, err, "cannot read the CPUs this process may run on");
	}
	for (int cpu = 0; cpu < TT_MAX_CPUS; cpu++)
		if (CPU_ISSET_S((size_t)cpu, size, allowed))
			tt_bit_set(may, (unsigned int)cpu);
	CPU_FREE(allowed);
	for (int i = 0; i < nd->ncpus; i++) {
		int cpu = nd->cpus[i];

		if (cpu < 0 || cpu >= TT_MAX_CPUS)
			continue;
		tt_bit_set(have, (unsigned int)cpu);
		if (tt_bit_test(may, (unsigned int)cpu))
			cpus[(*n)++] = cpu;
	}
	if (*n)
		return 0;
	tt_bit_format_list(have, TT_MAX_CPUS, hs, sizeof(hs));
	tt_bit_format_list(may, TT_MAX_CPUS, ms, sizeof(ms));
	tt_err(TT_EUNAVAIL,
	       "node %d has CPUs %s, and this process may run on none of them (its "
	       "allowed CPUs: %s)",
	       node, hs, ms);
	tt_err_hint("a cpuset or taskset limits this process: run it where node %d's CPUs are "
		    "allowed, or measure from another --source-node",
		    node);
	return TT_EUNAVAIL;
}

size_t tt_bench_size(const struct tt_bench_opts *o, struct tt_bench_result *r)
{
	size_t bytes = o->array_bytes ? o->array_bytes
				      : tt_bench_default_bytes(&r->llc, r->size_rule,
							       sizeof(r->size_rule));

	/* STREAM's rule is a floor: on hugetlbfs pages, up to a whole page. */
	size_t unit =
		o->place.huge_shift && !o->array_bytes ? (size_t)1 << o->place.huge_shift : 4096;

	if (o->array_bytes)
		snprintf(r->size_rule, sizeof(r->size_rule), "--size");
	return (bytes + unit - 1) & ~(unit - 1);
}

/* Output elements a reused run poisons and checks: enough to catch a pass
 * that skipped part of its chunk, few enough to cost microseconds. */
#define SPOT_ELEMENTS 1024

struct worker {
	const struct tt_bench_opts *o;
	double *arr[TT_K_MAX_ARRAYS];
	size_t lo, hi;
	int cpu;
	pthread_barrier_t *bar;
	double *times; /* thread 0 records pass times */
	double sum;    /* of the last pass, for read-only kernels */
	int index, nt;
	struct tt_ran_slot *ran; /* [pass * nt + index]: whether each thread ran */
	struct tt_bench_gate *gate;
	int pin_err;		/* errno of a failed pin, 0 when pinned */
	const bool *called_off; /* set by the caller between the barriers */
	bool touch;		/* the arrays are fresh: first-touch the chunk */
	int first_pass;		/* 0: a warm-up pass first; 1: none */
};

bool tt_bench_gate_wait(struct tt_bench_gate *g)
{
	pthread_mutex_lock(&g->mu);
	while (!g->go)
		pthread_cond_wait(&g->cv, &g->mu);
	pthread_mutex_unlock(&g->mu);
	return g->go > 0;
}

void tt_bench_gate_open(struct tt_bench_gate *g, bool run)
{
	pthread_mutex_lock(&g->mu);
	g->go = run ? 1 : -1;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
}

static void *work(void *arg)
{
	struct worker *w = arg;
	const struct tt_kernel *k = w->o->kernel;
	double **v = w->arr;

	if (!tt_bench_gate_wait(w->gate))
		return NULL;
	w->pin_err = tt_bench_pin(w->cpu);
	/* First touch from the thread that will use the chunk (local placement
	 * depends on it; the other modes were placed by policy). */
	if (!w->pin_err && w->touch)
		tt_bench_touch(w->o, w->arr, w->lo, w->hi);
	pthread_barrier_wait(w->bar); /* all touched */
	pthread_barrier_wait(w->bar); /* verified by the caller */
	if (*w->called_off)
		return NULL;
	tt_ran_measuring(w->cpu);
	for (int pass = w->first_pass; pass <= w->o->repeat; pass++) {
		struct tt_ran_slot *ran = &w->ran[pass * w->nt + w->index];
		double t0 = 0;

		pthread_barrier_wait(w->bar);
		if (*w->called_off)
			break; /* stopped by a signal */
		tt_ran_begin(ran);
		if (w->index == 0)
			t0 = tt_mono_s();
		w->sum = k->run(v[0], v[1], v[2], v[3], w->lo, w->hi);
		tt_ran_end(ran);
		pthread_barrier_wait(w->bar);
		if (w->index == 0)
			w->times[pass] = tt_mono_s() - t0;
	}
	return NULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void tt_bench_summarise(double *times, int repeat, struct tt_bench_result *r)
{
	double sum = 0;

	/* The first pass warms caches and TLBs and is not counted (STREAM). */
	for (int i = 1; i <= repeat; i++)
		sum += times[i];
	r->mean_s = sum / repeat;
	qsort(times + 1, (size_t)repeat, sizeof(*times), cmp_double);
	r->best_s = times[1];
	r->max_s = times[repeat];
	r->median_s = repeat % 2 ? times[1 + repeat / 2]
				 : (times[repeat / 2] + times[1 + repeat / 2]) / 2;
}

/* Output elements a reused run poisons and checks: each thread's first and
 * last, and a spread (shifted each run). at has room for 2 * nt +
 * SPOT_ELEMENTS. */
static size_t spot_elements(const struct tt_bench_ctx *c, size_t n, const struct worker *w, int nt,
			    size_t *at)
{
	size_t k = 0, step = n / SPOT_ELEMENTS ? n / SPOT_ELEMENTS : 1;
	size_t off = (size_t)c->runs * 131 % step;

	for (int t = 0; t < nt; t++)
		if (w[t].lo < w[t].hi) {
			at[k++] = w[t].lo;
			at[k++] = w[t].hi - 1;
		}
	for (size_t j = 0; j < SPOT_ELEMENTS && j * step + off < n; j++)
		at[k++] = j * step + off;
	return k;
}

/* The arrays placed for this run: kept in place (settled under the same
 * placement: every page was where it should be, and the spot check will
 * say if one has gone since), moved, built in the context, or fresh. */
static int stream_place(const struct tt_bench_opts *o, struct tt_bench_result *r,
			struct tt_bench_ctx *c, struct tt_bench_bufs *b, double t0)
{
	int rc;

	if (r->reused && c->settled && tt_place_same(&c->place, &o->place))
		rc = 0;
	else if (r->reused)
		rc = tt_bench_ctx_move(c, &o->place, &r->moved_pages);
	else if (c)
		rc = tt_bench_ctx_build(c, o, r, r->array_bytes);
	else
		rc = tt_bench_bufs_map(o, b, o->kernel->arrays, r->array_bytes, &r->place_method);
	if (rc == 0)
		rc = tt_bench_started(o, r);
	if (rc < 0)
		return rc;
	if (c)
		r->place_method = c->method;
	r->policy_s = tt_mono_s() - t0;
	return 0;
}

/* Starts the workers behind the gate; all of them or none run. */
static int stream_start(struct worker *w, pthread_t *tid, int nt, pthread_barrier_t *bar,
			struct tt_bench_gate *gate, int *started)
{
	for (int t = 0; t < nt; t++) {
		if (pthread_create(&tid[t], NULL, work, &w[t]) != 0)
			break;
		(*started)++;
	}
	if (*started == nt)
		pthread_barrier_init(bar, NULL, (unsigned int)nt + 1);
	tt_bench_gate_open(gate, *started == nt);
	if (*started == nt)
		return 0;
	for (int t = 0; t < *started; t++)
		pthread_join(tid[t], NULL);
	return tt_err(TT_EFAIL, "cannot start benchmark thread %d of %d", *started + 1, nt);
}

/* Once every chunk is touched: a thread that could not be pinned or a
 * signal calls the run off; else the placement is verified. Timed. */
static int stream_settle(const struct tt_bench_opts *o, struct tt_bench_result *r,
			 struct tt_bench_ctx *c, const struct tt_bench_bufs *b,
			 const struct worker *w, bool *called_off, double t0)
{
	int vrc = 0;

	for (int t = 0; t < r->threads && !*called_off; t++)
		if (w[t].pin_err) {
			vrc = tt_err_sys(TT_EFAIL, w[t].pin_err,
					 "cannot pin benchmark thread %d to "
					 "CPU %d",
					 t, w[t].cpu);
			*called_off = true;
		}
	if (!*called_off && tt_bench_stop_asked(o)) {
		vrc = tt_bench_stopped(o, NULL, 0, 0);
		*called_off = true;
	}
	double t1 = tt_mono_s();
	if (!*called_off)
		vrc = c ? tt_bench_ctx_verify(c, &o->place, !r->reused, &r->place)
			: tt_bench_bufs_verify(o, b, &r->place);
	if (vrc == 0 && !*called_off)
		tt_bench_bufs_huge(c ? &c->b : b, NULL, r);
	r->place_s = tt_mono_s() - t0;
	r->verify_s = tt_mono_s() - t1;
	r->touch_s = r->place_s - r->policy_s - r->verify_s;
	return vrc;
}

/* The passes, paced from here: the workers wait at the barrier for this
 * thread between them, outside the timed region, where it reads the
 * steal of their CPUs before the first timed pass and after the last. */
static int stream_passes(const struct tt_bench_opts *o, const struct tt_bench_result *r,
			 int first_pass, pthread_barrier_t *bar, bool *called_off, int64_t *steal)
{
	bool measuring = false;
	int64_t steal0 = -1;
	int vrc = 0;

	for (int pass = first_pass; pass <= o->repeat && !*called_off; pass++) {
		if (tt_bench_stop_asked(o)) {
			vrc = tt_bench_stopped(o, "pass", pass, o->repeat);
			*called_off = true;
			pthread_barrier_wait(bar);
			break;
		}
		/* The warm-up pass is not measured, by collectors either. */
		if (pass == 1 && o->phase) {
			o->phase(o->phase_ctx, true);
			measuring = true;
		}
		tt_bench_progress(o, pass, o->repeat);
		if (pass == 1)
			steal0 = tt_ran_steal(o->sfs, r->cpus, r->threads);
		pthread_barrier_wait(bar);
		pthread_barrier_wait(bar);
	}
	int64_t steal1 = steal0 < 0 ? -1 : tt_ran_steal(o->sfs, r->cpus, r->threads);

	*steal = steal1 < 0 ? -1 : steal1 - steal0;
	if (o->phase && measuring)
		o->phase(o->phase_ctx, false);
	return vrc;
}

/* The kernel's output checked: the poisoned sample of a reused run, every
 * element of a fresh one, or the sum a read-only kernel returned. */
static int stream_validate(const struct tt_kernel *k, const struct tt_bench_bufs *b, size_t n,
			   const struct worker *w, int nt, const size_t *spot, size_t nspot,
			   bool reused)
{
	if (k->out_array >= 0 && reused) {
		const double *out = b->arr[k->out_array];

		for (size_t i = 0; i < nspot; i++)
			if (out[spot[i]] != k->expect)
				return tt_err(TT_EFAIL,
					      "%s failed validation: element %zu is %g, want %g",
					      k->name, spot[i], out[spot[i]], k->expect);
		return 0;
	}
	if (k->out_array >= 0)
		return tt_bench_validate(k, b, n);
	double sum = 0;

	for (int t = 0; t < nt; t++)
		sum += w[t].sum;
	/* Sums of 1.0 are exact in a double up to 2^53 elements. */
	if (sum != (double)n * k->expect)
		return tt_err(TT_EFAIL, "%s failed validation: read a sum of %.17g, want %.17g",
			      k->name, sum, (double)n * k->expect);
	return 0;
}

/* Each thread's chunk: whole cache lines (8 doubles). */
static void stream_workers(const struct tt_bench_opts *o, const struct tt_bench_result *r,
			   const struct tt_bench_bufs *b, struct worker *w, pthread_barrier_t *bar,
			   struct tt_bench_gate *gate, double *times, struct tt_ran_slot *ran,
			   const bool *called_off)
{
	size_t n = r->elements, chunk = (n / (size_t)r->threads + 7) & ~(size_t)7;

	for (int t = 0; t < r->threads; t++) {
		size_t lo = (size_t)t * chunk, hi = lo + chunk;

		w[t] = (struct worker){ .o = o,
					.lo = lo < n ? lo : n,
					.hi = hi < n ? hi : n,
					.cpu = r->cpus[t],
					.bar = bar,
					.times = times,
					.index = t,
					.nt = r->threads,
					.ran = ran,
					.gate = gate,
					.called_off = called_off,
					.touch = !r->reused,
					/* Pages that stayed put were warmed by
					 * the last run's passes. */
					.first_pass = r->reused && !r->moved_pages };
		memcpy(w[t].arr, b->arr, sizeof(b->arr));
	}
}

int tt_bench_stream(const struct tt_bench_opts *o, struct tt_bench_result *r)
{
	const struct tt_kernel *k = o->kernel;
	struct tt_bench_ctx *c = o->reuse;
	struct tt_bench_bufs fresh = { 0 }, *b = c ? &c->b : &fresh;
	double *times = NULL;
	struct tt_ran_slot *ran = NULL;
	int64_t steal = -1;
	struct worker *w = NULL;
	pthread_t *tid = NULL;
	size_t *spot = NULL, nspot = 0;
	pthread_barrier_t bar;
	struct tt_bench_gate gate = TT_BENCH_GATE_INIT;
	int nt = r->threads, rc, started = 0;
	size_t n = r->array_bytes / sizeof(double);
	bool called_off = false; /* a thread could not be pinned, or a signal */

	r->elements = n;
	r->reused = c && tt_bench_ctx_fits(c, o, r, r->array_bytes);
	double t0 = tt_mono_s();
	rc = stream_place(o, r, c, b, t0);
	if (rc < 0)
		goto out;
	times = calloc((size_t)o->repeat + 1, sizeof(*times));
	ran = calloc(((size_t)o->repeat + 1) * (size_t)nt, sizeof(*ran));
	w = calloc((size_t)nt, sizeof(*w));
	tid = calloc((size_t)nt, sizeof(*tid));
	spot = r->reused ? calloc(2 * (size_t)nt + SPOT_ELEMENTS, sizeof(*spot)) : NULL;
	if (!times || !ran || !w || !tid || (r->reused && !spot)) {
		rc = tt_err(TT_EFAIL, "out of memory");
		goto out;
	}
	stream_workers(o, r, b, w, &bar, &gate, times, ran, &called_off);
	/* The last run left the right values everywhere: poison a sample of
	 * the output so that its check shows this run wrote them. */
	if (r->reused && k->out_array >= 0) {
		nspot = spot_elements(c, n, w, nt, spot);
		for (size_t i = 0; i < nspot; i++)
			b->arr[k->out_array][spot[i]] = NAN;
	}
	if ((rc = stream_start(w, tid, nt, &bar, &gate, &started)) < 0)
		goto out;
	pthread_barrier_wait(&bar); /* touched */
	int vrc = stream_settle(o, r, c, b, w, &called_off, t0);

	pthread_barrier_wait(&bar); /* verified: the passes start */
	int prc = stream_passes(o, r, w[0].first_pass, &bar, &called_off, &steal);

	if (prc < 0)
		vrc = prc;
	for (int t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	pthread_barrier_destroy(&bar);
	if (vrc < 0 || (vrc = stream_validate(k, b, n, w, nt, spot, nspot, r->reused)) < 0) {
		rc = vrc;
		goto out;
	}
	r->validated = true;
	tt_bench_summarise(times, o->repeat, r);
	tt_ran_sum(ran + nt, o->repeat, nt, r->cpus, steal, &r->ran);
	double moved = (double)n * (k->read_bytes + k->write_bytes);
	r->bw_best_bytes_s = moved / r->best_s;
	r->bw_median_bytes_s = moved / r->median_s;
	r->bw_mean_bytes_s = moved / r->mean_s;
	r->bw_min_bytes_s = moved / r->max_s;
out:
	if (!c)
		tt_bench_bufs_unmap(b);
	else if (rc < 0)
		tt_bench_ctx_drop(c); /* whatever state it is in, the next run starts afresh */
	if (c && rc == 0) {
		c->runs++;
		c->settled = true;
		c->place = o->place;
		c->rep = r->place;
	}
	free(times);
	free(ran);
	free(w);
	free(tid);
	free(spot);
	return rc;
}

#define MIB(b) ((double)(b) / (1 << 20))

/* A tuner's trial that would measure the cache or time nothing: below
 * STREAM's rule or too short. */
static int refuse_cache(const struct tt_bench_opts *o, const struct tt_bench_result *r)
{
	int rc;

	if (r->below_rule) {
		rc = tt_err(TT_EINPUT,
			    "%s's %.1f MiB %s are below STREAM's 4x rule: under %dx the last-level "
			    "cache of its CPUs (L%d, %.1f MiB, from %s)%s",
			    o->kernel->name, MIB(r->array_bytes), o->kernel->kind->buffers,
			    TT_LLC_FACTOR, r->llc.level, MIB(r->llc.bytes), r->llc.from,
			    r->cache_resident ? "; all a pass touches fits there: the trial would "
						"measure the cache, not memory"
					      : "; part of each pass may be served from it");
		tt_err_hint("give --size %.0fM or more (or leave it out: STREAM's rule), or "
			    "--allow-cache-resident to search such figures knowingly",
			    ceil(MIB(TT_LLC_FACTOR * r->llc.bytes)));
		return rc;
	}
	rc = tt_err(TT_EINPUT,
		    "%s's fastest pass took %.1f us, under %d ticks of the clock (%.0f ns each): "
		    "too short to time",
		    o->kernel->name, r->best_s * 1e6, TT_MIN_TICKS, r->tick_s * 1e9);
	tt_err_hint("give a larger --size, or --allow-cache-resident to use such trials anyway");
	return rc;
}

/* A tuner's trial unstable or descheduled TT_UNSTABLE_RUNS times running:
 * the host's other work would be ranked as memory's. Named by the last
 * run's judgement, descheduled first: the cause, where passes that spread
 * are its effect. */
static int refuse_unstable(const struct tt_bench_opts *o, const struct tt_bench_result *r)
{
	const char *word = r->descheduled ? "descheduled" : "unstable";
	int rc = tt_err(TT_EFAIL, "%s's trial is %s in %d runs in a row (the last: %s)",
			o->kernel->name, word, r->unstable_runs,
			r->descheduled ? r->descheduled_why : r->unstable_why);

	tt_err_hint("other work shares these CPUs or memory: run when the host is quieter, "
		    "or give --allow-unstable to search such trials knowingly (each is "
		    "recorded as %s)",
		    word);
	return rc;
}

int tt_bench_prepare(const struct tt_bench_opts *o, struct tt_bench_result *r)
{
	char list[512];
	uint64_t bits[TT_MAX_CPUS / 64] = { 0 };
	int rc;

	memset(r, 0, sizeof(*r));
	rc = tt_bench_cpus(o->topo, o->source_node, r->cpus, &r->ncpus);
	if (rc < 0)
		return rc;
	for (int i = 0; i < r->ncpus; i++)
		tt_bit_set(bits, (unsigned int)r->cpus[i]);
	tt_bit_format_list(bits, TT_MAX_CPUS, list, sizeof(list));
	/* A thread per CPU at most: two on one CPU take turns, and the
	 * figure would be of the time slicing, not of the memory. */
	if (o->threads > r->ncpus)
		return tt_err(TT_EINPUT,
			      "%d threads are more than the %d CPU%s of node %d that this "
			      "process may run on (%s)",
			      o->threads, r->ncpus, r->ncpus == 1 ? "" : "s", o->source_node, list);
	if (o->kernel->kind->one_thread && o->threads > 1)
		return tt_err(TT_EINPUT,
			      "kernel %s runs one thread (one chain of dependent loads), "
			      "not %d",
			      o->kernel->name, o->threads);
	r->threads = o->kernel->kind->one_thread ? 1 : o->threads ? o->threads : r->ncpus;
	rc = tt_kernel_isa(&r->isa);
	if (rc < 0)
		return rc;
	/* The cache of the CPUs the threads run on: on a two-socket machine a
	 * run from one socket has its LLC alone. */
	tt_bench_llc_of(o->sfs, r->cpus, r->threads, &r->llc);
	r->array_bytes = tt_bench_size(o, r);
	/* What a pass touches: its arrays, or the chain and the traffic's. */
	const struct tt_kernel *traffic =
		o->kernel->kind->curve ? (o->traffic ? o->traffic : &tt_k_reads) : NULL;
	r->touched_bytes =
		r->array_bytes * (size_t)(o->kernel->arrays + (traffic ? traffic->arrays : 0));
	r->pages.thp_asked = o->place.thp;
	tt_bench_judge(r, tt_bench_tick_s());
	return o->refuse_cache && r->below_rule ? refuse_cache(o, r) : 0;
}

/* The passes as timed, for a test: the median pass set to the best times
 * the test seam's spread, and the share its threads ran set to the seam's
 * (core/test-hooks.h), so that a test makes the spread a busy host makes,
 * or none on a host that made one, and the same of descheduling. */
static void test_spread(struct tt_bench_result *r)
{
	double f = tt_test_hooks && tt_test_hooks->pass_spread ? tt_test_hooks->pass_spread() : 0;
	double share = tt_test_hooks && tt_test_hooks->ran_share ? tt_test_hooks->ran_share() : 0;

	if (f >= 1 && r->best_s > 0) {
		r->median_s = r->best_s * f;
		r->bw_median_bytes_s = r->bw_best_bytes_s / f;
	}
	if (share > 0 && r->ran.passes) {
		r->ran.share = share;
		r->ran.descheduled = share < TT_RAN_MIN ? r->ran.passes : 0;
		r->ran.steal_s = 0;
	}
}

int tt_bench_run(const struct tt_bench_opts *o, struct tt_bench_result *r)
{
	int rc, again = 0;

	/* An unstable or descheduled run measured again from the start
	 * (prepare included: it clears the result); with o->reuse the arrays
	 * stay placed, so a run again moves no page and skips the warm-up.
	 * Descheduled goes with unstable, one --allow-unstable for both: each
	 * says the host's other work is in the figures, and a person who
	 * searches a busy host knowingly means both. */
	for (;;) {
		rc = tt_bench_prepare(o, r);
		if (rc < 0)
			return rc;
		r->unstable_runs = again;
		rc = o->kernel->kind->run(o, r);
		if (rc < 0)
			return rc;
		test_spread(r);
		tt_bench_judge(r, r->tick_s);
		if (o->refuse_cache && r->short_pass)
			return refuse_cache(o, r);
		if (!o->refuse_unstable || !(r->unstable || r->descheduled))
			return 0;
		if (++again == TT_UNSTABLE_RUNS) {
			r->unstable_runs = again;
			return refuse_unstable(o, r);
		}
	}
}
