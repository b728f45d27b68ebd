// SPDX-License-Identifier: GPL-3.0-or-later
/* The auto-mode rule: the one place that decides whether a write that
 * turns the kernel's auto mode off may go ahead (writer.h). Its own file,
 * so that a test can link another rule in its place and see every front
 * end follow (tests/unit/test-writer.c). */
#include "writer.h"

#include "../core/error.h"

#include <stdint.h>

/* How each front end words a refusal: the fact, and how to force it
 * there (tiertop cannot; auto --apply goes through apply --run). */
static const struct {
	const char *lost, *hint;
} words[TT_WRITER_NKINDS] = {
	[TT_WRITER_APPLY] = { "writing weights turns the kernel's auto mode off, and this kernel "
			      "cannot turn it "
			      "back on: it has no HMAT/CDAT bandwidth data, so writing 'true' "
			      "fails (ENODEV)",
			      "--force applies anyway; restore then brings back the weights but "
			      "leaves auto "
			      "mode off" },
	[TT_WRITER_AUTO] = { "writing weights turns the kernel's auto mode off, and this kernel "
			     "cannot turn it "
			     "back on (no HMAT/CDAT bandwidth data)",
			     "'tiertune apply --run %jd --force' applies anyway" },
	[TT_WRITER_AUTO_ALL] = { "writing weights turns the kernel's auto mode off, and this "
				 "kernel cannot turn it "
				 "back on (no HMAT/CDAT bandwidth data)",
				 NULL },
	[TT_WRITER_TOP_EDIT] = { "writing a weight turns the kernel's auto mode off, and this "
				 "kernel cannot turn it "
				 "back on (no HMAT/CDAT bandwidth data): use 'tiertune apply "
				 "--force' for that",
				 NULL },
	[TT_WRITER_RUN_HELD] = { "run --apply puts the kernel's auto mode back on when the "
				 "program ends, and this kernel cannot: it has no HMAT/CDAT "
				 "bandwidth data, so writing 'true' fails (ENODEV)",
				 "'tiertune apply --weights ... --force' writes them for good "
				 "(auto mode stays off), then 'tiertune run' without --apply" },
};

enum tt_auto_verdict tt_writer_auto_rule(const struct tt_writer_req *rq,
					 const struct tt_apply_plan *p)
{
	/* A restore puts back what was there: auto mode off is what it was
	 * before the apply it undoes (or what --defaults asks for). */
	if (!p->auto_lost || rq->kind == TT_WRITER_RESTORE)
		return TT_AUTO_ALLOW;
	/* --force cannot make the put-back at the program's end succeed. */
	if (rq->force && rq->kind != TT_WRITER_RUN_HELD)
		return TT_AUTO_FORCED;
	if (rq->dry_run)
		return TT_AUTO_DRY_REFUSES;
	tt_err(TT_EUNAVAIL, "%s", words[rq->kind].lost);
	if (words[rq->kind].hint)
		tt_err_hint(words[rq->kind].hint, (intmax_t)rq->run_id);
	return TT_AUTO_REFUSE;
}
