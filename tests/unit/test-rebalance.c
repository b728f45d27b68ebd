// SPDX-License-Identifier: GPL-3.0-or-later
/* core/rebalance.c: shares by the largest remainder, targets, flows, the
 * planner's choice of pages (exact vectors worked by hand below), and the
 * mover's batches, rate and a process that is gone, on this process's own
 * pages (a move to the node a page is on is a no-op, so this holds on one
 * node). */
#include "test.h"

#include "../../core/error.h"
#include "../../core/rebalance.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static void test_apportion(void **state)
{
	static const struct {
		uint64_t total;
		int n;
		uint64_t w[4], out[4];
	} v[] = {
		{ 10000, 3, { 5, 3, 2 }, { 5000, 3000, 2000 } },
		/* Equal remainders: the lower index first. */
		{ 10000, 3, { 1, 1, 1 }, { 3334, 3333, 3333 } },
		/* 6666.67 and 3333.33: remainders 2 and 1 (of 3). */
		{ 10000, 2, { 2, 1 }, { 6667, 3333 } },
		{ 7, 4, { 1, 1, 1, 1 }, { 2, 2, 2, 1 } },
		/* A 0 weight never gets a remainder's unit. */
		{ 10000, 3, { 1, 0, 2 }, { 3333, 0, 6667 } },
		/* 99.61 and 0.39: remainders 156 and 100 (of 256). */
		{ 100, 2, { 255, 1 }, { 100, 0 } },
		{ 10, 2, { 0, 0 }, { 0, 0 } },
		/* 10007 pages at 5:3:2: 5003.5, 3002.1, 2001.4. */
		{ 10007, 3, { 5, 3, 2 }, { 5004, 3002, 2001 } },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		uint64_t out[4], sum = 0;

		assert_int_equal(tt_rb_apportion(v[i].total, v[i].w, v[i].n, out), 0);
		for (int k = 0; k < v[i].n; k++) {
			assert_true(out[k] == v[i].out[k]);
			sum += out[k];
		}
		assert_true(sum ==
			    (v[i].w[0] + v[i].w[1] + v[i].w[2] + v[i].w[3] ? v[i].total : 0));
	}
	assert_int_equal(tt_rb_apportion(1, v[0].w, 0, NULL), TT_EINPUT);
}

static void test_shares_bp(void **state)
{
	static const struct {
		const char *w;
		uint32_t bp[6];
	} v[] = {
		{ "0:5,1:3,2:2", { 5000, 3000, 2000 } },
		{ "0:1,2:1,5:1", { 3334, 0, 3333, 0, 0, 3333 } },
		/* The kernel counts a weight 0 as 1 (get_il_weight). */
		{ "1:0", { 0, 10000 } },
		{ "0:0,1:2", { 3333, 6667 } },
		{ "0:255,1:1", { 9961, 39 } },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct tt_weights w;
		uint32_t *bp = calloc(TT_MAX_NODES, sizeof(*bp)), sum = 0;

		assert_non_null(bp);
		assert_int_equal(tt_weights_parse(v[i].w, &w), 0);
		assert_int_equal(tt_rb_shares_bp(&w, bp), 0);
		for (int k = 0; k < 6; k++)
			assert_int_equal(bp[k], v[i].bp[k]);
		for (int k = 0; k < TT_MAX_NODES; k++)
			sum += bp[k];
		assert_int_equal(sum, TT_RB_BP);
		free(bp);
	}
}

static struct tt_rb_counts *counts(const uint64_t *pages, int n)
{
	struct tt_rb_counts *c = calloc(1, sizeof(*c));

	for (int i = 0; c && i < n; i++) {
		c->pages[i] = pages[i];
		c->total += pages[i];
	}
	return c;
}

static void test_targets_flows(void **state)
{
	struct tt_weights w;
	uint64_t *want = calloc(TT_MAX_NODES, sizeof(*want));
	struct tt_rb_counts *c = counts((uint64_t[]){ 10007, 0, 0 }, 3);
	struct tt_rb_flow f[8];

	(void)state;
	assert_non_null(want);
	assert_non_null(c);
	assert_int_equal(tt_weights_parse("0:5,1:3,2:2", &w), 0);
	assert_int_equal(tt_rb_targets(c, &w, want), 0);
	assert_true(want[0] == 5004 && want[1] == 3002 && want[2] == 2001 && want[3] == 0);
	/* 5003 of 10007 pages off: 4999.50 bp. */
	assert_int_equal((int)lround(tt_rb_off_bp(c, want) * 100), 499950);
	assert_int_equal(tt_rb_flows(c, want, f, 8), 2);
	assert_true(f[0].from == 0 && f[0].to == 1 && f[0].pages == 3002);
	assert_true(f[1].from == 0 && f[1].to == 2 && f[1].pages == 2001);
	free(c);
	/* Two nodes over, two under: each surplus to the largest deficit left. */
	c = counts((uint64_t[]){ 100, 0, 50, 10 }, 4);
	memset(want, 0, TT_MAX_NODES * sizeof(*want));
	want[0] = want[1] = want[2] = want[3] = 40;
	assert_int_equal(tt_rb_flows(c, want, f, 8), 3);
	assert_true(f[0].from == 0 && f[0].to == 1 && f[0].pages == 40);
	assert_true(f[1].from == 0 && f[1].to == 3 && f[1].pages == 20);
	assert_true(f[2].from == 2 && f[2].to == 3 && f[2].pages == 10);
	/* Within: nothing off, nothing to move. */
	memcpy(c->pages, want, 4 * sizeof(*want));
	c->total = 160;
	assert_true(tt_rb_off_bp(c, want) == 0);
	assert_int_equal(tt_rb_flows(c, want, f, 8), 0);
	free(c);
	free(want);
}

static void test_plan_shares(void **state)
{
	struct tt_rb_unit u[12 + 2 + 100];
	int dest[sizeof(u) / sizeof(u[0])];
	uint64_t *want = calloc(TT_MAX_NODES, sizeof(*want));
	struct tt_weights w;
	/* 12 pages on node 0 to 2:1:1 over nodes 0-2: every other page goes,
	 * to nodes 1 and 2 in turn (the larger deficit, ties the lower id). */
	static const int expect[12] = { 1, -1, 2, -1, 1, -1, 2, -1, 1, -1, 2, -1 };

	(void)state;
	assert_non_null(want);
	assert_int_equal(tt_weights_parse("0:2,1:1,2:1", &w), 0);
	for (int i = 0; i < 12; i++)
		u[i] = (struct tt_rb_unit){ .addr = 0x10000000ULL + i * 4096ULL, .pages = 1 };
	want[0] = 6, want[1] = 3, want[2] = 3;
	assert_int_equal(tt_rb_plan(u, 12, want, TT_RB_SHARES, &w, dest), 6);
	for (int i = 0; i < 12; i++)
		assert_int_equal(dest[i], expect[i]);
	/* Two THPs and 100 pages on node 0 to 1:1 over nodes 0-1 (562 each):
	 * the first THP goes whole (512 pages), then every other 4 KiB page
	 * (50): 562 moved, none split. */
	assert_int_equal(tt_weights_parse("0:1,1:1", &w), 0);
	for (int i = 0; i < 2; i++)
		u[i] = (struct tt_rb_unit){ .addr = 0x40000000ULL + (uint64_t)i * (2 << 20),
					    .pages = 512,
					    .huge = true };
	for (int i = 0; i < 100; i++)
		u[2 + i] = (struct tt_rb_unit){ .addr = 0x50000000ULL + i * 4096ULL, .pages = 1 };
	memset(want, 0, TT_MAX_NODES * sizeof(*want));
	want[0] = want[1] = 562;
	assert_int_equal(tt_rb_plan(u, 102, want, TT_RB_SHARES, &w, dest), 562);
	assert_int_equal(dest[0], 1);
	assert_int_equal(dest[1], -1);
	for (int i = 0; i < 100; i++)
		assert_int_equal(dest[2 + i], i % 2 == 0 ? 1 : -1);
	/* Already at the target: nothing planned. */
	for (int i = 0; i < 4; i++)
		u[i] = (struct tt_rb_unit){ .addr = 0x1000ULL * i,
					    .pages = 1,
					    .node = (int16_t)(i % 2) };
	want[0] = want[1] = 2;
	assert_int_equal(tt_rb_plan(u, 4, want, TT_RB_SHARES, &w, dest), 0);
	for (int i = 0; i < 4; i++)
		assert_int_equal(dest[i], -1);
	free(want);
}

static void test_plan_interleave(void **state)
{
	struct tt_rb_unit u[7];
	int dest[7];
	uint64_t *want = calloc(TT_MAX_NODES, sizeof(*want));
	struct tt_weights w;

	(void)state;
	assert_non_null(want);
	/* 2:1 over nodes 0-1: the vma walk gives index i slot i % 3, slots 0
	 * and 1 node 0, slot 2 node 1. Pages 0-5 on node 0: 2 and 5 move. A
	 * THP's index is its 2 MiB number: THP 3 is slot 0, node 0. */
	assert_int_equal(tt_weights_parse("0:2,1:1", &w), 0);
	for (int i = 0; i < 6; i++)
		u[i] = (struct tt_rb_unit){ .addr = (uint64_t)i << 12, .pages = 1 };
	u[6] = (struct tt_rb_unit){ .addr = 3ULL << 21, .pages = 512, .node = 1, .huge = true };
	assert_int_equal(tt_rb_plan(u, 7, want, TT_RB_INTERLEAVE, &w, dest), 2 + 512);
	static const int expect[7] = { -1, -1, 1, -1, -1, 1, 0 };
	for (int i = 0; i < 7; i++)
		assert_int_equal(dest[i], expect[i]);
	free(want);
}

static int stop_after_two(void *ctx, const struct tt_rb_progress *p)
{
	int *calls = ctx;

	(void)p;
	return ++*calls == 2;
}

static void test_move_self(void **state)
{
	enum { N = 10 };
	char *buf =
		mmap(NULL, N * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct tt_rb_unit u[N];
	int dest[N], calls = 0;
	struct tt_rb_result r;
	void *addr[N];
	int status[N];
	pid_t child;

	(void)state;
	assert_true(buf != MAP_FAILED);
	memset(buf, 1, N * 4096);
	/* Each page to the node it is on (a no-op wherever it is). */
	for (int i = 0; i < N; i++)
		addr[i] = buf + i * 4096;
	assert_int_equal(tt_rb_move(getpid(), u, 0, dest, &(struct tt_rb_cfg){ .batch = 3 }, &r),
			 0);
	assert_true(r.calls == 0 && r.planned == 0);
	{
		/* Where the pages are, by the scan's move_pages query. */
		struct tt_rb_scan sc;
		struct tt_sysfs s;

		assert_int_equal(tt_sysfs_init(&s, "/"), 0);
		assert_int_equal(tt_rb_scan_live(&s, getpid(), &sc), 0);
		for (int i = 0; i < N; i++) {
			status[i] = -1;
			for (size_t k = 0; k < sc.n; k++)
				if (sc.units[k].addr <= (uint64_t)(uintptr_t)addr[i] &&
				    (uint64_t)(uintptr_t)addr[i] <
					    sc.units[k].addr + sc.units[k].pages * 4096ULL)
					status[i] = sc.units[k].node;
			assert_true(status[i] >= 0);
		}
		tt_rb_scan_release(&sc);
	}
	for (int i = 0; i < N; i++) {
		u[i] = (struct tt_rb_unit){ .addr = (uint64_t)(uintptr_t)addr[i],
					    .pages = 1,
					    .node = (int16_t)status[i] };
		dest[i] = status[i];
	}
	/* Batches of at most 3 units: 4 calls for 10 pages, every page where
	 * it was asked to be. */
	assert_int_equal(tt_rb_move(getpid(), u, N, dest, &(struct tt_rb_cfg){ .batch = 3 }, &r),
			 0);
	assert_true(r.calls == 4 && r.planned == N && r.moved == N && !r.gone);
	/* 40960 bytes at 81920 B/s: batches of a tenth of a second's worth
	 * (8192 bytes, 2 pages), 5 calls, no sooner than 0.5 s in all. */
	assert_int_equal(tt_rb_move(getpid(), u, N, dest,
				    &(struct tt_rb_cfg){ .batch = 100, .rate_bytes_s = 81920 }, &r),
			 0);
	assert_true(r.calls == 5 && r.moved == N);
	assert_true(r.elapsed_s >= 0.45);
	/* The progress callback stops it after its second batch. */
	assert_int_equal(tt_rb_move(getpid(), u, N, dest,
				    &(struct tt_rb_cfg){
					    .batch = 3, .progress = stop_after_two, .ctx = &calls },
				    &r),
			 0);
	assert_true(r.calls == 2 && r.moved == 6 && r.stopped);
	/* A process that is gone: ESRCH ends it, nothing moved, no error. */
	child = fork();
	if (child == 0)
		_exit(0);
	assert_true(child > 0);
	waitpid(child, NULL, 0);
	assert_int_equal(tt_rb_move(child, u, N, dest, &(struct tt_rb_cfg){ .batch = 3 }, &r), 0);
	assert_true(r.gone && r.moved == 0 && r.calls == 1);
	munmap(buf, N * 4096);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_apportion),	cmocka_unit_test(test_shares_bp),
		cmocka_unit_test(test_targets_flows),	cmocka_unit_test(test_plan_shares),
		cmocka_unit_test(test_plan_interleave), cmocka_unit_test(test_move_self),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
