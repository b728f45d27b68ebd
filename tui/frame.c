// SPDX-License-Identifier: GPL-3.0-or-later
/* The frame model: which figure goes in which cell, and why a cell has none.
 * No terminal here and no collecting: inputs are what the sampler and the
 * process scanner already took. */
#include "frame.h"

#include "../core/error.h"
#include "../core/interleave.h"
#include "../core/numa-maps.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char *const tt_cell_state_names[] = { "ok", "n/a", "initializing", "stale" };
const char *const tt_proc_sort_names[] = { "pages", "skew", "pid", NULL };
const char *const tt_view_names[] = { "nodes", "tiers", NULL };

int tt_feed_init(struct tt_feed *f, struct tt_source **src, int n)
{
	memset(f, 0, sizeof(*f));
	f->n = n;
	f->src = src;
	if (n && !(f->v = calloc((size_t)n, sizeof(*f->v))))
		return tt_err(TT_EFAIL, "out of memory");
	for (int i = 0; i < n; i++) {
		f->per_tick += (uint64_t)src[i]->nmetrics;
		if (!(f->v[i] = calloc((size_t)src[i]->nmetrics + 1, sizeof(**f->v)))) {
			tt_feed_release(f);
			return tt_err(TT_EFAIL, "out of memory");
		}
	}
	return 0;
}

void tt_feed_release(struct tt_feed *f)
{
	for (int i = 0; f->v && i < f->n; i++)
		free(f->v[i]);
	free(f->v);
	f->v = NULL;
}

void tt_feed_take(struct tt_feed *f, const struct tt_reading *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct tt_latest *l;

		if (r[i].source < 0 || r[i].source >= f->n || r[i].metric < 0 ||
		    r[i].metric >= f->src[r[i].source]->nmetrics)
			continue;
		l = &f->v[r[i].source][r[i].metric];
		l->have = true;
		l->ever |= r[i].state != TT_S_STALE;
		l->value = r[i].value;
		l->t_s = r[i].t_s;
		l->state = r[i].state;
		if (r[i].seq + 1 > f->seq)
			f->seq = r[i].seq + 1;
	}
	if (f->per_tick)
		f->ticks = f->seq / f->per_tick;
}

static void note(struct tt_frame *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct tt_frame *f, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (int i = 0; i < f->nnotes; i++)
		if (strcmp(f->notes[i], buf) == 0)
			return;
	if (f->nnotes < (int)(sizeof(f->notes) / sizeof(*f->notes)))
		memcpy(f->notes[f->nnotes++], buf, sizeof(buf));
}

/* The sum of metric name (on node, -1 none) over source s's metrics: one
 * node may have several boxes. A reading older than three intervals is
 * stale too: its source stopped answering without saying so. */
static struct tt_cell cell_of(const struct tt_frame_in *in, int s, const char *name, int node)
{
	struct tt_cell c = { TT_CELL_NA, 0 };
	const struct tt_source *src;
	bool found = false, init = false, stale = false;

	if (s < 0)
		return c;
	src = in->feed->src[s];
	for (int m = 0; m < src->nmetrics; m++) {
		const struct tt_latest *l = &in->feed->v[s][m];

		if (src->metrics[m].node != node || strcmp(src->metrics[m].name, name))
			continue;
		found = true;
		if (!l->have) {
			init = true;
			continue;
		}
		if (!l->ever)
			continue; /* never answered: absent here, not stale */
		if (l->state == TT_S_STALE || in->now_s - l->t_s > 3 * in->interval_s + 1)
			stale = true;
		else if (l->state == TT_S_INIT)
			init = true;
		else
			c.v += l->value;
	}
	if (!found)
		return c;
	c.st = stale ? TT_CELL_STALE : init ? TT_CELL_INIT : TT_CELL_OK;
	if (c.st == TT_CELL_OK) {
		/* Every box answered at least once: a metric never answering
		 * (a key this kernel lacks) is n/a, not 0. */
		bool any = false;

		for (int m = 0; m < src->nmetrics; m++)
			any |= src->metrics[m].node == node &&
			       !strcmp(src->metrics[m].name, name) && in->feed->v[s][m].ever;
		if (!any)
			c.st = TT_CELL_NA;
	}
	if (c.st != TT_CELL_OK)
		c.v = 0;
	return c;
}

static struct tt_cell cell_add(struct tt_cell a, struct tt_cell b)
{
	struct tt_cell c = { a.st > b.st ? a.st : b.st, 0 };

	if (c.st == TT_CELL_OK)
		c.v = a.v + b.v;
	return c;
}

/* The sum of the cells that have a value, for counters a kernel may lack
 * one of (pgdemote_khugepaged, _proactive): n/a only when none has one,
 * and init or stale as soon as one is. */
static struct tt_cell cell_add_present(const struct tt_cell *c, int n)
{
	struct tt_cell sum = { TT_CELL_NA, 0 };

	for (int i = 0; i < n; i++) {
		if (c[i].st == TT_CELL_NA)
			continue;
		if (sum.st == TT_CELL_NA)
			sum.st = TT_CELL_OK;
		sum = cell_add(sum, c[i]);
	}
	return sum;
}

/* The cell of a role on node (-1 none) from source s, as its collector
 * declares the role's metrics and how they add up. */
static struct tt_cell cell_role(const struct tt_frame_in *in, int s, enum tt_metric_role role,
				int node)
{
	struct tt_cell c[16], sum = { TT_CELL_NA, 0 };
	bool present = false;
	int n = 0;

	if (s < 0)
		return sum;
	for (const struct tt_metric_meaning *m = in->feed->src[s]->c->meanings;
	     m && m->metric && n < 16; m++) {
		if (m->role != role)
			continue;
		c[n++] = cell_of(in, s, m->metric, node);
		present |= m->agg == TT_AGG_SUM_PRESENT;
	}
	if (present)
		return cell_add_present(c, n);
	for (int i = 0; i < n; i++)
		sum = i ? cell_add(sum, c[i]) : c[i];
	return sum;
}

static struct tt_cell ok(double v)
{
	return (struct tt_cell){ TT_CELL_OK, v };
}

static const struct tt_cell NA = { TT_CELL_NA, 0 };

bool tt_frame_weight_shares(const struct tt_topo *t, const struct tt_wi_backend *be,
			    const struct tt_wi_state *wi, int src, int mode,
			    const struct tt_nodemask *mask, double *out)
{
	struct tt_il_order o;
	uint64_t counts[TT_MAX_NODES];
	int rc;

	if (mode == TT_MPOL_INTERLEAVE) {
		struct tt_weights ones;
		int node;

		tt_weights_clear(&ones);
		tt_nodemask_for_each (node, mask)
			tt_weights_put(&ones, node, 1);
		rc = tt_il_order_nodes(&o, mask, &ones);
	} else if (!be || !wi) {
		return false;
	} else {
		rc = tt_wi_order(be, wi, t, src, mask, &o);
	}
	if (rc < 0 || !o.total || tt_il_cycle_counts(&o, counts) < 0)
		return false;
	for (int i = 0; i < o.n; i++)
		out[o.node[i]] = (double)counts[i] / (double)o.total;
	return true;
}

static int first_file(void *ctx, enum tt_write_kind kind, int src, const char *file,
		      const char *value, bool implied)
{
	char *out = ctx;

	(void)kind, (void)src, (void)value;
	if (!implied && !out[0])
		snprintf(out, 160, "%s", file);
	return 0;
}

/* The file that holds node id's weight (as the backend writes it), from
 * its folder on ("weighted_interleave/node2"). */
static const char *weight_file(const struct tt_wi_backend *be, const struct tt_topo *t, int id,
			       char *buf, size_t size)
{
	char file[160] = "";
	struct tt_weights w;
	const char *p;

	tt_weights_clear(&w);
	tt_weights_put(&w, id, 1);
	be->writes(NULL, t, -1, &w, first_file, file);
	p = strrchr(file, '/');
	while (p && p > file && p[-1] != '/')
		p--;
	snprintf(buf, size, "%s", p ? p : file);
	return buf;
}

/* The weight each node gets in an interleave over every memory node. */
static bool node_weights(const struct tt_frame_in *in, uint32_t *w)
{
	struct tt_il_order o;
	int rc;

	if (!in->be || !in->wi)
		return false;
	rc = tt_wi_order(in->be, in->wi, in->topo, in->source_node, &in->topo->mem_nodes, &o);
	if (rc < 0)
		return false;
	for (int i = 0; i < o.n; i++)
		w[o.node[i]] = o.weight[i];
	return true;
}

static void fmt_list(const struct tt_nodemask *m, char *buf, size_t size)
{
	if (tt_bit_format_list(m->bits, TT_MAX_NODES, buf, size) < 0)
		snprintf(buf, size, "...");
}

static int cmp_pages(const void *a, const void *b)
{
	const struct tt_frame_proc *x = a, *y = b;

	return x->pages != y->pages ? (x->pages < y->pages ? 1 : -1) : x->pid - y->pid;
}

static int cmp_skew(const void *a, const void *b)
{
	const struct tt_frame_proc *x = a, *y = b;

	return x->skew != y->skew ? (x->skew < y->skew ? 1 : -1) : x->pid - y->pid;
}

static int cmp_pid(const void *a, const void *b)
{
	return ((const struct tt_frame_proc *)a)->pid - ((const struct tt_frame_proc *)b)->pid;
}

static int build_procs(struct tt_frame *f, const struct tt_frame_in *in)
{
	const struct tt_proc_scan *s = in->procs;
	double share[TT_MAX_NODES];

	f->procs_scanned = s != NULL;
	if (!s || !s->n)
		return 0;
	f->procs_skipped = s->skipped;
	if (!(f->procs = calloc((size_t)s->n, sizeof(*f->procs))))
		return tt_err(TT_EFAIL, "out of memory");
	for (int i = 0; i < s->n; i++) {
		const struct tt_proc_info *p = &s->p[i];
		struct tt_frame_proc *fp = &f->procs[f->nprocs];
		struct tt_nodemask all = p->nodes;
		bool want;
		int node;

		for (size_t k = 0; k < TT_MAX_NODES / 64; k++)
			all.bits[k] |= p->resident.bits[k];
		fp->pid = p->pid;
		snprintf(fp->comm, sizeof(fp->comm), "%s", p->comm);
		tt_numa_maps_policy(p->mode, p->flags, &p->nodes, fp->policy, sizeof(fp->policy));
		if (p->mixed && strlen(fp->policy) + 1 < sizeof(fp->policy))
			strcat(fp->policy, "+");
		fp->pages = p->total_bytes / 4096;
		memset(share, 0, sizeof(share));
		want = tt_frame_weight_shares(in->topo, in->be, in->wi, in->source_node, p->mode,
					      &p->nodes, share);
		fp->nnodes = (int)tt_nodemask_weight(&all);
		if (fp->nnodes && !(fp->nodes = calloc((size_t)fp->nnodes, sizeof(*fp->nodes))))
			return tt_err(TT_EFAIL, "out of memory");
		int k = 0;

		tt_nodemask_for_each (node, &all) {
			struct tt_frame_proc_node *pn = &fp->nodes[k++];

			pn->node = node;
			pn->pages = p->bytes[node] / 4096;
			pn->share = p->total_bytes ? (double)p->bytes[node] / (double)p->total_bytes
						   : 0;
			pn->want =
				want ? ok(tt_nodemask_test(&p->nodes, node) ? share[node] : 0) : NA;
			if (want && p->total_bytes && fabs(pn->share - pn->want.v) > fp->skew)
				fp->skew = fabs(pn->share - pn->want.v);
		}
		f->nprocs++;
	}
	qsort(f->procs, (size_t)f->nprocs, sizeof(*f->procs),
	      in->sort == TT_SORT_SKEW	? cmp_skew
	      : in->sort == TT_SORT_PID ? cmp_pid
					: cmp_pages);
	/* The reason itself is WGT's note, already in the footer: once. */
	if (!in->be && f->nprocs)
		note(f, "WANT n/a for weighted interleave: no weight interface (as WGT)");
	return 0;
}

static int add_row(struct tt_frame *f, int *cap, const struct tt_frame_row *r)
{
	if (f->nrows == *cap) {
		int nc = *cap ? *cap * 2 : 16;
		struct tt_frame_row *nr = realloc(f->rows, (size_t)nc * sizeof(*nr));

		if (!nr)
			return tt_err(TT_EFAIL, "out of memory");
		f->rows = nr;
		*cap = nc;
	}
	f->rows[f->nrows++] = *r;
	return 0;
}

static void sum_into(struct tt_frame_row *s, const struct tt_frame_row *r)
{
	s->mem_used = cell_add(s->mem_used, r->mem_used);
	s->mem_total = cell_add(s->mem_total, r->mem_total);
	s->rd = cell_add(s->rd, r->rd);
	s->wr = cell_add(s->wr, r->wr);
	s->weight = cell_add(s->weight, r->weight);
	s->wshare = cell_add(s->wshare, r->wshare);
	s->mshare = cell_add(s->mshare, r->mshare);
	s->alloc = cell_add(s->alloc, r->alloc);
}

static const struct tt_frame_row zero_row = {
	.mem_used = { TT_CELL_OK, 0 },
	.mem_total = { TT_CELL_OK, 0 },
	.rd = { TT_CELL_OK, 0 },
	.wr = { TT_CELL_OK, 0 },
	.weight = { TT_CELL_OK, 0 },
	.wshare = { TT_CELL_OK, 0 },
	.mshare = { TT_CELL_OK, 0 },
	.alloc = { TT_CELL_OK, 0 },
};

static void header(struct tt_frame *f, const struct tt_frame_in *in)
{
	const struct tt_topo *t = in->topo;
	size_t len = 0;

	f->wall = in->wall;
	snprintf(f->host, sizeof(f->host), "%s", t->hostname[0] ? t->hostname : "?");
	snprintf(f->kernel, sizeof(f->kernel), "%s",
		 t->kernel_release[0] ? t->kernel_release : "?");
	snprintf(f->iface, sizeof(f->iface), "%s", in->be ? in->be->name : "none");
	if (in->be && in->be->plan_auto && in->wi)
		snprintf(f->mode, sizeof(f->mode), "%s",
			 in->wi->auto_mode == 1	  ? "auto"
			 : in->wi->auto_mode == 0 ? "manual"
						  : "manual, no auto file");
	f->source_node = in->source_node;
	f->interval_s = in->interval_s;
	f->paused = in->paused;
	f->view = in->view;
	f->sort = in->sort;
	f->demotion_enabled = t->demotion_enabled;
	for (int i = 0; in->feed && i < in->feed->n; i++) {
		const struct tt_collector *c = in->feed->src[i]->c;
		int n = snprintf(f->collectors + len, sizeof(f->collectors) - len, "%s%s%s",
				 i ? ", " : "", c->name,
				 c->flags & TT_C_SIMULATED ? " (SIMULATED)" : "");

		if (n > 0 && (size_t)n < sizeof(f->collectors) - len)
			len += (size_t)n;
		f->simulated |= (c->flags & TT_C_SIMULATED) != 0;
		if (f->ncollectors <
		    (int)(sizeof(f->collector_names) / sizeof(*f->collector_names)))
			snprintf(f->collector_names[f->ncollectors++], sizeof(*f->collector_names),
				 "%s", c->name);
	}
	if (!len)
		snprintf(f->collectors, sizeof(f->collectors), "none");
	if (in->message)
		snprintf(f->message, sizeof(f->message), "%s", in->message);
	f->initializing = in->feed && in->feed->n && in->feed->ticks == 0;
	for (int i = 0; in->feed && i < in->feed->n; i++)
		for (int m = 0; m < in->feed->src[i]->nmetrics; m++)
			f->initializing |=
				!in->feed->v[i][m].have || in->feed->v[i][m].state == TT_S_INIT;
}

/* A frame in the making: which open source feeds which column group, and
 * what the node rows add up to so far. */
struct build {
	struct tt_frame *f;
	const struct tt_frame_in *in;
	int cap;		       /* of f->rows */
	int ts;			       /* traffic source, -1 none */
	const struct tt_collector *tc; /* its collector */
	int ms;			       /* memory statistics source, -1 none */
	uint32_t w[TT_MAX_NODES];      /* each node's weight, when have_w */
	double wshare[TT_MAX_NODES];   /* the share the weights imply */
	bool have_w, have_share;
	bool all_bw;   /* every node row has a traffic figure */
	double bw_sum; /* their sum, bytes/s */
};

/* The open source that ranks best as a traffic source (the collectors'
 * own declarations: tt_collector_traffic_rank). */
static int traffic_source(const struct tt_feed *feed)
{
	int best = -1;

	for (int i = 0; feed && i < feed->n; i++) {
		int r = tt_collector_traffic_rank(feed->src[i]->c);

		if (r >= 0 && (best < 0 || r < tt_collector_traffic_rank(feed->src[best]->c)))
			best = i;
	}
	return best;
}

static bool gives_stats(const struct tt_collector *c)
{
	return tt_collector_gives(c, TT_ROLE_ALLOC_PAGES) ||
	       tt_collector_gives(c, TT_ROLE_MEM_USED) || tt_collector_gives(c, TT_ROLE_PROMOTED) ||
	       tt_collector_gives(c, TT_ROLE_DEMOTED);
}

/* The source of allocation, memory and migration figures: the last opened
 * that gives them (a test's scripted source, opened after the built-in
 * ones, stands in for numastat). */
static int stats_source(const struct tt_feed *feed)
{
	int best = -1;

	for (int i = 0; feed && i < feed->n; i++)
		if (gives_stats(feed->src[i]->c))
			best = i;
	return best;
}

/* Traffic: READ WRITE MEAS%. Without a source, why: each traffic
 * collector that could not open, or that none was asked for. */
static void pick_traffic(struct build *b)
{
	const struct tt_feed *feed = b->in->feed;
	char why[480] = "", names[160] = "";
	size_t len = 0, nlen = 0;

	b->ts = traffic_source(feed);
	b->tc = b->ts >= 0 ? feed->src[b->ts]->c : NULL;
	if (b->tc) {
		if (!tt_collector_gives(b->tc, TT_ROLE_WRITE_BYTES) && b->tc->no_split_why)
			note(b->f, "WRITE: n/a: %s", b->tc->no_split_why);
		return;
	}
	for (int i = 0; feed && i < feed->nun; i++) {
		const struct tt_collector *c = feed->un[i].c;
		int n;

		if (!c || tt_collector_traffic_rank(c) < 0 || c->flags & TT_C_SIMULATED)
			continue;
		n = snprintf(why + len, sizeof(why) - len, "%s%s: %s", len ? "; " : "", c->name,
			     feed->un[i].why);
		if (n > 0 && (size_t)n < sizeof(why) - len)
			len += (size_t)n;
	}
	/* Named collectors (--collectors) leave the others untried: "here"
	 * would claim this machine has none. */
	if (len) {
		note(b->f, "READ WRITE MEAS%%: n/a: no traffic counter here: %s", why);
		return;
	}
	for (const struct tt_collector *const *c = tt_collectors; *c; c++) {
		int n;

		if (tt_collector_traffic_rank(*c) < 0 || (*c)->flags & TT_C_SIMULATED)
			continue;
		n = snprintf(names + nlen, sizeof(names) - nlen, "%s%s", nlen ? " and " : "",
			     (*c)->name);
		if (n > 0 && (size_t)n < sizeof(names) - nlen)
			nlen += (size_t)n;
	}
	note(b->f,
	     "READ WRITE MEAS%%: n/a: no traffic counter among the collectors asked for (%s "
	     "count traffic)",
	     names);
}

/* Allocation, memory in use, migration: ALLOC/s and the DEMOTION panel. */
static void pick_stats(struct build *b)
{
	const struct tt_feed *feed = b->in->feed;
	const struct tt_collector *want = NULL;
	const char *why = NULL;

	b->ms = stats_source(feed);
	if (b->ms >= 0)
		return;
	for (const struct tt_collector *const *c = tt_collectors; *c && !want; c++)
		if (tt_collector_gives(*c, TT_ROLE_ALLOC_PAGES))
			want = *c;
	if (!want)
		return;
	for (int i = 0; feed && i < feed->nun && !why; i++)
		if (feed->un[i].c == want)
			why = feed->un[i].why;
	note(b->f, "ALLOC/s: n/a: %s collector: %s", want->name,
	     why ? why : "not among the collectors asked for");
}

/* WGT WGT%: the weights each node has and the shares they imply. */
static void pick_weights(struct build *b)
{
	const struct tt_frame_in *in = b->in;

	b->have_w = node_weights(in, b->w);
	memset(b->wshare, 0, sizeof(b->wshare));
	b->have_share = tt_frame_weight_shares(in->topo, in->be, in->wi, in->source_node,
					       TT_MPOL_WEIGHTED_INTERLEAVE, &in->topo->mem_nodes,
					       b->wshare);
	if (!in->be)
		note(b->f, "WGT WGT%%: n/a: no weight interface: %s",
		     in->wi_why ? in->wi_why : "none");
}

static void col_cpus(struct tt_frame_row *r, const struct tt_node *n)
{
	if (!n->has_cpu) {
		snprintf(r->cpus, sizeof(r->cpus), "CPU-less");
		return;
	}
	for (int c = 0; c < n->ncpus; c++)
		tt_bit_set(r->cpu_bits, (unsigned int)n->cpus[c]);
	if (tt_bit_format_list(r->cpu_bits, TT_MAX_CPUS, r->cpus, sizeof(r->cpus)) < 0)
		snprintf(r->cpus, sizeof(r->cpus), "%d CPUs", n->ncpus);
}

/* GiB used/total: the source's figure, else meminfo's as the topology was
 * read. */
static void col_mem(struct build *b, struct tt_frame_row *r, const struct tt_node *n)
{
	r->mem_total = ok((double)n->mem_total_bytes);
	r->mem_used = cell_role(b->in, b->ms, TT_ROLE_MEM_USED, n->id);
	if (r->mem_used.st != TT_CELL_NA)
		return;
	r->mem_used = ok((double)(n->mem_total_bytes - n->mem_free_bytes));
	note(b->f, "MEM: used as meminfo said when the topology was read ('r' re-reads)");
}

/* RD WR GB/s: read and write bytes, or one total under READ. */
static void col_traffic(struct build *b, struct tt_frame_row *r, int node)
{
	const struct tt_collector *c = b->tc;

	r->rd = r->wr = NA;
	if (!c)
		return;
	r->rd = cell_role(b->in, b->ts,
			  tt_collector_gives(c, TT_ROLE_READ_BYTES) ? TT_ROLE_READ_BYTES
								    : TT_ROLE_TOTAL_BYTES,
			  node);
	r->wr = cell_role(b->in, b->ts, TT_ROLE_WRITE_BYTES, node);
	if (r->rd.st == TT_CELL_NA)
		note(b->f, "READ WRITE MEAS%%: n/a for node %d: %s has no counter for it", node,
		     c->name);
}

static void col_weight(struct build *b, struct tt_frame_row *r, int node)
{
	const struct tt_frame_in *in = b->in;
	char file[160];

	r->weight = b->have_w ? ok(b->w[node]) : NA;
	if (b->have_w && in->be->key == TT_WI_BY_NODE && !in->be->per_source &&
	    !tt_nodemask_test(&in->wi->node.set, node))
		note(b->f, "WGT: node %d has no %s file: it weighs 1", node,
		     weight_file(in->be, in->topo, node, file, sizeof(file)));
	r->wshare = b->have_share ? ok(b->wshare[node]) : NA;
}

static void col_alloc(struct build *b, struct tt_frame_row *r, int node)
{
	r->alloc = cell_role(b->in, b->ms, TT_ROLE_ALLOC_PAGES, node);
	if (b->ms >= 0 && r->alloc.st == TT_CELL_NA)
		note(b->f, "ALLOC/s: n/a: nodeN/numastat has no numa_hit and numa_miss or cannot "
			   "be read");
}

static int node_row(struct build *b, const struct tt_node *n, int tier)
{
	struct tt_frame_row r = zero_row;

	r.kind = TT_ROW_NODE;
	r.node = n->id;
	r.tier = tier;
	col_cpus(&r, n);
	col_mem(b, &r, n);
	col_traffic(b, &r, n->id);
	col_weight(b, &r, n->id);
	col_alloc(b, &r, n->id);
	if (r.rd.st == TT_CELL_OK)
		b->bw_sum += r.rd.v + (r.wr.st == TT_CELL_OK ? r.wr.v : 0);
	else
		b->all_bw = false;
	return add_row(b->f, &b->cap, &r);
}

/* A tier's memory nodes (tier -1: those in none), then its subtotal. */
static int tier_rows(struct build *b, int tier)
{
	const struct tt_topo *t = b->in->topo;
	struct tt_frame_row sub = zero_row;
	int first = b->f->nrows, rc = 0;

	for (int i = 0; i < t->nnodes && rc == 0; i++) {
		const struct tt_node *n = &t->nodes[i];

		if (!n->has_memory || n->tier != tier)
			continue;
		rc = node_row(b, n, tier);
		if (rc == 0)
			tt_bit_set(sub.members.bits, (unsigned int)n->id);
	}
	if (rc || first == b->f->nrows)
		return rc;
	sub.kind = TT_ROW_TIER;
	sub.tier = tier;
	fmt_list(&sub.members, sub.cpus, sizeof(sub.cpus));
	for (int r = first; r < b->f->nrows; r++)
		sum_into(&sub, &b->f->rows[r]);
	return add_row(b->f, &b->cap, &sub);
}

/* MEAS%: of the traffic to every memory node, so only when every one has
 * a figure (a share of part of the machine would look like the whole). */
static void col_share(struct build *b, struct tt_frame_row *row)
{
	if (!b->tc) {
		row->mshare = NA;
	} else if (b->tc->scope_why) {
		row->mshare = NA;
		note(b->f, "MEAS%%: n/a: READ is %s", b->tc->scope_why);
	} else if (row->rd.st != TT_CELL_OK) {
		row->mshare = row->rd;
		row->mshare.v = 0;
	} else if (!b->all_bw) {
		row->mshare = NA;
		note(b->f, "MEAS%%: n/a: not every memory node has a traffic figure");
	} else if (b->bw_sum <= 0) {
		row->mshare = NA;
	} else {
		row->mshare =
			ok((row->rd.v + (row->wr.st == TT_CELL_OK ? row->wr.v : 0)) / b->bw_sum);
	}
}

/* Tier subtotals of the shares, then the machine's total row. */
static int totals(struct build *b)
{
	struct tt_frame *f = b->f;
	struct tt_frame_row total = zero_row;

	for (int r = 0, first = 0; r < f->nrows; r++) {
		struct tt_frame_row *sub = &f->rows[r];

		if (sub->kind != TT_ROW_TIER)
			continue;
		sub->mshare = ok(0);
		for (int k = first; k < r; k++)
			sub->mshare = cell_add(sub->mshare, f->rows[k].mshare);
		sum_into(&total, sub);
		first = r + 1;
	}
	total.kind = TT_ROW_TOTAL;
	total.tier = -1;
	f->total_bw = total.rd.st == TT_CELL_OK ? b->bw_sum : NAN;
	f->slow_share = NAN;
	return add_row(f, &b->cap, &total);
}

static int rows(struct build *b)
{
	const struct tt_topo *t = b->in->topo;
	int rc = 0;

	/* Tiers in ascending id (fastest first), then the nodes in no tier. */
	for (int ti = 0; ti <= t->ntiers && rc == 0; ti++)
		rc = tier_rows(b, ti < t->ntiers ? t->tiers[ti].id : -1);
	for (int r = 0; r < b->f->nrows && rc == 0; r++)
		if (b->f->rows[r].kind == TT_ROW_NODE)
			col_share(b, &b->f->rows[r]);
	if (b->tc && b->all_bw && b->bw_sum <= 0 && !b->tc->scope_why)
		note(b->f, "MEAS%%: n/a: no traffic in this interval");
	return rc ? rc : totals(b);
}

/* The sparkline history, and the slow tiers' share of this frame's. */
static void history(struct build *b)
{
	struct tt_frame *f = b->f;
	const struct tt_frame_in *in = b->in;
	const struct tt_topo *t = in->topo;

	if (f->rows[f->nrows - 1].mshare.st == TT_CELL_OK && t->ntiers > 1) {
		f->slow_share = 0;
		for (int r = 0; r < f->nrows; r++)
			if (f->rows[r].kind == TT_ROW_NODE && f->rows[r].tier != t->tiers[0].id)
				f->slow_share += f->rows[r].mshare.v;
	}
	f->nhist = in->nhist < TT_HISTORY ? in->nhist : TT_HISTORY;
	for (int i = 0; i < f->nhist; i++) {
		f->hist_bw[i] = in->hist_bw[in->nhist - f->nhist + i];
		f->hist_slow[i] = in->hist_slow[in->nhist - f->nhist + i];
	}
}

/* A node's demotion and promotion rates (nodeN/vmstat, see
 * collectors/c-numastat.c for which node counts what). */
static void node_migration(struct build *b, struct tt_frame_demote *nd)
{
	if (b->ms < 0) {
		nd->demote = nd->promote = NA;
		return; /* the footer already says why there is no numastat */
	}
	nd->demote = cell_role(b->in, b->ms, TT_ROLE_DEMOTED, nd->node);
	nd->promote = cell_role(b->in, b->ms, TT_ROLE_PROMOTED, nd->node);
	if (nd->demote.st == TT_CELL_NA)
		note(b->f, "DEMOTED/s per node: n/a: nodeN/vmstat has no pgdemote_* counter or "
			   "cannot be read (kernels before 6.8 count demotions machine-wide only, "
			   "in /proc/vmstat)");
	if (nd->promote.st == TT_CELL_NA)
		note(b->f, "PROMOTED/s per node: n/a: nodeN/vmstat has no pgpromote_success or "
			   "cannot be read (Linux 5.18+ with CONFIG_NUMA_BALANCING counts it)");
}

/* The DEMOTION panel: pages/s demoted (the sum of the pgdemote_* counters
 * this kernel has, by reclaim, direct reclaim, khugepaged and proactive
 * reclaim alike) and promoted, for the machine (/proc/vmstat) and each
 * memory node with its targets as the kernel computes them. */
static int migration(struct build *b)
{
	struct tt_frame *f = b->f;
	const struct tt_topo *t = b->in->topo;

	f->promote = cell_role(b->in, b->ms, TT_ROLE_PROMOTED, -1);
	f->demote = cell_role(b->in, b->ms, TT_ROLE_DEMOTED, -1);
	if (b->ms >= 0 && (f->promote.st == TT_CELL_NA || f->demote.st == TT_CELL_NA))
		note(f, "all nodes: n/a: /proc/vmstat lacks pgpromote_success or pgdemote_* or "
			"cannot be read");
	for (int i = 0; i < t->nnodes; i++) {
		const struct tt_node *n = &t->nodes[i];
		struct tt_frame_demote *nd;

		if (!n->has_memory)
			continue;
		nd = realloc(f->demote_to, (size_t)(f->ndemote + 1) * sizeof(*nd));
		if (!nd)
			return tt_err(TT_EFAIL, "out of memory");
		f->demote_to = nd;
		nd += f->ndemote++;
		memset(nd, 0, sizeof(*nd));
		nd->node = n->id;
		fmt_list(&n->demote_preferred, nd->preferred, sizeof(nd->preferred));
		fmt_list(&n->demote_allowed, nd->allowed, sizeof(nd->allowed));
		nd->preferred_set = n->demote_preferred;
		nd->allowed_set = n->demote_allowed;
		node_migration(b, nd);
	}
	return 0;
}

/* SIMULATED: whose figures are not measured (the last simulated source
 * opened, as the statistics' source). */
static void simulated_note(struct build *b)
{
	const struct tt_feed *feed = b->in->feed;
	const char *what = "";

	for (int i = 0; feed && i < feed->n; i++)
		if (feed->src[i]->c->flags & TT_C_SIMULATED)
			what = feed->src[i]->c->simulated_as;
	note(b->f, "SIMULATED: figures from %s are not measured on this machine", what);
}

int tt_frame_build(struct tt_frame *f, const struct tt_frame_in *in)
{
	struct build b = { .f = f, .in = in, .all_bw = true };
	int rc;

	memset(f, 0, sizeof(*f));
	header(f, in);
	pick_traffic(&b);
	pick_stats(&b);
	pick_weights(&b);
	rc = rows(&b);
	if (rc == 0)
		history(&b);
	if (rc == 0)
		rc = migration(&b);
	if (rc == 0)
		rc = build_procs(f, in);
	if (f->simulated)
		simulated_note(&b);
	if (rc < 0)
		tt_frame_release(f);
	return rc;
}

void tt_frame_release(struct tt_frame *f)
{
	for (int i = 0; i < f->nprocs; i++)
		free(f->procs[i].nodes);
	free(f->procs);
	free(f->rows);
	free(f->demote_to);
	memset(f, 0, sizeof(*f));
}

void tt_proc_scan_release(struct tt_proc_scan *s)
{
	for (int i = 0; i < s->n; i++)
		free(s->p[i].bytes);
	free(s->p);
	memset(s, 0, sizeof(*s));
}
