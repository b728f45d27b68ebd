// SPDX-License-Identifier: GPL-3.0-or-later
/* What every measuring thread does beside its kernel (run.c's streams,
 * latency.c's chases): the clock's tick, pinning to a CPU, the stop a
 * signal asks for, and the first touch of its part of the arrays. */
#define _GNU_SOURCE /* CPU_SET, pthread_setaffinity_np */
#include "harness.h"

#include "../core/deadline.h"
#include "../core/error.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

double tt_bench_tick_s(void)
{
	static double tick;

	/* STREAM's checktick(): the least of 20 steps between readings that
	 * differ. Measured once: it is the clock's and the call's, not the
	 * run's. */
	if (tick == 0) {
		double least = 1;

		for (int i = 0; i < 20; i++) {
			double t0 = tt_mono_s(), t1;

			while ((t1 = tt_mono_s()) == t0)
				;
			if (t1 - t0 < least)
				least = t1 - t0;
		}
		tick = least;
	}
	return tick;
}

int tt_bench_pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

bool tt_bench_stop_asked(const struct tt_bench_opts *o)
{
	return o->stop && *o->stop;
}

int tt_bench_stopped(const struct tt_bench_opts *o, const char *unit, int n, int of)
{
	if (!unit)
		return tt_err(TT_EFAIL,
			      "kernel %s stopped by signal %d while placing and touching its %s",
			      o->kernel->name, (int)*o->stop, o->kernel->kind->buffers);
	if (n == 0 && !strcmp(unit, "pass"))
		return tt_err(TT_EFAIL, "kernel %s stopped by signal %d in its warm-up pass",
			      o->kernel->name, (int)*o->stop);
	return tt_err(TT_EFAIL, "kernel %s stopped by signal %d at %s %d of %d", o->kernel->name,
		      (int)*o->stop, unit, n, of);
}

/* 8 MiB at a time: gigabytes take seconds to fault in, and a person who
 * pressed ^C should not wait for all of them. */

#define TOUCH_STEP ((size_t)1 << 20)

bool tt_bench_touch(const struct tt_bench_opts *o, double *const arr[TT_K_MAX_ARRAYS], size_t lo,
		    size_t hi)
{
	int n = 0;

	while (n < TT_K_MAX_ARRAYS && arr[n])
		n++;
	for (size_t at = lo; at < hi; at += TOUCH_STEP) {
		size_t end = hi - at > TOUCH_STEP ? at + TOUCH_STEP : hi;

		if (tt_bench_stop_asked(o))
			return false;
		tt_kernel_init(arr, at, end);
		if (o->touched_bytes)
			atomic_fetch_add(o->touched_bytes,
					 (uint64_t)(end - at) * sizeof(double) * (uint64_t)n);
	}
	return true;
}
