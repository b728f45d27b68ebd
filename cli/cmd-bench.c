// SPDX-License-Identifier: GPL-3.0-or-later
/* tiertune bench: run a kernel under a placement and report bandwidth and
 * where the pages went. The options and their checks, and the printing;
 * running, collecting and recording are measure/trial.c's. */
#include "cli.h"
#include "progress.h"

#include "../bench/run.h"
#include "../core/error.h"
#include "../core/parse.h"
#include "../core/wi.h"
#include "../db/db.h"
#include "../measure/trial.h"

#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define MIB(b) ((double)(b) / (1 << 20))

/* The columns text is wrapped to: 80, or a narrower terminal's (the
 * terminal broke words at 60 columns). Files and pipes get 80. */
static int text_columns(void)
{
	int w = isatty(STDOUT_FILENO) ? cli_term_width(STDOUT_FILENO) : 80;

	return w < 80 ? w : 80;
}

/* Text from column indent on, wrapped to fit 80 columns. */
static void print_wrapped(int indent, const char *text)
{
	int cols = text_columns(), col = indent, width = cols - indent;

	while (*text) {
		int n = (int)strcspn(text, " ");

		if (col > indent && col + 1 + n > cols) {
			printf("\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			putchar(' ');
			col++;
		}
		printf("%.*s", n < width ? n : width, text);
		col += n;
		text += n;
		text += strspn(text, " ");
	}
	putchar('\n');
}

/* A line of text that may outgrow 80 columns (paths, lists, reasons):
 * wrapped there, the rest indented by two. */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	char buf[2048];
	va_list ap;
	int col = 0, cols = text_columns();

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (const char *t = buf; *t;) {
		int n = (int)strcspn(t, " ");

		if (col > 2 && col + 1 + n > cols) {
			printf("\n  ");
			col = 2;
		} else if (col > 0) {
			putchar(' ');
			col++;
		}
		printf("%.*s", n, t);
		col += n;
		t += n;
		t += strspn(t, " ");
	}
	putchar('\n');
}

static int list_kernels(const struct tt_cli *cli)
{
	if (cli->json) {
		json_t *a = json_array();

		for (const struct tt_kernel *const *k = tt_kernels; *k; k++)
			json_array_append_new(
				a, json_pack("{s:s,s:s,s:s,s:s?,s:s?,s:i,s:i,s:i}", "name",
					     (*k)->name, "summary", (*k)->summary, "kernel_kind",
					     (*k)->kind->name, "counting", (*k)->counting, "mlc",
					     (*k)->mlc, "arrays", (*k)->arrays, "read_bytes",
					     (*k)->read_bytes, "write_bytes", (*k)->write_bytes));
		return cli_print_json(json_pack("{s:o}", "kernels", a));
	}
	printf("%-15s %9s %-7s %s\n", "kernel", "bytes r+w", "counted",
	       "what (and MLC's equivalent)");
	for (const struct tt_kernel *const *k = tt_kernels; *k; k++) {
		char bytes[32] = "-";

		if ((*k)->kind->bandwidth)
			snprintf(bytes, sizeof(bytes), "%u+%u", (*k)->read_bytes,
				 (*k)->write_bytes);
		printf("%-15s %9s %-7s ", (*k)->name, bytes, (*k)->counting ? (*k)->counting : "-");
		print_wrapped(34, (*k)->summary);
		if ((*k)->mlc) {
			char mlc[128];

			snprintf(mlc, sizeof(mlc), "MLC %s", (*k)->mlc);
			printf("%34s", "");
			print_wrapped(34, mlc);
		}
	}
	printf("\nSTREAM counts the loads and stores in the code; MLC counts memory traffic,\n"
	       "where an ordinary store also reads its line (RFO) and a non-temporal store\n"
	       "does not.\n");
	return 0;
}

static json_t *placement_json(const struct tt_bench_result *r)
{
	const struct tt_place_report *p = &r->place;
	json_t *per = json_array();

	for (int node = 0; node < TT_MAX_NODES; node++) {
		if (!p->want[node] && !p->got[node])
			continue;
		json_array_append_new(
			per, json_pack("{s:i,s:f,s:f,s:I}", "node", node, "requested_share",
				       (double)p->want[node] / (double)p->checked, "achieved_share",
				       (double)p->got[node] / (double)p->checked, "pages",
				       (json_int_t)p->got[node]));
	}
	return json_pack("{s:I,s:I,s:I,s:I,s:s,s:f,s:f,s:f,s:f,s:o}", "pages", (json_int_t)p->pages,
			 "checked", (json_int_t)p->checked, "misplaced", (json_int_t)p->misplaced,
			 "unknown", (json_int_t)p->unknown, "method", r->place_method, "place_s",
			 r->place_s, "policy_s", r->policy_s, "touch_s", r->touch_s, "verify_s",
			 r->verify_s, "per_node", per);
}

static double figure(const struct tt_bench_result *r, size_t offset)
{
	double v;

	memcpy(&v, (const char *)r + offset, sizeof(v));
	return v;
}

/* The kind's figures under their names, and a curve's points. */
static json_t *figures_json(const struct tt_bench_opts *o, const struct tt_bench_result *r)
{
	const struct tt_kind *kind = o->kernel->kind;
	json_t *j = json_object();

	for (const struct tt_kind_figure *f = kind->figures; f->fig; f++) {
		const char *name[3] = { f->fig->best, f->fig->median, f->fig->worst };

		for (int i = 0; i < 3; i++)
			json_object_set_new(j, name[i], tt_json_real(figure(r, f->offset[i])));
		if (f->fig->mean)
			json_object_set_new(j, f->fig->mean,
					    tt_json_real(figure(r, f->mean_offset)));
	}
	if (!kind->curve)
		json_object_set_new(j, "repeat", json_integer(o->repeat));
	if (o->kernel->counting)
		json_object_set_new(j, "counting", json_string(o->kernel->counting));
	if (r->loads)
		json_object_set_new(j, "loads_per_pass", json_integer((json_int_t)r->loads));
	if (kind->curve) {
		json_t *pts = json_array();

		for (int i = 0; i < r->npoints; i++) {
			const struct tt_loaded_point *pt = &r->points[i];

			json_array_append_new(
				pts, json_pack("{s:I,s:f,s:o,s:o,s:s*}", "delay_spins",
					       (json_int_t)pt->delay, "delay_ns", pt->delay_ns,
					       "lat_mean_ns", tt_json_real(pt->lat_ns),
					       "bw_bytes_s", tt_json_real(pt->bw_bytes_s), "note",
					       isfinite(pt->lat_ns)
						       ? NULL
						       : "no load completed in this point"));
		}
		json_object_set_new(j, "traffic",
				    json_string((o->traffic ? o->traffic : &tt_k_reads)->name));
		json_object_set_new(j, "idle_lat_ns", tt_json_real(r->idle_lat_ns));
		json_object_set_new(j, "points", pts);
	}
	return j;
}

static void print_placement(const struct tt_bench_result *r)
{
	const struct tt_place_report *p = &r->place;

	char parts[128] = "";

	if (r->touch_s > 0)
		snprintf(parts, sizeof(parts),
			 " (policy %.3f, first touch %.3f, verification %.3f)", r->policy_s,
			 r->touch_s, r->verify_s);
	printf("\n");
	say("placement verified (%s): %ju of %ju pages checked, %ju misplaced, %.3f s%s",
	    r->place_method, (uintmax_t)p->checked, (uintmax_t)p->pages, (uintmax_t)p->misplaced,
	    r->place_s, parts);
	printf("node  requested  achieved\n");
	for (int node = 0; node < TT_MAX_NODES; node++) {
		if (!p->want[node] && !p->got[node])
			continue;
		printf("%-5d %8.2f%%  %7.2f%%\n", node,
		       100.0 * (double)p->want[node] / (double)p->checked,
		       100.0 * (double)p->got[node] / (double)p->checked);
	}
}

/* A row per figure of the kind: its best, median and worst pass. */
static void print_figures(const struct tt_bench_opts *o, const struct tt_bench_result *r)
{
	const struct tt_kind *kind = o->kernel->kind;

	if (kind->figures[0].fig)
		printf("\n%-12s %12s %12s %12s\n", "per pass", "best", "median", "worst");
	for (const struct tt_kind_figure *f = kind->figures; f->fig; f++) {
		printf("%-12s", f->fig->row);
		for (int i = 0; i < 3; i++)
			printf(" %12.*f", f->fig->decimals,
			       figure(r, f->offset[i]) / f->fig->divisor);
		printf("\n");
	}
	if (r->loads)
		printf("(%ju dependent loads per pass, %d passes)\n", (uintmax_t)r->loads,
		       o->repeat);
	else if (o->kernel->counting)
		printf("(bytes counted as %s does)\n", o->kernel->counting);
	if (!kind->curve)
		return;
	printf("\ntraffic: %s on %d thread%s; delay in spin iterations per cache line\n",
	       (o->traffic ? o->traffic : &tt_k_reads)->name, r->threads - 1,
	       r->threads == 2 ? "" : "s");
	/* MLC loads every other core of the machine; one core's loads, with
	 * its few outstanding misses, reach a share of memory's bandwidth
	 * (6.4 GB/s here at delay 0, against 22 GB/s for reads on 2 threads),
	 * so such a curve never shows the knee near saturation (issue 44). */
	if (r->threads == 2)
		say("one traffic thread cannot bring memory near saturation: the curve ends "
		    "at one core's load, not the machine's (--threads, where the node has "
		    "more CPUs)");
	if (r->idle_lat_ns > 0)
		printf("idle latency (the chase alone, first): %.1f ns\n", r->idle_lat_ns);
	printf("%10s %10s %12s %12s\n", "delay", "delay ns", "latency ns", "GB/s");
	for (int i = 0; i < r->npoints; i++) {
		const struct tt_loaded_point *pt = &r->points[i];

		printf("%10ju %10.1f", (uintmax_t)pt->delay, pt->delay_ns);
		if (isfinite(pt->lat_ns))
			printf(" %12.1f", pt->lat_ns);
		else
			printf(" %12s", "no loads");
		printf(" %12.2f\n", pt->bw_bytes_s / 1e9);
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

/* The benchmark's own bandwidth split by where its pages are: what each
 * node carried if traffic follows the pages (it does for these kernels). */
static double own_share_bw(const struct tt_bench_result *r, int node)
{
	return r->place.checked ? own_bw(r) * (double)r->place.got[node] / (double)r->place.checked
				: 0;
}

static json_t *collect_json(const struct tt_collect_summary *sum, const struct tt_bench_result *r)
{
	json_t *metrics = json_array(), *nodes = json_array();

	for (int i = 0; i < sum->n; i++) {
		const struct tt_metric_summary *m = &sum->metrics[i];

		json_array_append_new(
			metrics,
			json_pack("{s:s,s:s,s:s,s:o,s:s,s:o,s:i,s:i,s:i,s:b}", "collector",
				  m->collector->name, "metric", m->metric.name, "unit",
				  m->metric.unit, "node",
				  m->metric.node >= 0 ? json_integer(m->metric.node) : json_null(),
				  "source", m->metric.source, "mean",
				  isnan(m->mean) ? json_null() : json_real(m->mean), "ok_readings",
				  m->ok, "initializing_readings", m->init, "stale_readings",
				  m->stale, "simulated", !!(m->collector->flags & TT_C_SIMULATED)));
	}
	for (int node = 0; node < TT_MAX_NODES; node++) {
		if (!sum->node_has_bw[node] && !(r->place.got[node]))
			continue;
		json_array_append_new(
			nodes, json_pack("{s:i,s:o,s:f}", "node", node, "collected_bytes_s",
					 sum->node_has_bw[node] ? json_real(sum->node_bw[node])
								: json_null(),
					 "benchmark_share_bytes_s", own_share_bw(r, node)));
	}
	/* note and bw_unavailable are absent, not null, when there is nothing
	 * to say (docs/json.md: "present when"); "s?" would write null, which a
	 * measured phase long enough for collector figures used to show. */
	return json_pack("{s:f,s:s*,s:I,s:I,s:s?,s:b,s:s*,s:o,s:o}", "window_s", sum->window_s,
			 "note", sum->note[0] ? sum->note : NULL, "readings",
			 (json_int_t)sum->nreadings, "lost_readings", (json_int_t)sum->lost,
			 "bw_source", sum->bw_source, "bw_simulated", sum->bw_simulated,
			 "bw_unavailable", sum->bw_source ? NULL : sum->why_no_bw, "per_node",
			 nodes, "metrics", metrics);
}
static void print_collect(const struct tt_collect_summary *sum, const struct tt_bench_result *r)
{
	printf("\ncollected over the measured passes: %.2f s, %zu readings\n", sum->window_s,
	       sum->nreadings);
	printf("node  %-26s %s\n", sum->bw_source ? sum->bw_source : "collected GB/s",
	       "benchmark GB/s by page share");
	for (int node = 0; node < TT_MAX_NODES; node++) {
		char got[48] = "-";

		if (!sum->node_has_bw[node] && !r->place.got[node])
			continue;
		if (sum->node_has_bw[node])
			snprintf(got, sizeof(got), "%.2f%s", sum->node_bw[node] / 1e9,
				 sum->bw_simulated ? " SIMULATED" : "");
		printf("%-5d %-26s %.2f\n", node, got, own_share_bw(r, node) / 1e9);
	}
	if (!sum->bw_source)
		say("(no per-node traffic measured: %s)", sum->why_no_bw);
	if (sum->note[0])
		say("note: %s", sum->note);
	printf("\n%-11s %-24s %5s %16s  %s\n", "collector", "metric", "node", "mean", "unit");
	for (int i = 0; i < sum->n; i++) {
		const struct tt_metric_summary *m = &sum->metrics[i];
		char node[16] = "-", mean[32] = "no data";

		if (m->metric.node >= 0)
			snprintf(node, sizeof(node), "%d", m->metric.node);
		if (!isnan(m->mean))
			snprintf(mean, sizeof(mean), "%.6g", m->mean);
		else if (m->stale)
			snprintf(mean, sizeof(mean), "stale");
		printf("%-11s %-24s %5s %16s  %s%s\n", m->collector->name, m->metric.name, node,
		       mean, m->metric.unit,
		       m->collector->flags & TT_C_SIMULATED ? " (simulated)" : "");
	}
}

/* What the figures can be trusted for. */
struct trust {
	const struct tt_llc *llc;
	bool below_rule, resident, short_pass, unstable;
	const char *why_unstable; /* NULL or "": none said */
	double tick_s;
	bool descheduled;
	const char *why_descheduled;
	const struct tt_bench_ran *ran; /* NULL: the matrix's runs, not one */
	unsigned int fails;		/* tt_judged */
};

static json_t *ran_json(const struct tt_bench_ran *ran)
{
	if (!ran || !ran->passes)
		return json_null();
	return json_pack("{s:o,s:i,s:o,s:i,s:i,s:I,s:o,s:o}", "cpu_share", tt_json_real(ran->share),
			 "cpu", ran->cpu, "cpu_share_least", tt_json_real(ran->least_share),
			 "passes", ran->passes, "passes_descheduled", ran->descheduled,
			 "involuntary_switches", (json_int_t)ran->nivcsw, "wall_s",
			 tt_json_real(ran->wall_s), "steal_s", tt_json_real(ran->steal_s));
}

/* The last-level cache, and whether the figures are the memory's: the
 * contract's llc_bytes, below_llc_rule, cache_resident (both null when no
 * cache size is known), short_pass and unstable, and where the cache's
 * size came from. */
static json_t *memory_json(const struct trust *tr)
{
	const struct tt_llc *llc = tr->llc;
	json_t *j = json_pack(
		"{s:o,s:o,s:s,s:o,s:o,s:b,s:b}", "llc_bytes",
		llc->bytes ? json_integer((json_int_t)llc->bytes) : json_null(), "llc_level",
		llc->bytes ? json_integer(llc->level) : json_null(), "llc_source", llc->from,
		"below_llc_rule", llc->bytes ? json_boolean(tr->below_rule) : json_null(),
		"cache_resident", llc->bytes ? json_boolean(tr->resident) : json_null(),
		"short_pass", tr->short_pass, "unstable", tr->unstable);

	char judged[160];

	if (tr->why_unstable && tr->why_unstable[0])
		json_object_set_new(j, "unstable_reason", json_string(tr->why_unstable));
	if (tr->tick_s > 0)
		json_object_set_new(j, "timer_tick_s", json_real(tr->tick_s));
	json_object_set_new(j, "descheduled", json_boolean(tr->descheduled));
	if (tr->descheduled && tr->why_descheduled && tr->why_descheduled[0])
		json_object_set_new(j, "descheduled_reason", json_string(tr->why_descheduled));
	json_object_set_new(j, "ran", ran_json(tr->ran));
	tt_judged_text(tr->fails, judged, sizeof(judged));
	json_object_set_new(j, "judged", json_string(judged));
	return j;
}

static void print_llc(const struct tt_llc *llc)
{
	bool per_package = !strcmp(llc->from, "sysconf/CPUID") || !strcmp(llc->from, "CPUID");

	if (!llc->bytes) {
		say("last-level cache: unknown (%s): the buffers may be cache-resident", llc->from);
		return;
	}
	printf("last-level cache: %.1f MiB (L%d, from %s, %d %s%s)\n", MIB(llc->bytes), llc->level,
	       llc->from, llc->count, per_package ? "package" : "instance",
	       llc->count == 1 ? "" : "s");
}

/* Whether the figures above are the memory's: a working set the
 * last-level cache holds measures the cache; arrays under STREAM's 4x rule
 * are partly served from it; a pass of a few clock ticks measures the
 * clock; passes or points that disagree measure the host's other work.
 * touched: the bytes a pass touches (0: the matrix, its arrays'); best_s
 * 0: the fastest of several runs' passes (the matrix). */
static void print_trust(const struct trust *tr, size_t array_bytes, size_t touched,
			const char *buffers, double best_s)
{
	const struct tt_llc *llc = tr->llc;

	if (tr->resident)
		say("cache-resident: the %.1f MiB a pass touches fit in the last-level cache "
		    "(%.1f MiB): these figures are the cache's, not memory's; use --size %.0fM "
		    "or more (or leave it out: STREAM's rule)",
		    MIB(touched ? touched : array_bytes), MIB(llc->bytes),
		    ceil(MIB(llc->bytes * TT_LLC_FACTOR)));
	else if (tr->below_rule)
		say("below STREAM's 4x rule: %.1f MiB %s are under %dx the last-level cache "
		    "(%.1f MiB), so some of each pass may be served from it; use --size %.0fM "
		    "or more (or leave it out: STREAM's rule)",
		    MIB(array_bytes), buffers, TT_LLC_FACTOR, MIB(llc->bytes),
		    ceil(MIB(llc->bytes * TT_LLC_FACTOR)));
	if (tr->short_pass && best_s > 0)
		say("too short: the fastest pass took %.1f us, under %d ticks of the clock "
		    "(%.0f ns each): the time is mostly the clock's; use a larger --size",
		    best_s * 1e6, TT_MIN_TICKS, tr->tick_s * 1e9);
	else if (tr->short_pass)
		say("too short: a pass took under %d ticks of the clock: the time is mostly "
		    "the clock's; use a larger --size",
		    TT_MIN_TICKS);
	if (tr->descheduled)
		say("descheduled: %s: other work shares the CPU, and its time is in these "
		    "figures; run again when the host is quieter (see 'uptime')",
		    tr->why_descheduled);
	if (tr->unstable)
		say("unstable: %s: other work on the host shares these CPUs or memory; run "
		    "again when it is quieter (see 'uptime')",
		    tr->why_unstable && tr->why_unstable[0] ? tr->why_unstable
							    : "its runs disagree");
}

/* What was asked for the buffers' pages: "base", "thp" or "hugetlb". */
static const char *page_request(bool thp, int huge_shift)
{
	return huge_shift ? "hugetlb" : thp ? "thp" : "base";
}

/* The pages behind the buffers, as obtained (smaps), not as asked: MLC's
 * latency figures come from 2 MiB pages, and a 4 KiB page's TLB miss adds
 * to every load of a large chain. */
static void print_pages(const char *label, bool thp, int huge_shift, const struct tt_pages_got *p)
{
	const char *kind = huge_shift ? "hugetlbfs" : "transparent huge";
	const char *counter = huge_shift ? "Private_Hugetlb" : "AnonHugePages";
	size_t huge_kib = p->huge_page_size >> 10;

	if (!p->buffer_bytes)
		return;
	if (!thp && !huge_shift)
		say("%s: %zu KiB (huge pages not asked: --page-size thp, 2M or 1G for them, "
		    "as MLC measures latency)",
		    label, p->page_bytes >> 10);
	else if (p->huge_bytes >= p->buffer_bytes)
		say("%s: %zu %s %s pages for all %.1f MiB (%s in /proc/self/smaps)", label,
		    huge_kib >= 1024 ? huge_kib >> 10 : huge_kib, huge_kib >= 1024 ? "MiB" : "KiB",
		    kind, MIB(p->buffer_bytes), counter);
	else if (p->huge_bytes)
		say("%s: %zu %s %s pages for %.1f of %.1f MiB (%s in /proc/self/smaps), "
		    "%zu KiB pages for the rest",
		    label, huge_kib >= 1024 ? huge_kib >> 10 : huge_kib,
		    huge_kib >= 1024 ? "MiB" : "KiB", kind, MIB(p->huge_bytes),
		    MIB(p->buffer_bytes), counter, p->page_bytes >> 10);
	else
		say("%s: %zu KiB: transparent huge pages asked for and none were obtained "
		    "(AnonHugePages 0; see /sys/kernel/mm/transparent_hugepage/enabled); "
		    "--page-size 2M for hugetlbfs pages",
		    label, p->page_bytes >> 10);
}

static json_t *pages_json(bool thp, int huge_shift, const struct tt_pages_got *p)
{
	return json_pack(
		"{s:I,s:s,s:b,s:I,s:o,s:I}", "page_bytes", (json_int_t)p->page_bytes,
		"page_request", page_request(thp, huge_shift), "thp_requested", p->thp_asked,
		"huge_page_bytes", (json_int_t)p->huge_bytes, "huge_page_size_bytes",
		p->huge_page_size ? json_integer((json_int_t)p->huge_page_size) : json_null(),
		"buffer_bytes", (json_int_t)p->buffer_bytes);
}

/* The header: what runs where, on what sizes. Printed once the buffers are
 * mapped and fit, before they are touched, so that a person sees it while
 * they wait. */
static void print_header(const struct tt_cli *cli, const struct tt_bench_opts *o,
			 const struct tt_bench_result *r)
{
	char nodes[256], cpus[512];
	uint64_t bits[TT_MAX_CPUS / 64] = { 0 };

	tt_bit_format_list(o->place.nodes.bits, TT_MAX_NODES, nodes, sizeof(nodes));
	for (int i = 0; i < r->threads; i++)
		tt_bit_set(bits, (unsigned int)r->cpus[i]);
	tt_bit_format_list(bits, TT_MAX_CPUS, cpus, sizeof(cpus));
	if (!cli->sfs.live)
		printf("simulated: topology from '%s', not this machine; buffers and threads "
		       "are this machine's\n",
		       cli->sysfs_root);
	char sizes[320];
	int n = snprintf(sizes, sizeof(sizes), "%s of %.1f MiB (%s)", o->kernel->kind->buffers,
			 MIB(r->array_bytes), r->size_rule);

	if (!o->kernel->kind->curve && n < (int)sizeof(sizes))
		n += snprintf(sizes + n, sizeof(sizes) - (size_t)n,
			      ", %d timed passes after one warm-up", o->repeat);
	if (n < (int)sizeof(sizes))
		snprintf(sizes + n, sizeof(sizes) - (size_t)n, "; %s loops", r->isa);
	say("kernel %s, %s placement on nodes %s, source node %d, %d thread%s on CPU%s %s",
	    o->kernel->name, tt_place_mode_names[o->place.mode], nodes, o->source_node, r->threads,
	    r->threads == 1 ? "" : "s", r->threads == 1 ? "" : "s", cpus);
	say("%s", sizes);
	print_llc(&r->llc);
	fflush(stdout);
}

/* The summary after several kernels, as STREAM ends: a line per kernel
 * with one statistic throughout, named in its heading: the rate of the
 * best (fastest) pass, as STREAM reports it, and the mean, fastest and
 * slowest of the timed passes (the warm-up left out, as STREAM leaves out
 * its first iteration); and the tool's judgement of each run. */
#define SUMMARY_MAX 8

struct summary {
	json_t *docs; /* --json: each kernel's document, printed together */
	int n, repeat;
	struct summary_row {
		const char *kernel;
		double bw_best, mean_s, best_s, max_s;
		int64_t run_id;
		/* The judgements the run fails (tt_bench_judged). */
		unsigned int fails;
	} rows[SUMMARY_MAX];
};

static void summary_add(struct summary *sum, const struct tt_bench_opts *o,
			const struct tt_trial_result *res)
{
	const struct tt_bench_result *r = &res->bench;
	struct summary_row *row;

	if (sum->n == SUMMARY_MAX)
		return;
	row = &sum->rows[sum->n++];
	*row = (struct summary_row){ .kernel = o->kernel->name,
				     .bw_best = r->bw_best_bytes_s,
				     .mean_s = r->mean_s,
				     .best_s = r->best_s,
				     .max_s = r->max_s,
				     .run_id = res->run_id };
	sum->repeat = o->repeat;
	row->fails = tt_bench_judged(r);
}

/* The columns fit 80: a row's judgements past column 79 (a comma ends the
 * line) go on a line of their own, under the column. */
static void print_summary(const struct summary *sum)
{
	const int col = 54; /* where the judged column starts */

	printf("\nsummary: GB/s of the best pass (as STREAM reports); seconds per pass: mean,\n"
	       "fastest and slowest of %d timed passes\n",
	       sum->repeat);
	printf("%-8s %10s %10s %10s %10s  %s\n", "kernel", "best GB/s", "avg s", "min s", "max s",
	       "judged");
	for (int i = 0; i < sum->n; i++) {
		const struct summary_row *row = &sum->rows[i];
		int at = col;

		printf("%-8s %10.2f %10.6f %10.6f %10.6f  ", row->kernel, row->bw_best / 1e9,
		       row->mean_s, row->best_s, row->max_s);
		if (!row->fails)
			printf("valid");
		for (int j = 0, k = 0; j < TT_JUDGEMENTS; j++) {
			if (!(row->fails & 1u << j))
				continue;
			const char *w = tt_judged_word((enum tt_judgement)j);
			int len = (int)strlen(w) + (k ? 2 : 0);

			if (k && at + len > 79) {
				printf(",\n%*s", col, "");
				at = col;
				len -= 2;
			} else if (k) {
				printf(", ");
			}
			printf("%s", w);
			at += len;
			k++;
		}
		printf("\n");
	}
}

static json_t *summary_json(const struct summary *sum)
{
	json_t *rows = json_array();

	for (int i = 0; i < sum->n; i++) {
		const struct summary_row *row = &sum->rows[i];
		json_t *fails = json_array();
		char judged[160];

		for (int j = 0; j < TT_JUDGEMENTS; j++)
			if (row->fails & 1u << j)
				json_array_append_new(
					fails, json_string(tt_judged_json((enum tt_judgement)j)));
		tt_judged_text(row->fails, judged, sizeof(judged));
		json_array_append_new(
			rows,
			json_pack("{s:s,s:o,s:o,s:o,s:o,s:b,s:o,s:s,s:o}", "kernel", row->kernel,
				  "bw_best_bytes_s", tt_json_real(row->bw_best), "pass_mean_s",
				  tt_json_real(row->mean_s), "pass_best_s",
				  tt_json_real(row->best_s), "pass_max_s", tt_json_real(row->max_s),
				  "valid", !row->fails, "judgements", fails, "judged", judged,
				  "run", row->run_id ? json_integer(row->run_id) : json_null()));
	}
	return json_pack("{s:s,s:i,s:o}", "statistic", "best_pass", "repeat", sum->repeat, "rows",
			 rows);
}

/* What the run checked of its result (the JSON's "validated"), then the
 * judgement beside it, in the summary's words (the JSON's "judged"):
 * "validation: passed" under a run the lines above disown (cache-resident,
 * below the rule, too short, descheduled, unstable) read as the tool
 * standing behind figures it does not (issue 34). Where the pages went is
 * the placement's line, above. */
static void print_verdict(const struct tt_bench_opts *o, const struct tt_bench_result *r)
{
	const struct tt_kernel *k = o->kernel, *traffic = o->traffic ? o->traffic : &tt_k_reads;
	unsigned int fails = tt_bench_judged(r);
	char list[160];

	if (k->kind->curve)
		printf("checked: the chain, one cycle through every line%s",
		       traffic->out_array >= 0 ? ", and the traffic's output, every element" : "");
	else if (!k->kind->bandwidth)
		printf("checked: the chain, one cycle through every line");
	else if (k->out_array >= 0)
		printf("checked: the output, every element as the kernel computes it");
	else
		printf("checked: the sum of all it read, as the kernel computes it");
	printf("%s\n", r->validated ? "" : ": WRONG");
	tt_judged_text(fails, list, sizeof(list));
	if (fails)
		say("judged: %s (above): not figures of memory to rely on", list);
	else if (k->kind->curve)
		printf("judged: valid; the curve is monotone and at or above the idle latency\n");
	else
		printf("judged: valid\n");
}

static int report(const struct tt_cli *cli, const struct tt_bench_opts *o,
		  const struct tt_trial_result *res, const struct tt_topo *t, struct summary *sum)
{
	const struct tt_bench_result *r = &res->bench;
	const struct tt_collect_summary *csum = res->collected ? &res->sum : NULL;
	struct trust trust = { .llc = &r->llc,
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

	if (sum)
		summary_add(sum, o, res);
	if (cli->json) {
		json_t *cpu_list = json_array();

		for (int i = 0; i < r->threads; i++)
			json_array_append_new(cpu_list, json_integer(r->cpus[i]));
		json_t *j = json_pack(
			"{s:b,s:s,s:s,s:s,s:o,s:i,s:s,s:i,s:o,s:I,s:I,s:s,s:b,s:o,s:{s:s,s:s}}",
			"simulated", !cli->sfs.live, "kernel", o->kernel->name, "kernel_kind",
			o->kernel->kind->name, "placement", tt_place_mode_names[o->place.mode],
			"nodes", tt_json_nodes(&o->place.nodes), "source_node", o->source_node,
			"size_rule", r->size_rule, "threads", r->threads, "cpus", cpu_list,
			"array_bytes", (json_int_t)r->array_bytes, "elements",
			(json_int_t)r->elements, "isa", r->isa, "validated", r->validated,
			"verification", placement_json(r), "machine", "kernel_release",
			t->kernel_release, "cpu_model", t->cpu_model);

		json_object_update_new(j, figures_json(o, r));
		json_object_update_new(j, memory_json(&trust));
		json_object_update_new(j, pages_json(o->place.thp, o->place.huge_shift, &r->pages));
		if (res->run_id)
			json_object_set_new(j, "run", json_integer(res->run_id));
		if (csum)
			json_object_set_new(j, "collect", collect_json(csum, r));
		if (!sum)
			return cli_print_json(j);
		json_t *doc = json_pack("{s:i}", "schema_version", TT_JSON_SCHEMA_VERSION);

		json_object_update_new(doc, j);
		json_array_append_new(sum->docs, doc);
		return 0;
	}
	print_figures(o, r);
	print_pages("pages", o->place.thp, o->place.huge_shift, &r->pages);
	print_trust(&trust, r->array_bytes, r->touched_bytes, o->kernel->kind->buffers, r->best_s);
	print_placement(r);
	print_verdict(o, r);
	if (res->run_id)
		printf("recorded as run %jd\n", (intmax_t)res->run_id);
	if (csum)
		print_collect(csum, r);
	return 0;
}

static int report_matrix(const struct tt_cli *cli, const struct tt_bench_opts *o,
			 const struct tt_trial_result *res)
{
	const struct tt_matrix *m = &res->matrix;
	char why[96];
	struct trust trust = { .llc = &m->llc,
			       .below_rule = m->below_rule,
			       .resident = m->cache_resident,
			       .short_pass = m->short_pass,
			       .unstable = m->unstable,
			       .why_unstable = why,
			       .descheduled = m->descheduled,
			       .why_descheduled = m->descheduled_why,
			       .fails = tt_judged(
				       &(struct tt_judging){ .validated = true,
							     .cache_resident = m->cache_resident,
							     .below_rule = m->below_rule,
							     .short_pass = m->short_pass,
							     .descheduled = m->descheduled,
							     .unstable = m->unstable }) };

	snprintf(why, sizeof(why), "a run's median pass took over %.0f%% longer than its best",
		 TT_SPREAD_MAX * 100);
	if (cli->json) {
		json_t *rows = json_array();

		for (int c = 0; c < m->ncpu; c++)
			for (int j = 0; j < m->nmem; j++)
				json_array_append_new(
					rows,
					json_pack("{s:i,s:i,s:i,s:o,s:o}", "cpu_node",
						  m->cpu_node[c], "mem_node", m->mem_node[j],
						  "threads", m->threads[c], "bw_best_bytes_s",
						  tt_json_real(m->bw_bytes_s[c * m->nmem + j]),
						  "lat_median_ns",
						  tt_json_real(m->lat_ns[c * m->nmem + j])));
		json_t *j = json_pack("{s:b,s:s,s:s,s:s,s:i,s:I,s:o}", "simulated", 0, "kernel",
				      o->kernel->name, "kernel_kind", o->kernel->kind->name,
				      "counting", o->kernel->counting, "repeat", o->repeat,
				      "array_bytes", (json_int_t)m->array_bytes, "matrix", rows);

		json_object_update_new(j, memory_json(&trust));
		json_object_set_new(
			j, "latency_pages",
			pages_json(o->matrix_lat_thp, o->matrix_lat_huge_shift, &m->lat_pages));
		json_object_set_new(j, "bandwidth_pages",
				    pages_json(o->place.thp, o->place.huge_shift, &m->bw_pages));
		if (res->run_id)
			json_object_set_new(j, "run", json_integer(res->run_id));
		return cli_print_json(j);
	}
	print_llc(&m->llc);
	printf("%s bandwidth, GB/s (best of %d), rows: CPU node, columns: memory node\n",
	       o->kernel->name, o->repeat);
	printf("%8s", "");
	for (int j = 0; j < m->nmem; j++)
		printf(" %9d", m->mem_node[j]);
	for (int c = 0; c < m->ncpu; c++) {
		printf("\n%8d", m->cpu_node[c]);
		for (int j = 0; j < m->nmem; j++)
			printf(" %9.2f", m->bw_bytes_s[c * m->nmem + j] / 1e9);
	}
	printf("\n\nidle latency, ns (median)\n%8s", "");
	for (int j = 0; j < m->nmem; j++)
		printf(" %9d", m->mem_node[j]);
	for (int c = 0; c < m->ncpu; c++) {
		printf("\n%8d", m->cpu_node[c]);
		for (int j = 0; j < m->nmem; j++)
			printf(" %9.1f", m->lat_ns[c * m->nmem + j]);
	}
	printf("\n");
	print_pages("bandwidth pages", o->place.thp, o->place.huge_shift, &m->bw_pages);
	print_pages("latency pages", o->matrix_lat_thp, o->matrix_lat_huge_shift, &m->lat_pages);
	print_trust(&trust, m->array_bytes, 0, "arrays", 0);
	if (res->run_id)
		printf("recorded as run %jd\n", (intmax_t)res->run_id);
	return 0;
}

struct bench_args {
	const char *kernel, *nodes, *weights, *traffic, *collect, *page_size;
	int placement; /* enum tt_place_mode; -1: not given */
	int64_t source;
	uint64_t threads, size, repeat, verify_max, point_ms;
	uint64_t delays[TT_MAX_DELAYS];
	int ndelays;
	bool list, thp, matrix, record;
};

static int parse_delays(const char *arg, struct bench_args *a)
{
	char buf[1024], *save = NULL;

	if (snprintf(buf, sizeof(buf), "%s", arg) >= (int)sizeof(buf))
		return cli_usage("--delays '%.40s...' is too long", arg);
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (a->ndelays == TT_MAX_DELAYS)
			return cli_usage("--delays '%s' has more than %d delays", arg,
					 TT_MAX_DELAYS);
		if (cli_number("delays", tok, 0, 100000000, &a->delays[a->ndelays++]))
			return 2;
	}
	if (!a->ndelays)
		return cli_usage("--delays '%s' lists no delay", arg);
	return 0;
}

/* The options that need no machine: 0 or an exit code (2). */
/* The pages behind the buffers. The latency kernels default to
 * transparent huge pages: MLC's latency figures, the ones users hold
 * these to, are taken on 2 MiB pages (Intel's instructions reserve a
 * hugetlbfs pool for it, echo 4000 > /proc/sys/vm/nr_hugepages), and on
 * 4 KiB pages a chain over gigabytes adds a TLB miss, a page walk, to
 * nearly every load (231 ns against 140 ns on one host, issue 34). THP
 * gives the same 2 MiB reach without root or a pool reserved ahead, and
 * what it gave is read back (AnonHugePages), not assumed; 2M and 1G take
 * hugetlbfs pages from the reserved pool, as MLC does. Bandwidth kernels
 * keep 4 KiB pages: their weights count pages, and one THP is one
 * interleave slot of 512 (place.c). The matrix's bandwidth runs keep them
 * too (the model collector holds auto's 4 KiB trials to their figures);
 * its idle latency, the column users hold to MLC's, takes THP. */
static const struct {
	const char *name;
	bool thp;
	int huge_shift;
} page_sizes[] = {
	{ "4K", false, 0 }, { "thp", true, 0 }, { "2M", false, 21 }, { "1G", false, 30 }
};

/* --page-size's words, for completion; the value itself is matched in any
 * case (2m, THP), as people write page sizes. */
static const char *page_size_name(int i)
{
	return i >= 0 && (size_t)i < sizeof(page_sizes) / sizeof(*page_sizes) ? page_sizes[i].name
									      : NULL;
}

static int page_size_arg(const struct bench_args *a, struct tt_bench_opts *o)
{
	const char *want = a->page_size;

	if (a->thp && want && strcasecmp(want, "thp"))
		return cli_usage("--thp asks for transparent huge pages and --page-size for '%s'; "
				 "give one",
				 want);
	if (a->thp)
		want = "thp";
	if (!want)
		want = o->kernel->kind->bandwidth ? "4K" : "thp";
	for (int i = 0; page_size_name(i); i++)
		if (!strcasecmp(want, page_sizes[i].name)) {
			o->place.thp = page_sizes[i].thp;
			o->place.huge_shift = page_sizes[i].huge_shift;
			o->matrix_lat_thp = a->thp || a->page_size ? page_sizes[i].thp : true;
			o->matrix_lat_huge_shift = page_sizes[i].huge_shift;
			return 0;
		}
	return cli_usage("'--page-size' value '%s' is not a page size; give 4K (base pages), "
			 "thp (transparent huge pages), 2M or 1G (hugetlbfs)",
			 want);
}

static int check_args(const struct bench_args *a, struct tt_bench_opts *o)
{
	o->kernel = tt_kernel_find(a->kernel ? a->kernel : "reads");
	if (!o->kernel)
		return cli_usage("unknown kernel '%s' (see 'tiertune bench --list')", a->kernel);
	if (a->matrix && a->collect)
		return cli_usage("--collect does not take --matrix");
	if (a->matrix && (a->nodes || a->weights || a->placement >= 0 || a->source >= 0))
		return cli_usage("--matrix binds every memory node from every CPU node in turn; it "
				 "takes no --nodes, --weights, --placement or --source-node");
	if (a->matrix && !o->kernel->kind->bandwidth)
		return cli_usage(
			"--matrix measures bandwidth and idle latency; kernel '%s' is not a "
			"bandwidth kernel",
			a->kernel);
	if (a->traffic) {
		o->traffic = tt_kernel_find(a->traffic);
		if (!o->traffic || !o->traffic->kind->bandwidth)
			return cli_usage("--traffic '%s' is not a bandwidth kernel (see 'tiertune "
					 "bench --list')",
					 a->traffic);
		if (!o->kernel->kind->curve)
			return cli_usage("--traffic goes with --kernel loaded-latency");
	}
	if ((a->ndelays || a->point_ms) && !o->kernel->kind->curve)
		return cli_usage("--delays and --point-ms go with --kernel loaded-latency");
	o->point_s = (double)a->point_ms / 1e3;
	memcpy(o->delays, a->delays, sizeof(o->delays));
	o->ndelays = a->ndelays;
	return page_size_arg(a, o);
}

/* The options checked against the topology: placement nodes and weights.
 * A library status. */
static int place_args(struct tt_cli *cli, const struct bench_args *a, const struct tt_topo *t,
		      enum tt_place_mode mode, struct tt_bench_opts *o, struct tt_weights *w)
{
	struct tt_nodemask nodes = { 0 }, src = { 0 };
	int rc, node;

	/* A fixture's nodes are not this machine's: real buffers timed under
	 * them give figures of neither. Only a modelled run makes sense there,
	 * and it is marked simulated throughout. */
	if (!cli->sfs.live && !(a->collect && tt_collectors_simulated(a->collect))) {
		rc = tt_err(TT_EINPUT,
			    "--sysfs-root '%s' is not this machine: bench allocates and "
			    "times real memory, which that topology does not describe",
			    cli->sysfs_root);
		tt_err_hint("model the run with --collect model, or use 'tiertune simulate'");
		return rc;
	}
	o->source_node = a->source >= 0 ? (int)a->source : t->nodes[0].id;
	tt_bit_set(src.bits, (unsigned int)o->source_node);
	rc = tt_topo_check_nodes(t, &src, "--source-node");
	if (rc < 0)
		return rc;
	if (!a->nodes)
		tt_bit_set(nodes.bits, (unsigned int)o->source_node);
	else if (tt_parse_list(a->nodes, nodes.bits, TT_MAX_NODES) || !tt_nodemask_weight(&nodes))
		return tt_err(TT_EINPUT, "--nodes '%s' is not a node list (want e.g. 0-2)",
			      a->nodes);
	rc = tt_topo_check_nodes(t, &nodes, "--nodes");
	if (rc < 0)
		return rc;
	tt_weights_clear(w);
	if (a->weights) {
		if (mode == TT_PLACE_KERNEL)
			return tt_err(TT_EINPUT,
				      "--weights does not go with kernel placement, which "
				      "uses the weights in sysfs (set them with tiertune apply)");
		rc = tt_weights_parse(a->weights, w);
		if (rc == 0)
			rc = tt_weights_check_range(w, 1, 255);
		if (rc < 0)
			return rc;
		tt_nodemask_for_each (node, &w->set) {
			if (!tt_nodemask_test(&nodes, node))
				return tt_err(TT_EINPUT,
					      "weights '%s' give node %d, which is not in "
					      "--nodes",
					      a->weights, node);
		}
	} else if (mode == TT_PLACE_KERNEL) {
		const struct tt_wi_backend *be;
		struct tt_wi_state st;
		struct tt_il_order ord;

		if (tt_wi_pick(&cli->sfs, NULL, &be) < 0) {
			char why[1024];

			snprintf(why, sizeof(why), "%s", tt_err_msg());
			return tt_err(TT_EUNAVAIL, "kernel placement is unavailable: %s", why);
		}
		/* The weights each node gets from what the kernel holds for the
		 * source node's tasks. */
		tt_wi_state_init(&st);
		rc = be->read(&cli->sfs, t, &st);
		if (rc == 0)
			rc = tt_wi_order(be, &st, t, o->source_node, &nodes, &ord);
		tt_wi_state_release(&st);
		if (rc < 0)
			return rc;
		for (int i = 0; i < ord.n; i++)
			tt_weights_put(w, ord.node[i], ord.weight[i]);
	}
	if (mode == TT_PLACE_BIND && tt_nodemask_weight(&nodes) != 1)
		return tt_err(TT_EINPUT, "bind placement takes one node in --nodes, got '%s'",
			      a->nodes);
	bool thp = o->place.thp;
	int huge_shift = o->place.huge_shift;

	rc = tt_place_init(&o->place, mode, &nodes, w, o->source_node);
	o->place.thp = thp;
	o->place.huge_shift = huge_shift;
	return rc;
}

/* The trial's database: opened when it starts measuring (measure/trial.h). */
static int open_record(void *cli, struct tt_db **db)
{
	return cli_db(cli, 0, db);
}

/* The model collector's figures: the bandwidth this machine's newest
 * matrix run measured from the source (collectors/c-model.c), where there
 * is one; else it takes HMAT's. Only for this machine (a fixture's matrix
 * runs are simulated, never measured), and only once the source's CPUs
 * are known to be usable: opening the database, even to read, can leave
 * its WAL file behind, and a refused run must leave it as it was. */
static bool measured_bw(struct tt_cli *cli, const struct bench_args *a, const struct tt_topo *t,
			int src, double *bw, int64_t *run)
{
	int cpus[TT_MAX_CPUS], ncpus;
	struct tt_db *db;
	bool got = false;

	if (!a->collect || !strstr(a->collect, "model") || a->matrix || !cli->sfs.live ||
	    tt_bench_cpus(t, src, cpus, &ncpus) < 0 || (int)a->threads > ncpus ||
	    cli_db(cli, TT_DB_READONLY, &db) < 0)
		return false;
	got = tt_db_measured_bw(db, t, src, bw, run) == 0;
	tt_db_close(db);
	return got;
}

/* A person waiting at a terminal: the header first, then the trial's
 * status line on stderr (progress.h, auto's too), cleared before the
 * results. Nothing of it when stderr is not a terminal. */
struct waiting {
	const struct tt_cli *cli;
	const struct tt_bench_opts *o;
	struct cli_progress line;
};

static int on_started(void *ctx, const struct tt_bench_result *r)
{
	struct waiting *w = ctx;

	if (!w->cli->json)
		print_header(w->cli, w->o, r);
	cli_progress_started(&w->line, w->o->kernel, r);
	return 0;
}

static void on_progress(void *ctx, int n, int of)
{
	struct waiting *w = ctx;

	cli_progress_pass(&w->line, n, of);
}

/* ^C, SIGTERM, SIGHUP: stop between passes, mark the recorded run
 * interrupted, say so. A second one ends the process at once. */
static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
	signal(sig, SIG_DFL);
}

static void catch_signals(bool on)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on ? on_signal : SIG_DFL;
	/* Restarted: a system call the signal lands in must not fail for it
	 * (EINTR) and be reported as the run's error; the run polls the flag. */
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(*sigs); i++)
		sigaction(sigs[i], &sa, NULL);
}

static int bench(struct tt_cli *cli, const struct bench_args *a, struct summary *sum)
{
	struct tt_trial_opts to = { .bench = { .repeat = (int)a->repeat,
					       .threads = (int)a->threads,
					       .array_bytes = a->size,
					       .verify_max = a->verify_max,
					       .sfs = &cli->sfs },
				    .matrix = a->matrix,
				    .collect = a->collect,
				    .open_db = a->record ? open_record : NULL,
				    .open_db_ctx = cli,
				    .command = cli->cmdline };
	struct tt_bench_opts *o = &to.bench;
	enum tt_place_mode mode = TT_PLACE_EXACT;
	struct tt_trial_result *res = NULL;
	struct tt_weights w;
	struct tt_topo *t;
	double measured[TT_MAX_NODES];
	int64_t mrun = 0;
	int rc = check_args(a, o);

	if (rc)
		return rc;
	/* Caught from here on, not only once the run starts: a ^C while the
	 * topology, the placement or the database is read (seconds on a busy
	 * host) stops the run at its first check and says so, where the
	 * default action would end the process without a word (t0004). */
	catch_signals(true);
	if (a->placement >= 0)
		mode = (enum tt_place_mode)a->placement;
	rc = cli_setup(cli);
	if (rc)
		goto out;
	t = cli->topo;
	o->topo = t;
	rc = place_args(cli, a, t, mode, o, &w);
	if (rc < 0)
		goto out;
	if (mode == TT_PLACE_EXACT || mode == TT_PLACE_KERNEL)
		to.weights = &w;
	if (measured_bw(cli, a, t, o->source_node, measured, &mrun)) {
		to.measured_bw_bytes_s = measured;
		if (!cli->json)
			printf("model collector: bandwidth measured from node %d by matrix run %jd "
			       "where it has a figure, HMAT's elsewhere\n",
			       o->source_node, (intmax_t)mrun);
	}
	struct waiting wait = { .cli = cli, .o = o };

	cli_progress_init(&wait.line, isatty(STDERR_FILENO));
	o->started = a->matrix ? NULL : on_started;
	o->progress = on_progress;
	o->report_ctx = &wait;
	o->touched_bytes = cli_progress_counter(&wait.line);
	o->stop = &stop_signal;
	rc = tt_trial_run(&to, &res);
	cli_progress_end(&wait.line);
	if (rc < 0 && stop_signal) {
		fflush(stdout);
		cli_say("tiertune: stopped: ", tt_err_msg());
		rc = 128 + stop_signal;
		goto out;
	}
	if (rc < 0)
		goto out;
	rc = a->matrix ? report_matrix(cli, o, res) : report(cli, o, res, t, sum);
out:
	catch_signals(false);
	tt_trial_free(res);
	return rc < 0 ? cli_fail(rc) : rc;
}

/* --placement's choices: the placement table's names. */
static const char *place_mode_name(int i)
{
	return i >= 0 && i <= TT_PLACE_LOCAL ? tt_place_mode_names[i] : NULL;
}

static int delays_option(const struct cli_opt *opt, const char *arg)
{
	return parse_delays(arg, opt->value);
}

int cmd_bench(struct tt_cli *cli, int argc, char **argv)
{
	struct bench_args a = { .source = -1, .repeat = 10, .placement = -1 };
	struct cli_opt opts[] = {
		CLI_STRING("kernel", &a.kernel, "NAME",
			   "the kernel to run (--list shows them; default: STREAM's copy, scale, "
			   "add and triad in turn)"),
		CLI_FLAG("list", &a.list,
			 "list the kernels: kind, bytes counted, MLC's equivalent"),
		CLI_FLAG("matrix", &a.matrix,
			 "bandwidth and idle latency from every CPU node to every memory node"),
		CLI_SOURCE_NODE(&a.source,
				"the node whose CPUs run the threads (default: the first "
				"node with CPUs)"),
		CLI_STRING("nodes", &a.nodes, "LIST",
			   "the policy's nodes (default: the source node)"),
		CLI_STRING(
			"weights", &a.weights, "N:W,...",
			"weights of the policy's nodes, 1-255 (default: 1 each; kernel placement: "
			"the sysfs weights)"),
		CLI_CHOICE(
			"placement", &a.placement, NULL,
			"exact (the kernel's weighted-interleave order, no root; default), kernel "
			"(MPOL_WEIGHTED_INTERLEAVE), interleave (1:1), bind (one node), local",
			.choice = place_mode_name, .arg = "MODE"),
		CLI_U64("threads", &a.threads, "T",
			"threads, at most one per allowed CPU of the source node (default: one per "
			"allowed CPU)",
			1, 4096),
		CLI_SIZE("size", &a.size, "BYTES",
			 "per array; K, M, G, T (powers of 1024, any case, iB optional) or bytes "
			 "(default: STREAM's rule, 4x the last-level cache, at least 1M elements)",
			 4096, UINT64_C(1) << 46),
		CLI_U64("repeat", &a.repeat, "R", "timed passes (default 10)", 1, 100000),
		CLI_U64("verify-max", &a.verify_max, "PAGES",
			"ask move_pages about at most this many pages, every k-th (default 0: all)",
			0, UINT64_MAX),
		CLI_STRING("page-size", &a.page_size, "SIZE",
			   "the pages behind the buffers: 4K, thp (transparent huge pages), 2M or "
			   "1G (hugetlbfs, from the reserved pool) (default: thp for latency, the "
			   "matrix's too, as MLC measures; 4K otherwise)",
			   .choice = page_size_name),
		CLI_FLAG("thp", &a.thp, "--page-size thp"),
		CLI_CALL(
			"delays", delays_option, &a, "D,...",
			"loaded latency: the traffic threads' delays, in spin iterations per cache "
			"line (default: MLC's sweep)"),
		CLI_STRING("traffic", &a.traffic, "KERNEL",
			   "loaded latency: the bandwidth kernel the other threads run (default "
			   "reads)"),
		CLI_U64("point-ms", &a.point_ms, "MS",
			"loaded latency: milliseconds per delay point (default 500)", 10, 600000),
		CLI_STRING("collect", &a.collect, "LIST",
			   "collectors to sample at 10 Hz over the timed passes (see 'tiertune "
			   "collectors')"),
		CLI_FLAG("record", &a.record,
			 "store the run, its trials and samples in the database"),
		CLI_END,
	};
	int nargs, rc = cli_parse(cli, cli_find_command("bench"), opts, argc, argv, &nargs);

	if (rc >= 0)
		return rc;
	if (a.list)
		return list_kernels(cli);
	if (a.kernel || a.matrix)
		return bench(cli, &a, NULL);
	/* No kernel named: STREAM's four, in STREAM's order, as STREAM and
	 * likwid-bench users expect; each run whole (header, passes, figures),
	 * recorded as its own run with --record, then the summary STREAM ends
	 * with. With --json, one document: each kernel's under "kernels", the
	 * summary's rows under "summary", printed once all have run. The
	 * first failure or signal ends it, with no summary. */
	static const char *const stream[] = { "copy", "scale", "add", "triad" };
	struct summary sum = { .docs = cli->json ? json_array() : NULL };

	if (a.ndelays || a.point_ms || a.traffic)
		return cli_usage("--delays, --point-ms and --traffic go with --kernel "
				 "loaded-latency");
	if (!cli->json)
		say("STREAM: copy, scale, add and triad in turn (--kernel NAME runs one)");
	rc = 0;
	for (size_t i = 0; i < sizeof(stream) / sizeof(*stream) && rc == 0; i++) {
		if (!cli->json)
			printf("\n");
		a.kernel = stream[i];
		rc = bench(cli, &a, &sum);
	}
	if (rc == 0 && cli->json)
		return cli_print_json(
			json_pack("{s:o,s:o}", "kernels", sum.docs, "stream", summary_json(&sum)));
	json_decref(sum.docs);
	if (rc == 0)
		print_summary(&sum);
	return rc;
}
