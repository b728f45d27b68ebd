// SPDX-License-Identifier: GPL-3.0-or-later
/* tt_rb_smaps_read, rebalance's reader of /proc/PID/smaps: any text reads,
 * each VMA it gives is well formed (start <= end, a page size a kernel
 * has), and only a private readable one is taken. */
#include "../../migrate/rebalance.h"
#include "fuzz.h"

#include <assert.h>

static int check(void *ctx, const struct tt_rb_vma *v)
{
	(void)ctx;
	assert(v->start <= v->end);
	assert(v->page_bytes >= 4096 && v->page_bytes <= (16ULL << 30));
	assert(!(v->page_bytes & (v->page_bytes - 1)));
	assert(!v->take || v->private_rd);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f;

	if (!size || !(f = fmemopen((void *)data, size, "r")))
		return 0;
	assert(tt_rb_smaps_read(f, check, NULL) == 0);
	fclose(f);
	return 0;
}
