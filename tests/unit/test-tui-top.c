// SPDX-License-Identifier: GPL-3.0-or-later
/* tui/top.c: a --batch frame is of the sample it took, however late it is
 * built. On this machine, read through "/": the numastat collector where
 * the kernel has nodeN/numastat (else there is nothing to judge). */
#include "test.h"

#include "../../tui/tui.h"

#include <stdio.h>
#include <unistd.h>

/* The first --batch frame waits for the process scan; on a busy host it
 * took seconds, and the frames then built from the second and third
 * samples judged their readings' age at the clock: every numastat cell
 * was "stale" (t0012 #69 failed 3 of 3 beside two STREAM loops). A frame
 * built long after its sample still shows that sample's figures. */
static void test_late_batch_frame(void **state)
{
	struct tt_top top = { .interval_s = 0.2, .source_node = -1, .collectors = "numastat" };
	struct tt_frame f;
	int alloc = -1;

	(void)state;
	if (access("/sys/devices/system/node/node0/numastat", R_OK) != 0)
		skip();
	assert_int_equal(tt_top_open(&top, "/"), 0);
	assert_int_equal(tt_top_take_tick(&top, 0), 0);
	sleep(3); /* past the staleness bound: 3 intervals + 1 s */
	assert_int_equal(tt_top_take_tick(&top, 1), 0);
	assert_int_equal(tt_top_frame(&top, &f), 0);
	for (int i = 0; i < f.nrows; i++)
		if (f.rows[i].kind == TT_ROW_NODE && f.rows[i].node == 0)
			alloc = (int)f.rows[i].alloc.st;
	tt_frame_release(&f);
	tt_top_close(&top);
	assert_int_equal(alloc, TT_CELL_OK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_late_batch_frame),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
