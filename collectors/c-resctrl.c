// SPDX-License-Identifier: GPL-3.0-or-later
/* Memory bandwidth monitoring (Intel RDT MBM, AMD QoS) per L3 domain:
 * /sys/fs/resctrl/mon_data/mon_L3_<id>/mbm_{total,local}_bytes, bytes since
 * the domain came up. Source-side: what the CPUs of a domain pulled from all
 * memory (total) and from their own node (local); total - local is remote
 * DRAM plus CXL. Documentation/arch/x86/resctrl.rst. */
#include "collector.h"

#include "../core/error.h"
#include "../core/parse.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MON "/sys/fs/resctrl/mon_data"

struct priv {
	const struct tt_sysfs *sfs;
	int n;
	char dir[64][32];
};

static int probe(const struct tt_collect_ctx *ctx, char *why, size_t size)
{
	char feat[512];

	if (!tt_sysfs_exists(ctx->sfs, "/sys/fs/resctrl/info")) {
		snprintf(why, size,
			 "/sys/fs/resctrl is not mounted (mount -t resctrl resctrl "
			 "/sys/fs/resctrl, as root, on a CPU with MBM)");
		return TT_EUNAVAIL;
	}
	if (tt_sysfs_read(ctx->sfs, feat, sizeof(feat),
			  "/sys/fs/resctrl/info/L3_MON/mon_features") < 0 ||
	    !strstr(feat, "mbm_total_bytes")) {
		snprintf(why, size,
			 "resctrl is mounted but this CPU has no memory bandwidth "
			 "monitoring (no mbm_total_bytes in info/L3_MON/mon_features)");
		return TT_EUNAVAIL;
	}
	return 0;
}

/* The node of an L3 domain: a CPU whose index3 cache has that id. */
static int domain_node(const struct tt_collect_ctx *ctx, uint64_t id)
{
	for (int i = 0; i < ctx->topo->nnodes; i++)
		for (int k = 0; k < ctx->topo->nodes[i].ncpus; k++) {
			uint64_t v;

			if (tt_sysfs_read_u64(ctx->sfs, &v, 0, UINT32_MAX,
					      "/sys/devices/system/cpu/cpu%d/cache/index3/id",
					      ctx->topo->nodes[i].cpus[k]) == 0 &&
			    v == id)
				return ctx->topo->nodes[i].id;
		}
	return -1;
}

static void close_resctrl(struct tt_source *s)
{
	if (s)
		free(s->priv);
	tt_source_free(s);
}

static int open_resctrl(const struct tt_collect_ctx *ctx, struct tt_source **out)
{
	struct priv *p = calloc(1, sizeof(*p));
	struct tt_source *s = tt_source_new(&tt_c_resctrl, 16);
	char **names = NULL;
	int cap = 16, rc;

	if (!p || !s) {
		free(p);
		tt_source_free(s);
		return tt_err(TT_EFAIL, "out of memory");
	}
	p->sfs = ctx->sfs;
	s->priv = p;
	rc = tt_sysfs_list(ctx->sfs, &names, MON);
	for (char **n = names; rc == 0 && *n && p->n < 64; n++) {
		uint64_t id;

		if (strncmp(*n, "mon_L3_", 7) || tt_parse_u64(*n + 7, 0, UINT32_MAX, &id))
			continue;
		snprintf(p->dir[p->n++], sizeof(p->dir[0]), "%s", *n);
		int node = domain_node(ctx, id);
		tt_source_add(s, &cap, "mbm_total_bytes", "bytes/s", TT_COUNTER, node, *n);
		tt_source_add(s, &cap, "mbm_local_bytes", "bytes/s", TT_COUNTER, node, *n);
	}
	tt_sysfs_free_names(names);
	if (rc == 0 && !p->n)
		rc = tt_err(TT_EUNAVAIL, "no mon_L3_* domain in %s", MON);
	if (rc < 0) {
		close_resctrl(s);
		return rc;
	}
	*out = s;
	return 0;
}

static double value(const struct tt_sysfs *sfs, const char *dir, const char *file)
{
	uint64_t v;

	/* The kernel writes "Unavailable" or "Error" when the counter cannot
	 * be read right now: that sample is stale, the source is not gone. */
	return tt_sysfs_read_u64(sfs, &v, 0, UINT64_MAX, MON "/%s/%s", dir, file) == 0 ? (double)v
										       : NAN;
}

static int sample(struct tt_source *s, double *v)
{
	struct priv *p = s->priv;

	for (int i = 0; i < p->n; i++) {
		v[2 * i] = value(p->sfs, p->dir[i], "mbm_total_bytes");
		v[2 * i + 1] = value(p->sfs, p->dir[i], "mbm_local_bytes");
	}
	return 0;
}

/* MBM counts at the L3 domain's CPUs, for the requests they issue (Intel
 * SDM vol. 3 "Memory Bandwidth Monitoring"), reads and writes as one. */
static const struct tt_metric_meaning meanings[] = {
	{ "mbm_total_bytes", TT_ROLE_TOTAL_BYTES, TT_SCOPE_CPUS, TT_UNIT_BYTES_S, TT_AGG_SUM },
	{ 0 },
};

const struct tt_collector tt_c_resctrl = {
	.name = "resctrl",
	.summary = "memory bandwidth per L3 domain from resctrl MBM (total and local)",
	.flags = TT_C_HARDWARE,
	.gives = "mbm_total_bytes mbm_local_bytes (bytes/s) per L3 domain, with its node",
	.meanings = meanings,
	.scope_why = "what resctrl MBM counts: the traffic of each node's CPUs to all memory "
		     "(local, remote and CXL alike), not the traffic each memory node serves",
	.no_split_why = "resctrl MBM counts reads and writes together (shown under READ)",
	.probe = probe,
	.open = open_resctrl,
	.sample = sample,
	.close = close_resctrl,
};
