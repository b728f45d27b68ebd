/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A probe's figures as `tiertune probe` shows them (the library's probe,
 * lib/tiertune.h): a line saying what was probed and how long it took,
 * then a row a node, each figure as the figure table has it
 * (core/figure.h), and their JSON.
 *
 *	struct tt_probe_view v = {.source = 0, .n = 2, .rows = rows, ...};
 *	tt_probe_text(stdout, &v);    or json = tt_probe_json(&v);
 */
#ifndef TT_VIEW_PROBE_H
#define TT_VIEW_PROBE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct tt_probe_row {
	int node;
	double bw_bytes_s;  /* bytes/s; 0: unknown */
	double lat_ns;	    /* ns, idle; 0: unknown */
	const char *judged; /* "valid", or the judgements' words */
};

struct tt_probe_view {
	int source;
	bool simulated;	      /* a model's figures */
	double elapsed_ms;    /* ms, as the library gives it */
	double budget_ms;     /* ms, as asked */
	uint64_t array_bytes; /* bytes per array; 0: none allocated (a model) */
	int n;
	const struct tt_probe_row *rows;
};

void tt_probe_text(FILE *f, const struct tt_probe_view *v);
json_t *tt_probe_json(const struct tt_probe_view *v);

#endif
