// SPDX-License-Identifier: GPL-3.0-or-later
/* bench's figures as text (bench-text.h). */
#include "bench-text.h"

#include "../collectors/collect.h"
#include "../core/figure.h"
#include "../measure/trial.h"

#include <math.h>
#include <string.h>

void tt_size_text(double bytes, char *buf, size_t size)
{
	tt_figure_print(tt_figure(TT_FIG_SIZE), bytes, buf, size);
}

/* A figure right-aligned in width, as the tables print it. */
static void column(FILE *f, int width, enum tt_figure_id id, double v)
{
	char buf[48];

	tt_figure_print(tt_figure(id), v, buf, sizeof(buf));
	fprintf(f, " %*s", width, buf);
}

void tt_bench_trust_of(const struct tt_bench_result *r, struct tt_bench_trust *tr)
{
	*tr = (struct tt_bench_trust){ .llc = &r->llc,
				       .below_rule = r->below_rule,
				       .resident = r->cache_resident,
				       .short_pass = r->short_pass,
				       .unstable = r->unstable,
				       .why_unstable = r->unstable_why,
				       .tick_s = r->tick_s,
				       .descheduled = r->descheduled,
				       .why_descheduled = r->descheduled_why,
				       .ran = &r->ran,
				       .fails = tt_bench_judged(r) };
}

void tt_matrix_trust(const struct tt_matrix *m, struct tt_bench_trust *tr, char *why, size_t size)
{
	snprintf(why, size, "a run's median pass took over %.0f%% longer than its best",
		 TT_SPREAD_MAX * 100);
	*tr = (struct tt_bench_trust){ .llc = &m->llc,
				       .below_rule = m->below_rule,
				       .resident = m->cache_resident,
				       .short_pass = m->short_pass,
				       .unstable = m->unstable,
				       .why_unstable = why,
				       .descheduled = m->descheduled,
				       .why_descheduled = m->descheduled_why,
				       .fails = tt_matrix_judged(m) };
}

void tt_bench_sizes_text(const struct tt_bench_opts *o, const struct tt_bench_result *r, char *buf,
			 size_t size)
{
	char mib[32];
	int n;

	tt_size_text((double)r->array_bytes, mib, sizeof(mib));
	n = snprintf(buf, size, "%s of %s %s (%s)", o->kernel->kind->buffers, mib,
		     tt_figure(TT_FIG_SIZE)->label, r->size_rule);
	if (!o->kernel->kind->curve && n >= 0 && (size_t)n < size)
		n += snprintf(buf + n, size - (size_t)n, ", %d timed passes after one warm-up",
			      o->repeat);
	if (n >= 0 && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n, "; %s loops", r->isa);
}

void tt_bench_llc_text(const struct tt_bench_out *out, const struct tt_llc *llc)
{
	bool per_package = !strcmp(llc->from, "sysconf/CPUID") || !strcmp(llc->from, "CPUID");
	char mib[32];

	if (!llc->bytes) {
		out->say("last-level cache: unknown (%s): the buffers may be cache-resident",
			 llc->from);
		return;
	}
	tt_size_text((double)llc->bytes, mib, sizeof(mib));
	fprintf(out->f, "last-level cache: %s %s (L%d, from %s, %d %s%s)\n", mib,
		tt_figure(TT_FIG_SIZE)->label, llc->level, llc->from, llc->count,
		per_package ? "package" : "instance", llc->count == 1 ? "" : "s");
}

double tt_bench_at(const struct tt_bench_result *r, size_t offset)
{
	double v;

	memcpy(&v, (const char *)r + offset, sizeof(v));
	return v;
}

void tt_bench_passes_text(const struct tt_bench_out *out, const struct tt_bench_opts *o,
			  const struct tt_bench_result *r)
{
	const struct tt_kind *kind = o->kernel->kind;

	if (kind->figures[0].fig)
		fprintf(out->f, "\n%-12s %12s %12s %12s\n", "per pass", "best", "median", "worst");
	for (const struct tt_kind_figure *f = kind->figures; f->fig; f++) {
		fprintf(out->f, "%-12s", f->fig->row);
		for (int i = 0; i < 3; i++)
			column(out->f, 12, (enum tt_figure_id)(f->fig - tt_figures),
			       tt_bench_at(r, f->offset[i]));
		fprintf(out->f, "\n");
	}
	if (r->loads)
		fprintf(out->f, "(%ju dependent loads per pass, %d passes)\n", (uintmax_t)r->loads,
			o->repeat);
	else if (o->kernel->counting)
		fprintf(out->f, "(bytes counted as %s does)\n", o->kernel->counting);
}

void tt_bench_curve_text(const struct tt_bench_out *out, const struct tt_bench_result *r)
{
	const struct tt_figure *lat = tt_figure(TT_FIG_LATENCY), *bw = tt_figure(TT_FIG_BANDWIDTH);
	char head[2][32], v[32];

	if (r->idle_lat_ns > 0) {
		tt_figure_print(lat, r->idle_lat_ns, v, sizeof(v));
		fprintf(out->f, "idle latency (the chase alone, first): %s %s\n", v, lat->label);
	}
	snprintf(head[0], sizeof(head[0]), "latency %s", lat->label);
	snprintf(head[1], sizeof(head[1]), "%s", bw->label);
	fprintf(out->f, "%10s %10s %12s %12s\n", "delay", "delay ns", head[0], head[1]);
	for (int i = 0; i < r->npoints; i++) {
		const struct tt_loaded_point *pt = &r->points[i];

		/* The delay is the spin loop's time as calibrated, not a
		 * latency: its own one decimal of ns. */
		fprintf(out->f, "%10ju %10.1f", (uintmax_t)pt->delay, pt->delay_ns);
		if (isfinite(pt->lat_ns))
			column(out->f, 12, TT_FIG_LATENCY, pt->lat_ns);
		else
			fprintf(out->f, " %12s", "no loads");
		column(out->f, 12, TT_FIG_BANDWIDTH, pt->bw_bytes_s);
		fprintf(out->f, "\n");
	}
}

void tt_bench_pages_text(const struct tt_bench_out *out, const char *label, bool thp,
			 int huge_shift, const struct tt_pages_got *p)
{
	const char *kind = huge_shift ? "hugetlbfs" : "transparent huge";
	const char *counter = huge_shift ? "Private_Hugetlb" : "AnonHugePages";
	const char *mib = tt_figure(TT_FIG_SIZE)->label;
	size_t huge_kib = p->huge_page_size >> 10;
	char all[32], huge[32];

	if (!p->buffer_bytes)
		return;
	tt_size_text((double)p->buffer_bytes, all, sizeof(all));
	tt_size_text((double)p->huge_bytes, huge, sizeof(huge));
	/* A page's size in the words its pool is known by: 4 KiB, 2 MiB, 1 GiB
	 * (/proc/meminfo's Hugepagesize, --page-size's 2M and 1G). */
	if (!thp && !huge_shift)
		out->say("%s: %zu KiB (huge pages not asked: --page-size thp, 2M or 1G for them, "
			 "as MLC measures latency)",
			 label, p->page_bytes >> 10);
	else if (p->huge_bytes >= p->buffer_bytes)
		out->say("%s: %zu %s %s pages for all %s %s (%s in /proc/self/smaps)", label,
			 huge_kib >= 1024 ? huge_kib >> 10 : huge_kib,
			 huge_kib >= 1024 ? "MiB" : "KiB", kind, all, mib, counter);
	else if (p->huge_bytes)
		out->say("%s: %zu %s %s pages for %s of %s %s (%s in /proc/self/smaps), "
			 "%zu KiB pages for the rest",
			 label, huge_kib >= 1024 ? huge_kib >> 10 : huge_kib,
			 huge_kib >= 1024 ? "MiB" : "KiB", kind, huge, all, mib, counter,
			 p->page_bytes >> 10);
	else
		out->say("%s: %zu KiB: transparent huge pages asked for and none were obtained "
			 "(AnonHugePages 0; see /sys/kernel/mm/transparent_hugepage/enabled); "
			 "--page-size 2M for hugetlbfs pages",
			 label, p->page_bytes >> 10);
}

void tt_bench_trust_text(const struct tt_bench_out *out, const struct tt_bench_trust *tr,
			 size_t array_bytes, size_t touched, const char *buffers, double best_s)
{
	const struct tt_llc *llc = tr->llc;
	const char *mib = tt_figure(TT_FIG_SIZE)->label;
	char pass[32], cache[32], arrays[32], rule[32];

	tt_size_text((double)(touched ? touched : array_bytes), pass, sizeof(pass));
	tt_size_text((double)llc->bytes, cache, sizeof(cache));
	tt_size_text((double)array_bytes, arrays, sizeof(arrays));
	/* --size in whole MiB ("128M"), up from the rule's bytes. */
	snprintf(rule, sizeof(rule), "%.0fM",
		 ceil((double)llc->bytes * TT_LLC_FACTOR / tt_figure(TT_FIG_SIZE)->divisor));
	if (tr->resident)
		out->say("cache-resident: the %s %s a pass touches fit in the last-level cache "
			 "(%s %s): these figures are the cache's, not memory's; use --size %s "
			 "or more (or leave it out: STREAM's rule)",
			 pass, mib, cache, mib, rule);
	else if (tr->below_rule)
		out->say("below STREAM's 4x rule: %s %s %s are under %dx the last-level cache "
			 "(%s %s), so some of each pass may be served from it; use --size %s "
			 "or more (or leave it out: STREAM's rule)",
			 arrays, mib, buffers, TT_LLC_FACTOR, cache, mib, rule);
	/* A clock's tick and a pass of a few of them: in the microseconds and
	 * nanoseconds clocks are spoken of in, not a figure's unit. */
	if (tr->short_pass && best_s > 0)
		out->say("too short: the fastest pass took %.1f us, under %d ticks of the clock "
			 "(%.0f ns each): the time is mostly the clock's; use a larger --size",
			 best_s * 1e6, TT_MIN_TICKS, tr->tick_s * 1e9);
	else if (tr->short_pass)
		out->say("too short: a pass took under %d ticks of the clock: the time is mostly "
			 "the clock's; use a larger --size",
			 TT_MIN_TICKS);
	if (tr->descheduled)
		out->say("descheduled: %s: other work shares the CPU, and its time is in these "
			 "figures; run again when the host is quieter (see 'uptime')",
			 tr->why_descheduled);
	if (tr->unstable)
		out->say("unstable: %s: other work on the host shares these CPUs or memory; run "
			 "again when it is quieter (see 'uptime')",
			 tr->why_unstable && tr->why_unstable[0] ? tr->why_unstable
								 : "its runs disagree");
}

void tt_bench_placement_text(const struct tt_bench_out *out, const struct tt_bench_result *r)
{
	const struct tt_place_report *p = &r->place;
	char parts[128] = "";

	if (r->touch_s > 0)
		snprintf(parts, sizeof(parts),
			 " (policy %.3f, first touch %.3f, verification %.3f)", r->policy_s,
			 r->touch_s, r->verify_s);
	fprintf(out->f, "\n");
	out->say("placement verified (%s): %ju of %ju pages checked, %ju misplaced, %.3f s%s",
		 r->place_method, (uintmax_t)p->checked, (uintmax_t)p->pages,
		 (uintmax_t)p->misplaced, r->place_s, parts);
	fprintf(out->f, "node  requested  achieved\n");
	for (int node = 0; node < TT_MAX_NODES; node++) {
		if (!p->want[node] && !p->got[node])
			continue;
		fprintf(out->f, "%-5d %8.2f%%  %7.2f%%\n", node,
			100.0 * (double)p->want[node] / (double)p->checked,
			100.0 * (double)p->got[node] / (double)p->checked);
	}
}

/* The benchmark's own bandwidth while the collectors read: the best
 * pass's. A loaded-latency curve has no passes (bw_best_bytes_s stays 0,
 * and the line read 0.00 beside a curve at 17 GB/s); its collected window
 * is its points, each as long as the others (--point-ms), so the mean of
 * what its bandwidth threads moved at each. */
static double own_bw(const struct tt_bench_result *r)
{
	double sum = 0;

	if (r->npoints == 0)
		return r->bw_best_bytes_s;
	for (int i = 0; i < r->npoints; i++)
		sum += r->points[i].bw_bytes_s;
	return sum / r->npoints;
}

double tt_bench_share_bw(const struct tt_bench_result *r, int node)
{
	return r->place.checked ? own_bw(r) * (double)r->place.got[node] / (double)r->place.checked
				: 0;
}

void tt_bench_collect_text(const struct tt_bench_out *out, const struct tt_collect_summary *sum,
			   const struct tt_bench_result *r)
{
	const struct tt_figure *bw = tt_figure(TT_FIG_BANDWIDTH);
	char head[2][64];

	fprintf(out->f, "\ncollected over the measured passes: %.2f s, %zu readings\n",
		sum->window_s, sum->nreadings);
	snprintf(head[0], sizeof(head[0]), "collected %s", bw->label);
	snprintf(head[1], sizeof(head[1]), "benchmark %s by page share", bw->label);
	fprintf(out->f, "node  %-26s %s\n", sum->bw_source ? sum->bw_source : head[0], head[1]);
	for (int node = 0; node < TT_MAX_NODES; node++) {
		char got[48] = "-", own[32];

		if (!sum->node_has_bw[node] && !r->place.got[node])
			continue;
		if (sum->node_has_bw[node]) {
			int n = tt_figure_print(bw, sum->node_bw[node], got, sizeof(got));

			if (sum->bw_simulated && n >= 0 && (size_t)n < sizeof(got))
				snprintf(got + n, sizeof(got) - (size_t)n, " SIMULATED");
		}
		tt_figure_print(bw, tt_bench_share_bw(r, node), own, sizeof(own));
		fprintf(out->f, "%-5d %-26s %s\n", node, got, own);
	}
	if (!sum->bw_source)
		out->say("(no per-node traffic measured: %s)", sum->why_no_bw);
	if (sum->note[0])
		out->say("note: %s", sum->note);
	/* Each metric in its collector's own unit, as the collector names it. */
	fprintf(out->f, "\n%-11s %-24s %5s %16s  %s\n", "collector", "metric", "node", "mean",
		"unit");
	for (int i = 0; i < sum->n; i++) {
		const struct tt_metric_summary *m = &sum->metrics[i];
		char node[16] = "-", mean[32] = "no data";

		if (m->metric.node >= 0)
			snprintf(node, sizeof(node), "%d", m->metric.node);
		if (!isnan(m->mean))
			snprintf(mean, sizeof(mean), "%.6g", m->mean);
		else if (m->stale)
			snprintf(mean, sizeof(mean), "stale");
		fprintf(out->f, "%-11s %-24s %5s %16s  %s%s\n", m->collector->name, m->metric.name,
			node, mean, m->metric.unit,
			m->collector->flags & TT_C_SIMULATED ? " (simulated)" : "");
	}
}

/* A matrix of one figure: its title, the memory nodes across, a row per
 * CPU node. */
static void matrix_table(FILE *f, const struct tt_matrix *m, const double *v, enum tt_figure_id id)
{
	fprintf(f, "%8s", "");
	for (int j = 0; j < m->nmem; j++)
		fprintf(f, " %9d", m->mem_node[j]);
	for (int c = 0; c < m->ncpu; c++) {
		fprintf(f, "\n%8d", m->cpu_node[c]);
		for (int j = 0; j < m->nmem; j++)
			column(f, 9, id, v[c * m->nmem + j]);
	}
	fprintf(f, "\n");
}

void tt_matrix_text(const struct tt_bench_out *out, const struct tt_bench_opts *o,
		    const struct tt_matrix *m)
{
	tt_bench_llc_text(out, &m->llc);
	fprintf(out->f, "%s %s, %s (best of %d), rows: CPU node, columns: memory node\n",
		o->kernel->name, tt_figure(TT_FIG_BANDWIDTH)->name,
		tt_figure(TT_FIG_BANDWIDTH)->label, o->repeat);
	matrix_table(out->f, m, m->bw_bytes_s, TT_FIG_BANDWIDTH);
	/* "idle": the latency figure's name is a loaded one's. */
	fprintf(out->f, "\nidle latency, %s (median)\n", tt_figure(TT_FIG_LATENCY)->label);
	matrix_table(out->f, m, m->lat_ns, TT_FIG_LATENCY);
}

void tt_stream_add(struct tt_stream *sum, const struct tt_bench_opts *o,
		   const struct tt_trial_result *res)
{
	const struct tt_bench_result *r = &res->bench;
	struct tt_stream_row *row;

	if (sum->n == TT_STREAM_MAX)
		return;
	row = &sum->rows[sum->n++];
	*row = (struct tt_stream_row){ .kernel = o->kernel->name,
				       .bw_best = r->bw_best_bytes_s,
				       .mean_s = r->mean_s,
				       .best_s = r->best_s,
				       .max_s = r->max_s,
				       .run_id = res->run_id,
				       .fails = tt_bench_judged(r) };
	sum->repeat = o->repeat;
}

/* The judged column's words after a row ("valid" for none), ", "
 * between: from column at on while they fit the width, the rest on lines
 * of their own from column ind. */
static void judged_words(const struct tt_bench_out *out, unsigned int fails, int at, int ind)
{
	const char *words[TT_JUDGEMENTS + 1];
	int n = 0;

	for (int j = 0; j < TT_JUDGEMENTS; j++)
		if (fails & 1u << j)
			words[n++] = tt_judged_word((enum tt_judgement)j);
	if (!n)
		words[n++] = "valid";
	for (int k = 0; k < n; k++) {
		int len = (int)strlen(words[k]) + 2;

		if (at + len > out->cols - 1) {
			fprintf(out->f, "%s\n%*s", k ? "," : "", ind, "");
			at = ind;
			len -= 2;
		} else {
			fprintf(out->f, "%s", k ? ", " : "  ");
		}
		fprintf(out->f, "%s", words[k]);
		at += len;
	}
	fprintf(out->f, "\n");
}

/* The columns fit 80: a row's judgements past column 79 (a comma ends the
 * line) go on a line of their own, under the column; a terminal too
 * narrow for the column under the row gets them from further left. */
void tt_stream_text(const struct tt_bench_out *out, const struct tt_stream *sum)
{
	const struct tt_figure *bw = tt_figure(TT_FIG_BANDWIDTH),
			       *pass = tt_figure(TT_FIG_PASS_TIME);
	const int col = 54; /* where the judged column starts */
	int widest = 5, ind = col;
	char text[256], head[5][32];

	for (int j = 0; j < TT_JUDGEMENTS; j++) {
		int len = (int)strlen(tt_judged_word((enum tt_judgement)j));

		widest = len > widest ? len : widest;
	}
	if (ind + widest > out->cols - 1)
		ind = out->cols - 1 - widest > 2 ? out->cols - 1 - widest : 2;
	snprintf(text, sizeof(text),
		 "summary: %s of the best pass (as STREAM reports); %s per pass: mean, fastest "
		 "and slowest of %d timed passes",
		 bw->label, pass->row, sum->repeat);
	fprintf(out->f, "\n");
	out->wrap(0, text);
	snprintf(head[0], sizeof(head[0]), "best %s", bw->label);
	snprintf(head[1], sizeof(head[1]), "avg %s", pass->label);
	snprintf(head[2], sizeof(head[2]), "min %s", pass->label);
	snprintf(head[3], sizeof(head[3]), "max %s", pass->label);
	fprintf(out->f, "%-8s %10s %10s %10s %10s  %s\n", "kernel", head[0], head[1], head[2],
		head[3], "judged");
	for (int i = 0; i < sum->n; i++) {
		const struct tt_stream_row *row = &sum->rows[i];

		fprintf(out->f, "%-8s", row->kernel);
		column(out->f, 10, TT_FIG_BANDWIDTH, row->bw_best);
		column(out->f, 10, TT_FIG_PASS_TIME, row->mean_s);
		column(out->f, 10, TT_FIG_PASS_TIME, row->best_s);
		column(out->f, 10, TT_FIG_PASS_TIME, row->max_s);
		judged_words(out, row->fails, col - 2, ind);
	}
}
