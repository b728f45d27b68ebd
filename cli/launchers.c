// SPDX-License-Identifier: GPL-3.0-or-later
/* What this host's launchers take (cli.h): numactl's --weighted-interleave
 * and systemd's NUMAPolicy=weighted-interleave, asked of the programs
 * installed when a recipe or an export is printed, never assumed from a
 * version table: distributions backport, and a fleet's hosts differ. */
#include "cli.h"

#include "../core/error.h"
#include "../measure/app.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* cmd in PATH (tt_app_find), leaving the error a caller set untouched:
 * a recipe is printed beside a command's own error (export --run of a
 * per_source run), which a missing numactl must not replace. */
static bool find_quietly(const char *cmd, char *path, size_t size)
{
	char msg[2048], hint[1024];
	bool found;

	snprintf(msg, sizeof(msg), "%s", tt_err_msg());
	snprintf(hint, sizeof(hint), "%s", tt_err_hint_msg());
	found = tt_app_find(cmd, path, size) == 0;
	tt_err(0, "%s", msg);
	if (hint[0])
		tt_err_hint("%s", hint);
	return found;
}

/* argv's standard output and error, at most size - 1 bytes of them, in
 * out; its exit status (-1 when it could not run). The program is looked
 * up in PATH first, so a missing one costs no fork. */
static int capture(char *const argv[], char *out, size_t size)
{
	char path[4096];
	int fd[2], status;
	size_t len = 0;
	ssize_t got;
	pid_t pid;

	out[0] = '\0';
	if (!find_quietly(argv[0], path, sizeof(path)) || pipe(fd) < 0)
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		if (null >= 0)
			dup2(null, 0);
		dup2(fd[1], 1);
		dup2(fd[1], 2);
		close(fd[0]);
		execv(path, argv);
		_exit(127);
	}
	close(fd[1]);
	while ((got = read(fd[0], out + len, size - 1 - len)) != 0) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			break;
		len += (size_t)got;
		/* The rest is read and dropped, so the program never blocks
		 * on a full pipe. */
		if (len == size - 1) {
			char sink[512];

			while (read(fd[0], sink, sizeof(sink)) > 0)
				;
			break;
		}
	}
	out[len] = '\0';
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The first line of argv's output ("numactl 2.0.16", "systemd 252
 * (252.38-1~deb12u1)"), or "" when there is none. */
static void first_line(char *const argv[], char *buf, size_t size)
{
	char out[512];
	size_t len;

	capture(argv, out, sizeof(out));
	len = strcspn(out, "\n");
	if (len >= size)
		len = size - 1;
	memcpy(buf, out, len);
	buf[len] = '\0';
}

bool cli_numactl_weighted(char *why, size_t size)
{
	char out[8192], version[128];

	/* numactl --help lists the options this numactl has: -w is in
	 * 2.0.19 (upstream tag v2.0.19), not in Debian 12's 2.0.16. */
	if (capture((char *const[]){ "numactl", "--help", NULL }, out, sizeof(out)) < 0) {
		snprintf(why, size, "no numactl in PATH");
		return false;
	}
	if (strstr(out, "--weighted-interleave"))
		return true;
	first_line((char *const[]){ "numactl", "--version", NULL }, version, sizeof(version));
	snprintf(why, size, "this host's numactl%s%s has no --weighted-interleave (2.0.19+)",
		 strncmp(version, "numactl ", 8) ? "" : " ",
		 strncmp(version, "numactl ", 8) ? "" : version + 8);
	return false;
}

int cli_systemd_weighted(char *version, size_t size)
{
	const char *tmp = getenv("TMPDIR");
	char dir[4096], unit[4200], out[4096];
	FILE *f;
	int rc = -1;

	first_line((char *const[]){ "systemd-analyze", "--version", NULL }, version, size);
	if (!version[0])
		return -1;
	/* Asked of systemd itself: a unit with the policy, verified. One
	 * that does not know the value says "Invalid NUMA policy type,
	 * ignoring" (systemd 252) and still exits 0. */
	snprintf(dir, sizeof(dir), "%s/tiertune-probe.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return -1;
	snprintf(unit, sizeof(unit), "%s/tt-probe.service", dir);
	f = fopen(unit, "w");
	if (f) {
		fputs("[Unit]\nDescription=probe\n[Service]\nExecStart=/bin/true\n"
		      "NUMAPolicy=weighted-interleave\nNUMAMask=0\n",
		      f);
		/* Only a verify that passed says anything: 252 passes over a
		 * policy it does not know, warning; a verify that failed for
		 * another reason (no manager, a container) cannot tell. */
		if (fclose(f) == 0 &&
		    capture((char *const[]){ "systemd-analyze", "verify", "--man=no", unit, NULL },
			    out, sizeof(out)) == 0)
			rc = !strstr(out, "NUMA");
		unlink(unit);
	}
	rmdir(dir);
	return rc;
}
