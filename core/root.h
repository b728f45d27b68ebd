/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Opening a sysfs root for writing: the store its writes go to is chosen
 * here, once. "/" is the live kernel's files; any other root is a fixture
 * tree, whose writes follow the kernel's store rules (fixture-kernel.h), and
 * whose stores a killed process cut short are cleaned up first.
 *
 *	struct tt_sysfs sfs;
 *	tt_root_open(&sfs, root);    (tt_sysfs_init alone: for reading)
 *
 * The test hooks of the write path live here and nowhere else:
 * TIERTUNE_TEST_NO_LIVE_WRITES (set by every test suite) makes the live
 * root's store refuse, so a test can never leave the host's weights
 * changed; TIERTUNE_TEST_FIXTURE_FAULT (fail:N, garble:N, kill:N) makes a
 * fixture's Nth store fail, store another value, or die.
 */
#ifndef TT_ROOT_H
#define TT_ROOT_H

#include "sysfs.h"

int tt_root_open(struct tt_sysfs *s, const char *root);

#endif
