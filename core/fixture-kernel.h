/*
 * What the kernel's sysfs store handlers would leave behind, for fixture
 * trees. A fixture is a tree of regular files: writing "0:85" to an RFC
 * interleave_weight file must update one source's entry, writing a nodeN
 * weight must turn the auto file to false, and the kernel's rejections
 * (weight 0 on 6.16+, auto without bandwidth data) must fail the same way, or
 * tests of apply and restore would pass against behaviour no kernel has.
 * Only sysfs.c calls this, for roots other than "/".
 */
#ifndef TT_FIXTURE_KERNEL_H
#define TT_FIXTURE_KERNEL_H

#include "sysfs.h"

/* path is the full path under the root; rel the live-system path. Like a
 * kernel store, a file changes all at once or not at all (temp file and
 * rename), so a process killed mid-store leaves no half-written file. */
int tt_fixture_store(const struct tt_sysfs *s, const char *path, const char *rel,
		     const char *value);
/* Removes the temp files of stores cut short by a kill (a kernel has none
 * to show); tt_sysfs_init calls it for fixture roots. */
void tt_fixture_recover(const struct tt_sysfs *s);

#endif
