#define _GNU_SOURCE /* mkostemp */
#include "journal.h"

#include "error.h"
#include "parse.h"
#include "proc.h"
#include "wi.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAGIC "tiertune-journal 1"

static const char *const kinds[] = { "plain", "entry" };

static int sync_dir(const char *path)
{
	char copy[4096];
	int fd, rc = 0;

	snprintf(copy, sizeof(copy), "%s", path);
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return tt_err_sys(TT_EFAIL, errno, "cannot open the folder of '%s'", path);
	if (fsync(fd) < 0)
		rc = tt_err_sys(TT_EFAIL, errno, "cannot sync the folder of '%s'", path);
	close(fd);
	return rc;
}

static void put_write(FILE *f, const char *tag, const struct tt_write *w)
{
	fprintf(f, "%s %s %s %s %s\n", tag, kinds[w->kind], w->file, w->old, w->value);
}

/* The record as text, malloc'd: one buffer so that the history gets it
 * with a single write(2). */
static char *format(const struct tt_apply_plan *p, const char *done, size_t *len)
{
	char boot[64], *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (!f)
		return NULL;
	tt_proc_boot_id(boot, sizeof(boot));
	fprintf(f, MAGIC "\nowner %d %lld %s\ninterface %s\n", (int)getpid(),
		tt_proc_starttime(getpid()), boot[0] ? boot : "-", p->be->name);
	for (int i = 0; i < p->n; i++)
		put_write(f, "write", &p->w[i]);
	for (int i = 0; i < p->nimplied; i++)
		put_write(f, "implied", &p->implied[i]);
	/* Absolute: recovery may run from another working directory. */
	fprintf(f, "root %s\n", p->sfs->abs);
	if (done)
		fprintf(f, "done %s %lld\n", done, (long long)time(NULL));
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Writes len bytes, makes them durable and closes fd (always): 0, or the
 * errno of the first step that failed. */
static int write_sync_close(int fd, const char *text, size_t len)
{
	int err = write_all(fd, text, len) < 0 || fsync(fd) < 0 ? errno : 0;

	if (close(fd) < 0 && !err)
		err = errno;
	return err;
}

int tt_journal_write(const char *path, const struct tt_apply_plan *p)
{
	char tmp[4200];
	size_t len;
	char *text = format(p, NULL, &len);
	int fd, err, rc = 0;

	if (!text)
		return tt_err(TT_EFAIL, "out of memory");
	/* mkstemp: O_CREAT|O_EXCL, so a name planted in the folder (a link
	 * to a file elsewhere) is never opened, let alone truncated. */
	snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		rc = tt_err_sys(TT_EFAIL, errno, "cannot create a journal beside '%s'", path);
		goto out;
	}
	if ((err = write_sync_close(fd, text, len)))
		rc = tt_err_sys(TT_EFAIL, err, "cannot write journal '%s'", tmp);
	if (rc == 0 && rename(tmp, path) < 0)
		rc = tt_err_sys(TT_EFAIL, errno, "cannot put journal '%s' in place", path);
	if (rc < 0)
		unlink(tmp);
	else
		rc = sync_dir(path);
out:
	free(text);
	return rc;
}

int tt_journal_remove(const char *path)
{
	if (unlink(path) < 0 && errno != ENOENT)
		return tt_err_sys(TT_EFAIL, errno, "cannot remove journal '%s'", path);
	return sync_dir(path);
}

bool tt_journal_same_owner(const struct tt_journal *a, const struct tt_journal *b)
{
	return a->pid == b->pid && a->starttime == b->starttime &&
	       strcmp(a->boot_id, b->boot_id) == 0;
}

int tt_history_append(const char *path, const struct tt_apply_plan *p, const char *kind)
{
	size_t len;
	char *text = format(p, kind, &len), old[4200];
	struct stat st;
	int fd, err, rc = 0;

	if (!text)
		return tt_err(TT_EFAIL, "out of memory");
	/* Every apply appends (tiertop's edits, a fleet's cron jobs): past a
	 * size the file becomes PATH.1, replacing the one before, so the
	 * history stays bounded and restore --last still finds the newest
	 * records in the two. Under the apply lock, and before this record:
	 * a crash between the two leaves a history without it, which is what
	 * an uncommitted transaction is. */
	if (lstat(path, &st) == 0 && st.st_size >= TT_HISTORY_ROTATE_BYTES) {
		snprintf(old, sizeof(old), "%s.1", path);
		if (rename(path, old) < 0) {
			rc = tt_err_sys(TT_EFAIL, errno, "cannot move history '%s' to '%s'", path,
					old);
			goto out;
		}
	}
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		rc = tt_err_sys(TT_EFAIL, errno, "cannot open history '%s'", path);
		goto out;
	}
	if ((err = write_sync_close(fd, text, len)))
		rc = tt_err_sys(TT_EFAIL, err, "cannot append to history '%s'", path);
	/* The first record also needs the file's name to be durable. */
	if (rc == 0)
		rc = sync_dir(path);
out:
	free(text);
	return rc;
}

static bool token_ok(const char *s, size_t max)
{
	return *s && strlen(s) < max && !strpbrk(s, " \t");
}

static int parse_write(char *rest, struct tt_write *w)
{
	char *save = NULL, *kind = strtok_r(rest, " ", &save), *file = strtok_r(NULL, " ", &save),
	     *old = strtok_r(NULL, " ", &save), *value = strtok_r(NULL, " ", &save);
	enum tt_write_kind fk;
	uint64_t src;

	if (!kind || !file || !old || !value || strtok_r(NULL, " ", &save))
		return -1;
	memset(w, 0, sizeof(*w));
	w->src = -1;
	if (strcmp(kind, kinds[TT_WRITE_PLAIN]) == 0)
		w->kind = TT_WRITE_PLAIN;
	else if (strcmp(kind, kinds[TT_WRITE_ENTRY]) == 0)
		w->kind = TT_WRITE_ENTRY;
	else
		return -1;
	/* Only the kernel's own weight files, written the way they take a
	 * value: a journal must not become a way to write anything anywhere. */
	if (!tt_wi_weight_file(file, &fk) || fk != w->kind || !token_ok(file, sizeof(w->file)) ||
	    !token_ok(old, sizeof(w->old)) || !token_ok(value, sizeof(w->value)))
		return -1;
	if (w->kind == TT_WRITE_ENTRY) {
		const char *end;

		if (tt_parse_u64_prefix(old, 0, TT_MAX_NODES - 1, &src, &end) || *end != ':')
			return -1;
		w->src = (int)src;
	}
	snprintf(w->file, sizeof(w->file), "%s", file);
	snprintf(w->old, sizeof(w->old), "%s", old);
	snprintf(w->value, sizeof(w->value), "%s", value);
	return 0;
}

struct parser {
	struct tt_journal *j;
	bool have_owner, have_root;
};

/* One line after the magic one, newline removed: 0, MALFORMED, or
 * TT_EFAIL when out of memory. */
#define MALFORMED 1
static int parse_line(struct parser *ps, char *line)
{
	struct tt_journal *j = ps->j;
	char *sp = strchr(line, ' '), *rest;

	if (!sp || ps->have_root)
		return MALFORMED;
	*sp = '\0';
	rest = sp + 1;
	if (strcmp(line, "owner") == 0) {
		char *save = NULL, *pid = strtok_r(rest, " ", &save),
		     *st = strtok_r(NULL, " ", &save), *boot = strtok_r(NULL, " ", &save);
		uint64_t p, t;

		if (!boot || strtok_r(NULL, " ", &save) || tt_parse_u64(pid, 1, INT32_MAX, &p) ||
		    tt_parse_u64(st, 0, INT64_MAX, &t) || !token_ok(boot, sizeof(j->boot_id)))
			return MALFORMED;
		j->pid = (pid_t)p;
		j->starttime = (long long)t;
		snprintf(j->boot_id, sizeof(j->boot_id), "%s", boot);
		ps->have_owner = true;
	} else if (strcmp(line, "interface") == 0) {
		if (!tt_wi_find(rest))
			return MALFORMED;
		snprintf(j->interface, sizeof(j->interface), "%s", rest);
	} else if (strcmp(line, "write") == 0) {
		struct tt_write *nw = realloc(j->w, (size_t)(j->n + 1) * sizeof(*nw));

		if (!nw)
			return tt_err(TT_EFAIL, "out of memory");
		j->w = nw;
		if (parse_write(rest, &j->w[j->n]) < 0)
			return MALFORMED;
		j->n++;
	} else if (strcmp(line, "implied") == 0) {
		if (j->nimplied || parse_write(rest, &j->implied[0]) < 0)
			return MALFORMED;
		j->nimplied = 1;
	} else if (strcmp(line, "root") == 0) {
		if (rest[0] != '/' || strlen(rest) >= sizeof(j->root))
			return MALFORMED;
		snprintf(j->root, sizeof(j->root), "%s", rest);
		ps->have_root = true;
	} else {
		return MALFORMED;
	}
	return 0;
}

/* The root comes last: a journal cut short by a crash has none. */
static bool whole(const struct parser *ps)
{
	return ps->have_root && ps->have_owner && ps->j->interface[0] &&
	       (ps->j->n || ps->j->nimplied);
}

static FILE *open_text(const char *path, const char *what, int *rc)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	FILE *f;

	*rc = 0;
	if (fd < 0) {
		*rc = tt_err_sys(errno == ENOENT || errno == ELOOP ? TT_EINPUT : TT_EFAIL, errno,
				 "cannot read %s '%s'", what, path);
		return NULL;
	}
	f = fdopen(fd, "r");
	if (!f) {
		*rc = tt_err_sys(TT_EFAIL, errno, "cannot read %s '%s'", what, path);
		close(fd);
	}
	return f;
}

int tt_journal_read(const char *path, struct tt_journal *j)
{
	char line[4200];
	struct parser ps = { .j = j };
	int lineno = 0, rc;
	FILE *f;

	memset(j, 0, sizeof(*j));
	f = open_text(path, "journal", &rc);
	if (!f)
		return rc;
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (!strchr(line, '\n'))
			goto bad;
		line[strcspn(line, "\n")] = '\0';
		if (lineno == 1) {
			if (strcmp(line, MAGIC) != 0)
				goto bad;
			continue;
		}
		rc = parse_line(&ps, line);
		if (rc < 0)
			goto out;
		if (rc == MALFORMED)
			goto bad;
	}
	rc = 0;
	if (!whole(&ps))
		rc = tt_err(TT_EINPUT,
			    "journal '%s' is not a whole tiertune journal (it ends at line %d)",
			    path, lineno);
	goto out;
bad:
	rc = tt_err(TT_EINPUT, "journal '%s' is not a tiertune journal (line %d)", path, lineno);
out:
	fclose(f);
	if (rc < 0)
		tt_journal_release(j);
	return rc;
}

void tt_journal_release(struct tt_journal *j)
{
	free(j->w);
	j->w = NULL;
	j->n = 0;
}

static int history_each(const char *path, const char *root,
			void (*fn)(void *ctx, struct tt_journal *rec), void *ctx);

/* The rotated file first: a record in the current one is newer. */
static int history_walk(const char *path, const char *root,
			void (*fn)(void *ctx, struct tt_journal *rec), void *ctx)
{
	char old[4200];
	int rc;

	snprintf(old, sizeof(old), "%s.1", path);
	rc = history_each(old, root, fn, ctx);
	return rc < 0 ? rc : history_each(path, root, fn, ctx);
}

struct pick {
	const char *kind; /* NULL: any */
	int want;	  /* the record's number (from 1), 0: the newest of kind */
	int seq;
	struct tt_journal *j;
	bool found;
	int *stack; /* applies not undone, by number */
	int n, cap;
	bool oom;
};

static void take(struct pick *p, struct tt_journal *rec)
{
	tt_journal_release(p->j);
	*p->j = *rec;
	memset(rec, 0, sizeof(*rec));
	p->found = true;
}

static void pick_last(void *ctx, struct tt_journal *rec)
{
	struct pick *p = ctx;

	p->seq++;
	if ((p->want && p->seq == p->want) ||
	    (!p->want && (!p->kind || !strcmp(rec->kind, p->kind))))
		take(p, rec);
}

/* An undo takes back the newest apply not taken back yet, so applies and
 * undos pair as a stack. */
static void pick_undoable(void *ctx, struct tt_journal *rec)
{
	struct pick *p = ctx;

	p->seq++;
	if (strcmp(rec->kind, "undo") == 0 && p->n) {
		p->n--;
	} else if (strcmp(rec->kind, "apply") == 0) {
		if (p->n == p->cap) {
			int cap = p->cap ? 2 * p->cap : 16,
			    *s = realloc(p->stack, (size_t)cap * sizeof(*s));

			if (!s) {
				p->oom = true;
				return;
			}
			p->stack = s;
			p->cap = cap;
		}
		p->stack[p->n++] = p->seq;
	}
}

int tt_history_last(const char *path, const char *root, const char *kind, struct tt_journal *j)
{
	struct pick p = { .kind = kind, .j = j };
	int rc;

	memset(j, 0, sizeof(*j));
	rc = history_walk(path, root, pick_last, &p);
	if (rc < 0) {
		tt_journal_release(j);
		return rc;
	}
	return p.found ? 1 : 0;
}

int tt_history_undoable(const char *path, const char *root, struct tt_journal *j)
{
	struct pick p = { .j = j };
	int rc;

	memset(j, 0, sizeof(*j));
	rc = history_walk(path, root, pick_undoable, &p);
	if (rc == 0 && p.oom)
		rc = tt_err(TT_EFAIL, "out of memory");
	if (rc == 0 && p.n) {
		struct pick q = { .want = p.stack[p.n - 1], .j = j };

		rc = history_walk(path, root, pick_last, &q);
		p.found = q.found;
	}
	free(p.stack);
	if (rc < 0) {
		tt_journal_release(j);
		return rc;
	}
	return p.found ? 1 : 0;
}
/* Each whole record for root in one file, oldest first, handed to fn,
 * which may take it (moving it out and zeroing *rec). 0, or a negative
 * status. */
static int history_each(const char *path, const char *root,
			void (*fn)(void *ctx, struct tt_journal *rec), void *ctx)
{
	struct tt_journal cur = { 0 };
	struct parser ps = { .j = &cur };
	char line[4200];
	bool in = false;
	int rc = 0;
	FILE *f;

	if (access(path, F_OK) < 0 && errno == ENOENT)
		return 0;
	f = open_text(path, "history", &rc);
	if (!f)
		return rc;
	/* A damaged or cut record is skipped up to the next magic line: the
	 * records around it still count. */
	while (fgets(line, sizeof(line), f)) {
		char *sp;

		line[strcspn(line, "\n")] = '\0';
		if (strcmp(line, MAGIC) == 0) {
			tt_journal_release(&cur);
			memset(&cur, 0, sizeof(cur));
			ps = (struct parser){ .j = &cur };
			in = true;
			continue;
		}
		if (!in)
			continue;
		if (strncmp(line, "done ", 5) == 0 && (sp = strchr(line + 5, ' '))) {
			uint64_t when;

			*sp = '\0';
			in = false;
			if (!whole(&ps) || tt_parse_u64(sp + 1, 0, INT64_MAX, &when) ||
			    strlen(line + 5) >= sizeof(cur.kind) || strcmp(cur.root, root))
				continue;
			snprintf(cur.kind, sizeof(cur.kind), "%s", line + 5);
			cur.when = (long long)when;
			fn(ctx, &cur);
			continue;
		}
		rc = parse_line(&ps, line);
		if (rc < 0)
			break;
		if (rc == MALFORMED)
			in = false;
		rc = 0;
	}
	tt_journal_release(&cur);
	fclose(f);
	return rc < 0 ? rc : 0;
}
