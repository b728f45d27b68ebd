// SPDX-License-Identifier: GPL-3.0-or-later
/* Memory bandwidth per socket from likwid's MEM performance group. Debian's
 * likwid reads counters through its access daemon or, as root, the msr
 * driver directly; it has no perf_event backend. Probe checks for one of
 * those before calling into the library, which prints its own errors. */
#include "collector.h"

#include "../core/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef TT_HAVE_LIKWID
#include <likwid.h>

/* Where Debian's library looks for the daemon (strings in liblikwid.so). */
static const char *const daemons[] = { "/usr/sbin/likwid-accessD",
				       "/usr/sbin/likwid/likwid-accessD" };

static int access_mode(char *why, size_t size)
{
	struct stat st;

	if (geteuid() == 0) {
		if (access("/dev/cpu/0/msr", R_OK | W_OK) == 0)
			return ACCESSMODE_DIRECT;
		snprintf(why, size,
			 "likwid reads counters through the msr driver, and /dev/cpu/0/msr "
			 "is missing (modprobe msr; a VM may not offer it)");
		return -1;
	}
	for (size_t i = 0; i < sizeof(daemons) / sizeof(*daemons); i++)
		if (stat(daemons[i], &st) == 0 && (st.st_mode & S_ISUID) && st.st_uid == 0)
			return ACCESSMODE_DAEMON;
	snprintf(why, size,
		 "not root, and likwid-accessD is not setuid root (Debian ships it "
		 "without); this likwid has no perf_event backend");
	return -1;
}

static int probe(const struct tt_collect_ctx *ctx, char *why, size_t size)
{
	if (!ctx->sfs->live) {
		snprintf(why, size, "counting needs the live system (the sysfs root is a copy)");
		return TT_EUNAVAIL;
	}
	if (access_mode(why, size) < 0)
		return TT_EUNAVAIL;
	if (access("/usr/share/likwid/perfgroups", R_OK) < 0) {
		snprintf(why, size, "no likwid performance groups in /usr/share/likwid/perfgroups");
		return TT_EUNAVAIL;
	}
	return 0;
}

struct priv {
	int group, nsock, metric;
	int thread[64]; /* perfmon thread index of each socket's first CPU */
};

static void close_likwid(struct tt_source *s)
{
	if (s && s->priv) {
		perfmon_stopCounters();
		perfmon_finalize();
		affinity_finalize();
		topology_finalize();
		free(s->priv);
	}
	tt_source_free(s);
}

static int open_likwid(const struct tt_collect_ctx *ctx, struct tt_source **out)
{
	struct priv *p = calloc(1, sizeof(*p));
	struct tt_source *s = tt_source_new(&tt_c_likwid, 8);
	int cap = 8, mode, *cpus = NULL, rc = 0;
	char why[256], src[32];

	(void)ctx;
	if (!p || !s) {
		free(p);
		tt_source_free(s);
		return tt_err(TT_EFAIL, "out of memory");
	}
	mode = access_mode(why, sizeof(why));
	if (mode < 0) {
		free(p);
		tt_source_free(s);
		return tt_err(TT_EUNAVAIL, "%s", why);
	}
	if (topology_init() < 0) {
		free(p);
		tt_source_free(s);
		return tt_err(TT_EUNAVAIL, "likwid cannot read this machine's topology");
	}
	CpuTopology_t t = get_cpuTopology();
	affinity_init();
	HPMmode(mode);
	cpus = malloc(t->numHWThreads * sizeof(int));
	if (!cpus) {
		rc = tt_err(TT_EFAIL, "out of memory");
		goto fail;
	}
	for (unsigned int i = 0; i < t->numHWThreads; i++) {
		cpus[i] = (int)t->threadPool[i].apicId;
		unsigned int sock = t->threadPool[i].packageId;

		if (sock < 64 && (int)sock >= p->nsock) {
			for (int k = p->nsock; k <= (int)sock; k++)
				p->thread[k] = -1;
			p->nsock = (int)sock + 1;
		}
		if (sock < 64 && p->thread[sock] < 0)
			p->thread[sock] = (int)i;
	}
	s->priv = p;
	if (perfmon_init((int)t->numHWThreads, cpus) < 0 ||
	    (p->group = perfmon_addEventSet("MEM")) < 0 || perfmon_setupCounters(p->group) < 0 ||
	    perfmon_startCounters() < 0) {
		rc = tt_err(TT_EUNAVAIL, "likwid cannot count its MEM group on this CPU");
		goto fail;
	}
	p->metric = -1;
	for (int m = 0; m < perfmon_getNumberOfMetrics(p->group); m++)
		if (strstr(perfmon_getMetricName(p->group, m), "Memory bandwidth"))
			p->metric = m;
	if (p->metric < 0) {
		rc = tt_err(TT_EUNAVAIL, "likwid's MEM group here has no memory bandwidth metric");
		goto fail;
	}
	for (int k = 0; k < p->nsock; k++) {
		snprintf(src, sizeof(src), "socket %d", k);
		/* likwid gives MBytes/s (10^6); the rate is its own, a gauge. */
		struct tt_metric *m =
			tt_source_add(s, &cap, "mem_bw", "bytes/s", TT_GAUGE, -1, src);

		if (!m) {
			rc = tt_err(TT_EFAIL, "out of memory");
			goto fail;
		}
		m->scale = 1e6;
	}
	free(cpus);
	*out = s;
	return 0;
fail:
	free(cpus);
	if (s->priv) {
		close_likwid(s);
	} else {
		affinity_finalize();
		topology_finalize();
		free(p);
		tt_source_free(s);
	}
	return rc;
}

static int sample(struct tt_source *s, double *v)
{
	struct priv *p = s->priv;

	if (perfmon_readCounters() < 0)
		return TT_EFAIL;
	for (int k = 0; k < p->nsock; k++)
		v[k] = p->thread[k] < 0 ? NAN
					: perfmon_getLastMetric(p->group, p->metric, p->thread[k]);
	return 0;
}

#endif

const struct tt_collector tt_c_likwid = {
	.name = "likwid",
	.summary = "memory bandwidth per socket from likwid's MEM group",
	.flags = TT_C_HARDWARE,
	.gives = "mem_bw (bytes/s) per socket",
#ifdef TT_HAVE_LIKWID
	.probe = probe,
	.open = open_likwid,
	.sample = sample,
	.close = close_likwid,
#else
	.unbuilt = "built without likwid (likwid)",
#endif
};
