// SPDX-License-Identifier: GPL-3.0-or-later
/* The mover: move_pages(2) of another process in bounded, rate-limited
 * batches while its pidfd says it is the process planned, each page counted
 * as it ended, each failed page once over the rounds. */
#include "rebalance.h"

#include "../core/deadline.h"
#include "../core/error.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef MPOL_MF_MOVE
#define MPOL_MF_MOVE (1 << 1)
#endif
#ifndef MPOL_MF_MOVE_ALL
#define MPOL_MF_MOVE_ALL (1 << 2)
#endif

#define PAGE 4096ULL

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
		r = tt_rb_move_pages(ref->pid, b->k - off, b->addr + off, b->nodes + off,
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
		if (tt_rb_move_pages(ref->pid, e - off, b->addr + off, NULL, b->where + off, 0) < 0)
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

int tt_rb_figures(const struct tt_rb_result *res, struct tt_rb_figure *out)
{
	const struct tt_rb_figure figs[TT_RB_NFIGURES] = {
		{ "pages_planned", (double)res->planned }, { "pages_moved", (double)res->moved },
		{ "pages_ebusy", (double)res->ebusy },	   { "pages_efault", (double)res->efault },
		{ "pages_enoent", (double)res->enoent },   { "pages_eacces", (double)res->eacces },
		{ "pages_enomem", (double)res->enomem },   { "pages_other", (double)res->other },
		{ "move_calls", (double)res->calls },	   { "elapsed_s", res->elapsed_s },
		{ "process_gone", res->gone ? 1 : 0 },
	};

	memcpy(out, figs, sizeof(figs));
	return TT_RB_NFIGURES;
}
