// SPDX-License-Identifier: GPL-3.0-or-later
/* Recorded runs as gnuplot scripts (plot.h). */
#include "plot-int.h"

#include "../bench/run.h"
#include "../bench/kernels.h"
#include "../core/error.h"
#include "../core/figure.h"
#include "../core/objective.h"
#include "../core/parse.h"
#include "../core/topo.h"
#include "../core/weights.h"
#include "score.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The key's and the lines' words. */
const char *const tt_plot_mark_words[TT_MARKS] = { "best", "local", "1:1",
						   "auto", "now",   "fast tier alone" };

const char *tt_plot_str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

static double num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

int64_t tt_plot_run_id(json_t *run)
{
	return (int64_t)json_integer_value(json_object_get(run, "id"));
}

/* A weights text from a trial's node rows: "0:29,1:2,2:1". */
static void weights_text(json_t *nodes, char *buf, size_t size)
{
	json_t *nd;
	size_t k, len = 0;

	buf[0] = '\0';
	json_array_foreach (nodes, k, nd) {
		int r = snprintf(buf + len, size - len, "%s%jd:%jd", len ? "," : "",
				 (intmax_t)json_integer_value(json_object_get(nd, "node")),
				 (intmax_t)json_integer_value(json_object_get(nd, "weight")));

		if (r < 0 || (size_t)r >= size - len) {
			buf[len] = '\0';
			return;
		}
		len += (size_t)r;
	}
}

static int node_index(const struct tt_plot *pl, int node)
{
	for (int k = 0; k < pl->nnodes; k++)
		if (pl->nodes[k] == node)
			return k;
	return -1;
}

/* The run's nodes: those of its trials, ascending. */
static int search_nodes(struct tt_plot *pl, json_t *trials)
{
	json_t *t, *nd;
	size_t i, k;

	json_array_foreach (trials, i, t)
		json_array_foreach (json_object_get(t, "nodes"), k, nd) {
			json_t *v = json_object_get(nd, "node");
			int node, at;

			if (!json_is_integer(v) || json_integer_value(v) < 0 ||
			    json_integer_value(v) >= 1 << 20)
				return tt_err(TT_EINPUT, "run %jd: trial %zu names node '%s'",
					      (intmax_t)tt_plot_run_id(pl->runs[0]), i + 1,
					      json_is_integer(v) ? "out of range" : "not a number");
			node = (int)json_integer_value(v);
			if (node_index(pl, node) >= 0)
				continue;
			if (pl->nnodes == TT_PLOT_MAX_NODES)
				return tt_err(
					TT_EINPUT, "run %jd has trials over more than %d nodes",
					(intmax_t)tt_plot_run_id(pl->runs[0]), TT_PLOT_MAX_NODES);
			for (at = pl->nnodes; at > 0 && pl->nodes[at - 1] > node; at--)
				pl->nodes[at] = pl->nodes[at - 1];
			pl->nodes[at] = node;
			pl->nnodes++;
		}
	return 0;
}

/* The point whose shares are those of w over the run's nodes (weights
 * compare as shares: the record keeps them reduced or not); -1: none. */
static int find_shares(const struct tt_plot *pl, const double *w)
{
	double sum = 0;

	for (int k = 0; k < pl->nnodes; k++)
		sum += w[k];
	if (!(sum > 0))
		return -1;
	for (int i = 0; i < pl->n; i++) {
		int k = 0;

		while (k < pl->nnodes && fabs(pl->p[i].share[k] - w[k] / sum) < 1e-6)
			k++;
		if (k == pl->nnodes)
			return i;
	}
	return -1;
}

void tt_plot_figure_text(const struct tt_plot *pl, double v, char *buf, size_t size)
{
	snprintf(buf, size, "%.*f %s", fabs(v) >= 100 ? 1 : 2, v, pl->fig->plot_unit);
}

/* What a mark is beside its name where the action keeps a baseline
 * (pl->reco, tuner/report.h tt_report_keeps): that baseline is kept, the
 * search's best not applied (the report: "apply: nothing to write"; the
 * title says why in its recorded words, action_why). Nothing for apply.
 * Short: gnuplot fits a key entry of about 85 characters below a
 * 900-pixel figure, and the label carries the weights and the interval
 * already ("(recommended)" and "(not recommended)" overflowed it). The
 * best that is the kept baseline (local memory's one node) is said once. */
static const char *mark_note(const struct tt_plot *pl, enum tt_plot_mark m)
{
	if (pl->reco == TT_MARK_BEST)
		return "";
	if (m == TT_MARK_BEST)
		return pl->mark[m].point == pl->mark[pl->reco].point ? "" : ", not applied";
	return m == pl->reco ? ", kept" : "";
}

static void mark_label(struct tt_plot *pl, enum tt_plot_mark m, const char *what, const char *extra)
{
	struct mark *mk = &pl->mark[m];
	const struct point *p = &pl->p[mk->point];
	const char *note = mark_note(pl, m);
	char v[64];

	tt_plot_figure_text(pl, p->value, v, sizeof(v));
	if (!pl->mean_ci)
		snprintf(mk->label, sizeof(mk->label), "%s %s%s: median %s%s", what, p->weights,
			 note, v, extra);
	else if (p->unbounded)
		snprintf(mk->label, sizeof(mk->label),
			 "%s %s%s: mean %s (%d measurements: too few for a bounded interval)", what,
			 p->weights, note, v, p->nmeas);
	else if (p->nmeas >= 2)
		snprintf(mk->label, sizeof(mk->label),
			 "%s %s%s: mean %s, 95%% CI %.*f..%.*f (%d "
			 "measurements)",
			 what, p->weights, note, v, fabs(fmin(p->worse, p->better)) >= 100 ? 1 : 2,
			 fmin(p->worse, p->better), fabs(fmax(p->worse, p->better)) >= 100 ? 1 : 2,
			 fmax(p->worse, p->better), p->nmeas);
	else
		snprintf(mk->label, sizeof(mk->label),
			 "%s %s%s: %s (one measurement: too few for an interval)", what, p->weights,
			 note, v);
}

/* A trial's "measurements" (cmd-plot attaches them from the samples) in
 * the shown unit: how many there are, their mean and 95% interval, taken
 * as show and the CSV take them (tuner/score.h). */
static int trial_mean(const struct tt_plot *pl, json_t *t, double *mean, double *lo, double *hi)
{
	json_t *ms = json_object_get(t, "measurements"), *v;
	double *x = calloc(json_array_size(ms) + 1, sizeof(*x));
	size_t i;
	int n = 0;

	if (!x)
		return 0;
	json_array_foreach (ms, i, v)
		if (json_is_number(v))
			x[n++] = json_number_value(v);
	n = tt_score_mean_ci(&pl->obj[0], x, n, mean, lo, hi);
	*mean /= pl->fig->divisor;
	*lo /= pl->fig->divisor;
	*hi /= pl->fig->divisor;
	free(x);
	return n;
}

/* The search's best: the recommendation's weights (for an action that
 * keeps auto mode or local memory, the best measured, which is not what it
 * recommends: mark_note), with its mean and 95% interval, what
 * the report ranks by (the score converted back). */
static void mark_best(struct tt_plot *pl)
{
	json_t *rec = json_array_get(json_object_get(pl->runs[0], "recommendations"), 0);
	json_t *w = json_object_get(rec, "weights");
	const struct tt_figure *f = pl->fig;
	const char *action = tt_plot_str(rec, "action"), *key;
	double ws[TT_PLOT_MAX_NODES] = { 0 }, mean, lo, hi;
	char extra[200] = "", a[48];
	json_t *v;

	if (!json_is_object(w))
		return;
	/* The action whether or not its weights are among the plotted trials
	 * (tier weights of --granularity tier are not). */
	if (!strcmp(action, "keep_auto")) {
		snprintf(pl->action, sizeof(pl->action),
			 "recommendation: keep the kernel's auto mode");
	} else if (!strcmp(action, "bind_local")) {
		snprintf(pl->action, sizeof(pl->action), "recommendation: bind to local memory");
	} else {
		int len = snprintf(pl->action, sizeof(pl->action), "recommendation: weights ");

		json_object_foreach (w, key, v)
			if (len < (int)sizeof(pl->action))
				len += snprintf(pl->action + len, sizeof(pl->action) - (size_t)len,
						"%s%s:%jd", pl->action[len - 1] == ' ' ? "" : ",",
						json_is_integer(v) ? key : "?",
						(intmax_t)json_integer_value(v));
	}
	json_object_foreach (w, key, v) {
		char *end;
		long node = strtol(key, &end, 10);
		int k = *end || end == key ? -1 : node_index(pl, (int)node);

		if (k < 0 || !json_is_integer(v))
			return;
		ws[k] = (double)json_integer_value(v);
	}
	if ((pl->mark[TT_MARK_BEST].point = find_shares(pl, ws)) < 0)
		return;
	tt_score_figure(tt_score_k(&pl->obj[0]), num(rec, "score"), num(rec, "score_ci_low"),
			num(rec, "score_ci_high"), &mean, &lo, &hi);
	mean /= f->divisor;
	lo /= f->divisor;
	hi /= f->divisor;
	if (!pl->mean_ci && isfinite(mean) && mean > 0) {
		tt_plot_figure_text(pl, mean, a, sizeof(a));
		/* An interval that is not finite and positive is too few
		 * measurements: said as such, never a negative bound. */
		if (isfinite(lo) && isfinite(hi) && lo > 0 && hi > 0)
			snprintf(extra, sizeof(extra), " (mean %s, 95%% CI %.*f..%.*f)", a,
				 fmin(lo, hi) >= 100 ? 1 : 2, fmin(lo, hi),
				 fmax(lo, hi) >= 100 ? 1 : 2, fmax(lo, hi));
		else
			snprintf(extra, sizeof(extra),
				 " (mean %s, too few measurements for an interval)", a);
	}
	mark_label(pl, TT_MARK_BEST, "best", extra);
}

/* The kernel's auto-mode vector from the run's layout: min(read, write)
 * HMAT bandwidth of every node, as the search took it (tuner/search.c
 * auto_formula, core/weights.h); false when a node has none. The layout
 * keeps access class 1 where there is one, else 0, which the search would
 * not have taken; a vector from it that is not among the trials marks
 * nothing. */
static bool auto_vector(const struct tt_plot *pl, double *ws)
{
	json_t *nodes = json_object_get(json_object_get(pl->runs[0], "layout"), "nodes"), *nd;
	uint32_t bw[TT_PLOT_MAX_NODES] = { 0 };
	struct tt_weights w;
	size_t i;

	json_array_foreach (nodes, i, nd) {
		json_t *h = json_object_get(nd, "hmat");
		int k = node_index(pl, (int)json_integer_value(json_object_get(nd, "node")));
		double mb = fmin(num(h, "read_bw_bytes_s"), num(h, "write_bw_bytes_s")) / 1e6;

		if (k >= 0 && mb >= 1 && mb < 1e12)
			bw[k] = mb > UINT32_MAX / TT_WEIGHTINESS ? UINT32_MAX / TT_WEIGHTINESS
								 : (uint32_t)mb;
	}
	for (int k = 0; k < pl->nnodes; k++)
		if (!bw[k])
			return false;
	tt_weights_auto(pl->nodes, bw, pl->nnodes, &w);
	for (int k = 0; k < pl->nnodes; k++)
		ws[k] = tt_weights_get(&w, pl->nodes[k], 0);
	return true;
}

/* Whether trial t has the figure's median and range: a point of a search
 * run (search_points). */
static bool has_figure(const struct tt_plot *pl, json_t *t)
{
	return isfinite(num(t, pl->fig->median)) && isfinite(num(t, pl->fig->worst)) &&
	       isfinite(num(t, pl->fig->best));
}

/* The point of the trial whose "baselines" (the record's samples) name
 * kind (enum tt_baseline, tuner/search.h); -1: none. */
static int recorded_baseline(const struct tt_plot *pl, json_t *trials, int kind)
{
	json_t *t, *b;
	size_t i, j;
	int point = 0;

	json_array_foreach (trials, i, t) {
		if (!has_figure(pl, t))
			continue; /* not a point (search_points) */
		json_array_foreach (json_object_get(t, "baselines"), j, b)
			if (json_is_number(b) && json_number_value(b) == kind && point < pl->n)
				return point;
		point++;
	}
	return -1;
}

/* The baselines the search measured first (tuner/search.c
 * measure_baselines): the source node alone, every node at 1, the
 * kernel's auto-mode vector. The record names their trials; a run
 * recorded before it did is matched by weights, auto mode's from the
 * layout's HMAT figures. */
static void mark_baselines(struct tt_plot *pl)
{
	/* By enum tt_baseline (tuner/search.h): local, 1:1, auto, now, fast. */
	static const enum tt_plot_mark marks[] = { TT_MARK_LOCAL, TT_MARK_EVEN, TT_MARK_AUTO,
						   TT_MARK_NOW, TT_MARK_FAST };
	json_t *trials = json_object_get(pl->runs[0], "trials"), *t;
	double ws[TT_PLOT_MAX_NODES] = { 0 };
	bool recorded = false;
	size_t i;
	int k;

	json_array_foreach (trials, i, t)
		recorded |= json_array_size(json_object_get(t, "baselines")) > 0;
	if (recorded) {
		for (k = 0; k < (int)(sizeof(marks) / sizeof(*marks)); k++)
			if ((pl->mark[marks[k]].point = recorded_baseline(pl, trials, k)) >= 0)
				mark_label(pl, marks[k], tt_plot_mark_words[marks[k]], "");
		return;
	}

	for (k = 0; k < pl->nnodes; k++)
		ws[k] = pl->nodes[k] == pl->source;
	if ((pl->mark[TT_MARK_LOCAL].point = find_shares(pl, ws)) >= 0)
		mark_label(pl, TT_MARK_LOCAL, "local", "");
	for (k = 0; k < pl->nnodes; k++)
		ws[k] = 1;
	if (pl->nnodes > 1 && (pl->mark[TT_MARK_EVEN].point = find_shares(pl, ws)) >= 0)
		mark_label(pl, TT_MARK_EVEN, "1:1", "");
	if (pl->nnodes > 1 && auto_vector(pl, ws) &&
	    (pl->mark[TT_MARK_AUTO].point = find_shares(pl, ws)) >= 0)
		mark_label(pl, TT_MARK_AUTO, "auto", "");
}

/* A node as the axes name it, from the run's layout: "node 2 (local CPU-less,
 * slower than DRAM, tier 5)", "node 1 (remote DRAM, tier 4)": where a
 * recommendation puts pages (remote DRAM before CXL) is read off the
 * axes. The words are core/topo.c's (tt_node_words), local and remote
 * for every tier, and the tier's class as topo says it. A run recorded
 * without a tier says its role alone. */
static void node_names(struct tt_plot *pl)
{
	json_t *nodes = json_object_get(json_object_get(pl->runs[0], "layout"), "nodes"), *nd;
	size_t i;

	for (int k = 0; k < pl->nnodes; k++)
		snprintf(pl->node_name[k], sizeof(pl->node_name[k]), "node %d", pl->nodes[k]);
	json_array_foreach (nodes, i, nd) {
		int k = node_index(pl, (int)json_integer_value(json_object_get(nd, "node")));
		json_t *tier = json_object_get(nd, "tier");
		int id = (int)json_integer_value(tier);
		json_t *near = json_object_get(nd, "cpu_node");
		bool cpus = json_integer_value(json_object_get(nd, "ncpus")) > 0;
		/* Local: the source's own node, or one whose nearest CPU node
		 * the source is (flat-mode HBM beside it); a run recorded
		 * before the layout said so knows only a CPU node's. */
		int local = pl->nodes[k < 0 ? 0 : k] == pl->source ? 1
			    : json_is_integer(near) ? json_integer_value(near) == pl->source
						    : (cpus ? 0 : -1);
		char kind[sizeof(pl->node_kind[0])];
		size_t len;

		if (k < 0)
			continue;
		tt_node_words(local, cpus, json_is_integer(tier) && id >= 0 ? id : -1, kind,
			      sizeof(kind));
		len = strlen(kind);
		if (json_is_integer(tier) && id >= 0 && len < sizeof(kind))
			snprintf(kind + len, sizeof(kind) - len, ", tier %d", id);
		memcpy(pl->node_kind[k], kind, sizeof(kind));
		snprintf(pl->node_name[k], sizeof(pl->node_name[k]), "node %d (%s)", pl->nodes[k],
			 kind);
	}
}

/* Trial i (t) as the next point: its figure, mean and interval where the
 * run kept its measurements, else its median and range; its shares. 1: a
 * point, 0: the trial has no figure. */
static int trial_point(struct tt_plot *pl, json_t *t, size_t i)
{
	struct point *p = &pl->p[pl->n];
	double sum = 0, mean = NAN, lo = NAN, hi = NAN;
	json_t *nd;
	size_t k;

	if (!has_figure(pl, t))
		return 0;
	p->value = num(t, pl->fig->median) / pl->fig->divisor;
	p->worse = num(t, pl->fig->worst) / pl->fig->divisor;
	p->better = num(t, pl->fig->best) / pl->fig->divisor;
	if (pl->mean_ci && (p->nmeas = trial_mean(pl, t, &mean, &lo, &hi)) > 0) {
		/* One measurement, or an inverse's interval with no upper end:
		 * the bars shut (the label says why). A bandwidth, latency or
		 * time is never shown below 0. */
		if (!isfinite(lo) || !isfinite(hi))
			lo = hi = mean, p->unbounded = p->nmeas >= 2;
		p->value = mean;
		p->worse = pl->lower_better ? hi : lo;
		p->better = pl->lower_better ? lo : hi;
		if (pl->fig->positive)
			p->worse = fmax(p->worse, 0), p->better = fmax(p->better, 0);
	}
	json_array_foreach (json_object_get(t, "nodes"), k, nd) {
		double s = num(nd, "requested_share");

		if (!(s >= 0 && s <= 1))
			return tt_err(TT_EINPUT, "run %jd: trial %zu has a share '%g' not in 0..1",
				      (intmax_t)tt_plot_run_id(pl->runs[0]), i + 1, s);
		p->share[node_index(pl, (int)json_integer_value(json_object_get(nd, "node")))] = s;
		sum += s;
	}
	if (fabs(sum - 1) > 1e-3)
		return tt_err(TT_EINPUT, "run %jd: trial %zu's shares sum to %g, not 1",
			      (intmax_t)tt_plot_run_id(pl->runs[0]), i + 1, sum);
	weights_text(json_object_get(t, "nodes"), p->weights, sizeof(p->weights));
	return 1;
}

/* The rank is the order the winner is named in: the search's rule (a
 * strategy's incumbent, a baseline that beat it, a latency bound) is not
 * the order of the means, so the recommendation comes first, as the
 * report names it (the kept baseline when the action keeps one), then the
 * rest by the figure shown; the axis says so (rank_figure). Ties keep the
 * order measured. */
static void rank_points(struct tt_plot *pl)
{
	int win = pl->mark[pl->reco].point;

	for (int a = 0; a < pl->n; a++) {
		pl->p[a].rank = a == win ? 1 : 1 + (win >= 0);
		for (int b = 0; b < pl->n && a != win; b++) {
			bool ahead = pl->lower_better ? pl->p[b].value < pl->p[a].value
						      : pl->p[b].value > pl->p[a].value;

			ahead |= pl->p[b].value == pl->p[a].value && b < a;
			pl->p[a].rank += b != win && ahead;
		}
	}
}

/* Why a run keeps what the machine has: the report's own words, as
 * recorded with the recommendation (tuner/report.c tt_report_keep_why); a
 * run recorded before says only the action. And what the first figure
 * shows. */
static void search_words(struct tt_plot *pl)
{
	const char *why = tt_plot_str(
		json_array_get(json_object_get(pl->runs[0], "recommendations"), 0), "action_why");
	size_t len = strlen(pl->action);

	if (why && why[0] && len && len < sizeof(pl->action))
		snprintf(pl->action + len, sizeof(pl->action) - len, " (%s)", why);
	if (pl->nnodes <= 2)
		snprintf(pl->view, sizeof(pl->view), "the share of node %d",
			 pl->nnodes == 2 && pl->nodes[0] == pl->source ? pl->nodes[1]
								       : pl->nodes[0]);
	else if (pl->nnodes == 3)
		snprintf(pl->view, sizeof(pl->view), "a ternary plot of nodes %d, %d and %d",
			 pl->nodes[0], pl->nodes[1], pl->nodes[2]);
	else
		snprintf(pl->view, sizeof(pl->view), "a panel per pair of its %d nodes",
			 pl->nnodes);
}

static int search_points(struct tt_plot *pl)
{
	json_t *run = pl->runs[0], *trials = json_object_get(run, "trials"), *t;
	const char *action;
	size_t i;
	int rc;

	pl->fig = tt_objective_figure(&pl->obj[0]);
	pl->lower_better = tt_objective_lower_better(&pl->obj[0]);
	pl->source = (int)json_integer_value(json_object_get(run, "source_node"));
	if ((rc = search_nodes(pl, trials)) < 0)
		return rc;
	node_names(pl);
	pl->p = calloc(json_array_size(trials) + 1, sizeof(*pl->p));
	if (!pl->p)
		return tt_err(TT_EFAIL, "out of memory");
	pl->mean_ci = true;
	json_array_foreach (trials, i, t)
		pl->mean_ci &= !isfinite(num(t, pl->fig->median)) ||
			       json_array_size(json_object_get(t, "measurements")) > 0;
	json_array_foreach (trials, i, t) {
		if ((rc = trial_point(pl, t, i)) < 0)
			return rc;
		pl->n += rc;
	}
	if (!pl->n)
		return tt_err(TT_EINPUT, "run %jd has no trial with a %s to plot",
			      (intmax_t)tt_plot_run_id(run), pl->fig->name);
	for (int m = 0; m < TT_MARKS; m++)
		pl->mark[m].point = -1;
	/* The baselines first: the best's label says whether it is the
	 * baseline the action keeps (mark_note). */
	action = tt_plot_str(json_array_get(json_object_get(run, "recommendations"), 0), "action");
	pl->reco = !strcmp(action, "keep_auto")	   ? TT_MARK_AUTO
		   : !strcmp(action, "bind_local") ? TT_MARK_LOCAL
						   : TT_MARK_BEST;
	mark_baselines(pl);
	mark_best(pl);
	rank_points(pl);
	search_words(pl);
	return 0;
}

/* The number after what in a bench trial's mix, the only place the record
 * keeps a loaded-latency point's delay ("reads, delay 100") and a matrix
 * cell's CPU node ("MLC from CPU node 1"): bench/run.c. -1: none. */
static long mix_number(json_t *t, const char *what)
{
	const char *at = strstr(tt_plot_str(t, "mix"), what);
	char *end;
	long v;

	if (!at)
		return -1;
	at += strlen(what);
	v = strtol(at, &end, 10);
	return end == at || *end || v < 0 || v >= 1L << 30 ? -1 : v;
}

/* A loaded-latency run: a point per delay, bandwidth and latency. */
static int loaded_points(struct tt_plot *pl)
{
	const struct tt_figure *bw = tt_figure(TT_FIG_BANDWIDTH);
	size_t cap = 1;

	for (int r = 0; r < pl->nruns; r++)
		cap += json_array_size(json_object_get(pl->runs[r], "trials"));
	pl->p = calloc(cap, sizeof(*pl->p));
	if (!pl->p)
		return tt_err(TT_EFAIL, "out of memory");
	for (int r = 0; r < pl->nruns; r++) {
		json_t *t;
		size_t i;
		int before = pl->n;

		json_array_foreach (json_object_get(pl->runs[r], "trials"), i, t) {
			struct point *p = &pl->p[pl->n];

			p->run = r;
			p->bw_gb_s = num(t, bw->median) / bw->divisor;
			p->lat_ns = num(t, tt_figure(TT_FIG_LATENCY)->median);
			if (!(p->bw_gb_s >= 0) || !(p->lat_ns > 0) ||
			    !isfinite(p->bw_gb_s + p->lat_ns))
				continue;
			weights_text(json_object_get(t, "nodes"), p->weights, sizeof(p->weights));
			p->delay = mix_number(t, "delay ");
			pl->n++;
		}
		if (pl->n == before)
			return tt_err(TT_EINPUT,
				      "run %jd has no point with a latency and a bandwidth",
				      (intmax_t)tt_plot_run_id(pl->runs[r]));
	}
	snprintf(pl->view, sizeof(pl->view), "loaded latency against bandwidth");
	return 0;
}

static int matrix_points(struct tt_plot *pl)
{
	json_t *run = pl->runs[0], *t;
	size_t i;

	pl->p = calloc(json_array_size(json_object_get(run, "trials")) + 1, sizeof(*pl->p));
	if (!pl->p)
		return tt_err(TT_EFAIL, "out of memory");
	json_array_foreach (json_object_get(run, "trials"), i, t) {
		struct point *p = &pl->p[pl->n];
		json_t *nodes = json_object_get(t, "nodes");

		p->cpu = (int)mix_number(t, "from CPU node ");
		p->mem = (int)json_integer_value(json_object_get(json_array_get(nodes, 0), "node"));
		p->bw_gb_s = num(t, tt_figure(TT_FIG_BANDWIDTH)->best) /
			     tt_figure(TT_FIG_BANDWIDTH)->divisor;
		p->lat_ns = num(t, tt_figure(TT_FIG_LATENCY)->median);
		if (p->cpu < 0 || json_array_size(nodes) != 1 || p->mem < 0 || p->mem >= 1 << 20)
			return tt_err(TT_EINPUT,
				      "run %jd: trial %zu is not a matrix cell (a CPU node and one "
				      "memory node)",
				      (intmax_t)tt_plot_run_id(run), i + 1);
		for (int j = 0; j < pl->n; j++)
			if (pl->p[j].cpu == p->cpu && pl->p[j].mem == p->mem)
				return tt_err(
					TT_EINPUT,
					"run %jd: CPU node %d to memory node %d is in it twice",
					(intmax_t)tt_plot_run_id(run), p->cpu, p->mem);
		pl->n++;
	}
	if (!pl->n)
		return tt_err(TT_EINPUT, "run %jd has no matrix cell to plot",
			      (intmax_t)tt_plot_run_id(run));
	snprintf(pl->view, sizeof(pl->view), "the CPU-node x memory-node matrix");
	return 0;
}

bool tt_plot_draws(const char *run_kind, const struct tt_objective *o, enum tt_plot_kind *kind)
{
	const struct tt_kernel *kernel = tt_kernel_find(o->kernel);

	if (!strcmp(run_kind, "auto") || !strcmp(run_kind, "sweep"))
		*kind = TT_PLOT_SEARCH;
	else if (!strcmp(run_kind, "bench") && o->kind == TT_OBJ_MATRIX)
		*kind = TT_PLOT_MATRIX;
	else if (!strcmp(run_kind, "bench") && o->kind == TT_OBJ_LATENCY && !o->traffic_gb_s &&
		 kernel && kernel->kind->curve)
		*kind = TT_PLOT_LOADED;
	else
		return false;
	return true;
}

/* Run r's objective, and what kind of plot it makes. A bench run of a
 * curve (bench/kinds.c: loaded latency) draws as one. */
static int kind_of(struct tt_plot *pl, int r, enum tt_plot_kind *kind)
{
	json_t *run = pl->runs[r];
	const char *k = tt_plot_str(run, "kind");
	const struct tt_objective *o = &pl->obj[r];
	char esc[160];
	int rc = tt_objective_of_run(tt_plot_run_id(run), k, tt_plot_str(run, "objective"),
				     &pl->obj[r]);

	if (rc < 0)
		return rc;
	tt_objective_format(o, pl->objective[r], sizeof(pl->objective[r]));
	if (!tt_plot_draws(k, o, kind))
		return tt_err(TT_EINPUT,
			      "run %jd is a '%s' run: plot draws auto and sweep runs, and bench "
			      "runs of --kernel loaded-latency or --matrix",
			      (intmax_t)tt_plot_run_id(run), tt_str_escape(k, esc, sizeof(esc)));
	return 0;
}

int tt_plot_new(struct tt_plot **out, json_t *const *runs, int nruns)
{
	struct tt_plot *pl;
	int rc = 0;

	*out = NULL;
	if (nruns < 1 || nruns > TT_PLOT_MAX_RUNS)
		return tt_err(TT_EINPUT, "%d runs to plot (1-%d)", nruns, TT_PLOT_MAX_RUNS);
	pl = calloc(1, sizeof(*pl));
	if (!pl)
		return tt_err(TT_EFAIL, "out of memory");
	pl->runs = runs;
	pl->nruns = nruns;
	for (int r = 0; rc == 0 && r < nruns; r++) {
		enum tt_plot_kind kind = TT_PLOT_SEARCH;

		json_t *t;
		size_t i;

		pl->simulated |= json_is_true(json_object_get(runs[r], "simulated"));
		json_array_foreach (json_object_get(runs[r], "trials"), i, t) {
			pl->cache_resident |= json_is_true(json_object_get(t, "cache_resident"));
			pl->below_rule |= json_is_true(json_object_get(t, "below_llc_rule"));
			pl->unstable |= json_is_true(json_object_get(t, "unstable"));
			pl->descheduled |= json_is_true(json_object_get(t, "descheduled"));
		}
		if ((rc = kind_of(pl, r, &kind)) < 0)
			break;
		if (r == 0)
			pl->kind = kind;
		else if (kind != TT_PLOT_LOADED || pl->kind != TT_PLOT_LOADED)
			rc = tt_err(TT_EINPUT,
				    "run %jd: only loaded-latency bench runs are drawn together; "
				    "plot the others one at a time",
				    (intmax_t)tt_plot_run_id(runs[r]));
	}
	if (rc == 0)
		rc = pl->kind == TT_PLOT_SEARCH	  ? search_points(pl)
		     : pl->kind == TT_PLOT_LOADED ? loaded_points(pl)
						  : matrix_points(pl);
	if (rc < 0) {
		tt_plot_free(pl);
		return rc;
	}
	*out = pl;
	return 0;
}

void tt_plot_free(struct tt_plot *pl)
{
	if (pl)
		free(pl->p);
	free(pl);
}

enum tt_plot_kind tt_plot_kind(const struct tt_plot *pl)
{
	return pl->kind;
}

bool tt_plot_simulated(const struct tt_plot *pl)
{
	return pl->simulated;
}

int tt_plot_points(const struct tt_plot *pl)
{
	return pl->n;
}

const char *tt_plot_view(const struct tt_plot *pl)
{
	return pl->view;
}

const char *tt_plot_mark(const struct tt_plot *pl, enum tt_plot_mark m, const char **label)
{
	if (pl->kind != TT_PLOT_SEARCH || pl->mark[m].point < 0)
		return NULL;
	if (label)
		*label = pl->mark[m].label;
	return pl->p[pl->mark[m].point].weights;
}

const char *const *tt_plot_figures(const struct tt_plot *pl)
{
	static const char *const search[] = { "", "-rank", NULL }, *const one[] = { "", NULL };

	return pl->kind == TT_PLOT_SEARCH ? search : one;
}
