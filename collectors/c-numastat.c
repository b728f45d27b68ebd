// SPDX-License-Identifier: GPL-3.0-or-later
/* Page allocation and migration per node: nodeN/numastat and meminfo, the
 * promotion/demotion counters of nodeN/vmstat, and the same counters of
 * /proc/vmstat for the whole machine. Pages, not traffic: these say where
 * memory is being allocated and moved, which is what weighted interleave
 * changes, and they work on every kernel.
 *
 * Which node a migration is counted on (mm/vmscan.c demote_folio_list,
 * mm/migrate.c migrate_misplaced_folio): pgdemote_* on the node being
 * reclaimed, the SOURCE of the demotion; pgpromote_success on the node the
 * page moved TO. nodeN/vmstat has pgpromote_* since Linux 5.18 (memory
 * tiering, CONFIG_NUMA_BALANCING) but pgdemote_* only since 6.8 (commit
 * "mm/vmstat: move pgdemote_* to per-node stats"); before that demotions
 * are counted in /proc/vmstat alone, and a per-node value is absent (NAN),
 * never 0. pgdemote_khugepaged and pgdemote_proactive are newer still:
 * the demotion rate is the sum of those this kernel has. */
#include "collector.h"

#include "../core/error.h"
#include "../core/parse.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const numastat_keys[] = { "numa_hit",       "numa_miss",  "numa_foreign",
					     "interleave_hit", "local_node", "other_node" };
static const char *const vmstat_keys[] = { "pgpromote_success",	 "pgdemote_kswapd",
					   "pgdemote_direct",	 "pgdemote_khugepaged",
					   "pgdemote_proactive", "numa_pages_migrated" };
static const char *const node_vmstat_keys[] = { "pgpromote_success", "pgdemote_kswapd",
						"pgdemote_direct", "pgdemote_khugepaged",
						"pgdemote_proactive" };
#define NKEYS(k) (sizeof(k) / sizeof(*(k)))

struct priv {
	const struct tt_sysfs *sfs;
};

static int probe(const struct tt_collect_ctx *ctx, char *why, size_t size)
{
	if (ctx->topo->nnodes &&
	    (tt_sysfs_exists(ctx->sfs, "/sys/devices/system/node/node%d/numastat",
			     ctx->topo->nodes[0].id) ||
	     tt_sysfs_exists(ctx->sfs, "/sys/devices/system/node/node%d/vmstat",
			     ctx->topo->nodes[0].id)))
		return 0;
	snprintf(why, size,
		 "no /sys/devices/system/node/nodeN/numastat or vmstat (a kernel without NUMA)");
	return TT_EUNAVAIL;
}

static int open_numastat(const struct tt_collect_ctx *ctx, struct tt_source **out)
{
	struct tt_source *s = tt_source_new(&tt_c_numastat, 64);
	struct priv *p = calloc(1, sizeof(*p));
	int cap = 64;
	char src[48];

	if (!s || !p) {
		tt_source_free(s);
		free(p);
		return tt_err(TT_EFAIL, "out of memory");
	}
	p->sfs = ctx->sfs;
	s->priv = p;
	for (int i = 0; i < ctx->topo->nnodes; i++) {
		int node = ctx->topo->nodes[i].id;

		snprintf(src, sizeof(src), "node%d/numastat", node);
		for (size_t k = 0; k < NKEYS(numastat_keys); k++)
			tt_source_add(s, &cap, numastat_keys[k], "pages/s", TT_COUNTER, node, src);
		snprintf(src, sizeof(src), "node%d/meminfo", node);
		tt_source_add(s, &cap, "mem_free", "bytes", TT_GAUGE, node, src);
		tt_source_add(s, &cap, "mem_used", "bytes", TT_GAUGE, node, src);
		snprintf(src, sizeof(src), "node%d/vmstat", node);
		for (size_t k = 0; k < NKEYS(node_vmstat_keys); k++)
			tt_source_add(s, &cap, node_vmstat_keys[k], "pages/s", TT_COUNTER, node,
				      src);
	}
	for (size_t k = 0; k < NKEYS(vmstat_keys); k++)
		tt_source_add(s, &cap, vmstat_keys[k], "pages/s", TT_COUNTER, -1, "/proc/vmstat");
	*out = s;
	return 0;
}

struct pick {
	const char *const *keys;
	size_t n;
	double *out;
};

static int pick(const char *key, uint64_t value, void *ctx)
{
	struct pick *p = ctx;

	for (size_t i = 0; i < p->n; i++)
		if (strcmp(key, p->keys[i]) == 0)
			p->out[i] = (double)value;
	return 0;
}

/* Reads a key/value file into out[] in keys order; NAN for what is absent
 * (an older kernel without pgdemote_*) or when the file cannot be read. */
static void read_kv(const struct tt_sysfs *sfs, const char *path, const char *const *keys, size_t n,
		    double *out)
{
	char text[16384];
	struct pick p = { keys, n, out };

	for (size_t i = 0; i < n; i++)
		out[i] = NAN;
	if (tt_sysfs_read(sfs, text, sizeof(text), "%s", path) >= 0)
		tt_parse_kv(text, pick, &p);
}

static int sample(struct tt_source *s, double *v)
{
	struct priv *p = s->priv;
	static const char *const mem_keys[] = { "MemFree", "MemUsed" };
	char path[128];
	int m = 0, node;

	while (m < s->nmetrics && (node = s->metrics[m].node) >= 0) {
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/numastat", node);
		read_kv(p->sfs, path, numastat_keys, NKEYS(numastat_keys), v + m);
		m += (int)NKEYS(numastat_keys);
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/meminfo", node);
		read_kv(p->sfs, path, mem_keys, 2, v + m);
		m += 2;
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/vmstat", node);
		read_kv(p->sfs, path, node_vmstat_keys, NKEYS(node_vmstat_keys), v + m);
		m += (int)NKEYS(node_vmstat_keys);
	}
	read_kv(p->sfs, "/proc/vmstat", vmstat_keys, NKEYS(vmstat_keys), v + m);
	return 0;
}

static void close_numastat(struct tt_source *s)
{
	if (s)
		free(s->priv);
	tt_source_free(s);
}

/* numa_hit and numa_miss count pages allocated on the node (the kernel's
 * __count_numa_event on the node the page came from); the vmstat counters
 * are the node's own (see node_vmstat_keys). */
static const struct tt_metric_meaning meanings[] = {
	{ "numa_hit", TT_ROLE_ALLOC_PAGES, TT_SCOPE_MEMORY, TT_UNIT_PAGES_S, TT_AGG_SUM },
	{ "numa_miss", TT_ROLE_ALLOC_PAGES, TT_SCOPE_MEMORY, TT_UNIT_PAGES_S, TT_AGG_SUM },
	{ "mem_used", TT_ROLE_MEM_USED, TT_SCOPE_MEMORY, TT_UNIT_BYTES, TT_AGG_SUM },
	{ "pgpromote_success", TT_ROLE_PROMOTED, TT_SCOPE_MEMORY, TT_UNIT_PAGES_S, TT_AGG_SUM },
	{ "pgdemote_kswapd", TT_ROLE_DEMOTED, TT_SCOPE_MEMORY, TT_UNIT_PAGES_S,
	  TT_AGG_SUM_PRESENT },
	{ "pgdemote_direct", TT_ROLE_DEMOTED, TT_SCOPE_MEMORY, TT_UNIT_PAGES_S,
	  TT_AGG_SUM_PRESENT },
	{ "pgdemote_khugepaged", TT_ROLE_DEMOTED, TT_SCOPE_MEMORY, TT_UNIT_PAGES_S,
	  TT_AGG_SUM_PRESENT },
	{ "pgdemote_proactive", TT_ROLE_DEMOTED, TT_SCOPE_MEMORY, TT_UNIT_PAGES_S,
	  TT_AGG_SUM_PRESENT },
	{ 0 },
};

const struct tt_collector tt_c_numastat = {
	.name = "numastat",
	.summary = "page allocations per node (numa_hit/miss/interleave...), free and used memory, "
		   "promotions and demotions",
	.gives =
		"numa_hit numa_miss numa_foreign interleave_hit local_node other_node (pages/s per "
		"node), mem_free mem_used (bytes per node), pgpromote_success pgdemote_kswapd "
		"pgdemote_direct pgdemote_khugepaged pgdemote_proactive (pages/s per node, "
		"nodeN/vmstat), pgpromote_success pgdemote_kswapd pgdemote_direct "
		"pgdemote_khugepaged pgdemote_proactive numa_pages_migrated (pages/s, "
		"/proc/vmstat)",
	.meanings = meanings,
	.probe = probe,
	.open = open_numastat,
	.sample = sample,
	.close = close_numastat,
};
