/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Shares of memory that already exists: where a process's pages are, the
 * per-node shares weights stand for, and moving pages (move_pages(2)) until
 * each node holds its share (tiertune rebalance).
 *
 * Shares are basis points (1/10000) apportioned by the largest remainder
 * (Hamilton's method: each node its quotient's floor, the points left one
 * each to the largest remainders, ties to the lower node id), so they sum to
 * exactly 10000, the unit of DAMON's node_eligible_mem_bp quota goal (the
 * name it landed under; its RFC's first was node_sys_bp) and a weight
 * DAMON's weighted migrate_hot/migrate_cold dests take as is.
 *
 *	struct tt_rb_scan sc;
 *	tt_rb_check(sfs, pid, &weights, &topo, move, &info);    refusals, nothing moved
 *	tt_rb_scan_live(sfs, pid, &sc);        (tt_rb_scan_numa_maps: counts only)
 *	tt_rb_targets(&sc.cur, &weights, want);
 *	tt_rb_failed_mark(&failed, sc.units, sc.n);    (rounds after the first)
 *	tt_rb_plan(sc.units, sc.n, want, order, &weights, dest);
 *	tt_rb_move(&info.ref, sc.units, sc.n, dest, &cfg, &res);   cfg.failed = &failed
 *	tt_rb_scan_release(&sc); ... tt_rb_failed_release(&failed); tt_rb_proc_release(&info);
 */
#ifndef TT_REBALANCE_H
#define TT_REBALANCE_H

#include "../core/bitmap.h"
#include "../core/proc.h"
#include "../core/sysfs.h"
#include "../core/topo.h"
#include "../core/weights.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#define TT_RB_BP 10000 /* basis points in a whole */

/* out[i] = total * w[i] / sum(w) by the largest remainder; sum(out) ==
 * total (0 everywhere when every w is 0). TT_EINPUT when n < 1. */
int tt_rb_apportion(uint64_t total, const uint64_t *w, int n, uint64_t *out);

/* Per-node basis points of a policy's pages under weights w: one cycle of
 * the kernel's interleave walk (core/interleave.h: a weight 0 counts as 1),
 * apportioned to 10000. bp is indexed by node id (TT_MAX_NODES); nodes
 * without a weight get 0. */
int tt_rb_shares_bp(const struct tt_weights *w, uint32_t *bp);

/* Pages per node, in 4 KiB pages (a huge page counts its 4 KiB pages). */
struct tt_rb_counts {
	uint64_t pages[TT_MAX_NODES];
	uint64_t total;
	struct tt_nodemask nodes; /* nodes with pages */
};

/* One unit the mover moves as one: a 4 KiB page, or a huge page (THP or
 * hugetlb), which move_pages moves whole when given its first address. */
struct tt_rb_unit {
	uint64_t addr;	/* in the process */
	uint32_t pages; /* 4 KiB pages: 1, 512 (2 MiB) ... */
	int16_t node;	/* where it is */
	bool huge;
	bool stuck; /* failed to move before, for good (tt_rb_failed_mark): not planned */
};

struct tt_rb_scan {
	struct tt_rb_unit *units; /* in address order */
	size_t n, cap;
	struct tt_rb_counts cur;
	uint64_t vmas;	       /* private anonymous VMAs scanned */
	uint64_t skipped_vmas; /* file-backed, shared or special: left alone */
	uint64_t absent;       /* pages not present (never touched, swapped): -ENOENT */
	uint64_t huge_units;   /* units taken as transparent or hugetlb pages */
	bool per_page;	       /* units known (live); else counts only (numa_maps) */
};

void tt_rb_scan_release(struct tt_rb_scan *sc);

/* One VMA of /proc/PID/smaps as the scan reads it. */
struct tt_rb_vma {
	uint64_t start, end;
	uint64_t page_bytes; /* KernelPageSize: a power of two, 4 KiB to 16 GiB */
	uint64_t thp_bytes;  /* AnonHugePages */
	uint64_t rss_bytes;  /* Rss; for hugetlb Private_Hugetlb (Rss leaves hugetlb out) */
	bool private_rd;     /* readable and private */
	bool hugetlb;	     /* VmFlags ht */
	/* The process's own: private anonymous, or private MAP_HUGETLB
	 * (/anon_hugepage with ht), moved whole. */
	bool take;
};
/* Calls fn for each VMA of the smaps text f once its last line is read; a
 * non-zero return stops the walk and is returned; TT_EUNAVAIL on a read
 * error. Lines that are not smaps are passed over. */
int tt_rb_smaps_read(FILE *f, int (*fn)(void *ctx, const struct tt_rb_vma *v), void *ctx);
/* The counts of a numa_maps text f into sc (cleared first), as
 * tt_rb_scan_numa_maps: TT_EUNAVAIL on a read error. */
int tt_rb_numa_maps_count(FILE *f, struct tt_rb_scan *sc);
/* From /proc/PID/numa_maps under the root: the private anonymous VMAs'
 * N<node>= counts, no units (a dry run's figures on any root). */
int tt_rb_scan_numa_maps(const struct tt_sysfs *s, pid_t pid, struct tt_rb_scan *sc);
/* The live process: its VMAs from /proc/PID/smaps, each present page's
 * node by a move_pages(2) query (nodes NULL; which pages are present from
 * /proc/PID/pagemap, so that the work goes with resident memory, not VMA
 * size). A 2 MiB-aligned block of a VMA with AnonHugePages, all 512 pages
 * present on one node, is taken as one THP; a private MAP_HUGETLB VMA's
 * pages are units of its KernelPageSize. */
int tt_rb_scan_live(const struct tt_sysfs *s, pid_t pid, struct tt_rb_scan *sc);

/* Pages each node should hold: cur->total apportioned by the weights
 * (the interleave cycle's counts, as tt_rb_shares_bp); nodes without a
 * weight 0. */
int tt_rb_targets(const struct tt_rb_counts *cur, const struct tt_weights *w, uint64_t *want);
/* Each node's share off its target, in basis points of the total: the
 * largest |cur - want| / total. */
double tt_rb_off_bp(const struct tt_rb_counts *cur, const uint64_t *want);

/* A flow of pages from one node to another: what a plan moves. */
struct tt_rb_flow {
	int from, to;
	uint64_t pages;
};
/* The fewest pages to move from cur to want: every node over its target
 * gives its surplus, in ascending node order, each page to the node with
 * the largest deficit left (ties: the lower id). Returns the number of
 * flows written (at most max). */
int tt_rb_flows(const struct tt_rb_counts *cur, const uint64_t *want, struct tt_rb_flow *f,
		int max);

enum tt_rb_order {
	/* Move the fewest pages: each surplus node's pages to move spread
	 * evenly over its pages in address order (one in k), so every part
	 * of the heap gets the mix; huge pages first, 4 KiB pages to make up
	 * the rest. The per-node shares are targeted, not the page order. */
	TT_RB_SHARES,
	/* Every page to the node the kernel's vma walk would give it under
	 * the weights (interleave index addr >> 12, a THP's addr >> 21):
	 * the result is page for page what a fresh weighted-interleave
	 * allocation would be; moves every page out of its slot. */
	TT_RB_INTERLEAVE,
};

/* dest[i] = the node unit i goes to, or -1 to stay. Returns the number of
 * 4 KiB pages planned to move. */
int64_t tt_rb_plan(const struct tt_rb_unit *u, size_t n, const uint64_t *want,
		   enum tt_rb_order order, const struct tt_weights *w, int *dest);

/* What a plan can reach: units move whole (a THP 512 pages, a hugetlb page
 * its size), so a target finer than them cannot be met, however the pages
 * are moved. off_bp: the largest share off its target once dest's moves
 * are made; shares_off_bp: the same of the shares order's plan (the fewest
 * moves, which fills with 4 KiB pages what huge pages cannot); huge: the
 * huge units among them. */
struct tt_rb_fit {
	double off_bp, shares_off_bp;
	uint64_t huge;
};
int tt_rb_fit(const struct tt_rb_unit *u, size_t n, const int *dest, const uint64_t *want,
	      const struct tt_weights *w, struct tt_rb_fit *fit);

/* Refusals, before anything is moved: a pid that does not exist, a kernel
 * thread (no memory of its own), a process caught exiting or a zombie, a
 * process this user may not move (the kernel's own check: a move_pages
 * query runs the ptrace access check a move does), weights on a node that
 * is not an online memory node or that the process's cpuset does not allow
 * (Mems_allowed_list). On the live root the process is pinned (p->ref)
 * before its status is read. */
struct tt_rb_proc {
	char comm[64];	    /* Name: as read, any byte: escape it to print it */
	uid_t uid;	    /* the process's real uid */
	bool same_user;	    /* ours is its real, effective and saved uid */
	bool cap_ptrace;    /* we hold CAP_SYS_PTRACE */
	bool cap_nice;	    /* we hold CAP_SYS_NICE (MPOL_MF_MOVE_ALL) */
	bool kernel_thread; /* Kthread: 1, or no mm */
	/* The live process checked, the one every later query and move must
	 * reach (pidfd -1 and starttime -1 on another root). */
	struct tt_proc_ref ref;
};
/* On the live root also refused: a /proc of another pid namespace (its pids
 * are not the ones move_pages takes). */
int tt_rb_check(const struct tt_sysfs *s, pid_t pid, const struct tt_weights *w,
		const struct tt_topo *t, bool move_all, struct tt_rb_proc *p);
void tt_rb_proc_release(struct tt_rb_proc *p);

/* What the refusals read of /proc/PID/status. */
struct tt_rb_status {
	char comm[64];	     /* Name:, as it is (any byte but NUL and newline) */
	unsigned int uid[3]; /* Uid: real, effective, saved */
	int nuid;	     /* how many of them parsed */
	bool vm;	     /* a VmSize: line: it has an mm */
	bool kthread;	     /* Kthread: 1 (Linux 6.0+) */
	bool has_kthread;    /* a Kthread: line was read */
	bool zombie;	     /* State: Z or X */
	/* Mems_allowed_list: the nodes its cpuset lets it use, where
	 * move_pages may put its pages (mm/migrate.c do_pages_move: another
	 * node is EACCES); has_mems false when the line is absent or does
	 * not parse. */
	struct tt_nodemask mems;
	bool has_mems;
};
/* From the status text f; TT_EUNAVAIL on a read error. */
int tt_rb_status_read(FILE *f, struct tt_rb_status *st);

struct tt_rb_progress {
	uint64_t moved_pages, planned_pages, failed_pages;
	double elapsed_s;
};

/* A rate limit's range. Below the least, one 2 MiB huge page takes over 20 s
 * and a 1 GiB one hours (1e-9 MiB/s slept a century a batch; 1e-300 made
 * the sleep overflow time_t); above the most, no memory moves that fast. */
#define TT_RB_RATE_MIN_BYTES_S (0.1 * 1048576.0)
#define TT_RB_RATE_MAX_BYTES_S (1e6 * 1048576.0)

struct tt_rb_cfg {
	uint32_t batch;	     /* units per move_pages call, at least 1 */
	double rate_bytes_s; /* 0: no limit; else within TT_RB_RATE_{MIN,MAX}_BYTES_S */
	bool move_all;	     /* MPOL_MF_MOVE_ALL: shared pages too (CAP_SYS_NICE) */
	/* Called after each batch; a non-zero return stops. */
	int (*progress)(void *ctx, const struct tt_rb_progress *p);
	void *ctx;
	/* Across rounds, each unit that did not move, as it last ended; NULL:
	 * not kept. */
	struct tt_rb_failed *failed;
};

/* Per-page outcomes, in 4 KiB pages. */
struct tt_rb_result {
	uint64_t planned, moved;
	uint64_t ebusy;	 /* -EBUSY: pinned or being changed; try again */
	uint64_t efault; /* -EFAULT: zero page or unmapped meanwhile */
	uint64_t enoent; /* -ENOENT: no longer present */
	uint64_t eacces; /* -EACCES: shared with another process (needs MOVE_ALL) */
	uint64_t enomem; /* -ENOMEM: the target node is full */
	uint64_t other;	 /* any other status, or a page left where it was */
	uint64_t calls;	 /* move_pages calls */
	double elapsed_s;
	struct tt_nodemask full; /* target nodes that had no room (ENOMEM) */
	bool gone;		 /* the process exited midway (exiting: EINVAL; reaped: ESRCH) */
	/* The kernel stopped letting us move it: EPERM (it took other
	 * credentials), EACCES (a security module, or forbidden below). */
	bool unreachable;
	int unreachable_errno; /* EPERM or EACCES */
	/* Target nodes its cpuset no longer allows (not in Mems_allowed_list
	 * when the kernel said EACCES). */
	struct tt_nodemask forbidden;
	bool stopped; /* the progress callback stopped it */
};

/* The outcome as named figures, in the order a record keeps them
 * (pages_planned ... process_gone: the database's samples of collector
 * "rebalance"); the number filled, TT_RB_NFIGURES. */
#define TT_RB_NFIGURES 11
struct tt_rb_figure {
	const char *metric;
	double value;
};
int tt_rb_figures(const struct tt_rb_result *res, struct tt_rb_figure *out);

/* Moves unit i to dest[i] (>= 0) in batches of cfg->batch units, no faster
 * than cfg->rate_bytes_s, each batch only while ref's process is alive
 * (checked before and after the call). A process that exits midway ends
 * it with res->gone set and 0 returned, one that may no longer be moved
 * with res->unreachable: res says what moved. A node that answers ENOMEM
 * gets no more pages (those left for it counted ENOMEM, res->full); the
 * pages of a batch the kernel did not say of (a move_pages that fails or
 * stops partway reports no status for them) are queried, so that each is
 * counted as it ended. */
int tt_rb_move(const struct tt_proc_ref *ref, const struct tt_rb_unit *u, size_t n, const int *dest,
	       const struct tt_rb_cfg *cfg, struct tt_rb_result *res);

/* move_pages(2) of another process (the test hooks' in place of it): 0,
 * the pages not moved, or -errno. The scan queries with it (nodes NULL), the
 * refusals ask the kernel's own check with no pages, the mover moves. */
long tt_rb_move_pages(pid_t pid, unsigned long n, void **pages, const int *nodes, int *status,
		      int flags);

/* Units that did not move, by address, each with its last status: a page
 * that cannot move (shared with another process, the zero page) fails
 * again each round, and the rounds' counts must not add it up. */
struct tt_rb_failed {
	struct tt_rb_fail {
		uint64_t addr;
		uint64_t seq;	/* order of outcome: the last one holds */
		uint32_t pages; /* 4 KiB pages */
		int status;	/* move_pages' status; 0: moved after all */
	} * v;
	size_t n, cap;
	uint64_t seq;
};
void tt_rb_failed_release(struct tt_rb_failed *f);
/* Units whose address failed before for good (any status but EBUSY, which
 * passes) marked stuck, so that no round plans them again. */
void tt_rb_failed_mark(const struct tt_rb_failed *f, struct tt_rb_unit *u, size_t n);
/* The failure counts of res (ebusy ... other) from f: each unit once. */
void tt_rb_failed_count(const struct tt_rb_failed *f, struct tt_rb_result *res);

/* DAMON's weighted migration (DAMOS migrate_hot/migrate_cold with a
 * dests directory, Linux 6.17+): "" when the root has no DAMON sysfs
 * (/sys/kernel/mm/damon/admin), else a sentence on what it has. */
void tt_rb_damon(const struct tt_sysfs *s, const char *release, char *buf, size_t size);

#endif
