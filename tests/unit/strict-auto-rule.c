// SPDX-License-Identifier: GPL-3.0-or-later
/* A stricter auto-mode rule, linked in place of writer/auto-rule.c by
 * tests/unit/test-writer.c and build/tests/tiertune-strict-auto (t0006):
 * no write may turn the kernel's auto mode off, even one it could turn
 * back on. Changed here, in one place, every front end must follow:
 * apply, auto --apply, --all-sources and tiertop's w. Each call is
 * counted by kind, so a test sees which front ends asked. */
#include "../../writer/writer.h"

#include "../../core/error.h"

#include <string.h>

int tt_test_rule_calls[TT_WRITER_NKINDS];

enum tt_auto_verdict tt_writer_auto_rule(const struct tt_writer_req *rq,
					 const struct tt_apply_plan *p)
{
	static const char *const names[TT_WRITER_NKINDS] = { "apply",	"auto",	   "auto-all",
							     "tiertop", "restore", "run" };
	bool off = false;

	tt_test_rule_calls[rq->kind]++;
	for (int i = 0; i < p->nimplied; i++)
		off |= strcmp(p->implied[i].old, p->implied[i].value) != 0;
	if (!off || rq->kind == TT_WRITER_RESTORE)
		return TT_AUTO_ALLOW;
	if (rq->dry_run)
		return TT_AUTO_DRY_REFUSES;
	tt_err(TT_EUNAVAIL, "strict test rule (%s): this write turns the kernel's auto mode off",
	       names[rq->kind]);
	return TT_AUTO_REFUSE;
}
