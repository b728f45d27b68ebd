/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What bench shows of a run as text while it goes: the per-pass table, a
 * loaded-latency curve, the matrix, the placement, the collectors' window,
 * the sizes, the pages and why the figures may not be memory's, and
 * STREAM's summary after several kernels. Every figure through the figure
 * table (core/figure.h), so that bench prints a pass as show and the
 * export read it back; cli/cmd-bench.c keeps the order and the prose
 * without figures.
 *
 *	struct tt_bench_out out = { stdout, 80, say, wrap };
 *	tt_bench_passes_text(&out, o, r);
 *	tt_stream_add(&sum, o, res);  ...  tt_stream_text(&out, &sum);
 */
#ifndef TT_BENCH_TEXT_H
#define TT_BENCH_TEXT_H

#include "../bench/run.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct tt_collect_summary;
struct tt_trial_result;

/* Where the text goes: tables to f, fitted to cols (80, or a narrower
 * terminal's); prose to say (wrapped to the caller's width, the rest
 * indented by two) or wrap (text from column indent on, the rest at
 * indent), which the caller owns because it knows the terminal. */
struct tt_bench_out {
	FILE *f;
	int cols;
	void (*say)(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
	void (*wrap)(int indent, const char *text);
};

/* "16.0" of a size in bytes, in the size figure's unit (its label). */
void tt_size_text(double bytes, char *buf, size_t size);

/* What the figures can be trusted for (bench/run.h's judgements, with
 * their reasons). */
struct tt_bench_trust {
	const struct tt_llc *llc;
	bool below_rule, resident, short_pass, unstable;
	const char *why_unstable; /* NULL or "": none said */
	double tick_s;
	bool descheduled;
	const char *why_descheduled;
	const struct tt_bench_ran *ran; /* NULL: the matrix's runs, not one */
	unsigned int fails;		/* tt_judged */
};

/* A run's, and the matrix's (why: room for the reason its runs
 * disagree). */
void tt_bench_trust_of(const struct tt_bench_result *r, struct tt_bench_trust *tr);
void tt_matrix_trust(const struct tt_matrix *m, struct tt_bench_trust *tr, char *why, size_t size);
/* The figure at offset in r (a struct tt_kind_figure's offsets). */
double tt_bench_at(const struct tt_bench_result *r, size_t offset);

/* "arrays of 16.0 MiB (--size), 3 timed passes after one warm-up; avx2
 * loops" (no passes for a curve). */
void tt_bench_sizes_text(const struct tt_bench_opts *o, const struct tt_bench_result *r, char *buf,
			 size_t size);
/* "last-level cache: 32.0 MiB (L3, from sysfs, 1 instance)", or that it is
 * unknown. */
void tt_bench_llc_text(const struct tt_bench_out *out, const struct tt_llc *llc);
/* A row per figure of the kind (best, median and worst pass), and what a
 * pass counts. */
void tt_bench_passes_text(const struct tt_bench_out *out, const struct tt_bench_opts *o,
			  const struct tt_bench_result *r);
/* A loaded-latency curve: its idle latency, then a row per point (delay,
 * latency, the traffic's bandwidth). */
void tt_bench_curve_text(const struct tt_bench_out *out, const struct tt_bench_result *r);
/* The pages behind the buffers, as obtained (label: "pages", "latency
 * pages"). */
void tt_bench_pages_text(const struct tt_bench_out *out, const char *label, bool thp,
			 int huge_shift, const struct tt_pages_got *p);
/* Whether the figures are the memory's: cache-resident, below STREAM's 4x
 * rule, too short, descheduled, unstable, each with its reason. touched:
 * the bytes a pass touches (0: the matrix, its arrays'); best_s 0: the
 * fastest of several runs' passes (the matrix). */
void tt_bench_trust_text(const struct tt_bench_out *out, const struct tt_bench_trust *tr,
			 size_t array_bytes, size_t touched, const char *buffers, double best_s);
/* Where the pages went against where they were asked, and how long it
 * took to place and verify them. */
void tt_bench_placement_text(const struct tt_bench_out *out, const struct tt_bench_result *r);
/* What the collectors read over the measured passes: each node's traffic
 * beside the benchmark's own split by page share, and each metric's mean. */
void tt_bench_collect_text(const struct tt_bench_out *out, const struct tt_collect_summary *sum,
			   const struct tt_bench_result *r);
/* The benchmark's own bandwidth split by where its pages are: what node
 * carried if traffic follows the pages (it does for these kernels). */
double tt_bench_share_bw(const struct tt_bench_result *r, int node);
/* The matrix: bandwidth and idle latency, rows CPU nodes, columns memory
 * nodes. */
void tt_matrix_text(const struct tt_bench_out *out, const struct tt_bench_opts *o,
		    const struct tt_matrix *m);

/* STREAM's summary after several kernels: a line per kernel with one
 * statistic throughout, named in its heading: the rate of the best
 * (fastest) pass, as STREAM reports it, and the mean, fastest and slowest
 * of the timed passes (the warm-up left out, as STREAM leaves out its
 * first iteration); and the tool's judgement of each run. */
#define TT_STREAM_MAX 8

struct tt_stream {
	int n, repeat;
	struct tt_stream_row {
		const char *kernel;
		double bw_best, mean_s, best_s, max_s; /* bytes/s; s */
		int64_t run_id;
		unsigned int fails; /* the judgements the run fails (tt_bench_judged) */
	} rows[TT_STREAM_MAX];
};

/* One kernel's run into the summary (past TT_STREAM_MAX: left out). */
void tt_stream_add(struct tt_stream *sum, const struct tt_bench_opts *o,
		   const struct tt_trial_result *res);
void tt_stream_text(const struct tt_bench_out *out, const struct tt_stream *sum);

#endif
