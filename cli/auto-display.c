// SPDX-License-Identifier: GPL-3.0-or-later
/* auto's and sweep's report, as text and as JSON from one document, and
 * their progress lines (auto-display.h). */
#include "auto-display.h"
#include "cli.h"

#include "../bench/kernels.h"
#include "../core/bitmap.h"
#include "../core/error.h"
#include "../core/parse.h"
#include "../core/wi.h"
#include "../db/json.h"
#include "../measure/app.h"
#include "../view/interval.h"
#include "../view/score.h"
#include "../core/figure.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A figure and its interval's half width, which maps to first order,
 * each as the figure table shows it (view/score.h). True when the
 * interval reached zero or below, for a figure that cannot: "-" instead
 * of a bound that cannot be (stats.h), which the table's note says. */
static bool print_figure(FILE *f, const struct tt_objective *o, double score, double half)
{
	double lo = score - half, hi = score + half;
	bool unbounded = isfinite(half) && tt_score_positive(o) && !tt_ci_positive(&lo, &hi);
	char v[48], h[48];

	tt_score_print(o, score, v, sizeof(v));
	tt_score_half_print(o, score, unbounded ? NAN : half, h, sizeof(h));
	fprintf(f, "%8s ±%6s", v, h);
	return unbounded;
}

/* A score as shown, into a caller's buffer of 48 bytes. */
static const char *score_text(const struct tt_objective *o, double score, char *buf)
{
	tt_score_print(o, score, buf, 48);
	return buf;
}

/* The note under a table where an interval was not shown. */
static void unbounded_note(FILE *f, bool any)
{
	if (any)
		fprintf(f, "(-: too few measurements to bound the mean above zero)\n");
}

static void weights_text(const struct tt_weights *w, char *buf, size_t size)
{
	if (tt_weights_format(w, buf, size) < 0)
		snprintf(buf, size, "?");
}

static void trial_weights(const struct tt_search *s, int trial, char *buf, size_t size)
{
	uint32_t w[TT_SEARCH_MAX_NODES];
	struct tt_weights tw;

	tt_search_trial_weights(s, trial, w);
	tt_search_weights(s, w, &tw);
	weights_text(&tw, buf, size);
}

static const char *sim(const struct tt_auto_doc *d)
{
	return d->simulated ? "SIMULATED " : "";
}

/* sweep: every vector with the share of the nodes other than the source's
 * (the slow tier when the source's node is the fast one). */
static void text_trials(FILE *f, const struct tt_auto_doc *d)
{
	bool any = false;

	fprintf(f, "%s%-20s %14s %8s %8s %s\n", sim(d), "weights", "remote share",
		tt_score_unit(d->objective), "95% CI", "measurements");
	for (int i = 0; i < d->r->ntrials; i++) {
		const struct tt_doc_trial *tr = &d->trials[i];
		char ws[96];

		weights_text(&tr->w, ws, sizeof(ws));
		fprintf(f, "%s%-20s %13.1f%% ", sim(d), ws, 100 * tr->remote_share);
		any |= print_figure(f, d->objective, tr->mean, tr->half);
		fprintf(f, " %d\n", tr->n);
	}
	unbounded_note(f, any);
	fprintf(f, "\n");
}

/* The profile table: each node's figures from the source and their source. */
static void text_profile(FILE *f, const struct tt_auto_doc *d)
{
	const struct tt_profile *p = &d->prior->profile;

	if (d->simulated && !p->skipped)
		fprintf(f,
			"SIMULATED profile from node %d (the model's peak figures, the lesser of "
			"read and write: not the mix's with these threads):\n",
			p->source);
	else if (p->skipped && !tt_profile_complete(p))
		fprintf(f, "profile skipped (%s), and HMAT lacks figures here: no prior\n",
			p->skipped);
	else if (p->skipped)
		fprintf(f,
			"profile skipped (%s): HMAT's figures, from each node's best initiator, "
			"as a first guess\n",
			p->skipped);
	else
		fprintf(f,
			"profile from node %d: %d kernel runs in %.1f s, %d measurements of the "
			"budget%s\n",
			p->source, p->runs, p->elapsed_s, d->prior->cost,
			tt_profile_complete(p) ? "" : " (cut short by the time budget)");
	const struct tt_figure *fb = tt_figure(TT_FIG_BANDWIDTH), *fl = tt_figure(TT_FIG_LATENCY);
	char idle[32];

	snprintf(idle, sizeof(idle), "idle %s", fl->label);
	fprintf(f, "%6s %10s %10s  %s\n", "node", fb->label, idle, "from");
	for (int k = 0; k < p->n; k++) {
		const struct tt_profile_node *pn = &p->nodes[k];
		char bw[16] = "-", lat[16] = "-";

		/* A figure too wide for the column with its decimals (%.2f of
		 * 1e299 GB/s was cut to "100000000000000") goes in %.3g. */
		if (pn->bw_bytes_s >= 1e15)
			snprintf(bw, sizeof(bw), "%.3g", pn->bw_bytes_s / fb->divisor);
		else if (pn->bw_bytes_s > 0)
			tt_figure_print(fb, pn->bw_bytes_s, bw, sizeof(bw));
		if (pn->lat_ns > 0)
			tt_figure_print(fl, pn->lat_ns, lat, sizeof(lat));
		fprintf(f, "%6d %10s %10s  %s\n", pn->node, bw, lat, pn->from);
	}
	/* The profile's own checks (measure/profile.h): a drift between its
	 * two passes, a chase that measured a cache. */
	if (p->drift[0])
		fprintf(f, "drift: %s%s\n", p->drift,
			p->ndrift > 1 ? "; more figures drifted too" : "");
	if (p->lat_refused[0])
		fprintf(f, "idle latency: %s\n", p->lat_refused);
	fprintf(f, "\n");
}

static void text_policy(FILE *f, const struct tt_auto_doc *d)
{
	char nodes[128] = "";

	fprintf(f,
		"under the kernel's MPOL_WEIGHTED_INTERLEAVE: each candidate's weights written, "
		"read back before and after, and put back; %d measurement%s so, %d discarded "
		"(the weights moved under it)\n",
		d->pol->trials, d->pol->trials == 1 ? "" : "s", d->pol->discarded);
	if (!d->app)
		return;
	fprintf(f, "the program's output: %s\n", d->log);
	fprintf(f, "processes the runs left behind, ended after them: %d\n", d->app->leftovers);
	if (d->app->host_nodes) {
		tt_bit_format_list(d->app->nodes.bits, TT_MAX_NODES, nodes, sizeof(nodes));
		fprintf(f,
			"TEST HOOK (%s): the weights went to '%s', but the program ran under this "
			"host's nodes %s and their weights, not the fixture's\n",
			TT_TEST_APP_HOST_NODES, d->root, nodes);
	}
}

static void text_objective(FILE *f, const struct tt_auto_doc *d)
{
	const struct tt_kernel *k = d->req->kernel;
	char traffic[48];

	if (d->app) {
		fprintf(f, "%s of '%s'",
			d->app->metric ? "the number --metric matches" : "the wall time",
			d->app->argv[0]);
		if (d->app->metric)
			fprintf(f, " (%s is better)",
				d->app->higher_is_better ? "higher" : "lower");
	} else if (d->objective->kind == TT_OBJ_LATENCY) {
		tt_objective_traffic_print(d->objective, traffic, sizeof(traffic));
		fprintf(f, "%s at %s of %s", tt_score_fig(d->objective)->name, traffic, k->name);
	} else {
		fprintf(f, "%s %s (%s counting)%s", k->name, tt_score_fig(d->objective)->name,
			k->counting ? k->counting : "-",
			d->req->max_lat_ns > 0 ? " within the latency bound" : "");
	}
}

/* What ran: the model, the machine, the source and nodes, the objective,
 * the search. */
static void text_head(FILE *f, const struct tt_auto_doc *d)
{
	const struct tt_report *r = d->r;
	char nodes[128] = "";

	for (int k = 0; k < r->nnodes; k++)
		snprintf(nodes + strlen(nodes), sizeof(nodes) - strlen(nodes), "%s%d", k ? "," : "",
			 r->nodes[k]);
	if (d->simulated)
		fprintf(f,
			"SIMULATED: every figure comes from model '%s', not a measurement; the "
			"topology is '%s'\n",
			d->req->model->path, d->root);
	fprintf(f, "machine: %s (%s), kernel %s\n", d->t->hostname[0] ? d->t->hostname : "-",
		d->t->cpu_model[0] ? d->t->cpu_model : "unknown CPU", d->t->kernel_release);
	fprintf(f, "source node %d, interleaving %s %s; objective: ", d->req->source,
		d->tiers ? "memory tiers" : "nodes", nodes);
	text_objective(f, d);
	if (d->threads)
		fprintf(f, ", %d threads", d->threads);
	/* A model's time is its simulated clock (tuner/auto-pipe.c), said so. */
	fprintf(f,
		"\nsearch: %s strategy, prior from %s, max weight %u; %d measurements of %d "
		"trials in %.*f s%s (%s)\n",
		r->strategy, r->prior_from, r->max_weight, r->measurements, r->ntrials,
		d->simulated ? 3 : 1, r->elapsed_s, d->simulated ? " of simulated time" : "",
		r->stop_reason);
}

/* The baselines' table and the best's row, and what the columns are. */
static void text_table(FILE *f, const struct tt_auto_doc *d)
{
	const struct tt_report *r = d->r;
	const struct tt_objective *o = d->objective;
	char w[96], head[48];
	int rounds = 0;
	bool any = false;

	if (d->simulated)
		fprintf(f, "SIMULATED figures:\n");
	snprintf(head, sizeof(head), "best's %s %s it", tt_gain_word(o), tt_gain_against(o));
	fprintf(f, "%-8s %-16s %8s %8s  %-26s %s\n", "", "weights", tt_score_unit(o), "95% CI",
		head, "verdict");
	for (int i = 0; i < r->nbaselines; i++) {
		const struct tt_report_baseline *b = &r->base[i];
		char gain[64] = "-";

		weights_text(&b->w, w, sizeof(w));
		if (b->verdict != TT_VERDICT_SAME)
			tt_gain_text(o, b->gain, b->gain_lo, b->gain_hi, TT_GAIN_COLUMN, gain,
				     sizeof(gain));
		fprintf(f, "%-8s %-16s", b->name, w);
		any |= print_figure(f, o, b->mean,
				    isfinite(b->ci_hi) ? (b->ci_hi - b->ci_lo) / 2 : NAN);
		fprintf(f, "  %-26s %s\n", gain, tt_verdict_name(b->verdict));
		if (b->rounds > rounds)
			rounds = b->rounds;
	}
	weights_text(&r->best_w, w, sizeof(w));
	fprintf(f, "%-8s %-16s", "best", w);
	any |= print_figure(f, o, r->best_mean,
			    isfinite(r->best_ci_hi) ? (r->best_ci_hi - r->best_ci_lo) / 2 : NAN);
	/* The two columns come from different measurements, and their ratio
	 * need not match the gain: say which. */
	fprintf(f,
		"\n(%s: the mean of each vector's measurements in the search; %s: the final\n"
		" comparison alone, the best and each baseline measured alternately, %d paired "
		"round%s)\n",
		tt_score_unit(o), tt_gain_word(o), rounds, rounds == 1 ? "" : "s");
	unbounded_note(f, any);
	fprintf(f, "\n");
}

/* A gain with its interval, in percent: "+12.3% (95% CI +10.1%..+14.5%)";
 * for the latency objective the change of latency, in percent and in ns
 * of the baseline's: "-84.1% latency, -674.5 ns (95% CI ...)". */
static void print_gain(FILE *f, const struct tt_auto_doc *d, const struct tt_report_baseline *b)
{
	char g[160];

	tt_gain_change_text(d->objective, b->gain, b->gain_lo, b->gain_hi, b->mean, g, sizeof(g));
	fputs(g, f);
}

/* The best against each baseline, in the final comparison's terms. */
static void text_verdicts(FILE *f, const struct tt_auto_doc *d)
{
	const struct tt_report *r = d->r;
	char w[96];

	weights_text(&r->best_w, w, sizeof(w));
	fprintf(f, "%sbest weights %s:", sim(d), w);
	for (int i = 0; i < r->nbaselines; i++) {
		const struct tt_report_baseline *b = &r->base[i];

		fprintf(f, "\n  vs %-17s ", tt_report_baseline_label(r, b->kind));
		if (b->verdict == TT_VERDICT_SAME) {
			fprintf(f, "the same weights");
		} else if (b->verdict == TT_VERDICT_UNKNOWN) {
			fprintf(f, "unknown (too few paired rounds within the budget)");
		} else if (b->verdict == TT_VERDICT_NOISE) {
			print_gain(f, d, b);
			fprintf(f, ": within noise, not a win");
		} else {
			print_gain(f, d, b);
			fprintf(f, " %s", tt_verdict_name(b->verdict));
		}
	}
	fprintf(f, "\n");
	if (r->have_auto) {
		weights_text(&r->auto_w, w, sizeof(w));
		const char *from = d->prior->auto_from ? d->prior->auto_from : "-";

		if (strcmp(from, "hmat") == 0)
			fprintf(f,
				"kernel auto mode (the kernel's formula on HMAT's bandwidths, over "
				"all %d memory nodes) gives %s: %s\n",
				d->prior->auto_nodes, w,
				r->best_is_auto ? "the search found nothing better"
						: "see its row above");
		else if (strcmp(from, "no_hmat") == 0)
			fprintf(f,
				"kernel auto mode: no HMAT/CDAT bandwidth here, so the kernel "
				"holds "
				"1 for every node (%s): %s\n",
				w,
				r->best_is_auto ? "the search found nothing better"
						: "see its row above");
		else
			fprintf(f,
				"kernel auto mode (its formula on the %s bandwidths) gives %s: "
				"%s\n",
				from, w,
				r->best_is_auto ? "the search found nothing better"
						: "see its row above");
	} else {
		fprintf(f,
			"kernel auto mode: no bandwidth figures (no HMAT), so no auto baseline\n");
	}
}

/* The recommendation from the other CPU nodes (tt_auto_sources). */
static void text_others(FILE *f, const struct tt_auto_doc *d)
{
	const struct tt_auto_sources *all = d->others;
	const struct tt_objective *sc = d->objective;
	char w[96], nw[96];

	if (!all || (!all->judged && !all->skipped[0]))
		return;
	weights_text(&all->cand, w, sizeof(w));
	if (!all->judged) {
		fprintf(f,
			"the weights are global, and every task interleaving over their nodes gets "
			"%s from any CPU node; not measured from the other CPU nodes: %s\n",
			w, all->skipped);
		return;
	}
	fprintf(f,
		"%sthe weights are global: every task interleaving over their nodes gets %s, from "
		"any CPU node. Written, from each CPU node, for tasks interleaving over each mask "
		"(interleaved rounds, beyond the budget):\n",
		sim(d), w);
	for (int i = 0; i < all->n; i++) {
		const struct tt_auto_other *o = &all->o[i];
		char mask[64], aw[96], g[160], x[48], y[48];
		double v[3];

		tt_bit_format_list(o->mask.bits, TT_MAX_NODES, mask, sizeof(mask));
		if (o->why) {
			fprintf(f, "  source node %d over nodes %s: not measured: %s\n", o->source,
				mask, o->why);
			continue;
		}
		weights_text(&o->now, nw, sizeof(nw));
		weights_text(&o->after, aw, sizeof(aw));
		if (o->verdict == TT_VERDICT_SAME) {
			fprintf(f,
				"  source node %d over nodes %s: %s now (%s) and after: the same\n",
				o->source, mask, nw, o->now_what);
			continue;
		}
		fprintf(f, "  source node %d over nodes %s: %s %s under %s, %s now (%s %s), ",
			o->source, mask, score_text(sc, o->cand_mean, x), tt_score_unit(sc), aw,
			score_text(sc, o->now_mean, y), o->now_what, nw);
		tt_gain_text(sc, o->cmp.gain, o->cmp.gain_lo, o->cmp.gain_hi, TT_GAIN_CI, g,
			     sizeof(g));
		tt_gain_shown(sc, o->cmp.gain, o->cmp.gain_lo, o->cmp.gain_hi, v);
		if (o->verdict == TT_VERDICT_UNKNOWN)
			fprintf(f, "unknown");
		else if (isfinite(v[1]) && isfinite(v[2]))
			fprintf(f, "%s %s", g,
				o->verdict == TT_VERDICT_NOISE ? "within noise"
							       : tt_verdict_name(o->verdict));
		fprintf(f, "; its local DRAM %s, %d rounds\n", score_text(sc, o->local_mean, x),
			o->cmp.rounds);
	}
}

/* The nodes of list a that list b names too, as a list ("" none). */
static void shared_nodes(const char *a, const char *b, char *buf, size_t size)
{
	uint64_t x[TT_MAX_NODES / 64] = { 0 }, y[TT_MAX_NODES / 64] = { 0 };

	buf[0] = '\0';
	if (tt_parse_list(a, x, TT_MAX_NODES) < 0 || tt_parse_list(b, y, TT_MAX_NODES) < 0)
		return;
	for (unsigned int i = 0; i < TT_MAX_NODES / 64; i++)
		x[i] &= y[i];
	tt_bit_format_list(x, TT_MAX_NODES, buf, size);
}

/* What to do instead of global weights that cost another source: tune
 * every source together, or launch per socket (upstream's answer to
 * per-socket requests: the CPUs bound, the policy's nodes; weights are
 * global, never per socket). Every line a command that runs as printed,
 * and the words say what it does (issue 43): tiertune run --apply puts the
 * weights back when the program ends; the numactl line only where this
 * host's numactl has -w (asked now, cli_numactl_weighted); the other
 * sockets' tasks bound to their own local memory, which may be some of
 * the program's nodes, and then the gain, measured with them idle, is an
 * upper bound; a service's drop-in from export --format systemd. */
void cli_auto_recipe_text(FILE *f, const struct tt_recipe *in)
{
	struct tt_recipe safe = *in, *r = &safe;
	char why[256], shared[128];

	/* Checked where read (tt_recipe_parse), and still escaped here, as
	 * every stored string a terminal is shown. */
	tt_str_escape(in->weights, r->weights, sizeof(r->weights));
	tt_str_escape(in->nodes, r->nodes, sizeof(r->nodes));
	tt_str_escape(in->cpus, r->cpus, sizeof(r->cpus));
	for (int i = 0; i < r->nothers; i++)
		tt_str_escape(in->other[i].mems, r->other[i].mems, sizeof(r->other[i].mems));

	/* Prose wrapped where the values are short (80 columns for "0-47",
	 * "0-1", "0:9,1:2"), each command alone on its line. */
	fprintf(f,
		"instead, either tune every source at once, each over its own nodes\n"
		"(global weights can hold them together):\n"
		"  tiertune auto --all-sources --nodes local\n"
		"or launch per socket: the program on node %d's CPUs (%s), under weighted\n"
		"interleave over nodes %s; --apply writes %s for its run only (global\n"
		"meanwhile: every task interleaving over those nodes gets them), then puts\n"
		"the weights and auto mode back as they were:\n"
		"  tiertune run --source-node %d --weights %s --apply -- PROGRAM\n",
		r->source, r->cpus, r->nodes, r->weights, r->source, r->weights);
	if (cli_numactl_weighted(why, sizeof(why)))
		fprintf(f,
			"or, the weights written for good first ('tiertune apply --weights %s'):\n"
			"  numactl --cpunodebind=%d --weighted-interleave=%s -- PROGRAM\n",
			r->weights, r->source, r->nodes);
	else
		fprintf(f, "(no numactl line: %s;\ntiertune run does what numactl -w would)\n",
			why);
	for (int i = 0; i < r->nothers; i++) {
		const char *mems = r->other[i].mems;

		if (!mems[0]) {
			fprintf(f, "node %d's tasks: it has no local memory node to bind them to\n",
				r->other[i].source);
			continue;
		}
		fprintf(f,
			"node %d's tasks on its CPUs and local memory, nodes %s (or their\n"
			"cgroup's cpuset.mems=%s):\n"
			"  numactl --cpunodebind=%d --membind=%s -- PROGRAM\n",
			r->other[i].source, mems, mems, r->other[i].source, mems);
		shared_nodes(mems, r->nodes, shared, sizeof(shared));
		if (shared[0])
			fprintf(f,
				"they share node%s %s with the program: its gain was measured "
				"with\n"
				"them idle, so with them running it is an upper bound\n",
				strchr(shared, ',') || strchr(shared, '-') ? "s" : "", shared);
	}
	fprintf(f,
		"a service: its systemd drop-in (CPUAffinity=, NUMAPolicy=, NUMAMask=, after\n"
		"the boot unit that writes the weights) from\n"
		"  tiertune export --weights %s --source-node %d --format systemd -- PROGRAM\n",
		r->weights, r->source);
}

int cli_auto_run_recipe_get(const json_t *run, struct tt_recipe *r)
{
	const json_t *rec;
	size_t i;

	json_array_foreach (json_object_get(run, "recommendations"), i, rec) {
		const char *stored = json_string_value(json_object_get(rec, "recipe_text"));
		char *text;
		int rc;

		if (strcmp(json_string_value(json_object_get(rec, "action")) ?: "", "per_source"))
			continue;
		/* What tt_db_run_get refused: refused again, for its message. */
		text = stored ? strdup(stored)
			      : json_dumps(json_object_get(rec, "recipe"), JSON_COMPACT);
		if (!text)
			continue;
		rc = tt_recipe_parse(text, r);
		free(text);
		if (rc < 0) {
			tt_err_prefix("run %" JSON_INTEGER_FORMAT
				      "'s per-socket recipe is refused, not printed",
				      json_integer_value(json_object_get(run, "id")));
			tt_err_hint("the database is damaged, or a store merged in holds text "
				    "no tiertune wrote");
			return rc;
		}
		return 1;
	}
	return 0;
}

int cli_auto_run_recipe(const json_t *run, FILE *f)
{
	struct tt_recipe r;
	char w[sizeof(r.weights)];
	int rc = cli_auto_run_recipe_get(run, &r);

	if (rc <= 0)
		return rc;
	fprintf(f,
		"no global weights for source node %d: its best weights, %s, cost another "
		"CPU node beyond the noise (upstream weights are global)\n",
		r.source, tt_str_escape(r.weights, w, sizeof(w)));
	cli_auto_recipe_text(f, &r);
	return 1;
}

/* What the machine runs now, as the headline names it. */
static const char *now_label(const struct tt_auto_doc *d)
{
	switch (d->r->base[d->now_base].kind) {
	case TT_BASE_AUTO:
		return "the kernel's auto mode";
	case TT_BASE_NOW:
		return "the weights set by hand";
	default:
		return tt_nodemask_weight(&d->prior->now_w.set)
			       ? "local memory, the default policy: no weights were set"
			       : "local memory: no weighted interleave here";
	}
}

/* The weights to apply and their gain over what the machine runs now
 * (by tier, or when the winner lost, over the baseline named), with local
 * DRAM and 1:1 beside it, and the cost of leaving auto mode. */
static void text_reco_gain(FILE *f, const struct tt_auto_doc *d, const char *w)
{
	const struct tt_report *r = d->r;
	const struct tt_report_baseline *over = tt_report_gain_over(r), *now;

	fprintf(f, "%srecommendation for source node %d: %s", sim(d), d->req->source, w);
	if (d->now_base >= 0 && r->lost_to < 0) {
		now = &r->base[d->now_base];
		if (now->verdict == TT_VERDICT_SAME) {
			fprintf(f, ", what the machine runs now (%s)\n", now_label(d));
		} else if (now->verdict == TT_VERDICT_UNKNOWN) {
			fprintf(f, ", gain over what the machine runs now (%s) unknown\n",
				now_label(d));
		} else {
			fprintf(f, ", ");
			print_gain(f, d, now);
			fprintf(f, "%s %s what the machine runs now (%s)\n",
				now->verdict == TT_VERDICT_NOISE ? ", within noise," : "",
				tt_gain_against(d->objective), now_label(d));
		}
		for (int i = 0; i < r->nbaselines; i++) {
			const struct tt_report_baseline *b = &r->base[i];

			/* The fast tier alone, a Xeon Max user's first
			 * comparison, beside them where there is one. */
			if (i == d->now_base ||
			    (b->kind != TT_BASE_LOCAL && b->kind != TT_BASE_EVEN &&
			     b->kind != TT_BASE_FAST))
				continue;
			fprintf(f, "  beside it, vs %-15s ", tt_report_baseline_label(r, b->kind));
			if (b->verdict == TT_VERDICT_SAME)
				fprintf(f, "the same weights\n");
			else if (b->verdict == TT_VERDICT_UNKNOWN)
				fprintf(f, "unknown\n");
			else
				print_gain(f, d, b),
					fprintf(f, "%s\n",
						b->verdict == TT_VERDICT_NOISE ? ", within noise"
									       : "");
		}
	} else if (over && over->verdict == TT_VERDICT_SAME) {
		fprintf(f, " (the %s baseline itself)\n", tt_report_baseline_label(r, over->kind));
	} else if (isnan(r->reco_gain)) {
		fprintf(f, " (gain unknown)\n");
	} else if (r->reco_gain == 0) {
		fprintf(f, " (no gain over %s beyond the noise)\n",
			tt_report_baseline_label(r, over->kind));
	} else {
		char g[48];

		tt_gain_text(d->objective, r->reco_gain, NAN, NAN, TT_GAIN_WORDED, g, sizeof(g));
		fprintf(f, " (%s %s %s)\n", g, tt_gain_against(d->objective),
			tt_report_baseline_label(r, over->kind));
	}
	/* mm/mempolicy.c: writing any nodeN sets auto mode off, and only
	 * auto mode recomputes the table when a node reports bandwidth (a
	 * CXL region onlined): the weights then stay as written. */
	if (d->leaves_auto)
		fprintf(f,
			"%s turns the kernel's auto mode off: it stops re-deriving the "
			"weights when memory is hotplugged (a CXL device added or removed keeps "
			"these)%s\n",
			d->applying ? "--apply" : "applying",
			d->plan->auto_lost
				? ", and without HMAT/CDAT bandwidth it cannot be turned "
				  "back on"
				: "; 'tiertune restore --last' turns it back on");
}

/* What to do: the weights (and the nodes they leave out), or what to
 * keep instead. */
/* What a keep keeps, in the report's words. */
static const char *keep_words(enum tt_reco_action a)
{
	return a == TT_ACTION_KEEP_AUTO	 ? "keep the kernel's auto mode"
	       : a == TT_ACTION_KEEP_NOW ? "keep the weights set now"
					 : "bind to local memory, no interleave";
}

static void text_reco(FILE *f, const struct tt_auto_doc *d)
{
	const struct tt_report *r = d->r;
	char w[96];

	weights_text(&d->reco->w, w, sizeof(w));
	if (r->lost_to >= 0)
		fprintf(f,
			"the search's winner lost to the %s baseline beyond the noise: "
			"recommending "
			"that baseline instead\n",
			r->base[r->lost_to].name);
	if (r->action == TT_ACTION_PER_SOURCE) {
		fprintf(f,
			"%srecommendation for source node %d: no global weights: %s, the best "
			"from it, costs another source beyond the noise (above)\n",
			sim(d), d->req->source, w);
		struct tt_recipe rc;

		tt_auto_recipe(d->t, d->req->source, &d->reco->w, &rc);
		cli_auto_recipe_text(f, &rc);
		return;
	}
	if (r->action == TT_ACTION_BIND_LOCAL && r->lost_to < 0 &&
	    r->base[r->action_base].verdict == TT_VERDICT_SAME) {
		/* The best is local memory itself: a bind, whose gain over now
		 * is the headline; never an apply of the one-node vector,
		 * which would turn auto mode off for every task. */
		snprintf(w + strlen(w), sizeof(w) - strlen(w), " alone: bind there, no weights");
		text_reco_gain(f, d, w);
		return;
	}
	if (d->keeps && r->more_measurements > 0) {
		const struct tt_report_baseline *now = &r->base[r->now_base];
		char g[160];

		/* Not a silent keep: the budget could not tell (issue 43). A
		 * latency's gain shown as its change, as every other gain here. */
		tt_gain_text(d->objective, now->gain, now->gain_lo, now->gain_hi, TT_GAIN_CI, g,
			     sizeof(g));
		fprintf(f,
			"%srecommendation for source node %d: %s; inconclusive: the best measured, "
			"%s, %s over %s: about %d more measurements would decide (--budget %d)\n",
			sim(d), d->req->source, keep_words(r->action), w, g,
			r->action == TT_ACTION_KEEP_NOW ? "them" : "it", r->more_measurements,
			d->budget_trials + r->more_measurements);
		return;
	}
	if (d->keeps) {
		fprintf(f,
			"%srecommendation for source node %d: %s; the best measured, %s, is no "
			"gain beyond the noise over it\n",
			sim(d), d->req->source, keep_words(r->action), w);
		return;
	}
	text_reco_gain(f, d, w);
	for (int k = 0; !d->tiers && k < r->nnodes; k++) {
		/* Upstream weights are 1-255: a node the search left out cannot
		 * be given 0, it has to stay out of the task's nodemask. */
		if (!tt_weights_get(&d->reco->w, r->nodes[k], 0))
			fprintf(f,
				"node %d gets no weight: leave it out of the policy's nodes "
				"(numactl "
				"-w, set_mempolicy); apply leaves its sysfs weight as it is\n",
				r->nodes[k]);
	}
}

/* The plan apply would run, and the commands that use the result. */
static void text_next(FILE *f, const struct tt_auto_doc *d)
{
	const struct tt_apply_plan *p = d->plan;

	if (p && d->applying) {
		/* The writes follow the report, as the writer makes them. */
	} else if (p) {
		fprintf(f, "\napply would write (%s interface):\n", p->be->name);
		for (int i = 0; i < p->n; i++)
			fprintf(f, "  %s%s: %s -> %s\n", p->sfs->live ? "" : p->sfs->root,
				p->w[i].file, p->w[i].old, p->w[i].value);
	} else {
		fprintf(f, "\napply: %s%s\n", d->keeps ? "" : "not possible here: ", d->plan_why);
	}
	if (d->keeps) {
		if (d->run)
			fprintf(f,
				"\nrecorded as run %" PRId64 "%s ('apply --run %" PRId64
				"' writes nothing for it); to see it:\n  %s\n",
				d->run, d->simulated ? " (simulated)" : "", d->run, d->next[0]);
		return;
	}
	if (d->copy_tree[0])
		fprintf(f,
			"\nthe weights are for the model's machine; to try them, on a copy of its "
			"tree:\n  %s\n",
			d->copy_tree);
	if (d->run && d->applying && p)
		fprintf(f,
			"\nrecorded as run %" PRId64 "%s; to use it elsewhere:\n  %s\n"
			"\n--apply writes its weights now (%s interface; 'restore --last' undoes "
			"it):\n",
			d->run, d->simulated ? " (simulated)" : "", d->next[1], p->be->name);
	else if (d->applying && p)
		fprintf(f, "\nnot recorded (%s); --apply writes the weights now (%s interface):\n",
			d->record_why ? "the database failed" : "--no-record", p->be->name);
	else if (d->run)
		fprintf(f,
			"\nrecorded as run %" PRId64 "%s; to use it:\n  %s   ('restore --last' "
			"undoes it)\n  %s\n",
			d->run, d->simulated ? " (simulated)" : "", d->next[0], d->next[1]);
	else
		fprintf(f, "\nnot recorded (%s); to apply: %s\n",
			d->record_why ? "the database failed" : "--no-record", d->next[0]);
}

/* What the report adds for the objective and the granularity. */
static void text_objective_notes(FILE *f, const struct tt_auto_doc *d)
{
	const struct tt_report *r = d->r;
	const struct tt_objective *o = d->objective;
	const struct tt_figure *fl = tt_figure(TT_FIG_LATENCY);
	bool latency = o->kind == TT_OBJ_LATENCY;
	char w[96], traffic[48], a[48], b[48], c[48];

	weights_text(&r->best_w, w, sizeof(w));
	tt_objective_traffic_print(o, traffic, sizeof(traffic));
	tt_figure_print(fl, r->best_lat_ns, a, sizeof(a));
	if (latency)
		fprintf(f,
			"\n%s%s at %s of %s: best %s at %s %s. The changes above are in %s (the "
			"search ranks dependent loads per second, 1/latency: +25%% of those is "
			"-20%% latency)\n",
			sim(d), fl->name, traffic, d->req->kernel->name, w, a, fl->label,
			tt_gain_word(o));
	if (latency && r->noverloaded)
		fprintf(f,
			"%s%d of %d trials could not carry %s (overloaded: their latency is "
			"an extrapolation, and none is recommended)\n",
			sim(d), r->noverloaded, r->nmeasured, traffic);
	if (d->req->max_lat_ns > 0) {
		tt_figure_print_whole(fl, d->req->max_lat_ns, a, sizeof(a));
		tt_figure_print_whole(fl, r->best_lat_ns, c, sizeof(c));
		fprintf(f,
			"\n%slatency bound %s %s: %d of %d trials within it; the best within it, "
			"%s, moves %s %s at %s %s\n",
			sim(d), a, fl->label, r->nfeasible, r->nmeasured, w,
			score_text(o, r->best_mean, b), tt_score_unit(o), c, fl->label);
		for (int i = 0; i < r->nbaselines; i++) {
			weights_text(&r->base[i].w, w, sizeof(w));
			tt_figure_print_whole(fl, r->base[i].lat_ns, a, sizeof(a));
			fprintf(f, "  %-8s %-16s %6s %s  %s\n", r->base[i].name, w, a, fl->label,
				r->base[i].feasible ? "within the bound" : "over the bound");
		}
	}
	if (d->tiers) {
		weights_text(&d->reco->w, w, sizeof(w));
		fprintf(f,
			"\n%stier weights for source node %d (the RFC's form, tier:weight; 0 "
			"leaves "
			"a tier out): %s\n",
			sim(d), d->req->source, w);
	}
}

void cli_auto_text(FILE *f, const struct tt_auto_doc *d)
{
	if (d->req->kind == TT_RUN_SWEEP)
		text_trials(f, d);
	text_head(f, d);
	text_profile(f, d);
	if (d->pol)
		text_policy(f, d);
	text_table(f, d);
	text_verdicts(f, d);
	text_others(f, d);
	text_reco(f, d);
	/* With --apply the report ends with the writes' heading. */
	if (d->applying)
		text_objective_notes(f, d);
	text_next(f, d);
	if (!d->applying)
		text_objective_notes(f, d);
}

/* JSON. Each object's fields in the order docs/json.md lists them. */

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

/* App mode's figures in the program's terms (seconds, or its metric) from
 * a score's mean and interval; the bandwidth fields null. */
static void app_scores(json_t *o, const struct tt_app *app, double mean, double lo, double hi)
{
	static const char *const secs[] = { "time_mean_s", "time_ci_low_s", "time_ci_high_s" };
	static const char *const metric[] = { "metric_mean", "metric_ci_low", "metric_ci_high" };
	bool inverse = tt_app_shown(app, 2) != 2;
	double v[3] = { mean, lo, hi };

	for (int i = 0; i < 3; i++) {
		/* The inverse swaps the interval's ends; a score interval
		 * reaching zero leaves the time's unbounded (null). */
		double x = v[inverse && i ? 3 - i : i];

		json_object_set_new(o, (app->metric ? metric : secs)[i],
				    tt_json_real(isfinite(x) && (!inverse || x > 0)
							 ? tt_app_shown(app, x)
							 : NAN));
	}
}

/* The bandwidth of a figure: null for the latency objective and app
 * mode, whose scores are no bandwidth. */
static void json_bw(json_t *o, const struct tt_auto_doc *d, double mean, double lo, double hi)
{
	bool bw = tt_score_fig(d->objective) == tt_figure(TT_FIG_BANDWIDTH);

	/* No bound below zero for a bandwidth: null (stats.h). */
	tt_ci_positive(&lo, &hi);
	json_object_set_new(o, "bw_mean_bytes_s", tt_json_real(bw ? mean : NAN));
	json_object_set_new(o, "bw_ci_low_bytes_s", tt_json_real(bw ? lo : NAN));
	json_object_set_new(o, "bw_ci_high_bytes_s", tt_json_real(bw ? hi : NAN));
}

/* What follows a figure: its loaded latency and, under a bound or at a
 * stated traffic, whether it is feasible; app mode's figures in its own
 * terms. */
static void json_lat(json_t *o, const struct tt_auto_doc *d, double lat_ns, bool feasible,
		     const double *score)
{
	json_object_set_new(o, "lat_mean_ns", tt_json_real(lat_ns));
	json_object_set_new(o, "feasible",
			    d->req->max_lat_ns > 0 || d->objective->kind == TT_OBJ_LATENCY
				    ? json_boolean(feasible)
				    : json_null());
	if (d->app)
		app_scores(o, d->app, score[0], score[1], score[2]);
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
			    latency ? json_real(d->req->traffic_bytes_s) : json_null());
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

void cli_auto_all_text(FILE *f, const struct tt_auto_all *all, bool simulated)
{
	const struct tt_wi_backend *be = all->be;
	const char *s = simulated ? "SIMULATED " : "";
	char w[512];

	fprintf(f, "\n=== every source ===\n%s%d CPU nodes searched, each its own run%s:\n", s,
		all->rs.n, be && be->per_source ? ", by tier (the interface's form)" : "");
	for (int i = 0; i < all->rs.n; i++) {
		weights_text(&all->rs.r[i].w, w, sizeof(w));
		fprintf(f, "  source node %d: %s %s", all->rs.r[i].source_node,
			all->rs.r[i].interface, w);
		if (all->run[i])
			fprintf(f, " (run %" PRId64 ")", all->run[i]);
		fprintf(f, "\n");
	}
	if (!be) {
		fprintf(f, "apply: not possible here: %s\n", all->why);
	} else if (be->per_source) {
		fprintf(f,
			"%s%s holds %s weights per source node: each source's apply as they are\n",
			s, be->name, be->unit);
	} else if (all->conflict[0]) {
		/* The conflict says already that the kernel holds one weight. */
		fprintf(f,
			"%sthe sources overlap: %s\napply refuses the set; 'tiertune apply --run "
			"RUN' applies one source's weights (every other source then uses them "
			"too)\n",
			s, all->conflict);
	} else {
		weights_text(&all->merged, w, sizeof(w));
		fprintf(f,
			"%s%s holds one global weight per %s; the sources do not overlap (or "
			"agree), merged: %s\n",
			s, be->name, be->unit, w);
		if (all->refused[0])
			fprintf(f, "%sthe set is not to be written: %s\n", s, all->refused);
		else if (all->keep[0])
			fprintf(f,
				"the set is not to be written: not every source's run supports "
				"writing weights (%s)\n",
				all->keep);
	}
}

void cli_auto_confirm(FILE *f, const struct tt_auto *c, const struct tt_search *s, int trial)
{
	const struct tt_objective *o = &c->objective;
	char w[96], v[48];

	trial_weights(s, trial, w, sizeof(w));
	fprintf(f, "%sconfirm %d/%d %-5s %-14s ", c->simulated ? "SIMULATED " : "",
		s->confirm_round + 1, s->confirm_planned,
		s->confirm_arm < 0 ? "best" : s->base[s->confirm_arm].name, w);
	fprintf(f, "%8s %s", score_text(o, s->confirm_score, v), tt_score_unit(o));
	if (s->confirm_arm >= 0) {
		double g, lo, hi;
		char gain[64];

		tt_confirm_gain(&s->base[s->confirm_arm], &g, &lo, &hi);
		tt_gain_text(o, g, lo, hi, TT_GAIN_PM, gain, sizeof(gain));
		fprintf(f, "  %s %s", tt_gain_word(o), gain);
	}
	fprintf(f, "\n");
}

void cli_auto_progress(FILE *f, const struct tt_auto *c, const struct tt_search *s, int trial)
{
	const struct tt_objective *o = &c->objective;
	const struct tt_figure *fl = tt_figure(TT_FIG_LATENCY);
	const struct tt_trial *tr = &s->trials[trial], *lead = &s->trials[s->leader];
	char w[96], bw[96] = "-", v[48];
	double mean = NAN, half = NAN;

	trial_weights(s, trial, w, sizeof(w));
	trial_weights(s, s->leader, bw, sizeof(bw));
	/* Counted as the user's budget, the profile's share included. */
	fprintf(f, "%strial %d", c->simulated ? "SIMULATED " : "", s->measurements + c->prior.cost);
	if (s->cfg.budget_trials)
		fprintf(f, "/%d", s->cfg.budget_trials + c->prior.cost);
	else if (s->cfg.budget_s > 0)
		fprintf(f, " (%.0f of %.0f s)", s->elapsed_s, s->cfg.budget_s);
	fprintf(f, " %-14s", w);
	if (tr->n)
		tt_trial_raw(tr, &mean, &half);
	print_figure(f, o, mean, half);
	fprintf(f, " %s", tt_score_unit(o));
	if (c->req.max_lat_ns > 0) {
		tt_figure_print_whole(fl, tr->lat_mean_ns, v, sizeof(v));
		fprintf(f, " %5s %s%s", v, fl->label, tr->feasible ? "" : " over");
	}
	/* The search's leader; under a bound none may be feasible yet. */
	if (lead->feasible) {
		fprintf(f, "  best %s %s\n", bw, score_text(o, lead->raw_mean, v));
	} else {
		tt_figure_print_whole(fl, c->req.max_lat_ns, v, sizeof(v));
		fprintf(f, "  best - (none within %s %s yet)\n", v, fl->label);
	}
}

void cli_auto_status(char *buf, size_t size, const struct tt_auto *c, const struct tt_search *s,
		     double elapsed_s)
{
	const struct tt_objective *o = &c->objective;
	const struct tt_trial *lead = &s->trials[s->leader];
	int done = s->measurements + c->prior.cost, of = s->cfg.budget_trials + c->prior.cost;
	size_t n = 0;
	char w[96], v[48];
	if (s->confirming)
		n += (size_t)snprintf(buf, size, "%sconfirming: round %d of %d",
				      c->simulated ? "SIMULATED " : "", s->confirm_round + 1,
				      s->cfg.confirm_rounds);
	else if (s->cfg.budget_trials)
		n += (size_t)snprintf(buf, size, "%smeasurement %d of %d",
				      c->simulated ? "SIMULATED " : "", done, of);
	else
		n += (size_t)snprintf(buf, size, "%smeasurement %d",
				      c->simulated ? "SIMULATED " : "", done);
	if (n < size && lead->feasible && lead->n) {
		trial_weights(s, s->leader, w, sizeof(w));
		n += (size_t)snprintf(buf + n, size - n, ", best %s %s %s", w,
				      score_text(o, lead->raw_mean, v), tt_score_unit(o));
	}
	/* Time left by the budget: the clock's, or the measurements' pace so
	 * far (the final comparison's rounds are not counted in it). */
	double left = -1;

	if (s->cfg.budget_s > 0)
		left = s->cfg.budget_s - s->elapsed_s;
	else if (s->cfg.budget_trials && done > 0 && !s->confirming)
		left = elapsed_s / done * (of - done);
	if (n < size && left >= 0)
		n += (size_t)snprintf(buf + n, size - n, ", about %.0f s left", left);
	if (n < size)
		snprintf(buf + n, size - n, ", %.0f s elapsed", elapsed_s);
}
