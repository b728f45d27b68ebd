// SPDX-License-Identifier: GPL-3.0-or-later
/* tiertune capture: what tiertune reads of this machine (or of the
 * --sysfs-root tree) into a folder or a .tar.gz that --sysfs-root reads
 * back and hwloc too (core/capture.h): to attach to a bug report, or to
 * run what-if searches of one's own machine on another. */
#include "cli.h"

#include "../core/capture.h"

#include <errno.h>
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
	int status = 0;
	pid_t pid;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp-%ld", out, (long)getpid()) >= sizeof(tmp))
		return tt_err(TT_EINPUT, "--output '%s' is too long", out);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return tt_err_sys(TT_EFAIL, errno, "cannot start tar");
	if (pid == 0) {
		execlp("tar", "tar", "--numeric-owner", "--owner=0", "--group=0", "-czf", tmp, "-C",
		       dir, ".", (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		unlink(tmp);
		return tt_err(TT_EFAIL, "tar could not write '%s'%s", tmp,
			      WIFEXITED(status) && WEXITSTATUS(status) == 127 ? " (no tar in PATH)"
									      : "");
	}
	if (rename(tmp, out) < 0) {
		int err = errno;

		unlink(tmp);
		return tt_err_sys(TT_EFAIL, err, "cannot rename '%s' to '%s'", tmp, out);
	}
	return 0;
}

int cmd_capture(struct tt_cli *cli, int argc, char **argv)
{
	const char *out = NULL;
	bool anonymize = false;
	struct cli_opt opts[] = {
		CLI_STRING("output", &out, "DIR|FILE.tar.gz",
			   "the new folder (or, ending in .tar.gz, the archive) to write; it must "
			   "not exist",
			   .short_name = 'o', .required = true),
		CLI_FLAG("anonymize", &anonymize,
			 "replace the host name with 'anonymous' (nothing else in the copy names "
			 "the host)"),
		CLI_END,
	};
	int nargs, rc = cli_parse(cli, cli_find_command("capture"), opts, argc, argv, &nargs);
	struct tt_capture_stats st;
	char tmpdir[PATH_MAX], dir[PATH_MAX], by[128];
	bool tgz;

	if (rc >= 0)
		return rc;
	rc = cli_open_root(cli);
	if (rc)
		return rc;
	tgz = tarball(out);
	/* lstat, as for a folder: a link there (dangling too) is the
	 * operator's, not to be replaced by the archive. */
	if (tgz && lstat(out, &(struct stat){ 0 }) == 0)
		return cli_fail(tt_err(TT_EINPUT, "'%s' exists: capture makes a new file", out));
	/* An archive: the tree in a private folder first, removed after. */
	if (tgz) {
		const char *t = getenv("TMPDIR");

		if ((size_t)snprintf(tmpdir, sizeof(tmpdir), "%s/tiertune-capture.XXXXXX",
				     t && *t ? t : "/tmp") >= sizeof(tmpdir) ||
		    !mkdtemp(tmpdir))
			return cli_fail(tt_err_sys(TT_EFAIL, errno, "cannot make '%s'", tmpdir));
		if ((size_t)snprintf(dir, sizeof(dir), "%s/tree", tmpdir) >= sizeof(dir)) {
			tt_capture_remove(tmpdir);
			return cli_fail(tt_err(TT_EINPUT, "TMPDIR '%s' is too long", t));
		}
	}
	snprintf(by, sizeof(by), "tiertune capture %s", cli_version);
	rc = tt_capture(&cli->sfs, tgz ? dir : out, anonymize ? "anonymous" : NULL, by, &st);
	if (rc == 0 && tgz)
		rc = make_tarball(dir, out);
	if (tgz)
		tt_capture_remove(tmpdir);
	if (rc < 0)
		return cli_fail(rc);
	printf("captured %s into %s: %d files (%lld bytes), %d links%s\n", tt_sysfs_root(&cli->sfs),
	       out, st.files, st.bytes, st.links, anonymize ? ", host name 'anonymous'" : "");
	if (st.unreadable)
		printf("%d files the kernel would not let this user read were left out%s\n",
		       st.unreadable, geteuid() ? " (as root, fewer)" : "");
	if (st.refused)
		printf("%d entries refused: links out of the root, files that are not regular "
		       "or over %u MiB\n",
		       st.refused, TT_CAPTURE_MAX_FILE >> 20);
	if (tgz)
		printf("read it back: mkdir DIR && tar -xzf %s -C DIR && tiertune --sysfs-root DIR "
		       "topo\n",
		       out);
	else
		printf("read it back: tiertune --sysfs-root %s topo\n", out);
	return 0;
}
