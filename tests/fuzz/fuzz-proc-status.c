// SPDX-License-Identifier: GPL-3.0-or-later
/* tt_rb_status_read, rebalance's reader of /proc/PID/status (a captured
 * tree holds anything): any text reads or is refused, the name stays a
 * string within its buffer, at most three uids, an allowed node list read
 * only when it names a node. */
#include "../../migrate/rebalance.h"
#include "fuzz.h"

#include <assert.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tt_rb_status st;
	FILE *f;

	if (!size || !(f = fmemopen((void *)data, size, "r")))
		return 0;
	if (tt_rb_status_read(f, &st) == 0) {
		assert(memchr(st.comm, '\0', sizeof(st.comm)));
		assert(!strchr(st.comm, '\n'));
		assert(st.nuid >= 0 && st.nuid <= 3);
		assert(!st.has_mems || tt_nodemask_weight(&st.mems));
	}
	fclose(f);
	return 0;
}
