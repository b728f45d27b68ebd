// SPDX-License-Identifier: GPL-3.0-or-later
/* auto's and sweep's report as text, from the report document
 * (auto-display.h), and --all-sources' summary. */
#include "auto-display.h"
#include "cli.h"

#include "../bench/kernels.h"
#include "../core/bitmap.h"
#include "../core/figure.h"
#include "../core/wi.h"
#include "../measure/app.h"
#include "../view/interval.h"
#include "../view/score.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *sim(const struct tt_auto_doc *d)
{
	return d->simulated ? "SIMULATED " : "";
}

/* sweep: every vector with the share of the nodes other than the source's
 * (the slow tier when the source's node is the fast one). */
static void text_trials(FILE *f, const struct tt_auto_doc *d)
{
	fprintf(f, "%s%-20s %14s %8s %16s %s\n", sim(d), "weights", "remote share",
		tt_score_unit(d->objective), "95% CI", "measurements");
	for (int i = 0; i < d->r->ntrials; i++) {
		const struct tt_doc_trial *tr = &d->trials[i];
		char ws[96];

		cli_auto_weights(&tr->w, ws, sizeof(ws));
		fprintf(f, "%s%-20s %13.1f%% ", sim(d), ws, 100 * tr->remote_share);
		cli_auto_figure(f, d->objective, tr->mean, tr->mean - tr->half,
				tr->mean + tr->half);
		fprintf(f, " %d\n", tr->n);
	}
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

	if (d->simulated)
		fprintf(f, "SIMULATED figures:\n");
	snprintf(head, sizeof(head), "best's %s %s it", tt_gain_word(o), tt_gain_against(o));
	fprintf(f, "%-8s %-16s %8s %16s  %-26s %s\n", "", "weights", tt_score_unit(o), "95% CI",
		head, "verdict");
	for (int i = 0; i < r->nbaselines; i++) {
		const struct tt_report_baseline *b = &r->base[i];
		char gain[64] = "-";

		cli_auto_weights(&b->w, w, sizeof(w));
		if (b->verdict != TT_VERDICT_SAME)
			tt_gain_text(o, b->gain, b->gain_lo, b->gain_hi, TT_GAIN_COLUMN, gain,
				     sizeof(gain));
		fprintf(f, "%-8s %-16s ", b->name, w);
		cli_auto_figure(f, o, b->mean, b->ci_lo, b->ci_hi);
		fprintf(f, "  %-26s %s\n", gain, tt_verdict_name(b->verdict));
		if (b->rounds > rounds)
			rounds = b->rounds;
	}
	cli_auto_weights(&r->best_w, w, sizeof(w));
	fprintf(f, "%-8s %-16s ", "best", w);
	cli_auto_figure(f, o, r->best_mean, r->best_ci_lo, r->best_ci_hi);
	/* The two columns come from different measurements, and their ratio
	 * need not match the gain: say which. */
	fprintf(f,
		"\n(%s: the mean of each vector's measurements in the search; %s: the final\n"
		" comparison alone, the best and each baseline measured alternately, %d paired "
		"round%s)\n",
		tt_score_unit(o), tt_gain_word(o), rounds, rounds == 1 ? "" : "s");
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

	cli_auto_weights(&r->best_w, w, sizeof(w));
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
		cli_auto_weights(&r->auto_w, w, sizeof(w));
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
	cli_auto_weights(&all->cand, w, sizeof(w));
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
		cli_auto_weights(&o->now, nw, sizeof(nw));
		cli_auto_weights(&o->after, aw, sizeof(aw));
		if (o->verdict == TT_VERDICT_SAME) {
			fprintf(f,
				"  source node %d over nodes %s: %s now (%s) and after: the same\n",
				o->source, mask, nw, o->now_what);
			continue;
		}
		fprintf(f, "  source node %d over nodes %s: %s %s under %s, %s now (%s %s), ",
			o->source, mask, cli_auto_score(sc, o->cand_mean, x), tt_score_unit(sc), aw,
			cli_auto_score(sc, o->now_mean, y), o->now_what, nw);
		tt_gain_text(sc, o->cmp.gain, o->cmp.gain_lo, o->cmp.gain_hi, TT_GAIN_CI, g,
			     sizeof(g));
		tt_gain_shown(sc, o->cmp.gain, o->cmp.gain_lo, o->cmp.gain_hi, v);
		if (o->verdict == TT_VERDICT_UNKNOWN)
			fprintf(f, "unknown");
		else if (isfinite(v[1]) && isfinite(v[2]))
			fprintf(f, "%s %s", g,
				o->verdict == TT_VERDICT_NOISE ? "within noise"
							       : tt_verdict_name(o->verdict));
		fprintf(f, "; its local DRAM %s, %d rounds\n", cli_auto_score(sc, o->local_mean, x),
			o->cmp.rounds);
	}
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

	cli_auto_weights(&d->reco->w, w, sizeof(w));
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

	cli_auto_weights(&r->best_w, w, sizeof(w));
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
			cli_auto_score(o, r->best_mean, b), tt_score_unit(o), c, fl->label);
		for (int i = 0; i < r->nbaselines; i++) {
			cli_auto_weights(&r->base[i].w, w, sizeof(w));
			tt_figure_print_whole(fl, r->base[i].lat_ns, a, sizeof(a));
			fprintf(f, "  %-8s %-16s %6s %s  %s\n", r->base[i].name, w, a, fl->label,
				r->base[i].feasible ? "within the bound" : "over the bound");
		}
	}
	if (d->tiers) {
		cli_auto_weights(&d->reco->w, w, sizeof(w));
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

void cli_auto_all_text(FILE *f, const struct tt_auto_all *all, bool simulated)
{
	const struct tt_wi_backend *be = all->be;
	const char *s = simulated ? "SIMULATED " : "";
	char w[512];

	fprintf(f, "\n=== every source ===\n%s%d CPU nodes searched, each its own run%s:\n", s,
		all->rs.n, be && be->per_source ? ", by tier (the interface's form)" : "");
	for (int i = 0; i < all->rs.n; i++) {
		cli_auto_weights(&all->rs.r[i].w, w, sizeof(w));
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
		cli_auto_weights(&all->merged, w, sizeof(w));
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
