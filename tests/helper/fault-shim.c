// SPDX-License-Identifier: GPL-3.0-or-later
/* A fault shim for the tests (LD_PRELOAD=BUILD/tests/fault-shim.so): the
 * reads of one file go as a script says, so a test makes the I/O a failing
 * disk gives, which strace's injection cannot: it fails or fakes a call
 * whole (the call is not made), never lets it read part of what was asked.
 *
 *	TT_FAULT_PATH=/abs/file  the file (as /proc/self/fd names it)
 *	TT_FAULT_READ=short:300,eio,ok
 *	    one step per read() of that file, in order, then every read as
 *	    it is: short:N reads at most N bytes (for real), eio fails with
 *	    EIO, enospc with ENOSPC, ok reads as asked.
 *	TT_FAULT_UNLINK=/abs/file  unlink() of that path (as the caller
 *	    names it) fails with EIO: a journal a committed apply could not
 *	    remove.
 * Issue 35's history finding was a short read and then EIO: a reader that
 * takes the error as the end of the file keeps the records before it. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static ssize_t (*real_read)(int, void *, size_t);
static int step; /* the reads of the file so far */

/* The script's step for this read, NULL when done; *arg its number. */
static const char *next_step(long *arg)
{
	const char *s = getenv("TT_FAULT_READ");
	int i = 0;

	while (s && *s && i < step) {
		s = strchr(s, ',');
		s = s ? s + 1 : NULL;
		i++;
	}
	step++;
	if (!s || !*s)
		return NULL;
	*arg = strncmp(s, "short:", 6) == 0 ? strtol(s + 6, NULL, 10) : 0;
	return s;
}

static int is_target(int fd)
{
	const char *want = getenv("TT_FAULT_PATH");
	char link[64], got[PATH_MAX];
	ssize_t n;

	if (!want)
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, got, sizeof(got) - 1);
	if (n < 0)
		return 0;
	got[n] = '\0';
	return strcmp(got, want) == 0;
}

ssize_t read(int fd, void *buf, size_t count)
{
	const char *s;
	long arg;

	if (!real_read)
		real_read = (ssize_t(*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
	if (!is_target(fd) || !(s = next_step(&arg)))
		return real_read(fd, buf, count);
	if (strncmp(s, "short:", 6) == 0 && arg >= 0 && (size_t)arg < count)
		return real_read(fd, buf, (size_t)arg);
	if (strncmp(s, "eio", 3) == 0 || strncmp(s, "enospc", 6) == 0) {
		errno = s[1] == 'i' ? EIO : ENOSPC;
		return -1;
	}
	return real_read(fd, buf, count);
}

/* _FORTIFY_SOURCE's form of read (Debian's package build turns it on). */
ssize_t __read_chk(int fd, void *buf, size_t count, size_t buflen);
ssize_t __read_chk(int fd, void *buf, size_t count, size_t buflen)
{
	if (count > buflen)
		abort();
	return read(fd, buf, count);
}

int unlink(const char *path)
{
	static int (*real_unlink)(const char *);
	const char *want = getenv("TT_FAULT_UNLINK");

	if (!real_unlink)
		real_unlink = (int (*)(const char *))dlsym(RTLD_NEXT, "unlink");
	if (want && strcmp(path, want) == 0) {
		errno = EIO;
		return -1;
	}
	return real_unlink(path);
}
