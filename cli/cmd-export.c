// SPDX-License-Identifier: GPL-3.0-or-later
/* tiertune export: recommended weights in the forms operators deploy them
 * with. Written to a temp file and renamed, so a reader never sees half. */
#include "auto-display.h"
#include "cli.h"
#include "../view/run-figures.h"

#include "../writer/apply.h"
#include "../core/parse.h"
#include "../migrate/rebalance.h"
#include "../core/wi.h"
#include "../db/db.h"
#include "../migrate/damon.h"
#include "../writer/recos.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct export
{
	struct tt_cli *cli;
	const struct tt_topo *t;
	struct tt_recos rs; /* as recommended */
	int nbe;
	const struct tt_wi_backend *be[8]; /* interfaces to write for, in table order */
	int source;			   /* -1: all */
	json_t *run;			   /* csv: the run with its trials */
	const char *profile;		   /* --profile FILE, or NULL */
	const char *profile_error;	   /* prometheus: why the profile is bad, or NULL */
	char **command;			   /* systemd: the service's command after "--" */
	int ncommand;
};

/* One comment line in every format: the host name comes from a database
 * that may have been merged from anywhere, so it is escaped (a newline in
 * it would otherwise start a command in the shell export). */
static const char *header(const struct export *e)
{
	static char buf[1200];
	char host[1024];

	if (e->rs.run_id)
		snprintf(buf, sizeof(buf), "%stiertune recommendation from run %jd on %s%s",
			 e->rs.simulated ? "SIMULATED: " : "", (intmax_t)e->rs.run_id,
			 tt_str_escape(e->rs.hostname, host, sizeof(host)),
			 e->rs.simulated ? " (a performance model's figures, not measurements)"
					 : "");
	else if (e->profile) {
		char file[512];

		/* The file name is the user's, and could hold a newline too. */
		snprintf(buf, sizeof(buf), "%stiertune recommendation from profile '%s' (host %s)",
			 e->rs.simulated ? "SIMULATED: " : "",
			 tt_str_escape(e->profile, file, sizeof(file)),
			 tt_str_escape(e->rs.hostname, host, sizeof(host)));
	} else
		snprintf(buf, sizeof(buf), "tiertune weights given on the command line");
	return buf;
}

/* A format's line for one write: first is the first write to this file
 * (a per-source interface writes a file once per source). */
typedef void (*write_fn)(FILE *f, const struct tt_wi_backend *be, const char *file,
			 const char *value, bool first, bool implied);

struct each_ctx {
	FILE *f;
	const struct tt_wi_backend *be;
	write_fn fn;
	int nseen;
	char seen[64][160]; /* files written so far */
};

static int each_cb(void *ctx, enum tt_write_kind kind, int src, const char *file, const char *value,
		   bool implied)
{
	struct each_ctx *c = ctx;
	bool first = true;

	(void)kind;
	(void)src;
	for (int i = 0; i < c->nseen && first; i++)
		first = strcmp(c->seen[i], file) != 0;
	if (first && c->nseen < (int)(sizeof(c->seen) / sizeof(c->seen[0])))
		snprintf(c->seen[c->nseen++], sizeof(c->seen[0]), "%s", file);
	c->fn(c->f, c->be, file, value, first, implied);
	return 0;
}

/* The interface's writes for the recommendations (its backend's writes
 * hook): one merged vector for an interface that is not per source, a
 * vector per source otherwise. */
static int each_write(const struct export *e, const struct tt_wi_backend *be, FILE *f, write_fn fn)
{
	struct tt_recos rs = e->rs;
	struct each_ctx *c = calloc(1, sizeof(*c));
	int used = 0, rc = c ? tt_recos_convert(&rs, e->t, be) : tt_err(TT_EFAIL, "out of memory");

	if (rc < 0)
		goto out;
	*c = (struct each_ctx){ .f = f, .be = be, .fn = fn };
	if (!be->per_source) {
		struct tt_weights w;

		rc = tt_recos_merged(&rs, be, e->source, &w);
		if (rc == 0)
			rc = be->writes(&e->cli->sfs, e->t, -1, &w, each_cb, c);
		goto out;
	}
	for (int i = 0; i < rs.n && rc == 0; i++) {
		if (e->source >= 0 && rs.r[i].source_node != e->source)
			continue;
		used++;
		rc = be->writes(&e->cli->sfs, e->t, rs.r[i].source_node, &rs.r[i].w, each_cb, c);
	}
	if (rc == 0 && !used)
		rc = tt_err(TT_EINPUT, "no recommendation for source node %d", e->source);
out:
	free(c);
	return rc;
}

static void shell_line(FILE *f, const struct tt_wi_backend *be, const char *file, const char *value,
		       bool first, bool implied)
{
	(void)first;
	/* The kernel does this by itself after the writes above; saying so in
	 * the script keeps it exact on any root. */
	if (implied)
		fprintf(f, "echo %s > \"$root%s\"   # what the %s writes did\n", value, file,
			be->unit);
	else
		fprintf(f, "echo %s > \"$root%s\"\n", value, file);
}

/* The check before any write: every file the script writes is there (at
 * the top, or inside an interface's "if" for several interfaces). */
static void check_line(FILE *f, const char *indent, const char *file, bool first)
{
	if (first)
		fprintf(f, "%s[ -f \"$root%s\" ] || missing \"%s\"\n", indent, file, file);
}

static void shell_check(FILE *f, const struct tt_wi_backend *be, const char *file,
			const char *value, bool first, bool implied)
{
	(void)be;
	(void)value;
	(void)implied;
	check_line(f, "", file, first);
}

static void shell_check_in(FILE *f, const struct tt_wi_backend *be, const char *file,
			   const char *value, bool first, bool implied)
{
	(void)be;
	(void)value;
	(void)implied;
	check_line(f, "\t", file, first);
}

static void shell_first(FILE *f, const struct tt_wi_backend *be, const char *file,
			const char *value, bool first, bool implied)
{
	(void)be;
	(void)value;
	(void)implied;
	if (first && !ftell(f))
		fputs(file, f);
}

/* Every file is checked before any is written, and none is created: on a
 * root where a node is not online yet (its weight file absent) the script
 * writes nothing. It still cannot be all or nothing: a write that fails
 * half-way leaves the ones before it, with no journal to put them back.
 * With several interfaces (--interface both, for a mixed fleet) each is
 * written where its first file is there, and one at least must be. */
static int shell(const struct export *e, FILE *f)
{
	bool any = e->nbe > 1;
	int rc = 0;

	fprintf(f,
		"#!/bin/sh\n# %s\n"
		"# NOT ALL OR NOTHING: every file below is checked before any is written, but a\n"
		"# write that fails half-way leaves the ones before it written, and nothing here\n"
		"# checks the hardware fingerprint. tiertune-apply.service (tiertune apply\n"
		"# --profile FILE, docs/fleet.md) is all or nothing, and runs again when memory\n"
		"# comes online: use it where tiertune is installed.\n"
		"# Run as root; an optional argument is a root folder to write under instead of "
		"/.\n"
		"set -e\nroot=${1:-}\n"
		"missing() { echo \"$0: no $root$1 (a node not online yet?): nothing written\" "
		">&2; "
		"exit 1; }\n",
		header(e));
	for (int i = 0; i < e->nbe && rc == 0; i++) {
		const struct tt_wi_backend *be = e->be[i];
		char first[512] = "";
		FILE *mf = fmemopen(first, sizeof(first), "w");

		if (!mf)
			return tt_err(TT_EFAIL, "out of memory");
		rc = each_write(e, be, mf, shell_first);
		fclose(mf);
		fprintf(f, "\n# the %s interface: %s\n", be->name, be->summary);
		/* The two RFCs share the tier files' path; what a file holds
		 * tells them apart, as tt_wi_tier_form does: the earlier one a
		 * plain number, the per-source one SRC:WEIGHT entries. */
		if (any && be->key == TT_WI_BY_TIER)
			fprintf(f,
				"use_%s=\nif [ -f \"$root%s\" ] && %sgrep -qxE '[0-9]+' "
				"\"$root%s\"; then\n\tuse_%s=1\n",
				be->name, first, be->per_source ? "! " : "", first, be->name);
		else if (any)
			fprintf(f, "use_%s=\nif [ -f \"$root%s\" ]; then\n\tuse_%s=1\n", be->name,
				first, be->name);
		if (rc == 0)
			rc = each_write(e, be, f, any ? shell_check_in : shell_check);
		if (any)
			fputs("fi\n", f);
	}
	if (any) {
		fputs("[ -n \"", f);
		for (int i = 0; i < e->nbe; i++)
			fprintf(f, "$use_%s", e->be[i]->name);
		fputs("\" ] || { echo \"$0: no weight interface here: nothing written\" >&2; exit "
		      "1; }\n",
		      f);
	}
	for (int i = 0; i < e->nbe && rc == 0; i++) {
		fprintf(f, "\n# the %s interface\n", e->be[i]->name);
		if (any)
			fprintf(f, "if [ -n \"$use_%s\" ]; then\n", e->be[i]->name);
		rc = each_write(e, e->be[i], f, shell_line);
		if (any)
			fputs("fi\n", f);
	}
	return rc;
}

static void tmpfiles_line(FILE *f, const struct tt_wi_backend *be, const char *file,
			  const char *value, bool first, bool implied)
{
	(void)be;
	/* Only what is written: the kernel does the implied by itself. One
	 * line per path unless appended with w+: systemd-tmpfiles skips
	 * duplicate paths. */
	if (!implied)
		fprintf(f, "%-3s %s - - - - %s\n", first ? "w" : "w+", file, value);
}

static int tmpfiles(const struct export *e, FILE *f)
{
	int rc = 0;

	fprintf(f,
		"# %s\n# /etc/tmpfiles.d/tiertune.conf: sets the weights at every boot.\n"
		"# NOT ALL OR NOTHING: systemd-tmpfiles writes each line on its own, skips a\n"
		"# path that is not there yet (a CXL node onlined after boot) and still exits\n"
		"# 0, and checks no hardware fingerprint. tiertune-apply.service (tiertune\n"
		"# apply --profile FILE, docs/fleet.md) is all or nothing, and runs again when\n"
		"# memory comes online: use it where tiertune is installed.\n",
		header(e));
	fprintf(f, "#Type Path%*s Mode User Group Age Argument\n", 50, "");
	for (int i = 0; i < e->nbe && rc == 0; i++)
		rc = each_write(e, e->be[i], f, tmpfiles_line);
	return rc;
}

static void numactl_line(FILE *f, const struct tt_wi_backend *be, const char *file,
			 const char *value, bool first, bool implied)
{
	(void)be;
	(void)first;
	if (!implied)
		fprintf(f, "#   %s = %s\n", file, value);
}

/* A launch of the program tuned for (numactl, a systemd drop-in): the
 * policy names nodes and the kernel takes their weights from sysfs, so the
 * weights are the first interface of the table that holds global node
 * weights; the program's CPUs go on the source node the weights were
 * tuned for: --source-node, or the recommendation's own. */
struct launch {
	const struct tt_wi_backend *be;
	struct tt_weights w;
	int src;
	char nodes[256];    /* the policy's, "0-2" */
	char weights[1024]; /* "0:5,1:2,2:1" */
};

static int launch_plan(const struct export *e, const char *what, const char *hint, struct launch *l)
{
	struct tt_recos rs = e->rs;
	int rc;

	memset(l, 0, sizeof(*l));
	l->src = e->source;
	for (const struct tt_wi_backend *const *b = tt_wi_backends; *b && !l->be; b++)
		if ((*b)->key == TT_WI_BY_NODE && !(*b)->per_source)
			l->be = *b;
	if (!l->be)
		return tt_err(TT_EUNAVAIL, "no weight interface holds global node weights");
	for (int i = 0; i < rs.n && l->src < 0; i++)
		l->src = rs.r[i].source_node;
	if (l->src < 0) {
		tt_err(TT_EINPUT,
		       "%s runs the program on the CPUs of the node the weights are for: give "
		       "--source-node N",
		       what);
		tt_err_hint("%s", hint);
		return TT_EINPUT;
	}
	rc = tt_recos_convert(&rs, e->t, l->be);
	if (rc == 0)
		rc = tt_recos_merged(&rs, l->be, e->source, &l->w);
	if (rc < 0)
		return rc;
	tt_bit_format_list(l->w.set.bits, TT_MAX_NODES, l->nodes, sizeof(l->nodes));
	tt_weights_format(&l->w, l->weights, sizeof(l->weights));
	return 0;
}

static int numactl(const struct export *e, FILE *f)
{
	struct launch l;
	char why[256];
	int rc = launch_plan(e, "the numactl line",
			     "--cpunodebind=N keeps its threads where the weights were tuned", &l);

	if (rc < 0)
		return rc;
	fprintf(f, "# %s\n# needs these weights in sysfs (tiertune apply --weights %s):\n",
		header(e), l.weights);
	struct each_ctx c = { .f = f, .be = l.be, .fn = numactl_line };
	rc = l.be->writes(NULL, e->t, -1, &l.w, each_cb, &c);
	if (rc < 0)
		return rc;
	if (cli_numactl_weighted(why, sizeof(why))) {
		fprintf(f, "numactl --cpunodebind=%d --weighted-interleave=%s -- \"$@\"\n", l.src,
			l.nodes);
		return 0;
	}
	/* tiertune run checks that sysfs holds the weights before it starts
	 * the program (numactl cannot). */
	fprintf(f,
		"# %s: tiertune run does the same\ntiertune run --weights %s --source-node %d "
		"-- \"$@\"\n",
		why, l.weights, l.src);
	return 0;
}

/* One word of an ExecStart= line as systemd splits it (systemd.service(5),
 * "Command lines"): specifiers (%) and variables ($) doubled, a word with
 * anything but plain characters in double quotes with \\ and \" escaped,
 * a lone ";" (which would end the command) as "\;". A control character
 * has no form a reader would take for what it is: refused before anything
 * is written (command_ok). */
static bool unit_char(char c)
{
	return (unsigned char)c >= 0x20 && c != 0x7f;
}

static int command_ok(char **words, int n)
{
	for (int i = 0; i < n; i++)
		for (const char *p = words[i]; *p; p++)
			if (!unit_char(*p))
				return tt_err(
					TT_EINPUT,
					"command argument '%s' has a control character, which "
					"a unit file cannot hold",
					words[i]);
	return 0;
}

static void unit_word(FILE *f, const char *w)
{
	bool plain = *w != '\0';

	for (const char *p = w; *p; p++)
		plain &= strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				"0123456789_./:=,+@-",
				*p) != NULL;
	if (strcmp(w, ";") == 0) {
		fputs("\\;", f);
		return;
	}
	if (!plain)
		fputc('"', f);
	for (const char *p = w; *p; p++) {
		if (*p == '%' || *p == '$')
			fputc(*p, f);
		else if (*p == '\\' || *p == '"')
			fputc('\\', f);
		fputc(*p, f);
	}
	if (!plain)
		fputc('"', f);
}

/* The service's command (export ... -- COMMAND ARGS) through tiertune run,
 * which sets the policy before it execs it and checks that sysfs holds the
 * weights the boot unit wrote: the unit's own ExecStart= cleared first (a
 * drop-in adds to a list otherwise). tiertune by its absolute path, which
 * systemd before 239 needs. */
static int exec_start(const struct export *e, const struct launch *l, FILE *f)
{
	char self[4096];
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (len > 0)
		self[len] = '\0';
	else
		snprintf(self, sizeof(self), "tiertune");
	fprintf(f, "# instead, in place of the service's own command:\nExecStart=\nExecStart=");
	unit_word(f, self);
	fprintf(f, " run --weights %s --source-node %d --", l->weights, l->src);
	for (int i = 0; i < e->ncommand; i++) {
		fputc(' ', f);
		unit_word(f, e->command[i]);
	}
	fputc('\n', f);
	return 0;
}

/* A systemd drop-in for the service that runs the program tuned for: its
 * CPUs on the source node, its memory policy weighted interleave over the
 * weights' nodes, one setting a line (systemd.syntax(7): a list on one
 * line is one value), each with the systemd that has it. The weights
 * themselves are global and come from the boot unit (systemd/), which the
 * service is ordered after. NUMAPolicy=weighted-interleave is systemd
 * pull request 42688 (merged 2026-06-22); NUMAPolicy= and NUMAMask= are
 * systemd 243 (pull request 12764). Whether this host's systemd takes the
 * policy is asked of it (cli_systemd_weighted): where it does not, the
 * line would be ignored with a warning and the service would run under the
 * default policy, so the drop-in says so and gives the ExecStart= through
 * tiertune run instead of a line that does nothing. */
static int systemd(const struct export *e, FILE *f)
{
	const struct tt_node *n;
	uint64_t bits[TT_MAX_CPUS / 64] = { 0 };
	char cpus[1024], version[256];
	struct launch l;
	int has,
		rc = launch_plan(e, "the systemd drop-in",
				 "CPUAffinity= keeps its threads where the weights were tuned", &l);

	if (rc < 0)
		return rc;
	n = tt_topo_node(e->t, l.src);
	if (!n || !n->ncpus)
		return tt_err(TT_EINPUT, "source node %d has no CPUs to run the program on", l.src);
	for (int i = 0; i < n->ncpus; i++)
		tt_bit_set(bits, (unsigned int)n->cpus[i]);
	tt_bit_format_list(bits, TT_MAX_CPUS, cpus, sizeof(cpus));
	has = cli_systemd_weighted(version, sizeof(version));
	fprintf(f,
		"# %s\n"
		"# A drop-in for the service that runs the program these weights were tuned\n"
		"# for: /etc/systemd/system/SERVICE.service.d/tiertune.conf, then\n"
		"# 'systemctl daemon-reload' and a restart of SERVICE.\n"
		"# The weights are global (sysfs), set by no line here: the boot unit\n"
		"# tiertune-apply.service writes them (docs/fleet.md), from a profile of them:\n"
		"#   tiertune export --weights %s --format json -o /etc/tiertune/profile.json\n"
		"#   systemctl enable tiertune-apply.service\n"
		"[Unit]\n"
		"# The weights written before the program starts (any systemd).\n"
		"Wants=tiertune-apply.service\n"
		"After=tiertune-apply.service\n"
		"\n"
		"[Service]\n"
		"# Its threads on node %d's CPUs, where the weights were tuned (any systemd).\n"
		"CPUAffinity=%s\n",
		header(e), l.weights, l.src, cpus);
	if (has != 0) {
		fprintf(f,
			"# Its pages over nodes %s by the weights. "
			"NUMAPolicy=weighted-interleave:\n"
			"# a systemd with pull request 42688 (merged 2026-06-22; Debian 12's 252\n"
			"# lacks it, and an older one ignores the line with a warning)%s%s%s.\n"
			"NUMAPolicy=weighted-interleave\n"
			"# NUMAMask=: systemd 243+, which every policy but default and local "
			"needs.\n"
			"NUMAMask=%s\n",
			l.nodes, has > 0 ? "; this host's " : "", has > 0 ? version : "",
			has > 0 ? " takes it" : "; no systemd-analyze here to ask", l.nodes);
		if (e->ncommand)
			fprintf(f, "# (The service's own ExecStart= stays: systemd sets the policy "
				   "for it.)\n");
		return 0;
	}
	fprintf(f,
		"# Its pages over nodes %s by the weights: this host's %s has no\n"
		"# NUMAPolicy=weighted-interleave (pull request 42688, merged 2026-06-22), and\n"
		"# would ignore it with a warning. The program starts through tiertune run\n",
		l.nodes, version);
	if (!e->ncommand) {
		fprintf(f,
			"# instead: replace its ExecStart= with these two lines, PROGRAM its "
			"command\n"
			"# (or export again with '-- COMMAND ARGS...' to have them written).\n"
			"#ExecStart=\n"
			"#ExecStart=tiertune run --weights %s --source-node %d -- PROGRAM\n",
			l.weights, l.src);
		return 0;
	}
	return exec_start(e, &l, f);
}

/* The recommendation's mean and 95% interval, the figure the search
 * ranked it by (view/run-figures.h), as a summary's quantiles are: one
 * gauge, the statistic in a label. None from weights or a profile. */
static void prometheus_figures(const struct export *e, FILE *f)
{
	bool helped = false;
	json_t *reco;
	size_t i;

	json_array_foreach (json_object_get(e->run, "recommendations"), i, reco) {
		int src = (int)json_integer_value(json_object_get(reco, "source_node"));
		const char *const stat[] = { "mean", "ci_low", "ci_high" };
		struct tt_headline h;

		tt_reco_headline(e->run, reco, &h);
		if (h.kind != TT_HEADLINE_MEAN || (e->source >= 0 && src != e->source))
			continue;
		if (!helped)
			fprintf(f,
				"# HELP %s The recommended weights' mean over their measurements, "
				"and its 95%% interval, as the search ranked them.\n# TYPE %s "
				"gauge\n",
				h.q->prom, h.q->prom);
		helped = true;
		for (int j = 0; j < 3; j++) {
			double v = (double[]){ h.mean, h.lo, h.hi }[j];

			if (isfinite(v))
				fprintf(f, "%s{source_node=\"%d\",stat=\"%s\"%s} %.17g\n",
					h.q->prom, src, stat[j],
					e->rs.simulated ? ",simulated=\"true\"" : "",
					v * h.q->prom_scale);
		}
	}
}

/* A label value as the text format reads it (\\, \" and \n its only
 * escapes): the reason is made one line of well-formed UTF-8 first
 * (tt_str_escape), as its file name and the input it quotes may be
 * anything. */
static void prometheus_label(FILE *f, const char *s)
{
	char buf[1024];

	for (const char *p = tt_str_escape(s, buf, sizeof(buf)); *p; p++) {
		if (*p == '\\' || *p == '"')
			fputc('\\', f);
		fputc(*p, f);
	}
}

/* Whether the profile holds for this host; with a bad one the file is
 * still written, its current weights read now, so that an alert sees the
 * reason rather than the series of the last good minute. */
static void prometheus_profile_ok(const struct export *e, FILE *f)
{
	fprintf(f, "# HELP tiertune_profile_ok 1 when the profile is valid for this host; 0 "
		   "with the reason (no recommended weights then).\n# TYPE tiertune_profile_ok "
		   "gauge\n");
	if (!e->profile_error) {
		fprintf(f, "tiertune_profile_ok 1\n");
		return;
	}
	fprintf(f, "tiertune_profile_ok{reason=\"");
	prometheus_label(f, e->profile_error);
	fprintf(f, "\"} 0\n");
}

/* node_exporter's textfile collector: recommended and current weights,
 * and the gain the recommendation was measured at. Current weights are
 * those of the interfaces that hold one weight per id for every source. */
static int prometheus(const struct export *e, FILE *f)
{
	bool helped = false, auto_said = false;
	int id;

	fprintf(f, "# HELP tiertune_weight_recommended Interleave weight tiertune recommends.\n"
		   "# TYPE tiertune_weight_recommended gauge\n");
	for (int i = 0; i < e->rs.n; i++) {
		const struct tt_reco *r = &e->rs.r[i];
		const struct tt_wi_backend *be = tt_wi_find(r->interface);

		if (e->source >= 0 && r->source_node >= 0 && r->source_node != e->source)
			continue;
		char src[64] = "";

		/* No source node: no label, rather than a node "-1" that is not one. */
		if (r->source_node >= 0)
			snprintf(src, sizeof(src), ",source_node=\"%d\"", r->source_node);
		/* A modelled run's weights say so in every sample. */
		if (e->rs.simulated)
			snprintf(src + strlen(src), sizeof(src) - strlen(src),
				 ",simulated=\"true\"");
		tt_weights_for_each(id, &r->w) fprintf(
			f, "tiertune_weight_recommended{interface=\"%s\"%s,%s=\"%d\"} %u\n",
			r->interface, src, be ? be->unit : "id", id, tt_weights_get(&r->w, id, 0));
	}
	fprintf(f, "# HELP tiertune_gain_ratio Measured gain of the recommendation over its "
		   "baseline (0.12 = +12%%).\n# TYPE tiertune_gain_ratio gauge\n");
	for (int i = 0; i < e->rs.n; i++) {
		if (isnan(e->rs.r[i].gain))
			continue;
		const char *sep = "{";

		/* The baseline named, as the report's headline names it (issue
		 * 43: what the machine runs now); read from a database, so
		 * escaped as every label here. */
		fputs("tiertune_gain_ratio", f);
		if (e->rs.r[i].source_node >= 0) {
			fprintf(f, "%ssource_node=\"%d\"", sep, e->rs.r[i].source_node);
			sep = ",";
		}
		if (e->rs.simulated) {
			fprintf(f, "%ssimulated=\"true\"", sep);
			sep = ",";
		}
		if (e->rs.r[i].baseline[0]) {
			fprintf(f, "%sbaseline=\"", sep);
			prometheus_label(f, e->rs.r[i].baseline);
			fputc('"', f);
			sep = ",";
		}
		fprintf(f, "%s %g\n", *sep == ',' ? "}" : "", e->rs.r[i].gain);
	}
	prometheus_figures(e, f);
	for (const struct tt_wi_backend *const *b = tt_wi_backends; *b; b++) {
		struct tt_wi_state st;
		char why[256];

		if ((*b)->per_source || (*b)->detect(&e->cli->sfs, why, sizeof(why)) < 0)
			continue;
		tt_wi_state_init(&st);
		if ((*b)->read(&e->cli->sfs, e->t, &st) == 0) {
			if (!helped)
				fprintf(f, "# HELP tiertune_weight_current Interleave weight in "
					   "sysfs now.\n# TYPE tiertune_weight_current gauge\n");
			helped = true;
			tt_weights_for_each(id, &st.node) fprintf(
				f, "tiertune_weight_current{interface=\"%s\",%s=\"%d\"} %u\n",
				(*b)->name, (*b)->unit, id, tt_weights_get(&st.node, id, 0));
			if (st.auto_mode >= 0 && !auto_said)
				fprintf(f,
					"# HELP tiertune_auto_mode 1 when the kernel sets weights "
					"itself.\n# TYPE tiertune_auto_mode "
					"gauge\ntiertune_auto_mode "
					"%d\n",
					st.auto_mode);
			auto_said |= st.auto_mode >= 0;
		}
		tt_wi_state_release(&st);
	}
	if (e->profile)
		prometheus_profile_ok(e, f);
	return 0;
}

static int csv(const struct export *e, FILE *f)
{
	if (!e->run)
		return tt_err(TT_EINPUT, "csv exports a run's trials: give --run RUN or --latest");
	tt_trials_csv(e->run, f);
	return 0;
}

static int profile(const struct export *e, FILE *f)
{
	json_t *j = tt_recos_profile_json(&e->rs, e->t);
	int rc = j && json_dumpf(j, f, JSON_INDENT(2) | JSON_SORT_KEYS) == 0 ? 0 : -1;

	json_decref(j);
	if (rc < 0)
		return tt_err(TT_EFAIL, "cannot write the profile");
	fputc('\n', f);
	return 0;
}

/* Every format refuses what apply would refuse: the same check
 * (tt_wi_check) of the weights as each interface would get them. */
static int check_recos(const struct export *e)
{
	struct tt_recos rs;
	struct tt_weights w;
	int rc = tt_topo_check_source(e->t, e->source);

	for (int k = 0; k < e->nbe && rc == 0; k++) {
		const struct tt_wi_backend *be = e->be[k];
		char why[256];
		/* --interface both is for a mixed fleet: an interface this root
		 * lacks is converted (its weights checked in its own range) but
		 * not held to files this root does not have. */
		bool here = e->nbe == 1 || be->detect(&e->cli->sfs, why, sizeof(why)) == 0;

		rs = e->rs;
		rc = tt_recos_convert(&rs, e->t, be);
		if (rc == 0 && !be->per_source) {
			rc = tt_recos_merged(&rs, be, e->source, &w);
			if (rc == 0 && here)
				rc = tt_wi_check(be, &e->cli->sfs, e->t, -1, &w);
			continue;
		}
		for (int i = 0; rc == 0 && here && i < rs.n; i++)
			if (e->source < 0 || rs.r[i].source_node == e->source)
				rc = tt_wi_check(be, &e->cli->sfs, e->t, rs.r[i].source_node,
						 &rs.r[i].w);
	}
	return rc;
}

/* Per-node shares in basis points (migrate/rebalance.h: one cycle of the
 * kernel's interleave walk, apportioned to exactly 10000 by the largest
 * remainder), one line per node: the goals DAMON's weighted
 * migrate_hot/migrate_cold take as dests (a dest's id is the node, its
 * weight the basis points) and DAMON's node_eligible_mem_bp quota goal
 * (nid the node, target_value the basis points; docs/damon.md), the name
 * the metric landed under (the RFC's first was node_sys_bp). */
static int shares(const struct export *e, FILE *f)
{
	const struct tt_wi_backend *be = tt_wi_for_key(TT_WI_BY_NODE);
	struct tt_recos *rs = malloc(sizeof(*rs));
	uint32_t bp[TT_MAX_NODES];
	int rc = rs && be ? 0 : tt_err(TT_EFAIL, "out of memory");

	if (rc == 0) {
		*rs = e->rs;
		rc = tt_recos_convert(rs, e->t, be);
	}
	if (rc == 0)
		fprintf(f,
			"# %s\n# per-node shares of pages in basis points (sum 10000, largest "
			"remainder):\n# DAMON's weighted migrate_hot/migrate_cold (Linux 6.17+) "
			"takes them as\n# schemes/<S>/dests/<D>/id = node, dests/<D>/weight = "
			"share_bp\n# and DAMON's quota goal node_eligible_mem_bp as goals/<G>/nid "
			"= node,\n"
			"# goals/<G>/target_value = share_bp (docs/damon.md)\n"
			"# source_node node share_bp\n",
			header(e));
	for (int i = 0; rc == 0 && i < rs->n; i++) {
		const struct tt_reco *r = &rs->r[i];
		int id;

		if (e->source >= 0 && r->source_node >= 0 && r->source_node != e->source)
			continue;
		rc = tt_rb_shares_bp(&r->w, bp);
		tt_nodemask_for_each (id, &r->w.set) {
			if (rc < 0)
				break;
			if (r->source_node >= 0)
				fprintf(f, "%d %d %u\n", r->source_node, id, bp[id]);
			else
				fprintf(f, "- %d %u\n", id, bp[id]);
		}
	}
	free(rs);
	return rc;
}

/* The same scheme set rebalance --damon sets up (migrate/damon.h), as a
 * file damo loads (damo start --kdamonds FILE) or a boot unit hands it:
 * one set for the machine, so one recommendation (--source-node picks
 * one of a per-source run's). */
static int damon(const struct export *e, FILE *f)
{
	const struct tt_wi_backend *be = tt_wi_for_key(TT_WI_BY_NODE);
	struct tt_recos *rs = malloc(sizeof(*rs));
	struct tt_damon_set *set = malloc(sizeof(*set));
	const struct tt_reco *r = NULL;
	json_t *j = NULL;
	int rc = rs && set && be ? 0 : tt_err(TT_EFAIL, "out of memory");

	if (rc == 0) {
		*rs = e->rs;
		rc = tt_recos_convert(rs, e->t, be);
	}
	for (int i = 0; rc == 0 && i < rs->n; i++) {
		if (e->source >= 0 && rs->r[i].source_node >= 0 &&
		    rs->r[i].source_node != e->source)
			continue;
		if (r)
			rc = tt_err(TT_EINPUT,
				    "DAMON keeps one set of shares for the machine: give "
				    "--source-node to pick one source's weights");
		r = &rs->r[i];
	}
	if (rc == 0 && !r)
		rc = tt_err(TT_EINPUT, "no recommendation to export");
	if (rc == 0)
		rc = tt_damon_set_from_weights(e->t, &r->w, set);
	if (rc == 0)
		tt_damon_read_spans(&e->cli->sfs, set);
	if (rc == 0 && !(j = tt_damon_damo_json(set)))
		rc = tt_err(TT_EFAIL, "out of memory");
	if (rc == 0 && json_dumpf(j, f, JSON_INDENT(2)) < 0)
		rc = tt_err(TT_EFAIL, "cannot write the DAMON schemes");
	if (rc == 0)
		fputc('\n', f);
	json_decref(j);
	free(set);
	free(rs);
	return rc;
}

/* An export format: its writer and the traits that set how export reads
 * and checks what it writes. To add one: 1. write its writer above (the
 * recommendation is e->rs, converted per interface as shell's is; the
 * run is e->run when it sets .run); 2. add its descriptor to formats[]
 * below, traits included (--format's choices, help, error and completion
 * all come from the table); 3. describe it under --format in
 * docs/tiertune.1 (t0013 holds the man page to every choice) and, if it
 * is read by a program, test it against that program (t0040). */
struct format {
	const char *name;
	const char *about; /* in --format's help after the name, or NULL */
	int (*write)(const struct export *e, FILE *f);
	/* The run's trials, not its recommendation: a run only (a profile
	 * holds no trials); nothing to check against this root; a run that
	 * recommends keeping auto mode or binding locally exports too. */
	bool trials;
	bool run; /* reads the run itself (e->run), not only its recommendation */
	/* Carries the machine it was made for (a profile): checked where it
	 * is applied, not against this root; a keep-auto verdict exports. */
	bool portable;
	/* node_exporter's textfile, read by another user: 0644, written
	 * through no link; a bad --profile still writes the sysfs weights
	 * and the reason (prometheus_bad_profile). */
	bool textfile;
};

static const struct format formats[] = {
	{ .name = "shell", .write = shell },
	{ .name = "json",
	  .about = "a profile for identical hosts",
	  .write = profile,
	  .portable = true },
	{ .name = "tmpfiles", .write = tmpfiles },
	{ .name = "numactl", .write = numactl },
	{ .name = "systemd", .about = "a drop-in for a service", .write = systemd },
	{ .name = "prometheus", .write = prometheus, .run = true, .textfile = true },
	{ .name = "csv", .about = "the run's trials", .write = csv, .trials = true, .run = true },
	{ .name = "shares", .about = "per-node basis points", .write = shares },
	{ .name = "damon", .about = "damo's --kdamonds file", .write = damon },
	{ .name = NULL },
};

/* --format's choices: the table's names. */
static const char *format_name(int i)
{
	return i >= 0 && i < (int)(sizeof(formats) / sizeof(*formats)) ? formats[i].name : NULL;
}

/* --format's help, from the table: "shell, json (a profile ...), ...,
 * or shares (...)". */
static const char *formats_help(char *buf, size_t size)
{
	FILE *f = fmemopen(buf, size, "w");

	if (!f)
		return "the format";
	for (const struct format *m = formats; m->name; m++)
		fprintf(f, "%s%s%s%s%s",
			m == formats ? ""
			: m[1].name  ? ", "
				     : ", or ",
			m->name, m->about ? " (" : "", m->about ? m->about : "",
			m->about ? ")" : "");
	fclose(f);
	return buf;
}

void cli_export_formats(FILE *f)
{
	for (const struct format *m = formats; m->name; m++)
		fprintf(f, "%s\n", m->name);
}

struct emit_ctx {
	const struct export *e;
	int (*write)(const struct export *, FILE *);
};

static int emit_write(void *ctx, FILE *f)
{
	const struct emit_ctx *c = ctx;

	return c->write(c->e, f);
}

static int emit(const struct export *e, const struct format *fmt, const char *out)
{
	struct emit_ctx c = { e, fmt->write };

	if (out && fmt->textfile)
		return cli_write_textfile(out, emit_write, &c);
	return out ? cli_write_file(out, emit_write, &c) : fmt->write(e, stdout);
}

/* The metrics timer's textfile with a profile that is bad (unreadable,
 * from other hardware, naming a node not online): the weights in sysfs
 * now and the reason are written all the same (a file left as it was
 * served the last good minute's "current" weights: node 0 at 25 while
 * sysfs held 9), and the command still fails with the profile's error. */
static int prometheus_bad_profile(struct export *e, const struct format *fmt, int rc,
				  const char *out)
{
	char msg[1024], hint[1024];
	int wrc;

	snprintf(msg, sizeof(msg), "%s", tt_err_msg());
	snprintf(hint, sizeof(hint), "%s", tt_err_hint_msg());
	memset(&e->rs, 0, sizeof(e->rs));
	e->profile_error = msg;
	wrc = emit(e, fmt, out);
	if (wrc < 0)
		return wrc;
	tt_err(rc, "%s", msg);
	if (hint[0])
		tt_err_hint("%s", hint);
	return rc;
}

/* --interface: the one named (default: the one this kernel has), or
 * every one. */
static int pick_interfaces(struct export *e, const char *interface)
{
	int rc;

	if (interface && strcmp(interface, "both") == 0) {
		for (const struct tt_wi_backend *const *b = tt_wi_backends;
		     *b && e->nbe < (int)(sizeof(e->be) / sizeof(e->be[0])); b++)
			e->be[e->nbe++] = *b;
		return 0;
	}
	rc = cli_pick_interface(e->cli, interface, &e->be[0]);
	if (rc == 0)
		e->nbe = 1;
	return rc;
}

/* --profile: its recommendation, checked against this root's hardware
 * unless it is exported as a profile again. */
/* --weights (or "auto") or --tier-weights, read once as typed weights. */
static int from_args(struct tt_cli *cli, struct export *e, const char *weights,
		     const char *tier_weights)
{
	struct tt_weights w;
	int rc;

	if (weights)
		rc = cli_weights_read(cli, e->t, weights, CLI_NODE_WEIGHTS_OR_AUTO, &w);
	else
		rc = cli_weights_read(cli, e->t, tier_weights, CLI_TIER_WEIGHTS, &w);
	if (rc < 0)
		return rc;
	return tt_recos_from_args(weights ? &w : NULL, weights ? NULL : &w, e->source,
				  e->nbe == 1 ? e->be[0] : NULL, &e->rs);
}

static int from_profile(struct export *e, const char *file, const struct format *fmt, bool force)
{
	char what[4200];
	int rc;

	snprintf(what, sizeof(what), "profile '%s'", file);
	e->profile = file;
	rc = tt_recos_from_profile(file, &e->rs);
	if (rc == 0 && fmt->trials)
		rc = tt_err(TT_EINPUT, "csv exports a run's trials, which a profile does "
				       "not hold: give --run RUN or --latest");
	if (rc == 0 && !fmt->portable)
		rc = tt_recos_check_machine(&e->rs, e->t, force, what);
	return rc;
}

/* --run RUN, or the newest run of this hardware (run 0): its
 * recommendation (and the run itself for csv and prometheus). A status
 * > 0 is the exit code of a database that did not open (said already). */
static int from_run(struct export *e, int64_t run, const struct format *fmt, bool force)
{
	struct tt_db *db;
	int rc = cli_open_db(e->cli, TT_DB_READONLY, &db);

	if (rc)
		return rc;
	rc = run ? tt_recos_from_run(db, run, &e->rs) : tt_recos_latest(db, e->t, &e->rs);
	if (rc == 0 && fmt->run)
		rc = tt_run_get(db, e->rs.run_id, &e->run);
	/* A run that recommends keeping auto mode or binding locally has no
	 * weights for a script to write (CSV still has its trials). */
	/* keep_auto as a profile (json) turns auto mode on where it is
	 * applied: a fleet persists the verdict as it persists weights. */
	if (rc == 0 && !e->rs.n && e->rs.nactions && !fmt->trials &&
	    !(fmt->portable && strcmp(e->rs.actions[0].action, "keep_auto") == 0))
		rc = tt_err(TT_EINPUT,
			    "run %jd recommends %s for source node %d: no weights to export",
			    (intmax_t)e->rs.run_id, tt_recos_action_says(e->rs.actions[0].action),
			    e->rs.actions[0].source_node);
	if (rc < 0 && !e->rs.n && e->rs.nactions &&
	    strcmp(e->rs.actions[0].action, "keep_auto") == 0)
		tt_err_hint("--format json exports it as a profile that turns auto mode on where "
			    "'tiertune apply --profile' (the boot unit) applies it");
	/* per_source: what to do instead, as the run's report said it. */
	if (rc < 0 && !e->rs.n && e->rs.nactions &&
	    strcmp(e->rs.actions[0].action, "per_source") == 0) {
		json_t *doc;

		if (tt_db_run_get(db, e->rs.run_id, &doc) == 0) {
			int refused = cli_auto_run_recipe(doc, stderr);

			/* Its refusal is the error then, still exit 2. */
			if (refused < 0)
				rc = refused;
			json_decref(doc);
		}
	}
	tt_db_close(db);
	/* Checked against this root's interfaces and nodes, the weights must
	 * be for its hardware; a profile (json) carries the run's own machine
	 * and is checked where it is applied. */
	if (rc == 0 && !fmt->trials && !fmt->portable) {
		char what[64];

		snprintf(what, sizeof(what), "run %jd", (intmax_t)e->rs.run_id);
		rc = tt_recos_check_machine(&e->rs, e->t, force, what);
	}
	return rc;
}

int cmd_export(struct tt_cli *cli, int argc, char **argv)
{
	const char *out = NULL, *weights = NULL, *tier_weights = NULL, *interface = NULL,
		   *profile_file = NULL;
	struct export e = { .cli = cli, .source = -1 };
	uint64_t run = 0;
	int64_t source = -1;
	bool latest = false, all = false, force = false;
	char ifaces[256], about[512];
	int fmt = -1;
	struct cli_opt opts[] = {
		CLI_U64("run", &run, "RUN", "the recommendation recorded with run RUN", 1,
			INT64_MAX),
		CLI_FLAG("latest", &latest, "the newest run's recommendation"),
		CLI_STRING(
			"weights", &weights, "N:W,...|auto",
			"these per-node weights, or 'auto': the kernel's auto-mode formula on the "
			"HMAT figures"),
		CLI_STRING("tier-weights", &tier_weights, "TIER:W,...", "these per-tier weights"),
		CLI_STRING("profile", &profile_file, "FILE",
			   "the recommendation in a profile (export --format json) made on this "
			   "hardware"),
		CLI_SOURCE_NODE(&source, "the source node whose recommendation to export"),
		CLI_FLAG("all-sources", &all, "every source node's recommendation"),
		CLI_FLAG("force", &force, "export a run from other hardware for this root"),
		CLI_CHOICE("format", &fmt, NULL, formats_help(about, sizeof(about)),
			   .choice = format_name, .required = true),
		CLI_STRING("output", &out, "FILE",
			   "write to FILE (a regular file through a temporary file and rename; a "
			   "device, FIFO or symlink written through, but prometheus's textfile "
			   "replaces a link, mode 0644) instead of standard output",
			   .short_name = 'o'),
		CLI_STRING("interface", &interface, cli_interfaces(ifaces, sizeof(ifaces), "|both"),
			   "the interface to export for, or every one (default: the one this "
			   "kernel has)"),
		CLI_END,
	};
	static const struct tt_opt_rule rules[] = {
		{ .kind = TT_OPT_ONE_OF,
		  .terms = { "run", "latest", "weights", "tier-weights", "profile" },
		  .message = "export needs exactly one of --run, --latest, --weights, "
			     "--tier-weights, --profile" },
		{ .kind = TT_OPT_EXCLUDES, .terms = { "source-node", "all-sources" } },
		{ .kind = TT_OPT_RULE_END },
	};
	int nargs, rc = cli_parse_rules(cli, cli_find_command("export"), opts, rules, argc, argv,
					&nargs);
	struct tt_topo *t;

	if (rc >= 0)
		return rc;
	/* The service's command, for a systemd without weighted-interleave:
	 * after "--" only, and for that format only. */
	if (nargs && (cli->dashdash != 0 || strcmp(formats[fmt].name, "systemd")))
		return cli_usage("export takes a command only after '--', for --format systemd "
				 "(the service's command), got '%s'",
				 argv[0]);
	e.command = argv;
	e.ncommand = nargs;
	if (command_ok(argv, nargs) < 0)
		return cli_fail(TT_EINPUT);
	e.source = (int)source;
	rc = cli_setup(cli);
	if (rc)
		return rc;
	t = cli->topo;
	e.t = t;
	rc = pick_interfaces(&e, interface);
	if (rc < 0)
		goto fail;
	if (weights || tier_weights) {
		rc = from_args(cli, &e, weights, tier_weights);
	} else if (profile_file) {
		rc = from_profile(&e, profile_file, &formats[fmt], force);
	} else {
		rc = from_run(&e, latest ? 0 : (int64_t)run, &formats[fmt], force);
		if (rc > 0) { /* the database's exit code: said already */
			return rc;
		}
	}
	/* A profile of weights found on other hardware is checked where it is
	 * applied, not against this root. */
	if (rc == 0 && !formats[fmt].trials && e.rs.n &&
	    !(formats[fmt].portable && tt_recos_other_hw(&e.rs, t)))
		rc = check_recos(&e);
	/* As apply --weights refuses them, after the interface's check (a
	 * node with no weight file is bad input): a node not online here may
	 * still have one (kernels before 6.16 make one per possible node),
	 * and a profile naming it never applies. */
	if (rc == 0 && (weights || tier_weights))
		rc = tt_recos_check_present(&e.rs, t, "--weights");
	if (rc < 0 && profile_file && formats[fmt].textfile)
		rc = prometheus_bad_profile(&e, &formats[fmt], rc, out);
	else if (rc == 0)
		rc = emit(&e, &formats[fmt], out);
	json_decref(e.run);
	if (rc < 0)
		goto fail;
	return 0;
fail:
	return cli_fail(rc);
}
