// SPDX-License-Identifier: GPL-3.0-or-later
#include "mpol.h"

#include "error.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <sys/syscall.h>
#include <unistd.h>

long (*tt_mpol_syscall)(long nr, ...) = syscall;

int tt_mbind(void *addr, size_t len, int mode, const struct tt_nodemask *mask)
{
	const unsigned long *bits = mask ? (const unsigned long *)mask->bits : NULL;
	unsigned long maxnode = mask ? tt_mpol_maxnode(TT_MAX_NODES) : 0;

	if (tt_mpol_syscall(SYS_mbind, addr, len, mode, bits, maxnode, 0) == 0)
		return 0;
	if (errno == EINVAL && mode == MPOL_WEIGHTED_INTERLEAVE)
		return tt_err(TT_EUNAVAIL,
			      "this kernel rejects MPOL_WEIGHTED_INTERLEAVE (needs Linux "
			      "6.9+)");
	if (errno == ENOSYS)
		return tt_err(TT_EUNAVAIL, "this kernel has no mbind (CONFIG_NUMA off)");
	return tt_err_sys(TT_EFAIL, errno, "mbind of %zu bytes at %p with mode %d", len, addr,
			  mode);
}

int tt_move_pages(void **pages, const int *nodes, int *status, size_t n)
{
	const size_t batch = 1 << 12;

	for (size_t i = 0; i < n; i += batch) {
		size_t k = n - i < batch ? n - i : batch;

		if (syscall(SYS_move_pages, 0, k, pages + i, nodes + i, status + i, MPOL_MF_MOVE) <
		    0)
			return tt_err_sys(TT_EFAIL, errno, "move_pages of %zu pages", k);
	}
	return 0;
}

int tt_set_mempolicy(int mode, const struct tt_nodemask *mask)
{
	const unsigned long *bits = mask ? (const unsigned long *)mask->bits : NULL;
	unsigned long maxnode = mask ? tt_mpol_maxnode(TT_MAX_NODES) : 0;

	return tt_mpol_syscall(SYS_set_mempolicy, mode, bits, maxnode) == 0 ? 0 : -errno;
}

struct query {
	void **pages;
	int *status;
	size_t n;
	int err;
};

static void *query_slice(void *arg)
{
	struct query *q = arg;
	/* Batches keep the kernel's temporary arrays small; move_pages itself
	 * works in chunks of 16 for the same reason. */
	const size_t batch = 1 << 16;

	for (size_t i = 0; i < q->n; i += batch) {
		size_t k = q->n - i < batch ? q->n - i : batch;

		if (syscall(SYS_move_pages, 0, k, q->pages + i, NULL, q->status + i, 0) < 0) {
			q->err = errno;
			break;
		}
	}
	return NULL;
}

int tt_move_pages_query(void **pages, int *status, size_t n)
{
	/* The kernel looks pages up one by one under the mmap read lock,
	 * which readers share: slices on several CPUs scale (about 2 us a
	 * page on a Firecracker guest, so 2M pages of an 8 GiB buffer take
	 * seconds on one CPU). Small queries stay on this thread. */
	enum { MAX_SLICES = 16, MIN_SLICE = 1 << 16 };
	struct query q[MAX_SLICES];
	pthread_t tid[MAX_SLICES];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t nq = n / MIN_SLICE, per;
	bool started[MAX_SLICES] = { false };

	if (nq > (size_t)(cpus > 0 ? cpus : 1))
		nq = (size_t)(cpus > 0 ? cpus : 1);
	if (nq > MAX_SLICES)
		nq = MAX_SLICES;
	if (nq < 1)
		nq = 1;
	per = (n + nq - 1) / nq;
	for (size_t i = 0; i < nq; i++) {
		size_t lo = i * per < n ? i * per : n, hi = lo + per < n ? lo + per : n;

		q[i] = (struct query){ .pages = pages + lo, .status = status + lo, .n = hi - lo };
		started[i] = i > 0 && pthread_create(&tid[i], NULL, query_slice, &q[i]) == 0;
	}
	query_slice(&q[0]);
	for (size_t i = 1; i < nq; i++) {
		if (started[i])
			pthread_join(tid[i], NULL);
		else
			query_slice(&q[i]); /* no thread: do it here */
	}
	for (size_t i = 0; i < nq; i++)
		if (q[i].err)
			return tt_err_sys(q[i].err == ENOSYS ? TT_EUNAVAIL : TT_EFAIL, q[i].err,
					  "move_pages query of %zu pages", q[i].n);
	return 0;
}
