/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What a search found, in the form the CLI prints and stores: the trials,
 * the baselines with each one's gain and its confidence, the best weights,
 * how they compare with the kernel's auto-mode weights; and the
 * recommendation apply and export take (core/recommend.h). No printing here.
 *
 *	struct tt_report r;
 *	struct tt_recos rs = {0};
 *	tt_report_build(&r, &search, 0, sim.simulated);
 *	tt_report_reco(&r, &rs);              (then tt_recos_convert, apply...)
 *
 * A gain counts as one only when its whole 95% interval is above zero
 * (TT_VERDICT_BETTER); an interval that holds zero is TT_VERDICT_NOISE,
 * "within noise", never a win.
 */
#ifndef TT_REPORT_H
#define TT_REPORT_H

#include "../core/recommend.h"
#include "search.h"

#include <stdbool.h>

enum tt_verdict {
	TT_VERDICT_SAME,    /* the winner is this baseline */
	TT_VERDICT_BETTER,  /* gain interval entirely above zero */
	TT_VERDICT_NOISE,   /* interval holds zero: within noise */
	TT_VERDICT_WORSE,   /* interval entirely below zero */
	TT_VERDICT_UNKNOWN, /* fewer than 2 paired rounds (budget) */
};

/* "same", "better", "within noise", "worse", "unknown" */
const char *tt_verdict_name(enum tt_verdict v);

struct tt_report_baseline {
	enum tt_baseline kind;
	char name[16]; /* tt_baseline_names[kind] */
	struct tt_weights w;
	int n;			 /* measurements before the search */
	double mean;		 /* score units */
	double ci_lo, ci_hi;	 /* 95% t interval */
	int rounds;		 /* paired rounds against the winner */
	double gain;		 /* fraction, (best - base) / base; NaN when unknown */
	double gain_lo, gain_hi; /* its 95% interval (tt_confirm_gain: Fieller's) */
	enum tt_verdict verdict;
	double lat_ns; /* ns, mean loaded latency; NaN: not measured */
	bool feasible; /* within the latency bound (always, without one) */
};

/* What the measurements support doing (tt_report_decide). */
enum tt_reco_action {
	TT_ACTION_APPLY,      /* write the recommended weights */
	TT_ACTION_KEEP_AUTO,  /* keep the kernel's auto mode: nothing beat it beyond noise */
	TT_ACTION_BIND_LOCAL, /* bind to local memory: nothing beat it beyond noise */
	TT_ACTION_KEEP_NOW,   /* keep the weights set now: nothing beat them beyond noise */
	/* Another source loses beyond the noise under the weights, which are
	 * global (tt_auto_sources): write none, launch per source instead. */
	TT_ACTION_PER_SOURCE,
};
/* "apply", "keep_auto", "bind_local", "per_source", "keep_now": JSON's
 * and the database's words. */
const char *tt_reco_action_name(enum tt_reco_action a);

struct tt_report {
	bool simulated; /* from the model: say so everywhere */
	int source_node;
	char strategy[16];
	char prior_from[32];
	int nnodes;
	int nodes[TT_SEARCH_MAX_NODES];
	uint32_t max_weight;
	int ntrials;
	int nmeasured;		       /* of those, trials with a measurement (the budget can
					  end one before its first): what the report counts */
	const struct tt_trial *trials; /* the search's; valid while it lives */
	int measurements;	       /* every measurement, confirmation included */
	double elapsed_s;	       /* s */
	char stop_reason[96];
	struct tt_weights best_w;
	int best_trial;
	double best_mean; /* score units */
	double best_ci_lo, best_ci_hi;
	double best_lat_ns;	     /* ns, mean loaded latency; NaN: not measured */
	double max_lat_ns;	     /* ns, the latency bound; 0: none */
	int nfeasible;		     /* trials within it, not overloaded */
	int noverloaded;	     /* trials that could not carry the stated traffic */
	double max_capacity_bytes_s; /* the most any trial carried, bytes/s; 0: unknown */
	/* No trial was within it (or, without a bound, none carried the
	 * stated traffic): best_* is the least-latency trial, nothing is
	 * recommended (tt_report_reco refuses). */
	bool none_feasible;
	/* The search's groups are memory tiers (nodes[] holds tier ids): the
	 * recommendation is the RFC's per-tier form, set by the caller. */
	bool tiers;
	int nbaselines;
	struct tt_report_baseline base[TT_BASELINES];
	bool have_auto; /* the auto-mode formula had bandwidths */
	struct tt_weights auto_w;
	bool best_is_auto;
	/* A baseline that beat the search's winner beyond the noise in the
	 * final comparison (verdict TT_VERDICT_WORSE): the recommendation is
	 * that baseline's weights, with an unknown gain. -1: none. */
	int lost_to;
	/* The gain the recommendation carries: over what the machine runs
	 * now (now_base) where the caller named it, else over local DRAM
	 * when that baseline exists, else over 1:1; 0 when within noise, the
	 * same vector or an action that keeps now, NaN when unknown. */
	double reco_gain;
	int gain_over; /* the baseline it is over; -1: none */
	/* What the machine runs now among the baselines (tt_report_decide's
	 * now); -1: not known (by tier). */
	int now_base;
	/* What to do (tt_report_decide); with TT_ACTION_APPLY the
	 * recommendation's weights, else they are what was measured best
	 * and nothing is to be written. */
	enum tt_reco_action action;
	int action_base; /* the baseline the action keeps (auto or local); -1: none */
	/* The comparison with now holds zero but not a gain of
	 * TT_DECIDE_GAIN: the budget could not decide; the measurements
	 * that would (2 a round, beyond those made); 0: decided. */
	int more_measurements;
};
int tt_report_build(struct tt_report *r, const struct tt_search *s, int source_node,
		    bool simulated);
/* A trial's mean loaded latency as shown. Under the latency objective the
 * search ranks loads per second (1e9 / ns) and its interval is on them, so
 * the mean is the one their mean gives (1e9 / the mean score): the figure
 * the comparison's table, show, the CSV and the plot give. Otherwise the
 * mean of its latencies, the one a latency bound is held to. */
double tt_trial_lat_ns(const struct tt_trial *t, bool latency_objective);
/* The best's and each baseline's latency as tt_trial_lat_ns gives it under
 * the latency objective (tt_report_build gives the mean of latencies). */
void tt_report_latency_objective(struct tt_report *r, const struct tt_search *s);
/* The one rule for what a run recommends doing, from the final
 * comparison against now (the baseline index of what the machine runs
 * now, -1: unknown): a best that does not beat now beyond the noise keeps
 * now (the kernel's auto mode where auto_on, the weights set now, local
 * memory: bind there); one that does is applied, and never given up for
 * local memory within its noise; a best that is local memory itself is a
 * bind, not weights. A winner that lost to a baseline keeps or applies
 * that one. Without now (by tier): auto mode needs a gain beyond the noise
 * to be left, interleaving one over local memory. The headline gain
 * (reco_gain) is over now. */
void tt_report_decide(struct tt_report *r, bool auto_on, int now);
/* Also per_source: the weights are not to be written.
 * The action keeps something the search did not beat: auto mode, or local
 * memory when the winner was other weights within its noise. (The winner
 * being local memory itself is the one-node recommendation, which the
 * plan refuses: "bind instead".) Nothing is to be written. */
bool tt_report_keeps(const struct tt_report *r);
/* Why the action keeps auto mode or local memory, in the words the report,
 * the record and the plot all use: "no weights beat it beyond the noise;
 * it beat the search's winner". Empty for apply. */
void tt_report_keep_why(const struct tt_report *r, char *buf, size_t size);
/* A baseline's name as the report and the record say it: "local DRAM"
 * ("local tier" by tier), "1:1 interleave", "kernel auto mode", "weights
 * set now", "fast tier alone". */
const char *tt_report_baseline_label(const struct tt_report *r, enum tt_baseline kind);
/* The baseline the recommendation's gain is over (gain_over); NULL: none. */
const struct tt_report_baseline *tt_report_gain_over(const struct tt_report *r);
/* Adds the best weights (or, when the winner lost, the baseline it lost
 * to) as a recommendation of node weights for the source, or with r->tiers
 * one of tier weights (the interface keyed by tier) that names every tier
 * searched (0 for one left out, which the
 * RFC reads as "not in the interleave"). TT_EUNAVAIL when none was
 * feasible. */
int tt_report_reco(const struct tt_report *r, struct tt_recos *rs);

#endif
