// SPDX-License-Identifier: GPL-3.0-or-later
/* tt_rb_numa_maps_count, rebalance's counts from /proc/PID/numa_maps (a
 * captured tree's): any text counts or is skipped line by line, never
 * overflowing: the per-node pages sum to the total. */
#include "../../migrate/rebalance.h"
#include "fuzz.h"

#include <assert.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tt_rb_scan sc;
	uint64_t sum = 0;
	FILE *f;

	if (!size || !(f = fmemopen((void *)data, size, "r")))
		return 0;
	if (tt_rb_numa_maps_count(f, &sc) == 0) {
		for (int i = 0; i < TT_MAX_NODES; i++) {
			assert(!__builtin_add_overflow(sum, sc.cur.pages[i], &sum));
			assert(!sc.cur.pages[i] || tt_nodemask_test(&sc.cur.nodes, i));
		}
		assert(sum == sc.cur.total);
		assert(sc.units == NULL && sc.n == 0);
	}
	fclose(f);
	return 0;
}
