#define _GNU_SOURCE /* O_PATH */
#include "fixture-kernel.h"

#include "error.h"
#include "parse.h"
#include "topo.h"
#include "weights.h"
#include "wi.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define WI_DIR "/sys/kernel/mm/mempolicy/weighted_interleave/"

#define TMP_SUFFIX ".tt-store"

/* rel is the live path: the file is opened beneath the fixture root only
 * (tt_sysfs_open), as a live write would be. A kernel store is one write(2)
 * that happens or not; truncating and writing in place would leave an
 * empty file to a kill in between, a state no kernel shows (and which an
 * RFC store, reading the line it updates, cannot undo). So: a hidden temp
 * file beside it, then rename. */
static int replace_file(const struct tt_sysfs *s, const char *rel, const char *content)
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

	remove_temps(s, "/sys/kernel/mm/mempolicy/weighted_interleave");
	if (tt_sysfs_list(s, &names, "/sys/devices/virtual/memory_tiering") < 0)
		return;
	for (char **p = names; *p; p++) {
		snprintf(dir, sizeof(dir), "/sys/devices/virtual/memory_tiering/%s", *p);
		remove_temps(s, dir);
	}
	tt_sysfs_free_names(names);
}

static int rejected(const char *path, const char *value, int errnum)
{
	return tt_err_sys(TT_EFAIL, errnum, "writing '%s' to '%s'", value, path);
}

/* kstrtou8(buf, 0, ...): base prefixes, one trailing newline. */
static int kstrtou8(const char *value, unsigned int *out)
{
	char buf[32], *end;
	unsigned long v;

	if (strlen(value) >= sizeof(buf) || value[0] == '-' || value[0] == '+' || value[0] == ' ')
		return -EINVAL;
	strcpy(buf, value);
	tt_chomp(buf);
	if (!buf[0])
		return -EINVAL;
	errno = 0;
	v = strtoul(buf, &end, 0);
	if (errno || *end || v > 255)
		return -EINVAL;
	*out = (unsigned int)v;
	return 0;
}

/* kstrtobool: the first character decides; "on"/"off" need the second. */
static int kstrtobool(const char *v, int *out)
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

static const char *auto_file(const struct tt_sysfs *s)
{
	if (tt_sysfs_exists(s, WI_DIR "auto"))
		return "auto";
	if (tt_sysfs_exists(s, WI_DIR "__auto_type"))
		return "__auto_type";
	return NULL;
}

static int store_node_weight(const struct tt_sysfs *s, const char *path, const char *rel,
			     const char *value)
{
	const char *af = auto_file(s);
	char buf[16], ap[PATH_MAX];
	unsigned int w;
	int rc;

	/* 6.16+ (the kernels with an auto file) reject 0 and ""; 6.9-6.15
	 * store 0 as "system default". */
	if (kstrtou8(value, &w) < 0 && !(!af && (value[0] == '\0' || strcmp(value, "\n") == 0)))
		return rejected(path, value, EINVAL);
	if (value[0] == '\0' || strcmp(value, "\n") == 0)
		w = 0;
	if (af && w == 0)
		return rejected(path, value, EINVAL);
	snprintf(buf, sizeof(buf), "%u\n", w);
	rc = replace_file(s, rel, buf);
	if (rc < 0 || !af)
		return rc;
	snprintf(ap, sizeof(ap), WI_DIR "%s", af);
	return replace_file(s, ap, "false\n");
}

static int store_auto(const struct tt_sysfs *s, const char *path, const char *rel,
		      const char *value)
{
	struct tt_topo t;
	struct tt_weights w;
	int on, rc, node;

	if (kstrtobool(value, &on) < 0)
		return rejected(path, value, EINVAL);
	if (!on)
		return replace_file(s, rel, "false\n");
	rc = tt_topo_load(&t, s);
	if (rc < 0)
		return rc;
	rc = tt_weights_auto_topo(&t, &w);
	tt_topo_release(&t);
	/* No HMAT/CDAT bandwidth ever reported: weighted_interleave_auto_store
	 * returns -ENODEV. */
	if (rc == TT_EUNAVAIL)
		return rejected(path, value, ENODEV);
	tt_nodemask_for_each (node, &w.set) {
		char p[PATH_MAX], buf[16];

		if (!tt_sysfs_exists(s, WI_DIR "node%d", node))
			continue;
		snprintf(buf, sizeof(buf), "%u\n", w.w[node]);
		snprintf(p, sizeof(p), WI_DIR "node%d", node);
		if ((rc = replace_file(s, p, buf)) < 0)
			return rc;
	}
	return replace_file(s, rel, "true\n");
}

/* Seed 003 interleave_weight_store: "src:weight", src an online node,
 * weight 0..100; the show side lists every online node as "n:w". */
static int store_tier_weight(const struct tt_sysfs *s, const char *path, const char *rel,
			     const char *value)
{
	char cur[8192], out[8192], *save = NULL;
	const char *colon = strchr(value, ':');
	char srcbuf[16];
	uint64_t src;
	unsigned int w;
	size_t len = 0;
	bool found = false;
	int rc;

	if (!colon || (size_t)(colon - value) >= sizeof(srcbuf))
		return rejected(path, value, EINVAL);
	memcpy(srcbuf, value, (size_t)(colon - value));
	srcbuf[colon - value] = '\0';
	if (tt_parse_u64(srcbuf, 0, TT_MAX_NODES - 1, &src) || kstrtou8(colon + 1, &w) < 0 ||
	    w > 100)
		return rejected(path, value, EINVAL);
	{
		int fd = tt_sysfs_open(s, rel, O_RDONLY);
		ssize_t n;

		if (fd < 0)
			return fd;
		n = read(fd, cur, sizeof(cur) - 1);
		close(fd);
		if (n < 0)
			return tt_err_sys(TT_EFAIL, errno, "cannot read '%s'", path);
		cur[n] = '\0';
		tt_chomp(cur);
	}
	out[0] = '\0';
	for (char *tok = strtok_r(cur, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint64_t n;
		const char *c = strchr(tok, ':');

		if (!c || tt_parse_u64_prefix(tok, 0, TT_MAX_NODES - 1, &n, &c) || *c != ':')
			return tt_err(TT_EINPUT, "malformed interleave_weight '%s' in '%s'", tok,
				      path);
		if (n == src) {
			found = true;
			rc = snprintf(out + len, sizeof(out) - len, "%s%ju:%u", len ? "," : "",
				      (uintmax_t)n, w);
		} else {
			rc = snprintf(out + len, sizeof(out) - len, "%s%s", len ? "," : "", tok);
		}
		if (rc < 0 || (size_t)rc >= sizeof(out) - len)
			return tt_err(TT_EFAIL, "interleave_weight in '%s' too long", path);
		len += (size_t)rc;
	}
	/* The kernel accepts only online source nodes, which show lists. */
	if (!found)
		return rejected(path, value, EINVAL);
	if (len + 2 > sizeof(out))
		return tt_err(TT_EFAIL, "interleave_weight in '%s' too long", path);
	strcat(out, "\n");
	return replace_file(s, rel, out);
}

/* Fault injection for the transaction tests, fixtures only:
 * TIERTUNE_TEST_FIXTURE_FAULT=fail:N makes the Nth store of this process fail
 * (EIO), garble:N makes it store a different value (the read-back then
 * differs), kill:N kills the process with SIGKILL just before it. */
static int fault(const char *path, const char **value)
{
	static int stores;
	const char *f = getenv("TIERTUNE_TEST_FIXTURE_FAULT"), *colon;
	uint64_t at;

	stores++;
	if (!f || !(colon = strchr(f, ':')) || tt_parse_u64(colon + 1, 1, INT32_MAX, &at) ||
	    (uint64_t)stores != at)
		return 0;
	if (strncmp(f, "kill:", 5) == 0)
		raise(SIGKILL);
	if (strncmp(f, "fail:", 5) == 0)
		return rejected(path, *value, EIO);
	if (strncmp(f, "garble:", 7) == 0)
		*value = strchr(*value, ':') ? "0:99" : "77";
	return 0;
}

int tt_fixture_store(const struct tt_sysfs *s, const char *path, const char *rel, const char *value)
{
	const char *base = strrchr(rel, '/');
	int rc = fault(path, &value);

	if (rc < 0)
		return rc;

	base = base ? base + 1 : rel;
	if (strncmp(rel, WI_DIR, strlen(WI_DIR)) == 0) {
		if (strcmp(base, "auto") == 0 || strcmp(base, "__auto_type") == 0)
			return store_auto(s, path, rel, value);
		if (strncmp(base, "node", 4) == 0)
			return store_node_weight(s, path, rel, value);
	}
	if (strncmp(rel, "/sys/devices/virtual/memory_tiering/", 36) == 0 &&
	    strcmp(base, "interleave_weight") == 0)
		return store_tier_weight(s, path, rel, value);
	/* Another backend's file (wi.h: a new one needs no rule here) holds
	 * what is written; tt_sysfs_write lets only weight files through. */
	enum tt_write_kind kind;
	if (tt_wi_weight_file(rel, &kind) && kind == TT_WRITE_PLAIN) {
		char line[64];

		/* As sysfs shows a value: with a newline. */
		if (snprintf(line, sizeof(line), "%s\n", value) >= (int)sizeof(line))
			return rejected(path, value, EINVAL);
		return replace_file(s, rel, line);
	}
	return tt_err(TT_EINPUT, "refusing to write '%s': not an interleave weight file", path);
}
