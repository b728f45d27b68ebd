// SPDX-License-Identifier: GPL-3.0-or-later
#include "root.h"

#include "error.h"
#include "fixture-damon.h"
#include "fixture-kernel.h"
#include "test-hooks.h"

#include <stdlib.h>

static int refuse_live(const struct tt_sysfs *s, const char *path, const char *rel,
		       const char *value)
{
	(void)s, (void)rel, (void)value;
	return tt_err(TT_EUNAVAIL, "refusing to write '%s' on the live system under tests", path);
}

static const struct tt_sysfs_store under_tests = { .name = "refused", .write = refuse_live };

int tt_root_open(struct tt_sysfs *s, const char *root)
{
	int rc = tt_sysfs_init(s, root);

	if (rc < 0)
		return rc;
	if (s->live) {
		s->store = getenv("TIERTUNE_TEST_NO_LIVE_WRITES") ? &under_tests
								  : &tt_sysfs_live_store;
		return 0;
	}
	s->store = &tt_fixture_damon;
	tt_fixture_fault(tt_test_hooks ? tt_test_hooks->fixture_fault : NULL);
	return 0;
}
