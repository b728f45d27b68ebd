// SPDX-License-Identifier: GPL-3.0-or-later
#define _GNU_SOURCE /* mkostemp */
#include "cli.h"
#include "progress.h"

#include "../core/options.h"
#include "../core/parse.h"
#include "../core/recommend.h"
#include "../core/root.h"
#include "../core/topo.h"
#include "../core/weights.h"
#include "../core/wi.h"
#include "../db/db.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const struct tt_cmd *cli_find_command(const char *name)
{
	for (const struct tt_cmd *c = tt_commands; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

int cli_weights_auto(struct tt_cli *cli, const struct tt_topo *t, struct tt_weights *w)
{
	int rc = tt_weights_auto_topo(t, w);

	if (rc == TT_EUNAVAIL)
		return tt_err(TT_EUNAVAIL,
			      "weights 'auto' need HMAT bandwidth, and '%s' has no "
			      "nodeN/access1/initiators figures",
			      tt_sysfs_root(&cli->sfs));
	return rc;
}

int cli_weights_read(struct tt_cli *cli, const struct tt_topo *t, const char *arg,
		     enum cli_weights_kind kind, struct tt_weights *w)
{
	bool tiers = kind == CLI_TIER_WEIGHTS;
	int rc;

	if (kind == CLI_NODE_WEIGHTS_OR_AUTO && strcmp(arg, "auto") == 0)
		return cli_weights_auto(cli, t, w);
	rc = tt_weights_parse_ids(arg, tt_recos_max_id(tiers ? TT_WI_BY_TIER : TT_WI_BY_NODE), w);
	if (rc < 0)
		tt_err_prefix("%s", tiers ? "--tier-weights" : "--weights");
	return rc;
}

int cli_setup(struct tt_cli *cli)
{
	unsigned int needs = cli->cmd ? cli->cmd->needs : 0;
	int rc;

	if ((needs & CLI_TOPO) == CLI_TOPO && !cli->topo) {
		if ((rc = cli_topo(cli)))
			return rc;
	} else if ((needs & CLI_ROOT) && !cli->sfs.abs[0] && (rc = cli_open_root(cli))) {
		return rc;
	}
	if ((needs & CLI_DB) && !cli->db)
		return cli_open_db(cli, TT_DB_READONLY, &cli->db);
	return 0;
}

void cli_release(struct tt_cli *cli)
{
	if (cli->topo) {
		tt_topo_release(cli->topo);
		free(cli->topo);
		cli->topo = NULL;
	}
	if (cli->db) {
		tt_db_close(cli->db);
		cli->db = NULL;
	}
}

int cli_open_root(struct tt_cli *cli)
{
	int rc = tt_root_open(&cli->sfs, cli->sysfs_root ? cli->sysfs_root : "/");

	return rc < 0 ? cli_fail(rc) : 0;
}

int cli_load_topo(struct tt_cli *cli, struct tt_topo *t)
{
	int rc = cli_open_root(cli);

	if (rc)
		return rc;
	rc = tt_topo_load(t, &cli->sfs);
	return rc < 0 ? cli_fail(rc) : 0;
}

int cli_topo(struct tt_cli *cli)
{
	struct tt_topo *t;
	int rc;

	if (cli->topo)
		return 0;
	if (!(t = calloc(1, sizeof(*t))))
		return cli_fail(tt_err(TT_EFAIL, "out of memory"));
	if ((rc = cli_load_topo(cli, t))) {
		free(t);
		return rc;
	}
	cli->topo = t;
	return 0;
}

int cli_db(struct tt_cli *cli, unsigned int flags, struct tt_db **db)
{
	char path[4096];
	int rc;

	if (cli->db_path)
		snprintf(path, sizeof(path), "%s", cli->db_path);
	else if ((rc = tt_db_default_path(path, sizeof(path))) < 0)
		return rc;
	rc = tt_db_open(db, path, flags);
	if (rc == 0 && tt_db_interrupted(*db))
		cli_warn("%d run%s in '%s' had stopped without finishing (process gone); %s "
			 "interrupted",
			 tt_db_interrupted(*db), tt_db_interrupted(*db) == 1 ? "" : "s", path,
			 tt_db_readonly(*db) ? "shown as" : "now marked");
	return rc;
}

int cli_open_db(struct tt_cli *cli, unsigned int flags, struct tt_db **db)
{
	int rc = cli_db(cli, flags, db);

	return rc < 0 ? cli_fail(rc) : 0;
}

int cli_pick_interface(struct tt_cli *cli, const char *name, const struct tt_wi_backend **be)
{
	/* Looked for under the root given, whoever calls first: before the
	 * root is open the lookup would see this host. */
	if (!cli->sfs.abs[0]) {
		int rc = tt_root_open(&cli->sfs, cli->sysfs_root ? cli->sysfs_root : "/");

		if (rc < 0)
			return rc;
	}
	return tt_wi_pick(&cli->sfs, name, be);
}

const char *cli_interfaces(char *buf, size_t size, const char *extra)
{
	size_t len = strlen(tt_wi_names("|", buf, size));

	if (extra && len < size)
		snprintf(buf + len, size - len, "%s", extra);
	return buf;
}

/* Messages quote file contents, host names, profile fields: each is one
 * line whatever they hold. At a terminal that line is wrapped between
 * words to its width, the rest indented by two: the terminal broke it
 * mid-word (issue 44: the ^C message at 80 columns). To a file or a pipe
 * it stays one line, for grep. */
void cli_say(const char *prefix, const char *msg)
{
	/* wrapped: each wrap adds a newline and an indent of two. */
	char safe[4096], line[4200], wrapped[2 * 4200];

	tt_str_escape(msg, safe, sizeof(safe));
	if (!isatty(STDERR_FILENO)) {
		fprintf(stderr, "%s%s\n", prefix, safe);
		return;
	}
	snprintf(line, sizeof(line), "%s%s", prefix, safe);
	tt_opt_wrap(wrapped, sizeof(wrapped), line, 0, 2, cli_term_width(STDERR_FILENO));
	fputs(wrapped, stderr);
}

static void vsay(const char *prefix, const char *fmt, va_list ap)
{
	char msg[2048];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	cli_say(prefix, msg);
}

int cli_fail(int status)
{
	cli_say("tiertune: error: ", tt_err_msg());
	if (*tt_err_hint_msg())
		cli_say("hint: ", tt_err_hint_msg());
	return tt_err_exit_code(status);
}

int cli_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay("tiertune: error: ", fmt, ap);
	va_end(ap);
	return 2;
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay("tiertune: warning: ", fmt, ap);
	va_end(ap);
}

int cli_number(const char *opt, const char *arg, uint64_t min, uint64_t max, uint64_t *out)
{
	return tt_opt_number(opt, arg, min, max, out) ? cli_usage("%s", tt_err_msg()) : 0;
}

int cli_print_json(json_t *root)
{
	json_t *doc = root;
	int rc;

	if (!root) {
		fprintf(stderr, "tiertune: error: out of memory building JSON\n");
		return 1;
	}
	/* Every document is an object that opens with its vocabulary's
	 * version (docs/json.md), whichever command wrote it. */
	if (json_is_object(root) && !json_object_get(root, "schema_version")) {
		doc = json_pack("{s:i}", "schema_version", TT_JSON_SCHEMA_VERSION);
		if (!doc || json_object_update(doc, root) < 0) {
			json_decref(doc);
			json_decref(root);
			fprintf(stderr, "tiertune: error: out of memory building JSON\n");
			return 1;
		}
		json_decref(root);
	}
	rc = json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(doc);
	if (rc < 0)
		return 1;
	putchar('\n');
	return 0;
}

void cli_shell_quote(FILE *f, const char *a)
{
	static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
				    "-_=.,:/+@%";

	if (*a && strspn(a, plain) == strlen(a)) {
		fputs(a, f);
		return;
	}
	fputc('\'', f);
	for (; *a; a++)
		fputs(*a == '\'' ? "'\\''" : (char[]){ *a, '\0' }, f);
	fputc('\'', f);
}

int cli_global_options(const struct tt_cli *cli, char *buf, size_t size)
{
	FILE *f = fmemopen(buf, size, "w");

	if (!f)
		return buf[0] = '\0', -1;
	if (cli->db_path) {
		fputs("--db ", f);
		cli_shell_quote(f, cli->db_path);
		fputc(' ', f);
	}
	if (cli->sysfs_root_given && !cli->sfs.live) {
		fputs("--sysfs-root ", f);
		cli_shell_quote(f, cli->sysfs_root);
		fputc(' ', f);
	}
	fclose(f);
	return 0;
}

void cli_when(double t, char *buf, size_t size)
{
	time_t s = (time_t)t;
	struct tm tm;

	if (t <= 0 || !localtime_r(&s, &tm) || !strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(buf, size, "-");
}

/* Escaped (core/parse.h): a database merged from another host may hold
 * anything. A few buffers in turn, as one printf takes several. */
const char *cli_str(json_t *row, const char *key)
{
	static char bufs[8][1024];
	static unsigned int next;
	const char *s = json_string_value(json_object_get(row, key));

	return s ? tt_str_escape(s, bufs[next++ % 8], sizeof(bufs[0])) : "-";
}

/* Into a file that is not a regular one (a device such as /dev/null, a
 * FIFO, a terminal): written in place, as a shell's > would. */
static int write_through(const char *out, int (*write)(void *ctx, FILE *f), void *ctx)
{
	int rc, fd = open(out, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	FILE *f;

	if (fd < 0)
		return tt_err_sys(TT_EFAIL, errno, "cannot write '%s'", out);
	if (!(f = fdopen(fd, "w"))) {
		rc = tt_err_sys(TT_EFAIL, errno, "cannot write '%s'", out);
		close(fd);
		return rc;
	}
	rc = write(ctx, f);
	if (fflush(f) != 0 || ferror(f))
		rc = rc < 0 ? rc : tt_err_sys(TT_EFAIL, errno, "cannot write '%s'", out);
	if (fclose(f) != 0 && rc == 0)
		rc = tt_err_sys(TT_EFAIL, errno, "cannot write '%s'", out);
	return rc;
}

/* The kernel's protected_symlinks rule (Documentation/admin-guide/sysctl/
 * fs.rst): a link in a sticky world-writable folder (/tmp) is followed only
 * when its owner is the follower or the folder's owner. realpath() and
 * rename() below never open the link, so the kernel cannot apply it: a
 * link another user planted at /tmp/profile.sh would have had root's
 * export replace whatever it named. */
static int link_planted(const char *out, const struct stat *link)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(out, '/');
	struct stat d;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash == out ? 1 : slash - out), out);
	if (stat(dir, &d) < 0 || !(d.st_mode & S_ISVTX) || !(d.st_mode & S_IWOTH))
		return 0;
	if (link->st_uid == geteuid() || link->st_uid == d.st_uid)
		return 0;
	return tt_err(TT_EINPUT,
		      "output '%s' is a symbolic link another user (uid %ju) made in sticky "
		      "folder '%s': not followed",
		      out, (uintmax_t)link->st_uid, dir);
}

/* A regular file or a new path: the temp name is random and created O_EXCL
 * (mkstemp), so a link planted at a guessable name cannot redirect the
 * write; it then gets the mode a plain create would have given. A textfile
 * (cli_write_textfile) is 0644 and written through no link. */
static int write_file(const char *out, int (*write)(void *ctx, FILE *f), void *ctx, bool textfile)
{
	char tmp[4200], real[PATH_MAX];
	struct stat st;
	mode_t mask;
	FILE *f;
	int fd, rc;
	bool there;

	/* rename() replaces what the name is, not what it points to: a link
	 * (/dev/stdout, a link into a config folder) would become a regular
	 * file, and as root a device node would. A link is followed to what it
	 * names; only a regular file, or a new one, is replaced whole. */
	if (lstat(out, &st) == 0 && S_ISLNK(st.st_mode) && textfile) {
		if (stat(out, &st) == 0 && !S_ISREG(st.st_mode))
			return tt_err(TT_EINPUT,
				      "output '%s' is a symbolic link to what is not a regular "
				      "file: a textfile is written through no link",
				      out);
		goto create; /* the link itself replaced, its target left alone */
	}
	if (lstat(out, &st) == 0 && S_ISLNK(st.st_mode)) {
		if ((rc = link_planted(out, &st)) < 0)
			return rc;
		if (!realpath(out, real))
			return tt_err_sys(TT_EINPUT, errno,
					  "output '%s' is a symbolic link to nothing that can be "
					  "written",
					  out);
		out = real;
	}
	there = stat(out, &st) == 0;
	if (there && S_ISDIR(st.st_mode))
		return tt_err(TT_EINPUT, "output '%s' is a folder, not a file", out);
	if (there && !S_ISREG(st.st_mode))
		return write_through(out, write, ctx);
create:
	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", out) >= (int)sizeof(tmp))
		return tt_err(TT_EINPUT, "output path '%s' is too long", out);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return tt_err_sys(errno == ENOENT || errno == ENOTDIR ? TT_EINPUT : TT_EFAIL, errno,
				  "cannot create a file beside '%s'", out);
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, textfile ? 0644 : 0666 & ~mask) < 0 || !(f = fdopen(fd, "w"))) {
		rc = tt_err_sys(TT_EFAIL, errno, "cannot write '%s'", tmp);
		close(fd);
		unlink(tmp);
		return rc;
	}
	rc = write(ctx, f);
	if (fflush(f) != 0 || ferror(f) || fsync(fileno(f)) < 0)
		rc = rc < 0 ? rc : tt_err_sys(TT_EFAIL, errno, "cannot write '%s'", tmp);
	if (fclose(f) != 0 && rc == 0)
		rc = tt_err_sys(TT_EFAIL, errno, "cannot write '%s'", tmp);
	if (rc == 0 && rename(tmp, out) < 0)
		rc = tt_err_sys(TT_EFAIL, errno, "cannot put '%s' in place", out);
	if (rc < 0)
		unlink(tmp);
	return rc;
}

int cli_write_file(const char *out, int (*write)(void *ctx, FILE *f), void *ctx)
{
	return write_file(out, write, ctx, false);
}

/* For another user's reader (node_exporter's textfile collector, its own
 * user): 0644 whatever the umask (0600 under 077 and the collector could
 * not read it; 0666 under 000), and a symbolic link at the path is
 * replaced, never followed, as the file is root's every minute. */
int cli_write_textfile(const char *out, int (*write)(void *ctx, FILE *f), void *ctx)
{
	return write_file(out, write, ctx, true);
}
