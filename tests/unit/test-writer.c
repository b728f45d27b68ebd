// SPDX-License-Identifier: GPL-3.0-or-later
/* writer/: the auto-mode rule exists once. This test links a stricter rule
 * (strict-auto-rule.c) in place of writer/auto-rule.c and shows that every
 * front end's path follows it: apply's request, auto --apply's and
 * --all-sources' planners, and tiertop's w (tui/top.c, linked in) are all
 * refused on a fixture whose auto mode is on, asking the one rule, while
 * a restore is let through. (t0006 does the same with the tiertune
 * binary built with that rule.) Fixture copies only. */
#include "test.h"

#include "../../core/error.h"
#include "../../core/root.h"
#include "../../tui/tui.h"
#include "../../writer/writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int tt_test_rule_calls[TT_WRITER_NKINDS];

static char root[256], state[256];
static struct tt_sysfs sfs;
static struct tt_topo topo;
static const struct tt_wi_backend *be;

static int setup(void **ctx)
{
	const char *top = getenv("TT_TOP");
	char cmd[1024], db[300], why[256];

	(void)ctx;
	snprintf(root, sizeof(root), "/tmp/tt-writer-XXXXXX");
	snprintf(state, sizeof(state), "/tmp/tt-writer-state-XXXXXX");
	if (!mkdtemp(root) || !mkdtemp(state))
		return -1;
	snprintf(cmd, sizeof(cmd), "cp -a '%s/tests/fixtures/sysfs/spr-ddr5-2cxl/.' '%s/'",
		 top ? top : ".", root);
	snprintf(db, sizeof(db), "%s/db.sqlite", state);
	setenv("TIERTUNE_STATE_DIR", state, 1);
	setenv("TIERTUNE_DB", db, 1);
	memset(tt_test_rule_calls, 0, sizeof(tt_test_rule_calls));
	if (system(cmd) != 0 || tt_root_open(&sfs, root) < 0 || tt_topo_load(&topo, &sfs) < 0 ||
	    tt_wi_first(&sfs, &be, why, sizeof(why)) < 0)
		return -1;
	return 0;
}

static int teardown(void **ctx)
{
	char cmd[600];

	(void)ctx;
	tt_topo_release(&topo);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", root, state);
	return system(cmd) == 0 ? 0 : -1;
}

static const char *node0(void)
{
	static char buf[32];

	if (tt_sysfs_read(&sfs, buf, sizeof(buf),
			  "/sys/kernel/mm/mempolicy/weighted_interleave/node0") < 0)
		return "?";
	return buf;
}

static int plan_five(void *ctx, struct tt_apply_plan *p)
{
	struct tt_weights w;

	(void)ctx;
	p->be = be;
	return tt_weights_parse("0:5,1:2,2:1", &w) < 0 ? TT_EFAIL
						       : tt_apply_plan_weights(p, &topo, -1, &w);
}

/* One request as a front end makes it; refused by the strict rule. */
static void refused(enum tt_writer_kind kind, enum tt_writer_from from, const char *says)
{
	struct tt_weights w;
	struct tt_writer_req rq = { .kind = kind,
				    .from = from,
				    .sfs = &sfs,
				    .topo = &topo,
				    .be = be,
				    .weights = &w,
				    .source = -1,
				    .hooks = { .plan = plan_five } };
	struct tt_writer_result res;

	assert_int_equal(tt_weights_parse("0:5,1:2,2:1", &w), 0);
	assert_int_equal(tt_writer_run(&rq, &res), TT_EUNAVAIL);
	assert_non_null(strstr(tt_err_msg(), says));
	assert_int_equal(res.written, 0);
	tt_writer_result_release(&res);
	assert_int_equal(tt_test_rule_calls[kind], 1);
	assert_string_equal(node0(), "25");
}

static void test_cli_front_ends(void **ctx)
{
	(void)ctx;
	refused(TT_WRITER_APPLY, TT_WRITER_WEIGHTS, "strict test rule (apply)");
	refused(TT_WRITER_AUTO, TT_WRITER_PLANNER, "strict test rule (auto)");
	refused(TT_WRITER_AUTO_ALL, TT_WRITER_PLANNER, "strict test rule (auto-all)");
}

/* tiertop's w, through tui/top.c as the screen calls it. */
static void test_tiertop(void **ctx)
{
	struct tt_top top;

	(void)ctx;
	memset(&top, 0, sizeof(top));
	top.sfs = sfs;
	top.topo = topo;
	top.be = be;
	top.source_node = 0;
	tt_wi_state_init(&top.wi);
	assert_int_equal(tt_top_write_weight(&top, "0:5"), TT_EUNAVAIL);
	assert_non_null(strstr(tt_err_msg(), "strict test rule (tiertop)"));
	assert_int_equal(tt_test_rule_calls[TT_WRITER_TOP_EDIT], 1);
	assert_string_equal(node0(), "25");
	/* u goes through the rule too, which lets a restore through: here
	 * there is nothing to undo, and that is what it says. */
	assert_int_equal(tt_top_undo(&top), TT_EINPUT);
	assert_non_null(strstr(tt_err_msg(), "left to undo"));
	assert_int_equal(tt_test_rule_calls[TT_WRITER_RESTORE], 0);
	tt_wi_state_release(&top.wi);
}

/* The rule is asked of a restore too, and lets it through. */
static void test_restore_allowed(void **ctx)
{
	struct tt_writer_req rq = { .kind = TT_WRITER_RESTORE,
				    .from = TT_WRITER_DEFAULTS,
				    .sfs = &sfs,
				    .topo = &topo,
				    .be = be,
				    .source = -1 };
	struct tt_writer_result res;

	(void)ctx;
	assert_int_equal(tt_writer_run(&rq, &res), 0);
	assert_int_equal(tt_test_rule_calls[TT_WRITER_RESTORE], 1);
	assert_true(res.ran);
	assert_string_equal(node0(), "1");
	tt_writer_result_release(&res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_cli_front_ends, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tiertop, setup, teardown),
		cmocka_unit_test_setup_teardown(test_restore_allowed, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
