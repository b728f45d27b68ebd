// SPDX-License-Identifier: GPL-3.0-or-later
/* core/mpol.c: the node masks handed to mbind and set_mempolicy read back
 * as the kernel reads them (mm/mempolicy.c get_nodes: --maxnode, then
 * BITS_TO_LONGS(maxnode) longs, the bits past maxnode cleared), for node
 * ids at the word boundaries and the last one, and never a word past the
 * mask: numactl's off-by-one (fixed in its commit be8b222) lost the last
 * node. Then the live kernel: set_mempolicy and get_mempolicy round trip. */
#include "test.h"

#include "../../core/mpol.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static struct {
	long nr;
	const unsigned long *bits;
	unsigned long maxnode;
} seen;

static long record(long nr, ...)
{
	va_list ap;

	va_start(ap, nr);
	seen.nr = nr;
	if (nr == SYS_mbind) {
		(void)va_arg(ap, void *);
		(void)va_arg(ap, unsigned long);
		(void)va_arg(ap, int);
	} else {
		(void)va_arg(ap, int);
	}
	seen.bits = va_arg(ap, const unsigned long *);
	seen.maxnode = va_arg(ap, unsigned long);
	va_end(ap);
	return 0;
}

#define LONG_BITS (8 * sizeof(unsigned long))

/* What get_nodes() takes from the caller: the nodes it sees in *out, and
 * the bytes it reads; -1 when it would read past the mask (mask_bytes). */
static int kernel_reads(const unsigned long *bits, unsigned long maxnode, size_t mask_bytes,
			struct tt_nodemask *out)
{
	unsigned long nlongs;

	memset(out, 0, sizeof(*out));
	if (maxnode == 0)
		return 0;
	maxnode--;
	nlongs = (maxnode + LONG_BITS - 1) / LONG_BITS;
	if (nlongs * sizeof(unsigned long) > mask_bytes)
		return -1;
	for (unsigned long i = 0; i < maxnode && i < TT_MAX_NODES; i++)
		if (bits[i / LONG_BITS] >> (i % LONG_BITS) & 1)
			tt_bit_set(out->bits, (unsigned int)i);
	return (int)(nlongs * sizeof(unsigned long));
}

static void test_maxnode_read_as_passed(void **state)
{
	static const int ids[] = {
		0, 1, 63, 64, 65, 127, 128, 511, 512, TT_MAX_NODES - 2, TT_MAX_NODES - 1
	};
	long (*was)(long, ...) = tt_mpol_syscall;
	char page[64];

	(void)state;
	tt_mpol_syscall = record;
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		struct tt_nodemask m, got;

		memset(&m, 0, sizeof(m));
		tt_bit_set(m.bits, (unsigned int)ids[i]);
		for (int call = 0; call < 2; call++) {
			memset(&seen, 0, sizeof(seen));
			if (call == 0)
				assert_int_equal(tt_set_mempolicy(MPOL_BIND, &m), 0);
			else
				assert_int_equal(tt_mbind(page, sizeof(page), MPOL_BIND, &m), 0);
			assert_int_equal(seen.nr, call == 0 ? SYS_set_mempolicy : SYS_mbind);
			assert_int_equal(seen.maxnode, TT_MAX_NODES + 1);
			/* The whole mask, not a word past it, and the node given. */
			assert_int_equal(
				kernel_reads(seen.bits, seen.maxnode, sizeof(m.bits), &got),
				(int)sizeof(m.bits));
			assert_memory_equal(&got, &m, sizeof(m));
		}
		/* The two off-by-ones the emulation catches: one less loses the
		 * last node, one word more reads past the mask. */
		kernel_reads(m.bits, tt_mpol_maxnode(TT_MAX_NODES) - 1, sizeof(m.bits), &got);
		assert_int_equal(tt_nodemask_test(&got, ids[i]), ids[i] != TT_MAX_NODES - 1);
		assert_int_equal(kernel_reads(m.bits, tt_mpol_maxnode(TT_MAX_NODES) + LONG_BITS,
					      sizeof(m.bits), &got),
				 -1);
	}
	/* No mask: no maxnode (MPOL_DEFAULT). */
	assert_int_equal(tt_set_mempolicy(MPOL_DEFAULT, NULL), 0);
	assert_int_equal(seen.maxnode, 0);
	tt_mpol_syscall = was;
}

/* The live kernel: node 0 bound, read back through get_mempolicy with the
 * same maxnode (its copy_nodes_to_user writes ALIGN(maxnode - 1, 64) / 8
 * bytes: exactly the mask, checked by a guard word after it). */
static void test_live_round_trip(void **state)
{
	struct {
		struct tt_nodemask m;
		unsigned long guard;
	} out;
	struct tt_nodemask m;
	int mode = -1;

	(void)state;
	memset(&m, 0, sizeof(m));
	tt_bit_set(m.bits, 0);
	if (tt_set_mempolicy(MPOL_BIND, &m) == -ENOSYS)
		skip();
	memset(&out, 0xa5, sizeof(out));
	assert_int_equal(syscall(SYS_get_mempolicy, &mode, out.m.bits,
				 tt_mpol_maxnode(TT_MAX_NODES), NULL, 0),
			 0);
	assert_int_equal(mode, MPOL_BIND);
	assert_memory_equal(&out.m, &m, sizeof(m));
	assert_true(out.guard == (unsigned long)0xa5a5a5a5a5a5a5a5ull);
	assert_int_equal(tt_set_mempolicy(MPOL_DEFAULT, NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_maxnode_read_as_passed),
		cmocka_unit_test(test_live_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
