// SPDX-License-Identifier: GPL-3.0-or-later
/* Core counters through libpfm4: event names encoded with
 * pfm_get_os_event_encoding(), opened with perf_event_open on every CPU of
 * the source node (system-wide: the benchmark's threads run there) when
 * allowed, else on this process and its future threads (inherit). The
 * software PMU (perf::PERF_COUNT_SW_*) works even where the hardware one
 * does not, as in a VM. */
#define _GNU_SOURCE
#include "collector.h"

#include "../core/error.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifdef TT_HAVE_PFM
#include <perfmon/pfmlib_perf_event.h>

static const struct {
	const char *metric, *event, *unit;
} events[] = {
	{ "cycles", "perf::PERF_COUNT_HW_CPU_CYCLES", "cycles/s" },
	{ "instructions", "perf::PERF_COUNT_HW_INSTRUCTIONS", "instructions/s" },
	{ "llc_misses", "perf::PERF_COUNT_HW_CACHE_MISSES", "misses/s" },
	{ "stalled_cycles_backend", "perf::PERF_COUNT_HW_STALLED_CYCLES_BACKEND", "cycles/s" },
	{ "cpu_clock", "perf::PERF_COUNT_SW_CPU_CLOCK", "ns/s" },
	{ "page_faults", "perf::PERF_COUNT_SW_PAGE_FAULTS", "faults/s" },
	{ "context_switches", "perf::PERF_COUNT_SW_CONTEXT_SWITCHES", "switches/s" },
	{ "cpu_migrations", "perf::PERF_COUNT_SW_CPU_MIGRATIONS", "migrations/s" },
};
#define NEVENTS (sizeof(events) / sizeof(*events))

struct priv {
	int ncpu; /* 0: per process */
	int cpus[512];
	int nev;
	int ev[NEVENTS]; /* index into events[] of each metric */
	int *fd;	 /* [metric][cpu] */
};

static int pfm_ready(char *why, size_t size)
{
	static int state; /* 0 unknown, 1 ok, -1 failed */
	static char reason[128];

	if (!state) {
		int rc = pfm_initialize();

		state = rc == PFM_SUCCESS ? 1 : -1;
		snprintf(reason, sizeof(reason), "libpfm4 failed to initialize: %s",
			 pfm_strerror(rc));
	}
	if (state < 0)
		snprintf(why, size, "%s", reason);
	return state > 0 ? 0 : TT_EUNAVAIL;
}

static int paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int level = 2;

	if (f) {
		if (fscanf(f, "%d", &level) != 1)
			level = 2;
		fclose(f);
	}
	return level;
}

/* System-wide counting on a CPU needs root or paranoid <= 0; otherwise
 * count this process and the threads it starts. */
static bool system_wide(void)
{
	return geteuid() == 0 || paranoid() <= 0;
}

/* Kernel-mode counting for an unprivileged process needs paranoid <= 1. */
static bool user_only(void)
{
	return geteuid() != 0 && paranoid() >= 2;
}

static int encode(const char *event, struct perf_event_attr *a)
{
	pfm_perf_encode_arg_t arg;

	memset(a, 0, sizeof(*a));
	memset(&arg, 0, sizeof(arg));
	arg.attr = a;
	arg.size = sizeof(arg);
	/* User and kernel where allowed: page faults and memory stalls of a
	 * benchmark happen in both. */
	return pfm_get_os_event_encoding(event, user_only() ? PFM_PLM3 : PFM_PLM0 | PFM_PLM3,
					 PFM_OS_PERF_EVENT, &arg);
}

/* group: the leader's fd, or -1 to open one. Per-CPU events go in one
 * group per CPU, read with a single read() (PERF_FORMAT_GROUP): a read of a
 * perf fd costs about 10 us in a VM, and the sampler reads every 100 ms.
 * Inherited (per-process) events cannot be read as a group.
 *
 * A leader opens disabled and the whole group is enabled once its members
 * are in (enable_groups), as perf stat does. Members opened into a group
 * already counting did not count: measured on Linux 6.18 (a VM, root, CPU 0,
 * 1 s), the group {cpu-clock, context-switches, page-faults} opened enabled
 * read 1.0e9, 0, 0 while each alone counted 14931 switches and 4885 faults,
 * and {page-faults, context-switches, cpu-clock} read 28652, 1013, 0; opened
 * disabled and enabled as one, both orders count every event (issue 34:
 * 0 switches/s while /proc/stat counted 4965/s). */
static int open_one(struct perf_event_attr *a, int cpu, int group)
{
	a->size = sizeof(*a);
	a->disabled = cpu >= 0 && group < 0;
	a->inherit = cpu < 0;
	a->read_format = cpu < 0 ? 0 : PERF_FORMAT_GROUP;
	return (int)syscall(SYS_perf_event_open, a, cpu < 0 ? 0 : -1, cpu, group,
			    PERF_FLAG_FD_CLOEXEC);
}

/* The kernel counts context switches and migrations with the scheduler's
 * own (kernel) registers (perf_sw_event_sched), so under exclude_kernel,
 * which perf_event_paranoid 2 imposes on a user, they read 0 however often
 * they happen: not offered then, rather than shown as 0. */
static bool kernel_only(const struct perf_event_attr *a)
{
	return user_only() && a->type == PERF_TYPE_SOFTWARE &&
	       (a->config == PERF_COUNT_SW_CONTEXT_SWITCHES ||
		a->config == PERF_COUNT_SW_CPU_MIGRATIONS);
}

static int first_cpu(const struct tt_collect_ctx *ctx)
{
	for (int i = 0; i < ctx->topo->nnodes; i++)
		if (ctx->topo->nodes[i].ncpus &&
		    (ctx->source_node < 0 || ctx->topo->nodes[i].id == ctx->source_node))
			return ctx->topo->nodes[i].cpus[0];
	return 0;
}

static int probe(const struct tt_collect_ctx *ctx, char *why, size_t size)
{
	size_t len = 0;
	int ok = 0, cpu = system_wide() ? first_cpu(ctx) : -1;

	if (pfm_ready(why, size) < 0)
		return TT_EUNAVAIL;
	if (!ctx->sfs->live) {
		snprintf(why, size, "counting needs the live system (the sysfs root is a copy)");
		return TT_EUNAVAIL;
	}
	why[0] = '\0';
	for (size_t i = 0; i < NEVENTS; i++) {
		struct perf_event_attr a;
		int rc = encode(events[i].event, &a), fd;

		if (rc != PFM_SUCCESS) {
			len += (size_t)snprintf(why + len, len < size ? size - len : 0, "%s%s: %s",
						len ? "; " : "", events[i].metric,
						pfm_strerror(rc));
			continue;
		}
		if (kernel_only(&a)) {
			len += (size_t)snprintf(why + len, len < size ? size - len : 0,
						"%s%s: counted in kernel mode only",
						len ? "; " : "", events[i].metric);
			continue;
		}
		fd = open_one(&a, cpu, -1);
		if (fd >= 0) {
			close(fd);
			ok++;
			continue;
		}
		len += (size_t)snprintf(why + len, len < size ? size - len : 0, "%s%s: %s",
					len ? "; " : "", events[i].metric,
					errno == ENOENT || errno == EOPNOTSUPP
						? "no hardware PMU here"
						: strerror(errno));
	}
	if (!ok)
		return TT_EUNAVAIL;
	/* Usable: why now lists what it cannot count, and how it counts. */
	if (user_only())
		len += (size_t)snprintf(why + len, len < size ? size - len : 0,
					"%suser space of this process only (perf_event_paranoid is "
					"%d and this is not root)",
					len ? "; " : "", paranoid());
	return 0;
}

static void close_pfm(struct tt_source *s)
{
	struct priv *p = s ? s->priv : NULL;

	if (p && p->fd) {
		for (int i = 0; i < p->nev * (p->ncpu ? p->ncpu : 1); i++)
			if (p->fd[i] >= 0)
				close(p->fd[i]);
		free(p->fd);
	}
	free(p);
	tt_source_free(s);
}

/* System-wide, the CPUs of the source node (of every node when none is
 * given): one group per CPU. */
static void source_cpus(const struct tt_collect_ctx *ctx, struct priv *p)
{
	for (int i = 0; i < ctx->topo->nnodes; i++) {
		const struct tt_node *n = &ctx->topo->nodes[i];

		if (ctx->source_node >= 0 && n->id != ctx->source_node)
			continue;
		for (int k = 0; k < n->ncpus && p->ncpu < 512; k++)
			p->cpus[p->ncpu++] = n->cpus[k];
	}
}

/* Opens events[i] on each of per CPUs (or for the process) into
 * p->fd[p->nev * per ...]: 1 when it counts, 0 when it cannot be counted
 * here (probe said so), negative when the leader cannot be counted on
 * every CPU. */
static int open_event(struct priv *p, size_t i, int per)
{
	struct perf_event_attr a;
	int *fd = p->fd + p->nev * per, opened = 0;

	if (encode(events[i].event, &a) != PFM_SUCCESS || kernel_only(&a))
		return 0;
	for (int c = 0; c < per; c++) {
		struct perf_event_attr copy = a;

		fd[c] = open_one(&copy, p->ncpu ? p->cpus[c] : -1,
				 p->ncpu && p->nev ? p->fd[c] : -1);
		opened += fd[c] >= 0;
	}
	/* In group mode every CPU must take the event, or the group reads
	 * would not line up; the leader (first event) must open everywhere. */
	if (p->ncpu && opened && opened < per) {
		for (int c = 0; c < per; c++)
			if (fd[c] >= 0)
				close(fd[c]);
		if (!p->nev)
			return tt_err(TT_EUNAVAIL, "%s cannot be counted on every source-node CPU",
				      events[i].metric);
		return 0;
	}
	return opened > 0;
}

/* Each CPU's group starts counting only now that it is whole: members
 * opened into a group already counting read 0 (open_one). */
static int enable_groups(const struct priv *p)
{
	for (int c = 0; c < p->ncpu; c++)
		if (ioctl(p->fd[c], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP) < 0)
			return tt_err(TT_EUNAVAIL, "cannot start counting on CPU %d: %s",
				      p->cpus[c], strerror(errno));
	return 0;
}

static int open_pfm(const struct tt_collect_ctx *ctx, struct tt_source **out)
{
	struct priv *p = calloc(1, sizeof(*p));
	struct tt_source *s = tt_source_new(&tt_c_pfm, (int)NEVENTS);
	int cap = (int)NEVENTS, rc = 0;
	char why[512];

	if (!p || !s) {
		free(p);
		tt_source_free(s);
		return tt_err(TT_EFAIL, "out of memory");
	}
	s->priv = p;
	if (pfm_ready(why, sizeof(why)) < 0) {
		close_pfm(s);
		return tt_err(TT_EUNAVAIL, "%s", why);
	}
	if (system_wide())
		source_cpus(ctx, p);
	int per = p->ncpu ? p->ncpu : 1;
	p->fd = malloc(NEVENTS * (size_t)per * sizeof(int));
	if (!p->fd) {
		close_pfm(s);
		return tt_err(TT_EFAIL, "out of memory");
	}
	for (size_t i = 0; i < NEVENTS; i++) {
		int got = open_event(p, i, per);

		if (got < 0) {
			rc = got;
			break;
		}
		if (!got)
			continue;
		p->ev[p->nev++] = (int)i;
		if (!tt_source_add(s, &cap, events[i].metric, events[i].unit, TT_COUNTER,
				   p->ncpu ? ctx->source_node : -1,
				   p->ncpu ? "source-node CPUs" : "process"))
			rc = tt_err(TT_EFAIL, "out of memory");
	}
	if (rc == 0 && !p->nev)
		rc = tt_err(TT_EUNAVAIL, "no libpfm4 event can be counted here");
	if (rc == 0)
		rc = enable_groups(p);
	if (rc < 0) {
		close_pfm(s);
		return rc;
	}
	*out = s;
	return 0;
}

static int sample(struct tt_source *s, double *v)
{
	struct priv *p = s->priv;
	int per = p->ncpu ? p->ncpu : 1;

	if (p->ncpu) {
		uint64_t buf[1 + NEVENTS];

		for (int m = 0; m < p->nev; m++)
			v[m] = 0;
		for (int c = 0; c < p->ncpu; c++) {
			ssize_t want = (ssize_t)((1 + (size_t)p->nev) * sizeof(uint64_t));

			if (read(p->fd[c], buf, sizeof(buf)) != want ||
			    buf[0] != (uint64_t)p->nev) {
				for (int m = 0; m < p->nev; m++)
					v[m] = NAN;
				return 0;
			}
			for (int m = 0; m < p->nev; m++)
				v[m] += (double)buf[1 + m];
		}
		return 0;
	}
	for (int m = 0; m < p->nev; m++) {
		v[m] = 0;
		for (int c = 0; c < per; c++) {
			uint64_t count;
			int fd = p->fd[m * per + c];

			if (fd < 0)
				continue;
			if (read(fd, &count, sizeof(count)) != sizeof(count)) {
				v[m] = NAN;
				break;
			}
			v[m] += (double)count;
		}
	}
	return 0;
}

#endif

const struct tt_collector tt_c_pfm = {
	.name = "pfm",
	.summary = "core counters through libpfm4 (cycles, instructions, LLC misses, backend "
		   "stalls) and the software PMU (CPU clock, page faults, switches, migrations)",
	.gives = "cycles instructions llc_misses stalled_cycles_backend cpu_clock page_faults "
		 "context_switches cpu_migrations (per second, over the source node's CPUs)",
#ifdef TT_HAVE_PFM
	.probe = probe,
	.open = open_pfm,
	.sample = sample,
	.close = close_pfm,
#else
	.unbuilt = "built without libpfm4 (libpfm4-dev)",
#endif
};
