// SPDX-License-Identifier: GPL-3.0-or-later
#define _GNU_SOURCE /* mkostemp */
#include "journal.h"

#include "../core/error.h"
#include "../core/parse.h"
#include "../core/proc.h"
#include "../core/state.h"
#include "../core/wi.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAGIC "tiertune-journal 1"
#define FRAME "tiertune-record "
/* A record is a few lines per write; anything longer is not one. */
#define RECORD_MAX (1 << 20)

static const char *const kinds[] = { "plain", "entry" };

int tt_journal_sync_dir(const char *path)
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
	fprintf(f, MAGIC "\nowner %d %lld %s\ntxn %s\ninterface %s\n", (int)getpid(),
		tt_proc_starttime(getpid()), boot[0] ? boot : "-", p->txn, p->be->name);
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
		rc = tt_journal_sync_dir(path);
out:
	free(text);
	return rc;
}

int tt_journal_remove(const char *path)
{
	if (unlink(path) < 0 && errno != ENOENT)
		return tt_err_sys(TT_EFAIL, errno, "cannot remove journal '%s'", path);
	return tt_journal_sync_dir(path);
}

bool tt_journal_same_txn(const struct tt_journal *a, const struct tt_journal *b)
{
	if (a->txn[0] || b->txn[0])
		return strcmp(a->txn, b->txn) == 0;
	return a->pid == b->pid && a->starttime == b->starttime &&
	       strcmp(a->boot_id, b->boot_id) == 0;
}

int tt_journal_new_txn(struct tt_apply_plan *p)
{
	unsigned char r[16];
	size_t got = 0;

	while (got < sizeof(r)) {
		ssize_t n = getrandom(r + got, sizeof(r) - got, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return tt_err_sys(TT_EFAIL, errno,
					  "cannot name the transaction (getrandom)");
		got += (size_t)n;
	}
	for (size_t i = 0; i < sizeof(r); i++)
		snprintf(p->txn + 2 * i, 3, "%02x", r[i]);
	return 0;
}

/* CRC-32 (IEEE 802.3, as zlib's crc32), bit by bit: records are short. */
static uint32_t crc32(const char *buf, size_t len)
{
	uint32_t c = 0xffffffffu;

	for (size_t i = 0; i < len; i++) {
		c ^= (unsigned char)buf[i];
		for (int k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ 0xedb88320u : c >> 1;
	}
	return c ^ 0xffffffffu;
}

int tt_history_append(const char *path, const struct tt_apply_plan *p, const char *kind)
{
	size_t len, flen;
	char *text = format(p, kind, &len), *framed = NULL, old[4200], last = '\n';
	struct stat st;
	int fd, err, n, rc = 0;

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
	fd = tt_open_regular(path, O_WRONLY | O_APPEND | O_CREAT, 0600, "history");
	if (fd < 0) {
		rc = fd;
		goto out;
	}
	if (fstat(fd, &st) < 0) {
		rc = tt_err_sys(TT_EFAIL, errno, "cannot append to history '%s'", path);
		close(fd);
		goto out;
	}
	/* A file that ends mid-line (cut by hand, or by a version before
	 * records were framed) gets its line ended first, so the header
	 * starts a line of its own. */
	if (st.st_size > 0 && pread(fd, &last, 1, st.st_size - 1) != 1)
		last = '\n';
	n = asprintf(&framed, "%s" FRAME "%zu %08x\n%s", last == '\n' ? "" : "\n", len,
		     (unsigned int)crc32(text, len), text);
	if (n < 0) {
		framed = NULL;
		rc = tt_err(TT_EFAIL, "out of memory");
		close(fd);
		goto out;
	}
	flen = (size_t)n;
	/* The record counts once it and the file's name are durable (the
	 * first record creates the file). Any step failing (ENOSPC, EIO part
	 * way, the folder's sync) cuts the file back to what it was: the
	 * transaction is then rolled back, and a record left behind would be
	 * an undo of a change that never happened. */
	err = write_all(fd, framed, flen) < 0 || fsync(fd) < 0 ? errno : 0;
	if (!err && (rc = tt_journal_sync_dir(path)) < 0)
		err = errno ? errno : EIO;
	if (err) {
		if (ftruncate(fd, st.st_size) == 0)
			fsync(fd);
		if (rc == 0)
			rc = tt_err_sys(TT_EFAIL, err, "cannot append to history '%s'", path);
	}
	if (close(fd) < 0 && rc == 0)
		rc = tt_err_sys(TT_EFAIL, errno, "cannot append to history '%s'", path);
out:
	free(framed);
	free(text);
	return rc;
}

static bool token_ok(const char *s, size_t max)
{
	return *s && strlen(s) < max && !strpbrk(s, " \t");
}

/* What a weight file holds and takes: a weight (upstream's nodeN: 0-255,
 * 0 read after a reset on 6.9-6.15), the mode (auto, __auto_type: true or
 * false), or an RFC tier file's "SRC:WEIGHT" entry. */
static bool value_ok(enum tt_write_kind kind, const char *v)
{
	uint64_t n;
	const char *end;

	if (kind == TT_WRITE_ENTRY)
		return tt_parse_u64_prefix(v, 0, TT_MAX_NODES - 1, &n, &end) == 0 && *end == ':' &&
		       tt_parse_u64(end + 1, 0, UINT32_MAX, &n) == 0;
	return strcmp(v, "true") == 0 || strcmp(v, "false") == 0 ||
	       tt_parse_u64(v, 0, UINT32_MAX, &n) == 0;
}

int tt_journal_check_values(const struct tt_journal *j, const char *what)
{
	for (int i = 0; i < j->n + j->nimplied; i++) {
		const struct tt_write *w = i < j->n ? &j->w[i] : &j->implied[i - j->n];
		const char *bad = !value_ok(w->kind, w->old)	 ? w->old
				  : !value_ok(w->kind, w->value) ? w->value
								 : NULL;

		if (bad)
			return tt_err(
				TT_EINPUT,
				"%s holds '%s' for '%s', which is no value a weight file "
				"takes (a weight, true or false, SRC:WEIGHT): nothing written",
				what, bad, w->file);
	}
	return 0;
}

static int parse_write(char *rest, struct tt_write *w)
{
	char *save = NULL, *kind = strtok_r(rest, " ", &save), *file = strtok_r(NULL, " ", &save),
	     *old = strtok_r(NULL, " ", &save), *value = strtok_r(NULL, " ", &save);
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
	if (!tt_wi_weight_file_takes(file, w->kind) || !token_ok(file, sizeof(w->file)) ||
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
	} else if (strcmp(line, "txn") == 0) {
		if (strlen(rest) != sizeof(j->txn) - 1 ||
		    strspn(rest, "0123456789abcdef") != sizeof(j->txn) - 1 || j->txn[0])
			return MALFORMED;
		snprintf(j->txn, sizeof(j->txn), "%s", rest);
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
	int fd = tt_open_regular(path, O_RDONLY, 0, what);
	FILE *f;

	*rc = 0;
	if (fd < 0) {
		*rc = fd;
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
	if (rc == 0) {
		snprintf(line, sizeof(line), "journal '%s'", path);
		rc = tt_journal_check_values(j, line);
	}
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
			void (*fn)(void *ctx, struct tt_journal *rec), void *ctx, int *damaged);

/* The current file first, the rotated PATH.1 only when the answer is not
 * in it (a record in the current file is newer than any in PATH.1): a
 * PATH.1 that cannot be read, or is too large to, does not block undoing
 * the apply whose record rotated it. */
static void rotated_name(const char *path, char *old, size_t size)
{
	snprintf(old, size, "%s.1", path);
}

int tt_history_check(const char *path)
{
	char old[4200];
	int rc = 0, fd;

	rotated_name(path, old, sizeof(old));
	for (const char *f = path; f && rc == 0; f = f == path ? old : NULL) {
		if (access(f, F_OK) < 0 && errno == ENOENT && lstat(f, &(struct stat){ 0 }) < 0)
			continue;
		fd = tt_open_regular(f, O_RDONLY, 0, "history");
		if (fd < 0)
			rc = fd;
		else
			close(fd);
	}
	return rc;
}

struct pick {
	const char *kind; /* NULL: any */
	int want;	  /* the record's number (from 1), 0: the newest of kind */
	int seq;
	struct tt_journal *j;
	bool found;
	int *stack; /* applies not undone, by number */
	int n, cap;
	int excess; /* undos of applies in an older file */
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
	if (strcmp(rec->kind, "undo") == 0) {
		if (p->n)
			p->n--;
		else
			p->excess++;
	} else if (strcmp(rec->kind, "apply") == 0 || strcmp(rec->kind, "restore") == 0) {
		/* restore --defaults and --auto replace tuned weights: undoable
		 * as an apply is ("undo" is restore --last's own record). */
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

int tt_history_last(const char *path, const char *root, const char *kind, struct tt_journal *j,
		    int *damaged)
{
	struct pick p = { .kind = kind, .j = j };
	char old[4200];
	int rc, none = 0;

	if (!damaged)
		damaged = &none;
	*damaged = 0;
	memset(j, 0, sizeof(*j));
	rotated_name(path, old, sizeof(old));
	rc = history_each(path, root, pick_last, &p, damaged);
	if (rc == 0 && !p.found)
		rc = history_each(old, root, pick_last, &p, damaged);
	if (rc < 0) {
		tt_journal_release(j);
		return rc;
	}
	return p.found ? 1 : 0;
}

int tt_history_undoable(const char *path, const char *root, struct tt_journal *j, int *damaged)
{
	char old[4200];
	const char *file = path;
	int rc, excess = 0, none = 0;
	bool found = false;

	if (!damaged)
		damaged = &none;
	*damaged = 0;
	memset(j, 0, sizeof(*j));
	rotated_name(path, old, sizeof(old));
	/* Newest file first: its applies not undone in it, and the undos
	 * left over for applies in the older file. */
	for (int f = 0; f < 2 && !found; f++, file = old) {
		struct pick p = { 0 };

		rc = history_each(file, root, pick_undoable, &p, damaged);
		if (rc == 0 && p.oom)
			rc = tt_err(TT_EFAIL, "out of memory");
		if (rc == 0 && p.n > excess) {
			struct pick q = { .want = p.stack[p.n - 1 - excess], .j = j };
			int ignored = 0;

			rc = history_each(file, root, pick_last, &q, &ignored);
			found = q.found;
		}
		excess = excess > p.n ? excess - p.n : 0;
		excess += p.excess;
		free(p.stack);
		if (rc < 0) {
			tt_journal_release(j);
			return rc;
		}
	}
	return found ? 1 : 0;
}
/* One record's text (from its magic line), NUL-terminated, parsed: 1 and
 * *cur filled when it is whole (its done line last), 0 when not (damaged),
 * TT_EFAIL when out of memory. Legacy (unframed) records may have lines
 * after the done line (the next record's cut start): those are ignored. */
static int parse_record(char *text, struct tt_journal *cur, bool legacy)
{
	struct parser ps = { .j = cur };
	char *line = text, *nl, *sp;
	uint64_t when;
	int rc;

	memset(cur, 0, sizeof(*cur));
	nl = strchr(line, '\n');
	if (!nl || (size_t)(nl - line) != strlen(MAGIC) || strncmp(line, MAGIC, strlen(MAGIC)))
		return 0;
	for (line = nl + 1; *line; line = nl + 1) {
		if (!(nl = strchr(line, '\n')))
			return 0;
		*nl = '\0';
		if (strncmp(line, "done ", 5) == 0 && (sp = strchr(line + 5, ' '))) {
			*sp = '\0';
			if (!whole(&ps) || tt_parse_u64(sp + 1, 0, INT64_MAX, &when) ||
			    !token_ok(line + 5, sizeof(cur->kind)) || (!legacy && nl[1]))
				return 0;
			snprintf(cur->kind, sizeof(cur->kind), "%s", line + 5);
			cur->when = (long long)when;
			return 1;
		}
		rc = parse_line(&ps, line);
		if (rc < 0)
			return rc;
		if (rc == MALFORMED)
			return 0;
	}
	return 0;
}

/* Where the next record may start at or after from: a frame header
 * anywhere (a record appended after a cut one is glued to it), or an
 * unframed record's magic line at the start of a line. */
static size_t next_start(const char *buf, size_t len, size_t from)
{
	const char *f = from < len ? memmem(buf + from, len - from, FRAME, strlen(FRAME)) : NULL;
	size_t at = f ? (size_t)(f - buf) : len;

	for (size_t i = from; i < at; i++)
		if ((i == 0 || buf[i - 1] == '\n') && len - i > strlen(MAGIC) &&
		    memcmp(buf + i, MAGIC "\n", strlen(MAGIC) + 1) == 0)
			return i;
	return at;
}

/* A frame at pos: the record's offset and length when its header is whole
 * and its checksum matches, else false. */
static bool frame_at(const char *buf, size_t len, size_t pos, size_t *body, size_t *blen)
{
	const char *h = buf + pos + strlen(FRAME), *nl = memchr(h, '\n', len - (size_t)(h - buf));
	char hdr[64], *end;
	unsigned long long n;
	unsigned long crc;

	if (!nl || nl - h >= (ptrdiff_t)sizeof(hdr))
		return false;
	memcpy(hdr, h, (size_t)(nl - h));
	hdr[nl - h] = '\0';
	errno = 0;
	n = strtoull(hdr, &end, 10);
	if (errno || end == hdr || *end != ' ' || n > RECORD_MAX)
		return false;
	crc = strtoul(end + 1, &end, 16);
	if (*end || (size_t)(nl + 1 - buf) + n > len)
		return false;
	*body = (size_t)(nl + 1 - buf);
	*blen = (size_t)n;
	return crc32(buf + *body, *blen) == (uint32_t)crc;
}

/* Each whole record for root in one file, oldest first, handed to fn,
 * which may take it (moving it out and zeroing *rec); *damaged counts the
 * records skipped. 0, or a negative status. */
static int history_each(const char *path, const char *root,
			void (*fn)(void *ctx, struct tt_journal *rec), void *ctx, int *damaged)
{
	struct tt_journal cur = { 0 };
	struct stat st;
	size_t len = 0, pos = 0, body, blen;
	char *buf = NULL;
	int rc = 0, fd;

	if (access(path, F_OK) < 0 && errno == ENOENT)
		return 0;
	fd = tt_open_regular(path, O_RDONLY, 0, "history");
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0 || st.st_size > 64 * RECORD_MAX ||
	    !(buf = malloc((size_t)st.st_size + 1))) {
		close(fd);
		return tt_err(TT_EFAIL, "cannot read history '%s' (%jd bytes)", path,
			      (intmax_t)st.st_size);
	}
	while (len < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + len, (size_t)st.st_size - len);

		if (n < 0 && errno == EINTR)
			continue;
		/* An error is not the end of the file: a history cut short by
		 * EIO would lose its newest records, and restore --last would
		 * undo an older apply than the last (or none). A file that
		 * shrank since fstat ends where it ends. */
		if (n < 0) {
			int err = errno;

			close(fd);
			free(buf);
			return tt_err_sys(TT_EFAIL, err, "cannot read history '%s'", path);
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	for (pos = next_start(buf, len, 0); pos < len && rc >= 0;) {
		bool framed = strncmp(buf + pos, FRAME, strlen(FRAME)) == 0;
		size_t end;
		char save;

		if (framed && !frame_at(buf, len, pos, &body, &blen)) {
			/* The next record is the next frame: a cut one's own
			 * magic line is not another (unframed) record. */
			const char *f = memmem(buf + pos + 1, len - pos - 1, FRAME, strlen(FRAME));

			(*damaged)++;
			pos = f ? (size_t)(f - buf) : len;
			continue;
		}
		if (!framed) {
			body = pos;
			blen = next_start(buf, len, pos + 1) - pos;
		}
		end = body + blen;
		save = buf[end];
		buf[end] = '\0';
		rc = parse_record(buf + body, &cur, !framed);
		buf[end] = save;
		if (rc == 0)
			(*damaged)++;
		else if (rc == 1 && strcmp(cur.root, root) == 0)
			fn(ctx, &cur);
		tt_journal_release(&cur);
		pos = framed ? next_start(buf, len, end) : end;
	}
	free(buf);
	return rc < 0 ? rc : 0;
}
