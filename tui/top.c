// SPDX-License-Identifier: GPL-3.0-or-later
/* tiertop's state between frames: what is open, what was taken, and the two
 * actions that write (a weight, its undo). No terminal here. */
#include "tui.h"

#include "../writer/apply.h"
#include "../core/deadline.h"
#include "../core/error.h"
#include "../core/root.h"
#include "../core/state.h"
#include "../db/db.h"
#include "../writer/writer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Is c opened without being named: its figures have a column (a role a
 * frame shows) and they are measured, not modelled. Core counters (pfm,
 * papi) and per-socket likwid figures declare none. */
static bool wanted(const struct tt_collector *c)
{
	static const enum tt_metric_role shown[] = {
		TT_ROLE_READ_BYTES, TT_ROLE_WRITE_BYTES, TT_ROLE_TOTAL_BYTES, TT_ROLE_ALLOC_PAGES,
		TT_ROLE_MEM_USED,   TT_ROLE_PROMOTED,	 TT_ROLE_DEMOTED,
	};
	bool any = false;

	for (size_t i = 0; i < sizeof(shown) / sizeof(*shown); i++)
		any |= tt_collector_gives(c, shown[i]);
	return any && !(c->flags & TT_C_SIMULATED);
}

static const struct tt_collector *find(const char *name)
{
	const struct tt_collector *const *test =
		tt_test_hooks ? tt_test_hooks->top_collectors : NULL;

	for (int i = 0; test && test[i]; i++)
		if (strcmp(name, test[i]->name) == 0)
			return test[i];
	return tt_collector_find(name);
}

static int add_source(struct tt_top *top, struct tt_source *s)
{
	struct tt_source **ns = realloc(top->src, (size_t)(top->nsrc + 1) * sizeof(*ns));

	if (!ns) {
		s->c->close(s);
		return tt_err(TT_EFAIL, "out of memory");
	}
	top->src = ns;
	top->src[top->nsrc++] = s;
	return 0;
}

static void close_sources(struct tt_top *top)
{
	if (top->sampler) {
		tt_sampler_stop(top->sampler);
		tt_sampler_free(top->sampler);
		top->sampler = NULL;
	}
	tt_feed_release(&top->feed);
	for (int i = 0; i < top->nsrc; i++)
		top->src[i]->c->close(top->src[i]);
	free(top->src);
	top->src = NULL;
	top->nsrc = 0;
}

/* The collectors to open: the named ones (TT_EINPUT for a name that is
 * none, or one named twice), or every wanted one and the test seam's.
 * Returns how many, or negative. */
static int pick_collectors(const struct tt_top *top, const struct tt_collector *list[32])
{
	const struct tt_collector *const *test =
		tt_test_hooks ? tt_test_hooks->top_collectors : NULL;
	int n = 0;

	if (!top->collectors) {
		for (const struct tt_collector *const *c = tt_collectors; *c && n < 31; c++)
			if (wanted(*c))
				list[n++] = *c;
		for (int i = 0; test && test[i] && n < 32; i++)
			list[n++] = test[i];
		return n;
	}
	char copy[512], *save, *tok;

	snprintf(copy, sizeof(copy), "%s", top->collectors);
	for (tok = strtok_r(copy, ",", &save); tok && n < 32; tok = strtok_r(NULL, ",", &save)) {
		if (!(list[n++] = find(tok)))
			return tt_err(TT_EINPUT, "unknown collector '%s'", tok);
		/* Twice the same counters would open them twice and show the
		 * header a collector that is not there. */
		for (int k = 0; k < n - 1; k++)
			if (list[k] == list[n - 1])
				return tt_err(TT_EINPUT, "collector '%s' named twice in '%s'", tok,
					      top->collectors);
	}
	if (!n)
		return tt_err(TT_EINPUT, "no collector named in '%s'", top->collectors);
	return n;
}

/* A collector that does not work here, and why: kept for the footer. */
struct unavailable {
	const struct tt_collector *c;
	char name[24];
	char why[256];
};

/* Opens each of list: a named one must work (TT_EUNAVAIL with the
 * reason); of the wanted ones, those that do not are kept in un. */
static int open_list(struct tt_top *top, const struct tt_collect_ctx *ctx,
		     const struct tt_collector *const *list, int n, struct unavailable un[16],
		     int *nun)
{
	char why[256];
	int rc = 0;

	for (int i = 0; i < n && rc == 0; i++) {
		struct tt_source *s;

		why[0] = '\0';
		rc = tt_collector_probe(list[i], ctx, why, sizeof(why));
		if (rc == 0)
			rc = list[i]->open(ctx, &s);
		else if (!why[0])
			snprintf(why, sizeof(why), "%s", tt_err_msg());
		if (rc == 0) {
			rc = add_source(top, s);
			continue;
		}
		if (rc == TT_EFAIL || top->collectors) {
			if (rc == TT_EUNAVAIL && why[0])
				tt_err(rc, "collector '%s' is not available: %s", list[i]->name,
				       why);
			break;
		}
		if (*nun < 16) {
			un[*nun].c = list[i];
			snprintf(un[*nun].name, sizeof(un[*nun].name), "%s", list[i]->name);
			snprintf(un[*nun].why, sizeof(un[*nun].why), "%s",
				 why[0] ? why : tt_err_msg());
			(*nun)++;
		}
		rc = 0;
	}
	return rc;
}

/* Opens the collectors: the named ones (each must work: TT_EINPUT for a
 * name that is none, TT_EUNAVAIL with the reason), or every wanted one
 * that works here, the others' reasons kept for the footer. */
static int open_sources(struct tt_top *top)
{
	struct tt_collect_ctx ctx = { .sfs = &top->sfs,
				      .topo = &top->topo,
				      .source_node = top->source_node,
				      .weights = top->be && top->be->key == TT_WI_BY_NODE &&
								 !top->be->per_source
							 ? &top->wi.node
							 : NULL };
	const struct tt_collector *list[32];
	struct unavailable un[16];
	int nun = 0, n = pick_collectors(top, list), rc;

	if (n < 0)
		return n;
	rc = open_list(top, &ctx, list, n, un, &nun);
	if (rc == 0)
		rc = tt_feed_init(&top->feed, top->src, top->nsrc);
	if (rc < 0) {
		close_sources(top);
		return rc;
	}
	for (int i = 0; i < nun; i++) {
		top->feed.un[i].c = un[i].c;
		memcpy(top->feed.un[i].name, un[i].name, sizeof(un[i].name));
		memcpy(top->feed.un[i].why, un[i].why, sizeof(un[i].why));
	}
	top->feed.nun = nun;
	if (top->nsrc)
		rc = tt_sampler_start(&top->sampler, top->src, top->nsrc, top->interval_s,
				      (size_t)(top->feed.per_tick ? top->feed.per_tick : 1) * 64);
	if (rc < 0)
		close_sources(top);
	return rc;
}

/* Weights for a topology just read; the weights' absence is a state, not
 * an error. */
static int load_weights(struct tt_top *top)
{
	int rc;

	top->topo_loaded = true;
	if (top->source_node >= 0 && (rc = tt_topo_check_source(&top->topo, top->source_node)) < 0)
		return rc;
	if (top->source_node < 0) {
		for (int i = 0; i < top->topo.nnodes && top->source_node < 0; i++)
			if (top->topo.nodes[i].has_cpu)
				top->source_node = top->topo.nodes[i].id;
	}
	tt_wi_state_init(&top->wi);
	tt_wi_first(&top->sfs, &top->be, top->wi_why, sizeof(top->wi_why));
	if (top->be && (rc = top->be->read(&top->sfs, &top->topo, &top->wi)) < 0) {
		/* A garbled weight file is named in the footer; the rest
		 * of the screen is still worth showing. */
		snprintf(top->wi_why, sizeof(top->wi_why), "%s", tt_err_msg());
		top->be = NULL;
	}
	return 0;
}

static int load(struct tt_top *top)
{
	int rc = tt_topo_load(&top->topo, &top->sfs);

	return rc < 0 ? rc : load_weights(top);
}

static void unload(struct tt_top *top)
{
	tt_wi_state_release(&top->wi);
	if (top->topo_loaded)
		tt_topo_release(&top->topo);
	top->topo_loaded = false;
}

int tt_top_open(struct tt_top *top, const char *root)
{
	int rc = tt_root_open(&top->sfs, root ? root : "/");

	if (rc == 0)
		rc = load(top);
	if (rc == 0)
		rc = open_sources(top);
	top->t0_s = tt_mono_s();
	if (rc == 0)
		rc = tt_scanner_start(&top->scanner, &top->sfs,
				      top->interval_s * 5 > 5 ? top->interval_s * 5 : 5);
	if (rc < 0)
		tt_top_close(top);
	return rc;
}

void tt_top_close(struct tt_top *top)
{
	tt_scanner_stop(top->scanner);
	top->scanner = NULL;
	close_sources(top);
	unload(top);
	tt_proc_scan_release(&top->scan);
	top->have_scan = false;
}

static void take_scan(struct tt_top *top)
{
	if (top->scanner && tt_scanner_take(top->scanner, &top->scan))
		top->have_scan = true;
}

void tt_top_take(struct tt_top *top)
{
	struct tt_reading buf[512];
	size_t got;

	while (top->sampler &&
	       (got = tt_sampler_read(top->sampler, &top->feed.seq, buf, 512, NULL)) > 0)
		tt_feed_take(&top->feed, buf, got);
	top->taken_s = 0;
	take_scan(top);
}

int tt_top_take_tick(struct tt_top *top, uint64_t i)
{
	struct tt_reading buf[512];
	uint64_t end = (i + 1) * top->feed.per_tick;
	double deadline = tt_mono_s() + 10 * top->interval_s + 5;

	if (!top->sampler) {
		/* Nothing to sample: frames still come once an interval. */
		double due = top->t0_s + (double)i * top->interval_s;

		while (tt_mono_s() < due)
			usleep(10000);
		top->taken_s = 0;
		take_scan(top);
		return 0;
	}
	while (tt_sampler_ticks(top->sampler) < i + 1) {
		if (tt_mono_s() > deadline)
			return tt_err(TT_EFAIL, "the sampler did not take sample %llu in time",
				      (unsigned long long)i + 1);
		usleep(2000);
	}
	while (top->feed.seq < end) {
		size_t want = end - top->feed.seq > 512 ? 512 : (size_t)(end - top->feed.seq);
		size_t got = tt_sampler_read(top->sampler, &top->feed.seq, buf, want, NULL);

		if (!got)
			break;
		tt_feed_take(&top->feed, buf, got);
		for (size_t k = 0; k < got; k++)
			if (buf[k].t_s > top->taken_s)
				top->taken_s = buf[k].t_s;
	}
	take_scan(top);
	return 0;
}

int tt_top_frame(struct tt_top *top, struct tt_frame *f)
{
	struct tt_frame_in in = {
		.topo = &top->topo,
		.be = top->be,
		.wi = &top->wi,
		.wi_why = top->wi_why,
		.source_node = top->source_node,
		.interval_s = top->interval_s,
		.now_s = top->taken_s > 0 ? top->taken_s : tt_mono_s(),
		.wall = time(NULL),
		.paused = top->paused,
		.view = top->view,
		.feed = &top->feed,
		.procs = top->have_scan ? &top->scan : NULL,
		.sort = top->sort,
		.message = top->message[0] ? top->message : NULL,
		.nhist = top->nhist,
		.hist_bw = top->hist_bw,
		.hist_slow = top->hist_slow,
	};
	int rc = tt_frame_build(f, &in);

	/* One history point per sample taken. */
	if (rc == 0 && top->feed.ticks > top->hist_tick) {
		top->hist_tick = top->feed.ticks;
		if (top->nhist == TT_HISTORY) {
			memmove(top->hist_bw, top->hist_bw + 1, (TT_HISTORY - 1) * sizeof(double));
			memmove(top->hist_slow, top->hist_slow + 1,
				(TT_HISTORY - 1) * sizeof(double));
			top->nhist--;
		}
		top->hist_bw[top->nhist] = f->total_bw;
		top->hist_slow[top->nhist++] = f->slow_share;
		/* The frame's own sample ends its sparkline: the rows above
		 * it and the history's newest point are the same figures. */
		f->nhist = top->nhist;
		memcpy(f->hist_bw, top->hist_bw, (size_t)top->nhist * sizeof(double));
		memcpy(f->hist_slow, top->hist_slow, (size_t)top->nhist * sizeof(double));
	}
	return rc;
}

int tt_top_restart(struct tt_top *top)
{
	close_sources(top);
	top->hist_tick = 0;
	if (top->scanner)
		tt_scanner_set_period(top->scanner,
				      top->interval_s * 5 > 5 ? top->interval_s * 5 : 5);
	return open_sources(top);
}

int tt_top_reread(struct tt_top *top, bool *kept)
{
	struct tt_topo t;
	int rc = tt_topo_load(&t, &top->sfs);

	/* A node going away as it is read (hot-remove) fails the read: the
	 * old topology and collectors stay, and the screen goes on. */
	*kept = rc < 0;
	if (rc < 0)
		return rc;
	close_sources(top);
	unload(top);
	top->hist_tick = 0;
	top->topo = t;
	/* The viewed source node may be the one that went. */
	if (top->source_node >= 0 && tt_topo_check_source(&top->topo, top->source_node) < 0)
		top->source_node = -1;
	rc = load_weights(top);
	if (rc == 0)
		rc = open_sources(top);
	if (rc == 0 && top->scanner)
		tt_scanner_kick(top->scanner);
	return rc;
}

void tt_top_next_source(struct tt_top *top)
{
	const struct tt_topo *t = &top->topo;
	int at = -1;

	for (int i = 0; i < t->nnodes; i++)
		if (t->nodes[i].id == top->source_node)
			at = i;
	for (int k = 1; k <= t->nnodes; k++) {
		const struct tt_node *n = &t->nodes[(at + k + t->nnodes) % t->nnodes];

		if (n->has_cpu) {
			top->source_node = n->id;
			return;
		}
	}
}

static int reread_weights(struct tt_top *top)
{
	tt_wi_state_release(&top->wi);
	tt_wi_state_init(&top->wi);
	return top->be ? top->be->read(&top->sfs, &top->topo, &top->wi) : 0;
}

/* A write or its undo mirrored into the database as tiertune apply and
 * restore record theirs, for runs and show (the writer's record hook). The
 * way back is the state folder's history, already fsynced: a database
 * that cannot be written costs a word in the message, not the write. */
struct edit {
	struct tt_top *top;
	const char *command; /* "tiertop: w 2:3" */
	const char *text;    /* what was typed */
	char db_why[160];    /* "; not recorded in the database: ..." */
};

static void record(void *ctx, const struct tt_topo *t, const char *kind, const char *objective,
		   const struct tt_apply_plan *p)
{
	struct edit *e = ctx;
	char path[4096];
	struct tt_db *db;
	int rc = tt_db_default_path(path, sizeof(path));

	if (rc == 0)
		rc = tt_db_open(&db, path, 0);
	if (rc == 0) {
		/* tiertop's records name no objective, the undo's included. */
		(void)objective;
		rc = tt_db_apply_record(db, t, kind, e->command, NULL, p);
		tt_db_close(db);
	}
	if (rc < 0)
		snprintf(e->db_why, sizeof(e->db_why), "; not recorded in the database: %.100s",
			 tt_err_msg());
}

/* Before the writer: an interface to write, and root for the live one. */
static int may_write(struct tt_top *top)
{
	if (!top->be)
		return tt_err(TT_EUNAVAIL, "no weight interface to write: %s", top->wi_why);
	if (top->sfs.live && geteuid() != 0)
		return tt_err(TT_EUNAVAIL, "writing weights needs root (the kernel's weight files "
					   "are root's): run tiertop as root");
	return 0;
}

/* The writer's planner for w: one typed weight, checked as apply checks. */
static int plan_edit(void *ctx, struct tt_apply_plan *p)
{
	const struct edit *e = ctx;
	struct tt_top *top = e->top;
	int src = top->be->per_source ? top->source_node : -1;
	struct tt_weights w;
	int rc = tt_weights_parse(e->text, &w);

	if (rc == 0 && tt_nodemask_weight(&w.set) != 1)
		rc = tt_err(TT_EINPUT, "one %s:weight at a time, got '%s'", top->be->unit, e->text);
	/* The one check apply, restore and profiles use. */
	if (rc == 0)
		rc = tt_wi_check(top->be, &top->sfs, &top->topo, src, &w);
	return rc < 0 ? rc : tt_apply_plan_weights(p, &top->topo, src, &w);
}

static int edit(struct tt_top *top, struct edit *e, enum tt_writer_kind kind,
		struct tt_writer_result *res)
{
	struct tt_writer_req rq = {
		.kind = kind,
		.from = kind == TT_WRITER_RESTORE ? TT_WRITER_LAST : TT_WRITER_PLANNER,
		.sfs = &top->sfs,
		.topo = &top->topo,
		.be = top->be,
		.source = -1,
		.hooks = { .ctx = e, .record = record, .plan = plan_edit, .plan_ctx = e },
	};
	int rc = may_write(top);

	if (rc == 0)
		return tt_writer_run(&rq, res);
	memset(res, 0, sizeof(*res));
	return rc;
}

int tt_top_write_weight(struct tt_top *top, const char *text)
{
	char command[96];
	struct edit e = { .top = top, .command = command, .text = text };
	struct tt_writer_result res;
	int rc;

	snprintf(command, sizeof(command), "tiertop: w %.60s", text);
	rc = edit(top, &e, TT_WRITER_TOP_EDIT, &res);
	/* As tiertune apply: a value already as typed is left alone, and an
	 * empty write would only put a no-op on the undo stack ('u' would
	 * then undo nothing). */
	if (rc == 0 && res.nothing)
		snprintf(top->message, sizeof(top->message),
			 "nothing written: %.60s is already as wanted", text);
	else if (rc == 0 &&
		 /* The file as written: under --sysfs-root, the copy's, not
		  * /sys. A message longer than the status line is cut there. */
		 snprintf(top->message, sizeof(top->message),
			  "wrote %s%s%s (%d value%s read back; 'u' or 'tiertune restore --last' "
			  "undoes)%s",
			  top->sfs.root, res.plan.w[0].file,
			  res.auto_turned_off ? ", auto mode off" : "", res.written,
			  res.written == 1 ? "" : "s", e.db_why) >= (int)sizeof(top->message))
		memcpy(top->message + sizeof(top->message) - 4, "...", 4);
	tt_writer_result_release(&res);
	if (rc == 0 && !res.nothing)
		rc = reread_weights(top);
	return rc;
}

int tt_top_undo(struct tt_top *top)
{
	struct edit e = { .top = top, .command = "tiertop: u" };
	struct tt_writer_result res;
	int rc = edit(top, &e, TT_WRITER_RESTORE, &res);

	if (rc == 0) {
		time_t t = (time_t)res.when;
		struct tm tm;
		char at[32] = "?";

		if (localtime_r(&t, &tm))
			strftime(at, sizeof(at), "%Y-%m-%d %H:%M:%S", &tm);
		snprintf(top->message, sizeof(top->message),
			 "undid the change of %s: %d value%s put back%s", at, res.written,
			 res.written == 1 ? "" : "s", e.db_why);
	}
	tt_writer_result_release(&res);
	if (rc == 0)
		rc = reread_weights(top);
	return rc;
}
