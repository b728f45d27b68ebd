#define _GNU_SOURCE /* CPU_SET, pthread_setaffinity_np */
#include "run.h"

#include "../core/error.h"
#include "../core/parse.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define MIN_ELEMENTS (1u << 20)

size_t tt_bench_default_bytes(const struct tt_sysfs *s, const char **rule)
{
	char seen[64][256], list[256], size[64];
	int nseen = 0;
	uint64_t total = 0;

	/* Sum each distinct last-level cache once (index3 on x86; the highest
	 * index present elsewhere is not handled: fall back to the minimum). */
	for (int cpu = 0; cpu < TT_MAX_CPUS && nseen < 64; cpu++) {
		int dup = 0;
		uint64_t kb;

		if (!tt_sysfs_exists(s, "/sys/devices/system/cpu/cpu%d", cpu))
			break;
		if (tt_sysfs_read(s, list, sizeof(list),
				  "/sys/devices/system/cpu/cpu%d/cache/index3/shared_cpu_list", cpu) < 0 ||
		    tt_sysfs_read(s, size, sizeof(size), "/sys/devices/system/cpu/cpu%d/cache/index3/size",
				  cpu) < 0)
			continue;
		for (int i = 0; i < nseen; i++)
			dup |= strcmp(seen[i], list) == 0;
		if (dup)
			continue;
		snprintf(seen[nseen++], sizeof(seen[0]), "%s", list);
		size_t len = strlen(size);
		if (len > 1 && size[len - 1] == 'K') {
			size[len - 1] = '\0';
			if (tt_parse_u64(size, 0, UINT32_MAX, &kb) == 0)
				total += kb * 1024;
		}
	}
	if (total * 4 > (uint64_t)MIN_ELEMENTS * sizeof(double)) {
		*rule = "4x total last-level cache (STREAM's rule)";
		return total * 4;
	}
	*rule = total ? "1M elements (STREAM's minimum; larger than 4x LLC)"
		      : "1M elements (STREAM's minimum; no L3 size in sysfs)";
	return (size_t)MIN_ELEMENTS * sizeof(double);
}

struct worker {
	const struct tt_bench_opts *o;
	double *arr[3];
	size_t lo, hi;
	int cpu;
	pthread_barrier_t *bar;
	double *times; /* thread 0 records pass times */
	int index;
	struct start *start;
};

/* Threads wait here until all are created, so a failed pthread_create can
 * call the others off instead of leaving them at a barrier forever. */
struct start {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int go; /* 0 wait, 1 run, -1 stop */
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	const struct tt_kernel *k = w->o->kernel;
	cpu_set_t set;

	pthread_mutex_lock(&w->start->mu);
	while (!w->start->go)
		pthread_cond_wait(&w->start->cv, &w->start->mu);
	pthread_mutex_unlock(&w->start->mu);
	if (w->start->go < 0)
		return NULL;
	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	/* First touch from the thread that will use the chunk (local placement
	 * depends on it; the other modes were placed by policy). */
	tt_kernel_init(w->arr[0], w->arr[1], w->arr[2], w->lo, w->hi);
	pthread_barrier_wait(w->bar); /* all touched */
	pthread_barrier_wait(w->bar); /* verified by the caller */
	for (int pass = 0; pass <= w->o->repeat; pass++) {
		double t0 = 0;

		pthread_barrier_wait(w->bar);
		if (w->index == 0)
			t0 = now();
		k->run(w->arr[0], w->arr[1], w->arr[2], w->lo, w->hi);
		pthread_barrier_wait(w->bar);
		if (w->index == 0)
			w->times[pass] = now() - t0;
	}
	return NULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int check_memory(const struct tt_bench_opts *o, double *arr[3], size_t bytes)
{
	uint64_t need[TT_MAX_NODES] = {0};

	for (int i = 0; i < o->kernel->arrays; i++)
		tt_place_plan(&o->place, (uintptr_t)arr[i], bytes, need);
	for (int node = 0; node < TT_MAX_NODES; node++) {
		const struct tt_node *n;
		uint64_t want = need[node] << TT_PAGE_SHIFT;

		if (!need[node] || !(n = tt_topo_node(o->topo, node)))
			continue;
		if (want > n->mem_free_bytes)
			return tt_err(TT_EUNAVAIL, "node %d has %.2f GiB free and the buffers need %.2f "
						   "GiB there", node,
				      (double)n->mem_free_bytes / (1 << 30), (double)want / (1 << 30));
	}
	return 0;
}

int tt_bench_run(const struct tt_bench_opts *o, struct tt_bench_result *r)
{
	const struct tt_node *src = tt_topo_node(o->topo, o->source_node);
	const struct tt_kernel *k = o->kernel;
	double *arr[3] = {NULL, NULL, NULL}, *times = NULL;
	struct worker *w = NULL;
	pthread_t *tid = NULL;
	pthread_barrier_t bar;
	struct start start = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};
	int nt, rc = 0, started = 0;
	size_t bytes, n;

	memset(r, 0, sizeof(*r));
	if (!src || src->ncpus == 0)
		return tt_err(TT_EINPUT, "source node %d has no CPUs to run on", o->source_node);
	nt = o->threads ? o->threads : src->ncpus;
	bytes = o->array_bytes ? o->array_bytes : tt_bench_default_bytes(o->sfs, &r->size_rule);
	if (o->array_bytes)
		r->size_rule = "--size";
	/* Whole pages, and chunks of 8 elements (one cache line) per thread. */
	bytes = (bytes + 4095) & ~(size_t)4095;
	n = bytes / sizeof(double);
	r->elements = n;
	r->array_bytes = bytes;
	r->threads = nt;
	for (int i = 0; i < k->arrays; i++) {
		void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED) {
			rc = tt_err_sys(TT_EUNAVAIL, errno, "cannot map %zu bytes", bytes);
			goto out;
		}
		arr[i] = p;
	}
	rc = check_memory(o, arr, bytes);
	if (rc < 0)
		goto out;
	double t0 = now();
	for (int i = 0; i < k->arrays; i++) {
		rc = tt_place_apply(&o->place, arr[i], bytes, &r->place_method);
		if (rc < 0)
			goto out;
	}
	times = calloc((size_t)o->repeat + 1, sizeof(*times));
	w = calloc((size_t)nt, sizeof(*w));
	tid = calloc((size_t)nt, sizeof(*tid));
	if (!times || !w || !tid) {
		rc = tt_err(TT_EFAIL, "out of memory");
		goto out;
	}
	size_t chunk = (n / (size_t)nt + 7) & ~(size_t)7;
	for (int t = 0; t < nt; t++) {
		size_t lo = (size_t)t * chunk, hi = lo + chunk;

		w[t] = (struct worker){.o = o, .arr = {arr[0], arr[1], arr[2]},
				       .lo = lo < n ? lo : n, .hi = hi < n ? hi : n,
				       .cpu = src->cpus[t % src->ncpus], .bar = &bar, .times = times,
				       .index = t, .start = &start};
		if (pthread_create(&tid[t], NULL, work, &w[t]) != 0)
			break;
		started++;
	}
	pthread_mutex_lock(&start.mu);
	start.go = started == nt ? 1 : -1;
	if (started == nt)
		pthread_barrier_init(&bar, NULL, (unsigned int)nt + 1);
	pthread_cond_broadcast(&start.cv);
	pthread_mutex_unlock(&start.mu);
	if (started < nt) {
		for (int t = 0; t < started; t++)
			pthread_join(tid[t], NULL);
		rc = tt_err(TT_EFAIL, "cannot start benchmark thread %d of %d", started + 1, nt);
		goto out;
	}
	pthread_barrier_wait(&bar); /* touched */
	struct tt_place_report rep;
	int vrc = 0;
	memset(&r->place, 0, sizeof(r->place));
	for (int i = 0; i < k->arrays && vrc == 0; i++) {
		/* Split the page budget over the arrays; never 0, which means "all". */
		uint64_t budget = o->verify_max / (uint64_t)k->arrays;

		vrc = tt_place_verify(&o->place, arr[i], bytes,
				      o->verify_max ? (budget ? budget : 1) : 0, &rep);
		r->place.pages += rep.pages;
		r->place.checked += rep.checked;
		r->place.misplaced += rep.misplaced;
		r->place.unknown += rep.unknown;
		for (int node = 0; node < TT_MAX_NODES; node++) {
			r->place.want[node] += rep.want[node];
			r->place.got[node] += rep.got[node];
		}
	}
	r->place_s = now() - t0;
	pthread_barrier_wait(&bar); /* verified: the passes start */
	for (int pass = 0; pass <= o->repeat; pass++) {
		pthread_barrier_wait(&bar);
		pthread_barrier_wait(&bar);
	}
	for (int t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	pthread_barrier_destroy(&bar);
	if (vrc < 0) {
		rc = vrc;
		goto out;
	}
	r->validated = true;
	for (size_t i = 0; i < n; i++)
		if (arr[k->out_array][i] != k->expect) {
			r->validated = false;
			rc = tt_err(TT_EFAIL, "%s failed validation: element %zu is %g, want %g", k->name, i,
				    arr[k->out_array][i], k->expect);
			goto out;
		}
	/* The first pass warms caches and TLBs and is not counted (STREAM). */
	qsort(times + 1, (size_t)o->repeat, sizeof(*times), cmp_double);
	r->best_s = times[1];
	r->max_s = times[o->repeat];
	r->median_s = o->repeat % 2 ? times[1 + o->repeat / 2]
				    : (times[o->repeat / 2] + times[1 + o->repeat / 2]) / 2;
	double moved = (double)n * (k->read_bytes + k->write_bytes);
	r->bw_best_bytes_s = moved / r->best_s;
	r->bw_median_bytes_s = moved / r->median_s;
	r->bw_min_bytes_s = moved / r->max_s;
out:
	for (int i = 0; i < 3; i++)
		if (arr[i])
			munmap(arr[i], bytes);
	free(times);
	free(w);
	free(tid);
	return rc;
}
