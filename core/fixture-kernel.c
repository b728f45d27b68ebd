// SPDX-License-Identifier: GPL-3.0-or-later
#define _GNU_SOURCE /* O_PATH */
#include "fixture-kernel.h"

#include "error.h"
#include "parse.h"
#include "wi.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TMP_SUFFIX ".tt-store"

/* rel is the live path: the file is opened beneath the fixture root only
 * (tt_sysfs_open), as a live write would be. A kernel store is one write(2)
 * that happens or not; truncating and writing in place would leave an
 * empty file to a kill in between, a state no kernel shows (and which an
 * RFC store, reading the line it updates, cannot undo). So: a hidden temp
 * file beside it, then rename. */
int tt_fixture_replace(const struct tt_sysfs *s, const char *rel, const char *content)
{
	char dir[PATH_MAX], tmp[NAME_MAX + 1];
	const char *base = strrchr(rel, '/') + 1;
	size_t len = strlen(content);
	struct stat st;
	int fd, dfd, rc = 0;

	/* Exists, is a file we may write, reached through no link. */
	fd = tt_sysfs_open(s, rel, O_WRONLY);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0)
		st.st_mode = 0644;
	close(fd);
	snprintf(dir, sizeof(dir), "%.*s", (int)(base - 1 - rel), rel);
	if (snprintf(tmp, sizeof(tmp),
		     "."
		     "%s" TMP_SUFFIX,
		     base) >= (int)sizeof(tmp))
		return tt_err(TT_EINPUT, "file name '%s' is too long", base);
	dfd = tt_sysfs_open(s, dir, O_PATH | O_DIRECTORY);
	if (dfd < 0)
		return dfd;
	unlinkat(dfd, tmp, 0);
	fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		    st.st_mode & 0777);
	if (fd < 0) {
		rc = tt_err_sys(TT_EFAIL, errno, "cannot write '%s%s'", s->root, rel);
		goto out;
	}
	if (write(fd, content, len) != (ssize_t)len)
		rc = tt_err_sys(TT_EFAIL, errno, "writing '%s%s'", s->root, rel);
	if (close(fd) < 0 && rc == 0)
		rc = tt_err_sys(TT_EFAIL, errno, "writing '%s%s'", s->root, rel);
	if (rc == 0 && renameat(dfd, tmp, dfd, base) < 0)
		rc = tt_err_sys(TT_EFAIL, errno, "writing '%s%s'", s->root, rel);
	if (rc < 0)
		unlinkat(dfd, tmp, 0);
out:
	close(dfd);
	return rc;
}

static void remove_temps(const struct tt_sysfs *s, const char *dir)
{
	int dfd = tt_sysfs_open(s, dir, O_RDONLY | O_DIRECTORY);
	struct dirent *de;
	DIR *d;

	if (dfd < 0 || !(d = fdopendir(dfd))) {
		if (dfd >= 0)
			close(dfd);
		return;
	}
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (de->d_name[0] == '.' && n > strlen(TMP_SUFFIX) &&
		    strcmp(de->d_name + n - strlen(TMP_SUFFIX), TMP_SUFFIX) == 0)
			unlinkat(dirfd(d), de->d_name, 0);
	}
	closedir(d);
}

void tt_fixture_recover(const struct tt_sysfs *s)
{
	char **names = NULL, dir[PATH_MAX];

	/* A backend's files are in its folder or the folders in it (the
	 * RFC's memory_tierN). */
	for (const struct tt_wi_backend *const *b = tt_wi_backends; *b; b++) {
		remove_temps(s, (*b)->dir);
		if (tt_sysfs_list(s, &names, "%s", (*b)->dir) < 0)
			continue;
		for (char **p = names; *p; p++) {
			snprintf(dir, sizeof(dir), "%s/%s", (*b)->dir, *p);
			remove_temps(s, dir);
		}
		tt_sysfs_free_names(names);
	}
}

int tt_fixture_rejected(const char *path, const char *value, int errnum)
{
	return tt_err_sys(TT_EFAIL, errnum, "writing '%s' to '%s'", value, path);
}

/* lib/kstrtox.c: an optional '+', the radix from the prefix when base is 0
 * ("0x" hex, "0" octal), at least one digit, one optional newline and
 * nothing else; -ERANGE as soon as the digits overflow 64 bits or the value
 * exceeds the type (kstrtou8 on "256"), -EINVAL for anything else. */
int tt_kstrtoull(const char *s, unsigned int base, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	bool overflow = false;
	int ndigits = 0;

	if (*s == '+')
		s++;
	if (base == 0)
		base = s[0] != '0'						       ? 10
		       : (s[1] == 'x' || s[1] == 'X') && isxdigit((unsigned char)s[2]) ? 16
										       : 8;
	if (base == 16 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	for (;; s++, ndigits++) {
		unsigned int d;

		if (*s >= '0' && *s <= '9')
			d = (unsigned int)(*s - '0');
		else if (*s >= 'a' && *s <= 'f')
			d = (unsigned int)(*s - 'a' + 10);
		else if (*s >= 'A' && *s <= 'F')
			d = (unsigned int)(*s - 'A' + 10);
		else
			break;
		if (d >= base)
			break;
		if (v > (UINT64_MAX - d) / base)
			overflow = true;
		v = v * base + d;
	}
	if (overflow)
		return -ERANGE;
	if (ndigits == 0)
		return -EINVAL;
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	if (v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int tt_kstrtou8(const char *value, unsigned int *out)
{
	uint64_t v;
	int rc = tt_kstrtoull(value, 0, 255, &v);

	if (rc == 0)
		*out = (unsigned int)v;
	return rc;
}

/* kstrtobool: the first character decides; "on"/"off" need the second. */
int tt_kstrtobool(const char *v, int *out)
{
	switch (v[0]) {
	case 'y':
	case 'Y':
	case 't':
	case 'T':
	case '1':
		*out = 1;
		return 0;
	case 'n':
	case 'N':
	case 'f':
	case 'F':
	case '0':
		*out = 0;
		return 0;
	case 'o':
	case 'O':
		if (v[1] == 'n' || v[1] == 'N') {
			*out = 1;
			return 0;
		}
		if (v[1] == 'f' || v[1] == 'F') {
			*out = 0;
			return 0;
		}
		return -EINVAL;
	default:
		return -EINVAL;
	}
}

static int add_to_list(const struct tt_sysfs *s, const char *rel, int node)
{
	struct tt_nodemask m = { 0 };
	char buf[4096];
	int rc = tt_sysfs_read_list(s, m.bits, TT_MAX_NODES, "%s", rel);

	if (rc < 0)
		return rc;
	tt_bit_set(m.bits, (unsigned int)node);
	tt_bit_format_list(m.bits, TT_MAX_NODES, buf, sizeof(buf) - 1);
	strcat(buf, "\n");
	return tt_fixture_replace(s, rel, buf);
}

int tt_fixture_node_online(const struct tt_sysfs *s, int node, int tier)
{
	char rel[PATH_MAX], why[256];
	int rc;

	if (node < 0 || node >= TT_MAX_NODES)
		return tt_err(TT_EINPUT, "node %d out of range (0-%d)", node, TT_MAX_NODES - 1);
	snprintf(rel, sizeof(rel), TT_WI_TIER_DIR "/memory_tier%d/nodelist", tier);
	rc = add_to_list(s, "/sys/devices/system/node/has_memory", node);
	if (rc == 0)
		rc = add_to_list(s, rel, node);
	for (const struct tt_wi_backend *const *b = tt_wi_backends; *b && rc == 0; b++)
		if ((*b)->fixture_node_joined && (*b)->detect(s, why, sizeof(why)) == 0)
			rc = (*b)->fixture_node_joined(s, tier);
	return rc;
}

/* Fault injection for the transaction tests, fixtures only (core/root.c
 * hands the spec over): fail:N makes the Nth store of this process fail
 * (EIO), garble:N makes it store a different value (the read-back then
 * differs), kill:N kills the process with SIGKILL just before it. */
static const char *fault_spec;

void tt_fixture_fault(const char *spec)
{
	fault_spec = spec;
}

int tt_fixture_fault_step(const char *path, const char **value)
{
	static int stores;
	const char *f = fault_spec, *colon;
	uint64_t at;

	stores++;
	if (!f || !(colon = strchr(f, ':')) || tt_parse_u64(colon + 1, 1, INT32_MAX, &at) ||
	    (uint64_t)stores != at)
		return 0;
	if (strncmp(f, "kill:", 5) == 0)
		raise(SIGKILL);
	if (strncmp(f, "fail:", 5) == 0)
		return tt_fixture_rejected(path, *value, EIO);
	if (strncmp(f, "garble:", 7) == 0)
		*value = strchr(*value, ':') ? "0:99" : "77";
	return 0;
}

/* Each backend's own store rules (struct tt_wi_backend.fixture_store);
 * a file with none holds what is written, with a newline as sysfs shows
 * a value. Only weight files (DAMON's: fixture-damon.c, in front of this). */
static int fixture_write(const struct tt_sysfs *s, const char *path, const char *rel,
			 const char *value)
{
	const struct tt_wi_backend *be = NULL;
	int rc = tt_fixture_fault_step(path, &value);
	enum tt_write_kind kind = TT_WRITE_PLAIN, k;
	char line[64], why[256];

	if (rc < 0)
		return rc;
	/* Two backends can own one path (the RFCs' memory_tierN/
	 * interleave_weight): the tree is one kernel, so the store is that of
	 * the backend the tree has. */
	for (const struct tt_wi_backend *const *b = tt_wi_backends; *b; b++) {
		if (!(*b)->weight_file(rel, &k))
			continue;
		if (!be) {
			be = *b;
			kind = k;
		}
		if ((*b)->detect(s, why, sizeof(why)) == 0) {
			be = *b;
			kind = k;
			break;
		}
	}
	if (!be || (!be->fixture_store && kind != TT_WRITE_PLAIN))
		return tt_err(TT_EINPUT, "refusing to write '%s': not an interleave weight file",
			      path);
	if (be->fixture_store)
		return be->fixture_store(s, path, rel, value);
	if (snprintf(line, sizeof(line), "%s\n", value) >= (int)sizeof(line))
		return tt_fixture_rejected(path, value, EINVAL);
	return tt_fixture_replace(s, rel, line);
}

const struct tt_sysfs_store tt_fixture_kernel = { .name = "fixture", .write = fixture_write };
