// SPDX-License-Identifier: GPL-3.0-or-later
/* An auto run's measurement pipeline (auto.h): a base measure, the model's,
 * a real trial's or a program's, and the wrappers around it, each stage of
 * one signature (struct tt_stage), built once before the search. */
#include "auto.h"

#include "../core/error.h"
#include "../core/state.h"
#include "../core/wi.h"
#include "../measure/app.h"
#include "../measure/trial.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a real trial placed and used, for the record. */
static void note_placement(struct tt_auto *c, const struct tt_weights *w,
			   const struct tt_trial_result *r)
{
	struct tt_auto_seen *seen = &c->seen;

	memset(&seen->last, 0, sizeof(seen->last));
	seen->last.validated = r->bench.validated;
	seen->last.judged = true;
	seen->last.llc_bytes = r->bench.llc.bytes;
	seen->last.below_rule = r->bench.below_rule;
	seen->last.cache_resident = r->bench.cache_resident;
	seen->last.short_pass = r->bench.short_pass;
	seen->last.unstable = r->bench.unstable;
	seen->last.descheduled = r->bench.descheduled;
	seen->last.cpu_share = r->bench.ran.passes ? r->bench.ran.share : NAN;
	seen->array_bytes = r->bench.array_bytes;
	seen->used_threads = r->bench.threads;
	tt_trial_achieved(r, w, seen->last.achieved, TT_SEARCH_MAX_NODES);
}

void tt_auto_seen_keep(struct tt_auto_seen *seen, int trial)
{
	struct tt_auto_placed *p = &seen->per_trial[trial];
	/* A trial is measured several times (interleaved with the baselines):
	 * one measurement unstable, descheduled or cache-resident makes its
	 * mean so. */
	bool below = p->below_rule, resident = p->cache_resident, shrt = p->short_pass,
	     unstable = p->unstable, descheduled = p->descheduled, had = p->judged;
	double share = p->cpu_share;

	*p = seen->last;
	p->below_rule |= below;
	p->cache_resident |= resident;
	p->short_pass |= shrt;
	p->unstable |= unstable;
	p->descheduled |= descheduled;
	if (had && isfinite(share) && !(p->cpu_share <= share))
		p->cpu_share = share;
}

struct tt_bench_opts tt_auto_bench_opts(const struct tt_auto *c)
{
	return (struct tt_bench_opts){ .kernel = c->req.kernel,
				       .topo = c->t,
				       .source_node = c->req.source,
				       .threads = c->req.threads,
				       .array_bytes = c->req.size_bytes,
				       .repeat = c->req.repeat,
				       .refuse_cache = !c->req.allow_cache_resident,
				       /* A signal the caller catches (tt_policy_catch_signals)
					* stops a long run between its passes. */
				       .stop = tt_policy_stop_flag(),
				       .started = c->hooks.trial_started,
				       .progress = c->hooks.trial_progress,
				       .report_ctx = c->hooks.ctx,
				       .touched_bytes = c->hooks.touched_bytes,
				       .sfs = c->sfs };
}

struct tt_bench_opts tt_auto_trial_bench(const struct tt_auto *c)
{
	struct tt_bench_opts o = tt_auto_bench_opts(c);

	o.refuse_unstable = !c->req.allow_unstable;
	return o;
}

/* One real measurement: the kernel under exact placement (no root, no
 * global setting), its median pass as the score, in the arrays the
 * earlier ones placed. Not recorded by the trial layer: the auto run
 * records its trials itself, one per vector. */
static int real_bw(const struct tt_stage *self, const struct tt_weights *w, struct tt_sample *out)
{
	struct tt_auto *c = self->ctx;
	int rc = c->pipe.reuse ? 0 : tt_bench_ctx_new(&c->pipe.reuse);
	struct tt_trial_opts o = { .bench = tt_auto_trial_bench(c),
				   .weights = w,
				   .command = c->req.command };
	struct tt_trial_result *r;

	o.bench.reuse = c->pipe.reuse;
	if (rc == 0)
		rc = tt_place_init(&o.bench.place, c->req.placement, &w->set, w, c->req.source);
	if (rc == 0)
		rc = tt_trial_run(&o, &r);
	if (rc < 0)
		return rc;
	out->score = r->bench.bw_median_bytes_s;
	note_placement(c, w, r);
	tt_trial_free(r);
	return 0;
}

/* One real measurement with latency (tt_trial_loaded) under exact
 * placement by w. Bandwidth objective (the bound): flat out, its bandwidth
 * and latency; latency objective: the ladder, the latency at the stated
 * traffic. */
static int real_lat(const struct tt_stage *self, const struct tt_weights *w, struct tt_sample *out)
{
	struct tt_auto *c = self->ctx;
	struct tt_trial_opts o = { .bench = tt_auto_trial_bench(c),
				   .weights = w,
				   .command = c->req.command };
	struct tt_trial_result *r;
	int rc = tt_place_init(&o.bench.place, TT_PLACE_EXACT, &w->set, w, c->req.source);

	if (rc == 0)
		rc = tt_trial_loaded(&o, c->req.objective.kind == TT_OBJ_LATENCY,
				     tt_objective_traffic_bytes_s(&c->req.objective), out, &r);
	if (rc < 0)
		return rc;
	note_placement(c, w, r);
	tt_trial_free(r);
	return 0;
}

/* A model trial's modelled duration. A bandwidth trial: its passes over
 * its arrays (sim_trial_bytes, in the mix's counting) at the bandwidth the
 * model gave it. A trial with latency: the loaded-latency kernel's points
 * (real_lat: one flat out, or the ladder for the latency objective), as
 * long as bench runs them (tt_trial_loaded_s). */

static int model_bw(const struct tt_stage *self, const struct tt_weights *w, struct tt_sample *out)
{
	struct tt_auto_pipe *p = self->ctx;
	int rc = tt_model_measure(&p->sim, w, &out->score);

	if (rc == 0 && out->score > 0)
		p->sim_s += p->sim_trial_bytes / out->score;
	return rc;
}

static int model_lat(const struct tt_stage *self, const struct tt_weights *w, struct tt_sample *out)
{
	struct tt_auto_pipe *p = self->ctx;
	int rc = tt_model_sample(&p->sim, w, out);

	if (rc == 0)
		p->sim_s += tt_trial_loaded_s(p->sim.traffic_bytes_s > 0);
	return rc;
}

double tt_auto_pipe_clock(void *ctx)
{
	const struct tt_auto_pipe *p = ctx;

	return p->sim_s;
}

/* One run of the program, and whether it ran (measure/app.h) for the
 * record: a program is judged on that alone, not on bench's rules. */
static int app_run(const struct tt_stage *self, const struct tt_weights *w, struct tt_sample *out)
{
	struct tt_auto *c = self->ctx;
	struct tt_auto_seen *seen = &c->seen;
	int rc = tt_app_measure(c->pipe.app, w, &out->score);

	memset(&seen->last, 0, sizeof(seen->last));
	seen->last.judged = rc == 0;
	seen->last.descheduled = c->pipe.app->last.descheduled;
	seen->last.cpu_share = c->pipe.app->last.share;
	return rc;
}

/* A stage as a plain measure callback (search.h), for policy.h's inner. */
static int stage_score(void *ctx, const struct tt_weights *w, double *score)
{
	const struct tt_stage *st = ctx;
	struct tt_sample m = { .lat_ns = NAN };
	int rc = st->fn(st, w, &m);

	*score = m.score;
	return rc;
}

/* Trials under written weights: the candidate's weights written through
 * the apply transaction held for the measurement, read back before and
 * after, put back (policy.h). */
static int written(const struct tt_stage *self, const struct tt_weights *w, struct tt_sample *out)
{
	struct tt_policy_measure *pm = self->ctx;

	pm->inner = stage_score;
	pm->inner_ctx = (void *)self->next;
	return tt_policy_measure(pm, w, &out->score);
}

int tt_auto_tier_nodes(const struct tt_auto *c, const struct tt_weights *tiers,
		       struct tt_weights *nodes)
{
	struct tt_recos *rs = calloc(1, sizeof(*rs));
	const struct tt_wi_backend *tb;
	char buf[512];
	int rc =
		rs ? tt_weights_format(tiers, buf, sizeof(buf)) : tt_err(TT_EFAIL, "out of memory");

	/* Split as the machine's own tier interface splits (the two RFCs
	 * round differently); on another machine, as the per-source RFC. */
	if (tt_wi_pick(c->sfs, NULL, &tb) < 0 || tb->key != TT_WI_BY_TIER)
		tb = tt_wi_for_key(TT_WI_BY_TIER);
	if (rc >= 0)
		rc = tt_recos_add(rs, c->req.source, tb->name, buf, NAN, "--granularity tier");
	if (rc == 0)
		rc = tt_recos_convert(rs, c->t, tt_wi_for_key(TT_WI_BY_NODE));
	if (rc == 0)
		*nodes = rs->r[0].w;
	free(rs);
	return rc < 0 ? rc : 0;
}

/* --granularity tier: the search weighs tiers; each measurement places
 * by node weights, the RFC's split of the tiers' weights. */
static int tier_split(const struct tt_stage *self, const struct tt_weights *w,
		      struct tt_sample *out)
{
	struct tt_weights nw;
	int rc = tt_auto_tier_nodes(self->ctx, w, &nw);

	return rc < 0 ? rc : self->next->fn(self->next, &nw, out);
}

/* App mode's program: found, its log truncated, pinned to the source's
 * CPUs (or, under the test hook, on this host's nodes). */
static int app_setup(struct tt_auto *c)
{
	struct tt_auto_pipe *p = &c->pipe;
	int rc;

	p->app = calloc(1, sizeof(*p->app));
	if (!p->app)
		return tt_err(TT_EFAIL, "out of memory");
	snprintf(p->log, sizeof(p->log), "%s/auto-app.log", p->state);
	rc = tt_app_init(p->app, c->req.app.argv, c->req.app.metric, c->req.app.higher_is_better,
			 p->log);
	if (rc < 0) {
		free(p->app);
		p->app = NULL;
		return rc;
	}
	p->app->keep_descheduled = c->req.allow_unstable;
	return tt_app_place(p->app, c->t, c->req.source, c->sfs->live);
}

/* A trial under written weights discarded: kept for the report, then
 * said through the caller's hook. */
static void discarded(void *ctx, const struct tt_weights *w, const char *why)
{
	struct tt_auto *c = ctx;
	struct tt_auto_seen *seen = &c->seen;
	struct tt_auto_discard *d =
		realloc(seen->discarded, (size_t)(seen->ndiscarded + 1) * sizeof(*d));

	if (d) {
		seen->discarded = d;
		d += seen->ndiscarded++;
		d->w = *w;
		snprintf(d->why, sizeof(d->why), "%s", why);
	}
	if (c->hooks.discarded)
		c->hooks.discarded(c->hooks.ctx, w, why);
}

/* Trials under the kernel's policy (--placement kernel) and app mode: the
 * candidate's weights written for each trial and put back (policy.h), the
 * program run under them (app.h). After the checks of the search's input:
 * the program found, the weight files writable (TT_EUNAVAIL otherwise,
 * nothing written), a journal left by a killed tiertune put back, signals
 * caught. */
static int policy_setup(struct tt_auto *c)
{
	struct tt_auto_pipe *p = &c->pipe;
	struct tt_weights ones;
	int rc = tt_state_dir(TT_DIR_STATE, p->state, sizeof(p->state));

	if (rc == 0)
		rc = tt_state_prepare(p->state);
	if (rc == 0 && c->req.app.argv)
		rc = app_setup(c);
	if (rc < 0)
		return rc;
	p->pol = (struct tt_policy){ .sfs = c->sfs, .topo = c->t, .state_dir = p->state };
	p->pm = (struct tt_policy_measure){ .pol = &p->pol,
					    .discarded = discarded,
					    .discarded_ctx = c };
	tt_weights_clear(&ones);
	for (int k = 0; k < c->cfg.nnodes; k++)
		tt_weights_put(&ones, c->cfg.nodes[k], 1);
	/* By tier the search's ids are tiers, and what is written for each
	 * trial is their split over the nodes (tier_split): tier 4 is no
	 * node 4. */
	if (c->tiers)
		rc = tt_auto_tier_nodes(c, &ones, &ones);
	if (rc == 0)
		rc = tt_policy_check(&p->pol, &ones);
	if (rc == 0 && c->hooks.recover)
		rc = c->hooks.recover(c->hooks.ctx);
	if (rc == 0)
		tt_policy_catch_signals();
	return rc;
}

static void push(struct tt_auto_pipe *p,
		 int (*fn)(const struct tt_stage *, const struct tt_weights *, struct tt_sample *),
		 void *ctx)
{
	p->stage[p->n] = (struct tt_stage){ .fn = fn,
					    .ctx = ctx,
					    .next = p->n ? &p->stage[p->n - 1] : NULL };
	p->n++;
}

/* The measurement for the objective and the granularity, once: the
 * model's, a program's or a real one (with latency when the objective or a
 * bound needs it), under written weights when the kernel's policy places,
 * through the tier split with --granularity tier. The policy wraps the
 * node-weight measurement, so that tiers are split before they are
 * written. */
int tt_auto_pipe_build(struct tt_auto *c)
{
	struct tt_auto_pipe *p = &c->pipe;
	bool lat = c->req.objective.kind == TT_OBJ_LATENCY || c->req.max_lat_ns > 0;
	int rc;

	p->n = 0;
	p->sampled = lat;
	if (c->req.placement == TT_PLACE_KERNEL && (rc = policy_setup(c)) < 0)
		return rc;
	if (c->req.model) {
		p->sim.traffic_bytes_s = tt_objective_traffic_bytes_s(&c->req.objective);
		push(p, lat ? model_lat : model_bw, p);
	} else if (p->app) {
		push(p, app_run, c);
	} else {
		push(p, lat ? real_lat : real_bw, c);
	}
	if (p->pm.pol)
		push(p, written, &p->pm);
	if (c->tiers)
		push(p, tier_split, c);
	return 0;
}

int tt_auto_pipe_sample(void *ctx, const struct tt_weights *w, struct tt_sample *out)
{
	const struct tt_auto_pipe *p = ctx;
	const struct tt_stage *top = &p->stage[p->n - 1];
	int sig = tt_policy_signal();

	/* Between measurements: the search stops where it is. */
	if (sig)
		return tt_err(TT_EFAIL, "signal %d (%s)", sig, strsignal(sig));
	return top->fn(top, w, out);
}

int tt_auto_pipe_measure(void *ctx, const struct tt_weights *w, double *score)
{
	struct tt_sample m = { .lat_ns = NAN };
	int rc = tt_auto_pipe_sample(ctx, w, &m);

	*score = m.score;
	return rc;
}

void tt_auto_pipe_release(struct tt_auto_pipe *p)
{
	tt_bench_ctx_free(p->reuse);
	p->reuse = NULL;
	if (p->app)
		tt_app_release(p->app);
	free(p->app);
	p->app = NULL;
	p->n = 0;
}
