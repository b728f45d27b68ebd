// SPDX-License-Identifier: GPL-3.0-or-later
/* The test-only front end's seams (core/test-hooks.h): linked into
 * build/tests/tiertune-test and build/tests/tiertop-script, which are
 * tiertune and tiertop with this object, never into what is shipped. It
 * fills the hooks from the test variables before main runs. */
#define _GNU_SOURCE /* CPU_SET, pthread_setaffinity_np */
#include "../../core/test-hooks.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

extern const struct tt_collector tt_c_script; /* c-script.c */

static const struct tt_collector *const scripted[] = { &tt_c_script, NULL };
static struct tt_test_hooks hooks = { .top_collectors = scripted };

/* TIERTUNE_TEST_STARVE: a thread burning each measuring CPU beside the
 * measuring thread, at the same priority, for the life of the process: the
 * scheduler shares the CPU between them, so a measuring thread runs about
 * half of each pass (less on a busy host, never most of it), the
 * starvation issue 44 saw from nice 10 beside busy loops. */
static void *burn(void *arg)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET((int)(long)arg, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	for (;;)
		__asm__ volatile("" ::: "memory");
	return NULL;
}

static void starve(int cpu)
{
	static _Atomic unsigned char burning[1024];
	pthread_t t;

	if (cpu < 0 || cpu >= (int)sizeof(burning) || atomic_exchange(&burning[cpu], 1))
		return;
	if (pthread_create(&t, NULL, burn, (void *)(long)cpu) == 0)
		pthread_detach(t);
}

__attribute__((constructor)) static void fill(void)
{
	hooks.app_host_nodes = getenv(TT_TEST_APP_HOST_NODES) != NULL;
	hooks.fixture_fault = getenv("TIERTUNE_TEST_FIXTURE_FAULT");
	if (getenv("TIERTUNE_TEST_STARVE"))
		hooks.measuring = starve;
	tt_test_hooks = &hooks;
}
