/* tt_parse_u64: accepted text is exactly the decimal of the value. */
#include "../../core/parse.h"
#include "fuzz.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>

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
	free(s);
	return 0;
}
