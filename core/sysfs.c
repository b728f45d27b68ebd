#define _GNU_SOURCE /* O_PATH */
#include "sysfs.h"

#include "error.h"
#include "fixture-kernel.h"
#include "parse.h"
#include "wi.h"

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
		tt_fixture_recover(s);
	}
	return 0;
}

const char *tt_sysfs_root(const struct tt_sysfs *s)
{
	return s->live ? "/" : s->root;
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

static int read_path(const char *path, char *buf, size_t size)
{
	size_t len = 0;
	int fd, rc = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
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

int tt_sysfs_read(const struct tt_sysfs *s, char *buf, size_t size, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vpath(s, path, sizeof(path), fmt, ap);
	va_end(ap);
	return rc < 0 ? rc : read_path(path, buf, size);
}

int tt_sysfs_read_u64(const struct tt_sysfs *s, uint64_t *out, uint64_t min, uint64_t max,
		      const char *fmt, ...)
{
	char path[PATH_MAX], buf[64];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vpath(s, path, sizeof(path), fmt, ap);
	va_end(ap);
	if (rc < 0)
		return rc;
	rc = read_path(path, buf, sizeof(buf));
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
	rc = vpath(s, path, sizeof(path), fmt, ap);
	va_end(ap);
	if (rc < 0)
		return rc;
	rc = read_path(path, buf, sizeof(buf));
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

int tt_sysfs_write(const struct tt_sysfs *s, const char *value, const char *fmt, ...)
{
	char path[PATH_MAX], rel[PATH_MAX];
	size_t len = strlen(value);
	va_list ap;
	ssize_t n;
	int fd, rc;

	va_start(ap, fmt);
	n = vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(rel))
		return tt_err(TT_EINPUT, "path '%s' is too long", fmt);
	if (!tt_wi_weight_file(rel, NULL))
		return tt_err(TT_EINPUT, "refusing to write '%s': not an interleave weight file",
			      rel);
	rc = tt_sysfs_path(s, path, sizeof(path), "%s", rel);
	if (rc < 0)
		return rc;
	if (!s->live)
		return tt_fixture_store(s, path, rel, value);
	if (getenv("TIERTUNE_TEST_NO_LIVE_WRITES"))
		return tt_err(TT_EUNAVAIL, "refusing to write '%s' on the live system under tests",
			      path);
	fd = tt_sysfs_open(s, rel, O_WRONLY);
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
