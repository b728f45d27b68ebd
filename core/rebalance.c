// SPDX-License-Identifier: GPL-3.0-or-later
#include "rebalance.h"

#include "error.h"
#include "interleave.h"
#include "numa-maps.h"
#include "parse.h"

#include <errno.h>
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
		if (u[i].huge == huge && u[i].node >= 0)
			tot[u[i].node] += u[i].pages;
	for (size_t i = 0; i < n; i++) {
		int s = u[i].node, d;
		unsigned __int128 line;

		if (u[i].huge != huge || s < 0 || x[s] <= 0 || dest[i] >= 0)
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
		else if (node != u[i].node) {
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

/* A numa_maps line of private anonymous memory: anon= pages and no file
 * behind it (shmem, memfd and hugetlbfs show file=). */
static bool anon_line(const char *line)
{
	return strstr(line, " anon=") && !strstr(line, " file=");
}

int tt_rb_scan_numa_maps(const struct tt_sysfs *s, pid_t pid, struct tt_rb_scan *sc)
{
	char path[PATH_MAX], *line = NULL;
	size_t cap = 0;
	FILE *f;
	int rc = 0;

	memset(sc, 0, sizeof(*sc));
	if (tt_sysfs_path(s, path, sizeof(path), "/proc/%d/numa_maps", (int)pid) < 0)
		return TT_EINPUT;
	if (!(f = fopen(path, "re")))
		return tt_err_sys(errno == ENOENT ? TT_EINPUT : TT_EUNAVAIL, errno,
				  "cannot read '%s'", path);
	while (getline(&line, &cap, f) > 0) {
		struct tt_nmap_vma v;
		int id;

		tt_chomp(line);
		if (!anon_line(line) || tt_numa_maps_line(line, &v) < 0) {
			sc->skipped_vmas++;
			continue;
		}
		sc->vmas++;
		tt_nodemask_for_each (id, &v.resident) {
			uint64_t p = v.pages[id] * (v.page_bytes / PAGE);

			sc->cur.pages[id] += p;
			sc->cur.total += p;
			if (p)
				tt_bit_set(sc->cur.nodes.bits, (unsigned int)id);
		}
	}
	if (ferror(f))
		rc = tt_err(TT_EUNAVAIL, "cannot read '%s'", path);
	free(line);
	fclose(f);
	return rc;
}

struct vma {
	uint64_t start, end;
	uint64_t page_bytes; /* KernelPageSize */
	uint64_t thp_bytes;  /* AnonHugePages */
	uint64_t rss_bytes;  /* Rss */
	bool take;
};

/* "start-end perms offset dev inode [path]": private, readable, anonymous
 * (no path, the heap, a stack or a named anonymous region). The others
 * are left: file pages are shared page cache, [vdso] and [vvar] the
 * kernel's. */
static int vma_header(const char *line, struct vma *v)
{
	char perms[8] = "", path[64] = "";
	unsigned long long a, b, ino;

	if (sscanf(line, "%llx-%llx %7s %*s %*s %llu %63s", &a, &b, perms, &ino, path) < 4)
		return TT_EINPUT;
	*v = (struct vma){ .start = a, .end = b, .page_bytes = PAGE };
	v->take = perms[0] == 'r' && perms[3] == 'p' && ino == 0 &&
		  (!path[0] || strcmp(path, "[heap]") == 0 || strncmp(path, "[stack", 6) == 0 ||
		   strncmp(path, "[anon:", 6) == 0);
	return 0;
}

/* move_pages(2) of another process: 0 or -errno. */
static long move_pages_of(pid_t pid, unsigned long n, void **pages, const int *nodes, int *status,
			  int flags)
{
	long r = syscall(SYS_move_pages, pid, n, pages, nodes, status, flags);

	return r < 0 ? -errno : r;
}

enum { QUERY_BATCH = 1 << 14 };

/* A VMA whose pages are worth a query each: some resident, and not a vast
 * sparse reservation (ASan's shadow, a NORESERVE arena of terabytes) where a
 * query per page would take hours for a few resident ones: over 1 GiB with
 * under 1/64 of it resident is left alone and counted as skipped. */
static bool worth(const struct vma *v)
{
	uint64_t size = v->end - v->start;

	return v->take && v->rss_bytes && !(size > (1ULL << 30) && v->rss_bytes < size / 64);
}

/* Each page of v by a query; a THP-sized block all on one node in a VMA
 * with AnonHugePages becomes one unit. */
static int scan_vma(struct tt_rb_scan *sc, pid_t pid, const struct vma *v, void **addr, int *status)
{
	uint64_t step = v->page_bytes < PAGE ? PAGE : v->page_bytes;
	uint32_t per = (uint32_t)(step / PAGE);
	const uint64_t thp = THP_PAGES * PAGE;

	for (uint64_t a = v->start; a < v->end;) {
		/* A batch ends on a 2 MiB boundary, so no THP straddles two. */
		size_t k = 0, lim = per == 1 ? QUERY_BATCH - (a / PAGE) % THP_PAGES : QUERY_BATCH;
		long r;

		while (k < lim && a + k * step < v->end) {
			addr[k] = (void *)(uintptr_t)(a + k * step);
			k++;
		}
		r = move_pages_of(pid, k, addr, NULL, status, 0);
		if (r < 0)
			return tt_err_sys(r == -ESRCH ? TT_EUNAVAIL : TT_EFAIL, (int)-r,
					  "move_pages query of process %d", (int)pid);
		for (size_t i = 0; i < k;) {
			uint64_t at = a + i * step;
			int rc;

			if (status[i] < 0 || status[i] >= TT_MAX_NODES) {
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

				while (j < THP_PAGES && status[i + j] == status[i])
					j++;
				if (j == THP_PAGES) {
					rc = add_unit(sc, at, THP_PAGES, status[i], true);
					if (rc < 0)
						return rc;
					i += THP_PAGES;
					continue;
				}
			}
			rc = add_unit(sc, at, per, status[i], per > 1);
			if (rc < 0)
				return rc;
			i++;
		}
		a += k * step;
	}
	return 0;
}

/* The VMA whose last smaps line was read: counted, and its pages queried
 * when it is worth it and query says so (not after an error). */
static int vma_done(struct tt_rb_scan *sc, pid_t pid, const struct vma *v, void **addr, int *status,
		    bool query)
{
	bool take = worth(v);

	sc->vmas += take;
	sc->skipped_vmas += !take && (!v->take || v->rss_bytes);
	return take && query ? scan_vma(sc, pid, v, addr, status) : 0;
}

/* One "Key: value" line of a VMA's smaps entry, the keys the scan uses. */
static void vma_field(const char *line, struct vma *v)
{
	uint64_t kb;

	if (sscanf(line, "KernelPageSize: %" SCNu64 " kB", &kb) == 1)
		v->page_bytes = kb * 1024;
	else if (sscanf(line, "AnonHugePages: %" SCNu64 " kB", &kb) == 1)
		v->thp_bytes = kb * 1024;
	else if (sscanf(line, "Rss: %" SCNu64 " kB", &kb) == 1)
		v->rss_bytes = kb * 1024;
}

int tt_rb_scan_live(const struct tt_sysfs *s, pid_t pid, struct tt_rb_scan *sc)
{
	char path[PATH_MAX], *line = NULL;
	size_t cap = 0;
	void **addr = NULL;
	int *status = NULL, rc = 0;
	struct vma v = { 0 };
	bool have = false;
	FILE *f;

	memset(sc, 0, sizeof(*sc));
	sc->per_page = true;
	if (tt_sysfs_path(s, path, sizeof(path), "/proc/%d/smaps", (int)pid) < 0)
		return TT_EINPUT;
	if (!(f = fopen(path, "re")))
		return tt_err_sys(errno == ENOENT ? TT_EINPUT : TT_EUNAVAIL, errno,
				  "cannot read '%s'", path);
	addr = malloc(QUERY_BATCH * sizeof(*addr));
	status = malloc(QUERY_BATCH * sizeof(*status));
	if (!addr || !status)
		rc = tt_err(TT_EFAIL, "out of memory");
	/* A VMA's header line, then "Key: value" lines; its pages are
	 * queried once its last line (the next header, or the end) is read. */
	while (rc == 0 && getline(&line, &cap, f) > 0) {
		struct vma next;

		tt_chomp(line);
		if (!(line[0] >= '0' && line[0] <= '9') && !(line[0] >= 'a' && line[0] <= 'f')) {
			vma_field(line, &v);
			continue;
		}
		if (vma_header(line, &next) < 0)
			continue;
		if (have)
			rc = vma_done(sc, pid, &v, addr, status, true);
		v = next;
		have = true;
	}
	if (have) {
		int last = vma_done(sc, pid, &v, addr, status, rc == 0);

		rc = rc < 0 ? rc : last;
	}
	if (rc == 0 && ferror(f))
		rc = tt_err(TT_EUNAVAIL, "cannot read '%s'", path);
	free(line);
	free(addr);
	free(status);
	fclose(f);
	return rc;
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

int tt_rb_check(const struct tt_sysfs *s, pid_t pid, const struct tt_weights *w,
		const struct tt_topo *t, bool move_all, struct tt_rb_proc *p)
{
	char path[PATH_MAX], *line = NULL, nodes[1024];
	size_t cap = 0;
	unsigned int uid[4] = { 0 };
	bool vm = false, kthread = false, zombie = false;
	int id, nuid = 0;
	long r;
	FILE *f;

	memset(p, 0, sizeof(*p));
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
	if (!(f = fopen(path, "re"))) {
		if (errno == ENOENT)
			return tt_err(TT_EINPUT, "no process %d ('%s' does not exist)", (int)pid,
				      path);
		return tt_err_sys(TT_EUNAVAIL, errno, "cannot read '%s'", path);
	}
	while (getline(&line, &cap, f) > 0) {
		tt_chomp(line);
		if (strncmp(line, "Name:", 5) == 0)
			snprintf(p->comm, sizeof(p->comm), "%s",
				 line + 5 + strspn(line + 5, " \t"));
		else if (strncmp(line, "Uid:", 4) == 0)
			nuid = sscanf(line + 4, "%u %u %u %u", &uid[0], &uid[1], &uid[2], &uid[3]);
		else if (strncmp(line, "VmSize:", 7) == 0)
			vm = true;
		else if (strncmp(line, "Kthread:", 8) == 0)
			kthread = atoi(line + 8) == 1;
		else if (strncmp(line, "State:", 6) == 0)
			zombie = line[6 + strspn(line + 6, " \t")] == 'Z';
	}
	free(line);
	fclose(f);
	p->uid = uid[0];
	/* A zombie has no mm either (exit_mm ran): it had memory, now gone,
	 * and was called a kernel thread. */
	if (zombie && !kthread)
		return tt_err(TT_EINPUT,
			      "process %d ('%s') has exited (a zombie its parent has not reaped): "
			      "it has no memory left to move",
			      (int)pid, p->comm);
	/* A kernel thread has no mm: no Vm* lines in its status (and Kthread: 1
	 * since Linux 6.0). */
	p->kernel_thread = kthread || !vm;
	if (p->kernel_thread)
		return tt_err(TT_EINPUT,
			      "process %d ('%s') is a kernel thread: it has no user memory to "
			      "move",
			      (int)pid, p->comm);
	p->same_user = nuid >= 3 && uid[0] == getuid() && uid[1] == getuid() && uid[2] == getuid();
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

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void count_status(struct tt_rb_result *res, int status, int want, uint32_t pages)
{
	if (status == want)
		res->moved += pages;
	else if (status == -EBUSY)
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

int tt_rb_move(pid_t pid, const struct tt_rb_unit *u, size_t n, const int *dest,
	       const struct tt_rb_cfg *cfg, struct tt_rb_result *res)
{
	uint32_t batch = cfg->batch ? cfg->batch : 1;
	void **addr = malloc(batch * sizeof(*addr));
	int *nodes = malloc(batch * sizeof(*nodes)), *status = malloc(batch * sizeof(*status));
	uint32_t *pages = malloc(batch * sizeof(*pages));
	double t0 = now_s(), sent = 0;
	int flags = MPOL_MF_MOVE | (cfg->move_all ? MPOL_MF_MOVE_ALL : 0), rc = 0;

	memset(res, 0, sizeof(*res));
	for (size_t i = 0; i < n; i++)
		res->planned += dest[i] >= 0 ? u[i].pages : 0;
	if (!addr || !nodes || !status || !pages) {
		rc = tt_err(TT_EFAIL, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n;) {
		uint32_t k = 0;
		uint64_t bytes = 0;
		long r;

		/* A batch: up to cfg->batch units, and with a rate, no more
		 * than a tenth of a second's worth (at least one unit), so the
		 * pace is even and a stop comes soon. */
		for (; i < n && k < batch; i++) {
			if (dest[i] < 0)
				continue;
			if (k && cfg->rate_bytes_s > 0 &&
			    (double)(bytes + u[i].pages * PAGE) > cfg->rate_bytes_s / 10)
				break;
			addr[k] = (void *)(uintptr_t)u[i].addr;
			nodes[k] = dest[i];
			pages[k] = u[i].pages;
			bytes += u[i].pages * PAGE;
			k++;
		}
		if (!k)
			break;
		r = move_pages_of(pid, k, addr, nodes, status, flags);
		res->calls++;
		if (r == -ESRCH) {
			res->gone = true;
			break;
		}
		if (r < 0) {
			rc = tt_err_sys(TT_EFAIL, (int)-r, "move_pages of %u pages of process %d",
					k, (int)pid);
			break;
		}
		for (uint32_t j = 0; j < k; j++)
			count_status(res, status[j], nodes[j], pages[j]);
		sent += (double)bytes;
		if (cfg->rate_bytes_s > 0) {
			double ahead = sent / cfg->rate_bytes_s - (now_s() - t0);

			if (ahead > 0) {
				struct timespec ts = {
					.tv_sec = (time_t)ahead,
					.tv_nsec = (long)((ahead - (double)(time_t)ahead) * 1e9)
				};

				while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
					;
			}
		}
		res->elapsed_s = now_s() - t0;
		if (cfg->progress) {
			struct tt_rb_progress pr = {
				.moved_pages = res->moved,
				.planned_pages = res->planned,
				.failed_pages = res->ebusy + res->efault + res->enoent +
						res->eacces + res->enomem + res->other,
				.elapsed_s = res->elapsed_s,
			};

			if (cfg->progress(cfg->ctx, &pr)) {
				res->stopped = true;
				break;
			}
		}
	}
	res->elapsed_s = now_s() - t0;
out:
	free(addr);
	free(nodes);
	free(status);
	free(pages);
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
