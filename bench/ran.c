// SPDX-License-Identifier: GPL-3.0-or-later
/* Whether the measuring threads ran through their timed passes: each
 * thread's CPU time against the wall time of its pass, its involuntary
 * context switches, and the steal the hypervisor took from its CPUs. A
 * load that slows every pass alike (issue 44: nice 10 on a busy 2-CPU host,
 * 15% of a CPU, 1126 ns judged valid beside 317 ns) passes the spread rule;
 * the thread's own CPU time does not. */
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include "harness.h"

#include "../core/deadline.h"
#include "../core/parse.h"
#include "../core/test-hooks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static double thread_cpu_s(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) < 0)
		return NAN;
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static long thread_nivcsw(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) < 0 ? 0 : ru.ru_nivcsw;
}

void tt_ran_measuring(int cpu)
{
	if (tt_test_hooks && tt_test_hooks->measuring)
		tt_test_hooks->measuring(cpu);
}

void tt_ran_begin(struct tt_ran_slot *s)
{
	s->nivcsw = thread_nivcsw();
	s->t0 = tt_mono_s();
	s->cpu_s = thread_cpu_s();
}

/* The CPU time is read before the wall clock, so a pass's share is not
 * raised by the reading itself; the switches after, outside it. */
void tt_ran_end(struct tt_ran_slot *s)
{
	s->cpu_s = thread_cpu_s() - s->cpu_s;
	s->t1 = tt_mono_s();
	s->nivcsw = thread_nivcsw() - s->nivcsw;
}

/* /proc/stat's "cpuN user nice system idle iowait irq softirq steal ...":
 * the steal of cpus, summed, in USER_HZ ticks; -1 when the file (under the
 * root, as every procfs path) or a CPU's line is missing or malformed. */
int64_t tt_ran_steal(const struct tt_sysfs *s, const int *cpus, int n)
{
	char path[4096], *line = NULL;
	size_t cap = 0;
	int64_t sum = 0;
	int found = 0;
	FILE *f;

	if (tt_sysfs_path(s, path, sizeof(path), "/proc/stat") < 0)
		return -1;
	f = fopen(path, "re");
	if (!f)
		return -1;
	/* The CPUs' lines come first; the interrupt counts after them are
	 * long, and not read. */
	while (found < n && getline(&line, &cap, f) > 0 && !strncmp(line, "cpu", 3)) {
		char *end, *at = line + 3;
		long cpu;
		uint64_t v = 0;

		if (*at == ' ')
			continue; /* the all-CPU line */
		cpu = strtol(at, &end, 10);
		if (end == at || *end != ' ')
			break;
		for (int i = 0; i < n; i++) {
			if (cpus[i] != cpu)
				continue;
			at = end;
			for (int field = 0; field < 8; field++) {
				v = strtoull(at, &end, 10);
				if (end == at)
					goto out;
				at = end;
			}
			sum += (int64_t)v;
			found++;
		}
	}
out:
	free(line);
	fclose(f);
	return found == n ? sum : -1;
}

void tt_ran_sum(const struct tt_ran_slot *slots, int npass, int nt, const int *cpus,
		int64_t steal_ticks, struct tt_bench_ran *out)
{
	double *share = calloc((size_t)npass + 1, sizeof(*share));
	int *who = calloc((size_t)npass + 1, sizeof(*who));
	double first = INFINITY, last = 0;
	int m = 0;

	memset(out, 0, sizeof(*out));
	out->share = out->least_share = NAN;
	out->steal_s = NAN;
	out->ncpus = nt;
	if (!share || !who)
		goto out;
	for (int p = 0; p < npass; p++) {
		const struct tt_ran_slot *s = slots + (size_t)p * (size_t)nt;
		double start = INFINITY, least = INFINITY;
		int at = -1;

		/* The pass starts when its first thread does: a thread that
		 * woke late from the barrier lost that time too. */
		for (int t = 0; t < nt; t++)
			if (s[t].t1 > 0 && s[t].t0 < start)
				start = s[t].t0;
		for (int t = 0; t < nt; t++) {
			if (s[t].t1 <= 0)
				continue; /* no part in this pass (a curve's idle point) */
			double wall = s[t].t1 - start, f = wall > 0 ? s[t].cpu_s / wall : 1;

			if (f > 1)
				f = 1; /* the clocks' readings differ by their cost */
			if (f < least) {
				least = f;
				at = t;
			}
			out->nivcsw += (uint64_t)(s[t].nivcsw > 0 ? s[t].nivcsw : 0);
			if (s[t].t1 > last)
				last = s[t].t1;
		}
		if (at < 0)
			continue;
		if (start < first)
			first = start;
		share[m] = least;
		who[m++] = cpus[at];
		if (least < TT_RAN_MIN)
			out->descheduled++;
	}
	out->passes = m;
	if (!m)
		goto out;
	out->wall_s = last - first;
	/* The CPU of the median pass's least-running thread: sorted by share
	 * together. */
	for (int i = 1; i < m; i++)
		for (int k = i; k > 0 && share[k - 1] > share[k]; k--) {
			double ts = share[k];
			int tw = who[k];

			share[k] = share[k - 1];
			who[k] = who[k - 1];
			share[k - 1] = ts;
			who[k - 1] = tw;
		}
	out->least_share = share[0];
	out->share = share[m / 2];
	out->cpu = who[m / 2];
	if (steal_ticks >= 0)
		out->steal_s = (double)steal_ticks / (double)sysconf(_SC_CLK_TCK);
out:
	free(share);
	free(who);
}

bool tt_ran_judge(const struct tt_bench_ran *ran, char *why, size_t size)
{
	double tick = 1.0 / (double)sysconf(_SC_CLK_TCK);

	why[0] = '\0';
	if (!ran->passes)
		return false;
	if (ran->share < TT_RAN_MIN) {
		snprintf(why, size,
			 "the thread on CPU %d ran %.0f%% of the median pass (%d of %d pass%s "
			 "under %.0f%%; %ju involuntary context switch%s)",
			 ran->cpu, ran->share * 100, ran->descheduled, ran->passes,
			 ran->passes == 1 ? "" : "es", TT_RAN_MIN * 100, (uintmax_t)ran->nivcsw,
			 ran->nivcsw == 1 ? "" : "es");
		return true;
	}
	/* Steal is counted in ticks: one more or less is the counter's step,
	 * so the least it may have been is judged. */
	double cpu_s = ran->wall_s * ran->ncpus, least = ran->steal_s - tick;

	if (isfinite(least) && cpu_s > 0 && least > cpu_s * (1 - TT_RAN_MIN)) {
		snprintf(why, size,
			 "the hypervisor stole %.0f%% of the measuring CPUs' time over the passes "
			 "(%.2f s of %.2f s, steal in /proc/stat)",
			 ran->steal_s / cpu_s * 100, ran->steal_s, cpu_s);
		return true;
	}
	return false;
}
