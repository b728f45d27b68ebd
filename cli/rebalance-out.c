// SPDX-License-Identifier: GPL-3.0-or-later
/* tiertune rebalance's work, shared by the rebalance command and run
 * --rebalance-after (a command file calls no other's): the refusals, the
 * look at where the pages are, the plan, the moves in rounds, the record and
 * the report. The planner and mover are migrate/rebalance.c. */
#include "cli.h"

#include "../core/figure.h"
#include "../core/parse.h"
#include "../migrate/rebalance.h"
#include "../core/topo.h"
#include "../core/wi.h"
#include "../db/db.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* n pages of 4 KiB, as the size figure shows them ("14.6 MiB"), and a
 * figure's value alone ("14.6"). */
struct shown {
	char s[48];
};

static struct shown pages_text(uint64_t pages)
{
	struct shown t;

	tt_figure_text(tt_figure(TT_FIG_SIZE), (double)pages * 4096, t.s, sizeof(t.s));
	return t;
}

static struct shown value_text(enum tt_figure_id id, double v)
{
	struct shown t;

	tt_figure_print(tt_figure(id), v, t.s, sizeof(t.s));
	return t;
}

static struct shown rate_text(double bytes_s)
{
	struct shown t;

	tt_figure_text(tt_figure(TT_FIG_MOVE_RATE), bytes_s, t.s, sizeof(t.s));
	return t;
}

struct progress {
	double last_s;
	bool tty;
};

static int show_progress(void *ctx, const struct tt_rb_progress *p)
{
	struct progress *pr = ctx;

	if (p->elapsed_s - pr->last_s < 1 && p->moved_pages + p->failed_pages < p->planned_pages)
		return 0;
	pr->last_s = p->elapsed_s;
	fprintf(stderr, "%stiertune rebalance: moved %s of %s (%.0f%%), %s%s", pr->tty ? "\r" : "",
		value_text(TT_FIG_SIZE, (double)p->moved_pages * 4096).s,
		pages_text(p->planned_pages).s,
		p->planned_pages ? 100.0 * (double)p->moved_pages / (double)p->planned_pages : 100,
		rate_text(p->elapsed_s > 0 ? (double)p->moved_pages * 4096 / p->elapsed_s : 0).s,
		pr->tty ? "" : "\n");
	return 0;
}

/* Text wrapped at 80 columns, continuation lines indented. */
static void print_wrapped(const char *lead, const char *text)
{
	size_t col = strlen(lead);

	fputs(lead, stdout);
	while (*text) {
		size_t word = strcspn(text, " ");

		if (col > strlen(lead) && col + 1 + word > 79) {
			printf("\n%*s", (int)strlen(lead), "");
			col = strlen(lead);
		} else if (col > strlen(lead)) {
			putchar(' ');
			col++;
		}
		printf("%.*s", (int)word, text);
		col += word;
		text += word;
		text += strspn(text, " ");
	}
	putchar('\n');
}

static json_t *per_node(const uint64_t *v, const struct tt_nodemask *m)
{
	json_t *o = json_object();
	char key[16];
	int id;

	tt_nodemask_for_each (id, m) {
		snprintf(key, sizeof(key), "%d", id);
		json_object_set_new(o, key, json_integer((json_int_t)v[id]));
	}
	return o;
}

/* The nodes a table shows: those with pages or a weight. */
static void shown(const struct tt_rb_counts *c, const struct tt_weights *w, struct tt_nodemask *m)
{
	*m = c->nodes;
	for (int i = 0; i < TT_MAX_NODES / 64; i++)
		m->bits[i] |= w->set.bits[i];
}

static uint64_t bp_of(uint64_t pages, uint64_t total)
{
	return total ? (pages * TT_RB_BP + total / 2) / total : 0;
}

static json_t *counts_json(const struct tt_rb_counts *c, const uint64_t *want,
			   const struct tt_weights *w)
{
	struct tt_nodemask m;
	uint64_t bp[TT_MAX_NODES];

	shown(c, w, &m);
	/* Shares held, apportioned as the targets are, so they too sum to 10000. */
	if (tt_rb_apportion(TT_RB_BP, c->pages, TT_MAX_NODES, bp) < 0)
		memset(bp, 0, sizeof(bp));
	return json_pack("{s:I,s:o,s:o,s:f}", "total_pages", (json_int_t)c->total, "node_pages",
			 per_node(c->pages, &m), "shares_bp", per_node(bp, &m), "off_bp",
			 tt_rb_off_bp(c, want));
}

static void print_table(const char *title, const struct tt_rb_counts *c, const uint64_t *want,
			const uint32_t *target_bp, const struct tt_weights *w)
{
	struct tt_nodemask m;
	int id;

	shown(c, w, &m);
	printf("%s\n%6s %12s %9s %10s %13s %12s\n", title, "node", "pages", "share_bp", "target_bp",
	       "target_pages", "to_move");
	tt_nodemask_for_each (id, &m)
		printf("%6d %12" PRIu64 " %9" PRIu64 " %10u %13" PRIu64 " %+12" PRId64 "\n", id,
		       c->pages[id], bp_of(c->pages[id], c->total), target_bp[id], want[id],
		       (int64_t)want[id] - (int64_t)c->pages[id]);
}

static void print_failed(const struct tt_rb_result *r)
{
	uint64_t failed = r->ebusy + r->efault + r->enoent + r->eacces + r->enomem + r->other;
	char full[256];

	if (tt_nodemask_weight(&r->full)) {
		tt_bit_format_list(r->full.bits, TT_MAX_NODES, full, sizeof(full));
		printf("node%s %s had no room (ENOMEM): the pages that fit moved, no more were "
		       "sent there\n",
		       tt_nodemask_weight(&r->full) == 1 ? "" : "s", full);
	}
	if (!failed)
		return;
	printf("could not move %" PRIu64 " pages:", failed);
	if (r->ebusy)
		printf(" %" PRIu64 " busy (EBUSY: pinned or under I/O)", r->ebusy);
	if (r->efault)
		printf(" %" PRIu64 " unmapped or zero pages (EFAULT)", r->efault);
	if (r->enoent)
		printf(" %" PRIu64 " no longer present (ENOENT)", r->enoent);
	if (r->eacces)
		printf(" %" PRIu64 " shared with another process (EACCES; --move-all with "
		       "CAP_SYS_NICE moves them)",
		       r->eacces);
	if (r->enomem)
		printf(" %" PRIu64 " target node full (ENOMEM)", r->enomem);
	if (r->other)
		printf(" %" PRIu64 " other", r->other);
	printf("\n");
}

static void add_result(struct tt_rb_result *sum, const struct tt_rb_result *r)
{
	sum->planned += r->planned;
	sum->moved += r->moved;
	/* Not the failures: tt_rb_failed_count counts each page once over
	 * every round when the rounds end. */
	sum->calls += r->calls;
	sum->elapsed_s += r->elapsed_s;
	for (int i = 0; i < TT_MAX_NODES / 64; i++) {
		sum->full.bits[i] |= r->full.bits[i];
		sum->forbidden.bits[i] |= r->forbidden.bits[i];
	}
	sum->gone |= r->gone;
	sum->unreachable |= r->unreachable;
	if (r->unreachable)
		sum->unreachable_errno = r->unreachable_errno;
	sum->stopped |= r->stopped;
}

static json_t *result_json(const struct tt_rb_result *r)
{
	json_t *full = json_array(), *forbidden = json_array(), *out;
	int id;

	tt_nodemask_for_each (id, &r->full)
		json_array_append_new(full, json_integer(id));
	tt_nodemask_for_each (id, &r->forbidden)
		json_array_append_new(forbidden, json_integer(id));
	out = json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:o,s:b}", "planned_pages",
			(json_int_t)r->planned, "moved_pages", (json_int_t)r->moved, "ebusy_pages",
			(json_int_t)r->ebusy, "efault_pages", (json_int_t)r->efault, "enoent_pages",
			(json_int_t)r->enoent, "eacces_pages", (json_int_t)r->eacces,
			"enomem_pages", (json_int_t)r->enomem, "other_pages", (json_int_t)r->other,
			"calls", (json_int_t)r->calls, "elapsed_s", tt_json_real(r->elapsed_s),
			"process_gone", r->gone);
	json_object_set_new(out, "process_unreachable", json_boolean(r->unreachable));
	json_object_set_new(out, "full_nodes", full);
	json_object_set_new(out, "forbidden_nodes", forbidden);
	return out;
}

static int scan(struct tt_cli *cli, pid_t pid, struct tt_rb_scan *sc)
{
	return cli->sfs.live ? tt_rb_scan_live(&cli->sfs, pid, sc)
			     : tt_rb_scan_numa_maps(&cli->sfs, pid, sc);
}

static const char *const orders[] = { "shares", "interleave" };

/* One rebalance, from the look at the pages to the report: what the steps
 * below share. Allocated (the per-node tables are tens of KiB). */
struct rb_run {
	struct tt_cli *cli;
	const struct tt_topo *t;
	const struct tt_weights *w;
	const struct cli_rebalance_opts *o;
	int pid;
	struct tt_rb_scan sc;
	struct tt_rb_counts before, after;
	uint64_t want[TT_MAX_NODES];
	uint32_t target_bp[TT_MAX_NODES];
	struct tt_rb_result total;
	struct tt_rb_failed failed; /* over all rounds: each page that did not move, once */
	struct tt_rb_proc proc;
	struct progress pr;
	char wtext[1024], damon[512], process[320];
	/* The process's Name: escaped (core/parse.h): /proc gives a task's
	 * comm as set (prctl PR_SET_NAME takes any byte but NUL, backspaces
	 * and 0x9b included) and a captured tree anything; jansson refuses
	 * a string that is not UTF-8. Printed, put in JSON and recorded as
	 * this. */
	char name[256];
	int *dest, rounds;
	int64_t planned, run_id;
	double off, tol_bp;
	bool moving, within;
	bool looked_after;     /* after: looked at again after moves (else before's copy) */
	double planned_off_bp; /* where the plan leaves the shares; < 0: not known */
	/* Why the plan cannot meet the tolerance (pages move whole) and what
	 * would, or "". */
	char granularity[768];
	char end_reason[1024]; /* rb_end_reason, once the moves ended */
};

/* The process went away (exited, exiting) or out of reach: said so, not
 * taken for an error. */
static bool rb_lost(struct rb_run *r)
{
	if (!tt_proc_ref_alive(&r->proc.ref) || !tt_proc_has_mm(r->pid))
		r->total.gone = true;
	return r->total.gone;
}

/* The size of the scan's largest huge units ("2 MiB", "1 GiB"): the
 * granularity that a target finer than it meets. */
static const char *huge_size(const struct tt_rb_scan *sc, char *buf, size_t size)
{
	uint64_t pages = 0;

	for (size_t i = 0; i < sc->n; i++)
		if (sc->units[i].huge && sc->units[i].pages > pages)
			pages = sc->units[i].pages;
	tt_page_size_text(pages * 4096, buf, size);
	return buf;
}

/* The least tolerance (percentage points, 2 decimals) that off_bp meets. */
static double fitting_pct(double off_bp)
{
	return ceil(off_bp - 1e-9) / 100;
}

/* Whether the plan can meet the tolerance at all: pages move whole, and a
 * target finer than the huge pages (or than the pages of a small process)
 * cannot be met in the kernel's interleave order, nor by the fewest moves
 * where 4 KiB pages cannot make up the rest. Named with what would meet
 * it: the shares order, or the tolerance that fits, computed. */
static int rb_fit(struct rb_run *r)
{
	struct tt_rb_fit fit;
	char what[160], alt[256], hsize[32];
	const char *order = orders[r->o->order];
	double best;
	int rc = tt_rb_fit(r->sc.units, r->sc.n, r->dest, r->want, r->w, &fit);

	if (rc < 0)
		return rc;
	r->planned_off_bp = fit.off_bp;
	if (fit.off_bp <= r->tol_bp)
		return 0;
	if (fit.huge)
		snprintf(what, sizeof(what), "pages move whole (%" PRIu64 " of them %s huge pages)",
			 fit.huge, huge_size(&r->sc, hsize, sizeof(hsize)));
	else
		snprintf(what, sizeof(what), "pages move whole (4 KiB each)");
	best = r->o->order == TT_RB_INTERLEAVE && fit.shares_off_bp < fit.off_bp ? fit.shares_off_bp
										 : fit.off_bp;
	if (r->o->order == TT_RB_INTERLEAVE && fit.shares_off_bp <= r->tol_bp)
		snprintf(alt, sizeof(alt), "--order shares meets it (%.0f bp off)",
			 fit.shares_off_bp);
	else if (fitting_pct(best) > 50)
		snprintf(alt, sizeof(alt), "no --tolerance up to 50 fits");
	else if (best < fit.off_bp)
		snprintf(alt, sizeof(alt),
			 "--order shares with --tolerance %.2f fits (%.0f bp off)",
			 fitting_pct(best), best);
	else
		snprintf(alt, sizeof(alt), "--tolerance %.2f fits", fitting_pct(best));
	snprintf(r->granularity, sizeof(r->granularity),
		 "the tolerance of %.0f bp cannot be met: %s, and the %s order at best leaves a "
		 "share %.0f bp off its target; %s",
		 r->tol_bp, what, order, fit.off_bp, alt);
	return 0;
}

/* The refusals, the look at where the pages are, and the plan. */
static int rb_plan(struct rb_run *r)
{
	struct tt_cli *cli = r->cli;
	int rc;

	tt_weights_format(r->w, r->wtext, sizeof(r->wtext));
	rc = tt_rb_check(&cli->sfs, r->pid, r->w, r->t, r->o->move_all, &r->proc);
	if (rc == 0 && r->moving && !cli->sfs.live)
		rc = tt_err(TT_EINPUT,
			    "--sysfs-root '%s' is not this machine: its process can be shown, "
			    "not moved",
			    cli->sysfs_root);
	if (rc == 0)
		rc = tt_rb_shares_bp(r->w, r->target_bp);
	if (rc == 0) {
		rc = scan(cli, r->pid, &r->sc);
		/* Read only while it was the process checked (a pid reused
		 * meanwhile would be another's pages), as a batch is moved. */
		if (cli->sfs.live && rb_lost(r))
			rc = tt_err(TT_EINPUT,
				    "process %d exited while its pages were read: nothing "
				    "moved",
				    (int)r->pid);
	}
	if (rc < 0)
		return rc;
	tt_str_escape(r->proc.comm, r->name, sizeof(r->name));
	snprintf(r->process, sizeof(r->process), "pid %d (%s)", (int)r->pid, r->name);
	r->before = r->after = r->sc.cur;
	rc = tt_rb_targets(&r->sc.cur, r->w, r->want);
	if (rc < 0)
		return rc;
	r->off = tt_rb_off_bp(&r->sc.cur, r->want);
	if (r->sc.per_page) {
		r->dest = malloc((r->sc.n ? r->sc.n : 1) * sizeof(*r->dest));
		r->planned = r->dest ? tt_rb_plan(r->sc.units, r->sc.n, r->want, r->o->order, r->w,
						  r->dest)
				     : tt_err(TT_EFAIL, "out of memory");
	} else {
		struct tt_rb_flow f[64];
		int nf = tt_rb_flows(&r->sc.cur, r->want, f, 64);

		for (int i = 0; i < nf; i++)
			r->planned += (int64_t)f[i].pages;
	}
	if (r->planned < 0)
		return (int)r->planned;
	r->planned_off_bp = -1;
	if (r->off <= r->tol_bp)
		r->planned = 0, r->moving = false;
	else if (r->sc.per_page) {
		rc = rb_fit(r);
		if (rc < 0)
			return rc;
	}
	tt_rb_damon(&cli->sfs, r->t->kernel_release, r->damon, sizeof(r->damon));
	return 0;
}

/* The text report's first part: the process, the table, the plan. */
static void rb_print_plan(const struct rb_run *r)
{
	const struct tt_rb_scan *sc = &r->sc;
	char title[1400], head[512];

	snprintf(head, sizeof(head),
		 "process %d ('%s'): %" PRIu64 " pages (%s) of private anonymous "
		 "memory in %" PRIu64 " VMAs, %" PRIu64 " huge; %" PRIu64
		 " VMAs of files, shared or kernel memory left alone",
		 (int)r->pid, r->name, sc->cur.total, pages_text(sc->cur.total).s, sc->vmas,
		 sc->huge_units, sc->skipped_vmas);
	print_wrapped("", head);
	snprintf(title, sizeof(title),
		 "weights %s, tolerance %.2f%% (%.0f bp) per node, order %s%s", r->wtext,
		 r->o->tolerance_pct, r->tol_bp, orders[r->o->order],
		 sc->per_page ? "" : " (counts from numa_maps)");
	print_table(title, &sc->cur, r->want, r->target_bp, r->w);
	if (r->off <= r->tol_bp)
		printf("within tolerance: no node is more than %.0f bp off its share; "
		       "nothing to move\n",
		       r->off);
	else if (!r->moving)
		printf("dry run: would move %" PRId64 " pages (%s)%s; --move moves "
		       "them\n",
		       r->planned, pages_text((uint64_t)r->planned).s,
		       sc->per_page ? "" : " (per-page plan on this machine only)");
	if (r->granularity[0])
		print_wrapped("note: ", r->granularity);
	if (r->damon[0])
		print_wrapped("note: ", r->damon);
	fflush(stdout);
}

/* The moves, in rounds: each round moves, looks again (the figures after),
 * and plans what is still off, until within tolerance, nothing moved, a
 * node full, the process gone or out of reach, or --rounds. A page that
 * failed for good is not planned again (tt_rb_failed_mark), so each is
 * counted once. */
static int rb_move(struct rb_run *r)
{
	const struct cli_rebalance_opts *o = r->o;
	int rc = 0;

	while (r->moving && r->rounds < o->rounds) {
		struct tt_rb_cfg cfg = { .batch = o->batch,
					 .rate_bytes_s = o->rate_mib_s *
							 tt_figure(TT_FIG_MOVE_RATE)->divisor,
					 .move_all = o->move_all,
					 .progress = show_progress,
					 .ctx = &r->pr,
					 .failed = &r->failed };
		struct tt_rb_result res;
		bool again;

		r->pr.last_s = 0;
		r->rounds++;
		rc = tt_rb_move(&r->proc.ref, r->sc.units, r->sc.n, r->dest, &cfg, &res);
		add_result(&r->total, &res);
		if (r->pr.tty && res.calls)
			fputc('\n', stderr);
		if (rc < 0 || r->total.gone || (!res.calls && !res.moved))
			break;
		again = !res.unreachable && !res.stopped && !tt_nodemask_weight(&res.full) &&
			res.moved;
		tt_rb_scan_release(&r->sc);
		/* The look after, bracketed as a batch is: the process checked
		 * before and after, so the pages read are its own. */
		rc = rb_lost(r) ? 0 : scan(r->cli, r->pid, &r->sc);
		if (rc == 0 && rb_lost(r))
			break;
		if (rc < 0) {
			/* Exited between the move and the look after it. */
			if (rb_lost(r))
				rc = 0;
			break;
		}
		r->after = r->sc.cur;
		r->looked_after = true;
		if (tt_rb_targets(&r->sc.cur, r->w, r->want) < 0 ||
		    tt_rb_off_bp(&r->sc.cur, r->want) <= r->tol_bp || !again)
			break;
		free(r->dest);
		r->dest = malloc((r->sc.n ? r->sc.n : 1) * sizeof(*r->dest));
		tt_rb_failed_mark(&r->failed, r->sc.units, r->sc.n);
		if (!r->dest ||
		    tt_rb_plan(r->sc.units, r->sc.n, r->want, o->order, r->w, r->dest) < 0) {
			rc = tt_err(TT_EFAIL, "cannot plan the next round");
			break;
		}
	}
	tt_rb_failed_count(&r->failed, &r->total);
	return rc;
}

/* A --move is recorded even when nothing was off: the record says the
 * shares were checked and held. */
static void rb_record(struct rb_run *r)
{
	struct tt_db *db;
	int dbrc = cli_db(r->cli, 0, &db);

	if (dbrc == 0) {
		struct tt_rb_figure f[TT_RB_NFIGURES];
		struct tt_db_sample moves[TT_RB_NFIGURES];
		int nf = tt_rb_figures(&r->total, f);

		for (int i = 0; i < nf; i++)
			moves[i] = (struct tt_db_sample){ .collector = "rebalance",
							  .metric = f[i].metric,
							  .node = -1,
							  .value = f[i].value };
		dbrc = tt_db_rebalance_record(db, r->t,
					      &(struct tt_db_rebalance){
						      .command = r->cli->cmdline,
						      .process = r->process,
						      .weights = r->w,
						      .want = r->want,
						      .before = r->before.pages,
						      .after = r->after.pages,
						      .before_total = r->before.total,
						      .after_total = r->after.total,
						      .moves = moves,
						      .nmoves = (size_t)nf,
						      .within = r->within,
						      .end_reason = r->end_reason,
					      },
					      &r->run_id);
		tt_db_close(db);
	}
	if (dbrc < 0) {
		cli_warn("the rebalance was not recorded: %s", tt_err_msg());
		r->run_id = 0;
	}
}

static json_t *rb_json(const struct rb_run *r)
{
	const struct tt_weights *w = r->w;
	const struct tt_rb_result *total = &r->total;
	json_t *out, *bp = json_object();
	char key[16];
	int id;

	tt_nodemask_for_each (id, &w->set) {
		snprintf(key, sizeof(key), "%d", id);
		json_object_set_new(bp, key, json_integer(r->target_bp[id]));
	}
	out = json_pack("{s:i,s:s,s:b,s:s,s:f,s:o,s:o,s:o,s:I,s:I,s:I,s:I}", "pid", (int)r->pid,
			"process", r->name, "dry_run", !r->o->move, "order", orders[r->o->order],
			"tolerance_bp", r->tol_bp, "weights", tt_json_weights(w), "target_bp", bp,
			"before", counts_json(&r->before, r->want, w), "planned_pages",
			(json_int_t)r->planned, "huge_units", (json_int_t)r->sc.huge_units, "vmas",
			(json_int_t)r->sc.vmas, "skipped_vmas", (json_int_t)r->sc.skipped_vmas);
	json_object_set_new(out, "per_page", json_boolean(r->sc.per_page));
	json_object_set_new(out, "after",
			    r->looked_after ? counts_json(&r->after, r->want, w) : json_null());
	json_object_set_new(out, "result", r->rounds ? result_json(total) : json_null());
	json_object_set_new(out, "rounds", json_integer(r->rounds));
	json_object_set_new(out, "within_tolerance",
			    json_boolean(r->rounds ? r->within : r->off <= r->tol_bp));
	json_object_set_new(out, "run", r->run_id ? json_integer(r->run_id) : json_null());
	json_object_set_new(out, "damon", r->damon[0] ? json_string(r->damon) : json_null());
	json_object_set_new(out, "planned_off_bp",
			    r->planned_off_bp >= 0 ? tt_json_real(r->planned_off_bp) : json_null());
	json_object_set_new(out, "granularity",
			    r->granularity[0] ? json_string(r->granularity) : json_null());
	json_object_set_new(out, "end_reason",
			    r->end_reason[0] ? json_string(r->end_reason) : json_null());
	return out;
}

/* Why the moves ended short, in the report's words (printed, and the
 * record's end_reason), or "" when they ran their course: the process
 * gone, out of reach (each cause the kernel's answer tells: EPERM its
 * credentials, EACCES a node its cpuset no longer allows, else a security
 * module), a full node, an error (err). */
static void rb_end_reason(const struct rb_run *r, const char *err, char *buf, size_t size)
{
	const struct tt_rb_result *total = &r->total;
	char nodes[256];
	int nf;

	buf[0] = '\0';
	if (total->gone) {
		snprintf(buf, size, "process %d exited midway", (int)r->pid);
	} else if (total->unreachable && (nf = (int)tt_nodemask_weight(&total->forbidden))) {
		tt_bit_format_list(total->forbidden.bits, TT_MAX_NODES, nodes, sizeof(nodes));
		snprintf(buf, size,
			 "process %d's cpuset no longer allows node%s %s (not in its "
			 "Mems_allowed_list): the kernel refused to move pages there (EACCES)",
			 (int)r->pid, nf == 1 ? "" : "s", nodes);
	} else if (total->unreachable && total->unreachable_errno == EACCES) {
		snprintf(buf, size,
			 "process %d may no longer be moved (the kernel refused, EACCES: a "
			 "security module, as its cpuset allows every target node)",
			 (int)r->pid);
	} else if (total->unreachable) {
		snprintf(buf, size,
			 "process %d may no longer be moved (the kernel refused: it took other "
			 "credentials)",
			 (int)r->pid);
	} else if (err && err[0]) {
		snprintf(buf, size, "%s", err);
	} else if ((nf = (int)tt_nodemask_weight(&total->full))) {
		tt_bit_format_list(total->full.bits, TT_MAX_NODES, nodes, sizeof(nodes));
		snprintf(buf, size, "node%s %s had no room (ENOMEM)", nf == 1 ? "" : "s", nodes);
	}
}

/* The text report's second part: what the moves did. */
static void rb_print_result(const struct rb_run *r)
{
	const struct tt_rb_result *total = &r->total;

	printf("moved %" PRIu64 " of %" PRIu64 " pages (%s) in %.2f s, %" PRIu64
	       " move_pages calls, %d round%s\n",
	       total->moved, total->planned, pages_text(total->moved).s, total->elapsed_s,
	       total->calls, r->rounds, r->rounds == 1 ? "" : "s");
	print_failed(total);
	if (total->gone) {
		printf("process %d exited midway: %" PRIu64 " pages had moved\n", (int)r->pid,
		       total->moved);
		return;
	}
	if (total->unreachable) {
		char line[1200];

		snprintf(line, sizeof(line), "%s: %" PRIu64 " pages had moved", r->end_reason,
			 total->moved);
		print_wrapped("", line);
	}
	if (!r->looked_after)
		return;
	print_table("after:", &r->after, r->want, r->target_bp, r->w);
	printf("%s: the largest share off its target is %.0f bp\n",
	       r->within ? "within tolerance" : "NOT within tolerance",
	       tt_rb_off_bp(&r->after, r->want));
	if (!r->within && r->granularity[0])
		print_wrapped("note: ", r->granularity);
}

int cli_rebalance(struct tt_cli *cli, const struct tt_topo *t, int pid, const struct tt_weights *w,
		  const struct cli_rebalance_opts *o)
{
	struct rb_run *r = calloc(1, sizeof(*r));
	json_t *out = NULL;
	int rc;

	if (!r)
		return cli_fail(tt_err(TT_EFAIL, "out of memory"));
	*r = (struct rb_run){ .cli = cli,
			      .t = t,
			      .w = w,
			      .o = o,
			      .pid = pid,
			      .pr = { .tty = isatty(2) },
			      .tol_bp = o->tolerance_pct * 100,
			      .moving = o->move };
	rc = rb_plan(r);
	if (rc == 0 && !cli->json)
		rb_print_plan(r);
	if (rc == 0) {
		/* Once a page may have moved, a failure still ends with the
		 * count and the record, then the error. */
		int mrc = rb_move(r);
		char why[1024] = "";

		if (mrc < 0)
			snprintf(why, sizeof(why), "%s", tt_err_msg());
		r->within = !r->total.gone && !r->total.unreachable && mrc == 0 &&
			    tt_rb_off_bp(&r->after, r->want) <= r->tol_bp;
		/* A full node that still let every share come within the
		 * tolerance ended nothing short: no reason. */
		if (r->rounds && !r->within)
			rb_end_reason(r, why, r->end_reason, sizeof(r->end_reason));
		if (o->move && !o->no_record)
			rb_record(r);
		if (cli->json)
			out = rb_json(r);
		else if (r->rounds)
			rb_print_result(r);
		if (!cli->json && r->run_id)
			printf("recorded as run %" PRId64 "\n", r->run_id);
		rc = r->rounds && !r->within ? 1 : 0;
		if (mrc < 0)
			tt_err(mrc, "%s", why);
		if (out) {
			int prc = cli_print_json(out);

			rc = prc ? prc : rc;
		}
		/* The error's own code (2 bad input, 3 unavailable, 1 a
		 * failure), as every command exits. */
		if (mrc < 0)
			rc = cli_fail(mrc);
	}
	tt_rb_proc_release(&r->proc);
	tt_rb_failed_release(&r->failed);
	tt_rb_scan_release(&r->sc);
	free(r->dest);
	free(r);
	if (rc < 0)
		return cli_fail(rc);
	return rc;
}
