// SPDX-License-Identifier: GPL-3.0-or-later
#include "state.h"

#include "error.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int tt_state_dir(enum tt_dir_kind kind, char *buf, size_t size)
{
	const char *env = getenv("TIERTUNE_STATE_DIR"), *home = getenv("HOME");
	const char *xdg = getenv(kind == TT_DIR_STATE ? "XDG_STATE_HOME" : "XDG_DATA_HOME");
	int n;

	if (kind == TT_DIR_STATE && env && *env)
		n = snprintf(buf, size, "%s", env);
	else if (geteuid() == 0)
		n = snprintf(buf, size, "/var/lib/tiertune");
	else if (xdg && *xdg == '/')
		n = snprintf(buf, size, "%s/tiertune", xdg);
	else if (home && *home)
		n = snprintf(buf, size, "%s/.local/%s/tiertune", home,
			     kind == TT_DIR_STATE ? "state" : "share");
	else
		return tt_err(TT_EINPUT, "no %s folder: set %sHOME",
			      kind == TT_DIR_STATE ? "state" : "data",
			      kind == TT_DIR_STATE ? "TIERTUNE_STATE_DIR or " : "");
	if (n < 0 || (size_t)n >= size)
		return tt_err(TT_EINPUT, "%s folder path is too long",
			      kind == TT_DIR_STATE ? "state" : "data");
	return 0;
}

int tt_state_mkdirs(const char *dir)
{
	char buf[4096];

	if (snprintf(buf, sizeof(buf), "%s", dir) >= (int)sizeof(buf))
		return tt_err(TT_EINPUT, "folder path '%.64s...' is too long", dir);
	for (char *p = buf + 1;; p++) {
		if (*p && *p != '/')
			continue;
		char c = *p;

		*p = '\0';
		if (mkdir(buf, 0700) < 0 && errno != EEXIST)
			return tt_err_sys(TT_EFAIL, errno, "cannot create folder '%s'", buf);
		if (!c)
			return 0;
		*p = c;
	}
}

int tt_state_prepare(const char *dir)
{
	struct stat st;
	int rc = tt_state_mkdirs(dir);

	if (rc < 0)
		return rc;
	if (lstat(dir, &st) < 0)
		return tt_err_sys(TT_EFAIL, errno, "cannot inspect state folder '%s'", dir);
	if (S_ISLNK(st.st_mode))
		return tt_err(TT_EINPUT, "state folder '%s' is a symbolic link", dir);
	if (!S_ISDIR(st.st_mode))
		return tt_err(TT_EINPUT, "state folder '%s' is not a folder", dir);
	if (st.st_uid != geteuid()) {
		tt_err(TT_EINPUT,
		       "state folder '%s' belongs to uid %d, not to uid %d running tiertune", dir,
		       (int)st.st_uid, (int)geteuid());
		tt_err_hint("its journal and history decide what tiertune writes to sysfs");
		return TT_EINPUT;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		return tt_err(TT_EINPUT, "state folder '%s' is writable by others (mode %03o)", dir,
			      (unsigned int)(st.st_mode & 0777));
	return 0;
}

int tt_open_regular(const char *path, int flags, unsigned int mode, const char *what)
{
	int fd = open(path, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, (mode_t)mode), err;
	struct stat st;

	bool rd = (flags & O_ACCMODE) == O_RDONLY;

	if (fd < 0) {
		/* ENXIO: a FIFO with no reader, opened to write without blocking. */
		int rc = rd && (errno == ENOENT || errno == ELOOP) ? TT_EINPUT : TT_EFAIL;

		err = errno;
		/* O_NOFOLLOW's ELOOP ("too many levels of symbolic links")
		 * means the path itself is a link: said so, and to a reader
		 * the way on (a link to write through is refused, not
		 * explained: another user may have planted it). */
		if (err == ELOOP) {
			tt_err(rc,
			       "cannot %s %s '%s': it is a symbolic link, and tiertune opens only "
			       "the file itself",
			       rd ? "read" : "open", what, path);
			if (rd)
				tt_err_hint(
					"give the path of the file it points to (readlink -f '%s')",
					path);
		} else {
			tt_err_sys(rc, err, "cannot %s %s '%s'", rd ? "read" : "open", what, path);
		}
		errno = err;
		return rc;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return tt_err(TT_EINPUT, "%s '%s' is not a regular file", what, path);
	}
	if (fcntl(fd, F_SETFL, flags & O_APPEND) < 0) {
		err = errno;
		close(fd);
		return tt_err_sys(TT_EFAIL, err, "cannot open %s '%s'", what, path);
	}
	return fd;
}
