// SPDX-License-Identifier: GPL-3.0-or-later
/* The search's outcome as a report and a recommendation (report.h). */
#include "report.h"

#include "../core/error.h"
#include "../measure/stats.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *tt_verdict_name(enum tt_verdict v)
{
	static const char *const names[] = {
		[TT_VERDICT_SAME] = "same",	     [TT_VERDICT_BETTER] = "better",
		[TT_VERDICT_NOISE] = "within noise", [TT_VERDICT_WORSE] = "worse",
		[TT_VERDICT_UNKNOWN] = "unknown",
	};

	return (unsigned)v < sizeof(names) / sizeof(names[0]) ? names[v] : "unknown";
}

const char *tt_report_baseline_label(const struct tt_report *r, enum tt_baseline kind)
{
	/* By tier, "local" is the source's whole tier: on a two-socket
	 * machine both sockets' DRAM, not the source's own. */
	switch (kind) {
	case TT_BASE_LOCAL:
		return r->tiers ? "local tier" : "local DRAM";
	case TT_BASE_EVEN:
		return "1:1 interleave";
	case TT_BASE_NOW:
		return "weights set now";
	case TT_BASE_FAST:
		return "fast tier alone";
	default:
		return "kernel auto mode";
	}
}

const struct tt_report_baseline *tt_report_gain_over(const struct tt_report *r)
{
	return r->gain_over >= 0 ? &r->base[r->gain_over] : NULL;
}

static enum tt_verdict verdict(const struct tt_confirm *c)
{
	if (c->same_as_best)
		return TT_VERDICT_SAME;
	if (c->rounds < 2 || isnan(c->gain_lo) || isnan(c->gain_hi))
		return TT_VERDICT_UNKNOWN;
	if (c->gain_lo > 0)
		return TT_VERDICT_BETTER;
	if (c->gain_hi < 0)
		return TT_VERDICT_WORSE;
	return TT_VERDICT_NOISE;
}

/* A trial's figures as measured: a latency bound ranks measurements over
 * it far down (search.h), but the report shows what they moved. */
static void raw_figures(const struct tt_trial *t, double *mean, double *lo, double *hi)
{
	double half;

	tt_trial_raw(t, mean, &half);
	*lo = *mean - half;
	*hi = *mean + half;
}

double tt_trial_lat_ns(const struct tt_trial *t, bool latency_objective)
{
	double mean, half;

	if (!latency_objective)
		return t->lat_mean_ns;
	tt_trial_raw(t, &mean, &half);
	return mean > 0 ? 1e9 / mean : NAN;
}

void tt_report_latency_objective(struct tt_report *r, const struct tt_search *s)
{
	r->best_lat_ns = tt_trial_lat_ns(&s->trials[s->best], true);
	for (int i = 0; i < r->nbaselines; i++)
		r->base[i].lat_ns = tt_trial_lat_ns(&s->trials[s->base[i].trial], true);
}

/* Every weight of w at most max. */
static bool within_max(const struct tt_weights *w, uint32_t max)
{
	int id;

	tt_weights_for_each(id, w) if (tt_weights_get(w, id, 0) > max) return false;
	return true;
}

/* The headline gain over baseline i: the final comparison's where it is
 * beyond the noise, 0 within it or the same vector, NaN unknown. */
static void gain_over(struct tt_report *r, int i)
{
	const struct tt_report_baseline *rb = &r->base[i];

	r->gain_over = i;
	r->reco_gain = rb->verdict == TT_VERDICT_BETTER || rb->verdict == TT_VERDICT_WORSE
			       ? rb->gain
		       : rb->verdict == TT_VERDICT_UNKNOWN ? NAN
							   : 0;
}

int tt_report_build(struct tt_report *r, const struct tt_search *s, int source_node, bool simulated)
{
	uint32_t w[TT_SEARCH_MAX_NODES];
	const struct tt_trial *b;
	int ref = -1;

	memset(r, 0, sizeof(*r));
	if (s->best < 0 || s->best >= s->ntrials)
		return tt_err(TT_EINPUT, "the search has no result to report");
	r->simulated = simulated;
	r->source_node = source_node;
	snprintf(r->strategy, sizeof(r->strategy), "%s", s->strategy->name);
	snprintf(r->prior_from, sizeof(r->prior_from), "%s", s->cfg.prior_from);
	r->nnodes = s->cfg.nnodes;
	memcpy(r->nodes, s->cfg.nodes, sizeof(r->nodes));
	r->max_weight = s->cfg.max_weight;
	r->ntrials = s->ntrials;
	r->nmeasured = 0;
	for (int t = 0; t < s->ntrials; t++)
		r->nmeasured += s->trials[t].n > 0;
	r->trials = s->trials;
	r->measurements = s->measurements;
	r->elapsed_s = s->elapsed_s;
	snprintf(r->stop_reason, sizeof(r->stop_reason), "%s", s->stop_reason);
	r->best_trial = s->best;
	b = &s->trials[s->best];
	tt_search_trial_weights(s, s->best, w);
	tt_search_weights(s, w, &r->best_w);
	raw_figures(b, &r->best_mean, &r->best_ci_lo, &r->best_ci_hi);
	r->best_lat_ns = b->lat_mean_ns;
	r->max_lat_ns = s->cfg.max_lat_ns;
	r->nfeasible = s->nfeasible;
	r->none_feasible = s->none_feasible;
	r->noverloaded = s->noverloaded;
	r->max_capacity_bytes_s = s->max_capacity_bytes_s;
	r->have_auto = s->have_auto;
	r->auto_w = s->auto_w;
	r->nbaselines = s->nbaselines;
	for (int i = 0; i < s->nbaselines; i++) {
		const struct tt_confirm *c = &s->base[i];
		struct tt_report_baseline *rb = &r->base[i];
		const struct tt_trial *t = &s->trials[c->trial];

		rb->kind = c->kind;
		snprintf(rb->name, sizeof(rb->name), "%s", c->name);
		tt_search_trial_weights(s, c->trial, w);
		tt_search_weights(s, w, &rb->w);
		rb->n = t->n;
		raw_figures(t, &rb->mean, &rb->ci_lo, &rb->ci_hi);
		rb->rounds = c->rounds;
		rb->gain = c->gain;
		rb->gain_lo = c->gain_lo;
		rb->gain_hi = c->gain_hi;
		rb->verdict = verdict(c);
		rb->lat_ns = t->lat_mean_ns;
		rb->feasible = t->feasible;
		if (c->kind == TT_BASE_AUTO)
			r->best_is_auto = c->same_as_best;
		if (c->kind == TT_BASE_LOCAL || (ref < 0 && c->kind == TT_BASE_EVEN))
			ref = i;
	}
	r->lost_to = -1;
	/* A baseline over the latency bound cannot be recommended, however
	 * much more it moves; nor one with a weight above --max-weight (the
	 * auto formula's 25:3:3 when the user asked for weights of at most
	 * 4, say): the user bounded the weights, not just the search. */
	for (int i = 0; i < r->nbaselines; i++)
		if (r->base[i].verdict == TT_VERDICT_WORSE && r->base[i].feasible &&
		    within_max(&r->base[i].w, r->max_weight) &&
		    (r->lost_to < 0 || r->base[i].gain < r->base[r->lost_to].gain))
			r->lost_to = i;
	r->reco_gain = NAN;
	r->gain_over = -1;
	r->now_base = -1;
	if (ref >= 0 && r->lost_to < 0)
		gain_over(r, ref);
	return 0;
}

const char *tt_reco_action_name(enum tt_reco_action a)
{
	return a == TT_ACTION_KEEP_AUTO	   ? "keep_auto"
	       : a == TT_ACTION_BIND_LOCAL ? "bind_local"
	       : a == TT_ACTION_PER_SOURCE ? "per_source"
	       : a == TT_ACTION_KEEP_NOW   ? "keep_now"
					   : "apply";
}

/* The baseline of that kind, or -1. */
static int base_index(const struct tt_report *r, enum tt_baseline kind)
{
	for (int i = 0; i < r->nbaselines; i++)
		if (r->base[i].kind == kind)
			return i;
	return -1;
}

/* Beaten beyond the noise by the winner: only then is leaving it a gain. */
static bool beaten(const struct tt_report *r, int i)
{
	return i < 0 || r->base[i].verdict == TT_VERDICT_BETTER;
}

/* The action that keeps baseline i as the machine has it: auto mode
 * (on), the weights set now, local memory; -1: it is weights to write. */
static int keeps_base(const struct tt_report *r, int i, bool auto_on)
{
	enum tt_baseline k = r->base[i].kind;

	if (k == TT_BASE_AUTO && auto_on)
		return TT_ACTION_KEEP_AUTO;
	if (k == TT_BASE_LOCAL && !r->tiers)
		return TT_ACTION_BIND_LOCAL;
	if (k == TT_BASE_NOW || (k == TT_BASE_AUTO && i == r->now_base))
		return TT_ACTION_KEEP_NOW;
	return -1;
}

void tt_report_decide(struct tt_report *r, bool auto_on, int now)
{
	int a = base_index(r, TT_BASE_AUTO), l = base_index(r, TT_BASE_LOCAL), k;

	r->action = TT_ACTION_APPLY;
	r->action_base = -1;
	r->now_base = now;
	r->more_measurements = 0;
	if (r->none_feasible)
		return;
	if (r->lost_to >= 0) {
		/* The winner lost to a baseline: keeping that baseline is
		 * the recommendation, and auto and local are no weights. */
		if ((k = keeps_base(r, r->lost_to, auto_on)) >= 0)
			r->action = k, r->action_base = r->lost_to;
		return;
	}
	if (now >= 0) {
		/* One rule against now (issue 43): a best that does not beat
		 * it beyond the noise keeps it; one that does is applied, not
		 * given up for local memory within its noise; local memory
		 * itself is bound to, not written as a one-node vector. */
		gain_over(r, now);
		/* A keep that a larger comparison might overturn says so. */
		if (r->base[now].verdict == TT_VERDICT_NOISE &&
		    r->base[now].gain_hi >= TT_DECIDE_GAIN)
			r->more_measurements =
				2 * (tt_rounds_to_decide(
					     fmax(r->base[now].gain, TT_DECIDE_GAIN),
					     (r->base[now].gain_hi - r->base[now].gain_lo) / 2,
					     r->base[now].rounds, 1000) -
				     r->base[now].rounds);
		if (!beaten(r, now) && (k = keeps_base(r, now, auto_on)) >= 0)
			r->action = k, r->action_base = now, r->reco_gain = 0;
		else if (l >= 0 && !r->tiers && r->base[l].verdict == TT_VERDICT_SAME)
			r->action = TT_ACTION_BIND_LOCAL, r->action_base = l;
		return;
	}
	if (auto_on && a >= 0 && !beaten(r, a))
		r->action = TT_ACTION_KEEP_AUTO, r->action_base = a;
	else if (l >= 0 && !r->tiers && !beaten(r, l))
		r->action = TT_ACTION_BIND_LOCAL, r->action_base = l;
}

bool tt_report_keeps(const struct tt_report *r)
{
	return r->action != TT_ACTION_APPLY;
}

void tt_report_keep_why(const struct tt_report *r, char *buf, size_t size)
{
	const struct tt_report_baseline *b = r->action_base >= 0 ? &r->base[r->action_base] : NULL;
	const char *beat =
		b && b->verdict == TT_VERDICT_WORSE ? "; it beat the search's winner" : "";

	if (r->action == TT_ACTION_KEEP_AUTO || r->action == TT_ACTION_KEEP_NOW)
		snprintf(buf, size, "no weights beat %s beyond the noise%s",
			 r->action == TT_ACTION_KEEP_AUTO ? "it" : "them", beat);
	else if (r->action == TT_ACTION_BIND_LOCAL && b && b->verdict == TT_VERDICT_SAME)
		snprintf(buf, size, "local memory alone is the best measured: no weights say that");
	else if (r->action == TT_ACTION_BIND_LOCAL)
		snprintf(buf, size,
			 "interleaving beat local memory alone by nothing beyond the noise%s",
			 beat);
	else if (r->action == TT_ACTION_PER_SOURCE)
		snprintf(buf, size,
			 "the weights are global, and another source loses under them beyond the "
			 "noise");
	else if (size)
		buf[0] = '\0';
}

int tt_report_reco(const struct tt_report *r, struct tt_recos *rs)
{
	char buf[4096];
	const struct tt_weights *w = r->lost_to >= 0 ? &r->base[r->lost_to].w : &r->best_w;
	struct tt_weights all = *w;
	int rc;

	if (r->none_feasible && !(r->max_lat_ns > 0))
		return tt_err(TT_EUNAVAIL, "no weights carried the stated traffic");
	if (r->none_feasible)
		return tt_err(TT_EUNAVAIL, "no weights met the latency bound of %.0f ns",
			      r->max_lat_ns);
	for (int k = 0; r->tiers && k < r->nnodes; k++)
		if (!tt_weights_has(&all, r->nodes[k]))
			tt_weights_put(&all, r->nodes[k], 0);
	rc = tt_weights_format(&all, buf, sizeof(buf));
	if (rc < 0)
		return rc;
	return tt_recos_add(rs, r->source_node,
			    tt_wi_for_key(r->tiers ? TT_WI_BY_TIER : TT_WI_BY_NODE)->name, buf,
			    r->reco_gain, r->simulated ? "tuner (simulated)" : "tuner");
}
