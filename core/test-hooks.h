/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The test seams, all in one place. The shipped binaries leave
 * tt_test_hooks NULL and read no test variable (but the live-write
 * interlock, core/root.h); only the test-only front ends fill it: the
 * object tests/helper/test-hooks.c, linked into build/tests/tiertune-test
 * and build/tests/tiertop-script and never into tiertune or tiertop, as
 * git keeps its seams in t/helper/test-tool.c; a unit test, which links
 * the library, points it at hooks of its own. A new seam is a field here,
 * filled there, read where it acts.
 */
#ifndef TT_TEST_HOOKS_H
#define TT_TEST_HOOKS_H

#include <stdbool.h>
#include <sys/types.h>

struct tt_collector;

struct tt_test_hooks {
	/* auto's app mode on a fixture copy (TIERTUNE_TEST_APP_HOST_NODES):
	 * the copy's weights are written, but the program can only run on
	 * this host's nodes, under this host's weights, so it does; said as
	 * a TEST HOOK in the report. Orchestration tests only. */
	bool app_host_nodes;
	/* A fixture store's injected fault (TIERTUNE_TEST_FIXTURE_FAULT:
	 * fail:N, garble:N, kill:N; core/fixture-kernel.h), or NULL. */
	const char *fixture_fault;
	/* Collectors tiertop offers beside the table's (a scripted one),
	 * NULL-terminated, or NULL. */
	const struct tt_collector *const *top_collectors;
	/* Each bench run's median pass as judged: the best pass times what
	 * this returns (0: as timed), so that a unit test makes the spread a
	 * busy host makes, or none (bench/run.c); NULL: none. */
	double (*pass_spread)(void);
	/* Each bench run's median pass share of CPU time as judged (bench/run.h
	 * struct tt_bench_ran): what this returns (0: as measured), so that a
	 * unit test of another judgement holds on a host busy enough to
	 * deschedule its passes; NULL: none. */
	double (*ran_share)(void);
	/* Called by each bench thread that measures (a pass's or a curve's),
	 * pinned to cpu, before its timed passes: a seam that starves it
	 * (TIERTUNE_TEST_STARVE: a thread burning the same CPU), so that a
	 * test sees a descheduled pass on any host (bench/ran.c); NULL:
	 * none. */
	void (*measuring)(int cpu);
	/* move_pages(2) of another process as rebalance calls it (a query
	 * when nodes is NULL): 0, the count of pages not moved, or -errno; a
	 * unit test's scripted kernel (a full node, an exiting process, shared
	 * pages), or the test front end's (TIERTUNE_TEST_MOVE_PAGES: a move on
	 * a host of one node whose look after it fails), in place of the
	 * system call (migrate/move.c); NULL: the system call. */
	long (*move_pages)(pid_t pid, unsigned long n, void **pages, const int *nodes, int *status,
			   int flags);
};

/* The variable the test front end reads for app_host_nodes, which the
 * report names. */
#define TT_TEST_APP_HOST_NODES "TIERTUNE_TEST_APP_HOST_NODES"

/* NULL in the shipped binaries. */
extern const struct tt_test_hooks *tt_test_hooks;

#endif
