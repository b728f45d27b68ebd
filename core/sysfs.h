/*
 * Every read and write of /sys and /proc goes through here, under a root
 * prefix (--sysfs-root, default "/"), so that tests and demos run against
 * fixture trees of real multi-tier machines. Paths are given as on a live
 * system ("/sys/devices/system/node/node%d/distance").
 *
 *	struct tt_sysfs sfs;
 *	if (tt_sysfs_init(&sfs, root) < 0) ...
 *	tt_sysfs_read_u64(&sfs, &v, 1, 255, "/sys/kernel/mm/.../node%d", n);
 *
 * Under any other root, writes apply the kernel's store rules to the
 * fixture's files (fixture-kernel.h), so a fixture behaves like a kernel.
 * Writes refuse to touch the live system when TIERTUNE_TEST_NO_LIVE_WRITES is
 * set in the environment: the test suites set it, so a test can never leave
 * the host's weights changed.
 */
#ifndef TT_SYSFS_H
#define TT_SYSFS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tt_sysfs {
	char root[PATH_MAX]; /* without trailing '/'; "" for the live system */
	char abs[PATH_MAX];  /* the root resolved (realpath), "/" for the live system */
	bool live;	     /* root resolves to "/" */
};

int tt_sysfs_init(struct tt_sysfs *s, const char *root);
/* The display form of the root: "/" or the directory given. */
const char *tt_sysfs_root(const struct tt_sysfs *s);

int tt_sysfs_path(const struct tt_sysfs *s, char *out, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
bool tt_sysfs_exists(const struct tt_sysfs *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Reads a whole file into buf, NUL-terminated, one trailing newline
 * removed. Returns the length, TT_EUNAVAIL when the file is missing, or
 * TT_EFAIL/TT_EINPUT (file larger than buf) with the path in the message. */
int tt_sysfs_read(const struct tt_sysfs *s, char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* A single decimal in [min, max]; a malformed value is TT_EINPUT naming the
 * file and the text. */
int tt_sysfs_read_u64(const struct tt_sysfs *s, uint64_t *out, uint64_t min, uint64_t max,
		      const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* A "%*pbl" list ("0-3,8") into bits[nbits]. */
int tt_sysfs_read_list(const struct tt_sysfs *s, uint64_t *bits, unsigned int nbits,
		       const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Opens rel (a live path, "/sys/...") beneath the root and nowhere else:
 * openat2 with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS, or on kernels before
 * 5.6 a walk of O_NOFOLLOW opens, one component at a time. A symlink or
 * ".." on the way is TT_EINPUT, so a planted link cannot turn a write under
 * a fixture copy (or the live /sys) into a write elsewhere. Returns the fd
 * or a negative status. */
int tt_sysfs_open(const struct tt_sysfs *s, const char *rel, int flags);

/* Writes value with one write(2), as sysfs attributes require, to an
 * existing file (never creates one), opened with tt_sysfs_open. Only the
 * weight interfaces' own files (tt_wi_weight_file) are ever written:
 * anything else is TT_EINPUT, whatever a journal or profile names. */
int tt_sysfs_write(const struct tt_sysfs *s, const char *value, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Names in a directory, sorted, into a NULL-terminated malloc'd array
 * (free with tt_sysfs_free_names). A missing directory is TT_EUNAVAIL. */
int tt_sysfs_list(const struct tt_sysfs *s, char ***names, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void tt_sysfs_free_names(char **names);

#endif
