#include "mpol.h"

#include "error.h"

#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

int tt_mbind(void *addr, size_t len, int mode, const struct tt_nodemask *mask)
{
	const unsigned long *bits = mask ? (const unsigned long *)mask->bits : NULL;
	unsigned long maxnode = mask ? TT_MAX_NODES + 1 : 0;

	if (syscall(SYS_mbind, addr, len, mode, bits, maxnode, 0) == 0)
		return 0;
	if (errno == EINVAL && mode == MPOL_WEIGHTED_INTERLEAVE)
		return tt_err(TT_EUNAVAIL, "this kernel rejects MPOL_WEIGHTED_INTERLEAVE (needs Linux "
					   "6.9+)");
	if (errno == ENOSYS)
		return tt_err(TT_EUNAVAIL, "this kernel has no mbind (CONFIG_NUMA off)");
	return tt_err_sys(TT_EFAIL, errno, "mbind of %zu bytes at %p with mode %d", len, addr, mode);
}

int tt_move_pages_query(void **pages, int *status, size_t n)
{
	/* Batches keep the kernel's temporary arrays small; move_pages itself
	 * works in chunks of 16 for the same reason. */
	const size_t batch = 1 << 16;

	for (size_t i = 0; i < n; i += batch) {
		size_t k = n - i < batch ? n - i : batch;

		if (syscall(SYS_move_pages, 0, k, pages + i, NULL, status + i, 0) < 0)
			return tt_err_sys(errno == ENOSYS ? TT_EUNAVAIL : TT_EFAIL, errno,
					  "move_pages query of %zu pages", k);
	}
	return 0;
}
