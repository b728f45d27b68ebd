// SPDX-License-Identifier: GPL-3.0-or-later
/* What DAMON's sysfs store handlers (mm/damon/sysfs.c, sysfs-schemes.c)
 * leave behind, for fixture trees: writing N to an nr_* file removes every
 * directory of that kind and creates 0..N-1 with the files the ABI lists
 * (Documentation/ABI/testing/sysfs-kernel-mm-damon), as the kernel's
 * *_add_dirs do after *_rm_dirs; nr_kdamonds is refused (EBUSY) while a
 * kdamond runs; target_metric takes only the names the release has, and
 * the release is the fixture's fixture-kernel/damon-goal-metrics (one name
 * a line: a kernel has no file listing them, docs/damon.md); state "on"
 * refuses node_eligible_mem_bp outside paddr as damon_commit_ctx does. */
#define _GNU_SOURCE /* O_PATH */
#include "fixture-damon.h"
#include "fixture-kernel.h"

#include "error.h"
#include "parse.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ADMIN "/sys/kernel/mm/damon/admin/kdamonds"
#define GOAL_METRICS "/fixture-kernel/damon-goal-metrics"

/* The files of one directory kind: "name=value", a name ending in '/' a
 * sub-directory. */
static const char *const kdamond_files[] = {
	"state=off", "pid=-1", "refresh_ms=0", "contexts/", "contexts/nr_contexts=0", NULL
};
static const char *const context_files[] = { "avail_operations=vaddr\nfvaddr\npaddr",
					     "operations=vaddr",
					     "addr_unit=1",
					     "monitoring_attrs/",
					     "monitoring_attrs/intervals/",
					     "monitoring_attrs/intervals/sample_us=5000",
					     "monitoring_attrs/intervals/aggr_us=100000",
					     "monitoring_attrs/intervals/update_us=1000000",
					     "monitoring_attrs/nr_regions/",
					     "monitoring_attrs/nr_regions/min=10",
					     "monitoring_attrs/nr_regions/max=1000",
					     "targets/",
					     "targets/nr_targets=0",
					     "schemes/",
					     "schemes/nr_schemes=0",
					     NULL };
static const char *const target_files[] = { "pid_target=0", "regions/", "regions/nr_regions=0",
					    NULL };
static const char *const region_files[] = { "start=0", "end=0", NULL };
static const char *const scheme_files[] = { "action=stat",
					    "target_nid=-1",
					    "apply_interval_us=0",
					    "access_pattern/",
					    "access_pattern/sz/",
					    "access_pattern/sz/min=0",
					    "access_pattern/sz/max=0",
					    "access_pattern/nr_accesses/",
					    "access_pattern/nr_accesses/min=0",
					    "access_pattern/nr_accesses/max=0",
					    "access_pattern/age/",
					    "access_pattern/age/min=0",
					    "access_pattern/age/max=0",
					    "quotas/",
					    "quotas/ms=0",
					    "quotas/bytes=0",
					    "quotas/reset_interval_ms=0",
					    "quotas/effective_bytes=0",
					    "quotas/goal_tuner=consist",
					    "quotas/weights/",
					    "quotas/weights/sz_permil=0",
					    "quotas/weights/nr_accesses_permil=0",
					    "quotas/weights/age_permil=0",
					    "quotas/goals/",
					    "quotas/goals/nr_goals=0",
					    "watermarks/",
					    "watermarks/metric=none",
					    "watermarks/interval_us=0",
					    "watermarks/high=0",
					    "watermarks/mid=0",
					    "watermarks/low=0",
					    "core_filters/",
					    "core_filters/nr_filters=0",
					    "ops_filters/",
					    "ops_filters/nr_filters=0",
					    "filters/",
					    "filters/nr_filters=0",
					    "dests/",
					    "dests/nr_dests=0",
					    "stats/",
					    "stats/nr_tried=0",
					    "stats/sz_tried=0",
					    "stats/nr_applied=0",
					    "stats/sz_applied=0",
					    "stats/qt_exceeds=0",
					    "tried_regions/",
					    "tried_regions/total_bytes=0",
					    NULL };
/* Landed with node_eligible_mem_bp (damo's _damon_sysfs.py tells the
 * goal's presence by them). */
static const char *const scheme_goal_release_files[] = { "quotas/fail_charge_num=0",
							 "quotas/fail_charge_denom=0", NULL };
static const char *const goal_files[] = {
	"target_metric=user_input", "target_value=0", "current_value=0", "nid=0", "path=", NULL
};
static const char *const filter_files[] = { "type=anon",    "matching=N", "allow=N", "memcg_path=",
					    "addr_start=0", "addr_end=0", NULL };
static const char *const dest_files[] = { "id=0", "weight=0", NULL };

static const struct {
	const char *count;	   /* the nr_* file's name */
	const char *parent_suffix; /* what the directory holding it ends with */
	const char *const *files;
} kinds[] = {
	{ "nr_kdamonds", "/kdamonds", kdamond_files },
	{ "nr_contexts", "/contexts", context_files },
	{ "nr_targets", "/targets", target_files },
	{ "nr_regions", "/regions", region_files },
	{ "nr_schemes", "/schemes", scheme_files },
	{ "nr_goals", "/goals", goal_files },
	{ "nr_filters", "_filters", filter_files },
	{ "nr_filters", "/filters", filter_files },
	{ "nr_dests", "/dests", dest_files },
};

static bool ends_with(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);

	return len >= n && memcmp(s + len - n, suffix, n) == 0;
}

/* The release's metric names: a line of the fixture's list. */
static bool metric_known(const struct tt_sysfs *s, const char *name)
{
	char list[1024];
	const char *p;
	size_t n = strlen(name);

	if (tt_sysfs_read(s, list, sizeof(list), GOAL_METRICS) < 0)
		return false;
	for (p = list; *p; p += strcspn(p, "\n"), p += *p == '\n') {
		if (strncmp(p, name, n) == 0 && (p[n] == '\n' || p[n] == '\0'))
			return true;
	}
	return false;
}

static int unlink_cb(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static int make_file(const struct tt_sysfs *s, const char *dir, const char *spec)
{
	char path[PATH_MAX];
	const char *eq = strchr(spec, '=');
	FILE *f;

	if (!eq) {
		tt_sysfs_path(s, path, sizeof(path), "%s/%s", dir, spec);
		return mkdir(path, 0755) == 0 || errno == EEXIST
			       ? 0
			       : tt_err_sys(TT_EFAIL, errno, "cannot create '%s'", path);
	}
	tt_sysfs_path(s, path, sizeof(path), "%s/%.*s", dir, (int)(eq - spec), spec);
	f = fopen(path, "w");
	if (!f)
		return tt_err_sys(TT_EFAIL, errno, "cannot create '%s'", path);
	fprintf(f, "%s\n", eq + 1);
	return fclose(f) == 0 ? 0 : tt_err_sys(TT_EFAIL, errno, "writing '%s'", path);
}

static int make_dirs(const struct tt_sysfs *s, const char *dir, const char *const *files,
		     uint64_t n)
{
	char sub[PATH_MAX], path[PATH_MAX];
	int rc = 0;

	for (uint64_t i = 0; i < n && rc == 0; i++) {
		snprintf(sub, sizeof(sub), "%.*s/%llu", PATH_MAX - 32, dir, (unsigned long long)i);
		tt_sysfs_path(s, path, sizeof(path), "%s", sub);
		if (mkdir(path, 0755) < 0)
			return tt_err_sys(TT_EFAIL, errno, "cannot create '%s'", path);
		for (const char *const *f = files; *f && rc == 0; f++)
			rc = make_file(s, sub, *f);
		if (files == scheme_files && metric_known(s, "node_eligible_mem_bp"))
			for (const char *const *f = scheme_goal_release_files; *f && rc == 0; f++)
				rc = make_file(s, sub, *f);
	}
	return rc;
}

/* A kdamond runs: its state reads "on". */
static bool any_running(const struct tt_sysfs *s)
{
	char **names = NULL, state[16];
	bool on = false;

	if (tt_sysfs_list(s, &names, ADMIN) < 0)
		return false;
	for (char **n = names; *n && !on; n++)
		on = strspn(*n, "0123456789") == strlen(*n) &&
		     tt_sysfs_read(s, state, sizeof(state), ADMIN "/%s/state", *n) >= 0 &&
		     strcmp(state, "on") == 0;
	tt_sysfs_free_names(names);
	return on;
}

static int set_count(const struct tt_sysfs *s, const char *path, const char *rel, size_t dlen,
		     const char *const *files, const char *value)
{
	char dir[PATH_MAX], full[PATH_MAX], line[32];
	char **names = NULL;
	uint64_t n;
	int rc;

	if (tt_kstrtoull(value, 0, INT32_MAX, &n) < 0)
		return tt_fixture_rejected(path, value, EINVAL);
	if (files == kdamond_files && any_running(s))
		return tt_fixture_rejected(path, value, EBUSY);
	snprintf(dir, sizeof(dir), "%.*s", (int)dlen, rel);
	rc = tt_sysfs_list(s, &names, "%s", dir);
	for (char **e = names; rc >= 0 && *e; e++) {
		if (strspn(*e, "0123456789") != strlen(*e))
			continue;
		tt_sysfs_path(s, full, sizeof(full), "%s/%s", dir, *e);
		if (nftw(full, unlink_cb, 16, FTW_DEPTH | FTW_PHYS) < 0)
			rc = tt_err_sys(TT_EFAIL, errno, "cannot remove '%s'", full);
	}
	tt_sysfs_free_names(names);
	if (rc >= 0)
		rc = make_dirs(s, dir, files, n);
	snprintf(line, sizeof(line), "%llu\n", (unsigned long long)n);
	return rc < 0 ? rc : tt_fixture_replace(s, rel, line);
}

/* state "on": the kernel commits the context (damon_commit_ctx), which
 * refuses node_eligible_mem_bp unless the operations are paddr. */
static int turn_on(const struct tt_sysfs *s, const char *path, const char *kd)
{
	char ops[32], metric[64];
	uint64_t nc = 0, ns = 0, ng = 0;

	tt_sysfs_read_u64(s, &nc, 0, 64, "%s/contexts/nr_contexts", kd);
	for (uint64_t c = 0; c < nc; c++) {
		if (tt_sysfs_read(s, ops, sizeof(ops), "%s/contexts/%llu/operations", kd,
				  (unsigned long long)c) < 0)
			return tt_fixture_rejected(path, "on", EINVAL);
		tt_sysfs_read_u64(s, &ns, 0, 1024, "%s/contexts/%llu/schemes/nr_schemes", kd,
				  (unsigned long long)c);
		for (uint64_t k = 0; k < ns; k++) {
			tt_sysfs_read_u64(s, &ng, 0, 1024,
					  "%s/contexts/%llu/schemes/%llu/quotas/goals/nr_goals", kd,
					  (unsigned long long)c, (unsigned long long)k);
			for (uint64_t g = 0; g < ng; g++)
				if (tt_sysfs_read(s, metric, sizeof(metric),
						  "%s/contexts/%llu/schemes/%llu/quotas/goals/%llu/"
						  "target_metric",
						  kd, (unsigned long long)c, (unsigned long long)k,
						  (unsigned long long)g) >= 0 &&
				    strcmp(metric, "node_eligible_mem_bp") == 0 &&
				    strcmp(ops, "paddr") != 0)
					return tt_fixture_rejected(path, "on", EINVAL);
		}
	}
	return 0;
}

static int damon_write(const struct tt_sysfs *s, const char *path, const char *rel,
		       const char *value)
{
	const char *base = strrchr(rel, '/') + 1;
	size_t dlen = (size_t)(base - 1 - rel);
	char line[256], kd[PATH_MAX];
	int rc;

	if (strncmp(rel, ADMIN "/", sizeof(ADMIN)) != 0)
		return tt_fixture_kernel.write(s, path, rel, value);
	rc = tt_fixture_fault_step(path, &value);
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(*kinds); i++)
		if (strcmp(base, kinds[i].count) == 0 &&
		    ends_with(rel, dlen, kinds[i].parent_suffix))
			return set_count(s, path, rel, dlen, kinds[i].files, value);
	if (strcmp(base, "target_metric") == 0 && !metric_known(s, value))
		return tt_fixture_rejected(path, value, EINVAL);
	if (strcmp(base, "state") == 0) {
		snprintf(kd, sizeof(kd), "%.*s", (int)dlen, rel);
		if (strcmp(value, "on") == 0) {
			rc = turn_on(s, path, kd);
			if (rc == 0)
				rc = tt_fixture_replace(s, rel, "on\n");
			if (rc == 0)
				rc = tt_fixture_replace(s, strcat(kd, "/pid"), "4321\n");
			return rc;
		}
		if (strcmp(value, "off") == 0) {
			rc = tt_fixture_replace(s, rel, "off\n");
			return rc ? rc : tt_fixture_replace(s, strcat(kd, "/pid"), "-1\n");
		}
		/* commit, commit_schemes_quota_goals, update_schemes_*: the
		 * files already hold what a fixture has to show. */
		if (strcmp(value, "commit") == 0 || strncmp(value, "commit_", 7) == 0 ||
		    strncmp(value, "update_", 7) == 0 || strncmp(value, "clear_", 6) == 0)
			return 0;
		return tt_fixture_rejected(path, value, EINVAL);
	}
	if (snprintf(line, sizeof(line), "%s\n", value) >= (int)sizeof(line))
		return tt_fixture_rejected(path, value, EINVAL);
	return tt_fixture_replace(s, rel, line);
}

const struct tt_sysfs_store tt_fixture_damon = { .name = "fixture", .write = damon_write };
