// SPDX-License-Identifier: GPL-3.0-or-later
/* tiertune capture: what tiertune reads of this machine (or of the
 * --sysfs-root tree) into a folder or a .tar.gz that --sysfs-root reads
 * back and hwloc too (capture/capture.h): to attach to a bug report, or to
 * run what-if searches of one's own machine on another, with a model of it
 * written from an auto run's report (--model-from, model/model-write.h). */
#define _GNU_SOURCE /* mkostemp */
#include "cli.h"

#include "../capture/capture.h"
#include "../core/figure.h"
#include "../core/topo.h"
#include "../model/model-write.h"
#include "../model/model.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static bool tarball(const char *out)
{
	size_t n = strlen(out);

	return (n > 7 && strcmp(out + n - 7, ".tar.gz") == 0) ||
	       (n > 4 && strcmp(out + n - 4, ".tgz") == 0);
}

/* tar -czf out -C dir . (GNU tar, in Debian's essential set), written
 * beside out and renamed, so a reader never sees half an archive. */
static int make_tarball(const char *dir, const char *out)
{
	char tmp[PATH_MAX];
	int status = 0, fd, err;
	mode_t mask;
	pid_t pid;

	/* The archive is tar's stdout, a file made here: O_EXCL with a random
	 * name (mkostemp), never through a link. tar's own -f NAME.tmp-PID
	 * opened a guessable name with O_CREAT|O_TRUNC and followed a link
	 * planted there: root's archive overwrote the link's target. */
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.XXXXXX", out) >= sizeof(tmp))
		return tt_err(TT_EINPUT, "--output '%s' is too long", out);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return tt_err_sys(TT_EFAIL, errno, "cannot create a file beside '%s'", out);
	mask = umask(0);
	umask(mask);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		err = errno;
		close(fd);
		unlink(tmp);
		return tt_err_sys(TT_EFAIL, err, "cannot start tar");
	}
	if (pid == 0) {
		if (dup2(fd, STDOUT_FILENO) < 0)
			_exit(126);
		execlp("tar", "tar", "--numeric-owner", "--owner=0", "--group=0", "-czf", "-", "-C",
		       dir, ".", (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		close(fd);
		unlink(tmp);
		return tt_err(TT_EFAIL, "tar could not write '%s'%s", tmp,
			      WIFEXITED(status) && WEXITSTATUS(status) == 127 ? " (no tar in PATH)"
									      : "");
	}
	/* The mode a plain create gives (mkostemp's is 0600), and durable
	 * before it gets its name. */
	err = fchmod(fd, 0666 & ~mask) < 0 || fsync(fd) < 0 ? errno : 0;
	if (close(fd) < 0 && !err)
		err = errno;
	if (err) {
		unlink(tmp);
		return tt_err_sys(TT_EFAIL, err, "cannot write '%s'", tmp);
	}
	/* link(2), not rename: it fails on any name there (a link planted
	 * since the check above too), where rename would replace it. */
	if (link(tmp, out) < 0) {
		err = errno;
		unlink(tmp);
		return tt_err_sys(err == EEXIST ? TT_EINPUT : TT_EFAIL, err,
				  "cannot put the archive in place as '%s'", out);
	}
	unlink(tmp);
	return 0;
}

/* --model-from, once per source node of the model. */
struct reports {
	const char *path[TT_MODEL_MAX_SOURCES];
	int n;
};

static int report_option(const struct tt_opt *opt, const char *arg)
{
	struct reports *r = opt->value;

	if (r->n == TT_MODEL_MAX_SOURCES)
		return tt_err(TT_EINPUT, "more than %d --model-from reports (a model's sources)",
			      TT_MODEL_MAX_SOURCES);
	r->path[r->n++] = arg;
	return 0;
}

/* The model of the machine being captured, from the auto reports: checked
 * whole before anything is written. */
static int model_text(struct tt_cli *cli, const struct reports *r, bool anonymize, const char *by,
		      char **text, int *src)
{
	struct tt_topo t;
	struct tt_model_write_opts o = { .machine_sysfs = ".", .by = by };
	int rc = cli_load_topo(cli, &t);

	if (rc)
		return rc;
	o.name = anonymize ? "anonymous" : t.hostname[0] ? t.hostname : "capture";
	o.hostname = anonymize ? "anonymous" : NULL;
	rc = tt_model_write(text, r->path, r->n, &t, &o, src);
	tt_topo_release(&t);
	return rc < 0 ? cli_fail(rc) : 0;
}

/* The reports, named in the closing line. */
static void reports_text(const struct reports *r, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < r->n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s'%s'", i ? ", " : "", r->path[i]);
}

/* A private folder for the tree an archive is packed from: tmpdir, and the
 * tree's path inside it. */
static int private_tree(char tmpdir[PATH_MAX], char dir[PATH_MAX])
{
	const char *t = getenv("TMPDIR");

	if ((size_t)snprintf(tmpdir, PATH_MAX, "%s/tiertune-capture.XXXXXX",
			     t && *t ? t : "/tmp") >= PATH_MAX ||
	    !mkdtemp(tmpdir))
		return tt_err_sys(TT_EFAIL, errno, "cannot make '%s'", tmpdir);
	if ((size_t)snprintf(dir, PATH_MAX, "%s/tree", tmpdir) >= PATH_MAX) {
		tt_capture_remove(tmpdir);
		return tt_err(TT_EINPUT, "TMPDIR '%s' is too long", t);
	}
	return 0;
}

static void print_captured(struct tt_cli *cli, const char *out, bool tgz, bool anonymize,
			   const struct tt_capture_stats *st)
{
	printf("captured %s into %s: %d files (%lld bytes), %d links%s\n", tt_sysfs_root(&cli->sfs),
	       out, st->files, st->bytes, st->links, anonymize ? ", host name 'anonymous'" : "");
	if (st->unreadable)
		printf("%d files the kernel would not let this user read were left out%s\n",
		       st->unreadable, geteuid() ? " (as root, fewer)" : "");
	if (st->refused) {
		char max[48];

		tt_figure_text(tt_figure(TT_FIG_SIZE), TT_CAPTURE_MAX_FILE, max, sizeof(max));
		printf("%d entries refused: links out of the root, files that are not regular "
		       "or over %s\n",
		       st->refused, max);
	}
	if (tgz)
		printf("read it back: mkdir DIR && tar -xzf %s -C DIR && tiertune --sysfs-root DIR "
		       "topo\n",
		       out);
	else
		printf("read it back: tiertune --sysfs-root %s topo\n", out);
}

static void print_model(const struct reports *r, const char *out, bool tgz, int src)
{
	char from[1024];

	reports_text(r, from, sizeof(from));
	if (tgz)
		printf("a SIMULATED model of it from %s (DIR/model.json): tiertune auto "
		       "--source-node %d --model DIR/model.json\n",
		       from, src);
	else
		printf("a SIMULATED model of it from %s (%s/model.json): tiertune auto "
		       "--source-node %d --model %s/model.json\n",
		       from, out, src, out);
}

int cmd_capture(struct tt_cli *cli, int argc, char **argv)
{
	const char *out = NULL;
	struct reports reports = { .n = 0 };
	bool anonymize = false;
	struct cli_opt opts[] = {
		CLI_STRING("output", &out, "DIR|FILE.tar.gz",
			   "the new folder (or, ending in .tar.gz, the archive) to write; it must "
			   "not exist",
			   .short_name = 'o', .required = true),
		CLI_FLAG("anonymize", &anonymize,
			 "replace the host name with 'anonymous' (nothing else in the copy names "
			 "the host)"),
		CLI_CALL("model-from", report_option, &reports, "REPORT",
			 "also write model.json at the copy's top: a model of this machine from "
			 "REPORT, an auto run's --json report measured here; once per source node "
			 "(tiertune auto --model DIR/model.json searches it anywhere, simulated)"),
		CLI_END,
	};
	int nargs, rc = cli_parse(cli, cli_find_command("capture"), opts, argc, argv, &nargs);
	struct tt_capture_stats st;
	struct tt_capture_file extra[2] = { { NULL, NULL }, { NULL, NULL } };
	char tmpdir[PATH_MAX], dir[PATH_MAX], by[128], *model = NULL;
	int src[TT_MODEL_MAX_SOURCES];
	bool tgz;

	if (rc >= 0)
		return rc;
	rc = cli_setup(cli);
	if (rc)
		return rc;
	tgz = tarball(out);
	/* lstat, as for a folder: a link there (dangling too) is the
	 * operator's, not to be replaced by the archive. */
	if (tgz && lstat(out, &(struct stat){ 0 }) == 0)
		return cli_fail(tt_err(TT_EINPUT, "'%s' exists: capture makes a new file", out));
	snprintf(by, sizeof(by), "tiertune capture %s", cli_version);
	if (reports.n && (rc = model_text(cli, &reports, anonymize, by, &model, src)))
		return rc;
	extra[0] = (struct tt_capture_file){ model ? "model.json" : NULL, model };
	/* An archive: the tree in a private folder first, removed after. */
	if (tgz && (rc = private_tree(tmpdir, dir)) < 0) {
		free(model);
		return cli_fail(rc);
	}
	rc = tt_capture(&cli->sfs, tgz ? dir : out, anonymize ? "anonymous" : NULL, by, extra, &st);
	free(model);
	if (rc == 0 && tgz)
		rc = make_tarball(dir, out);
	if (tgz)
		tt_capture_remove(tmpdir);
	if (rc < 0)
		return cli_fail(rc);
	print_captured(cli, out, tgz, anonymize, &st);
	if (reports.n)
		print_model(&reports, out, tgz, src[0]);
	return 0;
}
