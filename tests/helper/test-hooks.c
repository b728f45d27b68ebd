// SPDX-License-Identifier: GPL-3.0-or-later
/* The test-only front end's seams (core/test-hooks.h): linked into
 * build/tests/tiertune-test and build/tests/tiertop-script, which are
 * tiertune and tiertop with this object, never into what is shipped. It
 * fills the hooks from the test variables before main runs. */
#include "../../core/test-hooks.h"

#include <stdlib.h>

extern const struct tt_collector tt_c_script; /* c-script.c */

static const struct tt_collector *const scripted[] = { &tt_c_script, NULL };
static struct tt_test_hooks hooks = { .top_collectors = scripted };

__attribute__((constructor)) static void fill(void)
{
	hooks.app_host_nodes = getenv(TT_TEST_APP_HOST_NODES) != NULL;
	hooks.fixture_fault = getenv("TIERTUNE_TEST_FIXTURE_FAULT");
	tt_test_hooks = &hooks;
}
