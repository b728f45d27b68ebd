// SPDX-License-Identifier: GPL-3.0-or-later
/* move_pages(2) itself, or the test hooks' in its place: the one call the
 * refusals (its check with no pages), the scan (its queries) and the mover
 * all make, in a file of its own so that none of them calls another for
 * it. */
#include "rebalance.h"

#include "../core/test-hooks.h"

#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

long tt_rb_move_pages(pid_t pid, unsigned long n, void **pages, const int *nodes, int *status,
		      int flags)
{
	long r;

	if (tt_test_hooks && tt_test_hooks->move_pages)
		return tt_test_hooks->move_pages(pid, n, pages, nodes, status, flags);
	r = syscall(SYS_move_pages, pid, n, pages, nodes, status, flags);
	return r < 0 ? -errno : r;
}
