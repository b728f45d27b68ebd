// SPDX-License-Identifier: GPL-3.0-or-later
#include "sampler.h"

#include "../core/deadline.h"
#include "../core/error.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *const tt_sample_state_names[] = { "ok", "initializing", "stale" };

enum tt_sample_state tt_count_step(const struct tt_metric *m, struct tt_count *c, double raw,
				   double t_s, double *value)
{
	if (isnan(raw)) {
		*value = c->last;
		return TT_S_STALE;
	}
	if (m->kind == TT_GAUGE) {
		*value = c->last = raw * m->scale;
		c->have = true;
		return TT_S_OK;
	}
	if (!c->have || t_s <= c->t_s) {
		c->have = true;
		c->raw = raw;
		c->t_s = t_s;
		*value = c->last = 0;
		return TT_S_INIT;
	}
	double delta = raw - c->raw;

	if (delta < 0) {
		/* Counters narrower than 64 bits wrap (uncore boxes count in
		 * 48 bits); anything else going backwards was reset. */
		if (m->bits && m->bits < 64 && -delta < ldexp(1.0, (int)m->bits)) {
			delta += ldexp(1.0, (int)m->bits);
		} else {
			c->raw = raw;
			c->t_s = t_s;
			*value = c->last = 0;
			return TT_S_INIT;
		}
	}
	*value = c->last = delta * m->scale / (t_s - c->t_s);
	c->raw = raw;
	c->t_s = t_s;
	return TT_S_OK;
}

struct tt_sampler {
	struct tt_source **src;
	int n;
	double interval_s;
	struct tt_count **count; /* [source][metric] */
	double *values;		 /* scratch, the widest source */
	struct tt_reading *ring;
	size_t cap;
	uint64_t next; /* seq of the next reading */
	uint64_t ticks;
	double cpu_s;
	pthread_t tid;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool stop, stopped;
};

static double thread_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void tick(struct tt_sampler *s)
{
	for (int i = 0; i < s->n; i++) {
		struct tt_source *src = s->src[i];
		double t = tt_mono_s();
		int rc = src->c->sample(src, s->values);

		pthread_mutex_lock(&s->mu);
		for (int m = 0; m < src->nmetrics; m++) {
			struct tt_reading *r = &s->ring[s->next % s->cap];

			r->seq = s->next++;
			r->t_s = t;
			r->source = i;
			r->metric = m;
			r->since_s = s->count[i][m].have ? s->count[i][m].t_s : t;
			r->state = tt_count_step(&src->metrics[m], &s->count[i][m],
						 rc < 0 ? NAN : s->values[m], t, &r->value);
			if (src->metrics[m].kind == TT_GAUGE)
				r->since_s = t;
		}
		pthread_mutex_unlock(&s->mu);
	}
}

static void *run(void *arg)
{
	struct tt_sampler *s = arg;
	struct timespec due;

	tt_deadline_in(&due, 0);
	pthread_mutex_lock(&s->mu);
	while (!s->stop) {
		pthread_mutex_unlock(&s->mu);
		tick(s);
		pthread_mutex_lock(&s->mu);
		s->ticks++;
		s->cpu_s = thread_cpu();
		/* Absolute deadlines: the interval does not drift by the time
		 * a tick takes. */
		tt_deadline_add(&due, s->interval_s);
		while (!s->stop && !tt_deadline_wait(&s->cv, &s->mu, &due))
			;
	}
	pthread_mutex_unlock(&s->mu);
	return NULL;
}

static void release(struct tt_sampler *s)
{
	for (int i = 0; s->count && i < s->n; i++)
		free(s->count[i]);
	free(s->count);
	free(s->values);
	free(s->ring);
	free(s);
}

int tt_sampler_start(struct tt_sampler **out, struct tt_source **src, int n, double interval_s,
		     size_t capacity)
{
	struct tt_sampler *s = calloc(1, sizeof(*s));
	int widest = 1, rc;

	*out = NULL;
	if (!s)
		return tt_err(TT_EFAIL, "out of memory");
	if (interval_s < 0.001 || interval_s > 3600 || capacity < 1) {
		free(s);
		return tt_err(TT_EINPUT, "sampling interval %g s is outside 1 ms to 1 h",
			      interval_s);
	}
	s->src = src;
	s->n = n;
	s->interval_s = interval_s;
	s->cap = capacity;
	s->count = calloc((size_t)n, sizeof(*s->count));
	s->ring = calloc(capacity, sizeof(*s->ring));
	for (int i = 0; i < n; i++)
		if (src[i]->nmetrics > widest)
			widest = src[i]->nmetrics;
	s->values = calloc((size_t)widest, sizeof(double));
	if (!s->count || !s->ring || !s->values) {
		release(s);
		return tt_err(TT_EFAIL, "out of memory");
	}
	for (int i = 0; i < n; i++)
		if (!(s->count[i] =
			      calloc((size_t)src[i]->nmetrics + 1, sizeof(struct tt_count)))) {
			release(s);
			return tt_err(TT_EFAIL, "out of memory");
		}
	pthread_mutex_init(&s->mu, NULL);
	tt_deadline_cond_init(&s->cv);
	rc = pthread_create(&s->tid, NULL, run, s);
	if (rc) {
		release(s);
		return tt_err_sys(TT_EFAIL, rc, "cannot start the sampling thread");
	}
	*out = s;
	return 0;
}

void tt_sampler_stop(struct tt_sampler *s)
{
	if (!s || s->stopped)
		return;
	pthread_mutex_lock(&s->mu);
	s->stop = true;
	pthread_cond_signal(&s->cv);
	pthread_mutex_unlock(&s->mu);
	pthread_join(s->tid, NULL);
	s->stopped = true;
}

void tt_sampler_free(struct tt_sampler *s)
{
	if (!s)
		return;
	tt_sampler_stop(s);
	pthread_cond_destroy(&s->cv);
	pthread_mutex_destroy(&s->mu);
	release(s);
}

size_t tt_sampler_read(struct tt_sampler *s, uint64_t *seq, struct tt_reading *out, size_t max,
		       uint64_t *lost)
{
	size_t n = 0;

	pthread_mutex_lock(&s->mu);
	uint64_t oldest = s->next > s->cap ? s->next - s->cap : 0;
	if (*seq < oldest) {
		if (lost)
			*lost += oldest - *seq;
		*seq = oldest;
	}
	for (; *seq < s->next && n < max; (*seq)++)
		out[n++] = s->ring[*seq % s->cap];
	pthread_mutex_unlock(&s->mu);
	return n;
}

double tt_sampler_cpu_s(struct tt_sampler *s)
{
	double v;

	pthread_mutex_lock(&s->mu);
	v = s->cpu_s;
	pthread_mutex_unlock(&s->mu);
	return v;
}

uint64_t tt_sampler_ticks(struct tt_sampler *s)
{
	uint64_t v;

	pthread_mutex_lock(&s->mu);
	v = s->ticks;
	pthread_mutex_unlock(&s->mu);
	return v;
}
