// SPDX-License-Identifier: GPL-3.0-or-later
/* Where a process's pages are: numa_maps counts on another root, or on the
 * live machine smaps, pagemap's present bits and a move_pages query per
 * present page. */
#include "rebalance.h"

#include "../core/error.h"
#include "../core/numa-maps.h"
#include "../core/parse.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PAGE 4096ULL
#define THP_PAGES 512u /* a PMD-mapped THP on x86-64 and arm64 with 4 KiB pages */

void tt_rb_scan_release(struct tt_rb_scan *sc)
{
	free(sc->units);
	memset(sc, 0, sizeof(*sc));
}

static int add_unit(struct tt_rb_scan *sc, uint64_t addr, uint32_t pages, int node, bool huge)
{
	if (sc->n == sc->cap) {
		size_t cap = sc->cap ? sc->cap * 2 : 4096;
		struct tt_rb_unit *u = realloc(sc->units, cap * sizeof(*u));

		if (!u)
			return tt_err(TT_EFAIL, "out of memory for %zu pages", cap);
		sc->units = u;
		sc->cap = cap;
	}
	sc->units[sc->n++] = (struct tt_rb_unit){
		.addr = addr, .pages = pages, .node = (int16_t)node, .huge = huge
	};
	sc->cur.pages[node] += pages;
	sc->cur.total += pages;
	tt_bit_set(sc->cur.nodes.bits, (unsigned int)node);
	sc->huge_units += huge;
	return 0;
}

/* A numa_maps line of memory the process owns alone: private anonymous
 * (anon= pages and no file behind it: shmem, memfd and hugetlbfs files
 * show file=), or private MAP_HUGETLB ("huge", anon= pages of the
 * kernel's internal file /anon_hugepage; shared hugetlb pages are not
 * anon). */
static bool own_line(const char *line, bool *hugetlb)
{
	*hugetlb = strstr(line, " huge ") && strstr(line, " file=/anon_hugepage");
	return strstr(line, " anon=") && (*hugetlb || !strstr(line, " file="));
}

int tt_rb_numa_maps_count(FILE *f, struct tt_rb_scan *sc)
{
	char *line = NULL;
	size_t cap = 0;

	memset(sc, 0, sizeof(*sc));
	while (getline(&line, &cap, f) > 0) {
		struct tt_nmap_vma v;
		uint64_t per, add[TT_MAX_NODES], sum = 0;
		bool hugetlb, bad = false;
		int id;

		tt_chomp(line);
		if (!own_line(line, &hugetlb) || tt_numa_maps_line(line, &v) < 0 ||
		    v.page_bytes < PAGE || v.page_bytes % PAGE) {
			sc->skipped_vmas++;
			continue;
		}
		per = v.page_bytes / PAGE;
		/* Counts that overflow are not a kernel's: the line is left. */
		tt_nodemask_for_each (id, &v.resident)
			bad |= __builtin_mul_overflow(v.pages[id], per, &add[id]) ||
			       __builtin_add_overflow(sum, add[id], &sum);
		if (bad || __builtin_add_overflow(sc->cur.total, sum, &sum)) {
			sc->skipped_vmas++;
			continue;
		}
		sc->vmas++;
		tt_nodemask_for_each (id, &v.resident) {
			sc->cur.pages[id] += add[id];
			sc->cur.total += add[id];
			if (hugetlb)
				sc->huge_units += v.pages[id];
			if (add[id])
				tt_bit_set(sc->cur.nodes.bits, (unsigned int)id);
		}
	}
	free(line);
	return ferror(f) ? TT_EUNAVAIL : 0;
}

int tt_rb_scan_numa_maps(const struct tt_sysfs *s, pid_t pid, struct tt_rb_scan *sc)
{
	char path[PATH_MAX];
	FILE *f;
	int rc;

	memset(sc, 0, sizeof(*sc));
	if (tt_sysfs_path(s, path, sizeof(path), "/proc/%d/numa_maps", (int)pid) < 0)
		return TT_EINPUT;
	if (!(f = fopen(path, "re")))
		return tt_err_sys(errno == ENOENT ? TT_EINPUT : TT_EUNAVAIL, errno,
				  "cannot read '%s'", path);
	rc = tt_rb_numa_maps_count(f, sc);
	fclose(f);
	return rc < 0 ? tt_err(TT_EUNAVAIL, "cannot read '%s'", path) : 0;
}

/* "start-end perms offset dev inode [path]": private and readable, then
 * anonymous (no path, the heap, a stack or a named anonymous region), or
 * MAP_HUGETLB (the kernel's internal file "/anon_hugepage (deleted)", told
 * by VmFlags' ht, read later). The others are left: file pages are shared
 * page cache, [vdso] and [vvar] the kernel's. */
static int vma_header(const char *line, struct tt_rb_vma *v, bool *anon, bool *huge_path)
{
	char perms[8] = "", path[64] = "";
	unsigned long long a, b, ino;

	if (sscanf(line, "%llx-%llx %7s %*s %*s %llu %63s", &a, &b, perms, &ino, path) < 4 ||
	    b < a || strlen(perms) < 4)
		return TT_EINPUT;
	*v = (struct tt_rb_vma){ .start = a, .end = b, .page_bytes = PAGE };
	v->private_rd = perms[0] == 'r' && perms[3] == 'p';
	*anon = ino == 0 && (!path[0] || strcmp(path, "[heap]") == 0 ||
			     strncmp(path, "[stack", 6) == 0 || strncmp(path, "[anon:", 6) == 0);
	*huge_path = strcmp(path, "/anon_hugepage") == 0;
	return 0;
}

/* "Key:   N kB" for key: N * 1024 in *bytes; false for another key, or a
 * figure no kernel gives. */
static bool kb_field(const char *line, const char *key, uint64_t *bytes)
{
	size_t n = strlen(key);
	uint64_t kb;

	if (strncmp(line, key, n) != 0 || line[n] != ':' ||
	    sscanf(line + n + 1, "%" SCNu64 " kB", &kb) != 1 || kb > UINT64_MAX / 1024)
		return false;
	*bytes = kb * 1024;
	return true;
}

/* One "Key: value" line of a VMA's smaps entry, the keys the scan uses. */
static void vma_field(const char *line, struct tt_rb_vma *v, uint64_t *hugetlb_bytes)
{
	uint64_t bytes;

	if (kb_field(line, "KernelPageSize", &bytes)) {
		/* A power of two from 4 KiB to 16 GiB (ppc64's largest). */
		if (bytes >= PAGE && bytes <= (16ULL << 30) && !(bytes & (bytes - 1)))
			v->page_bytes = bytes;
	} else if (kb_field(line, "AnonHugePages", &bytes))
		v->thp_bytes = bytes;
	else if (kb_field(line, "Rss", &bytes))
		v->rss_bytes = bytes;
	else if (kb_field(line, "Private_Hugetlb", &bytes))
		*hugetlb_bytes = bytes;
	else if (strncmp(line, "VmFlags:", 8) == 0) {
		/* Two-letter flags, space-separated: "ht" is VM_HUGETLB. */
		for (const char *p = line + 8; (p = strstr(p, " ht")) != NULL; p += 3)
			if (p[3] == '\0' || p[3] == ' ')
				v->hugetlb = true;
	}
}

int tt_rb_smaps_read(FILE *f, int (*fn)(void *ctx, const struct tt_rb_vma *v), void *ctx)
{
	char *line = NULL;
	size_t cap = 0;
	struct tt_rb_vma v = { 0 };
	uint64_t hugetlb_bytes = 0;
	bool have = false, anon = false, huge_path = false;
	int rc = 0;

	/* A VMA's header line, then "Key: value" lines; it is done once its
	 * last line (the next header, or the end) is read. */
	for (;;) {
		bool more = getline(&line, &cap, f) > 0, header;
		struct tt_rb_vma next;
		bool next_anon, next_huge;

		if (more) {
			tt_chomp(line);
			header = (line[0] >= '0' && line[0] <= '9') ||
				 (line[0] >= 'a' && line[0] <= 'f');
			if (!header) {
				if (have)
					vma_field(line, &v, &hugetlb_bytes);
				continue;
			}
			if (vma_header(line, &next, &next_anon, &next_huge) < 0)
				continue;
		}
		if (have) {
			/* hugetlb pages are not in Rss: Private_Hugetlb. */
			v.take = v.private_rd && (v.hugetlb ? huge_path : anon);
			if (v.hugetlb)
				v.rss_bytes = hugetlb_bytes;
			rc = fn(ctx, &v);
			if (rc)
				break;
		}
		if (!more)
			break;
		v = next;
		anon = next_anon;
		huge_path = next_huge;
		hugetlb_bytes = 0;
		have = true;
	}
	free(line);
	return rc ? rc : ferror(f) ? TT_EUNAVAIL : 0;
}

enum { QUERY_BATCH = 1 << 14 };

/* A VMA whose pages are worth a look: some resident, and not a vast sparse
 * reservation (ASan's shadow, a NORESERVE arena of terabytes) where even
 * its page table's walk costs more than a few resident pages are worth:
 * over 1 GiB with under 1/64 of it resident is left alone and counted as
 * skipped. */
static bool worth(const struct tt_rb_vma *v)
{
	uint64_t size = v->end - v->start;

	return v->take && v->rss_bytes && !(size > (1ULL << 30) && v->rss_bytes < size / 64);
}

struct live_scan {
	struct tt_rb_scan *sc;
	pid_t pid;
	int pagemap; /* /proc/PID/pagemap, or -1: every page queried */
	void **addr;
	int *status;
	uint64_t *pm;
};

/* Which of the k pages from a are present, by pagemap (bit 63, readable
 * with the access a move_pages query needs; the frame numbers, which need
 * CAP_SYS_ADMIN, are not used): the addresses of those into ls->addr, their
 * slots into idx. Returns how many, or -1 when pagemap cannot say. */
static long present(struct live_scan *ls, uint64_t a, size_t k, size_t *idx)
{
	size_t n = 0;
	ssize_t got;

	if (ls->pagemap < 0 || a / PAGE > (uint64_t)INT64_MAX / 8)
		return -1;
	got = pread(ls->pagemap, ls->pm, k * sizeof(*ls->pm), (off_t)(a / PAGE * 8));
	if (got != (ssize_t)(k * sizeof(*ls->pm)))
		return -1;
	for (size_t i = 0; i < k; i++)
		if (ls->pm[i] >> 63) {
			ls->addr[n] = (void *)(uintptr_t)(a + i * PAGE);
			idx[n++] = i;
		}
	return (long)n;
}

/* The nodes of the k pages from a, step apart, into ls->status (an absent
 * page's a negative errno). Where idx is given (4 KiB pages) and pagemap
 * can say, only the present ones are queried. */
static int query_batch(struct live_scan *ls, uint64_t a, size_t k, uint64_t step, size_t *idx)
{
	long r, np = idx ? present(ls, a, k, idx) : -1;

	if (np < 0) {
		for (size_t i = 0; i < k; i++)
			ls->addr[i] = (void *)(uintptr_t)(a + i * step);
		r = tt_rb_move_pages(ls->pid, k, ls->addr, NULL, ls->status, 0);
	} else {
		/* The present pages' nodes, spread back to their slots;
		 * the others absent. */
		r = np ? tt_rb_move_pages(ls->pid, (unsigned long)np, ls->addr, NULL, ls->status, 0)
		       : 0;
		for (size_t i = (size_t)np; r >= 0 && i-- > 0;)
			ls->status[idx[i]] = ls->status[i];
		for (size_t i = 0, j = 0; r >= 0 && i < k; i++)
			if (j < (size_t)np && idx[j] == i)
				j++;
			else
				ls->status[i] = -ENOENT;
	}
	if (r < 0)
		return tt_err_sys(r == -ESRCH || r == -EINVAL ? TT_EUNAVAIL : TT_EFAIL, (int)-r,
				  "move_pages query of process %d", (int)ls->pid);
	return 0;
}

/* The k pages from a, their nodes queried, as units of v's page size,
 * the absent ones counted. */
static int add_batch_units(struct live_scan *ls, const struct tt_rb_vma *v, uint64_t a, size_t k)
{
	struct tt_rb_scan *sc = ls->sc;
	uint64_t step = v->page_bytes;
	uint32_t per = (uint32_t)(step / PAGE);
	const uint64_t thp = THP_PAGES * PAGE;
	int rc = 0;

	for (size_t i = 0; i < k && rc == 0;) {
		uint64_t at = a + i * step;

		if (ls->status[i] < 0 || ls->status[i] >= TT_MAX_NODES) {
			sc->absent += per;
			i++;
			continue;
		}
		/* A whole aligned 2 MiB block on one node where the VMA
		 * has THPs: most likely one; moved by its first address
		 * (the kernel migrates the folio whole). The next round's
		 * query finds out when it was not. */
		if (per == 1 && v->thp_bytes && at % thp == 0 && i + THP_PAGES <= k) {
			size_t j = 1;

			while (j < THP_PAGES && ls->status[i + j] == ls->status[i])
				j++;
			if (j == THP_PAGES) {
				rc = add_unit(sc, at, THP_PAGES, ls->status[i], true);
				i += THP_PAGES;
				continue;
			}
		}
		rc = add_unit(sc, at, per, ls->status[i], per > 1);
		i++;
	}
	return rc;
}

/* Each page of v by a query (only those present, where pagemap says so:
 * the cost goes with the resident pages, not the VMA's size; a VMA of
 * 1 GiB with one page present is one query, not 262144); a THP-sized block
 * all on one node in a VMA with AnonHugePages becomes one unit. */
static int scan_vma(struct live_scan *ls, const struct tt_rb_vma *v)
{
	uint64_t step = v->page_bytes;
	uint32_t per = (uint32_t)(step / PAGE);
	size_t *idx = per == 1 ? malloc(QUERY_BATCH * sizeof(*idx)) : NULL;
	int rc = per == 1 && !idx ? tt_err(TT_EFAIL, "out of memory") : 0;

	for (uint64_t a = v->start; a < v->end && rc == 0;) {
		/* A batch ends on a 2 MiB boundary, so no THP straddles two. */
		size_t k = 0, lim = per == 1 ? QUERY_BATCH - (a / PAGE) % THP_PAGES : QUERY_BATCH;

		while (k < lim && a + k * step < v->end && a + k * step >= a)
			k++;
		rc = query_batch(ls, a, k, step, idx);
		if (rc == 0)
			rc = add_batch_units(ls, v, a, k);
		a += k * step;
	}
	free(idx);
	return rc;
}

/* The VMA whose last smaps line was read: counted, its pages queried when
 * it is worth it. */
static int vma_done(void *ctx, const struct tt_rb_vma *v)
{
	struct live_scan *ls = ctx;
	bool take = worth(v);

	ls->sc->vmas += take;
	ls->sc->skipped_vmas += !take && (!v->take || v->rss_bytes);
	return take ? scan_vma(ls, v) : 0;
}

int tt_rb_scan_live(const struct tt_sysfs *s, pid_t pid, struct tt_rb_scan *sc)
{
	char path[PATH_MAX];
	struct live_scan ls = { .sc = sc, .pid = pid, .pagemap = -1 };
	int rc = 0;
	FILE *f;

	memset(sc, 0, sizeof(*sc));
	sc->per_page = true;
	if (tt_sysfs_path(s, path, sizeof(path), "/proc/%d/smaps", (int)pid) < 0)
		return TT_EINPUT;
	if (!(f = fopen(path, "re")))
		return tt_err_sys(errno == ENOENT ? TT_EINPUT : TT_EUNAVAIL, errno,
				  "cannot read '%s'", path);
	/* No pagemap (not permitted, or a kernel without it): every page of
	 * a VMA worth it is queried, as before. */
	if (tt_sysfs_path(s, path, sizeof(path), "/proc/%d/pagemap", (int)pid) == 0)
		ls.pagemap = open(path, O_RDONLY | O_CLOEXEC);
	ls.addr = malloc(QUERY_BATCH * sizeof(*ls.addr));
	ls.status = malloc(QUERY_BATCH * sizeof(*ls.status));
	ls.pm = malloc(QUERY_BATCH * sizeof(*ls.pm));
	if (!ls.addr || !ls.status || !ls.pm)
		rc = tt_err(TT_EFAIL, "out of memory");
	if (rc == 0)
		rc = tt_rb_smaps_read(f, vma_done, &ls);
	if (rc == TT_EUNAVAIL && ferror(f))
		rc = tt_err(TT_EUNAVAIL, "cannot read '/proc/%d/smaps'", (int)pid);
	if (ls.pagemap >= 0)
		close(ls.pagemap);
	free(ls.addr);
	free(ls.status);
	free(ls.pm);
	fclose(f);
	return rc;
}
