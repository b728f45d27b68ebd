// SPDX-License-Identifier: GPL-3.0-or-later
#define _GNU_SOURCE /* O_PATH */
#include "sysfs.h"

#include "error.h"
#include "parse.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* open_read's errno for a file that is neither a regular file nor a
 * folder (no errno says that). */
#define EFTYPE_NOT_REGULAR (-1000)

/* A tree that is not shaped like sysfs (a folder where a file belongs, a
 * symlink loop, a file where a folder belongs) is bad input, not a runtime
 * failure: the same tree fails the same way every time. */
static int open_status(int errnum)
{
	switch (errnum) {
	case ENOENT:
	case EACCES:
	case EPERM:
	case EROFS:
		return TT_EUNAVAIL;
	case EISDIR:
	case ENOTDIR:
	case ELOOP:
	case EXDEV:
		return TT_EINPUT;
	default:
		return TT_EFAIL;
	}
}

int tt_sysfs_init(struct tt_sysfs *s, const char *root)
{
	char real[PATH_MAX];
	struct stat st;

	if (!root || !*root)
		return tt_err(TT_EINPUT, "sysfs root '' is empty");
	if (stat(root, &st) < 0)
		return tt_err_sys(TT_EINPUT, errno, "sysfs root '%s'", root);
	if (!S_ISDIR(st.st_mode))
		return tt_err(TT_EINPUT, "sysfs root '%s' is not a directory", root);
	if (!realpath(root, real))
		return tt_err_sys(TT_EINPUT, errno, "sysfs root '%s'", root);
	s->live = strcmp(real, "/") == 0;
	memcpy(s->abs, real, sizeof(s->abs));
	if (s->live) {
		s->root[0] = '\0';
	} else {
		size_t len = strlen(root);

		if (len >= sizeof(s->root))
			return tt_err(TT_EINPUT, "sysfs root '%s' is too long", root);
		memcpy(s->root, root, len + 1);
		while (len > 1 && s->root[len - 1] == '/')
			s->root[--len] = '\0';
	}
	s->store = NULL;
	return 0;
}

const char *tt_sysfs_root(const struct tt_sysfs *s)
{
	return s->live ? "/" : s->root;
}

/* rel (the live path, "/sys/...") and path (beneath the root) from fmt. */
static int vpaths(const struct tt_sysfs *s, char *path, char *rel, size_t size, const char *fmt,
		  va_list ap)
{
	int n = vsnprintf(rel, size, fmt, ap);

	if (n < 0 || (size_t)n >= size)
		return tt_err(TT_EINPUT, "path under '%s' is too long", tt_sysfs_root(s));
	return tt_sysfs_path(s, path, size, "%s", rel);
}

static int vpath(const struct tt_sysfs *s, char *out, size_t size, const char *fmt, va_list ap)
{
	size_t rl = strlen(s->root);
	int n;

	if (rl >= size)
		return tt_err(TT_EINPUT, "path under '%s' is too long", s->root);
	memcpy(out, s->root, rl);
	n = vsnprintf(out + rl, size - rl, fmt, ap);
	if (n < 0 || (size_t)n >= size - rl)
		return tt_err(TT_EINPUT, "path under '%s' is too long", tt_sysfs_root(s));
	return 0;
}

int tt_sysfs_path(const struct tt_sysfs *s, char *out, size_t size, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vpath(s, out, size, fmt, ap);
	va_end(ap);
	return rc;
}

bool tt_sysfs_exists(const struct tt_sysfs *s, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vpath(s, path, sizeof(path), fmt, ap);
	va_end(ap);
	return rc == 0 && access(path, F_OK) == 0;
}

/* Opens a file to read. Under a fixture root (anything but "/"), beneath
 * it only: the kernel's relative links inside the tree are followed, a
 * link out of it is refused before anything is read, so a planted link
 * cannot make a message quote another file. O_NONBLOCK, and only a regular
 * file (or a folder, which the read refuses as before): a FIFO planted in
 * the tree would otherwise block the open forever. */
static int open_read(const struct tt_sysfs *s, const char *path, const char *rel)
{
	struct open_how how = {
		.flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
	};
	struct stat st;
	int dirfd, fd, err;

	if (s->live)
		return open(path, O_RDONLY | O_CLOEXEC);
	dirfd = open(s->root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return -1;
	fd = (int)syscall(SYS_openat2, dirfd, rel[0] == '/' ? rel + 1 : rel, &how, sizeof(how));
	if (fd < 0 && (errno == ENOSYS || errno == EPERM)) {
		/* Before 5.6: the resolved path must lie beneath the root. */
		char real[PATH_MAX];
		size_t n = strlen(s->abs);

		if (!realpath(path, real)) {
			fd = -1;
		} else if (strncmp(real, s->abs, n) || (real[n] != '/' && strcmp(s->abs, "/"))) {
			errno = EXDEV;
			fd = -1;
		} else {
			fd = open(real, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		}
	}
	err = errno;
	close(dirfd);
	if (fd >= 0 && fstat(fd, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		close(fd);
		fd = -1;
		err = EFTYPE_NOT_REGULAR;
	}
	errno = err;
	return fd;
}

static int read_path(const struct tt_sysfs *s, const char *path, const char *rel, char *buf,
		     size_t size)
{
	size_t len = 0;
	int fd, rc = 0;

	fd = open_read(s, path, rel);
	if (fd < 0 && errno == EXDEV)
		return tt_err(TT_EINPUT, "'%s' leads through a symbolic link or out of '%s'", path,
			      tt_sysfs_root(s));
	if (fd < 0 && errno == EFTYPE_NOT_REGULAR)
		return tt_err(TT_EINPUT, "'%s' is not a regular file", path);
	if (fd < 0)
		return tt_err_sys(open_status(errno), errno, "cannot read '%s'", path);
	for (;;) {
		ssize_t n;

		if (len + 1 >= size) {
			rc = tt_err(TT_EINPUT, "file '%s' is larger than %zu bytes", path,
				    size - 1);
			goto out;
		}
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			rc = tt_err_sys(errno == EISDIR ? TT_EINPUT : TT_EFAIL, errno,
					"cannot read '%s'", path);
			goto out;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	if (memchr(buf, '\0', len)) {
		rc = tt_err(TT_EINPUT, "file '%s' holds binary data", path);
		goto out;
	}
	tt_chomp(buf);
	rc = (int)strlen(buf);
out:
	close(fd);
	return rc;
}

/* The file fmt names, read into buf as read_path does; its path under the
 * root in path (PATH_MAX bytes), for a reader's own messages. */
static int vread(const struct tt_sysfs *s, char *path, char *buf, size_t size, const char *fmt,
		 va_list ap)
{
	char rel[PATH_MAX];
	int rc = vpaths(s, path, rel, PATH_MAX, fmt, ap);

	return rc < 0 ? rc : read_path(s, path, rel, buf, size);
}

int tt_sysfs_read(const struct tt_sysfs *s, char *buf, size_t size, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vread(s, path, buf, size, fmt, ap);
	va_end(ap);
	return rc;
}

int tt_sysfs_read_u64(const struct tt_sysfs *s, uint64_t *out, uint64_t min, uint64_t max,
		      const char *fmt, ...)
{
	char path[PATH_MAX], buf[64];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vread(s, path, buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (rc < 0)
		return rc;
	rc = tt_parse_u64(buf, min, max, out);
	if (rc == -ERANGE)
		return tt_err(TT_EINPUT, "value '%s' in '%s' out of range (%ju-%ju)", buf, path,
			      (uintmax_t)min, (uintmax_t)max);
	if (rc)
		return tt_err(TT_EINPUT, "value '%s' in '%s' is not a number", buf, path);
	return 0;
}

int tt_sysfs_read_list(const struct tt_sysfs *s, uint64_t *bits, unsigned int nbits,
		       const char *fmt, ...)
{
	char path[PATH_MAX], buf[8192];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vread(s, path, buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (rc < 0)
		return rc;
	if (tt_parse_list(buf, bits, nbits))
		return tt_err(TT_EINPUT, "list '%s' in '%s' is malformed (want e.g. 0-3,8)", buf,
			      path);
	return 0;
}

/* Kernels before 5.6 (ENOSYS) and seccomp filters that do not know
 * openat2 (EPERM on some container runtimes): one O_NOFOLLOW open per
 * component, each relative to the last. */
static int open_walk(int dirfd, const char *rel, int flags)
{
	char buf[PATH_MAX], *save = NULL, *next;
	int fd = dup(dirfd);

	if (fd < 0)
		return -1;
	snprintf(buf, sizeof(buf), "%s", rel);
	for (char *c = strtok_r(buf, "/", &save); c; c = next) {
		int nfd;

		next = strtok_r(NULL, "/", &save);
		if (strcmp(c, "..") == 0 || strcmp(c, ".") == 0) {
			close(fd);
			errno = EXDEV;
			return -1;
		}
		nfd = openat(fd, c,
			     next ? O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
				  : flags | O_NOFOLLOW | O_CLOEXEC);
		close(fd);
		if (nfd < 0)
			return -1;
		fd = nfd;
	}
	return fd;
}

int tt_sysfs_open(const struct tt_sysfs *s, const char *rel, int flags)
{
	struct open_how how = {
		.flags = (uint64_t)(flags | O_NOFOLLOW | O_CLOEXEC),
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	char path[PATH_MAX];
	int dirfd, fd, err;

	if (rel[0] != '/' || tt_sysfs_path(s, path, sizeof(path), "%s", rel) < 0)
		return tt_err(TT_EINPUT, "path '%s' is not absolute or too long", rel);
	/* The root itself may be reached through symlinks: it is what the
	 * user named. Only what lies beneath it is held to the rules. */
	dirfd = open(s->live ? "/" : s->root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return tt_err_sys(open_status(errno), errno, "cannot open sysfs root '%s'",
				  tt_sysfs_root(s));
	fd = (int)syscall(SYS_openat2, dirfd, rel + 1, &how, sizeof(how));
	if (fd < 0 && (errno == ENOSYS || errno == EPERM))
		fd = open_walk(dirfd, rel + 1, flags);
	err = errno;
	close(dirfd);
	if (fd >= 0)
		return fd;
	if (err == ELOOP || err == EXDEV) {
		tt_err(TT_EINPUT, "'%s' leads through a symbolic link or out of '%s'", path,
		       tt_sysfs_root(s));
		tt_err_hint("tiertune opens files to write only beneath the sysfs root, never "
			    "through a link");
		return TT_EINPUT;
	}
	return tt_err_sys(open_status(err), err, "cannot open '%s'%s", path,
			  (flags & O_ACCMODE) == O_RDONLY ? "" : " for writing");
}

static int live_write(const struct tt_sysfs *s, const char *path, const char *rel,
		      const char *value)
{
	size_t len = strlen(value);
	int fd = tt_sysfs_open(s, rel, O_WRONLY), rc = 0;
	ssize_t n;

	if (fd < 0)
		return fd;
	n = write(fd, value, len);
	if (n < 0)
		rc = tt_err_sys(TT_EFAIL, errno, "writing '%s' to '%s'", value, path);
	else if ((size_t)n != len)
		rc = tt_err(TT_EFAIL, "short write of '%s' to '%s'", value, path);
	if (close(fd) < 0 && rc == 0)
		rc = tt_err_sys(TT_EFAIL, errno, "writing '%s' to '%s'", value, path);
	return rc;
}

const struct tt_sysfs_store tt_sysfs_live_store = { .name = "live", .write = live_write };

int tt_sysfs_write(const struct tt_sysfs *s, const char *value, const char *fmt, ...)
{
	char path[PATH_MAX], rel[PATH_MAX];
	va_list ap;
	int n, rc;

	va_start(ap, fmt);
	n = vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(rel))
		return tt_err(TT_EINPUT, "path '%s' is too long", fmt);
	rc = tt_sysfs_path(s, path, sizeof(path), "%s", rel);
	if (rc < 0)
		return rc;
	if (!s->store)
		return tt_err(TT_EUNAVAIL, "cannot write '%s': sysfs root '%s' is open for reading",
			      path, tt_sysfs_root(s));
	return s->store->write(s, path, rel, value);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int tt_sysfs_list(const struct tt_sysfs *s, char ***names, const char *fmt, ...)
{
	char path[PATH_MAX];
	struct dirent *de;
	size_t n = 0, cap = 16;
	char **v = NULL;
	va_list ap;
	DIR *d;
	int rc;

	va_start(ap, fmt);
	rc = vpath(s, path, sizeof(path), fmt, ap);
	va_end(ap);
	if (rc < 0)
		return rc;
	d = opendir(path);
	if (!d)
		return tt_err_sys(open_status(errno), errno, "cannot list '%s'", path);
	v = malloc(cap * sizeof(*v));
	if (!v) {
		rc = tt_err(TT_EFAIL, "out of memory listing '%s'", path);
		goto out;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (n + 1 == cap) {
			char **nv = realloc(v, 2 * cap * sizeof(*v));

			if (!nv) {
				rc = tt_err(TT_EFAIL, "out of memory listing '%s'", path);
				goto out;
			}
			v = nv;
			cap *= 2;
		}
		v[n] = strdup(de->d_name);
		if (!v[n]) {
			rc = tt_err(TT_EFAIL, "out of memory listing '%s'", path);
			goto out;
		}
		n++;
	}
	qsort(v, n, sizeof(*v), cmp_names);
	v[n] = NULL;
	*names = v;
	v = NULL;
out:
	if (v) {
		v[n] = NULL;
		tt_sysfs_free_names(v);
	}
	closedir(d);
	return rc;
}

void tt_sysfs_free_names(char **names)
{
	if (!names)
		return;
	for (char **p = names; *p; p++)
		free(*p);
	free(names);
}
