// SPDX-License-Identifier: GPL-3.0-or-later
/* A trial under written weights (see policy.h). */
#include "policy.h"

#include "../writer/apply.h"
#include "../core/error.h"
#include "../core/wi.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

static volatile sig_atomic_t caught;

static void on_signal(int sig)
{
	caught = sig;
}

void tt_policy_catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* HUP too: closing the SSH session a search runs in sends it, and the
	 * weights must go back then as on ^C. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
}

int tt_policy_signal(void)
{
	return caught;
}

const volatile sig_atomic_t *tt_policy_stop_flag(void)
{
	return &caught;
}

/* The interface a trial writes: MPOL_WEIGHTED_INTERLEAVE reads one global
 * weight per node, so the table's interface keyed by node, not per source. */
static int backend(const struct tt_policy *pol, const struct tt_wi_backend **be)
{
	char why[256];

	*be = tt_wi_for_key(TT_WI_BY_NODE);
	if (!*be || (*be)->per_source)
		return tt_err(TT_EUNAVAIL, "no interface of global node weights, which "
					   "MPOL_WEIGHTED_INTERLEAVE reads");
	if ((*be)->detect(pol->sfs, why, sizeof(why)) < 0)
		return tt_err(TT_EUNAVAIL,
			      "trials under the kernel's policy write the %s interface's node "
			      "weights, and %s",
			      (*be)->name, why);
	return 0;
}

/* A trial's plan: w as apply would write it (the backend's checks and side
 * effects), with every one of its weights journalled, even one that holds
 * its value already (apply leaves those out): what the trial puts back is
 * what the journal holds, and a weight changed under the trial must go
 * back too. */
static int trial_plan(const struct tt_policy *pol, const struct tt_weights *w,
		      struct tt_apply_plan *p)
{
	const struct tt_wi_backend *be;
	struct tt_apply_plan all;
	int rc = backend(pol, &be);

	tt_apply_plan_init(p, be, pol->sfs);
	if (rc == 0)
		rc = tt_apply_plan_weights(p, pol->topo, -1, w);
	if (rc == 0 && p->auto_lost)
		rc = tt_err(TT_EUNAVAIL,
			    "writing weights for a trial turns the kernel's auto mode off, and "
			    "this kernel cannot turn it back on (no HMAT/CDAT bandwidth data)");
	if (rc < 0)
		return rc;
	tt_apply_plan_init(&all, be, pol->sfs);
	all.write_unchanged = true;
	rc = tt_apply_plan_writes(&all, pol->topo, -1, w);
	p->write_unchanged = true;
	for (int i = 0; i < all.n && rc == 0; i++) {
		bool planned = false;

		for (int k = 0; k < p->n && !planned; k++)
			planned = strcmp(p->w[k].file, all.w[i].file) == 0 &&
				  p->w[k].src == all.w[i].src;
		if (!planned)
			rc = tt_apply_plan_add(p, all.w[i].kind, all.w[i].src, all.w[i].value, "%s",
					       all.w[i].file);
	}
	tt_apply_plan_release(&all);
	return rc;
}

int tt_policy_check(const struct tt_policy *pol, const struct tt_weights *w)
{
	struct tt_apply_plan p;
	int rc = trial_plan(pol, w, &p);

	if (rc == 0)
		rc = tt_apply_check_writable(&p);
	tt_apply_plan_release(&p);
	return rc;
}

/* What differs between the weights of w's nodes (and the mode) in a and b:
 * false when nothing, else true with it said in why. */
static bool moved(const struct tt_weights *w, const struct tt_wi_state *a,
		  const struct tt_wi_state *b, const char *when, char *why, size_t size)
{
	size_t len = 0;
	int node;

	why[0] = '\0';
	tt_nodemask_for_each (node, &w->set) {
		uint32_t x = tt_weights_get(&a->node, node, 0),
			 y = tt_weights_get(&b->node, node, 0);

		if (x != y && len < size)
			len += (size_t)snprintf(why + len, size - len,
						"%snode %d's weight was %u, "
						"%u %s",
						len ? "; " : "", node, x, y, when);
	}
	if (a->auto_mode != b->auto_mode && len < size)
		len += (size_t)snprintf(why + len, size - len, "%sauto mode went %s %s",
					len ? "; " : "", b->auto_mode == 1 ? "on" : "off", when);
	return len > 0;
}

int tt_policy_trial(struct tt_policy *pol, const struct tt_weights *w, int (*run)(void *ctx),
		    void *ctx, struct tt_policy_outcome *out)
{
	struct tt_apply_plan p;
	struct tt_apply_hold h;
	struct tt_wi_state want, before, after;
	char msg[1024], hint[1024];
	int rc, back;

	memset(out, 0, sizeof(*out));
	tt_wi_state_init(&want);
	tt_wi_state_init(&before);
	tt_wi_state_init(&after);
	rc = trial_plan(pol, w, &p);
	if (rc == 0)
		rc = tt_apply_hold(&p, pol->state_dir, &h);
	if (rc < 0)
		goto out;
	pol->trials++;
	/* Read back as a whole, as the kernel will use them: the values just
	 * written, and any the plan left because they were already right. */
	rc = p.be->read(pol->sfs, pol->topo, &before);
	if (rc == 0) {
		want.node = *w;
		want.auto_mode = before.auto_mode;
		out->discarded =
			moved(w, &want, &before, "as the trial began", out->why, sizeof(out->why));
	}
	if (rc == 0 && !out->discarded)
		rc = out->run_rc = run(ctx);
	if (rc == 0 && !out->discarded) {
		rc = p.be->read(pol->sfs, pol->topo, &after);
		if (rc == 0)
			out->discarded = moved(w, &before, &after, "by the trial's end", out->why,
					       sizeof(out->why));
	}
	if (rc < 0) {
		snprintf(msg, sizeof(msg), "%s", tt_err_msg());
		snprintf(hint, sizeof(hint), "%s", tt_err_hint_msg());
	}
	back = tt_apply_unhold(&h, &out->restored);
	if (back < 0 && rc < 0) {
		char why[1024];

		snprintf(why, sizeof(why), "%s", tt_err_msg());
		rc = tt_err(rc, "%s; and %s", msg, why);
	} else if (back < 0) {
		rc = back;
	} else if (rc < 0) {
		tt_err(rc, "%s (the weights are back as they were)", msg);
		if (hint[0])
			tt_err_hint("%s", hint);
	}
	if (out->discarded)
		pol->discarded++;
out:
	tt_apply_plan_release(&p);
	tt_wi_state_release(&want);
	tt_wi_state_release(&before);
	tt_wi_state_release(&after);
	return rc;
}

struct inner_call {
	const struct tt_policy_measure *pm;
	const struct tt_weights *w;
	double score;
};

static int call_inner(void *ctx)
{
	struct inner_call *c = ctx;

	return c->pm->inner(c->pm->inner_ctx, c->w, &c->score);
}

static int interrupted(void)
{
	int sig = tt_policy_signal();

	return tt_err(TT_EFAIL, "interrupted by signal %d (%s); the weights are back as they were",
		      sig, strsignal(sig));
}

int tt_policy_measure(void *ctx, const struct tt_weights *w, double *score)
{
	const struct tt_policy_measure *pm = ctx;
	struct inner_call c = { .pm = pm, .w = w };
	struct tt_policy_outcome out;
	int max = pm->max_discards ? pm->max_discards : 3;

	for (int tries = 0;; tries++) {
		int rc;

		if (tt_policy_signal())
			return interrupted();
		rc = tt_policy_trial(pm->pol, w, call_inner, &c, &out);
		if (rc < 0 && tt_policy_signal())
			return interrupted();
		if (rc < 0)
			return rc;
		if (!out.discarded)
			break;
		if (pm->discarded)
			pm->discarded(pm->discarded_ctx, w, out.why);
		if (tries + 1 >= max)
			return tt_err(TT_EFAIL,
				      "the weights changed under %d trials in a row (last: %s): "
				      "something else is writing them",
				      max, out.why);
	}
	if (tt_policy_signal())
		return interrupted();
	*score = c.score;
	return 0;
}
