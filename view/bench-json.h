/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What bench's --json prints of a run (docs/json.md, command bench): a
 * kernel's document, the matrix's, STREAM's summary; every figure under
 * its name in the figure table (core/figure.h), as show and the export
 * name it.
 *
 *	json_t *j = tt_bench_json(&opts, res, topo, simulated);
 */
#ifndef TT_BENCH_JSON_H
#define TT_BENCH_JSON_H

#include "bench-text.h"

#include <jansson.h>
#include <stdbool.h>

struct tt_topo;
struct tt_trial_result;

/* A kernel's run: what ran where, its figures, the judgements, the pages,
 * the placement, the collectors' window and the record's id. */
json_t *tt_bench_json(const struct tt_bench_opts *o, const struct tt_trial_result *res,
		      const struct tt_topo *t, bool simulated);
/* The matrix's run: a row per CPU node and memory node. */
json_t *tt_matrix_json(const struct tt_bench_opts *o, const struct tt_trial_result *res);
/* STREAM's summary's rows. */
json_t *tt_stream_json(const struct tt_stream *sum);
/* The pages behind the buffers: asked and obtained. */
json_t *tt_bench_pages_json(bool thp, int huge_shift, const struct tt_pages_got *p);

#endif
