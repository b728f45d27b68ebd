// SPDX-License-Identifier: GPL-3.0-or-later
/* The weight-interface table (wi.h, "To add one"): per backend, its name
 * in the declaration and a line in the table. Nothing else lives in this
 * file, so that a test can link a table of its own instead
 * (tests/unit/test-wi-table.c; an archive member is linked only for a
 * symbol still missing). The code that walks it is in wi-common.c. */
#include "wi.h"

extern const struct tt_wi_backend tt_wi_upstream, tt_wi_rfc, tt_wi_rfcv1;
const struct tt_wi_backend *const tt_wi_backends[] = {
	&tt_wi_upstream,
	&tt_wi_rfc,
	&tt_wi_rfcv1,
	NULL,
};
