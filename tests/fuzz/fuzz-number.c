// SPDX-License-Identifier: GPL-3.0-or-later
/* tt_parse_u64: accepted text is exactly the decimal of the value;
 * tt_parse_size: a whole number with a unit is a multiple of 1024, and a
 * plain number parses the same both ways. */
#include "../../core/parse.h"
#include "fuzz.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size), back[32];
	uint64_t v;

	if (!s)
		return 0;
	if (tt_parse_u64(s, 0, UINT64_MAX, &v) == 0) {
		snprintf(back, sizeof(back), "%" PRIu64, v);
		/* Leading zeros are the one difference allowed. */
		const char *p = s;
		while (p[0] == '0' && p[1])
			p++;
		assert(strcmp(p, back) == 0);
	}
	uint64_t sz;
	if (tt_parse_size(s, 0, UINT64_MAX, &sz) == 0) {
		size_t len = strlen(s);
		char last = s[len - 1] == 'B' || s[len - 1] == 'b' ? s[len - 3] : s[len - 1];

		/* A fraction ("1.5G", or "2.0" bytes) has only to come to whole bytes. */
		if (strchr(s, '.'))
			;
		else if (last >= '0' && last <= '9')
			assert(tt_parse_u64(s, 0, UINT64_MAX, &v) == 0 && v == sz);
		else
			assert(sz % 1024 == 0);
	}
	free(s);
	return 0;
}
