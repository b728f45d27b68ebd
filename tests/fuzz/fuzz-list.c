// SPDX-License-Identifier: GPL-3.0-or-later
/* tt_parse_list and tt_parse_cpumap: a parsed set formats back and parses to
 * the same set. */
#include "../../core/bitmap.h"
#include "../../core/parse.h"
#include "fuzz.h"

#include <assert.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint64_t a[TT_MAX_CPUS / 64], b[TT_MAX_CPUS / 64];
	static char buf[1 << 16];
	char *s = fuzz_string(data, size);

	if (!s)
		return 0;
	if (tt_parse_list(s, a, TT_MAX_NODES) == 0 &&
	    tt_bit_format_list(a, TT_MAX_NODES, buf, sizeof(buf)) >= 0) {
		assert(tt_parse_list(buf, b, TT_MAX_NODES) == 0);
		assert(memcmp(a, b, TT_MAX_NODES / 8) == 0);
	}
	tt_parse_cpumap(s, a, TT_MAX_CPUS);
	free(s);
	return 0;
}
