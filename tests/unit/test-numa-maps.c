// SPDX-License-Identifier: GPL-3.0-or-later
/* core/numa-maps.c: numa_maps lines as the kernel prints them (show_numa_map,
 * policy_modes[]: two mode names hold a space), and the per-process sum of
 * interleaved VMAs. */
#include "test.h"

#include "../../core/numa-maps.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void test_line(void **state)
{
	static const struct {
		const char *in;
		int rc, mode;
		const char *flags, *nodes;
		uint64_t page_bytes;
		int n0, n1; /* pages on nodes 0 and 1, -1 none */
	} v[] = {
		/* Seen on Linux 6.18 (kernel-interfaces.md 7.1). */
		{ "55705df9a000 weighted interleave:0 file=/usr/bin/sleep dirty=1 N0=1 "
		  "kernelpagesize_kB=4",
		  0, TT_MPOL_WEIGHTED_INTERLEAVE, "", "0", 4096, 1, -1 },
		{ "7f0000000000 interleave:0-1 anon=10 dirty=10 N0=5 N1=5 kernelpagesize_kB=4", 0,
		  TT_MPOL_INTERLEAVE, "", "0-1", 4096, 5, 5 },
		{ "7f0000000000 weighted interleave=static:0-1 anon=3 N1=3 kernelpagesize_kB=2048",
		  0, TT_MPOL_WEIGHTED_INTERLEAVE, "static", "0-1", 2048 * 1024, -1, 3 },
		{ "7f0000000000 default anon=3 dirty=3 N0=3 kernelpagesize_kB=4", 0,
		  TT_MPOL_DEFAULT, "", "", 4096, 3, -1 },
		{ "7f0000000000 prefer (many):0-1 heap anon=1 N1=1 kernelpagesize_kB=4", 0,
		  TT_MPOL_PREFERRED_MANY, "", "0-1", 4096, -1, 1 },
		{ "7f0000000000 prefer:1 stack anon=1 N1=1", 0, TT_MPOL_PREFERRED, "", "1", 4096,
		  -1, 1 },
		{ "7f0000000000 bind:0 file=/a\\040b mapped=1", 0, TT_MPOL_BIND, "", "0", 4096, -1,
		  -1 },
		{ "7f0000000000 local", 0, TT_MPOL_LOCAL, "", "", 4096, -1, -1 },
		{ "7f0000000000 weighted", -EINVAL, 0, "", "", 0, 0, 0 },
		{ "7f0000000000 interleave:", -EINVAL, 0, "", "", 0, 0, 0 },
		{ "7f0000000000 interleave:0-x N0=1", -EINVAL, 0, "", "", 0, 0, 0 },
		{ "7f0000000000 default N0=", -EINVAL, 0, "", "", 0, 0, 0 },
		{ "7f0000000000 default N0=-1", -EINVAL, 0, "", "", 0, 0, 0 },
		{ "7f0000000000 default N1024=1", -EINVAL, 0, "", "", 0, 0, 0 },
		{ "7f0000000000 default kernelpagesize_kB=0", -EINVAL, 0, "", "", 0, 0, 0 },
		{ "zz default", -EINVAL, 0, "", "", 0, 0, 0 },
		{ "", -EINVAL, 0, "", "", 0, 0, 0 },
		{ "7f0000000000", -EINVAL, 0, "", "", 0, 0, 0 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct tt_nmap_vma *m = malloc(sizeof(*m));
		char list[64];

		assert_non_null(m);
		assert_int_equal(tt_numa_maps_line(v[i].in, m), v[i].rc);
		if (v[i].rc == 0) {
			assert_int_equal(m->mode, v[i].mode);
			assert_string_equal(m->flags, v[i].flags);
			assert_true(tt_bit_format_list(m->nodes.bits, TT_MAX_NODES, list,
						       sizeof(list)) >= 0);
			assert_string_equal(list, v[i].nodes);
			assert_true(m->page_bytes == v[i].page_bytes);
			assert_int_equal(tt_nodemask_test(&m->resident, 0), v[i].n0 >= 0);
			assert_int_equal(tt_nodemask_test(&m->resident, 1), v[i].n1 >= 0);
			if (v[i].n0 >= 0)
				assert_true(m->pages[0] == (uint64_t)v[i].n0);
			if (v[i].n1 >= 0)
				assert_true(m->pages[1] == (uint64_t)v[i].n1);
		}
		free(m);
	}
}

static void test_sum(void **state)
{
	struct tt_numa_maps *m = malloc(sizeof(*m));
	char pol[64];

	(void)state;
	assert_non_null(m);
	tt_numa_maps_init(m);
	tt_numa_maps_add(m, "1000 default anon=9 N0=9 kernelpagesize_kB=4");
	tt_numa_maps_add(m, "2000 weighted interleave:0-1 anon=3 N0=2 N1=1 kernelpagesize_kB=4");
	tt_numa_maps_add(m, "3000 weighted interleave:0-1 anon=1 N1=1 kernelpagesize_kB=2048");
	tt_numa_maps_add(m, "not a line");
	assert_int_equal(m->vmas, 4);
	assert_int_equal(m->bad, 1);
	assert_int_equal(m->il_vmas, 2);
	assert_false(m->mixed);
	assert_int_equal(m->mode, TT_MPOL_WEIGHTED_INTERLEAVE);
	/* The default VMA is not counted; the THP one counts 2 MiB. */
	assert_true(m->bytes[0] == 2 * 4096);
	assert_true(m->bytes[1] == 4096 + 2048 * 1024);
	assert_true(m->total_bytes == m->bytes[0] + m->bytes[1]);
	assert_int_equal(tt_numa_maps_policy(m->mode, m->flags, &m->nodes, pol, sizeof(pol)), 23);
	assert_string_equal(pol, "weighted interleave:0-1");
	tt_numa_maps_add(m, "4000 interleave:0 anon=1 N0=1 kernelpagesize_kB=4");
	assert_true(m->mixed);
	free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line),
		cmocka_unit_test(test_sum),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
