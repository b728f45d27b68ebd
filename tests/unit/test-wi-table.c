// SPDX-License-Identifier: GPL-3.0-or-later
/* The weight-interface table is true (core/wi.h "To add one"): a third
 * backend, defined here and listed in a table of this test's own (linked
 * instead of core/wi.c, which holds only the table), is picked, planned, applied, undone, reset to
 * its defaults and exported through the library's generic code, with no other change. Its files,
 * /sys/kernel/mm/tiertune_test/weightN (1-9, one global weight per node), live in a copy of a
 * fixture whose upstream folder is removed. */
#include "test.h"

#include "../../core/root.h"
#include "../../writer/apply.h"
#include "../../core/error.h"
#include "../../core/recommend.h"
#include "../../core/wi.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TDIR "/sys/kernel/mm/tiertune_test"

static int t_detect(const struct tt_sysfs *s, char *why, size_t size)
{
	if (tt_sysfs_exists(s, TDIR))
		return 0;
	snprintf(why, size, "no %s", TDIR);
	return TT_EUNAVAIL;
}

static int t_read(const struct tt_sysfs *s, const struct tt_topo *t, struct tt_wi_state *st)
{
	for (int i = 0; i < t->nnodes; i++) {
		uint64_t v;
		int rc = tt_sysfs_read_u64(s, &v, 1, 9, TDIR "/weight%d", t->nodes[i].id);

		if (rc == TT_EUNAVAIL)
			continue;
		if (rc < 0)
			return rc;
		tt_weights_put(&st->node, t->nodes[i].id, (uint32_t)v);
	}
	return 0;
}

static int t_validate(const struct tt_topo *t, const struct tt_wi_state *cur,
		      const struct tt_wi_state *want)
{
	int node;

	(void)t;
	tt_nodemask_for_each (node, &want->node.set)
		if (!tt_nodemask_test(&cur->node.set, node))
			return tt_err(TT_EINPUT, "node %d has no %s/weight%d", node, TDIR, node);
	return tt_weights_check_range_of(&want->node, 1, 9, "node");
}

static int t_write(const struct tt_sysfs *s, const struct tt_wi_state *want)
{
	char v[16];
	int node, rc;

	tt_nodemask_for_each (node, &want->node.set) {
		snprintf(v, sizeof(v), "%u", want->node.w[node]);
		rc = tt_sysfs_write(s, v, TDIR "/weight%d", node);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static bool t_weight_file(const char *rel, enum tt_write_kind *kind)
{
	static const char pre[] = TDIR "/weight";
	const char *p;

	*kind = TT_WRITE_PLAIN;
	return strncmp(rel, pre, sizeof(pre) - 1) == 0 &&
	       (p = tt_wi_id_prefix(rel + sizeof(pre) - 1)) && !*p;
}

static int t_writes(const struct tt_sysfs *s, const struct tt_topo *t, int src,
		    const struct tt_weights *w, tt_wi_write_fn fn, void *ctx)
{
	(void)s, (void)t;
	return tt_wi_writes_each(w, src, TT_WRITE_PLAIN, TDIR "/weight%d", fn, ctx);
}

/* Its kernel's default: 5 for every node with memory. */
static void t_defaults(const struct tt_topo *t, int src, struct tt_weights *out)
{
	int node;

	(void)src;
	tt_weights_clear(out);
	tt_nodemask_for_each (node, &t->mem_nodes)
		tt_weights_put(out, node, 5);
}

static void t_current(const struct tt_wi_state *st, const struct tt_topo *t, int src,
		      struct tt_weights *out)
{
	(void)t, (void)src;
	*out = st->node;
}

static int t_order(struct tt_il_order *o, const struct tt_nodemask *mask, const struct tt_topo *t,
		   const struct tt_weights *w)
{
	(void)t;
	return tt_il_order_nodes(o, mask, w);
}

static const struct tt_wi_backend tt_wi_test = {
	.name = "test",
	.summary = "a test-only interface",
	.dir = TDIR,
	.unit = "node",
	.key = TT_WI_BY_NODE,
	.min_weight = 1,
	.max_weight = 9,
	.detect = t_detect,
	.read = t_read,
	.validate = t_validate,
	.write = t_write,
	.weight_file = t_weight_file,
	.writes = t_writes,
	.defaults = t_defaults,
	.current = t_current,
	.order = t_order,
};

/* core/wi.c's table with one more line: the whole of adding a backend. */
extern const struct tt_wi_backend tt_wi_upstream, tt_wi_rfc;
const struct tt_wi_backend *const tt_wi_backends[] = {
	&tt_wi_upstream,
	&tt_wi_rfc,
	&tt_wi_test,
	NULL,
};

static char root[256], state[256];
static struct tt_sysfs sfs;
static struct tt_topo topo;

/* What weightN holds now, read as tiertune reads it. */
static const char *file(int node)
{
	static char buf[64];

	assert_true(tt_sysfs_read(&sfs, buf, sizeof(buf), TDIR "/weight%d", node) >= 0);
	return buf;
}

static int setup(void **st)
{
	char cmd[2048];
	const char *top = getenv("TT_TOP");

	(void)st;
	snprintf(root, sizeof(root), "/tmp/tt-wi-table-XXXXXX");
	snprintf(state, sizeof(state), "/tmp/tt-wi-state-XXXXXX");
	if (!mkdtemp(root) || !mkdtemp(state))
		return -1;
	snprintf(cmd, sizeof(cmd),
		 "cp -a '%s/tests/fixtures/sysfs/qemu-3node-hmat/.' '%s/' && rm -r "
		 "'%s/sys/kernel/mm/mempolicy/weighted_interleave' && mkdir -p '%s" TDIR "' && "
		 "for n in 0 1 2; do echo 1 >'%s" TDIR "/weight'$n; done",
		 top ? top : ".", root, root, root, root);
	if (system(cmd) != 0 || tt_root_open(&sfs, root) < 0 || tt_topo_load(&topo, &sfs) < 0)
		return -1;
	return 0;
}

static int teardown(void **st)
{
	char cmd[600];

	(void)st;
	tt_topo_release(&topo);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", root, state);
	return system(cmd);
}

/* First detected wins; names, help and errors come from the table. */
static void test_pick(void **st)
{
	const struct tt_wi_backend *be;
	char names[64];

	(void)st;
	assert_int_equal(tt_wi_pick(&sfs, NULL, &be), 0);
	assert_ptr_equal(be, &tt_wi_test);
	assert_ptr_equal(tt_wi_find("test"), &tt_wi_test);
	assert_string_equal(tt_wi_names("|", names, sizeof(names)), "upstream|rfc|test");
	assert_int_equal(tt_wi_pick(&sfs, "nope", &be), TT_EINPUT);
	assert_string_equal(tt_err_msg(), "interface 'nope' is not one of upstream, rfc, test");
	assert_int_equal(tt_wi_pick(&sfs, "upstream", &be), TT_EUNAVAIL);
	assert_true(tt_wi_weight_file(TDIR "/weight2", NULL));
	assert_false(tt_wi_weight_file(TDIR "/weight02", NULL));
}

struct list {
	int n;
	char line[8][96];
};

static int collect(void *ctx, enum tt_write_kind kind, int src, const char *f, const char *value,
		   bool implied)
{
	struct list *l = ctx;

	(void)kind, (void)src;
	snprintf(l->line[l->n++], sizeof(l->line[0]), "%s %s%s", f, value,
		 implied ? " implied" : "");
	return 0;
}

/* Recommendations are checked in its range and converted by its key;
 * export's writes, the plan, the apply, restore --last, the defaults and
 * the interleave order all go through the descriptor. */
static void test_plan_apply_restore(void **st)
{
	struct tt_recos rs = { 0 };
	struct tt_apply_plan p;
	struct tt_apply_result res;
	struct tt_weights w;
	struct tt_wi_state cur;
	struct tt_il_order o;
	struct list l = { 0 };
	long long when;

	(void)st;
	assert_int_equal(tt_recos_add(&rs, 0, "test", "0:5,2:3", NAN, "t"), 0);
	assert_int_equal(tt_recos_add(&rs, 1, "test", "0:10", NAN, "run 3"), TT_EINPUT);
	assert_non_null(strstr(tt_err_msg(), "run 3: weight '10' for node 0 out of range (1-9)"));
	assert_int_equal(tt_recos_convert(&rs, &topo, &tt_wi_test), 0);
	assert_int_equal(tt_recos_merged(&rs, &tt_wi_test, -1, &w), 0);
	/* Keyed by node, as it says: tier weights split over a tier's nodes. */
	struct tt_recos tiers = { 0 };
	char tw[32];
	int node, k = 0;
	snprintf(tw, sizeof(tw), "%d:7", topo.tiers[0].id);
	assert_int_equal(tt_recos_add(&tiers, 0, "rfc", tw, NAN, "t"), 0);
	assert_int_equal(tt_recos_convert(&tiers, &topo, &tt_wi_test), 0);
	assert_string_equal(tiers.r[0].interface, "test");
	tt_nodemask_for_each (node, &topo.tiers[0].nodes)
		k++;
	tt_nodemask_for_each (node, &topo.tiers[0].nodes)
		assert_int_equal(tt_weights_get(&tiers.r[0].w, node, 0), tt_rfc_split(7, k));
	assert_int_equal(tt_nodemask_weight(&tiers.r[0].w.set), k);

	/* export: the writes, as the shell and tmpfiles lines are made. */
	assert_int_equal(tt_wi_test.writes(&sfs, &topo, -1, &w, collect, &l), 0);
	assert_int_equal(l.n, 2);
	assert_string_equal(l.line[0], TDIR "/weight0 5");
	assert_string_equal(l.line[1], TDIR "/weight2 3");

	/* apply: checked, planned, written and read back, recorded. */
	tt_apply_plan_init(&p, &tt_wi_test, &sfs);
	assert_int_equal(tt_apply_plan_weights(&p, &topo, -1, &w), 0);
	assert_int_equal(p.n, 2);
	assert_int_equal(tt_apply_run(&p, state, "apply", &res), 0);
	assert_int_equal(res.written, 2);
	tt_apply_plan_release(&p);
	assert_string_equal(file(0), "5");
	assert_string_equal(file(1), "1");
	assert_string_equal(file(2), "3");

	/* What a task sees now: the order over every memory node. */
	tt_wi_state_init(&cur);
	assert_int_equal(tt_wi_test.read(&sfs, &topo, &cur), 0);
	assert_int_equal(tt_wi_order(&tt_wi_test, &cur, &topo, 0, &topo.mem_nodes, &o), 0);
	assert_int_equal(o.sum, 9);
	tt_wi_state_release(&cur);

	/* Refused as any interface refuses: range, a node without a file. */
	tt_apply_plan_init(&p, &tt_wi_test, &sfs);
	tt_weights_clear(&w);
	tt_weights_put(&w, 1, 10);
	assert_int_equal(tt_apply_plan_weights(&p, &topo, -1, &w), TT_EINPUT);
	/* No auto mode: said with the interfaces that have one. */
	assert_int_equal(tt_apply_plan_auto(&p, &topo, true), TT_EUNAVAIL);
	assert_string_equal(tt_err_msg(), "the test interface has no auto mode (upstream has one)");
	tt_apply_plan_release(&p);

	/* restore --last: the history's record of this interface's files. */
	tt_apply_plan_init(&p, &tt_wi_test, &sfs);
	assert_int_equal(tt_apply_plan_last(&p, state, true, &when), 0);
	assert_int_equal(p.n, 2);
	assert_int_equal(tt_apply_run(&p, state, "restore", &res), 0);
	tt_apply_plan_release(&p);
	assert_string_equal(file(0), "1");
	assert_string_equal(file(2), "1");

	/* restore --defaults: the backend's defaults, where they differ. */
	tt_apply_plan_init(&p, &tt_wi_test, &sfs);
	tt_weights_clear(&w);
	tt_weights_put(&w, 1, 5);
	assert_int_equal(tt_apply_plan_weights(&p, &topo, -1, &w), 0);
	assert_int_equal(tt_apply_run(&p, state, "apply", &res), 0);
	tt_apply_plan_release(&p);
	assert_string_equal(file(1), "5");
	tt_apply_plan_init(&p, &tt_wi_test, &sfs);
	assert_int_equal(tt_apply_plan_defaults(&p, &topo), 0);
	assert_int_equal(p.n, 2);
	assert_int_equal(p.unchanged, 1);
	assert_int_equal(tt_apply_run(&p, state, "restore", &res), 0);
	tt_apply_plan_release(&p);
	for (int i = 0; i < 3; i++)
		assert_string_equal(file(i), "5");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pick),
		cmocka_unit_test(test_plan_apply_restore),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
