/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The sampling engine: reads open sources at a fixed interval on its own
 * thread, turns counters into rates, and keeps stamped readings in a ring
 * buffer that readers (tiertop every second, bench --collect after a run)
 * take from by sequence number. The counting step is a pure function so
 * that it can be tested against scripted values.
 *
 *	struct tt_sampler *s;
 *	tt_sampler_start(&s, sources, n, 0.1, 1 << 16);
 *	... tt_sampler_read(s, &seq, buf, max) ...
 *	tt_sampler_stop(s);
 *	tt_sampler_free(s);
 */
#ifndef TT_SAMPLER_H
#define TT_SAMPLER_H

#include "collector.h"

enum tt_sample_state {
	TT_S_OK,
	TT_S_INIT,  /* a counter's first reading: no rate until the second */
	TT_S_STALE, /* the source did not answer: the value is the last good one */
};
extern const char *const tt_sample_state_names[];

struct tt_reading {
	uint64_t seq;
	double t_s;	    /* CLOCK_MONOTONIC seconds */
	int source, metric; /* indexes into the sources given to start */
	double value;	    /* gauge scaled, or counter rate per second */
	double since_s;	    /* counters: the rate is over [since_s, t_s] */
	enum tt_sample_state state;
};

/* Per metric memory of the counting step. */
struct tt_count {
	bool have;
	double raw, t_s, last;
};

/* One raw reading of metric m at time t_s into *value. raw NAN (or a
 * source error, passed as NAN) is stale; a counter's delta wraps at
 * m->bits; a counter that goes backwards without wrapping is treated as
 * restarted (init again). */
enum tt_sample_state tt_count_step(const struct tt_metric *m, struct tt_count *c, double raw,
				   double t_s, double *value);

struct tt_sampler;
int tt_sampler_start(struct tt_sampler **s, struct tt_source **sources, int n, double interval_s,
		     size_t capacity);
/* Stops the thread; the readings stay readable until tt_sampler_free.
 * Sources stay open (the caller closes them). */
void tt_sampler_stop(struct tt_sampler *s);
void tt_sampler_free(struct tt_sampler *s);
/* Copies readings with seq >= *seq (oldest first, at most max), advances
 * *seq; returns the count. Readings overwritten before they were read are
 * counted in *lost when lost is not NULL. */
size_t tt_sampler_read(struct tt_sampler *s, uint64_t *seq, struct tt_reading *out, size_t max,
		       uint64_t *lost);
/* CPU time the sampling thread has used, seconds, and ticks done. */
double tt_sampler_cpu_s(struct tt_sampler *s);
uint64_t tt_sampler_ticks(struct tt_sampler *s);

#endif
