// SPDX-License-Identifier: GPL-3.0-or-later
#define _GNU_SOURCE /* CPU_SET, pthread_setaffinity_np */
#include "harness.h"

#include "../core/deadline.h"
#include "../core/error.h"
#include "../core/mpol.h"
#include "../core/parse.h"
#include "../core/test-hooks.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

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

/* A transparent huge page's size: the PMD's (2 MiB on x86-64). */
#define PAGE_BYTES ((size_t)1 << TT_PAGE_SHIFT)

static size_t thp_size(void)
{
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", "r");
	unsigned long v = 0;

	if (f) {
		if (fscanf(f, "%lu", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v ? (size_t)v : (size_t)1 << TT_THP_SHIFT;
}

/* PAGEMAP_SCAN (Linux 6.7, include/uapi/linux/fs.h; declared here as the
 * build's headers may predate it): the pages of a range and their
 * categories, adjacent pages of one category as one region. */
struct tt_pm_region {
	uint64_t start, end, categories;
};
struct tt_pm_scan_arg {
	uint64_t size, flags, start, end, walk_end, vec, vec_len, max_pages, category_inverted,
		category_mask, category_anyof_mask, return_mask;
};
#define TT_PAGE_IS_HUGE (1 << 6) /* a PMD-mapped THP or a hugetlbfs page */
#define TT_PAGEMAP_SCAN _IOWR('f', 16, struct tt_pm_scan_arg)

/* The bytes of [lo, hi) on huge pages, by PAGEMAP_SCAN on fd (the
 * process's pagemap); -1 where the kernel has no PAGEMAP_SCAN. lo and hi
 * need not be on page boundaries (a staggered array's are not): the scan
 * is of the pages they lie on, and counts the bytes within them. */
static int64_t scan_huge(int fd, uintptr_t from, uintptr_t to)
{
	struct tt_pm_region v[64];
	int64_t huge = 0;
	uintptr_t lo = from & ~(uintptr_t)(PAGE_BYTES - 1);
	uintptr_t hi = (to + PAGE_BYTES - 1) & ~(uintptr_t)(PAGE_BYTES - 1);

	while (lo < hi) {
		struct tt_pm_scan_arg arg = { .size = sizeof(arg),
					      .start = lo,
					      .end = hi,
					      .vec = (uintptr_t)v,
					      .vec_len = sizeof(v) / sizeof(*v),
					      .category_mask = TT_PAGE_IS_HUGE,
					      .return_mask = TT_PAGE_IS_HUGE };
		int n = ioctl(fd, TT_PAGEMAP_SCAN, &arg);

		if (n < 0 || arg.walk_end <= lo)
			return -1;
		for (int i = 0; i < n; i++) {
			uintptr_t l = v[i].start > from ? (uintptr_t)v[i].start : from;
			uintptr_t h = v[i].end < to ? (uintptr_t)v[i].end : to;

			huge += h > l ? (int64_t)(h - l) : 0;
		}
		lo = (uintptr_t)arg.walk_end;
	}
	return huge;
}

/* The bytes of [lo, hi) that lie in the run's buffers: a and b (b may be
 * NULL), which do not overlap one another; with scan, those of them that
 * PAGEMAP_SCAN finds on huge pages (-1: it cannot say). */
static int64_t bufs_overlap(const struct tt_bench_bufs *a, const struct tt_bench_bufs *b,
			    uintptr_t lo, uintptr_t hi, int scan)
{
	const struct tt_bench_bufs *set[2] = { a, b };
	int64_t in = 0;

	for (int s = 0; s < 2 && set[s]; s++)
		for (int i = 0; i < set[s]->n; i++) {
			uintptr_t blo = (uintptr_t)set[s]->arr[i], bhi = blo + set[s]->bytes;
			uintptr_t l = lo > blo ? lo : blo, h = hi < bhi ? hi : bhi;
			int64_t got = h <= l	 ? 0
				      : scan < 0 ? (int64_t)(h - l)
						 : scan_huge(scan, l, h);

			if (got < 0)
				return -1;
			in += got;
		}
	return in;
}

/* Of a mapping's huge bytes (smaps counts them per mapping, not per
 * address), those in the run's buffers: all of them when the buffers cover
 * the whole mapping. The kernel merges the run's adjacent buffers into one
 * mapping when their flags and policy agree (vma_merge: triad's three
 * arrays on THP were one 48 MiB mapping with AnonHugePages 49152 kB), so a
 * mapping is attributed to the buffers together, not to one of them. When
 * the mapping also holds memory that is not the buffers' (another mapping
 * of this process with the same flags, policy and THP advice, merged in:
 * rare), smaps cannot say which of its huge pages are where: PAGEMAP_SCAN
 * can, per page (Linux 6.7; pagemap's own flags name no THP without PFNs,
 * and /proc/kpageflags needs CAP_SYS_ADMIN). Without it, count only the
 * part that must be ours, the huge bytes beyond all the rest of the
 * mapping: maybe fewer huge pages than the buffers got, never more (a
 * figure held to MLC's must not claim pages it did not get). */
static uint64_t huge_in_bufs(const struct tt_bench_bufs *a, const struct tt_bench_bufs *b,
			     uintptr_t lo, uintptr_t hi, uint64_t huge, uint64_t in)
{
	uint64_t other = (hi - lo) - in;
	int fd;
	int64_t got;

	if (other == 0 || huge == 0)
		return huge;
	fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	got = fd < 0 ? -1 : bufs_overlap(a, b, lo, hi, fd);
	if (fd >= 0)
		close(fd);
	if (got >= 0)
		return (uint64_t)got;
	return huge > other ? huge - other : 0;
}

/* Huge pages are this process's, whatever sysfs root the topology came
 * from (as the arrays are this machine's): /proc/self/smaps, the
 * AnonHugePages (and hugetlbfs's Private_ and Shared_Hugetlb) of each
 * mapping that overlaps the buffers: mbind may have split a buffer into
 * several mappings, and the kernel may have merged several buffers into
 * one. */
void tt_bench_bufs_huge(const struct tt_bench_bufs *a, const struct tt_bench_bufs *b,
			struct tt_bench_result *r)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	uint64_t in = 0;
	unsigned long lo = 0, hi = 0;

	r->pages.buffer_bytes += (uint64_t)a->n * a->bytes + (b ? (uint64_t)b->n * b->bytes : 0);
	r->pages.page_bytes = (size_t)sysconf(_SC_PAGESIZE);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long kb, l, h;

		/* Into l and h first: a field line such as "Anonymous:" or
		 * "AnonHugePages:" starts with a hex digit, and sscanf would
		 * overwrite the mapping's start with it (0xa) before failing at
		 * the '-'. */
		if (sscanf(line, "%lx-%lx ", &l, &h) == 2) {
			lo = l;
			hi = h;
			in = (uint64_t)bufs_overlap(a, b, lo, hi, -1);
		} else if (!in) {
			continue;
		} else if (sscanf(line, "AnonHugePages: %lu kB", &kb) == 1 && kb) {
			uint64_t got = huge_in_bufs(a, b, lo, hi, (uint64_t)kb << 10, in);

			r->pages.huge_bytes += got;
			if (got)
				r->pages.huge_page_size = thp_size();
		} else if (sscanf(line, "KernelPageSize: %lu kB", &kb) == 1) {
			r->pages.page_bytes = (size_t)kb << 10;
		} else if ((sscanf(line, "Private_Hugetlb: %lu kB", &kb) == 1 ||
			    sscanf(line, "Shared_Hugetlb: %lu kB", &kb) == 1) &&
			   kb) {
			uint64_t got = huge_in_bufs(a, b, lo, hi, (uint64_t)kb << 10, in);

			r->pages.huge_bytes += got;
			if (got)
				r->pages.huge_page_size = r->pages.page_bytes;
		}
	}
	fclose(f);
}

int tt_bench_started(const struct tt_bench_opts *o, const struct tt_bench_result *r)
{
	int rc = o->started ? o->started(o->report_ctx, r) : 0;

	if (rc == 0)
		tt_bench_progress(o, 0, 0);
	return rc;
}

void tt_bench_progress(const struct tt_bench_opts *o, int n, int of)
{
	if (o->progress)
		o->progress(o->report_ctx, n, of);
}

int tt_bench_cpus(const struct tt_topo *t, int node, int *cpus, int *n)
{
	const struct tt_node *nd = tt_topo_node(t, node);
	size_t size = CPU_ALLOC_SIZE(TT_MAX_CPUS);
	cpu_set_t *allowed;
	uint64_t have[TT_MAX_CPUS / 64] = { 0 }, may[TT_MAX_CPUS / 64] = { 0 };
	char hs[512], ms[512];

	*n = 0;
	if (!nd || nd->ncpus == 0)
		return tt_err(TT_EINPUT, "source node %d has no CPUs to run on", node);
	allowed = CPU_ALLOC(TT_MAX_CPUS);
	if (!allowed)
		return tt_err(TT_EFAIL, "out of memory");
	/* The process's allowed set, as a cpuset or taskset leaves it: a
	 * pin outside it fails (EINVAL), and a thread left unpinned would run
	 * where the scheduler puts it, maybe on another node. */
	if (sched_getaffinity(0, size, allowed) < 0) {
		int err = errno;

		CPU_FREE(allowed);
		return tt_err_sys(TT_EFAIL, err, "cannot read the CPUs this process may run on");
	}
	for (int cpu = 0; cpu < TT_MAX_CPUS; cpu++)
		if (CPU_ISSET_S((size_t)cpu, size, allowed))
			tt_bit_set(may, (unsigned int)cpu);
	CPU_FREE(allowed);
	for (int i = 0; i < nd->ncpus; i++) {
		int cpu = nd->cpus[i];

		if (cpu < 0 || cpu >= TT_MAX_CPUS)
			continue;
		tt_bit_set(have, (unsigned int)cpu);
		if (tt_bit_test(may, (unsigned int)cpu))
			cpus[(*n)++] = cpu;
	}
	if (*n)
		return 0;
	tt_bit_format_list(have, TT_MAX_CPUS, hs, sizeof(hs));
	tt_bit_format_list(may, TT_MAX_CPUS, ms, sizeof(ms));
	tt_err(TT_EUNAVAIL,
	       "node %d has CPUs %s, and this process may run on none of them (its "
	       "allowed CPUs: %s)",
	       node, hs, ms);
	tt_err_hint("a cpuset or taskset limits this process: run it where node %d's CPUs are "
		    "allowed, or measure from another --source-node",
		    node);
	return TT_EUNAVAIL;
}

size_t tt_bench_size(const struct tt_bench_opts *o, struct tt_bench_result *r)
{
	size_t bytes = o->array_bytes ? o->array_bytes
				      : tt_bench_default_bytes(&r->llc, r->size_rule,
							       sizeof(r->size_rule));

	/* STREAM's rule is a floor: on hugetlbfs pages, up to a whole page. */
	size_t unit =
		o->place.huge_shift && !o->array_bytes ? (size_t)1 << o->place.huge_shift : 4096;

	if (o->array_bytes)
		snprintf(r->size_rule, sizeof(r->size_rule), "--size");
	return (bytes + unit - 1) & ~(unit - 1);
}

static int kv_available(const char *key, uint64_t value, void *ctx)
{
	if (strcmp(key, "MemAvailable") == 0)
		*(uint64_t *)ctx = value;
	return 0;
}

/* Free memory on a node. With one memory node, the system's MemAvailable
 * counts too: where memory is added on demand (virtio-mem, a balloon, a
 * sandboxed kernel) the node's meminfo shows only what it holds so far, and
 * 8 GiB binds fine to a node that claims 5 GiB free (seen on this VM). */
static uint64_t node_free(const struct tt_bench_opts *o, const struct tt_node *nd)
{
	char text[8192];
	uint64_t avail = 0;
	int mem_nodes = 0;

	for (int i = 0; i < o->topo->nnodes; i++)
		mem_nodes += o->topo->nodes[i].has_memory;
	if (mem_nodes != 1 || tt_sysfs_read(o->sfs, text, sizeof(text), "/proc/meminfo") < 0 ||
	    tt_parse_kv(text, kv_available, &avail) != 0)
		return nd->mem_free_bytes;
	return avail > nd->mem_free_bytes ? avail : nd->mem_free_bytes;
}

/* A hugetlbfs pool's count, from the live /sys (the pool is this
 * machine's, as the buffers are): -1 when the file is not there. */
static long pool_count(const char *fmt, int node, size_t kb, const char *what)
{
	char path[160];
	long v = -1;
	FILE *f;

	if (node >= 0)
		snprintf(path, sizeof(path), fmt, node, kb, what);
	else
		snprintf(path, sizeof(path), fmt, kb, what);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

#define POOL "/sys/kernel/mm/hugepages/hugepages-%zukB/%s"
#define NODE_POOL "/sys/devices/system/node/node%d/hugepages/hugepages-%zukB/%s"

/* Huge pages come only from the pool root reserved: say so, and how, when
 * the size is not offered, none are reserved, or too few are free (on the
 * nodes the placement wants them), rather than fail at first touch. pages:
 * the huge pages the arrays lie on, one more for each staggered array. */
static int hugetlb_check(const struct tt_bench_opts *o, size_t bytes, size_t pages)
{
	size_t page = (size_t)1 << o->place.huge_shift, kb = page >> 10;
	long total = pool_count(POOL, -1, kb, "nr_hugepages");
	/* Free pages reserved by a mapping not yet touched (another buffer
	 * of this run) are not free for this one. */
	long free_pages = pool_count(POOL, -1, kb, "free_hugepages") -
			  pool_count(POOL, -1, kb, "resv_hugepages");
	char size[16];
	int rc = 0;

	snprintf(size, sizeof(size), page >= (1 << 30) ? "%zu GiB" : "%zu MiB",
		 page >= (1 << 30) ? page >> 30 : page >> 20);
	if (total < 0) {
		rc = tt_err(TT_EUNAVAIL,
			    "this kernel offers no %s huge pages (no "
			    "/sys/kernel/mm/hugepages/hugepages-%zukB)",
			    size, kb);
		tt_err_hint("--page-size thp for transparent huge pages");
	} else if (bytes % page) {
		rc = tt_err(TT_EINPUT, "%.1f MiB buffers are not a whole number of %s pages",
			    (double)bytes / (1 << 20), size);
	} else if (total == 0) {
		rc = tt_err(TT_EUNAVAIL,
			    "no %s huge pages are reserved (hugepages-%zukB/nr_hugepages is 0)",
			    size, kb);
		tt_err_hint("as root: echo %zu > /sys/kernel/mm/hugepages/hugepages-%zukB/"
			    "nr_hugepages; or --page-size thp",
			    pages, kb);
	} else if ((uint64_t)free_pages < pages) {
		rc = tt_err(TT_EUNAVAIL,
			    "%ld of %ld reserved %s huge pages are free and the buffers need %zu",
			    free_pages, total, size, pages);
		tt_err_hint("as root, raise /sys/kernel/mm/hugepages/hugepages-%zukB/nr_hugepages",
			    kb);
	}
	return rc;
}

/* A node's share of the pool: the reservation at mmap is global, and a
 * page bound to a node whose pool is empty would fail at first touch. */
static int hugetlb_node_check(const struct tt_bench_opts *o, int node, uint64_t want_bytes)
{
	size_t page = (size_t)1 << o->place.huge_shift;
	long there = pool_count(NODE_POOL, node, page >> 10, "free_hugepages");
	uint64_t want = (want_bytes + page - 1) / page;

	if (there >= 0 && (uint64_t)there < want)
		return tt_err(
			TT_EUNAVAIL,
			"node %d has %ld free %zu MiB huge pages and the buffers need %ju there",
			node, there, page >> 20, (uintmax_t)want);
	return 0;
}

/* Array i starts i x STAGGER bytes past a 2 MiB boundary: streams that
 * start at the same offset walk the same cache sets, and maybe DRAM banks,
 * in step, and that is where the kernel put them when each had its own
 * mapping (three 512 MiB mappings, 2 MiB-aligned, exactly 512 MiB apart).
 * Three pages put each stream in other L2 sets (Zen 3's 512 KiB 8-way L2
 * repeats every 64 KiB; on THP and hugetlbfs pages the physical address
 * keeps the offset); five lines more keep a load from sharing address bits
 * 0-11 with the store beside it (4K aliasing) and its L1 sets. An odd
 * number of lines, so that no two of the four arrays a kernel has at most
 * are a whole number of pages apart. Measured (3 x 512 MiB, the two-line
 * AVX2 triad-nt, one thread, passes alternating layouts in one process,
 * timed by thread CPU time, load 3.5-3.8), against no stagger: 12 KiB +
 * 320 B 1.00 and 1.09, 12 KiB 1.05 and 1.09, 320 B 1.05 and 1.08, 4 KiB
 * 1.06 and 1.06, 68 KiB 1.00 and 1.06 (medians of 15 pairs of passes, two
 * runs): any stagger gains 5-9%, and which one is within the noise. */
#define STAGGER (3 * PAGE_BYTES + 5 * 64)

size_t tt_bench_stagger(const struct tt_bench_opts *o, int i)
{
	/* Not on hugetlbfs: there a staggered array needs one more reserved
	 * page (1 GiB on 1 GiB pages), and a pool sized to the arrays, which
	 * served before, would be refused. */
	return o->place.huge_shift ? 0 : (size_t)i * STAGGER;
}

/* A mapping of len bytes that starts at head modulo align, whatever
 * address the kernel would pick: over-map and trim. hugetlbfs mappings are
 * on their page boundary already (head is then 0), and cannot be trimmed
 * off it. */
static void *map_aligned(const struct tt_bench_opts *o, size_t len, size_t align, size_t head)
{
	int hflags = MAP_HUGETLB | o->place.huge_shift << MAP_HUGE_SHIFT;
	size_t pad = align + head % align;
	char *p, *a;

	if (o->place.huge_shift)
		return mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | hflags,
			    -1, 0);
	/* NORESERVE: the free-memory check in tt_bench_bufs_map, per node, is
	 * the one that counts; the overcommit heuristic would refuse first.
	 * Not for hugetlbfs: there the reservation at mmap is what makes a
	 * short pool an error there, not a SIGBUS at first touch. */
	p = mmap(NULL, len + pad, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return p;
	a = (char *)(((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1)) + head % align;
	if (a > p)
		munmap(p, (size_t)(a - p));
	if (p + len + pad > a + len)
		munmap(a + len, (size_t)(p + len + pad - (a + len)));
	return a;
}

int tt_bench_bufs_map(const struct tt_bench_opts *o, struct tt_bench_bufs *b, int n, size_t bytes,
		      const char **method)
{
	uint64_t need[TT_MAX_NODES] = { 0 };
	/* Placement and verification are by pages of unit; the mapping's
	 * start is aligned to align, and on THP its end too, so that the
	 * first and last huge pages an array touches are whole. */
	size_t hpage = (size_t)1 << o->place.huge_shift, thp = thp_size();
	size_t unit = o->place.huge_shift ? hpage : PAGE_BYTES;
	size_t align = o->place.huge_shift ? hpage : thp;
	size_t pages = 0;
	int rc;

	memset(b, 0, sizeof(*b));
	b->bytes = bytes;
	for (int i = 0; i < n; i++) {
		size_t s = tt_bench_stagger(o, i), lo = s & ~(unit - 1);

		b->span[i] = ((s + bytes + unit - 1) & ~(unit - 1)) - lo;
		pages += b->span[i] / unit;
	}
	rc = o->place.huge_shift ? hugetlb_check(o, bytes, pages) : 0;
	if (rc < 0)
		return rc;
	for (int i = 0; i < n; i++) {
		size_t s = tt_bench_stagger(o, i), lo = s & ~(unit - 1);
		size_t end = o->place.thp && !o->place.huge_shift
				     ? (lo + b->span[i] + thp - 1) & ~(thp - 1)
				     : lo + b->span[i];
		/* Only THP keeps the pages before the array's first: they are
		 * part of its first huge page. */
		size_t from = o->place.thp && !o->place.huge_shift ? 0 : lo;
		char *p = map_aligned(o, end - from, align, from);

		if (p == MAP_FAILED && o->place.huge_shift)
			return tt_err_sys(TT_EUNAVAIL, errno,
					  "cannot map %zu bytes of %zu MiB huge pages", end - from,
					  hpage >> 20);
		if (p == MAP_FAILED)
			return tt_err_sys(TT_EUNAVAIL, errno, "cannot map %zu bytes", end - from);
		b->map[i] = p;
		b->map_len[i] = end - from;
		b->pg[i] = p + (lo - from);
		b->arr[i] = (double *)(p + (s - from));
		b->n++;
		tt_place_plan(&o->place, (uintptr_t)p, b->map_len[i], need);
	}
	/* Refuse rather than be OOM-killed or silently fall back to another
	 * node, which would measure something else. */
	for (int node = 0; node < TT_MAX_NODES; node++) {
		const struct tt_node *nd;
		uint64_t want = need[node] << TT_PAGE_SHIFT;

		if (!need[node] || !(nd = tt_topo_node(o->topo, node)))
			continue;
		if (o->place.huge_shift) {
			rc = hugetlb_node_check(o, node, want);
			if (rc < 0)
				return rc;
			continue;
		}
		uint64_t free_bytes = node_free(o, nd);

		if (want > free_bytes)
			return tt_err(TT_EUNAVAIL,
				      "node %d has %.2f GiB free and the buffers need %.2f "
				      "GiB there",
				      node, (double)free_bytes / (1 << 30),
				      (double)want / (1 << 30));
	}
	for (int i = 0; i < n; i++) {
		rc = tt_place_apply(&o->place, b->map[i], b->map_len[i], method);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static void report_add(struct tt_place_report *r, const struct tt_place_report *rep)
{
	r->pages += rep->pages;
	r->checked += rep->checked;
	r->misplaced += rep->misplaced;
	r->unknown += rep->unknown;
	for (int node = 0; node < TT_MAX_NODES; node++) {
		r->want[node] += rep->want[node];
		r->got[node] += rep->got[node];
	}
}

int tt_bench_bufs_verify(const struct tt_bench_opts *o, const struct tt_bench_bufs *b,
			 struct tt_place_report *r)
{
	struct tt_place_report rep;

	for (int i = 0; i < b->n; i++) {
		/* Split the page budget over the arrays; never 0, which means "all". */
		uint64_t budget = o->verify_max / (uint64_t)b->n;
		int rc = tt_place_verify(&o->place, b->pg[i], b->span[i],
					 o->verify_max ? (budget ? budget : 1) : 0, &rep);

		report_add(r, &rep);
		if (rc < 0)
			return rc;
	}
	return 0;
}

void tt_bench_bufs_unmap(struct tt_bench_bufs *b)
{
	for (int i = 0; i < b->n; i++)
		munmap(b->map[i], b->map_len[i]);
	b->n = 0;
}

int tt_bench_validate(const struct tt_kernel *k, const struct tt_bench_bufs *b, size_t n)
{
	const double *out = b->arr[k->out_array];

	for (size_t i = 0; i < n; i++)
		if (out[i] != k->expect)
			return tt_err(TT_EFAIL, "%s failed validation: element %zu is %g, want %g",
				      k->name, i, out[i], k->expect);
	return 0;
}

/* Pages per array whose node a reused run asks again, and output elements
 * it poisons and checks: enough to catch a page the kernel moved (reclaim,
 * NUMA balancing) or a pass that skipped part of its chunk, few enough to
 * cost microseconds. */
#define SPOT_PAGES 64
#define SPOT_ELEMENTS 1024

int tt_bench_ctx_new(struct tt_bench_ctx **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : tt_err(TT_EFAIL, "out of memory");
}

static void ctx_drop(struct tt_bench_ctx *c)
{
	tt_bench_bufs_unmap(&c->b);
	for (int i = 0; i < TT_K_MAX_ARRAYS; i++) {
		free(c->node[i]);
		c->node[i] = NULL;
	}
	c->kernel = NULL;
	c->runs = 0;
	c->settled = false;
}

void tt_bench_ctx_free(struct tt_bench_ctx *c)
{
	if (!c)
		return;
	ctx_drop(c);
	free(c);
}

/* The arrays hold the values this kernel's passes leave (another kernel
 * would start from the wrong ones), and are split over these CPUs. */
static bool ctx_fits(const struct tt_bench_ctx *c, const struct tt_bench_opts *o,
		     const struct tt_bench_result *r, size_t bytes)
{
	return c->kernel == o->kernel && c->b.n == o->kernel->arrays && c->b.bytes == bytes &&
	       c->threads == r->threads &&
	       memcmp(c->cpus, r->cpus, (size_t)r->threads * sizeof(*r->cpus)) == 0 &&
	       o->place.mode == TT_PLACE_EXACT && c->thp == o->place.thp &&
	       c->huge_shift == o->place.huge_shift;
}

static int ctx_build(struct tt_bench_ctx *c, const struct tt_bench_opts *o,
		     const struct tt_bench_result *r, size_t bytes)
{
	int rc;

	ctx_drop(c);
	rc = tt_bench_bufs_map(o, &c->b, o->kernel->arrays, bytes, &c->method);
	for (int i = 0; i < c->b.n && rc == 0; i++)
		if (!(c->node[i] = malloc(c->b.span[i] / PAGE_BYTES * sizeof(int))))
			rc = tt_err(TT_EFAIL, "out of memory");
	if (rc < 0)
		return rc;
	c->kernel = o->kernel;
	c->threads = r->threads;
	memcpy(c->cpus, r->cpus, sizeof(c->cpus));
	c->thp = o->place.thp;
	c->huge_shift = o->place.huge_shift;
	return 0;
}

/* Every page the placement wants elsewhere than it is goes there; the
 * kernel's answer for each is its node from now on. */
static int ctx_move(struct tt_bench_ctx *c, const struct tt_placement *p, uint64_t *moved)
{
	size_t n = 0, k = 0;
	void **addrs = NULL;
	int *nodes = NULL, *status = NULL, rc = 0;
	struct {
		int arr;
		size_t pg;
	} *at = NULL;

	for (int i = 0; i < c->b.n; i++)
		for (size_t pg = 0; pg < c->b.span[i] / PAGE_BYTES; pg++) {
			int want = tt_place_expected(p, (uintptr_t)c->b.pg[i] + pg * PAGE_BYTES);

			n += want >= 0 && c->node[i][pg] != want;
		}
	*moved = n;
	if (!n)
		return 0;
	addrs = malloc(n * sizeof(*addrs));
	nodes = malloc(n * sizeof(*nodes));
	status = malloc(n * sizeof(*status));
	at = malloc(n * sizeof(*at));
	if (!addrs || !nodes || !status || !at) {
		rc = tt_err(TT_EFAIL, "out of memory for %zu pages to move", n);
		goto out;
	}
	for (int i = 0; i < c->b.n; i++)
		for (size_t pg = 0; pg < c->b.span[i] / PAGE_BYTES; pg++) {
			char *a = c->b.pg[i] + pg * PAGE_BYTES;
			int want = tt_place_expected(p, (uintptr_t)a);

			if (want < 0 || c->node[i][pg] == want)
				continue;
			addrs[k] = a;
			nodes[k] = want;
			at[k].arr = i;
			at[k++].pg = pg;
		}
	/* The VMAs keep the policy of the first placement: it governs only
	 * pages faulted in later, and every page is present. */
	rc = tt_move_pages(addrs, nodes, status, n);
	for (size_t j = 0; j < n && rc == 0; j++) {
		c->node[at[j].arr][at[j].pg] = status[j];
		k -= status[j] == nodes[j];
	}
	/* A full node fails its pages one by one (-ENOMEM), not the call. */
	for (size_t j = 0; j < n && rc == 0 && k; j++)
		if (status[j] != nodes[j])
			rc = tt_err(TT_EFAIL,
				    "%zu of %zu pages did not move to their node (the first, for "
				    "node %d: %s)",
				    k, n, nodes[j],
				    status[j] < 0 ? strerror(-status[j]) : "left on another node");
out:
	free(addrs);
	free(nodes);
	free(status);
	free(at);
	return rc;
}

/* Asks again where a sample of the pages are (a different sample each
 * run), and keeps what the kernel says; *changed counts the pages it says
 * are elsewhere than the context thought. */
static int ctx_spot_check(struct tt_bench_ctx *c, uint64_t *changed)
{
	void *addrs[SPOT_PAGES];
	int status[SPOT_PAGES], rc = 0;

	for (int i = 0; i < c->b.n && rc == 0; i++) {
		size_t pages = c->b.span[i] / PAGE_BYTES;
		size_t step = pages / SPOT_PAGES ? pages / SPOT_PAGES : 1;
		size_t n = pages < SPOT_PAGES ? pages : SPOT_PAGES,
		       off = (size_t)c->runs * 7919 % step;

		for (size_t j = 0; j < n; j++)
			addrs[j] = c->b.pg[i] + (j * step + off) * PAGE_BYTES;
		rc = tt_move_pages_query(addrs, status, n);
		for (size_t j = 0; j < n && rc == 0; j++) {
			int *node = &c->node[i][j * step + off];

			*changed += *node != status[j];
			*node = status[j];
		}
	}
	return rc;
}

/* The place report of every page, from the nodes the context knows. */
static int ctx_tally(const struct tt_bench_ctx *c, const struct tt_placement *p,
		     struct tt_place_report *r)
{
	for (int i = 0; i < c->b.n; i++) {
		size_t pages = c->b.span[i] / PAGE_BYTES;
		struct tt_place_report rep = { .pages = pages };

		tt_place_tally(p, (uintptr_t)c->b.pg[i], c->node[i], pages, 1, &rep);
		report_add(r, &rep);
		int rc = tt_place_judge(p, &rep);

		if (rc < 0)
			return rc;
	}
	return 0;
}

/* After a fresh build: the node of every page; after a reuse: a spot
 * check, and the last report again when nothing moved or changed. */
static int ctx_verify(struct tt_bench_ctx *c, const struct tt_placement *p, bool fresh,
		      struct tt_place_report *r)
{
	uint64_t changed = 0;
	int rc = 0;

	for (int i = 0; i < c->b.n && fresh && rc == 0; i++)
		rc = tt_place_query(c->b.pg[i], c->b.span[i], 1, c->node[i]);
	if (rc == 0 && !fresh)
		rc = ctx_spot_check(c, &changed);
	if (rc < 0)
		return rc;
	if (!fresh && !changed && c->settled && tt_place_same(&c->place, p)) {
		*r = c->rep;
		return 0;
	}
	return ctx_tally(c, p, r);
}

struct worker {
	const struct tt_bench_opts *o;
	double *arr[TT_K_MAX_ARRAYS];
	size_t lo, hi;
	int cpu;
	pthread_barrier_t *bar;
	double *times; /* thread 0 records pass times */
	double sum;    /* of the last pass, for read-only kernels */
	int index, nt;
	struct tt_ran_slot *ran; /* [pass * nt + index]: whether each thread ran */
	struct tt_bench_gate *gate;
	int pin_err;		/* errno of a failed pin, 0 when pinned */
	const bool *called_off; /* set by the caller between the barriers */
	bool touch;		/* the arrays are fresh: first-touch the chunk */
	int first_pass;		/* 0: a warm-up pass first; 1: none */
};

bool tt_bench_gate_wait(struct tt_bench_gate *g)
{
	pthread_mutex_lock(&g->mu);
	while (!g->go)
		pthread_cond_wait(&g->cv, &g->mu);
	pthread_mutex_unlock(&g->mu);
	return g->go > 0;
}

void tt_bench_gate_open(struct tt_bench_gate *g, bool run)
{
	pthread_mutex_lock(&g->mu);
	g->go = run ? 1 : -1;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
}

static void *work(void *arg)
{
	struct worker *w = arg;
	const struct tt_kernel *k = w->o->kernel;
	double **v = w->arr;

	if (!tt_bench_gate_wait(w->gate))
		return NULL;
	w->pin_err = tt_bench_pin(w->cpu);
	/* First touch from the thread that will use the chunk (local placement
	 * depends on it; the other modes were placed by policy). */
	if (!w->pin_err && w->touch)
		tt_bench_touch(w->o, w->arr, w->lo, w->hi);
	pthread_barrier_wait(w->bar); /* all touched */
	pthread_barrier_wait(w->bar); /* verified by the caller */
	if (*w->called_off)
		return NULL;
	tt_ran_measuring(w->cpu);
	for (int pass = w->first_pass; pass <= w->o->repeat; pass++) {
		struct tt_ran_slot *ran = &w->ran[pass * w->nt + w->index];
		double t0 = 0;

		pthread_barrier_wait(w->bar);
		if (*w->called_off)
			break; /* stopped by a signal */
		tt_ran_begin(ran);
		if (w->index == 0)
			t0 = tt_mono_s();
		w->sum = k->run(v[0], v[1], v[2], v[3], w->lo, w->hi);
		tt_ran_end(ran);
		pthread_barrier_wait(w->bar);
		if (w->index == 0)
			w->times[pass] = tt_mono_s() - t0;
	}
	return NULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void tt_bench_summarise(double *times, int repeat, struct tt_bench_result *r)
{
	double sum = 0;

	/* The first pass warms caches and TLBs and is not counted (STREAM). */
	for (int i = 1; i <= repeat; i++)
		sum += times[i];
	r->mean_s = sum / repeat;
	qsort(times + 1, (size_t)repeat, sizeof(*times), cmp_double);
	r->best_s = times[1];
	r->max_s = times[repeat];
	r->median_s = repeat % 2 ? times[1 + repeat / 2]
				 : (times[repeat / 2] + times[1 + repeat / 2]) / 2;
}

/* Output elements a reused run poisons and checks: each thread's first and
 * last, and a spread (shifted each run). at has room for 2 * nt +
 * SPOT_ELEMENTS. */
static size_t spot_elements(const struct tt_bench_ctx *c, size_t n, const struct worker *w, int nt,
			    size_t *at)
{
	size_t k = 0, step = n / SPOT_ELEMENTS ? n / SPOT_ELEMENTS : 1;
	size_t off = (size_t)c->runs * 131 % step;

	for (int t = 0; t < nt; t++)
		if (w[t].lo < w[t].hi) {
			at[k++] = w[t].lo;
			at[k++] = w[t].hi - 1;
		}
	for (size_t j = 0; j < SPOT_ELEMENTS && j * step + off < n; j++)
		at[k++] = j * step + off;
	return k;
}

/* The arrays placed for this run: kept in place (settled under the same
 * placement: every page was where it should be, and the spot check will
 * say if one has gone since), moved, built in the context, or fresh. */
static int stream_place(const struct tt_bench_opts *o, struct tt_bench_result *r,
			struct tt_bench_ctx *c, struct tt_bench_bufs *b, double t0)
{
	int rc;

	if (r->reused && c->settled && tt_place_same(&c->place, &o->place))
		rc = 0;
	else if (r->reused)
		rc = ctx_move(c, &o->place, &r->moved_pages);
	else if (c)
		rc = ctx_build(c, o, r, r->array_bytes);
	else
		rc = tt_bench_bufs_map(o, b, o->kernel->arrays, r->array_bytes, &r->place_method);
	if (rc == 0)
		rc = tt_bench_started(o, r);
	if (rc < 0)
		return rc;
	if (c)
		r->place_method = c->method;
	r->policy_s = tt_mono_s() - t0;
	return 0;
}

/* Starts the workers behind the gate; all of them or none run. */
static int stream_start(struct worker *w, pthread_t *tid, int nt, pthread_barrier_t *bar,
			struct tt_bench_gate *gate, int *started)
{
	for (int t = 0; t < nt; t++) {
		if (pthread_create(&tid[t], NULL, work, &w[t]) != 0)
			break;
		(*started)++;
	}
	if (*started == nt)
		pthread_barrier_init(bar, NULL, (unsigned int)nt + 1);
	tt_bench_gate_open(gate, *started == nt);
	if (*started == nt)
		return 0;
	for (int t = 0; t < *started; t++)
		pthread_join(tid[t], NULL);
	return tt_err(TT_EFAIL, "cannot start benchmark thread %d of %d", *started + 1, nt);
}

/* Once every chunk is touched: a thread that could not be pinned or a
 * signal calls the run off; else the placement is verified. Timed. */
static int stream_settle(const struct tt_bench_opts *o, struct tt_bench_result *r,
			 struct tt_bench_ctx *c, const struct tt_bench_bufs *b,
			 const struct worker *w, bool *called_off, double t0)
{
	int vrc = 0;

	for (int t = 0; t < r->threads && !*called_off; t++)
		if (w[t].pin_err) {
			vrc = tt_err_sys(TT_EFAIL, w[t].pin_err,
					 "cannot pin benchmark thread %d to "
					 "CPU %d",
					 t, w[t].cpu);
			*called_off = true;
		}
	if (!*called_off && tt_bench_stop_asked(o)) {
		vrc = tt_bench_stopped(o, NULL, 0, 0);
		*called_off = true;
	}
	double t1 = tt_mono_s();
	if (!*called_off)
		vrc = c ? ctx_verify(c, &o->place, !r->reused, &r->place)
			: tt_bench_bufs_verify(o, b, &r->place);
	if (vrc == 0 && !*called_off)
		tt_bench_bufs_huge(c ? &c->b : b, NULL, r);
	r->place_s = tt_mono_s() - t0;
	r->verify_s = tt_mono_s() - t1;
	r->touch_s = r->place_s - r->policy_s - r->verify_s;
	return vrc;
}

/* The passes, paced from here: the workers wait at the barrier for this
 * thread between them, outside the timed region, where it reads the
 * steal of their CPUs before the first timed pass and after the last. */
static int stream_passes(const struct tt_bench_opts *o, const struct tt_bench_result *r,
			 int first_pass, pthread_barrier_t *bar, bool *called_off, int64_t *steal)
{
	bool measuring = false;
	int64_t steal0 = -1;
	int vrc = 0;

	for (int pass = first_pass; pass <= o->repeat && !*called_off; pass++) {
		if (tt_bench_stop_asked(o)) {
			vrc = tt_bench_stopped(o, "pass", pass, o->repeat);
			*called_off = true;
			pthread_barrier_wait(bar);
			break;
		}
		/* The warm-up pass is not measured, by collectors either. */
		if (pass == 1 && o->phase) {
			o->phase(o->phase_ctx, true);
			measuring = true;
		}
		tt_bench_progress(o, pass, o->repeat);
		if (pass == 1)
			steal0 = tt_ran_steal(o->sfs, r->cpus, r->threads);
		pthread_barrier_wait(bar);
		pthread_barrier_wait(bar);
	}
	int64_t steal1 = steal0 < 0 ? -1 : tt_ran_steal(o->sfs, r->cpus, r->threads);

	*steal = steal1 < 0 ? -1 : steal1 - steal0;
	if (o->phase && measuring)
		o->phase(o->phase_ctx, false);
	return vrc;
}

/* The kernel's output checked: the poisoned sample of a reused run, every
 * element of a fresh one, or the sum a read-only kernel returned. */
static int stream_validate(const struct tt_kernel *k, const struct tt_bench_bufs *b, size_t n,
			   const struct worker *w, int nt, const size_t *spot, size_t nspot,
			   bool reused)
{
	if (k->out_array >= 0 && reused) {
		const double *out = b->arr[k->out_array];

		for (size_t i = 0; i < nspot; i++)
			if (out[spot[i]] != k->expect)
				return tt_err(TT_EFAIL,
					      "%s failed validation: element %zu is %g, want %g",
					      k->name, spot[i], out[spot[i]], k->expect);
		return 0;
	}
	if (k->out_array >= 0)
		return tt_bench_validate(k, b, n);
	double sum = 0;

	for (int t = 0; t < nt; t++)
		sum += w[t].sum;
	/* Sums of 1.0 are exact in a double up to 2^53 elements. */
	if (sum != (double)n * k->expect)
		return tt_err(TT_EFAIL, "%s failed validation: read a sum of %.17g, want %.17g",
			      k->name, sum, (double)n * k->expect);
	return 0;
}

/* Each thread's chunk: whole cache lines (8 doubles). */
static void stream_workers(const struct tt_bench_opts *o, const struct tt_bench_result *r,
			   const struct tt_bench_bufs *b, struct worker *w, pthread_barrier_t *bar,
			   struct tt_bench_gate *gate, double *times, struct tt_ran_slot *ran,
			   const bool *called_off)
{
	size_t n = r->elements, chunk = (n / (size_t)r->threads + 7) & ~(size_t)7;

	for (int t = 0; t < r->threads; t++) {
		size_t lo = (size_t)t * chunk, hi = lo + chunk;

		w[t] = (struct worker){ .o = o,
					.lo = lo < n ? lo : n,
					.hi = hi < n ? hi : n,
					.cpu = r->cpus[t],
					.bar = bar,
					.times = times,
					.index = t,
					.nt = r->threads,
					.ran = ran,
					.gate = gate,
					.called_off = called_off,
					.touch = !r->reused,
					/* Pages that stayed put were warmed by
					 * the last run's passes. */
					.first_pass = r->reused && !r->moved_pages };
		memcpy(w[t].arr, b->arr, sizeof(b->arr));
	}
}

int tt_bench_stream(const struct tt_bench_opts *o, struct tt_bench_result *r)
{
	const struct tt_kernel *k = o->kernel;
	struct tt_bench_ctx *c = o->reuse;
	struct tt_bench_bufs fresh = { 0 }, *b = c ? &c->b : &fresh;
	double *times = NULL;
	struct tt_ran_slot *ran = NULL;
	int64_t steal = -1;
	struct worker *w = NULL;
	pthread_t *tid = NULL;
	size_t *spot = NULL, nspot = 0;
	pthread_barrier_t bar;
	struct tt_bench_gate gate = TT_BENCH_GATE_INIT;
	int nt = r->threads, rc, started = 0;
	size_t n = r->array_bytes / sizeof(double);
	bool called_off = false; /* a thread could not be pinned, or a signal */

	r->elements = n;
	r->reused = c && ctx_fits(c, o, r, r->array_bytes);
	double t0 = tt_mono_s();
	rc = stream_place(o, r, c, b, t0);
	if (rc < 0)
		goto out;
	times = calloc((size_t)o->repeat + 1, sizeof(*times));
	ran = calloc(((size_t)o->repeat + 1) * (size_t)nt, sizeof(*ran));
	w = calloc((size_t)nt, sizeof(*w));
	tid = calloc((size_t)nt, sizeof(*tid));
	spot = r->reused ? calloc(2 * (size_t)nt + SPOT_ELEMENTS, sizeof(*spot)) : NULL;
	if (!times || !ran || !w || !tid || (r->reused && !spot)) {
		rc = tt_err(TT_EFAIL, "out of memory");
		goto out;
	}
	stream_workers(o, r, b, w, &bar, &gate, times, ran, &called_off);
	/* The last run left the right values everywhere: poison a sample of
	 * the output so that its check shows this run wrote them. */
	if (r->reused && k->out_array >= 0) {
		nspot = spot_elements(c, n, w, nt, spot);
		for (size_t i = 0; i < nspot; i++)
			b->arr[k->out_array][spot[i]] = NAN;
	}
	if ((rc = stream_start(w, tid, nt, &bar, &gate, &started)) < 0)
		goto out;
	pthread_barrier_wait(&bar); /* touched */
	int vrc = stream_settle(o, r, c, b, w, &called_off, t0);

	pthread_barrier_wait(&bar); /* verified: the passes start */
	int prc = stream_passes(o, r, w[0].first_pass, &bar, &called_off, &steal);

	if (prc < 0)
		vrc = prc;
	for (int t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	pthread_barrier_destroy(&bar);
	if (vrc < 0 || (vrc = stream_validate(k, b, n, w, nt, spot, nspot, r->reused)) < 0) {
		rc = vrc;
		goto out;
	}
	r->validated = true;
	tt_bench_summarise(times, o->repeat, r);
	tt_ran_sum(ran + nt, o->repeat, nt, r->cpus, steal, &r->ran);
	double moved = (double)n * (k->read_bytes + k->write_bytes);
	r->bw_best_bytes_s = moved / r->best_s;
	r->bw_median_bytes_s = moved / r->median_s;
	r->bw_mean_bytes_s = moved / r->mean_s;
	r->bw_min_bytes_s = moved / r->max_s;
out:
	if (!c)
		tt_bench_bufs_unmap(b);
	else if (rc < 0)
		ctx_drop(c); /* whatever state it is in, the next run starts afresh */
	if (c && rc == 0) {
		c->runs++;
		c->settled = true;
		c->place = o->place;
		c->rep = r->place;
	}
	free(times);
	free(ran);
	free(w);
	free(tid);
	free(spot);
	return rc;
}

#define MIB(b) ((double)(b) / (1 << 20))

/* A tuner's trial that would measure the cache or time nothing: below
 * STREAM's rule or too short. */
static int refuse_cache(const struct tt_bench_opts *o, const struct tt_bench_result *r)
{
	int rc;

	if (r->below_rule) {
		rc = tt_err(TT_EINPUT,
			    "%s's %.1f MiB %s are below STREAM's 4x rule: under %dx the last-level "
			    "cache of its CPUs (L%d, %.1f MiB, from %s)%s",
			    o->kernel->name, MIB(r->array_bytes), o->kernel->kind->buffers,
			    TT_LLC_FACTOR, r->llc.level, MIB(r->llc.bytes), r->llc.from,
			    r->cache_resident ? "; all a pass touches fits there: the trial would "
						"measure the cache, not memory"
					      : "; part of each pass may be served from it");
		tt_err_hint("give --size %.0fM or more (or leave it out: STREAM's rule), or "
			    "--allow-cache-resident to search such figures knowingly",
			    ceil(MIB(TT_LLC_FACTOR * r->llc.bytes)));
		return rc;
	}
	rc = tt_err(TT_EINPUT,
		    "%s's fastest pass took %.1f us, under %d ticks of the clock (%.0f ns each): "
		    "too short to time",
		    o->kernel->name, r->best_s * 1e6, TT_MIN_TICKS, r->tick_s * 1e9);
	tt_err_hint("give a larger --size, or --allow-cache-resident to use such trials anyway");
	return rc;
}

/* A tuner's trial unstable or descheduled TT_UNSTABLE_RUNS times running:
 * the host's other work would be ranked as memory's. Named by the last
 * run's judgement, descheduled first: the cause, where passes that spread
 * are its effect. */
static int refuse_unstable(const struct tt_bench_opts *o, const struct tt_bench_result *r)
{
	const char *word = r->descheduled ? "descheduled" : "unstable";
	int rc = tt_err(TT_EFAIL, "%s's trial is %s in %d runs in a row (the last: %s)",
			o->kernel->name, word, r->unstable_runs,
			r->descheduled ? r->descheduled_why : r->unstable_why);

	tt_err_hint("other work shares these CPUs or memory: run when the host is quieter, "
		    "or give --allow-unstable to search such trials knowingly (each is "
		    "recorded as %s)",
		    word);
	return rc;
}

int tt_bench_prepare(const struct tt_bench_opts *o, struct tt_bench_result *r)
{
	char list[512];
	uint64_t bits[TT_MAX_CPUS / 64] = { 0 };
	int rc;

	memset(r, 0, sizeof(*r));
	rc = tt_bench_cpus(o->topo, o->source_node, r->cpus, &r->ncpus);
	if (rc < 0)
		return rc;
	for (int i = 0; i < r->ncpus; i++)
		tt_bit_set(bits, (unsigned int)r->cpus[i]);
	tt_bit_format_list(bits, TT_MAX_CPUS, list, sizeof(list));
	/* A thread per CPU at most: two on one CPU take turns, and the
	 * figure would be of the time slicing, not of the memory. */
	if (o->threads > r->ncpus)
		return tt_err(TT_EINPUT,
			      "%d threads are more than the %d CPU%s of node %d that this "
			      "process may run on (%s)",
			      o->threads, r->ncpus, r->ncpus == 1 ? "" : "s", o->source_node, list);
	if (o->kernel->kind->one_thread && o->threads > 1)
		return tt_err(TT_EINPUT,
			      "kernel %s runs one thread (one chain of dependent loads), "
			      "not %d",
			      o->kernel->name, o->threads);
	r->threads = o->kernel->kind->one_thread ? 1 : o->threads ? o->threads : r->ncpus;
	rc = tt_kernel_isa(&r->isa);
	if (rc < 0)
		return rc;
	/* The cache of the CPUs the threads run on: on a two-socket machine a
	 * run from one socket has its LLC alone. */
	tt_bench_llc_of(o->sfs, r->cpus, r->threads, &r->llc);
	r->array_bytes = tt_bench_size(o, r);
	/* What a pass touches: its arrays, or the chain and the traffic's. */
	const struct tt_kernel *traffic =
		o->kernel->kind->curve ? (o->traffic ? o->traffic : &tt_k_reads) : NULL;
	r->touched_bytes =
		r->array_bytes * (size_t)(o->kernel->arrays + (traffic ? traffic->arrays : 0));
	r->pages.thp_asked = o->place.thp;
	tt_bench_judge(r, tt_bench_tick_s());
	return o->refuse_cache && r->below_rule ? refuse_cache(o, r) : 0;
}

/* The passes as timed, for a test: the median pass set to the best times
 * the test seam's spread, and the share its threads ran set to the seam's
 * (core/test-hooks.h), so that a test makes the spread a busy host makes,
 * or none on a host that made one, and the same of descheduling. */
static void test_spread(struct tt_bench_result *r)
{
	double f = tt_test_hooks && tt_test_hooks->pass_spread ? tt_test_hooks->pass_spread() : 0;
	double share = tt_test_hooks && tt_test_hooks->ran_share ? tt_test_hooks->ran_share() : 0;

	if (f >= 1 && r->best_s > 0) {
		r->median_s = r->best_s * f;
		r->bw_median_bytes_s = r->bw_best_bytes_s / f;
	}
	if (share > 0 && r->ran.passes) {
		r->ran.share = share;
		r->ran.descheduled = share < TT_RAN_MIN ? r->ran.passes : 0;
		r->ran.steal_s = 0;
	}
}

int tt_bench_run(const struct tt_bench_opts *o, struct tt_bench_result *r)
{
	int rc, again = 0;

	/* An unstable or descheduled run measured again from the start
	 * (prepare included: it clears the result); with o->reuse the arrays
	 * stay placed, so a run again moves no page and skips the warm-up.
	 * Descheduled goes with unstable, one --allow-unstable for both: each
	 * says the host's other work is in the figures, and a person who
	 * searches a busy host knowingly means both. */
	for (;;) {
		rc = tt_bench_prepare(o, r);
		if (rc < 0)
			return rc;
		r->unstable_runs = again;
		rc = o->kernel->kind->run(o, r);
		if (rc < 0)
			return rc;
		test_spread(r);
		tt_bench_judge(r, r->tick_s);
		if (o->refuse_cache && r->short_pass)
			return refuse_cache(o, r);
		if (!o->refuse_unstable || !(r->unstable || r->descheduled))
			return 0;
		if (++again == TT_UNSTABLE_RUNS) {
			r->unstable_runs = again;
			return refuse_unstable(o, r);
		}
	}
}
