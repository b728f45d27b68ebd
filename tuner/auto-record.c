// SPDX-License-Identifier: GPL-3.0-or-later
/* An auto or sweep run's record in the database (auto.h): the run, a
 * trial per weight vector with its measurements as passes, and the
 * recommendation. */
#include "auto.h"

#include "../bench/kernels.h"
#include "../core/error.h"
#include "../core/figure.h"
#include "../db/db.h"
#include "../measure/app.h"
#include "../measure/trial.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A trial's node rows for the database: its weights (split over the tiers'
 * nodes with --granularity tier), shares requested and, for real trials,
 * achieved. */
static int trial_nodes(const struct tt_auto *c, int i, struct tt_db_trial_node *nodes, int max,
		       int *nn)
{
	uint32_t w[TT_SEARCH_MAX_NODES], sum = 0;
	struct tt_weights tw;
	int node, rc;

	tt_search_trial_weights(&c->s, i, w);
	tt_search_weights(&c->s, w, &tw);
	if (c->tiers && (rc = tt_auto_tier_nodes(c, &tw, &tw)) < 0)
		return rc;
	tt_nodemask_for_each (node, &tw.set)
		sum += tw.w[node];
	*nn = 0;
	tt_nodemask_for_each (node, &tw.set) {
		double share = (double)tw.w[node] / sum;

		if (!tw.w[node] || *nn == max)
			continue;
		nodes[*nn] = (struct tt_db_trial_node){
			.node = node,
			.weight = tw.w[node],
			.requested_share = share,
			/* A model's and a program's pages are not counted: their
			 * share is the policy's. */
			.achieved_share = c->simulated || c->pipe.app || i >= c->seen.nper
						  ? share
						  : c->seen.per_trial[i].achieved[*nn]
		};
		++*nn;
	}
	return 0;
}

/* A trial's figures for the database: bandwidth from the callback's own
 * scores (not a bound's ranking; none for the latency objective, whose
 * score is not one), latency where it was measured; app mode's in the
 * program's own terms. */
static void trial_figures(const struct tt_auto *c, const struct tt_trial *tr, struct tt_db_trial *d)
{
	if (c->pipe.app)
		tt_app_figures(c->pipe.app, tr->raw, tr->n, d);
	else
		tt_trial_figures(c->req.objective.kind == TT_OBJ_LATENCY ? NULL : tr->raw,
				 tr->lat_ns, tr->n, d);
}

/* App mode's trial i judged: a program on whether it ran, alone
 * (measure/app.h), not on bench's rules. */
static bool app_judged(const struct tt_auto *c, int i)
{
	return !c->simulated && c->pipe.app && i < c->seen.nper && c->seen.per_trial[i].judged;
}

/* Trial i as the database stores it, but its nodes and figures. */
static struct tt_db_trial trial_row(const struct tt_auto *c, int i)
{
	const struct tt_app *app = c->pipe.app;
	const struct tt_auto_seen *seen = &c->seen;
	/* Bench's marks, as bench --record stores its trials': a real trial's
	 * (--allow-cache-resident or --allow-unstable let them through). The
	 * model's and a program's are not judged and stay NULL: the model
	 * draws noise around a figure, it times no passes whose spread or
	 * cache could be judged. */
	const struct tt_auto_placed *p = i < seen->nper ? &seen->per_trial[i] : NULL;
	bool judged = !c->simulated && !app && p && p->judged;
	bool ran = app_judged(c, i);

	return (struct tt_db_trial){
		/* App mode: the program is its own traffic, on the source
		 * node's CPUs (0: wherever allowed). */
		.kernel = app ? "app" : c->req.kernel->name,
		.mix = app ? app->path : c->req.kernel->counting,
		.placement = c->simulated ? "model" : tt_place_mode_names[c->req.placement],
		.threads = app		  ? app->ncpus
			   : c->simulated ? c->req.threads
					  : seen->used_threads,
		.size_bytes = c->simulated || app ? 0 : seen->array_bytes,
		.validated = !c->simulated && i < seen->nper && seen->per_trial[i].validated,
		.simulated = c->simulated,
		.checked = judged,
		.llc_bytes = judged ? p->llc_bytes : 0,
		.below_llc_rule = judged && p->below_rule,
		.cache_resident = judged && p->cache_resident,
		.short_pass = judged && p->short_pass,
		.unstable = judged && p->unstable,
		.descheduled = (judged || ran) && p->descheduled,
		.cpu_share = judged || ran ? p->cpu_share : NAN,
	};
}

/* Each measurement of trial i as a sample of collector "search" (t_s: its
 * index in the trial), in the trial's own columns' unit: the best, median
 * and worst alone cannot give the mean and 95% interval the report ranks
 * by, which tiertune plot draws. A baseline's trial also gets a sample
 * "baseline" whose value is its kind (enum tt_baseline: 0 local, 1 1:1, 2
 * auto): which trial a baseline was is known here, not from its weights
 * (auto mode's may come from the model or the profile). */
static int add_measurements(const struct tt_auto *c, struct tt_db *db, int64_t run, int64_t trial,
			    int i)
{
	const struct tt_app *app = c->pipe.app;
	const struct tt_trial *tr = &c->s.trials[i];
	struct tt_db_sample *s = calloc((size_t)tr->n + TT_BASELINES, sizeof(*s));
	/* The figure's column name (core/figure.h): "bw_bytes_s", "lat_ns",
	 * "time_s", "metric". */
	const struct tt_figure *f = tt_objective_figure(&c->req.objective);
	bool latency = c->req.objective.kind == TT_OBJ_LATENCY;
	char metric[48];
	int rc, n = tr->n;

	snprintf(metric, sizeof(metric), "%s%s", f->stem, f->si);

	if (!s)
		return tt_err(TT_EFAIL, "out of memory");
	for (int j = 0; j < tr->n; j++)
		s[j] = (struct tt_db_sample){
			.t_s = j,
			.collector = "search",
			.metric = metric,
			.node = -1,
			.value = app	   ? tt_app_shown(app, tr->raw[j])
				 : latency ? tr->lat_ns[j]
					   : tr->raw[j],
			.simulated = c->simulated,
		};
	for (int b = 0; b < c->s.nbaselines; b++)
		if (c->s.base[b].trial == i)
			s[n++] = (struct tt_db_sample){ .collector = "search",
							.metric = "baseline",
							.node = -1,
							.value = c->s.base[b].kind,
							.simulated = c->simulated };
	rc = tt_db_samples_add(db, run, trial, s, (size_t)n);
	free(s);
	return rc;
}

static int add_trials(const struct tt_auto *c, struct tt_db *db, int64_t run)
{
	int64_t id;
	int rc = 0;

	for (int i = 0; rc == 0 && i < c->s.ntrials; i++) {
		struct tt_db_trial_node nodes[TT_SEARCH_MAX_NODES];
		struct tt_db_trial d = trial_row(c, i);
		char judged[160];

		if (!c->s.trials[i].n)
			continue;
		if (d.checked || app_judged(c, i)) {
			tt_judged_text(tt_judged(&(struct tt_judging){
					       .validated = d.validated || !d.checked,
					       .cache_resident = d.cache_resident,
					       .below_rule = d.below_llc_rule,
					       .short_pass = d.short_pass,
					       .descheduled = d.descheduled,
					       .unstable = d.unstable }),
				       judged, sizeof(judged));
			d.judged = judged;
		}
		d.nodes = nodes;
		rc = trial_nodes(c, i, nodes, TT_SEARCH_MAX_NODES, &d.nnodes);
		trial_figures(c, &c->s.trials[i], &d);
		if (rc == 0)
			rc = tt_db_trial_add(db, run, &d, &id);
		if (rc == 0)
			rc = add_measurements(c, db, run, id, i);
	}
	return rc;
}

static int add_recommendation(const struct tt_auto *c, struct tt_db *db, int64_t run)
{
	const struct tt_report *r = &c->r;
	const struct tt_report_baseline *over = tt_report_gain_over(r);
	char why[160];

	struct tt_recipe recipe;
	char *rj = NULL;
	int rc;

	tt_report_keep_why(r, why, sizeof(why));
	/* per_source: the report's recipe with it (schema v6). */
	if (r->action == TT_ACTION_PER_SOURCE) {
		tt_auto_recipe(c->t, c->req.source, &c->rs.r[0].w, &recipe);
		if (!(rj = tt_recipe_json(&recipe)))
			return tt_err(TT_EFAIL, "out of memory");
	}
	rc = tt_db_recommendation_add(
		db, run,
		&(struct tt_db_recommendation){
			.source_node = c->req.source,
			.interface = c->rs.r[0].interface,
			.weights = &c->rs.r[0].w,
			.action = tt_reco_action_name(r->action),
			.score = r->best_mean,
			.score_ci_low = r->best_ci_lo,
			.score_ci_high = r->best_ci_hi,
			.score_n = r->best_trial >= 0 ? r->trials[r->best_trial].n : 0,
			.gain = r->reco_gain,
			.gain_ci_low = over && r->reco_gain != 0 ? over->gain_lo : NAN,
			.gain_ci_high = over && r->reco_gain != 0 ? over->gain_hi : NAN,
			.baseline = over ? tt_report_baseline_label(r, over->kind) : NULL,
			.action_why = why[0] ? why : NULL,
			.recipe = rj });
	free(rj);
	return rc;
}

/* The run, its trials and the recommendation, in one transaction: the run
 * row is begun only now, after the search, so a search refused or failed
 * leaves the database as it was, and a kill or a full disk while recording
 * leaves the run there whole or not at all (it was a transaction a trial,
 * and a kill left a "running" run with some of its trials). */
int tt_auto_record(struct tt_auto *c)
{
	struct tt_db *db;
	char objective[TT_OBJECTIVE_TEXT_MAX];
	int64_t host, run = 0;
	int rc = c->hooks.open_db(c->hooks.ctx, &db);

	c->record_why[0] = '\0';
	if (rc < 0) {
		snprintf(c->record_why, sizeof(c->record_why), "%s", tt_err_msg());
		return rc;
	}
	rc = tt_objective_format(&c->req.objective, objective, sizeof(objective));
	if (rc == 0)
		rc = tt_db_tx_begin(db);
	if (rc == 0)
		rc = tt_db_host(db, c->t, &host);
	if (rc == 0)
		rc = tt_db_run_begin(db,
				     &(struct tt_db_run){ .host_id = host,
							  .kind = tt_run_kind_name(c->req.kind),
							  .command = c->req.command,
							  .source_node = c->req.source,
							  .objective = objective,
							  .kernel_release = c->t->kernel_release,
							  .simulated = c->simulated },
				     &run);
	if (rc == 0)
		rc = add_trials(c, db, run);
	if (rc == 0)
		rc = add_recommendation(c, db, run);
	if (rc == 0)
		rc = tt_db_run_finish(db, run, TT_RUN_DONE);
	rc = tt_db_tx_end(db, rc);
	if (rc < 0)
		snprintf(c->record_why, sizeof(c->record_why), "%s", tt_err_msg());
	if (rc < 0 && run)
		tt_err(rc, "recording the run failed: %s", c->record_why);
	tt_db_close(db);
	if (rc == 0)
		c->run = run;
	return rc;
}
