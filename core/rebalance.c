// SPDX-License-Identifier: GPL-3.0-or-later
#include "rebalance.h"

#include "deadline.h"
#include "error.h"
#include "interleave.h"
#include "numa-maps.h"
#include "parse.h"
#include "test-hooks.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef MPOL_MF_MOVE
#define MPOL_MF_MOVE (1 << 1)
#endif
#ifndef MPOL_MF_MOVE_ALL
#define MPOL_MF_MOVE_ALL (1 << 2)
#endif

#define PAGE 4096ULL
#define THP_PAGES 512u /* a PMD-mapped THP on x86-64 and arm64 with 4 KiB pages */

int tt_rb_apportion(uint64_t total, const uint64_t *w, int n, uint64_t *out)
{
	unsigned __int128 sum = 0, given = 0;
	uint64_t *rem;

	if (n < 1)
		return tt_err(TT_EINPUT, "nothing to apportion");
	for (int i = 0; i < n; i++)
		sum += w[i];
	if (!sum) {
		memset(out, 0, (size_t)n * sizeof(*out));
		return 0;
	}
	rem = calloc((size_t)n, sizeof(*rem));
	if (!rem)
		return tt_err(TT_EFAIL, "out of memory");
	for (int i = 0; i < n; i++) {
		unsigned __int128 p = (unsigned __int128)total * w[i];

		out[i] = (uint64_t)(p / sum);
		rem[i] = (uint64_t)(p % sum);
		given += out[i];
	}
	/* Hamilton: the units left, one each, to the largest remainders; an
	 * equal remainder goes to the lower index (the lower node id). */
	for (uint64_t left = total - (uint64_t)given; left; left--) {
		int best = -1;

		for (int i = 0; i < n; i++)
			if (w[i] && rem[i] != UINT64_MAX && (best < 0 || rem[i] > rem[best]))
				best = i;
		out[best]++;
		rem[best] = UINT64_MAX; /* taken */
	}
	free(rem);
	return 0;
}

/* The interleave cycle's slots per node, as u64 indexed like o->node. */
static int cycle(const struct tt_weights *w, struct tt_il_order *o, uint64_t *counts)
{
	int rc = tt_il_order_nodes(o, &w->set, w);

	return rc < 0 ? rc : tt_il_cycle_counts(o, counts);
}

static int apportion_nodes(uint64_t total, const struct tt_weights *w, uint64_t *per_node)
{
	struct tt_il_order *o = malloc(sizeof(*o));
	uint64_t counts[TT_MAX_NODES], out[TT_MAX_NODES];
	int rc = o ? cycle(w, o, counts) : tt_err(TT_EFAIL, "out of memory");

	if (rc == 0)
		rc = tt_rb_apportion(total, counts, o->n, out);
	memset(per_node, 0, TT_MAX_NODES * sizeof(*per_node));
	for (int i = 0; rc == 0 && i < o->n; i++)
		per_node[o->node[i]] = out[i];
	free(o);
	return rc;
}

int tt_rb_shares_bp(const struct tt_weights *w, uint32_t *bp)
{
	uint64_t per[TT_MAX_NODES];
	int rc = apportion_nodes(TT_RB_BP, w, per);

	for (int i = 0; i < TT_MAX_NODES; i++)
		bp[i] = rc == 0 ? (uint32_t)per[i] : 0;
	return rc;
}

int tt_rb_targets(const struct tt_rb_counts *cur, const struct tt_weights *w, uint64_t *want)
{
	return apportion_nodes(cur->total, w, want);
}

double tt_rb_off_bp(const struct tt_rb_counts *cur, const uint64_t *want)
{
	double worst = 0;

	if (!cur->total)
		return 0;
	for (int i = 0; i < TT_MAX_NODES; i++) {
		uint64_t a = cur->pages[i], b = want[i];
		double off = (double)(a > b ? a - b : b - a) * TT_RB_BP / (double)cur->total;

		if (off > worst)
			worst = off;
	}
	return worst;
}

/* The deficit node with the most left (ties: the lower id), -1 for none. */
static int most_wanted(const int64_t *def, const int *nodes, int n)
{
	int best = -1;

	for (int k = 0; k < n; k++)
		if (def[nodes[k]] > 0 && (best < 0 || def[nodes[k]] > def[best]))
			best = nodes[k];
	return best;
}

/* Nodes short of their target, ascending, and how short (signed: a node
 * given more than it lacked goes negative). */
static int deficits(const struct tt_rb_counts *cur, const uint64_t *want, int64_t *def, int *nodes)
{
	int n = 0;

	for (int i = 0; i < TT_MAX_NODES; i++) {
		def[i] = (int64_t)want[i] - (int64_t)cur->pages[i];
		if (def[i] > 0)
			nodes[n++] = i;
	}
	return n;
}

int tt_rb_flows(const struct tt_rb_counts *cur, const uint64_t *want, struct tt_rb_flow *f, int max)
{
	int64_t def[TT_MAX_NODES];
	int nodes[TT_MAX_NODES], nd = deficits(cur, want, def, nodes), nf = 0;

	for (int s = 0; s < TT_MAX_NODES; s++) {
		uint64_t surplus = cur->pages[s] > want[s] ? cur->pages[s] - want[s] : 0;

		while (surplus) {
			int d = most_wanted(def, nodes, nd);
			uint64_t k;

			if (d < 0)
				break;
			k = (uint64_t)def[d] < surplus ? (uint64_t)def[d] : surplus;
			if (nf < max)
				f[nf++] = (struct tt_rb_flow){ .from = s, .to = d, .pages = k };
			def[d] -= (int64_t)k;
			surplus -= k;
		}
	}
	return nf;
}

/* One pass of the shares plan over the units of one kind (huge or not):
 * node s gives x[s] pages, taken evenly over its tot[s] pages of this kind
 * in address order (the unit that takes the moved count closest to the
 * even line x * seen / tot goes), each to the node with most left to
 * receive. */
static uint64_t shares_pass(const struct tt_rb_unit *u, size_t n, bool huge, int64_t *x,
			    int64_t *def, const int *nodes, int nd, int *dest)
{
	uint64_t tot[TT_MAX_NODES], seen[TT_MAX_NODES], moved[TT_MAX_NODES];
	uint64_t planned = 0;

	memset(tot, 0, sizeof(tot));
	memset(seen, 0, sizeof(seen));
	memset(moved, 0, sizeof(moved));
	for (size_t i = 0; i < n; i++)
		if (u[i].huge == huge && u[i].node >= 0 && !u[i].stuck)
			tot[u[i].node] += u[i].pages;
	for (size_t i = 0; i < n; i++) {
		int s = u[i].node, d;
		unsigned __int128 line;

		if (u[i].huge != huge || s < 0 || x[s] <= 0 || dest[i] >= 0 || u[i].stuck)
			continue;
		seen[s] += u[i].pages;
		/* Moved so far should follow x * seen / tot; the unit goes when
		 * that brings the count nearer the line (within half a unit). */
		line = (unsigned __int128)(uint64_t)x[s] * seen[s] * 2;
		if ((unsigned __int128)(moved[s] * 2 + u[i].pages) * tot[s] > line)
			continue;
		d = most_wanted(def, nodes, nd);
		if (d < 0 || (uint64_t)def[d] * 2 < u[i].pages)
			continue;
		dest[i] = d;
		def[d] -= u[i].pages;
		moved[s] += u[i].pages;
		planned += u[i].pages;
	}
	for (int s = 0; s < TT_MAX_NODES; s++)
		x[s] -= (int64_t)moved[s];
	return planned;
}

static int64_t plan_interleave(const struct tt_rb_unit *u, size_t n, const struct tt_weights *w,
			       int *dest)
{
	struct tt_il_order *o = malloc(sizeof(*o));
	int64_t planned = 0;
	int rc = o ? tt_il_order_nodes(o, &w->set, w) : tt_err(TT_EFAIL, "out of memory");

	for (size_t i = 0; rc == 0 && i < n; i++) {
		/* The vma walk's index: private anonymous memory's page number
		 * in units of the folio's size (mm/mempolicy.c interleave_index
		 * via vma->vm_pgoff, which is addr >> PAGE_SHIFT there). */
		unsigned int shift = TT_PAGE_SHIFT;
		int node;

		for (uint32_t p = u[i].pages; p > 1; p >>= 1)
			shift++;
		node = tt_il_vma_node(o, u[i].addr >> shift);
		if (node < 0)
			rc = node;
		else if (node != u[i].node && !u[i].stuck) {
			dest[i] = node;
			planned += u[i].pages;
		}
	}
	free(o);
	return rc < 0 ? rc : planned;
}

int64_t tt_rb_plan(const struct tt_rb_unit *u, size_t n, const uint64_t *want,
		   enum tt_rb_order order, const struct tt_weights *w, int *dest)
{
	struct tt_rb_counts *cur;
	int64_t *def, *x, planned = 0;
	int *nodes, nd;

	for (size_t i = 0; i < n; i++)
		dest[i] = -1;
	if (order == TT_RB_INTERLEAVE)
		return plan_interleave(u, n, w, dest);
	cur = calloc(1, sizeof(*cur));
	def = calloc(TT_MAX_NODES, sizeof(*def));
	x = calloc(TT_MAX_NODES, sizeof(*x));
	nodes = calloc(TT_MAX_NODES, sizeof(*nodes));
	if (!cur || !def || !x || !nodes) {
		planned = tt_err(TT_EFAIL, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		if (u[i].node >= 0) {
			cur->pages[u[i].node] += u[i].pages;
			cur->total += u[i].pages;
		}
	nd = deficits(cur, want, def, nodes);
	for (int s = 0; s < TT_MAX_NODES; s++)
		x[s] = cur->pages[s] > want[s] ? (int64_t)(cur->pages[s] - want[s]) : 0;
	/* Huge pages first (one call moves 512 pages), then 4 KiB pages to
	 * make up what is left. */
	planned += (int64_t)shares_pass(u, n, true, x, def, nodes, nd, dest);
	planned += (int64_t)shares_pass(u, n, false, x, def, nodes, nd, dest);
out:
	free(cur);
	free(def);
	free(x);
	free(nodes);
	return planned;
}

/* cur with the planned moves made. */
static void planned_counts(const struct tt_rb_unit *u, size_t n, const int *dest,
			   struct tt_rb_counts *c)
{
	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < n; i++) {
		int at = dest[i] >= 0 ? dest[i] : u[i].node;

		if (at < 0)
			continue;
		c->pages[at] += u[i].pages;
		c->total += u[i].pages;
	}
}

int tt_rb_fit(const struct tt_rb_unit *u, size_t n, const int *dest, const uint64_t *want,
	      const struct tt_weights *w, struct tt_rb_fit *fit)
{
	struct tt_rb_counts *c = malloc(sizeof(*c));
	int *alt = malloc((n ? n : 1) * sizeof(*alt));
	int64_t planned;
	int rc = 0;

	memset(fit, 0, sizeof(*fit));
	if (!c || !alt) {
		rc = tt_err(TT_EFAIL, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		fit->huge += u[i].huge;
	planned_counts(u, n, dest, c);
	fit->off_bp = tt_rb_off_bp(c, want);
	planned = tt_rb_plan(u, n, want, TT_RB_SHARES, w, alt);
	if (planned < 0) {
		rc = (int)planned;
		goto out;
	}
	planned_counts(u, n, alt, c);
	fit->shares_off_bp = tt_rb_off_bp(c, want);
out:
	free(c);
	free(alt);
	return rc;
}

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

/* move_pages(2) of another process: 0, the pages not moved, or -errno. */
static long move_pages_of(pid_t pid, unsigned long n, void **pages, const int *nodes, int *status,
			  int flags)
{
	long r;

	if (tt_test_hooks && tt_test_hooks->move_pages)
		return tt_test_hooks->move_pages(pid, n, pages, nodes, status, flags);
	r = syscall(SYS_move_pages, pid, n, pages, nodes, status, flags);
	return r < 0 ? -errno : r;
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
		r = move_pages_of(ls->pid, k, ls->addr, NULL, ls->status, 0);
	} else {
		/* The present pages' nodes, spread back to their slots;
		 * the others absent. */
		r = np ? move_pages_of(ls->pid, (unsigned long)np, ls->addr, NULL, ls->status, 0)
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

/* "Uid:\treal\teffective\tsaved\tfs": the first three, how many parsed. */
static int uids(const char *s, unsigned int *uid)
{
	int n = 0;

	while (n < 3) {
		char *end;
		unsigned long v;

		s += strspn(s, " \t");
		if (*s < '0' || *s > '9')
			break;
		errno = 0;
		v = strtoul(s, &end, 10);
		if (errno || v > UINT_MAX || (*end && *end != ' ' && *end != '\t'))
			break;
		uid[n++] = (unsigned int)v;
		s = end;
	}
	return n;
}

int tt_rb_status_read(FILE *f, struct tt_rb_status *st)
{
	char *line = NULL;
	size_t cap = 0;

	memset(st, 0, sizeof(*st));
	while (getline(&line, &cap, f) > 0) {
		tt_chomp(line);
		if (strncmp(line, "Name:", 5) == 0)
			snprintf(st->comm, sizeof(st->comm), "%s",
				 line + 5 + strspn(line + 5, " \t"));
		else if (strncmp(line, "Uid:", 4) == 0)
			st->nuid = uids(line + 4, st->uid);
		else if (strncmp(line, "VmSize:", 7) == 0)
			st->vm = true;
		else if (strncmp(line, "Kthread:", 8) == 0) {
			st->kthread = strcmp(line + 8 + strspn(line + 8, " \t"), "1") == 0;
			st->has_kthread = true;
		} else if (strncmp(line, "State:", 6) == 0) {
			char c = line[6 + strspn(line + 6, " \t")];

			st->zombie = c == 'Z' || c == 'X';
		} else if (strncmp(line, "Mems_allowed_list:", 18) == 0)
			st->has_mems = tt_parse_list(line + 18 + strspn(line + 18, " \t"),
						     st->mems.bits, TT_MAX_NODES) == 0 &&
				       tt_nodemask_weight(&st->mems);
	}
	free(line);
	return ferror(f) ? TT_EUNAVAIL : 0;
}

/* Our effective capabilities (capget: no file to read). */
static void our_caps(bool *ptrace, bool *nice)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];

	*ptrace = *nice = false;
	if (syscall(SYS_capget, &h, d) < 0)
		return;
	*ptrace = d[0].effective & (1u << CAP_SYS_PTRACE);
	*nice = d[0].effective & (1u << CAP_SYS_NICE);
}

/* The live process pinned (p->ref), in a pid namespace whose pids are
 * ours. In a pid namespace whose /proc is another's (the host's, mounted
 * before unshare), /proc/PID is one process and move_pages(PID) the process
 * of that number here: nothing read would be of what moves. */
static int rb_pin(pid_t pid, const char *path, struct tt_rb_proc *p)
{
	pid_t self;

	if (!tt_proc_ns_ours(&self)) {
		tt_err(TT_EUNAVAIL,
		       "'/proc' is not of this pid namespace (/proc/self is pid %d, this process "
		       "is pid %d): its process %d is not the one move_pages would reach",
		       (int)self, (int)getpid(), (int)pid);
		tt_err_hint("mount a /proc of this namespace (unshare --pid --fork --mount-proc)");
		return TT_EUNAVAIL;
	}
	if (tt_proc_ref_open(pid, &p->ref) < 0)
		return tt_err(TT_EINPUT, "no process %d ('%s' does not exist)", (int)pid, path);
	return 0;
}

/* A weighted node outside the process's cpuset (Mems_allowed_list):
 * move_pages refuses to put a page there (mm/migrate.c do_pages_move:
 * EACCES for the whole call once it meets such a node), so the plan
 * could never be met. */
static int rb_mems_check(pid_t pid, const char *comm, const struct tt_rb_status *st,
			 const struct tt_weights *w)
{
	char allowed[1024];
	int id;

	if (!st->has_mems)
		return 0;
	tt_bit_format_list(st->mems.bits, TT_MAX_NODES, allowed, sizeof(allowed));
	tt_nodemask_for_each (id, &w->set)
		if (!tt_nodemask_test(&st->mems, id)) {
			tt_err(TT_EINPUT,
			       "node %d is not one process %d ('%s') may use: its cpuset allows "
			       "nodes %s (Mems_allowed_list), and the kernel moves no page "
			       "elsewhere (EACCES)",
			       id, (int)pid, comm, allowed);
			tt_err_hint("weights over nodes %s, or the node added to its cgroup's "
				    "cpuset.mems",
				    allowed);
			return TT_EINPUT;
		}
	return 0;
}

int tt_rb_check(const struct tt_sysfs *s, pid_t pid, const struct tt_weights *w,
		const struct tt_topo *t, bool move_all, struct tt_rb_proc *p)
{
	char path[PATH_MAX], nodes[1024];
	struct tt_rb_status st;
	int id, rc;
	long r;
	FILE *f;

	memset(p, 0, sizeof(*p));
	p->ref = (struct tt_proc_ref){ .pid = pid, .pidfd = -1, .starttime = -1 };
	tt_bit_format_list(t->mem_nodes.bits, TT_MAX_NODES, nodes, sizeof(nodes));
	tt_nodemask_for_each (id, &w->set)
		if (!tt_nodemask_test(&t->mem_nodes, id)) {
			tt_err(TT_EINPUT, "node %d is not an online memory node", id);
			tt_err_hint("the memory nodes of this machine are %s", nodes);
			return TT_EINPUT;
		}
	if (pid <= 0)
		return tt_err(TT_EINPUT, "pid '%d' is not a process id", (int)pid);
	if (tt_sysfs_path(s, path, sizeof(path), "/proc/%d/status", (int)pid) < 0)
		return TT_EINPUT;
	/* Bound first, then read: every status line below, and every later
	 * query and move, is of the process pinned (a pid reused between a
	 * read and the pin would have had another's status checked). */
	if (s->live) {
		rc = rb_pin(pid, path, p);
		if (rc < 0)
			return rc;
	}
	if (!(f = fopen(path, "re"))) {
		if (errno == ENOENT)
			return tt_err(TT_EINPUT, "no process %d ('%s' does not exist)", (int)pid,
				      path);
		return tt_err_sys(TT_EUNAVAIL, errno, "cannot read '%s'", path);
	}
	rc = tt_rb_status_read(f, &st);
	fclose(f);
	if (rc < 0)
		return tt_err(TT_EUNAVAIL, "cannot read '%s'", path);
	if (s->live && !tt_proc_ref_alive(&p->ref))
		return tt_err(TT_EINPUT, "no process %d (it exited while '%s' was read)", (int)pid,
			      path);
	snprintf(p->comm, sizeof(p->comm), "%s", st.comm);
	p->uid = st.uid[0];
	/* A zombie has no mm either (exit_mm ran): it had memory, now gone,
	 * and was called a kernel thread. */
	if (st.zombie && !st.kthread)
		return tt_err(TT_EINPUT,
			      "process %d ('%s') has exited (a zombie its parent has not reaped): "
			      "it has no memory left to move",
			      (int)pid, p->comm);
	/* A kernel thread has no mm: Kthread: 1 since Linux 6.0, before it only
	 * no Vm* lines. A process caught exiting has none either once exit_mm
	 * ran, before it is a zombie: with Kthread: 0 it is that, and was
	 * called a kernel thread (under QEMU, killed 0.5 s into a move). */
	p->kernel_thread = st.has_kthread ? st.kthread : !st.vm;
	if (!p->kernel_thread && !st.vm)
		return tt_err(TT_EINPUT,
			      "process %d ('%s') is exiting (its memory is already gone): nothing "
			      "moved",
			      (int)pid, p->comm);
	if (p->kernel_thread)
		return tt_err(TT_EINPUT,
			      "process %d ('%s') is a kernel thread: it has no user memory to "
			      "move",
			      (int)pid, p->comm);
	rc = rb_mems_check(pid, p->comm, &st, w);
	if (rc < 0)
		return rc;
	p->same_user = st.nuid == 3 && st.uid[0] == getuid() && st.uid[1] == getuid() &&
		       st.uid[2] == getuid();
	our_caps(&p->cap_ptrace, &p->cap_nice);
	if (move_all && !p->cap_nice)
		return tt_err(TT_EUNAVAIL,
			      "moving pages shared with other processes (MPOL_MF_MOVE_ALL) needs "
			      "CAP_SYS_NICE");
	if (!s->live)
		return 0; /* a fixture's process: its figures only, nothing to move */
	/* The kernel's own check, with nothing moved: move_pages of no pages
	 * runs find_mm_struct (ptrace_may_access with PTRACE_MODE_READ_REALCREDS
	 * since Linux 4.13, commit 197e7e521384: the same user or
	 * CAP_SYS_PTRACE) and returns. */
	r = move_pages_of(pid, 0, NULL, NULL, NULL, 0);
	if (r == -ESRCH)
		return tt_err(TT_EINPUT, "no process %d", (int)pid);
	if (r == -EINVAL)
		return tt_err(TT_EINPUT, "process %d ('%s') has no memory of its own to move",
			      (int)pid, p->comm);
	if (r == -EPERM || r == -EACCES) {
		tt_err(TT_EUNAVAIL,
		       "not permitted to move the pages of process %d ('%s', uid %u): the kernel "
		       "refused (%s)",
		       (int)pid, p->comm, p->uid, strerror((int)-r));
		/* Root refused has CAP_SYS_PTRACE in its own namespace: what
		 * is left is a namespace or a security module. */
		if (geteuid() == 0)
			tt_err_hint("move_pages needs CAP_SYS_PTRACE over the process: as root "
				    "here, it is refused by a security module (Yama's "
				    "kernel.yama.ptrace_scope 3, SELinux, AppArmor) or because "
				    "the process is outside this user namespace");
		else
			tt_err_hint("move_pages needs the process's own user or CAP_SYS_PTRACE "
				    "(and CAP_SYS_NICE to move pages it shares); run as root or "
				    "as uid %u",
				    p->uid);
		return TT_EUNAVAIL;
	}
	if (r < 0)
		return tt_err_sys(r == -ENOSYS ? TT_EUNAVAIL : TT_EFAIL, (int)-r,
				  "move_pages of process %d", (int)pid);
	return 0;
}

/* Status not written by the kernel: move_pages stores a batch's statuses
 * one run of pages to the same node at a time, and stores none for the run
 * that failed (ENOMEM) or the runs after one that stopped short (a count
 * of pages not moved returned). */
#define UNSET INT_MIN

/* The nodes among nodes[n] that pid's cpuset does not allow now (its
 * /proc/PID/status Mems_allowed_list), into out; none when it cannot be
 * read. */
static void forbidden_nodes(pid_t pid, const int *nodes, uint32_t n, struct tt_nodemask *out)
{
	struct tt_rb_status st;
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (!(f = fopen(path, "re")))
		return;
	if (tt_rb_status_read(f, &st) == 0 && st.has_mems)
		for (uint32_t j = 0; j < n; j++)
			if (nodes[j] >= 0 && !tt_nodemask_test(&st.mems, nodes[j]))
				tt_bit_set(out->bits, (unsigned int)nodes[j]);
	fclose(f);
}

/* Why move_pages failed for the whole call: the process gone or exiting
 * (ESRCH once reaped, EINVAL while its mm is gone), no longer ours to move
 * (EPERM: find_mm_struct's ptrace check, it took other credentials;
 * EACCES: a target node its cpuset no longer allows, do_pages_move's
 * check, which nodes[n], the batch's targets not yet stored, are read
 * against, or else a security module's security_task_movememory), else an
 * error. */
static int call_failed(const struct tt_proc_ref *ref, long r, const int *nodes, uint32_t n,
		       struct tt_rb_result *res)
{
	if (!tt_proc_ref_alive(ref) || !tt_proc_has_mm(ref->pid)) {
		res->gone = true;
		return 0;
	}
	if (r == -EPERM || r == -EACCES) {
		res->unreachable = true;
		res->unreachable_errno = (int)-r;
		if (r == -EACCES)
			forbidden_nodes(ref->pid, nodes, n, &res->forbidden);
		/* The status read was of the process pinned only if it is
		 * still there. */
		if (!tt_proc_ref_alive(ref)) {
			memset(&res->forbidden, 0, sizeof(res->forbidden));
			res->gone = true;
		}
		return 0;
	}
	return tt_err_sys(TT_EFAIL, (int)-r, "move_pages of process %d", (int)ref->pid);
}

static int failed_add(struct tt_rb_failed *f, uint64_t addr, uint32_t pages, int status)
{
	if (!f)
		return 0;
	if (f->n == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 256;
		struct tt_rb_fail *v = realloc(f->v, cap * sizeof(*v));

		if (!v)
			return tt_err(TT_EFAIL, "out of memory");
		f->v = v;
		f->cap = cap;
	}
	f->v[f->n++] = (struct tt_rb_fail){
		.addr = addr, .seq = f->seq++, .pages = pages, .status = status
	};
	return 0;
}

static int by_addr_seq(const void *a, const void *b)
{
	const struct tt_rb_fail *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Sorted by address, each address's last outcome alone, the moved ones
 * dropped. */
static void failed_settle(struct tt_rb_failed *f)
{
	size_t k = 0;

	if (!f || !f->n)
		return;
	qsort(f->v, f->n, sizeof(*f->v), by_addr_seq);
	for (size_t i = 0; i < f->n; i++) {
		if (i + 1 < f->n && f->v[i + 1].addr == f->v[i].addr)
			continue;
		if (f->v[i].status != 0)
			f->v[k++] = f->v[i];
	}
	f->n = k;
}

void tt_rb_failed_release(struct tt_rb_failed *f)
{
	free(f->v);
	memset(f, 0, sizeof(*f));
}

void tt_rb_failed_mark(const struct tt_rb_failed *f, struct tt_rb_unit *u, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct tt_rb_fail key = { .addr = u[i].addr }, *hit;
		size_t lo = 0, hi = f->n;

		/* The first record at or above the address (settled: one each). */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (f->v[mid].addr < key.addr)
				lo = mid + 1;
			else
				hi = mid;
		}
		hit = lo < f->n && f->v[lo].addr == key.addr ? &f->v[lo] : NULL;
		u[i].stuck = hit && hit->status != -EBUSY;
	}
}

static void count_status(struct tt_rb_result *res, int status, uint32_t pages)
{
	if (status == -EBUSY)
		res->ebusy += pages;
	else if (status == -EFAULT)
		res->efault += pages;
	else if (status == -ENOENT)
		res->enoent += pages;
	else if (status == -EACCES)
		res->eacces += pages;
	else if (status == -ENOMEM)
		res->enomem += pages;
	else
		res->other += pages;
}

void tt_rb_failed_count(const struct tt_rb_failed *f, struct tt_rb_result *res)
{
	res->ebusy = res->efault = res->enoent = res->eacces = res->enomem = res->other = 0;
	for (size_t i = 0; i < f->n; i++)
		count_status(res, f->v[i].status, f->v[i].pages);
}

/* One batch: its units' addresses, target nodes and sizes, sorted by target
 * node (stable), so that each node is one run of the kernel's and a run
 * that fails leaves the runs after it to send again. */
struct slot {
	uint64_t addr;
	uint32_t pages;
	int node, pos;
};

struct batch {
	struct slot *slot;
	void **addr;
	int *nodes, *status, *where;
	uint32_t k;
};

static int by_node_pos(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;

	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static int outcome(struct tt_rb_result *res, struct tt_rb_failed *failed, const struct slot *s,
		   int status)
{
	if (status == s->node) {
		res->moved += s->pages;
		return failed_add(failed, s->addr, s->pages, 0);
	}
	count_status(res, status, s->pages);
	return failed_add(failed, s->addr, s->pages, status);
}

/* Sends a batch, page by page counted as it ended. move_pages stores the
 * statuses of one run of pages to the same node at a time; a run that the
 * target node has no room for (the call returns -ENOMEM) or that migrated
 * only in part (it returns the count not moved) stores none, and the runs
 * after it are not tried. So: that run's pages are asked where they are
 * now (moved, or not: ENOMEM, the node marked full, or other), and the
 * runs after it are sent again. At most a call per node of the batch. */
static int send_batch(const struct tt_proc_ref *ref, struct batch *b, int flags,
		      struct tt_rb_result *res, struct tt_rb_failed *failed)
{
	uint32_t off = 0;
	int rc = 0;

	qsort(b->slot, b->k, sizeof(*b->slot), by_node_pos);
	for (uint32_t j = 0; j < b->k; j++) {
		b->addr[j] = (void *)(uintptr_t)b->slot[j].addr;
		b->nodes[j] = b->slot[j].node;
	}
	while (off < b->k && rc == 0) {
		uint32_t j, e;
		long r;

		if (tt_bit_test(res->full.bits, (unsigned int)b->nodes[off])) {
			rc = outcome(res, failed, &b->slot[off++], -ENOMEM);
			continue;
		}
		/* Only while it is the process planned: alive before the call
		 * and after it, it held its pid throughout. */
		if (!tt_proc_ref_alive(ref)) {
			res->gone = true;
			break;
		}
		for (j = off; j < b->k; j++)
			b->status[j] = UNSET;
		r = move_pages_of(ref->pid, b->k - off, b->addr + off, b->nodes + off,
				  b->status + off, flags);
		res->calls++;
		/* The runs the kernel stored before it failed are counted
		 * whatever the failure (none when the process is gone). */
		for (j = off; j < b->k && b->status[j] != UNSET && rc == 0; j++)
			rc = outcome(res, failed, &b->slot[j], b->status[j]);
		if (r < 0 && r != -ENOMEM)
			return rc < 0 ? rc : call_failed(ref, r, b->nodes + j, b->k - j, res);
		off = j;
		if (off == b->k || rc < 0)
			break;
		/* The run that stopped it: where its pages are now. */
		for (e = off; e < b->k && b->nodes[e] == b->nodes[off]; e++)
			;
		if (move_pages_of(ref->pid, e - off, b->addr + off, NULL, b->where + off, 0) < 0)
			for (j = off; j < e; j++)
				b->where[j] = UNSET;
		if (r == -ENOMEM)
			tt_bit_set(res->full.bits, (unsigned int)b->nodes[off]);
		/* A page of the run the kernel could not take (shared,
		 * unmapped) has its status stored at once; the others by where
		 * they are now. */
		for (j = off; j < e && rc == 0; j++)
			rc = outcome(res, failed, &b->slot[j],
				     b->status[j] != UNSET	  ? b->status[j]
				     : b->where[j] == b->nodes[j] ? b->nodes[j]
				     : r == -ENOMEM		  ? -ENOMEM
								  : -EAGAIN);
		off = e;
	}
	if (rc == 0 && !res->gone && !tt_proc_ref_alive(ref))
		res->gone = true;
	return rc;
}

/* A batch's arrays for up to size units; 0 or a negative tt_status. */
static int batch_alloc(struct batch *b, uint32_t size)
{
	b->slot = malloc(size * sizeof(*b->slot));
	b->addr = malloc(size * sizeof(*b->addr));
	b->nodes = malloc(size * sizeof(*b->nodes));
	b->status = malloc(size * sizeof(*b->status));
	b->where = malloc(size * sizeof(*b->where));
	if (!b->slot || !b->addr || !b->nodes || !b->status || !b->where)
		return tt_err(TT_EFAIL, "out of memory");
	return 0;
}

static void batch_free(struct batch *b)
{
	free(b->slot);
	free(b->addr);
	free(b->nodes);
	free(b->status);
	free(b->where);
}

/* With a rate, sleeps until the bytes sent since t0 are due. At most a
 * unit's worth at the least rate ahead: a 1 GiB page at 0.1 MiB/s, under
 * 3 hours. */
static void pace(double rate_bytes_s, double sent, double t0)
{
	double ahead = sent / rate_bytes_s - (tt_mono_s() - t0);

	if (ahead > 0) {
		struct timespec ts = { .tv_sec = (time_t)ahead,
				       .tv_nsec = (long)((ahead - (double)(time_t)ahead) * 1e9) };

		while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
			;
	}
}

/* The figures so far to cfg->progress: whether it asks to stop. */
static bool progress_stop(const struct tt_rb_cfg *cfg, const struct tt_rb_result *res)
{
	struct tt_rb_progress pr = {
		.moved_pages = res->moved,
		.planned_pages = res->planned,
		.failed_pages = res->ebusy + res->efault + res->enoent + res->eacces + res->enomem +
				res->other,
		.elapsed_s = res->elapsed_s,
	};

	return cfg->progress(cfg->ctx, &pr) != 0;
}

int tt_rb_move(const struct tt_proc_ref *ref, const struct tt_rb_unit *u, size_t n, const int *dest,
	       const struct tt_rb_cfg *cfg, struct tt_rb_result *res)
{
	uint32_t batch = cfg->batch ? cfg->batch : 1;
	struct batch b = { 0 };
	double t0 = tt_mono_s(), sent = 0;
	int flags = MPOL_MF_MOVE | (cfg->move_all ? MPOL_MF_MOVE_ALL : 0), rc = 0;

	memset(res, 0, sizeof(*res));
	for (size_t i = 0; i < n; i++)
		res->planned += dest[i] >= 0 ? u[i].pages : 0;
	if (cfg->rate_bytes_s != 0 && !(cfg->rate_bytes_s >= TT_RB_RATE_MIN_BYTES_S &&
					cfg->rate_bytes_s <= TT_RB_RATE_MAX_BYTES_S)) {
		rc = tt_err(TT_EINPUT, "rate %g bytes/s out of range (%g-%g)", cfg->rate_bytes_s,
			    TT_RB_RATE_MIN_BYTES_S, TT_RB_RATE_MAX_BYTES_S);
		goto out;
	}
	if ((rc = batch_alloc(&b, batch)) < 0)
		goto out;
	for (size_t i = 0; i < n && rc == 0;) {
		uint64_t bytes = 0;

		/* A batch: up to cfg->batch units, and with a rate, no more
		 * than a tenth of a second's worth (at least one unit), so the
		 * pace is even and a stop comes soon. A node found full gets
		 * nothing more: its pages are counted as the kernel said. */
		for (b.k = 0; i < n && b.k < batch && rc == 0; i++) {
			if (dest[i] < 0)
				continue;
			if (tt_bit_test(res->full.bits, (unsigned int)dest[i])) {
				res->enomem += u[i].pages;
				rc = failed_add(cfg->failed, u[i].addr, u[i].pages, -ENOMEM);
				continue;
			}
			if (b.k && cfg->rate_bytes_s > 0 &&
			    (double)(bytes + u[i].pages * PAGE) > cfg->rate_bytes_s / 10)
				break;
			b.slot[b.k] = (struct slot){ .addr = u[i].addr,
						     .pages = u[i].pages,
						     .node = dest[i],
						     .pos = (int)b.k };
			bytes += u[i].pages * PAGE;
			b.k++;
		}
		if (!b.k || rc < 0)
			break;
		rc = send_batch(ref, &b, flags, res, cfg->failed);
		if (rc < 0 || res->gone || res->unreachable)
			break;
		sent += (double)bytes;
		if (cfg->rate_bytes_s > 0)
			pace(cfg->rate_bytes_s, sent, t0);
		res->elapsed_s = tt_mono_s() - t0;
		if (cfg->progress && progress_stop(cfg, res)) {
			res->stopped = true;
			break;
		}
	}
	res->elapsed_s = tt_mono_s() - t0;
	failed_settle(cfg->failed);
out:
	batch_free(&b);
	return rc;
}

void tt_rb_damon(const struct tt_sysfs *s, const char *release, char *buf, size_t size)
{
	unsigned int major = 0, minor = 0;

	buf[0] = '\0';
	if (!tt_sysfs_exists(s, "/sys/kernel/mm/damon/admin"))
		return;
	if (release)
		sscanf(release, "%u.%u", &major, &minor);
	/* The dests directory (schemes/<N>/dests/nr_dests, dests/<D>/id and
	 * weight) came with mm/damon/sysfs-schemes.c commit 2cd0bf85a203
	 * (July 2025, for Linux 6.17). */
	if (major > 6 || (major == 6 && minor >= 17))
		snprintf(buf, size,
			 "DAMON is here and may offer weighted migration (a migrate_hot or "
			 "migrate_cold scheme's dests/N/id and weight; export --format shares "
			 "gives the weights): it moves regions by access, continuously; "
			 "rebalance moves this process's pages once, all to the shares");
	else
		snprintf(buf, size,
			 "DAMON is here but not its weighted migration (a scheme's dests, Linux "
			 "6.17+)");
}

void tt_rb_proc_release(struct tt_rb_proc *p)
{
	tt_proc_ref_close(&p->ref);
}
