// SPDX-License-Identifier: GPL-3.0-or-later
/* tt_parse_kv on meminfo/vmstat/numastat text. */
#include "../../core/parse.h"
#include "fuzz.h"

static int count(const char *key, uint64_t value, void *ctx)
{
	(void)key;
	(void)value;
	++*(int *)ctx;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size);
	int n = 0;

	if (!s)
		return 0;
	tt_parse_kv(s, count, &n);
	free(s);
	return 0;
}
