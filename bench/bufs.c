// SPDX-License-Identifier: GPL-3.0-or-later
/* A run's buffers: sized to the node's free memory, mapped (staggered, THP
 * or hugetlbfs), placed before first touch, their pages' nodes verified
 * after it, their huge pages counted; the kernel's output validated. */
#define _GNU_SOURCE
#include "harness.h"

#include "../core/error.h"
#include "../core/figure.h"
#include "../core/mpol.h"
#include "../core/parse.h"
#include "../core/test-hooks.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

/* A transparent huge page's size: the PMD's (2 MiB on x86-64). */

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

	tt_page_size_text(page, size, sizeof(size));
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

void tt_bench_report_add(struct tt_place_report *r, const struct tt_place_report *rep)
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

		tt_bench_report_add(r, &rep);
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
