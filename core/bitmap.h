/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Fixed-size bitmaps for node and CPU sets. Node ids are bounded by the
 * kernel's MAX_NUMNODES (1 << CONFIG_NODES_SHIFT, at most 1024 on x86 and
 * arm64); CPU ids by NR_CPUS, which distributions set to 8192.
 */
#ifndef TT_BITMAP_H
#define TT_BITMAP_H

#include <stdbool.h>
#include <stdint.h>

#define TT_MAX_NODES 1024
#define TT_MAX_CPUS 8192

struct tt_nodemask {
	uint64_t bits[TT_MAX_NODES / 64];
};

static inline void tt_bit_set(uint64_t *bits, unsigned int i)
{
	bits[i / 64] |= UINT64_C(1) << (i % 64);
}

static inline void tt_bit_clear(uint64_t *bits, unsigned int i)
{
	bits[i / 64] &= ~(UINT64_C(1) << (i % 64));
}

static inline bool tt_bit_test(const uint64_t *bits, unsigned int i)
{
	return (bits[i / 64] >> (i % 64)) & 1;
}

unsigned int tt_bit_count(const uint64_t *bits, unsigned int nbits);
/* First set bit at or after from, or nbits when there is none. */
unsigned int tt_bit_next(const uint64_t *bits, unsigned int nbits, unsigned int from);
/* Formats as the kernel's "%*pbl" does ("0-3,8"); returns the length, or
 * a negative value when buf is too small. */
int tt_bit_format_list(const uint64_t *bits, unsigned int nbits, char *buf, unsigned long size);

#define tt_nodemask_for_each(node, mask)                                                           \
	for ((node) = tt_bit_next((mask)->bits, TT_MAX_NODES, 0); (node) < TT_MAX_NODES;           \
	     (node) = tt_bit_next((mask)->bits, TT_MAX_NODES, (node) + 1))

static inline bool tt_nodemask_test(const struct tt_nodemask *m, int node)
{
	return node >= 0 && node < TT_MAX_NODES && tt_bit_test(m->bits, (unsigned int)node);
}

static inline unsigned int tt_nodemask_weight(const struct tt_nodemask *m)
{
	return tt_bit_count(m->bits, TT_MAX_NODES);
}

#endif
