// SPDX-License-Identifier: GPL-3.0-or-later
#include "test-hooks.h"

#include <stddef.h>

const struct tt_test_hooks *tt_test_hooks = NULL;
