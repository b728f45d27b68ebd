// SPDX-License-Identifier: GPL-3.0-or-later
/* Recorded runs as gnuplot scripts (plot.h). */
#include "plot.h"

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

/* Eight of matplotlib's viridis stops: perceptually uniform, monotone in
 * lightness (so it reads in grey too), and told apart with the common
 * colour-vision deficiencies; the rainbow it replaces is none of these. */
static const char viridis[] = "set palette defined (0 '#440154', 0.143 '#46327e', 0.286 "
			      "'#365c8d', 0.429 '#277f8e', 0.571 '#1fa187', 0.714 '#4ac16d', "
			      "0.857 '#a0da39', 1 '#fde725')\n";

struct point {
	int run;			 /* index in the plot's runs */
	double share[TT_PLOT_MAX_NODES]; /* requested, by index in nodes[] */
	double value, worse, better;	 /* the figure's unit: mean and 95% CI, else
					    median, worst and best */
	int nmeas;			 /* measurements behind value (mean_ci) */
	bool unbounded;			 /* their interval has no upper end */
	double bw_gb_s, lat_ns;		 /* loaded latency and matrix */
	int cpu, mem;			 /* matrix: CPU node and memory node */
	int rank;			 /* search: 1 + the trials better than it */
	long delay;			 /* loaded latency: spin iterations a line; -1: unknown */
	char weights[96];
};

struct mark {
	int point; /* -1: not in the run */
	char label[256];
};

struct tt_plot {
	enum tt_plot_kind kind;
	json_t *const *runs;
	int nruns;
	bool simulated;
	bool cache_resident; /* a trial's working set fitted in the LLC */
	bool below_rule;     /* a trial's arrays were under 4x the LLC (STREAM's rule) */
	bool unstable;	     /* a trial's passes spread, or a curve was not monotone */
	/* Each run's objective, and as its text; a search run's figure is the
	 * one its objective ranks by (core/figure.h), the recommendation's
	 * score converted back to it through tuner/score.h. */
	struct tt_objective obj[TT_PLOT_MAX_RUNS];
	char objective[TT_PLOT_MAX_RUNS][TT_OBJECTIVE_TEXT_MAX];
	const struct tt_figure *fig;
	/* The run kept each measurement (samples of collector "search",
	 * attached to its trials as "measurements"): points are means with
	 * 95% intervals, as the report ranks; a run recorded before that has
	 * only each trial's median and range. */
	bool mean_ci;
	bool lower_better;
	int source;
	int nnodes, nodes[TT_PLOT_MAX_NODES];
	int n;
	struct point *p;
	struct mark mark[TT_MARKS];
	/* The mark that is the recommendation: the best for apply (and
	 * per_source, whose weights are the best launched per socket), the
	 * baseline the action keeps for keep_auto (auto) and bind_local
	 * (local): tuner/report.h tt_report_decide. */
	enum tt_plot_mark reco;
	char action[320]; /* the recommendation, in words */
	/* Each node of the search as the axes name it: its role from the
	 * source and its tier (node_name). */
	char node_name[TT_PLOT_MAX_NODES][96];
	/* Its kind alone, "local DRAM, tier 4": a second line where the
	 * whole name would not fit (the ternary's corners, the panels' axes). */
	char node_kind[TT_PLOT_MAX_NODES][64];
	char view[96];
};

/* One word each: the data table's marks column is split at spaces. */
static const char *const mark_names[] = { "best", "local", "1:1", "auto", "now", "fast" };
/* The key's and the lines' words. */
static const char *const mark_words[] = {
	"best", "local", "1:1", "auto", "now", "fast tier alone"
};
/* Shapes told apart without colour: circle, square, triangle, diamond. */
static const int mark_pt[] = { 6, 4, 8, 12, 10, 14 };

static const char *str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

static double num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static int64_t run_id(json_t *run)
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
					      (intmax_t)run_id(pl->runs[0]), i + 1,
					      json_is_integer(v) ? "out of range" : "not a number");
			node = (int)json_integer_value(v);
			if (node_index(pl, node) >= 0)
				continue;
			if (pl->nnodes == TT_PLOT_MAX_NODES)
				return tt_err(TT_EINPUT,
					      "run %jd has trials over more than %d nodes",
					      (intmax_t)run_id(pl->runs[0]), TT_PLOT_MAX_NODES);
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

static void figure_text(const struct tt_plot *pl, double v, char *buf, size_t size)
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

	figure_text(pl, p->value, v, sizeof(v));
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
	const char *action = str(rec, "action"), *key;
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
		figure_text(pl, mean, a, sizeof(a));
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
				mark_label(pl, marks[k], mark_words[marks[k]], "");
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
				      (intmax_t)run_id(pl->runs[0]), i + 1, s);
		p->share[node_index(pl, (int)json_integer_value(json_object_get(nd, "node")))] = s;
		sum += s;
	}
	if (fabs(sum - 1) > 1e-3)
		return tt_err(TT_EINPUT, "run %jd: trial %zu's shares sum to %g, not 1",
			      (intmax_t)run_id(pl->runs[0]), i + 1, sum);
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
	const char *why = str(json_array_get(json_object_get(pl->runs[0], "recommendations"), 0),
			      "action_why");
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
			      (intmax_t)run_id(run), pl->fig->name);
	for (int m = 0; m < TT_MARKS; m++)
		pl->mark[m].point = -1;
	/* The baselines first: the best's label says whether it is the
	 * baseline the action keeps (mark_note). */
	action = str(json_array_get(json_object_get(run, "recommendations"), 0), "action");
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
	const char *at = strstr(str(t, "mix"), what);
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
				      (intmax_t)run_id(pl->runs[r]));
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
				      (intmax_t)run_id(run), i + 1);
		for (int j = 0; j < pl->n; j++)
			if (pl->p[j].cpu == p->cpu && pl->p[j].mem == p->mem)
				return tt_err(
					TT_EINPUT,
					"run %jd: CPU node %d to memory node %d is in it twice",
					(intmax_t)run_id(run), p->cpu, p->mem);
		pl->n++;
	}
	if (!pl->n)
		return tt_err(TT_EINPUT, "run %jd has no matrix cell to plot",
			      (intmax_t)run_id(run));
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
	const char *k = str(run, "kind");
	const struct tt_objective *o = &pl->obj[r];
	char esc[160];
	int rc = tt_objective_of_run(run_id(run), k, str(run, "objective"), &pl->obj[r]);

	if (rc < 0)
		return rc;
	tt_objective_format(o, pl->objective[r], sizeof(pl->objective[r]));
	if (!tt_plot_draws(k, o, kind))
		return tt_err(TT_EINPUT,
			      "run %jd is a '%s' run: plot draws auto and sweep runs, and bench "
			      "runs of --kernel loaded-latency or --matrix",
			      (intmax_t)run_id(run), tt_str_escape(k, esc, sizeof(esc)));
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
		}
		if ((rc = kind_of(pl, r, &kind)) < 0)
			break;
		if (r == 0)
			pl->kind = kind;
		else if (kind != TT_PLOT_LOADED || pl->kind != TT_PLOT_LOADED)
			rc = tt_err(TT_EINPUT,
				    "run %jd: only loaded-latency bench runs are drawn together; "
				    "plot the others one at a time",
				    (intmax_t)run_id(runs[r]));
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

/* s as a gnuplot string literal. In single quotes gnuplot expands neither
 * backquotes (`cmd` runs cmd in double quotes and bare words) nor @macros
 * nor backslash escapes; '' is the one escape, for a quote. Control
 * characters and malformed UTF-8 are made visible first (tt_str_escape):
 * a newline would end the command. Checked with gnuplot 5.4. */
static void gp_str(FILE *f, const char *s)
{
	char esc[1024];

	fputc('\'', f);
	for (s = tt_str_escape(s, esc, sizeof(esc)); *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

/* Two lines as one gnuplot string: each quoted by gp_str, joined by a
 * newline (which only a double-quoted string holds). */
static void gp_lines(FILE *f, const char *a, const char *b)
{
	gp_str(f, a);
	if (b && *b) {
		fputs(" . \"\\n\" . ", f);
		gp_str(f, b);
	}
}

/* A file name as a gnuplot string: as it is (the caller refuses control
 * characters in it; one here would still become '?'), a quote doubled. */
static void gp_path(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\'')
			fputc('\'', f);
		fputc(c < 0x20 || c == 0x7f ? '?' : c, f);
	}
	fputc('\'', f);
}

/* A stored string in a '#' line of the table: one line, whatever it holds. */
static void comment_str(FILE *f, const char *s)
{
	char esc[1024];

	fputs(tt_str_escape(s, esc, sizeof(esc)), f);
}

static void table_header(const struct tt_plot *pl, FILE *f)
{
	for (int r = 0; r < pl->nruns; r++) {
		fprintf(f, "# tiertune run %jd (", (intmax_t)run_id(pl->runs[r]));
		comment_str(f, str(pl->runs[r], "kind"));
		fputs(", ", f);
		comment_str(f, pl->objective[r]);
		fprintf(f, "), source node %jd%s\n",
			(intmax_t)json_integer_value(json_object_get(pl->runs[r], "source_node")),
			json_is_true(json_object_get(pl->runs[r], "simulated"))
				? ": SIMULATED, every figure from a model"
				: "");
	}
}

int tt_plot_write_data(const struct tt_plot *pl, FILE *f)
{
	table_header(pl, f);
	if (pl->kind == TT_PLOT_LOADED) {
		fprintf(f, "# run  bw_gb_s  lat_ns  delay  weights   (delay: spin iterations per "
			   "cache line, -1 unknown)\n");
		for (int i = 0; i < pl->n; i++)
			fprintf(f, "%jd %.6g %.6g %ld %s\n",
				(intmax_t)run_id(pl->runs[pl->p[i].run]), pl->p[i].bw_gb_s,
				pl->p[i].lat_ns, pl->p[i].delay, pl->p[i].weights);
		return 0;
	}
	if (pl->kind == TT_PLOT_MATRIX) {
		fprintf(f, "# cpu_node  mem_node  bw_gb_s  lat_ns\n");
		for (int i = 0; i < pl->n; i++)
			fprintf(f, "%d %d %.6g %.6g\n", pl->p[i].cpu, pl->p[i].mem,
				pl->p[i].bw_gb_s, pl->p[i].lat_ns);
		return 0;
	}
	fputs("#", f);
	for (int k = 0; k < pl->nnodes; k++)
		fprintf(f, " share_node%d", pl->nodes[k]);
	fprintf(f, "  %s  rank  measurements  weights  marks   (figures in %s)\n",
		pl->mean_ci ? "mean  ci_worse  ci_better" : "median  worst  best",
		pl->fig->plot_unit);
	for (int i = 0; i < pl->n; i++) {
		const char *sep = " ";

		for (int k = 0; k < pl->nnodes; k++)
			fprintf(f, "%.6f ", pl->p[i].share[k]);
		fprintf(f, "%.6g %.6g %.6g %d %d %s", pl->p[i].value, pl->p[i].worse,
			pl->p[i].better, pl->p[i].rank, pl->p[i].nmeas, pl->p[i].weights);
		for (int m = 0; m < TT_MARKS; m++)
			if (pl->mark[m].point == i) {
				fprintf(f, "%s%s", sep, mark_names[m]);
				sep = ",";
			}
		fputs(*sep == ' ' ? " -\n" : "\n", f);
	}
	return 0;
}

/* The title after cmd ("set title"): simulated said first, what was run,
 * the answer below; a cache-resident bench run says so. */
static void title(const struct tt_plot *pl, FILE *f, const char *cmd, const char *what)
{
	char t[1200];
	int len = snprintf(t, sizeof(t), "%s", pl->simulated ? "SIMULATED " : "");

	for (int r = 0; r < pl->nruns && len < (int)sizeof(t); r++)
		len += snprintf(t + len, sizeof(t) - (size_t)len, "%srun %jd", r ? ", " : "",
				(intmax_t)run_id(pl->runs[r]));
	if (len < (int)sizeof(t) && pl->nruns == 1 && pl->kind == TT_PLOT_MATRIX)
		snprintf(t + len, sizeof(t) - (size_t)len, " (%s): %s", str(pl->runs[0], "kind"),
			 pl->objective[0]);
	else if (len < (int)sizeof(t) && pl->nruns == 1)
		snprintf(t + len, sizeof(t) - (size_t)len, " (%s): %s from node %jd",
			 str(pl->runs[0], "kind"), pl->objective[0],
			 (intmax_t)json_integer_value(json_object_get(pl->runs[0], "source_node")));
	fprintf(f, "%s ", cmd);
	gp_str(f, t);
	fputs(" . \"\\n\" . ", f);
	gp_str(f, what);
	/* bench's words (cli/cmd-bench.c print_trust), shortened to a line. */
	if (pl->cache_resident)
		fputs(" . \"\\n\" . 'CACHE-RESIDENT: all a pass touches fits in the last-level "
		      "cache, these figures are the cache''s, not memory''s'",
		      f);
	else if (pl->below_rule)
		fputs(" . \"\\n\" . 'below STREAM''s 4x rule: arrays under 4x the last-level "
		      "cache, some of each pass may be served from it'",
		      f);
	if (pl->unstable)
		fprintf(f,
			" . \"\\n\" . 'UNSTABLE: passes spread beyond %.0f%%, or a curve not "
			"monotone: other work shared the host'",
			TT_SPREAD_MAX * 100);
	fputs("\n", f);
}

static void output(FILE *f, const char *prefix, const char *suffix, const char *term,
		   const char *size)
{
	char name[4200];

	snprintf(name, sizeof(name), "%s%s.%s", prefix, suffix, term);
	fprintf(f, "reset\nset terminal %s size %s noenhanced font ',10'\nset output ",
		!strcmp(term, "png") ? "pngcairo" : "svg", size);
	gp_path(f, name);
	fputs("\n", f);
}

static void value_range(const struct tt_plot *pl, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (int i = 0; i < pl->n; i++) {
		*lo = fmin(*lo, pl->p[i].value);
		*hi = fmax(*hi, pl->p[i].value);
	}
	if (!(*hi > *lo)) {
		*lo -= fabs(*lo) * 0.01 + 1e-9;
		*hi += fabs(*hi) * 0.01 + 1e-9;
	}
}

/* The colour scale: viridis, bright for better whichever way the figure
 * goes. */
static void palette(const struct tt_plot *pl, FILE *f)
{
	double lo, hi;
	char t[128];

	value_range(pl, &lo, &hi);
	fputs(viridis, f);
	if (pl->lower_better)
		fputs("set palette negative\n", f);
	fprintf(f, "set cbrange [%.9g:%.9g]\nset cblabel ", lo, hi);
	snprintf(t, sizeof(t), "%s, %s of its measurements (%s is better, brighter)",
		 pl->fig->plot_unit, pl->mean_ci ? "mean" : "median",
		 pl->lower_better ? "lower" : "higher");
	gp_str(f, t);
	fputs("\n", f);
}

/* The marks drawn over a panel: each its own shape, in black, labelled in
 * the key with its weights and figure; the recommendation's the largest. */
static void plot_marks(const struct tt_plot *pl, FILE *f, const char *x, const char *y, bool key)
{
	for (int m = 0; m < TT_MARKS; m++) {
		if (pl->mark[m].point < 0)
			continue;
		fprintf(f, ", \\\n  $m%d using %s:%s with points pt %d ps %s lw 2 lc rgb 'black' ",
			m, x, y, mark_pt[m], m == (int)pl->reco ? "3.2" : "2.2");
		if (key) {
			fputs("title ", f);
			gp_str(f, pl->mark[m].label);
		} else {
			fputs("notitle", f);
		}
	}
}

static void datablocks(const struct tt_plot *pl, FILE *f)
{
	fputs("$data << EOD\n", f);
	tt_plot_write_data(pl, f);
	fputs("EOD\n", f);
	if (pl->kind != TT_PLOT_SEARCH)
		return;
	/* Each mark's row alone, so that each is a plot element with its key
	 * entry. */
	for (int m = 0; m < TT_MARKS; m++) {
		const struct point *p = &pl->p[pl->mark[m].point];

		if (pl->mark[m].point < 0)
			continue;
		fprintf(f, "$m%d << EOD\n", m);
		for (int k = 0; k < pl->nnodes; k++)
			fprintf(f, "%.6f ", p->share[k]);
		fprintf(f, "%.6g %.6g %.6g %d\nEOD\n", p->value, p->worse, p->better, p->rank);
	}
}

/* The key's words for the trials' points and bars. */
static const char *trials_key(const struct tt_plot *pl)
{
	return pl->mean_ci ? "trials: mean of its measurements, bars its 95% CI (what the report "
			     "ranks by)"
			   : "trials: median, bars the worst..best of its measurements (recorded "
			     "without them)";
}

/* The baselines' reference lines: each line's label, its figure, and
 * the order by figure, highest first. Baselines of one trial (the weights
 * set now are often auto mode's) share one line, their names together. */
struct ref_lines {
	int n, order[TT_MARKS];
	char text[TT_MARKS][96];
	double v[TT_MARKS];
	int margin; /* characters right of the graph for the labels */
};

static void ref_lines(const struct tt_plot *pl, struct ref_lines *r)
{
	static const enum tt_plot_mark refs[] = { TT_MARK_LOCAL, TT_MARK_AUTO, TT_MARK_EVEN,
						  TT_MARK_NOW, TT_MARK_FAST };
	enum { NREFS = sizeof(refs) / sizeof(refs[0]) };
	size_t width = 0;

	r->n = 0;
	for (size_t i = 0; i < NREFS; i++) {
		const struct mark *mk = &pl->mark[refs[i]];
		char *t = r->text[r->n], fig[48];
		size_t at = 0, j;
		int k;

		for (j = 0; j < i && pl->mark[refs[j]].point != mk->point; j++)
			;
		if (mk->point < 0 || j < i)
			continue;
		r->v[r->n] = pl->p[mk->point].value;
		figure_text(pl, r->v[r->n], fig, sizeof(fig));
		t[0] = '\0';
		for (j = i; j < NREFS; j++)
			if (pl->mark[refs[j]].point == mk->point && at < sizeof(r->text[0]))
				at += (size_t)snprintf(t + at, sizeof(r->text[0]) - at, "%s%s",
						       at ? ", " : "", mark_words[refs[j]]);
		if (at < sizeof(r->text[0]))
			snprintf(t + at, sizeof(r->text[0]) - at, " %s", fig);
		width = strlen(t) > width ? strlen(t) : width;
		for (k = r->n; k > 0 && r->v[r->order[k - 1]] < r->v[r->n]; k--)
			r->order[k] = r->order[k - 1];
		r->order[k] = r->n++;
	}
	r->margin = width + 2 > 18 ? (int)width + 2 : 18;
}

/* A figure with reference lines ("900,650"), wider by what its labels
 * take beyond the 18 characters the margin had: "key below" is as wide as
 * the graph, and a key's long titles stopped fitting when the margin
 * grew. About 7 pixels a character of the 10-point font. */
static void ref_size(const struct tt_plot *pl, int w, int h, char *buf, size_t size)
{
	struct ref_lines r;

	ref_lines(pl, &r);
	snprintf(buf, size, "%d,%d", w + 7 * (r.margin - 18), h);
}

/* A horizontal reference line at each baseline's figure, labelled in the
 * right margin, as wide as the longest label (the fast tier's was cut by
 * the image's edge). Labels closer than a line of text apart print over
 * each other (local, auto mode and the weights set now often are): from
 * the top down each keeps at least that far below the one above, a line
 * being 5% of the bars' span, about a line of the 10-point font on the
 * 430-pixel graph. */
static void reference_lines(const struct tt_plot *pl, FILE *f)
{
	struct ref_lines r;
	double y[TT_MARKS], lo = INFINITY, hi = -INFINITY, gap;

	ref_lines(pl, &r);
	for (int i = 0; i < pl->n; i++) {
		lo = fmin(lo, fmin(pl->p[i].value, fmin(pl->p[i].worse, pl->p[i].better)));
		hi = fmax(hi, fmax(pl->p[i].value, fmax(pl->p[i].worse, pl->p[i].better)));
	}
	gap = 0.05 * (hi > lo ? hi - lo : fabs(hi) + 1e-9);
	/* The y axis is the figure: the colour bar would repeat it, and its
	 * room holds the lines' labels. */
	fprintf(f, "unset colorbox\nset rmargin %d\n", r.margin);
	for (int k = 0; k < r.n; k++) {
		int i = r.order[k], above = k ? r.order[k - 1] : -1;

		y[i] = above >= 0 && y[above] - r.v[i] < gap ? y[above] - gap : r.v[i];
		fprintf(f,
			"set arrow from graph 0, first %.6g to graph 1, first %.6g nohead dt 2 "
			"lw 1.5 lc rgb '#555555' back\n",
			r.v[i], r.v[i]);
		fputs("set label ", f);
		gp_str(f, r.text[i]);
		fprintf(f, " at graph 1, first %.6g left offset 0.5,0 tc rgb '#333333'\n", y[i]);
	}
}

/* Two nodes: the figure against the share of the node other than the
 * source, which with two nodes fixes the vector. */
static void share_figure(const struct tt_plot *pl, FILE *f)
{
	int other = pl->nnodes == 2 && pl->nodes[0] == pl->source ? 1 : 0;
	int c = pl->nnodes + 1;
	char x[32], y[32], xl[96];

	snprintf(x, sizeof(x), "%d", other + 1);
	snprintf(y, sizeof(y), "%d", c);
	snprintf(xl, sizeof(xl), "share of pages on %s", pl->node_name[other]);
	fputs("set xlabel ", f);
	gp_str(f, xl);
	fputs("\nset ylabel ", f);
	gp_str(f, pl->fig->plot_unit);
	fputs("\nset grid\nset key below left Left reverse\nset xrange [-0.02:1.02]\n", f);
	palette(pl, f);
	reference_lines(pl, f);
	fprintf(f, "plot $data using %s:%d:%d:%d:%d with yerrorbars pt 7 ps 1.1 lc palette title ",
		x, c, c + 1, c + 2, c);
	gp_str(f, trials_key(pl));
	plot_marks(pl, f, x, y, true);
	fputs("\n", f);
}

static void ternary_grid(const struct tt_plot *pl, FILE *f)
{
	const double h = sqrt(3) / 2;
	/* The corners' positions: nodes[0], nodes[1], nodes[2]. */
	const double cx[3] = { 0, 1, 0.5 }, cy[3] = { 0, 0, h };

	fputs("unset border\nunset xtics\nunset ytics\nset size ratio -1\n"
	      "set xrange [-0.2:1.2]\nset yrange [-0.16:0.95]\n",
	      f);
	for (int c = 0; c < 3; c++) {
		int a = (c + 1) % 3, b = (c + 2) % 3;

		fprintf(f,
			"set arrow from %.4f,%.4f to %.4f,%.4f nohead lw 1.5 lc rgb 'black' back\n",
			cx[a], cy[a], cx[b], cy[b]);
		/* Lines of equal share of node c, every 20%: from the edge
		 * c-a to the edge c-b. */
		for (int g = 1; g < 5; g++) {
			double s = g / 5.0;

			fprintf(f,
				"set arrow from %.4f,%.4f to %.4f,%.4f nohead dt 3 lc rgb "
				"'#aaaaaa' back\n",
				s * cx[c] + (1 - s) * cx[a], s * cy[c] + (1 - s) * cy[a],
				s * cx[c] + (1 - s) * cx[b], s * cy[c] + (1 - s) * cy[b]);
		}
		/* The node and its kind on two lines, the bottom corners'
		 * below them and turned inwards: beside the corners they ran
		 * off the image's left edge and into the colour bar
		 * (issue 44). */
		fputs("set label ", f);
		{
			char t[64];

			snprintf(t, sizeof(t), "node %d: 100%%", pl->nodes[c]);
			gp_lines(f, t, pl->node_kind[c]);
		}
		fprintf(f, " at %.4f,%.4f %s offset %s\n", cx[c], cy[c],
			c == 0	 ? "left"
			: c == 1 ? "right"
				 : "center",
			c == 0	 ? "-1,-1.2"
			: c == 1 ? "1,-1.2"
				 : "0,1.8");
	}
	fputs("set label 'dotted: every 20% of a node''s share' at graph 0, graph 0.98 left "
	      "tc rgb '#555555'\n",
	      f);
}

static void ternary_figure(const struct tt_plot *pl, FILE *f)
{
	/* Node 0's corner at (0,0), node 1's at (1,0), node 2's at the apex:
	 * a trial's point is its shares' weighted sum of the corners. */
	static const char x[] = "($2 + $3/2)", y[] = "($3*sqrt(3)/2)";

	ternary_grid(pl, f);
	fputs("set key below left Left reverse\n", f);
	palette(pl, f);
	fprintf(f,
		"plot $data using %s:%s:%d with points pt 7 ps 1.3 lc palette title 'trials, "
		"coloured by their %s (no interpolation: each dot is a trial)'",
		x, y, pl->nnodes + 1, pl->mean_ci ? "mean" : "median");
	plot_marks(pl, f, x, y, true);
	fputs("\n", f);
}

/* Four nodes and more: a panel per pair of nodes, their two shares (the
 * rest on the others), in a grid above the key and the colour bar; placed
 * by hand, as gnuplot's layout gives a key panel no more room than the
 * others. */
static void pairs_figure(const struct tt_plot *pl, FILE *f)
{
	int npairs = pl->nnodes * (pl->nnodes - 1) / 2, cols = 1, rows, panel = 0;
	double w, h;

	while (cols * cols < npairs)
		cols++;
	rows = (npairs + cols - 1) / cols;
	w = 1.0 / cols;
	h = 0.68 / rows;
	title(pl, f, "set multiplot title",
	      pl->action[0] ? pl->action : "no recommendation recorded");
	palette(pl, f);
	fputs("unset colorbox\nset xrange [0:1]\nset yrange [0:1]\nset xtics 0.5\nset ytics 0.5\n"
	      "set grid\nset key off\nset arrow 1 from 0,1 to 1,0 nohead lc rgb '#888888' back\n",
	      f);
	for (int i = 0; i < pl->nnodes; i++)
		for (int j = i + 1; j < pl->nnodes; j++, panel++) {
			char x[16], y[16], t[96];

			snprintf(x, sizeof(x), "%d", i + 1);
			snprintf(y, sizeof(y), "%d", j + 1);
			fprintf(f, "set origin %.4f,%.4f\nset size %.4f,%.4f\n", (panel % cols) * w,
				0.27 + (rows - 1 - panel / cols) * h, w, h);
			/* The node's kind on a line of its own: whole, it was
			 * wider than a panel and cut by the next one or the
			 * image's edge. */
			snprintf(t, sizeof(t), "share of node %d", pl->nodes[i]);
			fputs("set xlabel ", f);
			gp_lines(f, t, pl->node_kind[i]);
			snprintf(t, sizeof(t), "share of node %d", pl->nodes[j]);
			fputs(" offset 0,0.5\nset ylabel ", f);
			gp_lines(f, t, pl->node_kind[j]);
			fprintf(f,
				" offset 1,0\nplot $data using %s:%s:%d with points pt 7 ps 0.8 lc "
				"palette notitle",
				x, y, pl->nnodes + 1);
			plot_marks(pl, f, x, y, false);
			fputs("\n", f);
		}
	/* The key: the marks' labels and the colour bar, below the grid. */
	fputs("set origin 0,0\nset size 1,0.27\nunset border\nunset xtics\nunset ytics\n"
	      "unset xlabel\nunset ylabel\nunset grid\nunset arrow\n"
	      "set colorbox horizontal user origin 0.62,0.13 size 0.33,0.025\nset cblabel ",
	      f);
	{
		char t[96];

		snprintf(t, sizeof(t), "%s, %s (brighter is better)", pl->fig->plot_unit,
			 pl->mean_ci ? "mean" : "median");
		gp_str(f, t);
	}
	fprintf(f,
		"\nset key at screen 0.02,0.25 left top Left reverse\n"
		"plot 2 with points pt 7 lc palette cb 0 title 'trials, coloured by their %s'",
		pl->mean_ci ? "mean" : "median");
	for (int m = 0; m < TT_MARKS; m++)
		if (pl->mark[m].point >= 0) {
			fprintf(f, ", 2 with points pt %d ps 2 lw 2 lc rgb 'black' title ",
				mark_pt[m]);
			gp_str(f, pl->mark[m].label);
		}
	fputs("\nunset multiplot\n", f);
}

/* Every trial in the order the winner is named in (search_points), with
 * the baselines as reference lines: how far the winner is from what the
 * machine already does. */
static void rank_figure(const struct tt_plot *pl, FILE *f)
{
	int c = pl->nnodes + 1;
	char x[16], y[16], xl[96];

	snprintf(xl, sizeof(xl), "trials: %sthe rest by %s, %s first",
		 pl->mark[pl->reco].point >= 0 ? "the recommendation, then " : "",
		 pl->mean_ci ? "mean" : "median", pl->lower_better ? "lowest" : "highest");
	fputs("set xlabel ", f);
	gp_str(f, xl);
	fputs("\nset ylabel ", f);
	gp_str(f, pl->fig->plot_unit);
	fputs("\nset grid\nset key below left Left reverse\n", f);
	palette(pl, f);
	reference_lines(pl, f);
	snprintf(x, sizeof(x), "%d", c + 3);
	snprintf(y, sizeof(y), "%d", c);
	fprintf(f, "plot $data using %d:%d:%d:%d:%d with yerrorbars pt 7 ps 1.1 lc palette title ",
		c + 3, c, c + 1, c + 2, c);
	gp_str(f, trials_key(pl));
	plot_marks(pl, f, x, y, true);
	fputs("\n", f);
}

static void loaded_figure(const struct tt_plot *pl, FILE *f)
{
	static const char *const colours[] = { "#440154", "#21918c", "#e0a500",
					       "#3b528b", "#5ec962", "#7a0177" };

	fputs("set xlabel 'bandwidth, GB/s (all threads)'\nset ylabel 'loaded latency, ns'\n"
	      "set grid\nset key top left Left reverse\n",
	      f);
	fputs("plot", f);
	for (int r = 0; r < pl->nruns; r++) {
		char t[200];
		const char *w = "";

		for (int i = 0; i < pl->n; i++)
			if (pl->p[i].run == r) {
				w = pl->p[i].weights;
				break;
			}
		snprintf(t, sizeof(t), "%srun %jd: weights %s",
			 json_is_true(json_object_get(pl->runs[r], "simulated")) ? "SIMULATED "
										 : "",
			 (intmax_t)run_id(pl->runs[r]), w);
		fprintf(f,
			"%s $data using ($1 == %jd ? $2 : 1/0):3 with linespoints pt %d ps 1.2 lw "
			"2 "
			"lc rgb '%s' title ",
			r ? ", \\\n " : "", (intmax_t)run_id(pl->runs[r]), 5 + 2 * (r % 4),
			colours[r % 6]);
		gp_str(f, t);
	}
	fputs("\n", f);
}

/* One of the matrix's two heat maps: a cell per CPU node and memory
 * node, its figure written in it; cells are placed by index, so nodes
 * need not be contiguous. */
static void matrix_panel(const struct tt_plot *pl, FILE *f, int col, const char *what,
			 bool lower_better)
{
	int cpus[64], mems[64], ncpu = 0, nmem = 0;
	double lo = INFINITY, hi = -INFINITY;

	for (int i = 0; i < pl->n; i++) {
		double v = col == 3 ? pl->p[i].bw_gb_s : pl->p[i].lat_ns;
		int k;

		if (isfinite(v)) {
			lo = fmin(lo, v);
			hi = fmax(hi, v);
		}
		for (k = 0; k < ncpu && cpus[k] != pl->p[i].cpu; k++)
			;
		if (k == ncpu && ncpu < 64)
			cpus[ncpu++] = pl->p[i].cpu;
		for (k = 0; k < nmem && mems[k] != pl->p[i].mem; k++)
			;
		if (k == nmem && nmem < 64)
			mems[nmem++] = pl->p[i].mem;
	}
	if (!(hi > lo)) {
		lo -= fabs(lo) * 0.01 + 1e-9;
		hi += fabs(hi) * 0.01 + 1e-9;
	}
	fputs(viridis, f);
	if (lower_better)
		fputs("set palette negative\n", f);
	fprintf(f, "set cbrange [%.9g:%.9g]\nset title ", lo, hi);
	gp_str(f, what);
	fprintf(f,
		"\nset xlabel 'memory node'\nset ylabel 'CPU node'\nset xrange [-0.5:%d.5]\n"
		"set yrange [%d.5:-0.5]\nset xtics (",
		nmem - 1, ncpu - 1);
	for (int k = 0; k < nmem; k++)
		fprintf(f, "%s'%d' %d", k ? ", " : "", mems[k], k);
	fputs(")\nset ytics (", f);
	for (int k = 0; k < ncpu; k++)
		fprintf(f, "%s'%d' %d", k ? ", " : "", cpus[k], k);
	fputs(")\nunset key\nset size ratio -1\n", f);
	/* Index of a node among the axes' nodes. */
	fputs("xi(n) = ", f);
	for (int k = 0; k < nmem; k++)
		fprintf(f, "n == %d ? %d : ", mems[k], k);
	fputs("1/0\nyi(n) = ", f);
	for (int k = 0; k < ncpu; k++)
		fprintf(f, "n == %d ? %d : ", cpus[k], k);
	/* Text dark on the bright end of the palette, white on the dark. */
	fprintf(f,
		"1/0\nink(v) = ((v - %.9g) / %.9g %s 0.6) ? 0 : 0xffffff\n"
		"plot $data using (xi($2)):(yi($1)):(0.5):(0.5):%d with boxxyerror fs solid "
		"lc palette, \\\n"
		"  $data using (xi($2)):(yi($1)):(sprintf('%s', column(%d))):(ink(column(%d))) "
		"with labels tc rgb variable font ',11'\n",
		lo, hi - lo, lower_better ? "<" : ">", col, col == 3 ? "%.1f" : "%.0f", col, col);
}

static void matrix_figure(const struct tt_plot *pl, FILE *f)
{
	title(pl, f, "set multiplot layout 1,2 title",
	      "bandwidth and idle latency from each CPU node to each memory node");
	matrix_panel(pl, f, 3, "bandwidth, GB/s (best pass)", false);
	matrix_panel(pl, f, 4, "idle latency, ns (median)", true);
	fputs("unset multiplot\n", f);
}

int tt_plot_write_script(const struct tt_plot *pl, const char *prefix, FILE *f)
{
	static const char *const terms[] = { "png", "svg" };
	char size[32];

	fputs("# tiertune plot: the data inline, then each figure as PNG and SVG\n", f);
	datablocks(pl, f);
	for (int t = 0; t < 2; t++) {
		if (pl->kind == TT_PLOT_MATRIX) {
			output(f, prefix, "", terms[t], "1100,520");
			matrix_figure(pl, f);
			continue;
		}
		if (pl->kind == TT_PLOT_LOADED) {
			output(f, prefix, "", terms[t], "900,600");
			title(pl, f, "set title",
			      "loaded latency against bandwidth, one point per delay");
			loaded_figure(pl, f);
			continue;
		}
		ref_size(pl, 900, 750, size, sizeof(size));
		output(f, prefix, "", terms[t],
		       pl->nnodes > 3	 ? "1100,1100"
		       : pl->nnodes <= 2 ? size
					 : "900,750");
		if (pl->nnodes <= 3)
			title(pl, f, "set title",
			      pl->action[0] ? pl->action : "no recommendation recorded");
		if (pl->nnodes <= 2)
			share_figure(pl, f);
		else if (pl->nnodes == 3)
			ternary_figure(pl, f);
		else
			pairs_figure(pl, f);
		ref_size(pl, 900, 650, size, sizeof(size));
		output(f, prefix, "-rank", terms[t], size);
		title(pl, f, "set title",
		      pl->action[0] ? pl->action : "no recommendation recorded");
		rank_figure(pl, f);
	}
	return ferror(f) ? tt_err(TT_EFAIL, "writing the gnuplot script failed") : 0;
}
