// SPDX-License-Identifier: GPL-3.0-or-later
/* A machine's files into a tree (capture.h). */
#define _GNU_SOURCE /* O_DIRECTORY, fdopendir */
#include "capture.h"

#include "../core/error.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct cap {
	const struct tt_sysfs *s;
	char dest[PATH_MAX]; /* the temporary tree */
	const char *hostname;
	struct tt_capture_stats *st;
	int entries; /* files, folders and links met, against TT_CAPTURE_MAX_ENTRIES */
	/* Links found on the way, made at the end if their target was copied. */
	int nlinks;
	struct link {
		char *at;     /* live path of the link ("/sys/...") */
		char *target; /* its text, relative */
	} * links;
};

/* What a tree walk keeps: rel is the folder's live path, name the entry. */
typedef bool (*keep_fn)(const char *rel, const char *name, bool dir);

/* Never copied: a device's plumbing, not its description. */
static bool plumbing(const char *name)
{
	static const char *const skip[] = { "uevent",	      "power",	       "subsystem",
					    "driver",	      "firmware_node", "of_node",
					    "iommu",	      "iommu_group",   "modalias",
					    "driver_override" };

	for (size_t i = 0; i < sizeof(skip) / sizeof(*skip); i++)
		if (strcmp(name, skip[i]) == 0)
			return true;
	return false;
}

/* The parents of path (a full path in the copy) made. */
static int mkdirs(char *path)
{
	for (char *p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		int rc = mkdir(path, 0755);

		*p = '/';
		if (rc < 0 && errno != EEXIST)
			return tt_err_sys(TT_EFAIL, errno, "cannot make '%s'", path);
	}
	return 0;
}

static int dest_path(const struct cap *c, const char *rel, char *out, size_t size)
{
	if ((size_t)snprintf(out, size, "%s%s", c->dest, rel) >= size)
		return tt_err(TT_EINPUT, "path too long: '%s%s'", c->dest, rel);
	return 0;
}

static int count_entry(struct cap *c)
{
	if (++c->entries > TT_CAPTURE_MAX_ENTRIES)
		return tt_err(TT_EINPUT,
			      "more than %d entries under '%s': not the sysfs of a machine",
			      TT_CAPTURE_MAX_ENTRIES, tt_sysfs_root(c->s));
	return 0;
}

/* A file's status from tt_sysfs_open into the counts: missing or not
 * readable by this user (a write-only trigger, root's only), or reached
 * through a link, which a copy never follows. */
static void count_unopened(struct cap *c, int status)
{
	if (status == TT_EINPUT)
		c->st->refused++;
	else
		c->st->unreadable++;
}

/* Reads fd whole into *buf (malloc'd). sysfs gives an attribute in one
 * read; procfs files come in several, and a sysctl allocates what a read
 * asks for (ENOMEM past kmalloc's limit): 64 KiB at a time. 1 when the
 * file is larger than TT_CAPTURE_MAX_FILE, -1 on a read error. */
static int slurp(int fd, char **buf, size_t *len)
{
	size_t cap = 65536;
	char *b = malloc(cap);

	*len = 0;
	if (!b)
		return -1;
	for (;;) {
		ssize_t n;

		if (*len == cap) {
			char *nb = cap < TT_CAPTURE_MAX_FILE ? realloc(b, 2 * cap) : NULL;

			if (!nb) {
				free(b);
				return cap < TT_CAPTURE_MAX_FILE ? -1 : 1;
			}
			b = nb;
			cap *= 2;
		}
		n = read(fd, b + *len, cap - *len < 65536 ? cap - *len : 65536);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			free(b);
			return -1;
		}
		if (n == 0)
			break;
		*len += (size_t)n;
	}
	*buf = b;
	return 0;
}

/* One regular file, at the same live path in the copy. A file the kernel
 * will not read is left out and counted; a write failure in the copy is an
 * error. */
static int copy_file(struct cap *c, const char *rel)
{
	char to[PATH_MAX], *buf = NULL;
	struct stat st;
	size_t len;
	int in, out, rc;

	rc = count_entry(c);
	if (rc < 0 || (rc = dest_path(c, rel, to, sizeof(to))) < 0)
		return rc;
	in = tt_sysfs_open(c->s, rel, O_RDONLY | O_NONBLOCK);
	if (in < 0) {
		count_unopened(c, in);
		return 0;
	}
	/* A FIFO or device planted in a tree is not sysfs: never read. */
	if (fstat(in, &st) < 0 || !S_ISREG(st.st_mode)) {
		c->st->refused++;
		close(in);
		return 0;
	}
	rc = slurp(in, &buf, &len);
	close(in);
	if (rc != 0) {
		if (rc > 0)
			c->st->refused++;
		else
			c->st->unreadable++;
		return 0;
	}
	if (c->hostname && strcmp(rel, "/proc/sys/kernel/hostname") == 0) {
		free(buf);
		len = strlen(c->hostname) + 1;
		buf = malloc(len + 1);
		if (!buf)
			return tt_err(TT_EFAIL, "out of memory");
		snprintf(buf, len + 1, "%s\n", c->hostname);
	}
	rc = mkdirs(to);
	out = rc == 0 ? open(to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644) : -1;
	if (rc == 0 && out < 0)
		rc = tt_err_sys(TT_EFAIL, errno, "cannot write '%s'", to);
	if (out >= 0) {
		if (write(out, buf, len) != (ssize_t)len)
			rc = tt_err_sys(TT_EFAIL, errno, "cannot write '%s'", to);
		if (close(out) < 0 && rc == 0)
			rc = tt_err_sys(TT_EFAIL, errno, "cannot write '%s'", to);
	}
	free(buf);
	if (rc == 0) {
		c->st->files++;
		c->st->bytes += (long long)len;
	}
	return rc;
}

/* A relative link's target resolved by its text from the folder dir (live
 * paths both): 0 and out set, or -1 when it climbs above the root. */
static int resolve(const char *dir, const char *target, char *out, size_t size)
{
	char t[PATH_MAX], *save = NULL;
	size_t len;

	if (target[0] == '/' || (size_t)snprintf(out, size, "%s", dir) >= size ||
	    (size_t)snprintf(t, sizeof(t), "%s", target) >= sizeof(t))
		return -1;
	len = strlen(out);
	for (char *p = strtok_r(t, "/", &save); p; p = strtok_r(NULL, "/", &save)) {
		if (strcmp(p, ".") == 0)
			continue;
		if (strcmp(p, "..") == 0) {
			char *slash = strrchr(out, '/');

			if (!slash || slash == out)
				return -1;
			*slash = '\0';
			len = (size_t)(slash - out);
			continue;
		}
		if (len + 1 + strlen(p) >= size)
			return -1;
		out[len++] = '/';
		strcpy(out + len, p);
		len += strlen(p);
	}
	return len > 1 ? 0 : -1;
}

static int note_link(struct cap *c, const char *at, const char *target)
{
	struct link *l;
	int rc = count_entry(c);

	if (rc < 0)
		return rc;
	if (c->nlinks % 256 == 0) {
		l = realloc(c->links, (size_t)(c->nlinks + 256) * sizeof(*l));
		if (!l)
			return tt_err(TT_EFAIL, "out of memory");
		c->links = l;
	}
	l = &c->links[c->nlinks];
	l->at = strdup(at);
	l->target = strdup(target);
	if (!l->at || !l->target) {
		free(l->at);
		free(l->target);
		return tt_err(TT_EFAIL, "out of memory");
	}
	c->nlinks++;
	return 0;
}

/* The folder rel beneath the root, through no link; NULL when it is not
 * there (counted when it is refused). */
static DIR *open_dir(struct cap *c, const char *rel)
{
	int fd = tt_sysfs_open(c->s, rel, O_RDONLY | O_DIRECTORY);
	DIR *d;

	if (fd < 0) {
		if (fd == TT_EINPUT)
			c->st->refused++;
		return NULL;
	}
	d = fdopendir(fd);
	if (!d)
		close(fd);
	return d;
}

/* rel's entries into the copy at the same place, depth folders down, those
 * keep keeps. A relative link is noted (made at the end if what it names
 * was copied); the walk never follows one. */
static int copy_tree(struct cap *c, const char *rel, int depth, keep_fn keep)
{
	char sub[PATH_MAX], target[PATH_MAX];
	struct dirent *e;
	DIR *d = open_dir(c, rel);
	int rc = 0;

	if (!d)
		return 0; /* absent here: nothing to copy */
	while (rc == 0 && (e = readdir(d))) {
		struct stat st;

		if (e->d_name[0] == '.' || plumbing(e->d_name) ||
		    (size_t)snprintf(sub, sizeof(sub), "%s/%s", rel, e->d_name) >= sizeof(sub) ||
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (keep && !keep(rel, e->d_name, S_ISDIR(st.st_mode)))
			continue;
		if (S_ISDIR(st.st_mode)) {
			rc = depth > 0 ? count_entry(c) : 0;
			if (rc == 0 && depth > 0)
				rc = copy_tree(c, sub, depth - 1, keep);
		} else if (S_ISREG(st.st_mode)) {
			rc = copy_file(c, sub);
		} else if (S_ISLNK(st.st_mode)) {
			ssize_t n = readlinkat(dirfd(d), e->d_name, target, sizeof(target) - 1);

			if (n > 0) {
				target[n] = '\0';
				rc = note_link(c, sub, target);
			}
		} else {
			c->st->refused++;
		}
	}
	closedir(d);
	return rc;
}

/* The links whose target is in the copy (a node's initiators and CPUs, a
 * CPU's node, a bus's devices): the others would dangle. A link that would
 * lead out of the copy is never made. */
static int make_links(struct cap *c)
{
	char at[PATH_MAX], dir[PATH_MAX], to[PATH_MAX], full[PATH_MAX];
	struct stat st;

	for (int i = 0; i < c->nlinks; i++) {
		const struct link *l = &c->links[i];
		char *slash;

		snprintf(dir, sizeof(dir), "%s", l->at);
		slash = strrchr(dir, '/');
		if (!slash)
			continue;
		*slash = '\0';
		if (resolve(dir, l->target, to, sizeof(to)) < 0) {
			c->st->refused++;
			continue;
		}
		if (dest_path(c, to, full, sizeof(full)) < 0 || lstat(full, &st) < 0 ||
		    dest_path(c, l->at, at, sizeof(at)) < 0)
			continue;
		if (mkdirs(at) < 0)
			return TT_EFAIL;
		if (symlink(l->target, at) < 0)
			return tt_err_sys(TT_EFAIL, errno, "cannot link '%s'", at);
		c->st->links++;
	}
	return 0;
}

/* A bus's devices: on a live machine each entry is a link into
 * /sys/devices, copied as such, with (when devices is set) the device it
 * names copied at its place; in a fixture tree, a folder, copied as one. */
static int copy_bus(struct cap *c, const char *bus, bool devices, int depth, keep_fn keep)
{
	char sub[PATH_MAX], target[PATH_MAX], real[PATH_MAX], full[PATH_MAX];
	struct dirent *e;
	DIR *d = open_dir(c, bus);
	int rc = 0;

	if (!d)
		return 0;
	while (rc == 0 && (e = readdir(d))) {
		struct stat st;
		ssize_t n;

		if (e->d_name[0] == '.' ||
		    (size_t)snprintf(sub, sizeof(sub), "%s/%s", bus, e->d_name) >= sizeof(sub) ||
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			rc = devices ? copy_tree(c, sub, depth, keep) : 0;
			continue;
		}
		if (!S_ISLNK(st.st_mode) ||
		    (n = readlinkat(dirfd(d), e->d_name, target, sizeof(target) - 1)) <= 0)
			continue;
		target[n] = '\0';
		/* Only into /sys/devices, beneath the root. */
		if (resolve(bus, target, real, sizeof(real)) < 0 ||
		    strncmp(real, "/sys/devices/", 13) != 0) {
			c->st->refused++;
			continue;
		}
		rc = note_link(c, sub, target);
		if (rc == 0 && devices && dest_path(c, real, full, sizeof(full)) == 0 &&
		    lstat(full, &st) < 0)
			rc = copy_tree(c, real, depth, keep);
	}
	closedir(d);
	return rc;
}

/* A node: everything but its memory blocks (memoryN, thousands on a large
 * machine, and nothing here reads them) and the compaction trigger. */
static bool keep_node(const char *rel, const char *name, bool dir)
{
	(void)rel;
	(void)dir;
	return fnmatch("memory[0-9]*", name, 0) != 0 && strcmp(name, "compact") != 0 &&
	       strcmp(name, "reclaim") != 0;
}

/* A CPU: online, topology and caches (hwloc's and the bench's last-level
 * cache); not cpufreq, microcode, or the hotplug states. */
static bool keep_cpu(const char *rel, const char *name, bool dir)
{
	static const char *const top[] = { "online", "possible", "present", "offline",
					   "kernel_max" };

	if (strcmp(rel, "/sys/devices/system/cpu") == 0) {
		if (dir)
			return fnmatch("cpu[0-9]*", name, 0) == 0;
		for (size_t i = 0; i < sizeof(top) / sizeof(*top); i++)
			if (strcmp(name, top[i]) == 0)
				return true;
		return false;
	}
	if (fnmatch("/sys/devices/system/cpu/cpu[0-9]*", rel, FNM_PATHNAME) == 0)
		return dir ? strcmp(name, "topology") == 0 || strcmp(name, "cache") == 0
			   : strcmp(name, "online") == 0 || fnmatch("node[0-9]*", name, 0) == 0;
	return true;
}

/* A CXL device: what maps its memory to a node (regions' targets, their
 * dax devices' nodes, endpoint decoders' modes). */
static bool keep_cxl(const char *rel, const char *name, bool dir)
{
	(void)rel;
	if (dir)
		return fnmatch("dax_region[0-9]*", name, 0) == 0 ||
		       fnmatch("dax[0-9]*", name, 0) == 0 ||
		       fnmatch("endpoint[0-9]*", name, 0) == 0 ||
		       fnmatch("decoder[0-9]*", name, 0) == 0;
	return fnmatch("target[0-9]*", name, 0) == 0 || strcmp(name, "target_node") == 0 ||
	       strcmp(name, "mode") == 0;
}

/* resctrl: what the collector reads (the monitoring features and each
 * domain's counters); not the groups' tasks (process ids) or schemata. */
static bool keep_resctrl(const char *rel, const char *name, bool dir)
{
	if (strcmp(rel, "/sys/fs/resctrl") == 0)
		return dir && (strcmp(name, "info") == 0 || strcmp(name, "mon_data") == 0);
	return true;
}

static int source_note(struct cap *c, const char *by)
{
	char path[PATH_MAX], when[64];
	time_t now = time(NULL);
	const char *from = c->s->abs;
	struct tm tm;
	FILE *f;

	/* An anonymised copy names no path: a home folder names its user. */
	if (c->s->live)
		from = "this machine's /sys and /proc";
	else if (c->hostname)
		from = "a copy of a machine's tree";
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", gmtime_r(&now, &tm));
	f = (size_t)snprintf(path, sizeof(path), "%s/SOURCE", c->dest) < sizeof(path)
		    ? fopen(path, "wx")
		    : NULL;
	if (!f)
		return tt_err_sys(TT_EFAIL, errno, "cannot write '%s'", path);
	fprintf(f,
		"Captured by %s on %s from %s%s.\n"
		"What tiertune reads (nodes, CPUs with their topology and caches, HMAT access\n"
		"classes, memory tiers, interleave weights, distances, PMUs, CXL regions, the\n"
		"per-node meminfo, vmstat and numastat, resctrl's monitoring counters,\n"
		"/proc/cpuinfo, meminfo and vmstat; no process, no boot id, no DMI table),\n"
		"copied as the kernel showed it then: tiertune --sysfs-root DIR reads it back,\n"
		"hwloc too (HWLOC_FSROOT=DIR lstopo). Counters and free memory are a snapshot.\n",
		by, when, from, c->hostname ? ", host name replaced" : "");
	return fclose(f) == 0 ? 0 : tt_err_sys(TT_EFAIL, errno, "cannot write '%s'", path);
}

/* The caller's file at the top of the tree; not counted as copied. */
static int extra_file(struct cap *c, const struct tt_capture_file *x)
{
	char path[PATH_MAX];
	size_t len = strlen(x->text);
	FILE *f;

	if (!*x->name || strchr(x->name, '/') || strcmp(x->name, "..") == 0 ||
	    strcmp(x->name, ".") == 0 || strcmp(x->name, "SOURCE") == 0)
		return tt_err(TT_EINPUT, "'%s' is not a file name for the top of a capture",
			      x->name);
	f = (size_t)snprintf(path, sizeof(path), "%s/%s", c->dest, x->name) < sizeof(path)
		    ? fopen(path, "wx")
		    : NULL;
	if (!f)
		return tt_err_sys(TT_EFAIL, errno, "cannot write '%s'", path);
	if (fwrite(x->text, 1, len, f) != len) {
		int err = errno;

		fclose(f);
		return tt_err_sys(TT_EFAIL, err, "cannot write '%s'", path);
	}
	return fclose(f) == 0 ? 0 : tt_err_sys(TT_EFAIL, errno, "cannot write '%s'", path);
}

static void remove_tree(int parent, const char *name)
{
	int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;

	if (fd >= 0 && !d)
		close(fd);
	while (d && (e = readdir(d))) {
		struct stat st;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (e->d_type == DT_DIR ||
		    (e->d_type == DT_UNKNOWN &&
		     fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		     S_ISDIR(st.st_mode)))
			remove_tree(dirfd(d), e->d_name);
		else
			unlinkat(dirfd(d), e->d_name, 0);
	}
	if (d)
		closedir(d);
	unlinkat(parent, name, AT_REMOVEDIR);
}

int tt_capture(const struct tt_sysfs *s, const char *dest, const char *hostname, const char *by,
	       const struct tt_capture_file *extra, struct tt_capture_stats *st)
{
	static const char *const files[] = {
		"/proc/cpuinfo",
		"/proc/meminfo",
		"/proc/vmstat",
		"/proc/sys/kernel/hostname",
		"/proc/sys/kernel/osrelease",
		"/proc/sys/kernel/numa_balancing",
		"/proc/sys/kernel/perf_event_paranoid",
		"/sys/kernel/mm/numa/demotion_enabled",
	};
	static const struct {
		const char *rel;
		int depth;
		keep_fn keep;
	} trees[] = {
		{ "/sys/devices/system/node", 5, keep_node },
		{ "/sys/devices/system/cpu", 4, keep_cpu },
		{ "/sys/devices/virtual/memory_tiering", 2, NULL },
		{ "/sys/kernel/mm/mempolicy", 2, NULL },
		{ "/sys/fs/resctrl", 3, keep_resctrl },
	};
	struct cap c = { .s = s, .hostname = hostname, .st = st };
	struct stat sb;
	int rc = 0;

	memset(st, 0, sizeof(*st));
	if (!tt_sysfs_exists(s, "/sys/devices/system/node"))
		return tt_err(TT_EUNAVAIL, "no /sys/devices/system/node under '%s' to capture",
			      tt_sysfs_root(s));
	if (lstat(dest, &sb) == 0)
		return tt_err(TT_EINPUT, "'%s' exists: capture makes a new folder", dest);
	if ((size_t)snprintf(c.dest, sizeof(c.dest), "%s.tmp-XXXXXX", dest) >= sizeof(c.dest) ||
	    !mkdtemp(c.dest))
		return tt_err_sys(TT_EINPUT, errno, "cannot make a folder beside '%s'", dest);
	chmod(c.dest, 0755);
	for (size_t i = 0; i < sizeof(files) / sizeof(*files) && rc == 0; i++)
		if (tt_sysfs_exists(s, "%s", files[i]))
			rc = copy_file(&c, files[i]);
	for (size_t i = 0; i < sizeof(trees) / sizeof(*trees) && rc == 0; i++)
		rc = copy_tree(&c, trees[i].rel, trees[i].depth, trees[i].keep);
	if (rc == 0)
		rc = copy_bus(&c, "/sys/bus/event_source/devices", true, 2, NULL);
	if (rc == 0)
		rc = copy_bus(&c, "/sys/bus/cxl/devices", true, 4, keep_cxl);
	/* hwloc finds CPUs and nodes through these links (copied above). */
	if (rc == 0)
		rc = copy_bus(&c, "/sys/bus/cpu/devices", false, 0, NULL);
	if (rc == 0)
		rc = copy_bus(&c, "/sys/bus/node/devices", false, 0, NULL);
	if (rc == 0)
		rc = make_links(&c);
	if (rc == 0)
		rc = source_note(&c, by);
	for (const struct tt_capture_file *x = extra; rc == 0 && x && x->name; x++)
		rc = extra_file(&c, x);
	if (rc == 0 && rename(c.dest, dest) < 0)
		rc = tt_err_sys(TT_EFAIL, errno, "cannot rename '%s' to '%s'", c.dest, dest);
	if (rc < 0)
		tt_capture_remove(c.dest);
	for (int i = 0; i < c.nlinks; i++) {
		free(c.links[i].at);
		free(c.links[i].target);
	}
	free(c.links);
	return rc;
}

void tt_capture_remove(const char *dir)
{
	remove_tree(AT_FDCWD, dir);
}
