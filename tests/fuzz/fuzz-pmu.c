// SPDX-License-Identifier: GPL-3.0-or-later
/* tt_pmu_parse_format and tt_pmu_put: a format either parses into ranges
 * inside 0-63 or is refused; putting a value never writes outside them. */
#include "../../collectors/pmu.h"
#include "fuzz.h"

#include <assert.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size);
	struct tt_pmu_format f;

	if (!s)
		return 0;
	if (tt_pmu_parse_format(s, &f) == 0) {
		uint64_t c[3] = { 0 }, mask = 0;

		assert(f.word >= 0 && f.word <= 2 && f.nranges >= 1 && f.nranges <= 8);
		for (int i = 0; i < f.nranges; i++) {
			assert(f.r[i].lo >= 0 && f.r[i].lo <= f.r[i].hi && f.r[i].hi <= 63);
			for (int b = f.r[i].lo; b <= f.r[i].hi; b++)
				mask |= UINT64_C(1) << b;
		}
		tt_pmu_put(&f, UINT64_MAX, c);
		assert((c[f.word] & ~mask) == 0);
	}
	free(s);
	return 0;
}
