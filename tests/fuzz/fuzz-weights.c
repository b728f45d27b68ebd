// SPDX-License-Identifier: GPL-3.0-or-later
/* tt_weights_parse: parsed weights format back and parse to the same. */
#include "../../core/weights.h"
#include "fuzz.h"

#include <assert.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tt_weights a, b;
	static char buf[1 << 16];
	char *s = fuzz_string(data, size);

	if (!s)
		return 0;
	if (tt_weights_parse(s, &a) == 0) {
		assert(tt_weights_format(&a, buf, sizeof(buf)) >= 0);
		assert(tt_weights_parse(buf, &b) == 0);
		assert(memcmp(&a.set, &b.set, sizeof(a.set)) == 0);
		int node;
		tt_nodemask_for_each (node, &a.set)
			assert(a.w[node] == b.w[node]);
		tt_weights_check_range(&a, 1, 255);
		tt_weights_reduce(&a);
	}
	free(s);
	return 0;
}
