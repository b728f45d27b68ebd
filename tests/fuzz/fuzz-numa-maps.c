// SPDX-License-Identifier: GPL-3.0-or-later
/* tt_numa_maps_line: any text parses or is refused, never more; a parsed
 * line's counts stay within the nodes it names. */
#include "../../core/numa-maps.h"
#include "fuzz.h"

#include <assert.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tt_nmap_vma v;
	static struct tt_numa_maps m;
	char *s = fuzz_string(data, size);
	int node;

	if (!s)
		return 0;
	if (tt_numa_maps_line(s, &v) == 0) {
		assert(v.mode >= 0 && v.mode <= TT_MPOL_WEIGHTED_INTERLEAVE);
		tt_nodemask_for_each (node, &v.resident)
			assert(node < TT_MAX_NODES);
	}
	tt_numa_maps_init(&m);
	tt_numa_maps_add(&m, s);
	assert(m.vmas == 1);
	free(s);
	return 0;
}
