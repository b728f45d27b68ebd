// SPDX-License-Identifier: GPL-3.0-or-later
/* bench/place.c: the plan follows the core order model for several weight
 * vectors, masks and start addresses; verification logic on fake status
 * arrays (misplaced pages found, counts conserved). On the live machine
 * (bench/run.c): a reused bench context gives the verified placement a
 * fresh run gives, moves nothing for a vector measured again, and is
 * rebuilt when the size, the threads, the kernel or the mode change. */
#include "test.h"

#include "../../bench/harness.h"
#include "../../bench/place.h"
#include "../../bench/run.h"
#include "../../core/error.h"
#include "../../core/mpol.h"
#include "../../core/parse.h"
#include "../../core/sysfs.h"
#include "../../core/topo.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static struct tt_placement p;
static struct tt_place_report r;

static void setup(enum tt_place_mode mode, const char *mask, const char *weights)
{
	struct tt_nodemask m;
	struct tt_weights w;

	assert_int_equal(tt_parse_list(mask, m.bits, TT_MAX_NODES), 0);
	assert_int_equal(tt_weights_parse(weights, &w), 0);
	assert_int_equal(tt_place_init(&p, mode, &m, &w, 0), 0);
}

static void test_plan_matches_model(void **state)
{
	static const struct {
		const char *mask, *weights;
		uintptr_t base;
		size_t pages;
	} v[] = {
		{ "0-2", "0:3,1:1,2:2", 0x7f0000003000, 1000 },
		{ "0,2", "0:5,2:2", 0x7f1234567000, 777 },
		{ "0-3", "0:255,1:1,2:17,3:2", 0x10000, 5000 },
		{ "1", "1:9", 0x7fff00000000, 100 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		uint64_t plan[TT_MAX_NODES] = { 0 }, model[TT_MAX_NODES] = { 0 };

		setup(TT_PLACE_EXACT, v[i].mask, v[i].weights);
		tt_place_plan(&p, v[i].base, v[i].pages << TT_PAGE_SHIFT, plan);
		for (size_t k = 0; k < v[i].pages; k++) {
			int node = tt_il_vma_node(&p.order, (v[i].base >> TT_PAGE_SHIFT) + k);

			assert_int_equal(tt_place_expected(&p, v[i].base + (k << TT_PAGE_SHIFT)),
					 node);
			model[node]++;
		}
		assert_memory_equal(plan, model, sizeof(plan));
	}
}

static void test_thp_units(void **state)
{
	(void)state;
	setup(TT_PLACE_EXACT, "0,1", "0:1,1:1");
	p.thp = true;
	/* 4 KiB pages within one 2 MiB folio share a node; the next folio flips. */
	assert_int_equal(tt_place_expected(&p, 0x200000), tt_place_expected(&p, 0x3ff000));
	assert_true(tt_place_expected(&p, 0x200000) != tt_place_expected(&p, 0x400000));
}

static void test_modes(void **state)
{
	struct tt_nodemask m;
	struct tt_weights w;

	(void)state;
	setup(TT_PLACE_INTERLEAVE, "0-1", "0:7"); /* weights ignored: 1:1 */
	assert_int_equal(tt_place_expected(&p, 0), 0);
	assert_int_equal(tt_place_expected(&p, 0x1000), 1);
	setup(TT_PLACE_BIND, "1", "1:1");
	assert_int_equal(tt_place_expected(&p, 0x5000), 1);
	assert_int_equal(tt_parse_list("0-1", m.bits, TT_MAX_NODES), 0);
	tt_weights_clear(&w);
	assert_int_equal(tt_place_init(&p, TT_PLACE_BIND, &m, &w, 0), TT_EINPUT);
	enum tt_place_mode mode;
	assert_int_equal(tt_place_mode_parse("kernel", &mode), 0);
	assert_int_equal(mode, TT_PLACE_KERNEL);
	assert_int_equal(tt_place_mode_parse("sideways", &mode), TT_EINPUT);
}

static void test_tally_and_judge(void **state)
{
	const uintptr_t base = 0x7f0000002000; /* page index 34091302914, 0 mod 6 */
	int status[600];

	(void)state;
	setup(TT_PLACE_EXACT, "0-2", "0:3,1:1,2:2");
	for (int i = 0; i < 600; i++)
		status[i] = "000122"[i % 6] - '0';
	memset(&r, 0, sizeof(r));
	tt_place_tally(&p, base, status, 600, 1, &r);
	assert_int_equal(r.checked, 600);
	assert_int_equal(r.misplaced, 0);
	assert_true(r.got[0] == 300 && r.got[1] == 100 && r.got[2] == 200);
	assert_int_equal(tt_place_judge(&p, &r), 0);
	/* Two pages on the wrong node and one not present. */
	status[3] = 0;
	status[10] = 0;
	status[11] = -ENOENT;
	memset(&r, 0, sizeof(r));
	tt_place_tally(&p, base, status, 600, 1, &r);
	assert_int_equal(r.misplaced, 2);
	assert_int_equal(r.unknown, 1);
	/* Conservation: every checked page is counted once. */
	assert_int_equal(r.got[0] + r.got[1] + r.got[2] + r.unknown, r.checked);
	assert_int_equal(r.want[0] + r.want[1] + r.want[2], r.checked);
	assert_int_equal(tt_place_judge(&p, &r), TT_EFAIL);
	status[11] = 2;
	memset(&r, 0, sizeof(r));
	tt_place_tally(&p, base, status, 600, 1, &r);
	assert_int_equal(tt_place_judge(&p, &r), TT_EFAIL);
	assert_non_null(strstr(tt_err_msg(), "2 of 600 checked pages are not on their node"));
	/* Kernel placement tolerates a small share deviation, not a fallback. */
	p.mode = TT_PLACE_KERNEL;
	assert_int_equal(tt_place_judge(&p, &r), 0);
	for (int i = 0; i < 600; i++)
		status[i] = i % 6 == 3 ? 0 : "000122"[i % 6] - '0'; /* node 1 full */
	memset(&r, 0, sizeof(r));
	tt_place_tally(&p, base, status, 600, 1, &r);
	assert_int_equal(tt_place_judge(&p, &r), TT_EFAIL);
	assert_non_null(strstr(tt_err_msg(), "node 0 holds 400 pages where 300 were expected"));
	/* Sampling: every 3rd page of the buffer. */
	p.mode = TT_PLACE_EXACT;
	for (int i = 0; i < 200; i++)
		status[i] = "000122"[(i * 3) % 6] - '0';
	memset(&r, 0, sizeof(r));
	tt_place_tally(&p, base, status, 200, 3, &r);
	assert_int_equal(r.misplaced, 0);
	assert_int_equal(r.checked, 200);
}

/* The live machine: the first node with CPUs runs, its memory nodes (up
 * to 3) hold the arrays. On one memory node every vector below puts every
 * page there. */
struct live {
	struct tt_sysfs sfs;
	struct tt_topo t;
	int src, mem[3], nmem, ncpus;
};

static void live_load(struct live *l)
{
	int node, cpus[TT_MAX_CPUS];

	memset(l, 0, sizeof(*l));
	l->src = -1;
	assert_int_equal(tt_sysfs_init(&l->sfs, "/"), 0);
	assert_int_equal(tt_topo_load(&l->t, &l->sfs), 0);
	for (int i = 0; i < l->t.nnodes && l->src < 0; i++)
		if (l->t.nodes[i].ncpus)
			l->src = l->t.nodes[i].id;
	assert_true(l->src >= 0);
	tt_nodemask_for_each (node, &l->t.mem_nodes)
		if (l->nmem < 3)
			l->mem[l->nmem++] = node;
	assert_true(l->nmem >= 1);
	assert_int_equal(tt_bench_cpus(&l->t, l->src, cpus, &l->ncpus), 0);
}

/* Weights for the machine's memory nodes from a row of three; a node the
 * machine lacks is left out (one node left: weight 1). */
static void live_weights(const struct live *l, const uint32_t *row, struct tt_weights *w)
{
	tt_weights_clear(w);
	for (int j = 0; j < l->nmem; j++)
		if (row[j])
			tt_weights_put(w, l->mem[j], row[j]);
	if (tt_nodemask_weight(&w->set) == 0)
		tt_weights_put(w, l->mem[0], 1);
}

/* 840 pages an array: whole cycles of any total up to 8, so the split of
 * an array over the nodes is the same wherever it is mapped. */
#define LIVE_BYTES ((size_t)840 << TT_PAGE_SHIFT)

static void live_run(struct live *l, const char *kernel, enum tt_place_mode mode,
		     const struct tt_weights *w, size_t bytes, int threads, struct tt_bench_ctx *c,
		     struct tt_bench_result *res)
{
	struct tt_bench_opts o = { .kernel = tt_kernel_find(kernel),
				   .topo = &l->t,
				   .source_node = l->src,
				   .threads = threads,
				   .array_bytes = bytes,
				   .repeat = 1,
				   .sfs = &l->sfs,
				   .reuse = c };
	struct tt_nodemask one = { 0 };

	tt_bit_set(one.bits, (unsigned int)l->mem[0]);
	assert_int_equal(
		tt_place_init(&o.place, mode, mode == TT_PLACE_EXACT ? &w->set : &one, w, l->src),
		0);
	if (tt_bench_run(&o, res) < 0)
		fail_msg("%s", tt_err_msg());
	assert_true(res->validated);
	assert_int_equal(res->place.misplaced, 0);
	assert_int_equal(res->place.unknown, 0);
}

static const uint32_t vectors[][3] = { { 1, 0, 0 }, { 1, 1, 0 }, { 3, 1, 1 }, { 1, 1, 0 },
				       { 2, 5, 0 }, { 0, 1, 0 }, { 1, 0, 0 }, { 1, 3, 4 } };
#define NVECTORS (int)(sizeof(vectors) / sizeof(*vectors))

/* The arrays start at distinct offsets within 2 MiB and within a page
 * (the kernel put 512 MiB mappings exactly 512 MiB apart: every stream at
 * the same offset), and the pages placed and verified are those they lie
 * on, no more, no fewer. */
static void test_arrays_staggered(void **state)
{
	struct live l;
	struct tt_weights w;
	struct tt_bench_bufs b;
	const char *method;
	const size_t two_mib = (size_t)2 << 20, page = (size_t)1 << TT_PAGE_SHIFT;

	(void)state;
	live_load(&l);
	live_weights(&l, vectors[2], &w);
	struct tt_bench_opts o = { .kernel = tt_kernel_find("3r1w-nt"),
				   .topo = &l.t,
				   .sfs = &l.sfs };

	assert_int_equal(tt_place_init(&o.place, TT_PLACE_EXACT, &w.set, &w, l.src), 0);
	if (tt_bench_bufs_map(&o, &b, 4, LIVE_BYTES, &method) < 0)
		fail_msg("%s", tt_err_msg());
	for (int i = 0; i < b.n; i++) {
		uintptr_t a = (uintptr_t)b.arr[i], pg = (uintptr_t)b.pg[i];

		assert_int_equal(a % two_mib, tt_bench_stagger(&o, i) % two_mib);
		assert_int_equal(a % 64, 0);
		for (int j = 0; j < i; j++)
			assert_int_not_equal((a - (uintptr_t)b.arr[j]) % page, 0);
		assert_int_equal(pg % page, 0);
		assert_true(pg <= a && a < pg + page);
		assert_true(pg + b.span[i] >= a + LIVE_BYTES &&
			    pg + b.span[i] < a + LIVE_BYTES + page);
	}
	tt_bench_bufs_unmap(&b);
	tt_topo_release(&l.t);
}

static void test_reuse_matches_fresh(void **state)
{
	struct live l;
	struct tt_bench_ctx *c;
	struct tt_bench_result fresh, kept;
	struct tt_weights w;

	(void)state;
	live_load(&l);
	assert_int_equal(tt_bench_ctx_new(&c), 0);
	for (int i = 0; i < NVECTORS; i++) {
		live_weights(&l, vectors[i], &w);
		live_run(&l, "triad", TT_PLACE_EXACT, &w, LIVE_BYTES, 1, NULL, &fresh);
		live_run(&l, "triad", TT_PLACE_EXACT, &w, LIVE_BYTES, 1, c, &kept);
		assert_false(fresh.reused);
		assert_int_equal(kept.reused, i > 0);
		/* Every page verified, both ways, and the same split: the
		 * pages the arrays lie on, arrays 1 and 2 staggered by whole
		 * pages and five lines (bench/run.c), so across one more page
		 * each. */
		assert_int_equal(fresh.place.pages, 3 * 840 + 2);
		assert_int_equal(fresh.place.checked, fresh.place.pages);
		assert_int_equal(kept.place.pages, fresh.place.pages);
		assert_int_equal(kept.place.checked, fresh.place.checked);
		assert_memory_equal(kept.place.want, fresh.place.want, sizeof(fresh.place.want));
		assert_memory_equal(kept.place.got, fresh.place.got, sizeof(fresh.place.got));
		/* One memory node: every vector is that node alone. */
		if (l.nmem == 1) {
			assert_int_equal(kept.place.got[l.mem[0]], kept.place.pages);
			assert_int_equal(kept.moved_pages, 0);
		}
		assert_true(kept.moved_pages <= kept.place.pages);
	}
	tt_bench_ctx_free(c);
	tt_topo_release(&l.t);
}

static void test_reuse_same_vector_moves_nothing(void **state)
{
	struct live l;
	struct tt_bench_ctx *c;
	struct tt_bench_result a, b, again;
	struct tt_weights wa, wb;

	(void)state;
	live_load(&l);
	assert_int_equal(tt_bench_ctx_new(&c), 0);
	live_weights(&l, vectors[2], &wa);
	live_weights(&l, vectors[4], &wb);
	live_run(&l, "triad", TT_PLACE_EXACT, &wa, LIVE_BYTES, 1, c, &a);
	live_run(&l, "triad", TT_PLACE_EXACT, &wb, LIVE_BYTES, 1, c, &b);
	assert_true(b.reused);
	for (int i = 0; i < 3; i++) {
		live_run(&l, "triad", TT_PLACE_EXACT, &wb, LIVE_BYTES, 1, c, &again);
		assert_true(again.reused);
		assert_int_equal(again.moved_pages, 0);
		assert_memory_equal(&again.place, &b.place, sizeof(b.place));
	}
	/* Back to the first: what moves is what the two splits differ by, at
	 * least (pages change node within a node's share too). */
	live_run(&l, "triad", TT_PLACE_EXACT, &wa, LIVE_BYTES, 1, c, &again);
	assert_memory_equal(&again.place, &a.place, sizeof(a.place));
	for (int i = 0; i < l.nmem; i++) {
		int node = l.mem[i];
		uint64_t d = a.place.got[node] > b.place.got[node]
				     ? a.place.got[node] - b.place.got[node]
				     : b.place.got[node] - a.place.got[node];

		assert_true(again.moved_pages >= d);
	}
	if (l.nmem == 1)
		assert_int_equal(again.moved_pages, 0);
	tt_bench_ctx_free(c);
	tt_topo_release(&l.t);
}

static void test_reuse_rebuilds(void **state)
{
	struct live l;
	struct tt_bench_ctx *c;
	struct tt_bench_result res;
	struct tt_weights w;

	(void)state;
	live_load(&l);
	assert_int_equal(tt_bench_ctx_new(&c), 0);
	live_weights(&l, vectors[1], &w);
	live_run(&l, "triad", TT_PLACE_EXACT, &w, LIVE_BYTES, 1, c, &res);
	assert_false(res.reused);
	live_run(&l, "triad", TT_PLACE_EXACT, &w, LIVE_BYTES, 1, c, &res);
	assert_true(res.reused);
	/* Another size. */
	live_run(&l, "triad", TT_PLACE_EXACT, &w, 2 * LIVE_BYTES, 1, c, &res);
	assert_false(res.reused);
	assert_int_equal(res.place.pages, 3 * 2 * 840 + 2);
	live_run(&l, "triad", TT_PLACE_EXACT, &w, 2 * LIVE_BYTES, 1, c, &res);
	assert_true(res.reused);
	/* Other threads, where the source has a second CPU to run one on. */
	if (l.ncpus > 1) {
		live_run(&l, "triad", TT_PLACE_EXACT, &w, 2 * LIVE_BYTES, 2, c, &res);
		assert_false(res.reused);
		assert_int_equal(res.threads, 2);
		live_run(&l, "triad", TT_PLACE_EXACT, &w, 2 * LIVE_BYTES, 2, c, &res);
		assert_true(res.reused);
	}
	/* Another kernel: the arrays hold triad's values, not its inputs. */
	live_run(&l, "copy", TT_PLACE_EXACT, &w, 2 * LIVE_BYTES, 1, c, &res);
	assert_false(res.reused);
	/* A mode other than exact is a fresh run. */
	live_run(&l, "copy", TT_PLACE_BIND, &w, 2 * LIVE_BYTES, 1, c, &res);
	assert_false(res.reused);
	assert_int_equal(res.place.got[l.mem[0]], res.place.pages);
	tt_bench_ctx_free(c);
	tt_topo_release(&l.t);
}

/* The move wrapper a reused context moves pages with: to the node a page
 * is on (the call walks, nothing moves), and where the machine has a
 * second memory node, there and back. */
static void test_move_pages_live(void **state)
{
	enum { N = 16 };
	struct live l;
	char *buf;
	void *addrs[N];
	int nodes[N], status[N];

	(void)state;
	live_load(&l);
	buf = mmap(NULL, N * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(buf != MAP_FAILED);
	memset(buf, 1, N * 4096);
	for (int i = 0; i < N; i++)
		addrs[i] = buf + i * 4096;
	for (int k = l.nmem > 1 ? 1 : 0; k >= 0; k--) {
		for (int i = 0; i < N; i++)
			nodes[i] = l.mem[k];
		if (tt_move_pages(addrs, nodes, status, N) < 0)
			fail_msg("%s", tt_err_msg());
		for (int i = 0; i < N; i++)
			assert_int_equal(status[i], l.mem[k]);
		assert_int_equal(tt_move_pages_query(addrs, status, N), 0);
		for (int i = 0; i < N; i++)
			assert_int_equal(status[i], l.mem[k]);
	}
	assert_int_equal(buf[N * 4096 - 1], 1);
	munmap(buf, N * 4096);
	tt_topo_release(&l.t);
}

/* Writes path (under dir) with text, making its folders. */
static void put(const char *dir, const char *path, const char *text)
{
	char file[1024], cmd[1200];
	FILE *f;

	snprintf(file, sizeof(file), "%s/%s", dir, path);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", file);
	assert_int_equal(system(cmd), 0);
	assert_non_null(f = fopen(file, "w"));
	fprintf(f, "%s\n", text);
	fclose(f);
}

/* The last-level cache from sysfs at whatever level it is: here an L2
 * (Arm-like) shared by pairs of CPUs, beside private L1s, none of them
 * index3; each instance counted once. The working set follows STREAM's
 * rule on it. */
static void test_llc_sysfs_any_level(void **state)
{
	char dir[] = "/tmp/tt-llc.XXXXXX", rule[128];
	struct tt_sysfs sfs;
	struct tt_llc llc;
	(void)state;

	assert_non_null(mkdtemp(dir));
	for (int cpu = 0; cpu < 4; cpu++) {
		static const char *const idx[][4] = {
			{ "index0", "1", "Data", "64K" },
			{ "index1", "1", "Instruction", "64K" },
			{ "index2", "2", "Unified", "1M" },
		};
		char path[256], own[12]; /* any int: under the sanitizers gcc cannot bound cpu */

		snprintf(own, sizeof(own), "%d", cpu);
		for (int i = 0; i < 3; i++) {
			snprintf(path, sizeof(path), "sys/devices/system/cpu/cpu%d/cache/%s/level",
				 cpu, idx[i][0]);
			put(dir, path, idx[i][1]);
			snprintf(path, sizeof(path), "sys/devices/system/cpu/cpu%d/cache/%s/type",
				 cpu, idx[i][0]);
			put(dir, path, idx[i][2]);
			snprintf(path, sizeof(path), "sys/devices/system/cpu/cpu%d/cache/%s/size",
				 cpu, idx[i][0]);
			put(dir, path, idx[i][3]);
			snprintf(path, sizeof(path),
				 "sys/devices/system/cpu/cpu%d/cache/%s/shared_cpu_list", cpu,
				 idx[i][0]);
			put(dir, path, i < 2 ? own : cpu < 2 ? "0-1" : "2-3");
		}
	}
	assert_int_equal(tt_sysfs_init(&sfs, dir), 0);
	assert_int_equal(tt_bench_llc(&sfs, &llc), 0);
	assert_int_equal(llc.level, 2);
	assert_int_equal(llc.bytes, 2 << 20);
	assert_string_equal(llc.from, "sysfs");
	/* 4 x 2 MiB is under STREAM's 1M-element floor (8 MiB): the floor. */
	assert_int_equal(tt_bench_default_bytes(&llc, rule, sizeof(rule)), 8 << 20);
	put(dir, "sys/devices/system/cpu/cpu0/cache/index2/size", "3072K");
	assert_int_equal(tt_bench_llc(&sfs, &llc), 0);
	assert_int_equal(llc.bytes, 4 << 20);
	assert_int_equal(tt_bench_default_bytes(&llc, rule, sizeof(rule)), 16 << 20);
	assert_string_equal(rule, "STREAM's rule: 4x the L2 cache of 4.0 MiB, from sysfs");
	snprintf(rule, sizeof(rule), "rm -rf '%s'", dir);
	assert_int_equal(system(rule), 0);
}

/* No cache in sysfs (this VM, and fixture trees without a cache folder): the
 * C library's figure (CPUID), read here first as the test's own truth. The
 * default was 8 MiB, and triad measured cache at 142 GB/s on 2 vCPUs. */
static void test_llc_without_sysfs(void **state)
{
	char root[4096], rule[128];
	struct tt_sysfs sfs;
	struct tt_llc llc;
	long l4 = sysconf(_SC_LEVEL4_CACHE_SIZE), l3 = sysconf(_SC_LEVEL3_CACHE_SIZE),
	     l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
	long want = l4 > 0 ? l4 : l3 > 0 ? l3 : l2 > 0 ? l2 : 0;
	size_t bytes;
	int rc;
	(void)state;

	snprintf(root, sizeof(root), "%s/tests/fixtures/sysfs/vm-1node",
		 getenv("TT_TOP") ? getenv("TT_TOP") : ".");
	assert_int_equal(tt_sysfs_init(&sfs, root), 0);
	rc = tt_bench_llc(&sfs, &llc);
	bytes = tt_bench_default_bytes(&llc, rule, sizeof(rule));
	if (want <= 0) {
		assert_int_equal(rc, -1);
		assert_int_equal(bytes, 8 << 20);
		return;
	}
	assert_int_equal(rc, 0);
	assert_string_equal(llc.from, "sysconf/CPUID");
	assert_int_equal(llc.bytes, want);
	assert_true(bytes >= 4 * (size_t)want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_matches_model),
		cmocka_unit_test(test_thp_units),
		cmocka_unit_test(test_modes),
		cmocka_unit_test(test_tally_and_judge),
		cmocka_unit_test(test_arrays_staggered),
		cmocka_unit_test(test_reuse_matches_fresh),
		cmocka_unit_test(test_reuse_same_vector_moves_nothing),
		cmocka_unit_test(test_reuse_rebuilds),
		cmocka_unit_test(test_move_pages_live),
		cmocka_unit_test(test_llc_sysfs_any_level),
		cmocka_unit_test(test_llc_without_sysfs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
