// SPDX-License-Identifier: GPL-3.0-or-later
/* An auto or sweep run's report document (auto.h): the plan apply would
 * run, the trials as the report shows them and the commands it suggests,
 * beside the session's own figures. */
#include "auto.h"

#include "../core/error.h"
#include "../core/bitmap.h"
#include "../core/wi.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *tt_run_kind_name(enum tt_run_kind k)
{
	return k == TT_RUN_SWEEP ? "sweep" : "auto";
}

/* Why a run whose action is not "apply" writes nothing: the report's
 * apply line and --apply's. */
static void keep_why(const struct tt_report *r, char *buf, size_t size)
{
	const struct tt_report_baseline *b = r->action_base >= 0 ? &r->base[r->action_base] : NULL;
	char why[160];

	tt_report_keep_why(r, why, sizeof(why));
	if (r->action == TT_ACTION_PER_SOURCE) {
		snprintf(buf, size, "nothing to write: %s (see above)", why);
		return;
	}
	snprintf(buf, size,
		 r->action == TT_ACTION_KEEP_AUTO
			 ? "nothing to write: keep the kernel's auto mode (%s%s)"
		 : r->action == TT_ACTION_KEEP_NOW
			 ? "nothing to write: keep the weights set now (%s%s)"
			 : "nothing to write: bind the program's memory to "
			   "the local node (numactl "
			   "--membind; %s%s)",
		 why, b && b->verdict == TT_VERDICT_NOISE ? ", see its row above" : "");
}

/* The trials as the report shows them: weights, figures as measured, and
 * the share off the source's node (a sweep's table). */
static int doc_trials(const struct tt_auto *c, struct tt_doc_trial **out)
{
	const struct tt_search *s = &c->s;
	struct tt_doc_trial *rows = calloc((size_t)s->ntrials + 1, sizeof(*rows));

	if (!rows)
		return tt_err(TT_EFAIL, "out of memory");
	for (int i = 0; i < s->ntrials; i++) {
		const struct tt_trial *tr = &s->trials[i];
		struct tt_doc_trial *d = &rows[i];
		uint32_t w[TT_SEARCH_MAX_NODES], sum = 0, remote = 0;

		tt_search_trial_weights(s, i, w);
		tt_search_weights(s, w, &d->w);
		for (int k = 0; k < s->cfg.nnodes; k++) {
			sum += w[k];
			remote += s->cfg.nodes[k] == c->req.source ? 0 : w[k];
		}
		d->remote_share = (double)remote / sum;
		d->phase = tr->phase;
		d->n = tr->n;
		d->mean = d->half = NAN;
		if (tr->n)
			tt_trial_raw(tr, &d->mean, &d->half);
		d->lat_ns = tt_trial_lat_ns(tr, c->req.objective.kind == TT_OBJ_LATENCY);
		d->feasible = tr->feasible;
	}
	*out = rows;
	return 0;
}

/* The commands the report ends with. They name the database the run is
 * in and the root the weights are for (a fixture's nodes are not this
 * machine's): run as printed, they mean this run. The model's own tree is
 * never written, so a copy of it is made first. */
static void next_commands(const struct tt_auto *c, const struct tt_auto_where *where,
			  struct tt_auto_doc *d)
{
	char root[2100], w[96];

	snprintf(root, sizeof(root), "%s", where->options ? where->options : "");
	d->nnext = 0;
	d->copy_tree[0] = '\0';
	/* Nothing to write: the run is only to be seen, on no tree. */
	if (d->keeps) {
		if (c->run)
			snprintf(d->next[d->nnext++], sizeof(d->next[0]),
				 "tiertune %sshow %" PRId64, root, c->run);
		return;
	}
	if (where->model_tree) {
		snprintf(d->copy_tree, sizeof(d->copy_tree), "cp -a '%s' DIR", where->root);
		snprintf(root + strlen(root), sizeof(root) - strlen(root), "--sysfs-root DIR ");
	}
	if (!c->run) {
		const struct tt_wi_backend *be = tt_wi_find(c->rs.r[0].interface);
		bool tiers = be && be->key == TT_WI_BY_TIER;

		/* The RFC's weights are per tier and per source: the command
		 * says both, or apply would read tiers as nodes. */
		tt_weights_format(&c->rs.r[0].w, w, sizeof(w));
		if (tiers)
			snprintf(d->next[d->nnext++], sizeof(d->next[0]),
				 "tiertune %sapply --tier-weights %s --source-node %d", root, w,
				 c->req.source);
		else
			snprintf(d->next[d->nnext++], sizeof(d->next[0]),
				 "tiertune %sapply --weights %s", root, w);
		return;
	}
	snprintf(d->next[d->nnext++], sizeof(d->next[0]), "tiertune %sapply --run %" PRId64, root,
		 c->run);
	snprintf(d->next[d->nnext++], sizeof(d->next[0]),
		 "tiertune %sexport --run %" PRId64 " --format shell|tmpfiles|numactl|json", root,
		 c->run);
}

/* What apply would write, or why nothing: the action keeps what is, or
 * the plan cannot be made here (its message). */
static void plan(struct tt_auto *c)
{
	c->planned = false;
	if (tt_report_keeps(&c->r))
		keep_why(&c->r, c->plan_why, sizeof(c->plan_why));
	else if (tt_auto_plan(c, &c->plan) == 0)
		c->planned = true;
	else
		snprintf(c->plan_why, sizeof(c->plan_why), "%s", tt_err_msg());
}

int tt_auto_report(struct tt_auto *c, const struct tt_auto_where *where,
		   const struct tt_auto_doc **out)
{
	struct tt_auto_doc *d = &c->doc;
	int rc;

	tt_auto_doc_release(d);
	plan(c);
	*d = (struct tt_auto_doc){
		.req = &c->req,
		.root = where->root,
		.model_tree = where->model_tree,
		.t = c->t,
		.simulated = c->simulated,
		.tiers = c->tiers,
		.objective = &c->req.objective,
		.threads = c->simulated ? c->req.threads : c->seen.used_threads,
		.budget_trials =
			c->s.cfg.budget_trials ? c->s.cfg.budget_trials + c->prior.cost : 0,
		.budget_s = c->s.cfg.budget_s,
		.prior = &c->prior,
		.app = c->pipe.app,
		.log = c->pipe.log,
		.pol = c->pipe.pm.pol,
		.discarded = c->seen.discarded,
		.ndiscarded = c->seen.ndiscarded,
		.r = &c->r,
		.reco = &c->rs.r[0],
		.keeps = tt_report_keeps(&c->r),
		.now_base = c->r.now_base,
		.leaves_auto = c->planned && c->prior.auto_mode == 1,
		.others = &c->others,
		.applying = where->applying,
		.plan = c->planned ? &c->plan : NULL,
		.plan_why = c->plan_why,
		.run = c->run,
		.record_why = c->record_why[0] ? c->record_why : NULL,
	};
	next_commands(c, where, d);
	rc = doc_trials(c, &d->trials);
	*out = d;
	return rc;
}

void tt_auto_recipe(const struct tt_topo *t, int source, const struct tt_weights *w,
		    struct tt_recipe *out)
{
	const struct tt_node *n = tt_topo_node(t, source);
	uint64_t cpus[TT_MAX_CPUS / 64] = { 0 };
	struct tt_nodemask m;
	int node;

	memset(out, 0, sizeof(*out));
	out->source = source;
	if (tt_weights_format(w, out->weights, sizeof(out->weights)) < 0)
		snprintf(out->weights, sizeof(out->weights), "?");
	tt_bit_format_list(w->set.bits, TT_MAX_NODES, out->nodes, sizeof(out->nodes));
	for (int i = 0; n && i < n->ncpus; i++)
		tt_bit_set(cpus, (unsigned int)n->cpus[i]);
	tt_bit_format_list(cpus, TT_MAX_CPUS, out->cpus, sizeof(out->cpus));
	tt_nodemask_for_each (node, &t->cpu_nodes) {
		if (node == source || out->nothers == TT_AUTO_MAX_OTHERS)
			continue;
		out->other[out->nothers].source = node;
		tt_auto_local_nodes(t, node, &m);
		tt_bit_format_list(m.bits, TT_MAX_NODES, out->other[out->nothers].mems,
				   sizeof(out->other[0].mems));
		out->nothers++;
	}
}
