/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What one measurement of a weight vector gives, whoever makes it: a trial
 * of a kernel or a program (trial.h, app.h), the performance model
 * (model/model.h). The search (tuner/search.h) consumes these and the
 * sources produce them, so neither includes the other.
 */
#ifndef TT_SAMPLE_H
#define TT_SAMPLE_H

#include "../core/grid.h" /* TT_SEARCH_MAX_NODES */
#include "../core/weights.h"

#include <stdbool.h>

/* One measurement of weights w: 0 and *score (higher is better), or a
 * negative tt_status that stops the search. */
typedef int (*tt_measure_fn)(void *ctx, const struct tt_weights *w, double *score);

/* A measurement that also saw the loaded latency: the latency objective
 * (score 1e9 / lat_ns, so that higher stays better and a gain is a ratio of
 * latencies) and a latency bound (cfg.max_lat_ns) need it. */
struct tt_sample {
	double score;  /* higher is better */
	double lat_ns; /* ns, loaded latency of a dependent load meanwhile; NaN: none */
	/* At a stated traffic (the latency objective): the weights could not
	 * carry it, so lat_ns is an extrapolation, not a latency they meet;
	 * and the most they carried, bytes/s (0: unknown). */
	bool overloaded;
	double capacity_bytes_s;
};
typedef int (*tt_sample_fn)(void *ctx, const struct tt_weights *w, struct tt_sample *out);

#endif
