// SPDX-License-Identifier: GPL-3.0-or-later
/* Memory-controller bandwidth from uncore PMUs: Intel IMC boxes
 * (cas_count_read/write; Granite Rapids' per-subchannel sch0 + sch1), AMD
 * UMC channels (Linux 6.7+, CAS commands x 64 B) and CXL devices' CPMU
 * (M2S MemRd requests and MemWr with data, a 64 B line each). Each box is
 * opened system-wide on the CPU its cpumask names and mapped to the node
 * whose memory it serves. See ../shared/reference/kernel-interfaces.md §5. */
#define _GNU_SOURCE
#include "collector.h"

#include "../core/error.h"
#include "../core/parse.h"
#include "pmu.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_BOXES 256
#define LINE 64.0

struct box {
	char name[64];
	int node;
	int nev[2]; /* read, write: 1, or 2 for sch0 + sch1 */
	struct tt_pmu_event ev[2][2];
	int fd[2][2];
};

struct plan {
	int n;
	struct box box[MAX_BOXES];
};

/* The events of one PMU, or 0 when it is not a memory box. */
static int plan_box(const struct tt_sysfs *s, const struct tt_topo *t, const char *pmu,
		    struct box *b)
{
	static const char *const dir[2] = { "read", "write" };
	int rc = 0;

	memset(b, 0, sizeof(*b));
	snprintf(b->name, sizeof(b->name), "%s", pmu);
	for (int d = 0; d < 2 && rc == 0; d++) {
		char name[64];

		if (strncmp(pmu, "uncore_imc_", 11) == 0 && strncmp(pmu, "uncore_imc_free", 15)) {
			snprintf(name, sizeof(name), "cas_count_%s", dir[d]);
			if (tt_sysfs_exists(s, "/sys/bus/event_source/devices/%s/events/%s", pmu,
					    name)) {
				rc = tt_pmu_event_load(s, t, pmu, name, NULL, LINE, &b->ev[d][0]);
				b->nev[d] = 1;
				continue;
			}
			/* Granite Rapids counts each subchannel separately. */
			for (int sch = 0; sch < 2 && rc == 0; sch++) {
				snprintf(name, sizeof(name), "cas_count_%s_sch%d", dir[d], sch);
				if (!tt_sysfs_exists(s,
						     "/sys/bus/event_source/devices/%s/events/%s",
						     pmu, name))
					return 0;
				rc = tt_pmu_event_load(s, t, pmu, name, NULL, LINE, &b->ev[d][sch]);
				b->nev[d]++;
			}
		} else if (strncmp(pmu, "amd_umc_", 8) == 0) {
			/* No named events in the kernel; perf's JSON: umc_cas_cmd.rd/.wr. */
			rc = tt_pmu_event_load(s, t, pmu, d ? "umc_cas_cmd.wr" : "umc_cas_cmd.rd",
					       d ? "event=0x0a,rdwrmask=2"
						 : "event=0x0a,rdwrmask=1",
					       LINE, &b->ev[d][0]);
			b->nev[d] = 1;
		} else if (strncmp(pmu, "cxl_pmu_mem", 11) == 0) {
			rc = tt_pmu_event_load(s, t, pmu, d ? "m2s_rwd_memwr" : "m2s_req_memrd",
					       NULL, LINE, &b->ev[d][0]);
			b->nev[d] = 1;
		} else {
			return 0;
		}
	}
	if (rc < 0)
		return rc;
	/* Every format file must parse, not only the ones these events use:
	 * a garbled one means the tree is not what we think it is. */
	char **terms = NULL, fmt[128];
	rc = tt_sysfs_list(s, &terms, "/sys/bus/event_source/devices/%s/format", pmu);
	for (char **f = terms; rc >= 0 && f && *f; f++) {
		struct tt_pmu_format pf;

		rc = tt_sysfs_read(s, fmt, sizeof(fmt),
				   "/sys/bus/event_source/devices/%s/format/%s", pmu, *f);
		if (rc >= 0 && tt_pmu_parse_format(fmt, &pf))
			rc = tt_err(TT_EINPUT,
				    "'%s/sys/bus/event_source/devices/%s/format/%s' holds '%s', "
				    "not 'config[12]:lo-hi'",
				    s->root, pmu, *f, fmt);
	}
	tt_sysfs_free_names(terms);
	if (rc < 0)
		return rc;
	b->node = b->ev[0][0].node;
	return 1;
}

static int plan(const struct tt_collect_ctx *ctx, struct plan *p)
{
	char **names = NULL;
	int rc;

	p->n = 0;
	rc = tt_sysfs_list(ctx->sfs, &names, "/sys/bus/event_source/devices");
	if (rc < 0)
		return rc == TT_EUNAVAIL ? 0 : rc;
	for (char **n = names; *n && p->n < MAX_BOXES; n++) {
		rc = plan_box(ctx->sfs, ctx->topo, *n, &p->box[p->n]);
		if (rc < 0)
			break;
		p->n += rc;
	}
	tt_sysfs_free_names(names);
	return rc < 0 ? rc : 0;
}

static int paranoid(const struct tt_sysfs *s)
{
	uint64_t v;

	/* The file holds -1..4; a negative value reads as "allow". */
	char buf[16];
	if (tt_sysfs_read(s, buf, sizeof(buf), "/proc/sys/kernel/perf_event_paranoid") < 0)
		return 2;
	if (buf[0] == '-')
		return -1;
	return tt_parse_u64(buf, 0, 100, &v) ? 2 : (int)v;
}

static int probe(const struct tt_collect_ctx *ctx, char *why, size_t size)
{
	struct plan *p = malloc(sizeof(*p));
	int rc, level;

	if (!p)
		return tt_err(TT_EFAIL, "out of memory");
	rc = plan(ctx, p);
	if (rc < 0) {
		snprintf(why, size, "%s", tt_err_msg());
	} else if (!p->n) {
		snprintf(why, size,
			 "no uncore_imc, amd_umc or cxl_pmu PMU in "
			 "/sys/bus/event_source/devices");
		rc = TT_EUNAVAIL;
	} else if (!ctx->sfs->live) {
		snprintf(why, size,
			 "%d memory boxes found and their events encoded, but counting "
			 "needs the live system's PMUs (the sysfs root is a copy)",
			 p->n);
		rc = TT_EUNAVAIL;
	} else if (geteuid() != 0 && (level = paranoid(ctx->sfs)) > 0) {
		snprintf(why, size,
			 "perf_event_paranoid is %d; system-wide uncore counting needs "
			 "<= 0, or CAP_PERFMON",
			 level);
		rc = TT_EUNAVAIL;
	}
	free(p);
	return rc;
}

struct priv {
	struct plan plan;
};

static int perf_open(const struct tt_pmu_event *ev, int *fd)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = ev->type;
	a.config = ev->config[0];
	a.config1 = ev->config[1];
	a.config2 = ev->config[2];
	*fd = (int)syscall(SYS_perf_event_open, &a, -1, ev->cpu < 0 ? 0 : ev->cpu, -1,
			   PERF_FLAG_FD_CLOEXEC);
	if (*fd < 0)
		return tt_err_sys(errno == EACCES || errno == EPERM || errno == ENOENT ? TT_EUNAVAIL
										       : TT_EFAIL,
				  errno, "cannot open %s/%s on CPU %d", ev->pmu, ev->name, ev->cpu);
	return 0;
}

static void close_uncore(struct tt_source *s)
{
	struct priv *p = s ? s->priv : NULL;

	for (int i = 0; p && i < p->plan.n; i++)
		for (int d = 0; d < 2; d++)
			for (int k = 0; k < p->plan.box[i].nev[d]; k++)
				if (p->plan.box[i].fd[d][k] > 0)
					close(p->plan.box[i].fd[d][k]);
	free(p);
	tt_source_free(s);
}

static int open_uncore(const struct tt_collect_ctx *ctx, struct tt_source **out)
{
	struct priv *p = calloc(1, sizeof(*p));
	struct tt_source *s = tt_source_new(&tt_c_uncore, 16);
	int cap = 16, rc;

	if (!p || !s) {
		free(p);
		tt_source_free(s);
		return tt_err(TT_EFAIL, "out of memory");
	}
	s->priv = p;
	rc = plan(ctx, &p->plan);
	for (int i = 0; rc == 0 && i < p->plan.n; i++) {
		struct box *b = &p->plan.box[i];

		for (int d = 0; d < 2 && rc == 0; d++) {
			struct tt_metric *m =
				tt_source_add(s, &cap, d ? "write_bytes" : "read_bytes", "bytes/s",
					      TT_COUNTER, b->node, b->name);

			if (!m) {
				rc = tt_err(TT_EFAIL, "out of memory");
				break;
			}
			/* Raw values are summed over subchannels, each scaled
			 * here, so the metric's own scale is 1. */
			for (int k = 0; k < b->nev[d] && rc == 0; k++)
				rc = perf_open(&b->ev[d][k], &b->fd[d][k]);
		}
	}
	if (rc < 0) {
		close_uncore(s);
		return rc;
	}
	*out = s;
	return 0;
}

static int sample(struct tt_source *s, double *v)
{
	struct priv *p = s->priv;
	int m = 0;

	for (int i = 0; i < p->plan.n; i++) {
		struct box *b = &p->plan.box[i];

		for (int d = 0; d < 2; d++, m++) {
			v[m] = 0;
			for (int k = 0; k < b->nev[d]; k++) {
				uint64_t count;

				if (read(b->fd[d][k], &count, sizeof(count)) != sizeof(count)) {
					v[m] = NAN;
					break;
				}
				v[m] += (double)count * b->ev[d][k].bytes;
			}
		}
	}
	return 0;
}

/* Counted at the memory controller (IMC box, UMC channel, CXL device): the
 * traffic each memory node serves, whoever issued it. */
static const struct tt_metric_meaning meanings[] = {
	{ "read_bytes", TT_ROLE_READ_BYTES, TT_SCOPE_MEMORY, TT_UNIT_BYTES_S, TT_AGG_SUM },
	{ "write_bytes", TT_ROLE_WRITE_BYTES, TT_SCOPE_MEMORY, TT_UNIT_BYTES_S, TT_AGG_SUM },
	{ 0 },
};

const struct tt_collector tt_c_uncore = {
	.name = "perf-uncore",
	.summary = "DRAM and CXL bandwidth per memory controller from uncore PMUs (Intel IMC, "
		   "AMD UMC, CXL CPMU)",
	.flags = TT_C_HARDWARE,
	.gives = "read_bytes write_bytes (bytes/s) per IMC box, UMC channel or CXL device, with "
		 "its node",
	.meanings = meanings,
	.probe = probe,
	.open = open_uncore,
	.sample = sample,
	.close = close_uncore,
};
