// SPDX-License-Identifier: GPL-3.0-or-later
/* auto's and sweep's report as JSON, from the same document as the text
 * (auto-display.h), and --all-sources' set. */
#include "auto-display.h"

#include "../bench/kernels.h"
#include "../core/figure.h"
#include "../core/wi.h"
#include "../db/json.h"
#include "../measure/app.h"
#include "../view/interval.h"
#include "../view/score.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

/* Each object's fields in the order docs/json.md lists them. */

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

/* A figure's mean and interval ends under its JSON names (core/figure.h:
 * "bw_mean_bytes_s", "time_ci_low_s", "metric_ci_high"). */
static void figure_fields(json_t *o, const struct tt_figure *f, const double *v)
{
	static const char *const part[] = { "mean", "ci_low", "ci_high" };

	for (int i = 0; i < 3; i++) {
		char key[64];

		tt_figure_key(f, part[i], key, sizeof(key));
		json_object_set_new(o, key, tt_json_real(v[i]));
	}
}

/* App mode's figures in the program's terms (seconds, or its metric) from
 * a score's mean and interval; the bandwidth fields null. */
static void app_scores(json_t *o, const struct tt_objective *obj, double mean, double lo, double hi)
{
	bool inverse = tt_score_k(obj) != 0;
	double v[3] = { mean, lo, hi }, shown[3];

	for (int i = 0; i < 3; i++) {
		/* The inverse swaps the interval's ends; a score interval
		 * reaching zero leaves the time's unbounded (null). */
		double x = v[inverse && i ? 3 - i : i];

		shown[i] = isfinite(x) && (!inverse || x > 0) ? tt_score_value(obj, x) : NAN;
	}
	figure_fields(o, tt_score_fig(obj), shown);
}

/* The bandwidth of a figure: null for the latency objective and app
 * mode, whose scores are no bandwidth. */
static void json_bw(json_t *o, const struct tt_auto_doc *d, double mean, double lo, double hi)
{
	const struct tt_figure *f = tt_figure(TT_FIG_BANDWIDTH);
	bool bw = tt_score_fig(d->objective) == f;

	/* No bound below zero for a bandwidth: null (stats.h). */
	tt_ci_positive(&lo, &hi);
	figure_fields(o, f, (const double[]){ bw ? mean : NAN, bw ? lo : NAN, bw ? hi : NAN });
}

/* What follows a figure: its loaded latency and, under a bound or at a
 * stated traffic, whether it is feasible; app mode's figures in its own
 * terms. */
static void json_lat(json_t *o, const struct tt_auto_doc *d, double lat_ns, bool feasible,
		     const double *score)
{
	char key[64];

	tt_figure_key(tt_figure(TT_FIG_LATENCY), "mean", key, sizeof(key));
	json_object_set_new(o, key, tt_json_real(lat_ns));
	json_object_set_new(o, "feasible",
			    d->req->max_lat_ns > 0 || d->objective->kind == TT_OBJ_LATENCY
				    ? json_boolean(feasible)
				    : json_null());
	if (d->app)
		app_scores(o, d->objective, score[0], score[1], score[2]);
}

static json_t *json_trials(const struct tt_auto_doc *d)
{
	json_t *a = json_array();

	for (int i = 0; i < d->r->ntrials; i++) {
		const struct tt_doc_trial *tr = &d->trials[i];
		double v[3] = { tr->mean, tr->mean - tr->half, tr->mean + tr->half };
		json_t *o;

		if (!tr->n)
			continue;
		o = json_pack("{s:o,s:s,s:i}", "weights", tt_json_weights(&tr->w), "phase",
			      tr->phase == TT_PHASE_BASELINE ? "baseline" : "search",
			      "measurements", tr->n);
		json_bw(o, d, v[0], v[1], v[2]);
		json_lat(o, d, tr->lat_ns, tr->feasible, v);
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *json_baselines(const struct tt_auto_doc *d)
{
	json_t *a = json_array();

	for (int i = 0; i < d->r->nbaselines; i++) {
		const struct tt_report_baseline *b = &d->r->base[i];
		double v[3] = { b->mean, b->ci_lo, b->ci_hi }, lc[3];
		bool latency = d->objective->kind == TT_OBJ_LATENCY;
		json_t *o =
			json_pack("{s:s,s:o}", "name", b->name, "weights", tt_json_weights(&b->w));

		json_bw(o, d, v[0], v[1], v[2]);
		json_object_set_new(o, "rounds", json_integer(b->rounds));
		json_object_set_new(o, "gain", tt_json_real(b->gain));
		json_object_set_new(o, "gain_ci_low", tt_json_real(b->gain_lo));
		json_object_set_new(o, "gain_ci_high", tt_json_real(b->gain_hi));
		tt_inverse_change(b->gain, b->gain_lo, b->gain_hi, &lc[0], &lc[1], &lc[2]);
		json_object_set_new(o, "lat_change", tt_json_real(latency ? lc[0] : NAN));
		json_object_set_new(o, "lat_change_ci_low", tt_json_real(latency ? lc[1] : NAN));
		json_object_set_new(o, "lat_change_ci_high", tt_json_real(latency ? lc[2] : NAN));
		json_object_set_new(o, "verdict", json_string(tt_verdict_name(b->verdict)));
		json_lat(o, d, b->lat_ns, b->feasible, v);
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *json_best(const struct tt_auto_doc *d)
{
	const struct tt_report *r = d->r;
	double v[3] = { r->best_mean, r->best_ci_lo, r->best_ci_hi };
	json_t *o = json_pack("{s:o}", "weights", tt_json_weights(&r->best_w));

	json_bw(o, d, v[0], v[1], v[2]);
	json_lat(o, d, r->best_lat_ns, !r->none_feasible, v);
	return o;
}

/* The profile: where each node's figures came from, and what it cost. */
static json_t *json_profile(const struct tt_auto_doc *d)
{
	const struct tt_profile *p = &d->prior->profile;
	json_t *nodes = json_array();

	for (int k = 0; k < p->n; k++) {
		const struct tt_profile_node *pn = &p->nodes[k];

		json_array_append_new(
			nodes, json_pack("{s:i,s:o,s:o,s:s}", "node", pn->node, "bw_bytes_s",
					 tt_json_real(pn->bw_bytes_s > 0 ? pn->bw_bytes_s : NAN),
					 "lat_ns", tt_json_real(pn->lat_ns > 0 ? pn->lat_ns : NAN),
					 "from", pn->from));
	}
	return json_pack("{s:o,s:i,s:i,s:f,s:o}", "skipped", str_or_null(p->skipped), "kernel_runs",
			 p->runs, "measurements", d->prior->cost, "elapsed_s", p->elapsed_s,
			 "nodes", nodes);
}

/* The nodes searched (with tiers, every node of the tiers). */
static json_t *json_nodes(const struct tt_auto_doc *d)
{
	json_t *nodes = json_array();
	int node;

	for (int k = 0; k < d->r->nnodes; k++) {
		if (!d->tiers) {
			json_array_append_new(nodes, json_integer(d->r->nodes[k]));
			continue;
		}
		tt_nodemask_for_each (node, &tt_topo_tier(d->t, d->r->nodes[k])->nodes)
			json_array_append_new(nodes, json_integer(node));
	}
	return nodes;
}

static json_t *json_tiers(const struct tt_auto_doc *d)
{
	json_t *tiers = json_array();

	for (int k = 0; k < d->r->nnodes; k++)
		json_array_append_new(tiers, json_integer(d->r->nodes[k]));
	return tiers;
}

/* What ran: the machine, the source and nodes, the mix, the search. */
static void json_head(json_t *j, const struct tt_auto_doc *d)
{
	const struct tt_report *r = d->r;
	const struct tt_kernel *k = d->req->kernel;
	char fp[17];

	json_object_set_new(j, "kind", json_string(tt_run_kind_name(d->req->kind)));
	json_object_set_new(j, "simulated", json_boolean(d->simulated));
	json_object_set_new(j, "model",
			    d->req->model ? json_string(d->req->model->path) : json_null());
	json_object_set_new(j, "host", json_string(d->t->hostname));
	/* The hardware the profile was measured on, for a model written from
	 * this report (tiertune capture --model-from) to check against. */
	tt_topo_fingerprint(d->t, fp);
	json_object_set_new(j, "fingerprint", json_string(fp));
	json_object_set_new(j, "kernel_release", json_string(d->t->kernel_release));
	json_object_set_new(j, "source_node", json_integer(d->req->source));
	json_object_set_new(j, "nodes", json_nodes(d));
	/* App mode: the program is the traffic, not a bench kernel. */
	json_object_set_new(j, "kernel", d->app ? json_null() : json_string(k->name));
	json_object_set_new(j, "counting", d->app ? json_null() : str_or_null(k->counting));
	json_object_set_new(j, "threads", d->threads ? json_integer(d->threads) : json_null());
	json_object_set_new(j, "strategy", json_string(r->strategy));
	json_object_set_new(j, "prior_from", json_string(r->prior_from));
	json_object_set_new(j, "max_weight", json_integer(r->max_weight));
	json_object_set_new(j, "budget_trials",
			    d->budget_trials ? json_integer(d->budget_trials) : json_null());
	json_object_set_new(j, "budget_s", d->budget_s > 0 ? json_real(d->budget_s) : json_null());
	json_object_set_new(j, "measurements", json_integer(r->measurements));
	json_object_set_new(j, "profile", json_profile(d));
	json_object_set_new(j, "auto_from", str_or_null(d->prior->auto_from));
	json_object_set_new(j, "ntrials", json_integer(r->nmeasured));
	json_object_set_new(j, "elapsed_s", json_real(r->elapsed_s));
	if (d->simulated)
		json_object_set_new(j, "elapsed_clock", json_string("simulated"));
	json_object_set_new(j, "stop_reason", json_string(r->stop_reason));
}

static json_t *json_reco(const struct tt_auto_doc *d)
{
	const struct tt_report *r = d->r;
	const struct tt_report_baseline *over = tt_report_gain_over(r);

	return json_pack("{s:s,s:s,s:o,s:s,s:o,s:o,s:o,s:o}", "action",
			 tt_reco_action_name(r->action), "interface", d->reco->interface, "weights",
			 tt_json_weights(&d->reco->w), "weights_keyed_by",
			 tt_wi_find(d->reco->interface)->unit, "gain", tt_json_real(r->reco_gain),
			 "gain_over", over ? json_string(over->name) : json_null(), "lost_to",
			 r->lost_to >= 0 ? json_string(r->base[r->lost_to].name) : json_null(),
			 "more_measurements",
			 r->more_measurements > 0 ? json_integer(r->more_measurements)
						  : json_null());
}

/* The recommendation from the other CPU nodes; null: not measured. */
static json_t *json_others(const struct tt_auto_doc *d)
{
	const struct tt_auto_sources *all = d->others;
	json_t *a;

	if (!all || !all->judged)
		return json_null();
	a = json_array();
	for (int i = 0; i < all->n; i++) {
		const struct tt_auto_other *o = &all->o[i];
		json_t *e = json_pack("{s:i,s:o,s:o}", "source_node", o->source, "nodes",
				      tt_json_nodes(&o->mask), "unmeasured", str_or_null(o->why));

		json_object_set_new(e, "now_weights",
				    o->why ? json_null() : tt_json_weights(&o->now));
		json_object_set_new(e, "weights_after",
				    o->why ? json_null() : tt_json_weights(&o->after));
		json_object_set_new(e, "now_from", str_or_null(o->why ? NULL : o->now_what));
		json_object_set_new(e, "score_mean", tt_json_real(o->why ? NAN : o->cand_mean));
		json_object_set_new(e, "now_score_mean", tt_json_real(o->why ? NAN : o->now_mean));
		json_object_set_new(e, "local_score_mean",
				    tt_json_real(o->why ? NAN : o->local_mean));
		json_object_set_new(e, "rounds", json_integer(o->cmp.rounds));
		json_object_set_new(e, "gain", tt_json_real(o->why ? NAN : o->cmp.gain));
		json_object_set_new(e, "gain_ci_low", tt_json_real(o->why ? NAN : o->cmp.gain_lo));
		json_object_set_new(e, "gain_ci_high", tt_json_real(o->why ? NAN : o->cmp.gain_hi));
		json_object_set_new(e, "verdict",
				    o->why ? json_null()
					   : json_string(tt_verdict_name(o->verdict)));
		json_array_append_new(a, e);
	}
	return a;
}

/* The recommendation against what the machine runs now; null by tier or
 * when the winner lost to a baseline. */
static json_t *json_headline(const struct tt_auto_doc *d)
{
	const struct tt_report_baseline *b;

	if (d->now_base < 0 || d->r->lost_to >= 0)
		return json_null();
	b = &d->r->base[d->now_base];
	return json_pack("{s:s,s:o,s:o,s:o,s:s}", "over", b->name, "gain", tt_json_real(b->gain),
			 "gain_ci_low", tt_json_real(b->gain_lo), "gain_ci_high",
			 tt_json_real(b->gain_hi), "verdict", tt_verdict_name(b->verdict));
}

/* The plan apply would run, and the commands that use the result. */
static void json_next(json_t *j, const struct tt_auto_doc *d)
{
	const struct tt_apply_plan *p = d->plan;
	json_t *writes = json_array();

	for (int i = 0; p && i < p->n; i++)
		json_array_append_new(writes, json_pack("{s:s,s:s,s:s}", "file", p->w[i].file,
							"old", p->w[i].old, "new", p->w[i].value));
	json_object_set_new(j, "run", d->run ? json_integer(d->run) : json_null());
	json_object_set_new(j, "apply_interface", p ? json_string(p->be->name) : json_null());
	json_object_set_new(j, "apply_writes", writes);
	json_object_set_new(j, "apply_unavailable", p ? json_null() : json_string(d->plan_why));
}

/* The objective, the latency bound and the granularity. */
static void json_objective(json_t *j, const struct tt_auto_doc *d)
{
	const struct tt_report *r = d->r;
	double bound = d->req->max_lat_ns;
	bool latency = d->objective->kind == TT_OBJ_LATENCY;

	json_object_set_new(j, "objective",
			    json_string(d->app	  ? "app"
					: latency ? "latency"
						  : "bandwidth"));
	json_object_set_new(j, "traffic_bytes_s",
			    latency ? json_real(tt_objective_traffic_bytes_s(d->objective))
				    : json_null());
	json_object_set_new(j, "max_lat_ns", bound > 0 ? json_real(bound) : json_null());
	json_object_set_new(j, "nfeasible", bound > 0 ? json_integer(r->nfeasible) : json_null());
	json_object_set_new(j, "noverloaded", latency ? json_integer(r->noverloaded) : json_null());
	json_object_set_new(j, "granularity", json_string(d->tiers ? "tier" : "node"));
	json_object_set_new(j, "tiers", d->tiers ? json_tiers(d) : json_null());
}

/* Trials under written weights: the placement, the trials discarded, app
 * mode's program. */
static void json_policy(json_t *j, const struct tt_auto_doc *d)
{
	const struct tt_app *app = d->app;
	json_t *discarded = json_array(), *argv;

	json_object_set_new(
		j, "placement",
		json_string(d->simulated ? "model" : tt_place_mode_names[d->req->placement]));
	for (int i = 0; i < d->ndiscarded; i++)
		json_array_append_new(discarded, json_pack("{s:o,s:s}", "weights",
							   tt_json_weights(&d->discarded[i].w),
							   "why", d->discarded[i].why));
	json_object_set_new(j, "discarded", discarded);
	if (!app) {
		json_object_set_new(j, "app", json_null());
		return;
	}
	argv = json_array();
	for (char **p = app->argv; *p; p++)
		json_array_append_new(argv, json_string(*p));
	json_object_set_new(j, "app",
			    json_pack("{s:o,s:o,s:b,s:s,s:o}", "argv", argv, "metric",
				      str_or_null(app->metric), "higher_is_better",
				      app->higher_is_better, "log", d->log, "host_nodes",
				      app->host_nodes ? tt_json_nodes(&app->nodes) : json_null()));
}

json_t *cli_auto_json(const struct tt_auto_doc *d)
{
	const struct tt_report *r = d->r;
	json_t *j = json_object(), *next = json_array();

	json_head(j, d);
	json_object_set_new(j, "trials", json_trials(d));
	json_object_set_new(j, "baselines", json_baselines(d));
	json_object_set_new(j, "best", json_best(d));
	json_object_set_new(j, "auto_weights",
			    r->have_auto ? tt_json_weights(&r->auto_w) : json_null());
	json_object_set_new(j, "best_is_auto", json_boolean(r->best_is_auto));
	json_object_set_new(j, "against_now", json_headline(d));
	json_object_set_new(j, "leaves_auto_mode", json_boolean(d->leaves_auto));
	json_object_set_new(j, "other_sources", json_others(d));
	json_object_set_new(j, "recommendation", json_reco(d));
	json_next(j, d);
	json_objective(j, d);
	json_policy(j, d);
	if (d->copy_tree[0])
		json_array_append_new(next, json_string(d->copy_tree));
	for (int i = 0; i < d->nnext; i++)
		json_array_append_new(next, json_string(d->next[i]));
	json_object_set_new(j, "next_commands", next);
	return j;
}

json_t *cli_auto_all_source(const json_t *doc, int source)
{
	return json_pack("{s:i,s:O,s:O,s:O}", "source_node", source, "run",
			 json_object_get(doc, "run"), "nodes", json_object_get(doc, "nodes"),
			 "recommendation", json_object_get(doc, "recommendation"));
}

json_t *cli_auto_all_json(const struct tt_auto_all *all, json_t *docs, bool simulated)
{
	const struct tt_wi_backend *be = all->be;
	const char *conflict = all->conflict;
	json_t *j = json_object(), *srcs = json_array();

	for (int i = 0; i < all->rs.n; i++)
		json_array_append_new(srcs, json_integer(all->rs.r[i].source_node));
	json_object_set_new(j, "kind", json_string("auto"));
	json_object_set_new(j, "all_sources", json_true());
	json_object_set_new(j, "simulated", json_boolean(simulated));
	json_object_set_new(j, "source_nodes", srcs);
	json_object_set_new(j, "sources", json_incref(docs));
	json_object_set_new(j, "interface", be ? json_string(be->name) : json_null());
	/* Merged weights only where they are to be written: a set that a
	 * source's run does not support, or that costs a CPU node's tasks
	 * beyond the noise, is no set to apply or export (issue 43). */
	json_object_set_new(j, "merged_weights",
			    tt_auto_all_writes(all) ? tt_json_weights(&all->merged) : json_null());
	json_object_set_new(j, "conflict", conflict[0] ? json_string(conflict) : json_null());
	json_object_set_new(j, "refused",
			    all->refused[0] ? json_string(all->refused) : json_null());
	/* A conflict is as much a reason not to apply as no interface. */
	json_object_set_new(j, "apply_unavailable",
			    !be				      ? json_string(all->why)
			    : conflict[0]		      ? json_string(conflict)
			    : all->refused[0]		      ? json_string(all->refused)
			    : all->keep[0] && !be->per_source ? json_string(all->keep)
							      : json_null());
	return j;
}
