/* SPDX-License-Identifier: GPL-3.0-or-later */
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
 * Plain I/O under the root, nothing more. Writes go to the root's store,
 * chosen when the root is opened for writing (core/root.h: the live
 * kernel's files, or the fixture kernel's store rules for any other root);
 * a root opened with tt_sysfs_init alone is for reading. Which files may be
 * written is the writer's business (writer/apply.c), not this file's.
 *
 * Reads under a root other than "/" stay beneath it: a symlink that leads
 * out of the tree is refused (its target's content never reaches a
 * message), and a file that is not a regular one (a FIFO planted in a
 * copy) is refused without blocking.
 */
#ifndef TT_SYSFS_H
#define TT_SYSFS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tt_sysfs;

/* Where a root's writes go (core/root.c picks one). path is the full path
 * (for messages), rel the live-system path ("/sys/..."). */
struct tt_sysfs_store {
	const char *name;
	int (*write)(const struct tt_sysfs *s, const char *path, const char *rel,
		     const char *value);
};

/* The kernel's own files: one write(2) to a file opened with tt_sysfs_open. */
extern const struct tt_sysfs_store tt_sysfs_live_store;

struct tt_sysfs {
	char root[PATH_MAX]; /* without trailing '/'; "" for the live system */
	char abs[PATH_MAX];  /* the root resolved (realpath), "/" for the live system */
	bool live;	     /* root resolves to "/" */
	const struct tt_sysfs_store *store; /* NULL: opened for reading only */
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

/* Writes value to an existing file (never creates one) through the root's
 * store; TT_EUNAVAIL when the root was opened for reading only. */
int tt_sysfs_write(const struct tt_sysfs *s, const char *value, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Names in a directory, sorted, into a NULL-terminated malloc'd array
 * (free with tt_sysfs_free_names). A missing directory is TT_EUNAVAIL. */
int tt_sysfs_list(const struct tt_sysfs *s, char ***names, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void tt_sysfs_free_names(char **names);

#endif
