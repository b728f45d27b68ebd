// SPDX-License-Identifier: GPL-3.0-or-later
/* A frame as lines of text (for --once, --batch and the curses screen alike,
 * so what a test reads is what a user sees) and as one JSON object. Text
 * fits 80 columns; numbers are right-aligned with their unit in the
 * heading. */
#include "frame.h"

#include "../core/error.h"
#include "../core/figure.h"
#include "../core/parse.h"
#include "../core/version.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

struct out {
	tt_line_fn fn;
	void *ctx;
	int width;
};

static void line(struct out *o, int style, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void line(struct out *o, int style, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* Trailing blanks would differ from what a terminal capture shows. */
	for (size_t n = strlen(buf); n && buf[n - 1] == ' ';)
		buf[--n] = '\0';
	if (o->width > 0 && (int)strlen(buf) > o->width)
		buf[o->width] = '\0';
	o->fn(o->ctx, style, buf);
}

/* Words of text wrapped at width, the first line after lead, the others
 * indented by its length. */
static void wrapped(struct out *o, int style, const char *lead, const char *text)
{
	int width = o->width > 0 ? o->width : 80, ind = (int)strlen(lead);
	char buf[1024];
	const char *p = text;
	bool first = true;

	/* Narrower than the lead and a word (a terminal of 11 columns and
	 * "collectors "): a room of 0 took no text and looped for ever, a
	 * negative one stepped back before the text. The lead gets a line of
	 * its own and the text the whole width. */
	if (width - ind < 8) {
		if (*lead)
			line(o, style, "%s", lead);
		lead = "";
		ind = 0;
	}
	if (width > (int)sizeof(buf) - 1 - ind)
		width = (int)sizeof(buf) - 1 - ind;
	while (*p) {
		int room = width - ind, n = (int)strlen(p);

		if (n > room) {
			n = room;
			while (n > 0 && p[n] != ' ')
				n--;
			if (n == 0)
				n = room;
		}
		snprintf(buf, sizeof(buf), "%*s%.*s", ind, first ? lead : "", n, p);
		if (first)
			memcpy(buf, lead, (size_t)ind);
		line(o, style, "%s", buf);
		first = false;
		p += n;
		while (*p == ' ')
			p++;
	}
}

static const char *state_text(enum tt_cell_state st)
{
	return st == TT_CELL_NA ? "n/a" : st == TT_CELL_INIT ? "init" : "stale";
}

/* value * scale with fmt, or the state's word. */
static const char *cellf(char *buf, size_t size, struct tt_cell c, const char *fmt, double scale)
{
	if (c.st != TT_CELL_OK)
		snprintf(buf, size, "%s", state_text(c.st));
	else
		snprintf(buf, size, fmt, c.v * scale);
	return buf;
}

/* A figure's cell (core/figure.h), or the state's word. */
static const char *cell_figure(char *buf, size_t size, struct tt_cell c, enum tt_figure_id id)
{
	if (c.st != TT_CELL_OK)
		return cellf(buf, size, c, "", 1);
	tt_figure_print(tt_figure(id), c.v, buf, size);
	return buf;
}

/* A rate in pages/s in at most 7 columns: 950, 12.3k, 4.50M. */
static const char *rate(char *buf, size_t size, struct tt_cell c)
{
	if (c.st != TT_CELL_OK)
		return cellf(buf, size, c, "", 1);
	if (c.v < 10000)
		snprintf(buf, size, "%.0f", c.v);
	else if (c.v < 1e7)
		snprintf(buf, size, "%.1fk", c.v / 1e3);
	else
		snprintf(buf, size, "%.2fM", c.v / 1e6);
	return buf;
}

static const char spark[] = " .:-=+*#%@";

static void sparkline(const double *v, int n, double max, char *buf, size_t size)
{
	size_t k = 0;

	for (int i = 0; i < n && k + 1 < size; i++) {
		int lvl;

		if (isnan(v[i]))
			buf[k++] = '?';
		else {
			lvl = max > 0 ? (int)lround(v[i] / max * 9) : 0;
			buf[k++] = spark[lvl < 0 ? 0 : lvl > 9 ? 9 : lvl];
		}
	}
	buf[k] = '\0';
}

#define ROW_FMT "%4s %4s %-10s %15s %7s %7s %4s %6s %6s %7s"

static void row_line(struct out *o, const struct tt_frame_row *r)
{
	char node[12], tier[12], mem[40], u[16], t[16], rd[16], wr[16], w[16], ws[16], ms[16],
		al[16];
	const char *cpus = r->cpus;
	char safe[32];

	if (r->kind == TT_ROW_NODE)
		snprintf(node, sizeof(node), "%d", r->node);
	else
		snprintf(node, sizeof(node), "%s", r->kind == TT_ROW_TIER ? "sum" : "all");
	if (r->kind == TT_ROW_TOTAL)
		tier[0] = '\0';
	else if (r->tier < 0)
		snprintf(tier, sizeof(tier), "none");
	else
		snprintf(tier, sizeof(tier), "%d", r->tier);
	if (r->kind == TT_ROW_TIER) {
		snprintf(safe, sizeof(safe), "nodes %s", r->cpus);
		cpus = safe;
	} else if (r->kind == TT_ROW_TOTAL) {
		cpus = "";
	}
	snprintf(mem, sizeof(mem), "%8s/%-6s",
		 cellf(u, sizeof(u), r->mem_used, "%.1f", 1.0 / (1 << 30)),
		 cellf(t, sizeof(t), r->mem_total, "%.1f", 1.0 / (1 << 30)));
	line(o, r->kind == TT_ROW_NODE ? 0 : 2, ROW_FMT, node, tier, cpus, mem,
	     cell_figure(rd, sizeof(rd), r->rd, TT_FIG_BANDWIDTH),
	     cell_figure(wr, sizeof(wr), r->wr, TT_FIG_BANDWIDTH),
	     cellf(w, sizeof(w), r->weight, "%.0f", 1),
	     cellf(ws, sizeof(ws), r->wshare, "%.1f%%", 100),
	     cellf(ms, sizeof(ms), r->mshare, "%.1f%%", 100), rate(al, sizeof(al), r->alloc));
}

/* The header: host, kernel (it gives way first), time; interface; the
 * collectors. */
static void head_lines(struct out *o, const struct tt_frame *f)
{
	char when[32], host[300], kernel[160], buf[256];
	struct tm tm;

	localtime_r(&f->wall, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	tt_str_escape(f->host, host, sizeof(host));
	tt_str_escape(f->kernel, kernel, sizeof(kernel));
	/* The time is what changes: when the line is too wide, the kernel
	 * release gives way ("6.12.57+bpo-cl..."), not the time. */
	if (o->width > 0) {
		int over = (int)(strlen("tiertop  host   kernel   ") + strlen(host) +
				 strlen(kernel) + strlen(when)) -
			   o->width;
		int keep = (int)strlen(kernel) - over - 3;

		if (over > 0 && keep >= 4)
			strcpy(kernel + keep, "...");
		else if (over > 0)
			kernel[0] = '\0'; /* too narrow for even "6.1...": it goes */
	}
	if (kernel[0])
		line(o, 1, "tiertop  host %s  kernel %s  %s", host, kernel, when);
	else
		line(o, 1, "tiertop  host %s  %s", host, when);
	if (f->source_node >= 0)
		snprintf(buf, sizeof(buf), "%d", f->source_node);
	else
		snprintf(buf, sizeof(buf), "none");
	line(o, 0, "weights %s%s%s%s  source node %s  every %.1f s", f->iface,
	     f->mode[0] ? " (" : "", f->mode, f->mode[0] ? ")" : "", buf, f->interval_s);
	snprintf(buf, sizeof(buf), "%s%s%s", f->collectors,
		 f->initializing ? "  [initializing]" : "", f->paused ? "  [paused]" : "");
	wrapped(o, 0, "collectors ", buf);
}

static void history_lines(struct out *o, const struct tt_frame *f)
{
	bool known = false;
	double max = 0;
	char s[TT_HISTORY + 1], m[32];

	for (int i = 0; i < f->nhist; i++)
		known |= !isnan(f->hist_bw[i]);
	if (f->nhist > 1 && !known) {
		line(o, 0, "history  n/a (no traffic figures to draw)");
		return;
	}
	if (f->nhist <= 1)
		return;
	for (int i = 0; i < f->nhist; i++)
		if (!isnan(f->hist_bw[i]) && f->hist_bw[i] > max)
			max = f->hist_bw[i];
	sparkline(f->hist_bw, f->nhist, max, s, sizeof(s));
	tt_figure_print(tt_figure(TT_FIG_BANDWIDTH), max, m, sizeof(m));
	line(o, 0, "history  bw    |%s| max %s %s", s, m, tt_figure(TT_FIG_BANDWIDTH)->label);
	sparkline(f->hist_slow, f->nhist, 1, s, sizeof(s));
	line(o, 0, "history  slow%% |%s| 0-100%%", s);
}

static void demotion_lines(struct out *o, const struct tt_frame *f)
{
	char b2[16], b3[16];

	line(o, 0, "%s", "");
	line(o, 1, "DEMOTION targets (reclaim %s)",
	     f->demotion_enabled == 1	? "demotes: demotion_enabled true"
	     : f->demotion_enabled == 0 ? "does not demote: demotion_enabled false"
					: "demotion_enabled unknown");
	line(o, 1, "  NODE DEMOTED/s PROMOTED/s  DEMOTES TO");
	for (int i = 0; i < f->ndemote; i++) {
		const struct tt_frame_demote *d = &f->demote_to[i];
		char to[160];

		if (d->allowed[0])
			snprintf(to, sizeof(to), "preferred %s, allowed %s", d->preferred,
				 d->allowed);
		else
			snprintf(to, sizeof(to), "none (lowest tier)");
		line(o, 0, "  %4d %10s %10s  %s", d->node, rate(b2, sizeof(b2), d->demote),
		     rate(b3, sizeof(b3), d->promote), to);
	}
	line(o, 0, "   all %10s %10s  (/proc/vmstat)", rate(b2, sizeof(b2), f->demote),
	     rate(b3, sizeof(b3), f->promote));
	history_lines(o, f);
}

static void proc_lines(struct out *o, const struct tt_frame_proc *p)
{
	/* The scan escaped the command once (procs.c), for JSON as for
	 * text: a second pass would double its backslashes. */
	const char *comm = p->comm;
	char pid[16];

	snprintf(pid, sizeof(pid), "%d", p->pid);
	if (!p->nnodes)
		line(o, 0, "%7s %-15.15s %-27.27s %4s %9s", pid, comm, p->policy, "-", "0");
	for (int k = 0; k < p->nnodes; k++) {
		const struct tt_frame_proc_node *n = &p->nodes[k];
		char sh[16], wa[16];

		snprintf(sh, sizeof(sh), "%.1f%%", n->share * 100);
		line(o, 0, "%7s %-15.15s %-27.27s %4d %9llu %6s %6s", k ? "" : pid, k ? "" : comm,
		     k ? "" : p->policy, n->node, (unsigned long long)n->pages, sh,
		     cellf(wa, sizeof(wa), n->want, "%.1f%%", 100));
	}
}

static void procs_panel(struct out *o, const struct tt_frame *f, const struct tt_render_opts *opts)
{
	line(o, 0, "%s", "");
	line(o, 1,
	     "PROCESSES using interleave (4 KiB pages; WANT: the weights' share)  "
	     "sort %s",
	     tt_proc_sort_names[f->sort]);
	if (!f->procs_scanned)
		line(o, 0, "  initializing (the first scan of /proc has not finished)");
	else if (!f->nprocs)
		line(o, 0, "  no process uses interleave or weighted interleave");
	else
		line(o, 1, "%7s %-15s %-27s %4s %9s %6s %6s", "PID", "COMMAND", "POLICY", "NODE",
		     "PAGES", "SHARE", "WANT");
	for (int i = 0; i < f->nprocs; i++) {
		if (opts->max_procs && i >= opts->max_procs) {
			line(o, 0, "  ... %d more", f->nprocs - opts->max_procs);
			break;
		}
		proc_lines(o, &f->procs[i]);
	}
}

void tt_frame_lines(const struct tt_frame *f, const struct tt_render_opts *opts, tt_line_fn fn,
		    void *ctx)
{
	struct out o = { fn, ctx, opts->width };
	bool msg = f->message[0] && !opts->no_message;
	char rd[16], wr[16];

	head_lines(&o, f);
	line(&o, 0, "%s", "");
	snprintf(rd, sizeof(rd), "RD %s", tt_figure(TT_FIG_BANDWIDTH)->label);
	snprintf(wr, sizeof(wr), "WR %s", tt_figure(TT_FIG_BANDWIDTH)->label);
	line(&o, 1, ROW_FMT, "NODE", "TIER", "CPUS", "GiB used/total ", rd, wr, "WGT", "WGT%",
	     "MEAS%", "ALLOC/s");
	for (int i = 0; i < f->nrows; i++)
		if (f->view == TT_VIEW_NODES || f->rows[i].kind != TT_ROW_NODE)
			row_line(&o, &f->rows[i]);
	if (!opts->no_demotion)
		demotion_lines(&o, f);
	if (opts->processes)
		procs_panel(&o, f, opts);
	if (f->nnotes || msg)
		line(&o, 0, "%s", "");
	for (int i = 0; i < f->nnotes; i++)
		wrapped(&o, 3, "", f->notes[i]);
	if (msg)
		wrapped(&o, 3, "", f->message);
}

static json_t *cell_json(struct tt_cell c)
{
	return c.st == TT_CELL_OK ? json_real(c.v) : json_null();
}

/* Bytes and weights are whole numbers in every tiertune document. */
static json_t *cell_int(struct tt_cell c)
{
	return c.st == TT_CELL_OK ? json_integer((json_int_t)llround(c.v)) : json_null();
}

/* The cells that hold no value, and why: {"read_bytes_s": "n/a"}. */
static void states(json_t *obj, const char *const *names, const struct tt_cell *cells, int n)
{
	json_t *st = json_object();

	for (int i = 0; i < n; i++)
		if (cells[i].st != TT_CELL_OK)
			json_object_set_new(st, names[i],
					    json_string(tt_cell_state_names[cells[i].st]));
	json_object_set_new(obj, "states", st);
}

/* A set as a list of ids, as every JSON document gives node and CPU lists. */
static json_t *ids_json(const uint64_t *bits, unsigned int nbits)
{
	json_t *a = json_array();

	for (unsigned int i = 0; i < nbits; i++)
		if (tt_bit_test(bits, i))
			json_array_append_new(a, json_integer(i));
	return a;
}

static json_t *row_json(const struct tt_frame_row *r)
{
	static const char *const names[] = { "mem_used_bytes", "mem_total_bytes", "read_bytes_s",
					     "write_bytes_s",  "weight",	  "weight_share",
					     "measured_share", "alloc_pages_s" };
	const struct tt_cell cells[] = { r->mem_used, r->mem_total, r->rd,     r->wr,
					 r->weight,   r->wshare,    r->mshare, r->alloc };
	json_t *o = json_object();

	if (r->kind == TT_ROW_NODE) {
		json_object_set_new(o, "node", json_integer(r->node));
		json_object_set_new(o, "cpus", ids_json(r->cpu_bits, TT_MAX_CPUS));
	}
	if (r->kind != TT_ROW_TOTAL)
		json_object_set_new(o, "tier", r->tier < 0 ? json_null() : json_integer(r->tier));
	if (r->kind == TT_ROW_TIER)
		json_object_set_new(o, "nodes", ids_json(r->members.bits, TT_MAX_NODES));
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		json_object_set_new(o, names[i],
				    i < 2 || i == 4 ? cell_int(cells[i]) : cell_json(cells[i]));
	states(o, names, cells, (int)(sizeof(names) / sizeof(*names)));
	return o;
}

int tt_frame_json(const struct tt_frame *f, FILE *out)
{
	json_t *j = json_object(), *nodes = json_array(), *tiers = json_array(),
	       *dem = json_array(), *procs = json_array(), *notes = json_array(),
	       *collectors = json_array();
	int rc = 0;

	for (int i = 0; i < f->ncollectors; i++)
		json_array_append_new(collectors, json_string(f->collector_names[i]));

	json_object_set_new(j, "schema_version", json_integer(TT_JSON_SCHEMA_VERSION));
	json_object_set_new(j, "time", json_integer((json_int_t)f->wall));
	json_object_set_new(j, "host", json_string(f->host));
	json_object_set_new(j, "kernel_release", json_string(f->kernel));
	json_object_set_new(j, "interface", json_string(f->iface));
	json_object_set_new(j, "auto_mode", !strcmp(f->mode, "auto") ? json_true() : json_false());
	json_object_set_new(j, "source_node",
			    f->source_node >= 0 ? json_integer(f->source_node) : json_null());
	json_object_set_new(j, "collectors", collectors);
	json_object_set_new(j, "simulated", json_boolean(f->simulated));
	json_object_set_new(j, "interval_s", json_real(f->interval_s));
	json_object_set_new(j, "initializing", json_boolean(f->initializing));
	for (int i = 0; i < f->nrows; i++) {
		json_t *r = row_json(&f->rows[i]);

		if (f->rows[i].kind == TT_ROW_NODE)
			json_array_append_new(nodes, r);
		else if (f->rows[i].kind == TT_ROW_TIER)
			json_array_append_new(tiers, r);
		else
			json_object_set_new(j, "total", r);
	}
	json_object_set_new(j, "nodes", nodes);
	json_object_set_new(j, "tiers", tiers);
	json_object_set_new(j, "promoted_pages_s", cell_json(f->promote));
	json_object_set_new(j, "demoted_pages_s", cell_json(f->demote));
	for (int i = 0; i < f->ndemote; i++) {
		static const char *const names[] = { "demoted_pages_s", "promoted_pages_s" };
		const struct tt_frame_demote *d = &f->demote_to[i];
		const struct tt_cell cells[] = { d->demote, d->promote };
		json_t *o = json_pack("{s:i,s:o,s:o,s:o,s:o}", "node", d->node, "preferred",
				      ids_json(d->preferred_set.bits, TT_MAX_NODES), "allowed",
				      ids_json(d->allowed_set.bits, TT_MAX_NODES), names[0],
				      cell_json(d->demote), names[1], cell_json(d->promote));

		states(o, names, cells, 2);
		json_array_append_new(dem, o);
	}
	json_object_set_new(j, "demotion_targets", dem);
	for (int i = 0; i < f->nprocs; i++) {
		const struct tt_frame_proc *p = &f->procs[i];
		json_t *pn = json_array();

		for (int k = 0; k < p->nnodes; k++)
			json_array_append_new(pn, json_pack("{s:i,s:I,s:f,s:o}", "node",
							    p->nodes[k].node, "pages",
							    (json_int_t)p->nodes[k].pages, "share",
							    p->nodes[k].share, "want_share",
							    cell_json(p->nodes[k].want)));
		json_array_append_new(procs, json_pack("{s:i,s:s,s:s,s:I,s:o}", "pid", p->pid,
						       "command", p->comm, "policy", p->policy,
						       "pages", (json_int_t)p->pages, "nodes", pn));
	}
	json_object_set_new(j, "processes", f->procs_scanned ? procs : json_null());
	if (!f->procs_scanned)
		json_decref(procs);
	for (int i = 0; i < f->nnotes; i++)
		json_array_append_new(notes, json_string(f->notes[i]));
	json_object_set_new(j, "notes", notes);
	char *s = json_dumps(j, JSON_COMPACT | JSON_ENSURE_ASCII);

	if (!s || fprintf(out, "%s\n", s) < 0)
		rc = tt_err(TT_EFAIL, "cannot write the JSON frame");
	free(s);
	json_decref(j);
	return rc;
}
