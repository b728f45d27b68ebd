// SPDX-License-Identifier: GPL-3.0-or-later
#include "plan.h"

#include "error.h"
#include "parse.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void tt_apply_plan_init(struct tt_apply_plan *p, const struct tt_wi_backend *be,
			const struct tt_sysfs *sfs)
{
	memset(p, 0, sizeof(*p));
	p->be = be;
	p->sfs = sfs;
}

void tt_apply_plan_release(struct tt_apply_plan *p)
{
	free(p->w);
	p->w = NULL;
	p->n = p->cap = 0;
}

int tt_apply_write_current(const struct tt_sysfs *s, const struct tt_write *w, char *out,
			   size_t size)
{
	char line[4096], *save = NULL;
	int rc = tt_sysfs_read(s, line, sizeof(line), "%s", w->file);

	if (rc < 0)
		return rc;
	if (w->kind == TT_WRITE_PLAIN) {
		if (strlen(line) >= size || strpbrk(line, " \t\n") || !line[0])
			return tt_err(TT_EINPUT, "'%s%s' holds '%s', not a single value", s->root,
				      w->file, line);
		snprintf(out, size, "%s", line);
		return 0;
	}
	/* Seed 003: "0:50,1:30" lists every source's weight for this tier. */
	for (char *tok = strtok_r(line, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const char *end;
		uint64_t src;

		if (tt_parse_u64_prefix(tok, 0, TT_MAX_NODES - 1, &src, &end) == 0 && *end == ':' &&
		    (int)src == w->src) {
			snprintf(out, size, "%s", tok);
			return 0;
		}
	}
	return tt_err(TT_EINPUT, "'%s%s' has no entry for source node %d", s->root, w->file,
		      w->src);
}

int tt_apply_plan_add(struct tt_apply_plan *p, enum tt_write_kind kind, int src, const char *value,
		      const char *fmt, ...)
{
	struct tt_write w = { .kind = kind, .src = src };
	va_list ap;
	int n, rc;

	va_start(ap, fmt);
	n = vsnprintf(w.file, sizeof(w.file), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(w.file) || strlen(value) >= sizeof(w.value))
		return tt_err(TT_EINPUT, "path or value too long for '%s'", fmt);
	snprintf(w.value, sizeof(w.value), "%s", value);
	rc = tt_apply_write_current(p->sfs, &w, w.old, sizeof(w.old));
	if (rc < 0)
		return rc;
	/* A value already as wanted is left alone: writing it changes nothing
	 * (except where the plan says it does: write_unchanged) and would only
	 * add a line to undo. */
	if (!p->write_unchanged && strcmp(w.old, w.value) == 0) {
		p->unchanged++;
		return 0;
	}
	if (p->n == p->cap) {
		int cap = p->cap ? 2 * p->cap : 16;
		struct tt_write *nw = realloc(p->w, (size_t)cap * sizeof(*nw));

		if (!nw)
			return tt_err(TT_EFAIL, "out of memory");
		p->w = nw;
		p->cap = cap;
	}
	p->w[p->n++] = w;
	return 0;
}

static int add_write(void *ctx, enum tt_write_kind kind, int src, const char *file,
		     const char *value, bool implied)
{
	struct tt_apply_plan *p = ctx;
	struct tt_write *m = &p->implied[0];
	int rc;

	if (!implied)
		return tt_apply_plan_add(p, kind, src, value, "%s", file);
	if (p->nimplied == (int)(sizeof(p->implied) / sizeof(p->implied[0])))
		return tt_err(TT_EFAIL, "more side effects than a plan holds ('%s')", file);
	*m = (struct tt_write){ .kind = kind, .src = src };
	snprintf(m->file, sizeof(m->file), "%s", file);
	snprintf(m->value, sizeof(m->value), "%s", value);
	rc = tt_apply_write_current(p->sfs, m, m->old, sizeof(m->old));
	if (rc == 0)
		p->nimplied++;
	return rc;
}

int tt_apply_plan_writes(struct tt_apply_plan *p, const struct tt_topo *t, int src,
			 const struct tt_weights *w)
{
	return p->be->writes(p->sfs, t, src, w, add_write, p);
}

int tt_apply_plan_weights(struct tt_apply_plan *p, const struct tt_topo *t, int src,
			  const struct tt_weights *w)
{
	int rc;

	if (p->be->plan)
		return p->be->plan(p, t, src, w);
	rc = tt_wi_check(p->be, p->sfs, t, src, w);
	return rc < 0 ? rc : tt_apply_plan_writes(p, t, src, w);
}

int tt_apply_plan_defaults(struct tt_apply_plan *p, const struct tt_topo *t)
{
	struct tt_weights w;
	int rc;

	if (!p->be->per_source) {
		p->be->defaults(t, -1, &w);
		return tt_apply_plan_weights(p, t, -1, &w);
	}
	for (int i = 0; i < t->nnodes; i++) {
		if (!t->nodes[i].ncpus)
			continue;
		p->be->defaults(t, t->nodes[i].id, &w);
		rc = tt_apply_plan_weights(p, t, t->nodes[i].id, &w);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* A weight the kernel sets itself once the plan's writes are done. */
static int add_side(void *ctx, enum tt_write_kind kind, int src, const char *file,
		    const char *value, bool implied)
{
	struct tt_apply_plan *p = ctx;
	bool keep = p->write_unchanged;
	int rc;

	(void)value;
	if (implied)
		return 0;
	p->write_unchanged = true;
	rc = tt_apply_plan_add(p, kind, src, "", "%s", file);
	p->write_unchanged = keep;
	if (rc == 0) {
		p->w[p->n - 1].side = true;
		memcpy(p->w[p->n - 1].value, p->w[p->n - 1].old, sizeof(p->w[0].value));
	}
	return rc;
}

/* Turning auto mode on recomputes every weight (mm/mempolicy.c
 * weighted_interleave_auto_store): they go first in the plan as side
 * writes, so that an undo (which runs the plan backwards) writes the mode
 * back, then the weights it replaced. Nothing when auto is on already. */
static int plan_recomputed(struct tt_apply_plan *p, const struct tt_topo *t)
{
	struct tt_wi_state st;
	struct tt_weights w;
	int rc;

	tt_wi_state_init(&st);
	rc = p->be->read(p->sfs, t, &st);
	if (rc == 0 && st.auto_mode == 0) {
		p->be->current(&st, t, -1, &w);
		rc = p->be->writes(NULL, t, -1, &w, add_side, p);
	}
	tt_wi_state_release(&st);
	return rc;
}

int tt_apply_plan_auto(struct tt_apply_plan *p, const struct tt_topo *t, bool on)
{
	char have[256] = "";
	size_t len = 0;
	int rc;

	if (p->be->plan_auto) {
		rc = on ? plan_recomputed(p, t) : 0;
		return rc < 0 ? rc : p->be->plan_auto(p, on);
	}
	for (const struct tt_wi_backend *const *b = tt_wi_backends; *b; b++)
		if ((*b)->plan_auto && len < sizeof(have))
			len += (size_t)snprintf(have + len, sizeof(have) - len, "%s%s",
						len ? ", " : "", (*b)->name);
	if (!have[0])
		return tt_err(TT_EUNAVAIL, "the %s interface has no auto mode", p->be->name);
	return tt_err(TT_EUNAVAIL, "the %s interface has no auto mode (%s has one)", p->be->name,
		      have);
}

int tt_apply_check_writable(const struct tt_apply_plan *p)
{
	for (int i = 0; i < p->n; i++) {
		int fd;

		if (!tt_wi_weight_file(p->w[i].file, NULL))
			return tt_err(TT_EINPUT,
				      "refusing to write '%s': not an interleave weight file",
				      p->w[i].file);
		/* Opening for writing changes nothing (no O_TRUNC, nothing written),
		 * and is what the write will do: beneath the root, no links. */
		fd = tt_sysfs_open(p->sfs, p->w[i].file, O_WRONLY);
		if (fd < 0) {
			if (fd == TT_EUNAVAIL && errno == EACCES && geteuid() != 0)
				tt_err_hint("writing interleave weights needs root (uid 0); you "
					    "are uid %d",
					    (int)geteuid());
			return fd;
		}
		close(fd);
	}
	return 0;
}

int tt_apply_verify(const struct tt_apply_plan *p)
{
	char now[64], changed[768] = "";
	size_t len = 0;
	int bad = 0;

	for (int i = 0; i < p->n; i++) {
		const struct tt_write *w = &p->w[i];

		if (!w->expect[0])
			continue;
		if (tt_apply_write_current(p->sfs, w, now, sizeof(now)) < 0)
			return TT_EFAIL;
		if (strcmp(now, w->expect) == 0)
			continue;
		bad++;
		if (len < sizeof(changed))
			len += (size_t)snprintf(changed + len, sizeof(changed) - len,
						"%s'%s' holds '%s', "
						"not '%s'",
						len ? "; " : "", w->file, now, w->expect);
	}
	if (!bad)
		return 0;
	tt_err(TT_EFAIL, "the weights changed since that apply: %s", changed);
	tt_err_hint("--force puts the apply's old values back anyway");
	return TT_EFAIL;
}

void tt_apply_print(const struct tt_apply_plan *p, FILE *f)
{
	const char *root = p->sfs->live ? "" : p->sfs->root;

	for (int i = 0; i < p->n; i++)
		if (!p->w[i].side)
			fprintf(f, "echo %s > %s%s%s\n", p->w[i].value, root, p->w[i].file,
				strcmp(p->w[i].value, p->w[i].old) ? "" : "   # unchanged");
	for (int i = 0; i < p->n; i++)
		if (p->w[i].side)
			fprintf(f, "# the kernel then recomputes %s%s (now %s)\n", root,
				p->w[i].file, p->w[i].old);
	for (int i = 0; i < p->nimplied; i++)
		if (strcmp(p->implied[i].value, p->implied[i].old))
			fprintf(f, "# the kernel then sets %s%s to %s (was %s)\n", root,
				p->implied[i].file, p->implied[i].value, p->implied[i].old);
}
