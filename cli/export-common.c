// SPDX-License-Identifier: GPL-3.0-or-later
/* What every export format shares (export.h): its opening comment line,
 * and the interface's writes for a recommendation. */
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

/* One comment line in every format: the host name comes from a database
 * that may have been merged from anywhere, so it is escaped (a newline in
 * it would otherwise start a command in the shell export). */
const char *cli_export_header(const struct export *e)
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
int cli_export_each_write(const struct export *e, const struct tt_wi_backend *be, FILE *f,
			  write_fn fn)
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

int cli_export_writes(const struct tt_wi_backend *be, const struct tt_topo *t,
		      const struct tt_weights *w, FILE *f, write_fn fn)
{
	struct each_ctx c = { .f = f, .be = be, .fn = fn };

	return be->writes(NULL, t, -1, w, each_cb, &c);
}
