#include "journal.h"

#include "error.h"
#include "parse.h"
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const kinds[] = {"plain", "rfc"};

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

int tt_journal_write(const char *path, const struct tt_apply_plan *p)
{
	char tmp[4200], boot[64];
	FILE *f;
	int fd, rc = 0;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		rc = tt_err_sys(TT_EFAIL, errno, "cannot write journal '%s'", tmp);
		if (fd >= 0)
			close(fd);
		return rc;
	}
	tt_proc_boot_id(boot, sizeof(boot));
	fprintf(f, "tiertune-journal 1\nowner %d %lld %s\ninterface %s\n", (int)getpid(),
		tt_proc_starttime(getpid()), boot[0] ? boot : "-", p->be->name);
	for (int i = 0; i < p->n; i++)
		put_write(f, "write", &p->w[i]);
	for (int i = 0; i < p->nimplied; i++)
		put_write(f, "implied", &p->implied[i]);
	/* Absolute: recovery may run from another working directory. */
	char abs[4096];
	if (p->sfs->live)
		snprintf(abs, sizeof(abs), "/");
	else if (!realpath(p->sfs->root, abs))
		rc = tt_err_sys(TT_EFAIL, errno, "cannot resolve sysfs root '%s'", p->sfs->root);
	fprintf(f, "root %s\n", abs);
	if (rc == 0 && (fflush(f) != 0 || fsync(fileno(f)) < 0))
		rc = tt_err_sys(TT_EFAIL, errno, "cannot write journal '%s'", tmp);
	if (fclose(f) != 0 && rc == 0)
		rc = tt_err_sys(TT_EFAIL, errno, "cannot write journal '%s'", tmp);
	if (rc == 0 && rename(tmp, path) < 0)
		rc = tt_err_sys(TT_EFAIL, errno, "cannot put journal '%s' in place", path);
	if (rc < 0) {
		unlink(tmp);
		return rc;
	}
	return sync_dir(path);
}

int tt_journal_remove(const char *path)
{
	if (unlink(path) < 0 && errno != ENOENT)
		return tt_err_sys(TT_EFAIL, errno, "cannot remove journal '%s'", path);
	return sync_dir(path);
}

static bool token_ok(const char *s, size_t max)
{
	return *s && strlen(s) < max && !strpbrk(s, " \t");
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
	if (strcmp(kind, "plain") == 0)
		w->kind = TT_WRITE_PLAIN;
	else if (strcmp(kind, "rfc") == 0)
		w->kind = TT_WRITE_RFC_ENTRY;
	else
		return -1;
	/* Only the kernel's own weight files: a journal must not become a way
	 * to write anything anywhere. */
	if (strncmp(file, "/sys/", 5) || strstr(file, "/../") || !token_ok(file, sizeof(w->file)) ||
	    !token_ok(old, sizeof(w->old)) || !token_ok(value, sizeof(w->value)))
		return -1;
	if (w->kind == TT_WRITE_RFC_ENTRY) {
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

int tt_journal_read(const char *path, struct tt_journal *j)
{
	char line[4200];
	FILE *f = fopen(path, "r");
	int lineno = 0, rc = 0;
	bool have_root = false, have_owner = false;

	memset(j, 0, sizeof(*j));
	if (!f)
		return tt_err_sys(errno == ENOENT ? TT_EINPUT : TT_EFAIL, errno,
				  "cannot read journal '%s'", path);
	while (fgets(line, sizeof(line), f)) {
		char *sp, *rest;

		lineno++;
		if (!strchr(line, '\n') || have_root)
			goto bad;
		line[strcspn(line, "\n")] = '\0';
		if (lineno == 1) {
			if (strcmp(line, "tiertune-journal 1") != 0)
				goto bad;
			continue;
		}
		sp = strchr(line, ' ');
		if (!sp)
			goto bad;
		*sp = '\0';
		rest = sp + 1;
		if (strcmp(line, "owner") == 0) {
			char *save = NULL, *pid = strtok_r(rest, " ", &save),
			     *st = strtok_r(NULL, " ", &save), *boot = strtok_r(NULL, " ", &save);
			uint64_t p, t;

			if (!boot || strtok_r(NULL, " ", &save) || tt_parse_u64(pid, 1, INT32_MAX, &p) ||
			    tt_parse_u64(st, 0, INT64_MAX, &t) || !token_ok(boot, sizeof(j->boot_id)))
				goto bad;
			j->pid = (pid_t)p;
			j->starttime = (long long)t;
			snprintf(j->boot_id, sizeof(j->boot_id), "%s", boot);
			have_owner = true;
		} else if (strcmp(line, "interface") == 0) {
			if (strcmp(rest, "upstream") && strcmp(rest, "rfc"))
				goto bad;
			snprintf(j->interface, sizeof(j->interface), "%s", rest);
		} else if (strcmp(line, "write") == 0) {
			struct tt_write *nw = realloc(j->w, (size_t)(j->n + 1) * sizeof(*nw));

			if (!nw) {
				rc = tt_err(TT_EFAIL, "out of memory");
				goto out;
			}
			j->w = nw;
			if (parse_write(rest, &j->w[j->n]) < 0)
				goto bad;
			j->n++;
		} else if (strcmp(line, "implied") == 0) {
			if (j->nimplied || parse_write(rest, &j->implied[0]) < 0)
				goto bad;
			j->nimplied = 1;
		} else if (strcmp(line, "root") == 0) {
			if (rest[0] != '/' || strlen(rest) >= sizeof(j->root))
				goto bad;
			snprintf(j->root, sizeof(j->root), "%s", rest);
			have_root = true;
		} else {
			goto bad;
		}
	}
	/* The root comes last: a journal cut short by a crash has none. */
	if (!have_root || !have_owner || !j->interface[0] || (!j->n && !j->nimplied))
		goto bad_end;
	goto out;
bad:
	rc = tt_err(TT_EINPUT, "journal '%s' is not a tiertune journal (line %d)", path, lineno);
	goto out;
bad_end:
	rc = tt_err(TT_EINPUT, "journal '%s' is not a whole tiertune journal (it ends at line %d)",
		    path, lineno);
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
