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
#include <stdbool.h>
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

/* TIERTUNE_TEST_MOVE_PAGES=NODE:ERRNO: rebalance's move_pages made up, so
 * that a move runs on a host of one node: every page a query asks about is
 * on NODE, every move succeeds (nothing moves), and once a move was made
 * each query fails with -ERRNO, a look after the moves that fails midway
 * while the process is still there. */
static int fake_node = -1, fake_errno;
static bool fake_moved;

static long fake_move_pages(pid_t pid, unsigned long n, void **pages, const int *nodes, int *status,
			    int flags)
{
	(void)pid;
	(void)pages;
	(void)flags;
	if (nodes) {
		for (unsigned long i = 0; i < n; i++)
			status[i] = nodes[i];
		fake_moved = true;
		return 0;
	}
	if (fake_moved)
		return -fake_errno;
	for (unsigned long i = 0; i < n; i++)
		status[i] = fake_node;
	return 0;
}

__attribute__((constructor)) static void fill(void)
{
	hooks.app_host_nodes = getenv(TT_TEST_APP_HOST_NODES) != NULL;
	hooks.fixture_fault = getenv("TIERTUNE_TEST_FIXTURE_FAULT");
	if (getenv("TIERTUNE_TEST_STARVE"))
		hooks.measuring = starve;
	if (getenv("TIERTUNE_TEST_MOVE_PAGES")) {
		char *end;

		fake_node = (int)strtol(getenv("TIERTUNE_TEST_MOVE_PAGES"), &end, 10);
		if (*end == ':')
			fake_errno = (int)strtol(end + 1, &end, 10);
		if (!*end && fake_node >= 0 && fake_errno > 0)
			hooks.move_pages = fake_move_pages;
	}
	tt_test_hooks = &hooks;
}
