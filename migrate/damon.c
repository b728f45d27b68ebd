// SPDX-License-Identifier: GPL-3.0-or-later
#include "damon.h"

#include "../core/error.h"
#include "rebalance.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KD TT_DAMON_KDAMONDS "/0"
#define CTX KD "/contexts/0"
#define SCHEME CTX "/schemes/%d"
/* Any region size, age and access count up to unsigned long's 32-bit
 * floor: the kernel stores them in unsigned long (kstrtoul). */
#define ANY_MAX "4294967295"

int tt_damon_set_from_weights(const struct tt_topo *t, const struct tt_weights *w,
			      struct tt_damon_set *set)
{
	uint32_t *bp = calloc(TT_MAX_NODES, sizeof(*bp));
	int id, rc = bp ? tt_rb_shares_bp(w, bp) : tt_err(TT_EFAIL, "out of memory");
	char nodes[1024];

	set->n = 0;
	tt_nodemask_for_each (id, &w->set)
		if (rc == 0 && !tt_nodemask_test(&t->mem_nodes, id)) {
			tt_bit_format_list(t->mem_nodes.bits, TT_MAX_NODES, nodes, sizeof(nodes));
			rc = tt_err(TT_EINPUT, "node %d is not an online memory node", id);
			tt_err_hint("the memory nodes of this machine are %s", nodes);
		}
	if (rc == 0)
		tt_nodemask_for_each (id, &w->set)
			if (bp[id])
				set->g[set->n++] =
					(struct tt_damon_goal){ .nid = id, .target_bp = bp[id] };
	free(bp);
	if (rc == 0 && set->n < 2)
		rc = tt_err(TT_EINPUT, "DAMON keeps shares between two nodes or more: the weights "
				       "give every page to one node");
	return rc;
}

/* block_size_bytes is hex without a prefix (drivers/base/memory.c:
 * "%lx\n"). */
static int block_size(const struct tt_sysfs *s, uint64_t *out)
{
	char buf[32], *end;
	unsigned long long v;

	if (tt_sysfs_read(s, buf, sizeof(buf), "/sys/devices/system/memory/block_size_bytes") < 0)
		return -1;
	errno = 0;
	v = strtoull(buf, &end, 16);
	if (errno || end == buf || *end || v == 0)
		return -1;
	*out = v;
	return 0;
}

static int node_span(const struct tt_sysfs *s, uint64_t bs, struct tt_damon_goal *g)
{
	char **names = NULL, *end;
	unsigned long long m, lo = ~0ull, hi = 0;

	if (tt_sysfs_list(s, &names, "/sys/devices/system/node/node%d", g->nid) < 0)
		return -1;
	for (char **n = names; *n; n++) {
		if (strncmp(*n, "memory", 6) || !isdigit((unsigned char)(*n)[6]))
			continue;
		errno = 0;
		m = strtoull(*n + 6, &end, 10);
		if (errno || *end)
			continue;
		lo = m < lo ? m : lo;
		hi = m > hi ? m : hi;
	}
	tt_sysfs_free_names(names);
	if (lo == ~0ull || hi >= UINT64_MAX / bs - 1)
		return -1;
	g->start = lo * bs;
	g->end = (hi + 1) * bs;
	return 0;
}

void tt_damon_read_spans(const struct tt_sysfs *s, struct tt_damon_set *set)
{
	uint64_t bs = 0;

	set->spans = block_size(s, &bs) == 0;
	for (int i = 0; i < set->n && set->spans; i++)
		set->spans = node_span(s, bs, &set->g[i]) == 0;
	for (int i = 0; i < set->n && set->spans; i++)
		for (int j = 0; j < set->n && set->spans; j++)
			set->spans = i == j || set->g[i].end <= set->g[j].start ||
				     set->g[j].end <= set->g[i].start;
}

static const char *const modules[] = { "damon_stat", "damon_reclaim", "damon_lru_sort", NULL };

int tt_damon_look(const struct tt_sysfs *s, struct tt_damon_look *l)
{
	char state[16], pid[32];
	size_t len = 0;
	int rc;

	memset(l, 0, sizeof(*l));
	rc = tt_sysfs_read_u64(s, &l->nr_kdamonds, 0, 1u << 20, TT_DAMON_KDAMONDS "/nr_kdamonds");
	if (rc == TT_EUNAVAIL)
		return tt_err(TT_EUNAVAIL,
			      "no DAMON sysfs interface ('%s%s' is missing): the kernel was built "
			      "without CONFIG_DAMON_SYSFS",
			      tt_sysfs_root(s)[1] ? tt_sysfs_root(s) : "",
			      TT_DAMON_KDAMONDS "/nr_kdamonds");
	if (rc < 0)
		return rc;
	for (uint64_t k = 0; k < l->nr_kdamonds && len < sizeof(l->busy) - 64; k++) {
		if (tt_sysfs_read(s, state, sizeof(state), TT_DAMON_KDAMONDS "/%llu/state",
				  (unsigned long long)k) < 0)
			snprintf(state, sizeof(state), "?");
		if (tt_sysfs_read(s, pid, sizeof(pid), TT_DAMON_KDAMONDS "/%llu/pid",
				  (unsigned long long)k) < 0)
			snprintf(pid, sizeof(pid), "?");
		len += (size_t)snprintf(
			l->busy + len, sizeof(l->busy) - len, "%skdamond %llu (%s%s%s)",
			k ? ", " : "", (unsigned long long)k, state,
			strcmp(pid, "-1") ? ", pid " : "", strcmp(pid, "-1") ? pid : "");
	}
	/* DAMON's modules start their context exclusive (damon_start(...,
	 * true)), so no kdamond of sysfs can start beside one: "on" is
	 * EBUSY. Debian's 7.3 cloud kernel enables DAMON_STAT at boot
	 * (CONFIG_DAMON_STAT_ENABLED_DEFAULT=y). */
	for (const char *const *m = modules; *m && len < sizeof(l->busy) - 64; m++)
		if (tt_sysfs_read(s, state, sizeof(state), "/sys/module/%s/parameters/enabled",
				  *m) >= 0 &&
		    strcmp(state, "Y") == 0)
			len += (size_t)snprintf(l->busy + len, sizeof(l->busy) - len,
						"%smodule %s (enabled)", len ? ", " : "", *m);
	return 0;
}

/* Writes and says which file took what, for the caller's message. */
#define W(value, ...)                                                                              \
	do {                                                                                       \
		rc = tt_sysfs_write(s, value, __VA_ARGS__);                                        \
		if (rc < 0)                                                                        \
			goto out;                                                                  \
	} while (0)

/* Rejects the scheme's own node's span: core_filters (the ABI's since Feb
 * 2025), else the older filters/ (deprecated, same files; before allow/
 * existed a matching filter was a rejecting one). */
static int setup_filter(const struct tt_sysfs *s, int i, const struct tt_damon_goal *g)
{
	const char *dir = tt_sysfs_exists(s, SCHEME "/core_filters/nr_filters", i) ? "core_filters"
										   : "filters";
	char v[32];
	int rc = 0;

	W("1", SCHEME "/%s/nr_filters", i, dir);
	W("addr", SCHEME "/%s/0/type", i, dir);
	snprintf(v, sizeof(v), "%llu", (unsigned long long)g->start);
	W(v, SCHEME "/%s/0/addr_start", i, dir);
	snprintf(v, sizeof(v), "%llu", (unsigned long long)g->end);
	W(v, SCHEME "/%s/0/addr_end", i, dir);
	W("Y", SCHEME "/%s/0/matching", i, dir);
	if (tt_sysfs_exists(s, SCHEME "/%s/0/allow", i, dir))
		W("N", SCHEME "/%s/0/allow", i, dir);
out:
	return rc;
}

static int setup_scheme(const struct tt_sysfs *s, int i, const struct tt_damon_goal *g, bool spans)
{
	char v[32];
	int rc = 0;

	W("migrate_hot", SCHEME "/action", i);
	snprintf(v, sizeof(v), "%d", g->nid);
	W(v, SCHEME "/target_nid", i);
	W("4096", SCHEME "/access_pattern/sz/min", i);
	W(ANY_MAX, SCHEME "/access_pattern/sz/max", i);
	snprintf(v, sizeof(v), "%d", TT_DAMON_HOT_MIN_SAMPLES);
	W(v, SCHEME "/access_pattern/nr_accesses/min", i);
	W(ANY_MAX, SCHEME "/access_pattern/nr_accesses/max", i);
	W("0", SCHEME "/access_pattern/age/min", i);
	W(ANY_MAX, SCHEME "/access_pattern/age/max", i);
	snprintf(v, sizeof(v), "%llu", TT_DAMON_QUOTA_BYTES);
	W(v, SCHEME "/quotas/bytes", i);
	snprintf(v, sizeof(v), "%d", TT_DAMON_QUOTA_RESET_MS);
	W(v, SCHEME "/quotas/reset_interval_ms", i);
	W("1", SCHEME "/quotas/goals/nr_goals", i);
	rc = tt_sysfs_write(s, TT_DAMON_METRIC, SCHEME "/quotas/goals/0/target_metric", i);
	if (rc < 0) {
		rc = tt_err(TT_EUNAVAIL,
			    "this kernel's DAMON has no quota goal '%s' (target_metric refused "
			    "it): its sysfs takes no node share goal, so shares cannot be kept "
			    "over time; the one-shot rebalance (without --damon) still moves a "
			    "process's pages to them",
			    TT_DAMON_METRIC);
		goto out;
	}
	snprintf(v, sizeof(v), "%d", g->nid);
	W(v, SCHEME "/quotas/goals/0/nid", i);
	snprintf(v, sizeof(v), "%u", g->target_bp);
	W(v, SCHEME "/quotas/goals/0/target_value", i);
	if (spans)
		rc = setup_filter(s, i, g);
out:
	return rc;
}

/* The goals in the order of their spans (an insertion sort: a few nodes). */
static void span_order(const struct tt_damon_set *set, int *order)
{
	for (int i = 0; i < set->n; i++) {
		int j = i;

		while (j > 0 && set->g[order[j - 1]].start > set->g[i].start) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = i;
	}
}

/* The paddr target's regions: each node's span, in address order (the
 * kernel takes them sorted and apart). DAMON's sysfs monitors only the
 * regions given (its modules default to the largest System RAM block,
 * sysfs does not). */
static int setup_regions(const struct tt_sysfs *s, const struct tt_damon_set *set)
{
	int order[TT_MAX_NODES], n = set->n, rc = 0;
	char v[32];

	span_order(set, order);
	snprintf(v, sizeof(v), "%d", n);
	W(v, CTX "/targets/0/regions/nr_regions");
	for (int r = 0; r < n; r++) {
		snprintf(v, sizeof(v), "%llu", (unsigned long long)set->g[order[r]].start);
		W(v, CTX "/targets/0/regions/%d/start", r);
		snprintf(v, sizeof(v), "%llu", (unsigned long long)set->g[order[r]].end);
		W(v, CTX "/targets/0/regions/%d/end", r);
	}
out:
	return rc;
}

int tt_damon_start(const struct tt_sysfs *s, const struct tt_damon_set *set)
{
	struct tt_damon_look l;
	char avail[256], v[16];
	int rc = tt_damon_look(s, &l), undo;

	if (rc < 0)
		return rc;
	if (!set->spans)
		return tt_err(
			TT_EUNAVAIL,
			"cannot tell the nodes' physical address ranges (their memory blocks, "
			"/sys/devices/system/node/nodeN/memoryM and "
			"/sys/devices/system/memory/block_size_bytes, are not readable or "
			"interleave): DAMON's paddr context monitors only the regions it is "
			"given");
	if (l.nr_kdamonds)
		return tt_err(TT_EUNAVAIL,
			      "DAMON is in use: %s; another tool's kdamonds would be rebuilt by "
			      "adding one (writing nr_kdamonds replaces them all), so tiertune "
			      "leaves DAMON alone",
			      l.busy);
	if (l.busy[0]) {
		tt_err(TT_EUNAVAIL,
		       "DAMON is in use: %s; a DAMON module runs its context alone (no "
		       "kdamond can start beside it), so tiertune leaves DAMON alone",
		       l.busy);
		tt_err_hint(
			"its owner may stop it: echo N > /sys/module/<module>/parameters/enabled");
		return TT_EUNAVAIL;
	}
	W("1", TT_DAMON_KDAMONDS "/nr_kdamonds");
	W("1", KD "/contexts/nr_contexts");
	rc = tt_sysfs_read(s, avail, sizeof(avail), CTX "/avail_operations");
	if (rc >= 0 && !strstr(avail, "paddr"))
		rc = tt_err(TT_EUNAVAIL,
			    "this kernel's DAMON has no physical address space operations "
			    "(avail_operations: %s), which node_eligible_mem_bp needs",
			    avail);
	if (rc < 0)
		goto out;
	W("paddr", CTX "/operations");
	W("1", CTX "/targets/nr_targets");
	rc = setup_regions(s, set);
	if (rc < 0)
		goto out;
	snprintf(v, sizeof(v), "%d", set->n);
	W(v, CTX "/schemes/nr_schemes");
	for (int i = 0; i < set->n && rc == 0; i++)
		rc = setup_scheme(s, i, &set->g[i], set->spans);
	if (rc == 0 && tt_sysfs_exists(s, SCHEME "/quotas/goal_tuner", 0))
		for (int i = 0; i < set->n && rc == 0; i++)
			rc = tt_sysfs_write(s, "temporal", SCHEME "/quotas/goal_tuner", i);
	if (rc == 0)
		W("on", KD "/state");
out:
	if (rc < 0) {
		/* Nothing half-written: off (it may have started) and gone; the
		 * reason stays the setup's, the undo's own failure said after it. */
		char why[1024];

		snprintf(why, sizeof(why), "%s", tt_err_msg());
		tt_sysfs_write(s, "off", KD "/state");
		undo = tt_sysfs_write(s, "0", TT_DAMON_KDAMONDS "/nr_kdamonds");
		if (undo < 0)
			tt_err(rc, "%s; removing the kdamond tiertune added failed too: %s", why,
			       tt_err_msg());
		else
			tt_err(rc, "%s", why);
	}
	return rc;
}

/* What tt_damon_progress reads of a scheme, each into its field. */
static const struct {
	const char *file; /* under the scheme's folder */
	size_t at;	  /* offsetof struct tt_damon_now */
} stat_files[] = {
	{ "quotas/goals/0/current_value", offsetof(struct tt_damon_now, current_bp) },
	{ "stats/nr_tried", offsetof(struct tt_damon_now, nr_tried) },
	{ "stats/sz_tried", offsetof(struct tt_damon_now, sz_tried_bytes) },
	{ "stats/nr_applied", offsetof(struct tt_damon_now, nr_applied) },
	{ "stats/sz_applied", offsetof(struct tt_damon_now, sz_applied_bytes) },
	{ "stats/qt_exceeds", offsetof(struct tt_damon_now, qt_exceeds) },
	{ "quotas/effective_bytes", offsetof(struct tt_damon_now, effective_bytes) },
};

int tt_damon_progress(const struct tt_sysfs *s, const struct tt_damon_set *set,
		      struct tt_damon_now *now)
{
	int rc = tt_sysfs_write(s, "update_schemes_stats", KD "/state");

	if (rc == 0)
		rc = tt_sysfs_write(s, "update_schemes_effective_quotas", KD "/state");
	for (int i = 0; i < set->n && rc == 0; i++) {
		struct tt_damon_now *n = &now[i];

		n->nid = set->g[i].nid;
		n->target_bp = set->g[i].target_bp;
		for (size_t f = 0; f < sizeof(stat_files) / sizeof(stat_files[0]) && rc == 0; f++)
			rc = tt_sysfs_read_u64(s, (uint64_t *)((char *)n + stat_files[f].at), 0,
					       UINT64_MAX, SCHEME "/%s", i, stat_files[f].file);
	}
	return rc;
}

int tt_damon_ours(const struct tt_sysfs *s, char *what, size_t size)
{
	struct tt_damon_look l;
	char ops[32], action[32], metric[64];
	uint64_t nc = 0, ns = 0, ng = 0;
	int rc = tt_damon_look(s, &l);

	if (rc < 0)
		return rc;
	snprintf(what, size, "%s", l.nr_kdamonds ? l.busy : "no kdamond");
	if (l.nr_kdamonds != 1 ||
	    tt_sysfs_read_u64(s, &nc, 0, 64, KD "/contexts/nr_contexts") < 0 || nc != 1 ||
	    tt_sysfs_read(s, ops, sizeof(ops), CTX "/operations") < 0 || strcmp(ops, "paddr") ||
	    tt_sysfs_read_u64(s, &ns, 0, TT_MAX_NODES, CTX "/schemes/nr_schemes") < 0 || ns < 2)
		return 0;
	for (uint64_t i = 0; i < ns; i++)
		if (tt_sysfs_read(s, action, sizeof(action), SCHEME "/action", (int)i) < 0 ||
		    strcmp(action, "migrate_hot") ||
		    tt_sysfs_read_u64(s, &ng, 0, 64, SCHEME "/quotas/goals/nr_goals", (int)i) < 0 ||
		    ng != 1 ||
		    tt_sysfs_read(s, metric, sizeof(metric), SCHEME "/quotas/goals/0/target_metric",
				  (int)i) < 0 ||
		    strcmp(metric, TT_DAMON_METRIC))
			return 0;
	return 1;
}

int tt_damon_stop(const struct tt_sysfs *s)
{
	char state[16];
	int rc = tt_sysfs_read(s, state, sizeof(state), KD "/state");

	if (rc >= 0 && strcmp(state, "off"))
		rc = tt_sysfs_write(s, "off", KD "/state");
	if (rc >= 0)
		rc = tt_sysfs_write(s, "0", TT_DAMON_KDAMONDS "/nr_kdamonds");
	return rc < 0 ? rc : 0;
}

json_t *tt_damon_damo_json(const struct tt_damon_set *set)
{
	json_t *schemes = json_array();

	for (int i = 0; i < set->n; i++) {
		const struct tt_damon_goal *g = &set->g[i];
		/* damo's DamosFilter.from_kvpairs: an addr filter's range is
		 * address_range {start, end}. */
		json_t *filters =
			set->spans ? json_pack("[{s:s, s:b, s:b, s:{s:I, s:I}}]", "filter_type",
					       "addr", "matching", 1, "allow", 0, "address_range",
					       "start", (json_int_t)g->start, "end",
					       (json_int_t)g->end)
				   : json_array();

		/* damo takes nr_accesses given as numbers as percent: 5% is
		 * one sample of the default 20 an aggregation. */
		json_array_append_new(
			schemes,
			json_pack("{s:s, s:i, s:{s:{s:i, s:I}, s:{s:i, s:I}, s:{s:i, s:I}}, "
				  "s:i, s:{s:i, s:I, s:i, s:{s:i, s:i, s:i}, "
				  "s:[{s:s, s:i, s:i, s:i}], s:s}, s:o}",
				  "action", "migrate_hot", "target_nid", g->nid, "access_pattern",
				  "sz_bytes", "min", 4096, "max", (json_int_t)4294967295LL,
				  "nr_accesses", "min", TT_DAMON_HOT_MIN_SAMPLES * 5, "max",
				  (json_int_t)100, "age", "min", 0, "max", (json_int_t)4294967295LL,
				  "apply_interval_us", 0, "quotas", "time_ms", 0, "sz_bytes",
				  (json_int_t)TT_DAMON_QUOTA_BYTES, "reset_interval_ms",
				  TT_DAMON_QUOTA_RESET_MS, "weights", "sz_permil", 0,
				  "nr_accesses_permil", 0, "age_permil", 0, "goals", "metric",
				  TT_DAMON_METRIC, "nid", g->nid, "target_value", (int)g->target_bp,
				  "current_value", 0, "goal_tuner", "temporal", "filters",
				  filters));
	}
	/* With no spans damo picks its own paddr region (the largest System
	 * RAM block), as it does for --ops paddr without --regions. */
	json_t *regions = json_array();
	int order[TT_MAX_NODES];

	span_order(set, order);
	for (int r = 0; set->spans && r < set->n; r++)
		json_array_append_new(regions, json_pack("{s:I, s:I}", "start",
							 (json_int_t)set->g[order[r]].start, "end",
							 (json_int_t)set->g[order[r]].end));
	return json_pack("{s:[{s:s, s:[{s:s, s:[{s:n, s:o}], "
			 "s:{s:i, s:i, s:i}, s:{s:i, s:i}, s:o}]}]}",
			 "kdamonds", "state", "on", "contexts", "ops", "paddr", "targets", "pid",
			 "regions", regions, "intervals", "sample_us", 5000, "aggr_us", 100000,
			 "ops_update_us", 1000000, "nr_regions", "min", 10, "max", 1000, "schemes",
			 schemes);
}
