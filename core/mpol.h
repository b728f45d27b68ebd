/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Memory-policy system calls, called directly: Debian 12's libnuma (2.0.16)
 * and linux-libc-dev 6.1 predate MPOL_WEIGHTED_INTERLEAVE (Linux 6.9, value
 * 6), and libnuma's wrappers take struct bitmask, not our node masks.
 * maxnode is "bits + 1": the kernel's get_nodes() (mm/mempolicy.c) reads
 * maxnode - 1 bits (--maxnode, then BITS_TO_LONGS of it), and its
 * get_mempolicy side (copy_nodes_to_user) writes ALIGN(maxnode - 1, 64) / 8
 * bytes. numactl passed the mask's size and lost its last node until its
 * commit be8b222 ("fix the maxnode off-by-one"); one more than that and the
 * kernel reads (or, for get_mempolicy, writes) a word past the mask.
 * tt_mpol_maxnode is the one place it is computed; tests/unit/test-mpol.c
 * pins it against that reading for boundary node ids.
 */
#ifndef TT_MPOL_H
#define TT_MPOL_H

#include "bitmap.h"

#include <stddef.h>

#ifndef MPOL_DEFAULT
#define MPOL_DEFAULT 0
#define MPOL_PREFERRED 1
#define MPOL_BIND 2
#define MPOL_INTERLEAVE 3
#define MPOL_LOCAL 4
#endif
#ifndef MPOL_MF_MOVE
#define MPOL_MF_MOVE (1 << 1)
#endif
#ifndef MPOL_WEIGHTED_INTERLEAVE
#define MPOL_WEIGHTED_INTERLEAVE 6
#endif

/* The maxnode argument for a mask of nbits bits. */
static inline unsigned long tt_mpol_maxnode(size_t nbits)
{
	return (unsigned long)nbits + 1;
}

/* The system call the wrappers below make: syscall(2), or a test's
 * recorder (tests/unit/test-mpol.c checks the arguments as the kernel
 * reads them). */
extern long (*tt_mpol_syscall)(long nr, ...);

/* mbind(2) of [addr, addr+len) with mode over mask; TT_EUNAVAIL when the
 * kernel does not know the mode (EINVAL for mode 6 before 6.9). */
int tt_mbind(void *addr, size_t len, int mode, const struct tt_nodemask *mask);
/* set_mempolicy(2) for the calling thread (and what it execs next, as
 * numactl -w does): 0 or -errno, with no message recorded, so that a child
 * between fork and exec may call it. */
int tt_set_mempolicy(int mode, const struct tt_nodemask *mask);
/* move_pages(2) query: status[i] = node of pages[i], or -errno
 * (-ENOENT not present, -EFAULT zero page or unmapped). */
int tt_move_pages_query(void **pages, int *status, size_t n);
/* move_pages(2) with MPOL_MF_MOVE: pages[i] to nodes[i], in batches;
 * status[i] = the node the page is on afterwards, or -errno (-ENOMEM: the
 * node is full). A page already there is left alone. */
int tt_move_pages(void **pages, const int *nodes, int *status, size_t n);

#endif
