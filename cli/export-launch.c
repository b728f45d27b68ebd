// SPDX-License-Identifier: GPL-3.0-or-later
/* export's launch formats (export.h): the numactl line and the systemd
 * drop-in that start the program tuned for under its weights. */
#include "export.h"

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

int cli_export_numactl(const struct export *e, FILE *f)
{
	struct launch l;
	char why[256];
	int rc = launch_plan(e, "the numactl line",
			     "--cpunodebind=N keeps its threads where the weights were tuned", &l);

	if (rc < 0)
		return rc;
	fprintf(f, "# %s\n# needs these weights in sysfs (tiertune apply --weights %s):\n",
		cli_export_header(e), l.weights);
	rc = cli_export_writes(l.be, e->t, &l.w, f, numactl_line);
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
 * is written (cli_export_command_ok). */
static bool unit_char(char c)
{
	return (unsigned char)c >= 0x20 && c != 0x7f;
}

int cli_export_command_ok(char **words, int n)
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
int cli_export_systemd(const struct export *e, FILE *f)
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
		cli_export_header(e), l.weights, l.src, cpus);
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
