// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Issue 43's advice benchmark: what a user gets by following the action of
 * `tiertune auto --model`, on every shipped model with two or more CPU
 * nodes, from every source and with --all-sources --nodes local, at auto's
 * default budget on a model (200) and one noise (3% by default). Each run
 * is the session auto runs (quality.h's session: tt_auto_search, then
 * tt_auto_sources as auto runs it; --all-sources: every source's session,
 * tt_auto_all_merge, tt_auto_all_judge), scored without noise by the model
 * it came from. Figures, not a test; everything is simulated.
 *
 *	build/tests/perf-advice-quality [-m MODELS-DIR] [-F FIXTURES-DIR]
 *		[-s SEEDS] [-f FIRST-SEED] [-n NOISE] [-c CASE]
 */
#include "quality.h"

struct aopts {
	const char *dir, *fix, *only;
	int seeds, first;
	double noise[1];
};

/* What a user gets by following the
 * action of `tiertune auto --model` (the same session: tt_auto_search,
 * then tt_auto_sources as auto runs it; --all-sources --nodes local:
 * every source's session, tt_auto_all_merge and tt_auto_all_judge), scored
 * without noise, per CPU node and mask: every memory node, and the node's
 * own socket's nodes (tt_auto_masks lists them, with what their tasks get
 * now and once the weights are written). The source's own program gets
 * the advice itself (the weights, local memory bound, or what it runs now
 * for an action that keeps it); every other task gets the weights written
 * where the action writes them, else what it runs now. Two figures: the
 * advice gap on the source's searched mask (1 - score / that mask's grid
 * optimum) and the worst loss of any CPU node's tasks on any mask against
 * what they get now. */
/* The lowest and the highest CPU node. */
static int cpu_first(const struct tt_topo *t)
{
	int node;

	tt_nodemask_for_each (node, &t->cpu_nodes)
		return node;
	return -1;
}

static int cpu_last(const struct tt_topo *t)
{
	int node, last = -1;

	tt_nodemask_for_each (node, &t->cpu_nodes)
		last = node;
	return last;
}

struct amask {
	struct qrun q; /* the case: from src over the mask */
	double opt;    /* its grid optimum, noise-free */
};

static double eval_w(const struct qrun *q, const struct tt_weights *w)
{
	struct tt_model_result r;

	if (tt_model_eval(&q->m, q->c->src, &q->mix, 0, w, &r) < 0)
		die("eval");
	return r.bw_bytes_s;
}

/* The grid optimum from src over mask, cached across seeds. */
#define MAX_AMASKS 64
static struct amask amasks[MAX_AMASKS];
static struct qcase acases[MAX_AMASKS];
static int namasks;

static const struct amask *amask_of(const struct aopts *o, const char *model, int src,
				    const struct tt_nodemask *m)
{
	struct qcase *c;
	int node;

	for (int i = 0; i < namasks; i++) {
		const struct qcase *x = amasks[i].q.c;
		struct tt_nodemask xm = { 0 };

		for (int k = 0; k < x->nnodes; k++)
			tt_bit_set(xm.bits, (unsigned int)x->nodes[k]);
		if (x->src == src && strcmp(x->model, model) == 0 && !memcmp(&xm, m, sizeof(xm)))
			return &amasks[i];
	}
	if (namasks == MAX_AMASKS)
		die("too many masks");
	c = &acases[namasks];
	memset(c, 0, sizeof(*c));
	c->name = "mask";
	c->model = model;
	c->src = src;
	c->mix = "triad";
	tt_nodemask_for_each (node, m)
		c->nodes[c->nnodes++] = node;
	if (load_case(&amasks[namasks].q, c, o->dir, o->fix) < 0)
		die(model);
	grid_opt(&amasks[namasks].q, false);
	amasks[namasks].opt = amasks[namasks].q.opt;
	return &amasks[namasks++];
}

/* One seed's advice: the set of weights written (NULL: none), what the
 * source's program gets, scored on every CPU node's masks. */
struct aoutcome {
	double gap;  /* worst over the sources' own masks */
	double loss; /* worst (most negative) over every task */
	enum tt_reco_action action;
};

static void advice_score(const struct aopts *o, const char *model, struct tt_auto *a,
			 const struct tt_weights *written, int src, const struct tt_nodemask *own,
			 const struct tt_weights *got, struct aoutcome *out)
{
	struct tt_auto_sources *ms = calloc(1, sizeof(*ms));
	struct tt_weights none;

	if (!ms)
		die("out of memory");
	tt_weights_clear(&none);
	tt_auto_masks(a, written ? written : &none, NULL, ms);
	for (int i = 0; i < ms->n; i++) {
		const struct tt_auto_other *x = &ms->o[i];
		const struct amask *am = amask_of(o, model, x->source, &x->mask);
		const struct tt_weights *w = written ? &x->after : &x->now;
		double now, sc;
		bool mine = x->source == src && !memcmp(&x->mask, own, sizeof(*own));

		if (mine)
			w = got;
		sc = eval_w(&am->q, w);
		now = eval_w(&am->q, &x->now);
		out->loss = fmin(out->loss, sc / now - 1);
		if (mine)
			out->gap = fmax(out->gap, 1 - sc / am->opt);
	}
	free(ms);
}

/* What src's tasks over mask get now (tt_auto_masks of no weights). */
static void now_over(const struct tt_auto *a, int src, const struct tt_nodemask *mask,
		     struct tt_weights *now)
{
	struct tt_auto_sources *ms = calloc(1, sizeof(*ms));
	struct tt_weights none;

	if (!ms)
		die("out of memory");
	tt_weights_clear(&none);
	tt_weights_clear(now);
	tt_auto_masks(a, &none, NULL, ms);
	for (int i = 0; i < ms->n; i++)
		if (ms->o[i].source == src && !memcmp(&ms->o[i].mask, mask, sizeof(*mask)))
			*now = ms->o[i].now;
	free(ms);
}

/* What the source's program gets by following the session's action. */
static void followed(const struct tt_auto *a, const struct tt_weights *now, struct tt_weights *got)
{
	const struct tt_report *r = &a->r;

	if (r->action == TT_ACTION_APPLY || r->action == TT_ACTION_PER_SOURCE)
		*got = a->rs.r[0].w;
	else if (r->action == TT_ACTION_BIND_LOCAL)
		*got = r->base[r->action_base].w;
	else
		*got = *now;
}

static int advice_one(const struct aopts *o, const struct qrun *q, uint64_t seed,
		      struct aoutcome *out)
{
	struct tt_auto *a = calloc(1, sizeof(*a));
	struct tt_nodemask own = { 0 };
	struct tt_weights got;
	int rc;

	if (!a)
		die("out of memory");
	out->gap = 0;
	out->loss = 0;
	out->action = TT_ACTION_APPLY;
	rc = session(q, NULL, 200, o->noise[0], seed, a);
	if (rc == 0)
		rc = tt_auto_search(a);
	if (rc == 0)
		rc = tt_auto_sources(a);
	if (rc == 0) {
		for (int k = 0; k < q->c->nnodes; k++)
			tt_bit_set(own.bits, (unsigned int)q->c->nodes[k]);
		now_over(a, q->c->src, &own, &got);
		followed(a, &got, &got);
		out->action = a->r.action;
		advice_score(o, q->c->model, a,
			     a->r.action == TT_ACTION_APPLY ? &a->rs.r[0].w : NULL, q->c->src, &own,
			     &got, out);
	}
	tt_auto_release(a);
	free(a);
	return rc;
}

/* --all-sources --nodes local: every source's session, the set merged and
 * judged as auto does; written where it passes, else nothing. */
static int advice_all(const struct aopts *o, const struct qrun *q, uint64_t seed,
		      struct aoutcome *out)
{
	struct tt_auto_all *all = calloc(1, sizeof(*all));
	struct tt_auto *a = calloc(1, sizeof(*a));
	struct tt_nodemask own[TT_MAX_NODES];
	struct tt_weights got[TT_MAX_NODES];
	struct qrun qs = *q;
	struct qcase c = *q->c;
	int node, rc = 0, nsrc = 0;

	if (!all || !a)
		die("out of memory");
	memset(own, 0, sizeof(own));
	out->gap = 0;
	out->loss = 0;
	out->action = TT_ACTION_APPLY;
	qs.c = &c;
	snprintf(qs.nodes, sizeof(qs.nodes), "local");
	tt_nodemask_for_each (node, &q->t.cpu_nodes) {
		nsrc++;
		c.src = node;
		tt_auto_local_nodes(&q->t, node, &own[node]);
		c.nnodes = 0;
		for (int k = 0; k < TT_MAX_NODES; k++)
			if (tt_bit_test(own[node].bits, (unsigned int)k))
				c.nodes[c.nnodes++] = k;
		if ((rc = session(&qs, NULL, 200, o->noise[0], seed, a)) == 0 &&
		    (rc = tt_auto_search(a)) == 0)
			rc = tt_auto_all_add(all, a);
		if (rc == 0) {
			/* Where the set is not written, each source's program
			 * follows its own run's action. */
			now_over(a, node, &own[node], &got[node]);
			followed(a, &got[node], &got[node]);
		}
		if (rc == 0 && node != cpu_last(&q->t)) {
			tt_auto_release(a);
			memset(a, 0, sizeof(*a));
		}
		if (rc < 0)
			break;
	}
	if (rc == 0) {
		tt_auto_all_merge(all, &q->sfs, &q->t);
		rc = tt_auto_all_judge(all, a);
	}
	if (rc == 0) {
		bool write = tt_auto_all_writes(all);
		struct tt_auto_sources *ms = calloc(1, sizeof(*ms));
		struct tt_weights none;

		if (!ms)
			die("out of memory");
		tt_weights_clear(&none);
		tt_auto_masks(a, write ? &all->merged : &none, NULL, ms);
		out->action = write ? TT_ACTION_APPLY : TT_ACTION_PER_SOURCE;
		for (int i = 0; i < ms->n; i++) {
			const struct tt_auto_other *x = &ms->o[i];
			const struct amask *am = amask_of(o, q->c->model, x->source, &x->mask);
			bool mine = !memcmp(&x->mask, &own[x->source], sizeof(own[0]));
			double sc = eval_w(&am->q, write  ? &x->after
						   : mine ? &got[x->source]
							  : &x->now);

			out->loss = fmin(out->loss, sc / eval_w(&am->q, &x->now) - 1);
			if (mine)
				out->gap = fmax(out->gap, 1 - sc / am->opt);
		}
		free(ms);
	}
	tt_auto_release(a);
	free(a);
	free(all);
	return rc;
}

static void advice_main(const struct aopts *o)
{
	printf("SIMULATED advice benchmark (issue 43): budget 200, noise %.0f%%, %d seeds from %d; "
	       "gap: following the action,\nnoise-free, below the source's mask's grid optimum "
	       "(--all-sources: the worst source's own mask);\nloss: the worst of any CPU node's "
	       "tasks on any mask (every node, its socket's) against now.\n",
	       100 * o->noise[0], o->seeds, o->first);
	printf("%-34s | %7s %7s %5s | %7s %5s | %s\n", "case", "gap med", "worst", "<=2%", "loss",
	       ">1%", "apply keep_auto bind_local keep_now per_source");
	for (int ci = 0; ci < nextra; ci++) {
		const struct qcase *c = &extra[ci];
		struct qrun q;

		if (load_case(&q, c, o->dir, o->fix) < 0)
			die(c->model);
		if (tt_nodemask_weight(&q.t.cpu_nodes) < 2 ||
		    (o->only && !strstr(c->name, o->only))) {
			tt_topo_release(&q.t);
			continue;
		}
		for (int all = 0; all < 2; all++) {
			double gaps[MAX_SEEDS], worst_loss = 0;
			int within = 0, lossy = 0, acts[5] = { 0 };
			char name[96];

			/* --all-sources once a model, after its first source. */
			if (all && (c->src != cpu_first(&q.t)))
				continue;
			for (int sd = 0; sd < o->seeds; sd++) {
				struct aoutcome r;
				uint64_t seed = (uint64_t)o->first + (uint64_t)sd;

				if ((all ? advice_all(o, &q, seed, &r)
					 : advice_one(o, &q, seed, &r)) < 0)
					die(c->name);
				gaps[sd] = r.gap;
				within += r.gap <= 0.02;
				lossy += r.loss < -0.01;
				worst_loss = fmin(worst_loss, r.loss);
				acts[r.action]++;
			}
			qsort(gaps, (size_t)o->seeds, sizeof(double), cmp_d);
			snprintf(name, sizeof(name), "%s%s", all ? c->model : c->name,
				 all ? " --all-sources local" : "");
			printf("%-34s | %6.2f%% %6.2f%% %5d | %6.2f%% %5d | %d %d %d %d %d\n", name,
			       100 * gaps[o->seeds / 2], 100 * gaps[o->seeds - 1], within,
			       100 * worst_loss, lossy, acts[0], acts[1], acts[2], acts[3],
			       acts[4]);
		}
		tt_topo_release(&q.t);
	}
}

int main(int argc, char **argv)
{
	struct aopts o = { .dir = "model/machines",
			   .fix = "tests/fixtures/sysfs",
			   .seeds = 20,
			   .first = 1000,
			   .noise = { 0.03 } };
	clock_t t0 = clock();

	for (int i = 1; i + 1 < argc; i += 2) {
		const char *a = argv[i], *v = argv[i + 1];

		if (strcmp(a, "-m") == 0)
			o.dir = v;
		else if (strcmp(a, "-F") == 0)
			o.fix = v;
		else if (strcmp(a, "-s") == 0)
			o.seeds = atoi(v);
		else if (strcmp(a, "-f") == 0)
			o.first = atoi(v);
		else if (strcmp(a, "-n") == 0)
			o.noise[0] = atof(v);
		else if (strcmp(a, "-c") == 0)
			o.only = v;
		else
			argc = -1;
	}
	if (argc < 0 || argc % 2 == 0 || o.seeds < 1 || o.seeds > MAX_SEEDS || o.first < 0 ||
	    !(o.noise[0] > 0 && o.noise[0] <= 0.2)) {
		fprintf(stderr, "usage: perf-advice-quality [-m MODELS-DIR] [-F FIXTURES-DIR] "
				"[-s SEEDS] [-f FIRST-SEED] [-n NOISE] [-c CASE]\n");
		return 2;
	}
	add_sources(o.dir, o.fix, NULL);
	advice_main(&o);
	printf("\n%.0f s of CPU\n", (double)(clock() - t0) / CLOCKS_PER_SEC);
	return 0;
}
