// SPDX-License-Identifier: GPL-3.0-or-later
/* bench's figures as JSON (bench-json.h): docs/json.md, command bench. */
#include "bench-json.h"

#include "../collectors/collect.h"
#include "../core/figure.h"
#include "../core/version.h"
#include "../db/json.h"
#include "../measure/trial.h"

#include <math.h>
#include <string.h>

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

/* The kind's figures under their names, and a curve's points. */
static json_t *figures_json(const struct tt_bench_opts *o, const struct tt_bench_result *r)
{
	const struct tt_kind *kind = o->kernel->kind;
	json_t *j = json_object();

	for (const struct tt_kind_figure *f = kind->figures; f->fig; f++) {
		const char *name[3] = { f->fig->best, f->fig->median, f->fig->worst };

		for (int i = 0; i < 3; i++)
			json_object_set_new(j, name[i], tt_json_real(tt_bench_at(r, f->offset[i])));
		if (f->fig->mean)
			json_object_set_new(j, f->fig->mean,
					    tt_json_real(tt_bench_at(r, f->mean_offset)));
	}
	if (!kind->curve)
		json_object_set_new(j, "repeat", json_integer(o->repeat));
	if (o->kernel->counting)
		json_object_set_new(j, "counting", json_string(o->kernel->counting));
	if (r->loads)
		json_object_set_new(j, "loads_per_pass", json_integer((json_int_t)r->loads));
	if (kind->curve) {
		const struct tt_figure *lat = tt_figure(TT_FIG_LATENCY),
				       *bw = tt_figure(TT_FIG_BANDWIDTH);
		json_t *pts = json_array();
		char lat_mean[32], bw_key[32];

		tt_figure_key(lat, "mean", lat_mean, sizeof(lat_mean));
		snprintf(bw_key, sizeof(bw_key), "%s%s", bw->stem, bw->si);

		for (int i = 0; i < r->npoints; i++) {
			const struct tt_loaded_point *pt = &r->points[i];

			json_array_append_new(
				pts, json_pack("{s:I,s:f,s:o,s:o,s:s*}", "delay_spins",
					       (json_int_t)pt->delay, "delay_ns", pt->delay_ns,
					       lat_mean, tt_json_real(pt->lat_ns), bw_key,
					       tt_json_real(pt->bw_bytes_s), "note",
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
					 "benchmark_share_bytes_s", tt_bench_share_bw(r, node)));
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
static json_t *memory_json(const struct tt_bench_trust *tr)
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

/* What was asked for the buffers' pages: "base", "thp" or "hugetlb". */
static const char *page_request(bool thp, int huge_shift)
{
	return huge_shift ? "hugetlb" : thp ? "thp" : "base";
}

json_t *tt_bench_pages_json(bool thp, int huge_shift, const struct tt_pages_got *p)
{
	return json_pack(
		"{s:I,s:s,s:b,s:I,s:o,s:I}", "page_bytes", (json_int_t)p->page_bytes,
		"page_request", page_request(thp, huge_shift), "thp_requested", p->thp_asked,
		"huge_page_bytes", (json_int_t)p->huge_bytes, "huge_page_size_bytes",
		p->huge_page_size ? json_integer((json_int_t)p->huge_page_size) : json_null(),
		"buffer_bytes", (json_int_t)p->buffer_bytes);
}

json_t *tt_stream_json(const struct tt_stream *sum)
{
	const struct tt_figure *bw = tt_figure(TT_FIG_BANDWIDTH),
			       *pass = tt_figure(TT_FIG_PASS_TIME);
	json_t *rows = json_array();

	for (int i = 0; i < sum->n; i++) {
		const struct tt_stream_row *row = &sum->rows[i];
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
				  bw->best, tt_json_real(row->bw_best), pass->mean,
				  tt_json_real(row->mean_s), pass->best, tt_json_real(row->best_s),
				  pass->worst, tt_json_real(row->max_s), "valid", !row->fails,
				  "judgements", fails, "judged", judged, "run",
				  row->run_id ? json_integer(row->run_id) : json_null()));
	}
	return json_pack("{s:s,s:i,s:o}", "statistic", "best_pass", "repeat", sum->repeat, "rows",
			 rows);
}

json_t *tt_bench_json(const struct tt_bench_opts *o, const struct tt_trial_result *res,
		      const struct tt_topo *t, bool simulated)
{
	const struct tt_bench_result *r = &res->bench;
	struct tt_bench_trust trust;
	json_t *cpu_list = json_array(), *j;

	tt_bench_trust_of(r, &trust);
	for (int i = 0; i < r->threads; i++)
		json_array_append_new(cpu_list, json_integer(r->cpus[i]));
	j = json_pack("{s:b,s:s,s:s,s:s,s:o,s:i,s:s,s:i,s:o,s:I,s:I,s:s,s:b,s:o,s:{s:s,s:s}}",
		      "simulated", simulated, "kernel", o->kernel->name, "kernel_kind",
		      o->kernel->kind->name, "placement", tt_place_mode_names[o->place.mode],
		      "nodes", tt_json_nodes(&o->place.nodes), "source_node", o->source_node,
		      "size_rule", r->size_rule, "threads", r->threads, "cpus", cpu_list,
		      "array_bytes", (json_int_t)r->array_bytes, "elements",
		      (json_int_t)r->elements, "isa", r->isa, "validated", r->validated,
		      "verification", placement_json(r), "machine", "kernel_release",
		      t->kernel_release, "cpu_model", t->cpu_model);
	json_object_update_new(j, figures_json(o, r));
	json_object_update_new(j, memory_json(&trust));
	json_object_update_new(j,
			       tt_bench_pages_json(o->place.thp, o->place.huge_shift, &r->pages));
	if (res->run_id)
		json_object_set_new(j, "run", json_integer(res->run_id));
	if (res->collected)
		json_object_set_new(j, "collect", collect_json(&res->sum, r));
	return j;
}

json_t *tt_matrix_json(const struct tt_bench_opts *o, const struct tt_trial_result *res)
{
	const struct tt_matrix *m = &res->matrix;
	const struct tt_figure *bw = tt_figure(TT_FIG_BANDWIDTH), *lat = tt_figure(TT_FIG_LATENCY);
	struct tt_bench_trust trust;
	json_t *rows = json_array(), *j;
	char why[96];

	tt_matrix_trust(m, &trust, why, sizeof(why));
	for (int c = 0; c < m->ncpu; c++)
		for (int k = 0; k < m->nmem; k++)
			json_array_append_new(
				rows,
				json_pack("{s:i,s:i,s:i,s:o,s:o}", "cpu_node", m->cpu_node[c],
					  "mem_node", m->mem_node[k], "threads", m->threads[c],
					  bw->best, tt_json_real(m->bw_bytes_s[c * m->nmem + k]),
					  lat->median, tt_json_real(m->lat_ns[c * m->nmem + k])));
	j = json_pack("{s:b,s:s,s:s,s:s,s:i,s:I,s:o}", "simulated", 0, "kernel", o->kernel->name,
		      "kernel_kind", o->kernel->kind->name, "counting", o->kernel->counting,
		      "repeat", o->repeat, "array_bytes", (json_int_t)m->array_bytes, "matrix",
		      rows);
	json_object_update_new(j, memory_json(&trust));
	json_object_set_new(
		j, "latency_pages",
		tt_bench_pages_json(o->matrix_lat_thp, o->matrix_lat_huge_shift, &m->lat_pages));
	json_object_set_new(j, "bandwidth_pages",
			    tt_bench_pages_json(o->place.thp, o->place.huge_shift, &m->bw_pages));
	if (res->run_id)
		json_object_set_new(j, "run", json_integer(res->run_id));
	return j;
}
