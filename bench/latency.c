// SPDX-License-Identifier: GPL-3.0-or-later
/* Latency: a pointer chase over a random cyclic permutation of cache lines,
 * alone (idle latency) or beside bandwidth threads with an injected delay
 * (loaded latency, MLC's --loaded_latency), and the CPU-node x memory-node
 * matrix. */
#define _GNU_SOURCE
#include "harness.h"

#include "../core/deadline.h"
#include "../core/error.h"

#include <pthread.h>
#include <stdio.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LINE 64
/* Loads per timed pass: enough to average over many pages, short enough
 * that a pass takes well under a second at DRAM or CXL latency. A pass
 * resumes where the last one stopped, so the passes walk the whole cycle. */
#define PASS_LOADS ((uint64_t)1 << 22)
#define BATCH 4096 /* loaded latency: loads between looks at the stop flag */

/* MLC's default sweep (v3.5 output), in our spin iterations per line. */
static const uint64_t default_delays[] = { 0,	2,    8,    15,	  50,	100,  200,  300,  400,	500,
					   700, 1000, 1300, 1700, 2500, 3500, 5000, 9000, 20000 };

const struct tt_kernel tt_k_latency = {
	.name = "latency",
	.kind = &tt_kind_latency,
	.summary = "idle latency: one thread chasing pointers over randomly linked cache lines",
	.mlc = "--idle_latency -r",
	.arrays = 1
};
const struct tt_kernel tt_k_loaded_latency = {
	.name = "loaded-latency",
	.kind = &tt_kind_loaded,
	.summary = "latency thread beside bandwidth threads with injected delays (--delays)",
	.mlc = "--loaded_latency -r",
	.arrays = 1
};

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
	return z ^ (z >> 31);
}

/* Links every line of buf into one cycle in random order (Sattolo's
 * algorithm: a uniformly random permutation with a single cycle, so the
 * chase visits every line and no prefetcher can guess the next one). The
 * identity pass also makes the first touch, in address order. */
static void **build_chain(const struct tt_bench_opts *o, char *buf, size_t lines)
{
	uint64_t seed = 0x7469657274756e65; /* fixed: runs are comparable */

	/* The first touch of gigabytes takes minutes where this pinned thread
	 * shares its CPU (seen: 2 GiB, over 4 minutes at load 25, and a ^C
	 * unanswered all along, t0004): stop on a signal, every 8 MiB. */
	for (size_t i = 0; i < lines; i++) {
		if (i % ((8u << 20) / LINE) == 0 && tt_bench_stop_asked(o))
			return NULL;
		*(size_t *)(buf + i * LINE) = i;
	}
	for (size_t i = lines - 1; i > 0; i--) {
		/* Seconds for gigabytes (a cache miss a swap): stop on a signal. */
		if (i % (1u << 20) == 0 && tt_bench_stop_asked(o))
			return NULL;
		size_t j = (size_t)(splitmix(&seed) % i);
		size_t *a = (size_t *)(buf + i * LINE), *b = (size_t *)(buf + j * LINE), t = *a;

		*a = *b;
		*b = t;
	}
	for (size_t i = 0; i < lines; i++) {
		if (i % ((8u << 20) / LINE) == 0 && tt_bench_stop_asked(o))
			return NULL;
		size_t next = *(size_t *)(buf + i * LINE);

		*(void **)(buf + i * LINE) = buf + next * LINE;
	}
	return (void **)buf;
}

static void **chase(void **p, uint64_t loads)
{
	for (uint64_t i = 0; i < loads; i += 8) {
		p = *p;
		p = *p;
		p = *p;
		p = *p;
		p = *p;
		p = *p;
		p = *p;
		p = *p;
	}
	return p;
}

/* The chain is a single cycle: following it lines times returns to the
 * start, and any broken link would have faulted or cut it short. */
static int check_chain(void **start, size_t lines)
{
	void **p = start;

	for (size_t i = 0; i < lines; i++) {
		p = *p;
		if (p == start && i + 1 < lines)
			return tt_err(TT_EFAIL,
				      "latency chain is broken: a cycle of %zu of %zu lines", i + 1,
				      lines);
	}
	if (p != start)
		return tt_err(TT_EFAIL, "latency chain is broken: it does not return to its start");
	return 0;
}

struct chaser {
	const struct tt_bench_opts *o;
	char *buf;
	size_t lines;
	int cpu, pin_err;
	double *times;
	double built; /* when the chain was built (first touch done) */
	int stopped;  /* a signal stopped it before pass stopped - 1; -1: while
		       * building the chain; 0: it ran every pass */
	uint64_t loads;
	void *sink;
	struct tt_ran_slot *ran; /* [pass]: whether it ran */
	int64_t steal;		 /* over the timed passes, ticks; -1: unknown */
};

static void *chase_thread(void *arg)
{
	struct chaser *c = arg;
	void **p;

	c->pin_err = tt_bench_pin(c->cpu);
	if (c->pin_err)
		return NULL;
	p = build_chain(c->o, c->buf, c->lines);
	c->built = tt_mono_s();
	if (!p) {
		c->stopped = -1;
		return NULL;
	}
	int64_t steal0 = -1;

	tt_ran_measuring(c->cpu);
	for (int pass = 0; pass <= c->o->repeat; pass++) {
		double t0;

		if (tt_bench_stop_asked(c->o)) {
			c->stopped = pass + 1;
			break;
		}
		if (pass == 1 && c->o->phase)
			c->o->phase(c->o->phase_ctx, true);
		tt_bench_progress(c->o, pass, c->o->repeat);
		if (pass == 1)
			steal0 = tt_ran_steal(c->o->sfs, &c->cpu, 1);
		tt_ran_begin(&c->ran[pass]);
		t0 = tt_mono_s();
		p = chase(p, c->loads);
		c->times[pass] = tt_mono_s() - t0;
		tt_ran_end(&c->ran[pass]);
	}
	if (steal0 >= 0 && !c->stopped) {
		int64_t steal1 = tt_ran_steal(c->o->sfs, &c->cpu, 1);

		c->steal = steal1 < 0 ? -1 : steal1 - steal0;
	}
	if (c->o->phase && (!c->stopped || c->stopped > 2))
		c->o->phase(c->o->phase_ctx, false);
	c->sink = p;
	return NULL;
}

int tt_bench_latency(const struct tt_bench_opts *o, struct tt_bench_result *r)
{
	struct tt_bench_bufs b = { 0 };
	struct chaser c = { .o = o, .cpu = r->cpus[0], .steal = -1 };
	pthread_t tid;
	int rc, err;
	double t0 = tt_mono_s();

	r->elements = c.lines = r->array_bytes / LINE;
	c.loads = (PASS_LOADS < c.lines ? PASS_LOADS : c.lines + 7) & ~(uint64_t)7;
	r->loads = c.loads;
	c.times = calloc((size_t)o->repeat + 1, sizeof(*c.times));
	c.ran = calloc((size_t)o->repeat + 1, sizeof(*c.ran));
	if (!c.times || !c.ran) {
		free(c.times);
		free(c.ran);
		return tt_err(TT_EFAIL, "out of memory");
	}
	rc = tt_bench_bufs_map(o, &b, 1, r->array_bytes, &r->place_method);
	if (rc == 0)
		rc = tt_bench_started(o, r);
	if (rc < 0)
		goto out;
	c.buf = (char *)b.arr[0];
	err = pthread_create(&tid, NULL, chase_thread, &c);
	if (err) {
		rc = tt_err_sys(TT_EFAIL, err, "cannot start the latency thread");
		goto out;
	}
	pthread_join(tid, NULL);
	if (c.pin_err)
		rc = tt_err_sys(TT_EFAIL, c.pin_err, "cannot pin the latency thread to CPU %d",
				c.cpu);
	else if (c.stopped)
		rc = tt_bench_stopped(o, c.stopped < 0 ? NULL : "pass", c.stopped - 1, o->repeat);
	if (rc == 0) {
		double v0 = tt_mono_s();

		rc = tt_bench_bufs_verify(o, &b, &r->place);
		r->place_s = (c.built - t0) + (tt_mono_s() - v0);
		tt_bench_bufs_huge(&b, NULL, r);
	}
	if (rc == 0)
		rc = check_chain((void **)c.buf, c.lines);
	if (rc < 0)
		goto out;
	r->validated = true;
	tt_bench_summarise(c.times, o->repeat, r);
	tt_ran_sum(c.ran + 1, o->repeat, 1, &c.cpu, c.steal, &r->ran);
	r->lat_best_ns = r->best_s * 1e9 / (double)c.loads;
	r->lat_median_ns = r->median_s * 1e9 / (double)c.loads;
	r->lat_max_ns = r->max_s * 1e9 / (double)c.loads;
out:
	tt_bench_bufs_unmap(&b);
	free(c.times);
	free(c.ran);
	return rc;
}

/* Loaded latency. Thread 0 chases; the others run the traffic kernel over
 * their chunk in blocks of 64 lines, spinning delay iterations per line
 * after each block. The coordinator runs every delay for point_s. */
struct loaded {
	const struct tt_bench_opts *o;
	const struct tt_kernel *traffic;
	struct tt_bench_bufs *chain, *bw;
	size_t lines, n;
	pthread_barrier_t bar;
	struct tt_bench_gate gate;
	atomic_int stop, done, idle;
	atomic_uint_fast64_t delay;
	int nt;
	struct tt_ran_slot *ran; /* [point * nt + thread] of the point running */
	int point;		 /* its index into ran; the idle point is not one */
};

struct loaded_worker {
	struct loaded *L;
	int index, cpu;
	int pin_err; /* errno of a failed pin, 0 when pinned */
	size_t lo, hi;
	uint64_t count; /* loads (thread 0) or elements this point */
	double elapsed;
	void *sink;
};

#define BLOCK_ELEMS (64 * LINE / sizeof(double))

static void spin(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		__asm__ volatile("" ::: "memory");
}

static void *loaded_thread(void *arg)
{
	struct loaded_worker *w = arg;
	struct loaded *L = w->L;
	const struct tt_kernel *k = L->traffic;
	double **v = L->bw->arr;
	void **p = NULL;
	size_t at = w->lo;

	if (!tt_bench_gate_wait(&L->gate))
		return NULL;
	w->pin_err = tt_bench_pin(w->cpu);
	if (w->index == 0)
		p = build_chain(L->o, (char *)L->chain->arr[0], L->lines);
	else
		tt_bench_touch(L->o, L->bw->arr, w->lo, w->hi);
	pthread_barrier_wait(&L->bar); /* touched */
	if (!w->pin_err)
		tt_ran_measuring(w->cpu);
	for (;;) {
		pthread_barrier_wait(&L->bar); /* a point starts, or done */
		if (atomic_load(&L->done))
			break;
		/* The idle point is not a point of the curve: not judged. */
		struct tt_ran_slot scratch, *ran = atomic_load(&L->idle)
							   ? &scratch
							   : &L->ran[L->point * L->nt + w->index];
		uint64_t count = 0, delay = atomic_load(&L->delay);

		tt_ran_begin(ran);
		double t0 = tt_mono_s();

		if (w->index && atomic_load(&L->idle)) {
			/* The idle point: the chase alone. */
			w->count = 0;
			w->elapsed = 0;
			pthread_barrier_wait(&L->bar);
			continue;
		}

		/* At least one batch per point, stop flag or not: a thread the
		 * scheduler kept off its CPU for the whole point (seen on a busy
		 * 2-CPU VM) would otherwise report 0 loads, and 0 ns / 0 loads
		 * is no latency at all. */
		do {
			if (w->index == 0) {
				p = chase(p, BATCH);
				count += BATCH;
				continue;
			}
			size_t hi = at + BLOCK_ELEMS < w->hi ? at + BLOCK_ELEMS : w->hi;

			k->run(v[0], v[1], v[2], v[3], at, hi);
			count += hi - at;
			at = hi < w->hi ? hi : w->lo;
			spin(delay * 64);
		} while (!atomic_load_explicit(&L->stop, memory_order_relaxed));
		w->elapsed = tt_mono_s() - t0;
		tt_ran_end(ran);
		w->count = count;
		pthread_barrier_wait(&L->bar); /* the point ends */
	}
	w->sink = p;
	return NULL;
}

/* ns per spin iteration, so a delay can be shown in time as well. */
static double spin_ns(void)
{
	const uint64_t n = 10000000;
	double t0 = tt_mono_s();

	spin(n);
	return (tt_mono_s() - t0) * 1e9 / (double)n;
}

/* Starts the chasing thread and the traffic threads over their chunks;
 * the gate opens them only once all have started (else each ends at once
 * and is joined). Returns how many started in *started. */
static int loaded_start(struct loaded *L, struct loaded_worker *w, pthread_t *tid,
			const struct tt_bench_result *r, int *started)
{
	size_t chunk = (L->n / (size_t)(L->nt - 1) + 7) & ~(size_t)7;

	for (int t = 0; t < L->nt; t++) {
		size_t lo = (size_t)(t ? t - 1 : 0) * chunk, hi = lo + chunk;

		w[t] = (struct loaded_worker){ .L = L,
					       .index = t,
					       .cpu = r->cpus[t],
					       .lo = lo < L->n ? lo : L->n,
					       .hi = hi < L->n ? hi : L->n };
		if (pthread_create(&tid[t], NULL, loaded_thread, &w[t]) != 0)
			break;
		(*started)++;
	}
	if (*started == L->nt)
		pthread_barrier_init(&L->bar, NULL, (unsigned int)L->nt + 1);
	tt_bench_gate_open(&L->gate, *started == L->nt);
	if (*started == L->nt)
		return 0;
	for (int t = 0; t < *started; t++)
		pthread_join(tid[t], NULL);
	return tt_err(TT_EFAIL, "cannot start loaded-latency thread %d of %d", *started + 1, L->nt);
}

/* Once every thread has touched its part: where the pages went, on what
 * page size, and whether every thread is on its CPU. */
static int loaded_touched(const struct tt_bench_opts *o, struct loaded *L,
			  const struct loaded_worker *w, struct tt_bench_result *r)
{
	int rc;

	pthread_barrier_wait(&L->bar); /* touched */
	rc = tt_bench_stop_asked(o) ? tt_bench_stopped(o, NULL, 0, 0)
				    : tt_bench_bufs_verify(o, L->chain, &r->place);
	if (rc == 0)
		rc = tt_bench_bufs_verify(o, L->bw, &r->place);
	if (rc == 0)
		tt_bench_bufs_huge(L->chain, L->bw, r); /* together: one mapping may hold both */
	for (int t = 0; t < L->nt && rc == 0; t++)
		if (w[t].pin_err)
			rc = tt_err_sys(TT_EFAIL, w[t].pin_err,
					"cannot pin loaded-latency thread %d "
					"to CPU %d",
					t, w[t].cpu);
	return rc;
}

/* One point: the threads run for ts (a signal cuts the sleep short, and
 * the point is not kept). */
static void loaded_point(struct loaded *L, struct timespec ts)
{
	atomic_store(&L->stop, 0);
	pthread_barrier_wait(&L->bar);
	nanosleep(&ts, NULL);
	atomic_store(&L->stop, 1);
	pthread_barrier_wait(&L->bar);
}

/* The curve: the idle latency of this chain, on this CPU, now (the floor
 * every point is checked against, tt_bench_curve_check), then a point
 * per delay. */
static int loaded_curve(const struct tt_bench_opts *o, struct loaded *L,
			const struct loaded_worker *w, struct tt_bench_result *r)
{
	double point = o->point_s > 0 ? o->point_s : 0.5;
	const uint64_t *delays = o->ndelays ? o->delays : default_delays;
	int nd = o->ndelays ? o->ndelays : (int)(sizeof(default_delays) / sizeof(*default_delays));
	double ns = spin_ns();
	struct timespec pts = { (time_t)point, (long)((point - (double)(time_t)point) * 1e9) };
	int rc = 0;
	int64_t steal0 = -1, steal1 = -1;

	if (!tt_bench_stop_asked(o)) {
		tt_bench_progress(o, 0, nd);
		atomic_store(&L->idle, 1);
		loaded_point(L, pts);
		atomic_store(&L->idle, 0);
		r->idle_lat_ns = w[0].elapsed * 1e9 / (double)w[0].count;
	}
	if (o->phase)
		o->phase(o->phase_ctx, true);
	steal0 = tt_ran_steal(o->sfs, r->cpus, L->nt);
	for (int i = 0; i < nd; i++) {
		double bytes_s = 0;

		if (tt_bench_stop_asked(o)) {
			rc = tt_bench_stopped(o, "point", i + 1, nd);
			break;
		}
		tt_bench_progress(o, i + 1, nd);
		atomic_store(&L->delay, delays[i]);
		L->point = i;
		loaded_point(L, pts);
		if (tt_bench_stop_asked(o)) {
			rc = tt_bench_stopped(o, "point", i + 1, nd);
			break;
		}
		for (int t = 1; t < L->nt; t++)
			bytes_s += (double)w[t].count *
				   (L->traffic->read_bytes + L->traffic->write_bytes) /
				   w[t].elapsed;
		r->points[i] =
			(struct tt_loaded_point){ .delay = delays[i],
						  .delay_ns = (double)delays[i] * ns,
						  .lat_ns = w[0].elapsed * 1e9 / (double)w[0].count,
						  .bw_bytes_s = bytes_s };
		r->npoints++;
	}
	if (steal0 >= 0)
		steal1 = tt_ran_steal(o->sfs, r->cpus, L->nt);
	tt_ran_sum(L->ran, r->npoints, L->nt, r->cpus, steal1 < 0 ? -1 : steal1 - steal0, &r->ran);
	if (o->phase)
		o->phase(o->phase_ctx, false);
	return rc;
}

int tt_bench_loaded(const struct tt_bench_opts *o, struct tt_bench_result *r)
{
	struct tt_bench_bufs chain = { 0 }, bw = { 0 };
	struct loaded L = { .o = o,
			    .traffic = o->traffic ? o->traffic : &tt_k_reads,
			    .chain = &chain,
			    .bw = &bw,
			    .nt = r->threads,
			    .gate = TT_BENCH_GATE_INIT };
	struct loaded_worker *w = NULL;
	pthread_t *tid = NULL;
	int rc, started = 0;
	double t0 = tt_mono_s();

	if (L.nt < 2)
		return tt_err(TT_EINPUT,
			      "loaded latency needs at least 2 threads (one chasing, the "
			      "rest loading), got %d",
			      L.nt);
	if (!L.traffic->kind->bandwidth)
		return tt_err(TT_EINPUT, "traffic kernel '%s' is not a bandwidth kernel",
			      L.traffic->name);
	L.lines = r->array_bytes / LINE;
	L.n = r->array_bytes / sizeof(double);
	r->elements = L.lines;
	rc = tt_bench_bufs_map(o, &chain, 1, r->array_bytes, &r->place_method);
	if (rc == 0)
		rc = tt_bench_bufs_map(o, &bw, L.traffic->arrays, r->array_bytes, &r->place_method);
	w = calloc((size_t)L.nt, sizeof(*w));
	tid = calloc((size_t)L.nt, sizeof(*tid));
	L.ran = calloc(TT_MAX_DELAYS * (size_t)L.nt, sizeof(*L.ran));
	if (rc == 0 && (!w || !tid || !L.ran))
		rc = tt_err(TT_EFAIL, "out of memory");
	if (rc == 0)
		rc = tt_bench_started(o, r);
	if (rc == 0)
		rc = loaded_start(&L, w, tid, r, &started);
	if (rc < 0)
		goto out;
	rc = loaded_touched(o, &L, w, r);
	r->place_s = tt_mono_s() - t0;
	if (rc == 0)
		rc = loaded_curve(o, &L, w, r);
	atomic_store(&L.done, 1);
	pthread_barrier_wait(&L.bar);
	for (int t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	pthread_barrier_destroy(&L.bar);
	if (rc == 0)
		rc = check_chain((void **)chain.arr[0], L.lines);
	if (rc == 0 && L.traffic->out_array >= 0)
		rc = tt_bench_validate(L.traffic, &bw, L.n);
	if (rc == 0)
		r->validated = true;
out:
	tt_bench_bufs_unmap(&chain);
	tt_bench_bufs_unmap(&bw);
	free(w);
	free(tid);
	free(L.ran);
	return rc;
}

/* The matrix is as good as its worst run. */
static void matrix_judged(struct tt_matrix *m, const struct tt_bench_result *r)
{
	if (r->llc.bytes > m->llc.bytes)
		m->llc = r->llc;
	m->below_rule |= r->below_rule;
	m->cache_resident |= r->cache_resident;
	m->short_pass |= r->short_pass;
	m->unstable |= r->unstable;
	/* The first descheduled run's figures say how. */
	if (r->descheduled && !m->descheduled)
		snprintf(m->descheduled_why, sizeof(m->descheduled_why), "%s", r->descheduled_why);
	m->descheduled |= r->descheduled;
}

/* The latency runs' pages, summed: one huge page size among them (the
 * same request each time), the base page where any fell back to it. */
static void matrix_pages(struct tt_pages_got *all, const struct tt_pages_got *one)
{
	all->thp_asked = one->thp_asked;
	all->buffer_bytes += one->buffer_bytes;
	all->huge_bytes += one->huge_bytes;
	if (!all->page_bytes || one->page_bytes < all->page_bytes)
		all->page_bytes = one->page_bytes;
	if (one->huge_page_size)
		all->huge_page_size = one->huge_page_size;
}

int tt_bench_matrix(const struct tt_bench_opts *tmpl, struct tt_matrix *m)
{
	const struct tt_topo *t = tmpl->topo;
	int rc = 0;

	memset(m, 0, sizeof(*m));
	m->cpu_node = calloc((size_t)t->nnodes, sizeof(int));
	m->mem_node = calloc((size_t)t->nnodes, sizeof(int));
	m->bw_bytes_s = calloc((size_t)t->nnodes * (size_t)t->nnodes, sizeof(double));
	m->lat_ns = calloc((size_t)t->nnodes * (size_t)t->nnodes, sizeof(double));
	m->pages = calloc((size_t)t->nnodes * (size_t)t->nnodes, sizeof(uint64_t));
	m->threads = calloc((size_t)t->nnodes, sizeof(int));
	if (!m->cpu_node || !m->mem_node || !m->bw_bytes_s || !m->lat_ns || !m->pages ||
	    !m->threads) {
		tt_matrix_release(m);
		return tt_err(TT_EFAIL, "out of memory");
	}
	for (int i = 0; i < t->nnodes; i++) {
		if (t->nodes[i].ncpus)
			m->cpu_node[m->ncpu++] = t->nodes[i].id;
		if (t->nodes[i].has_memory)
			m->mem_node[m->nmem++] = t->nodes[i].id;
	}
	for (int c = 0; c < m->ncpu && rc == 0; c++) {
		for (int j = 0; j < m->nmem && rc == 0; j++) {
			struct tt_bench_opts o = *tmpl;
			struct tt_bench_result *r = malloc(sizeof(*r));
			struct tt_nodemask one = { 0 };

			if (!r) {
				rc = tt_err(TT_EFAIL, "out of memory");
				break;
			}
			o.source_node = m->cpu_node[c];
			tt_bit_set(one.bits, (unsigned int)m->mem_node[j]);
			rc = tt_place_init(&o.place, TT_PLACE_BIND, &one, NULL, o.source_node);
			o.place.thp = tmpl->place.thp;
			o.place.huge_shift = tmpl->place.huge_shift;
			if (rc == 0 && (rc = tt_bench_run(&o, r)) == 0) {
				m->bw_bytes_s[c * m->nmem + j] = r->bw_best_bytes_s;
				m->pages[c * m->nmem + j] = r->place.got[m->mem_node[j]];
				m->threads[c] = r->threads;
				m->array_bytes = r->array_bytes;
				matrix_judged(m, r);
				matrix_pages(&m->bw_pages, &r->pages);
			}
			/* Idle latency is one thread, whatever --threads gave the
			 * bandwidth run. */
			o.kernel = &tt_k_latency;
			o.threads = 0;
			o.place.thp = tmpl->matrix_lat_thp;
			o.place.huge_shift = tmpl->matrix_lat_huge_shift;
			if (rc == 0 && (rc = tt_bench_run(&o, r)) == 0) {
				m->lat_ns[c * m->nmem + j] = r->lat_median_ns;
				matrix_judged(m, r);
				matrix_pages(&m->lat_pages, &r->pages);
			}
			free(r);
			if (rc < 0)
				tt_err_prefix("from node %d to node %d", m->cpu_node[c],
					      m->mem_node[j]);
		}
	}
	if (rc < 0)
		tt_matrix_release(m);
	return rc;
}

void tt_matrix_release(struct tt_matrix *m)
{
	free(m->cpu_node);
	free(m->mem_node);
	free(m->bw_bytes_s);
	free(m->lat_ns);
	free(m->pages);
	free(m->threads);
	memset(m, 0, sizeof(*m));
}
