// SPDX-License-Identifier: GPL-3.0-or-later
/* core/wi-*.c and the fixture kernel: read, validate and write weights in
 * copies of fixtures, with the kernel's store rules; never the live /sys. */
#include "test.h"

#include "../../writer/apply.h"
#include "../../core/fixture-kernel.h"
#include "../../core/root.h"
#include "../../core/error.h"
#include "../../core/wi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The backends under test, by their symbols (code outside core/wi-*.c
 * reaches them through the table). */
extern const struct tt_wi_backend tt_wi_upstream, tt_wi_rfc, tt_wi_rfcv1;

static char tmpdir[256];
static struct tt_sysfs sfs;
static struct tt_topo topo;
static struct tt_wi_state cur, want;

static const char *fixtures(void)
{
	const char *top = getenv("TT_TOP");
	static char buf[512];

	snprintf(buf, sizeof(buf), "%s/tests/fixtures/sysfs", top ? top : ".");
	return buf;
}

/* A private copy of a fixture, opened as the sysfs root. */
static void open_copy(const char *name)
{
	char cmd[1024];

	snprintf(tmpdir, sizeof(tmpdir), "/tmp/tt-wi-XXXXXX");
	assert_non_null(mkdtemp(tmpdir));
	snprintf(cmd, sizeof(cmd), "cp -a '%s/%s/.' '%s/'", fixtures(), name, tmpdir);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(tt_root_open(&sfs, tmpdir), 0);
	assert_int_equal(tt_topo_load(&topo, &sfs), 0);
	tt_wi_state_init(&cur);
	tt_wi_state_init(&want);
}

static int teardown(void **state)
{
	char cmd[512];

	(void)state;
	tt_wi_state_release(&cur);
	tt_wi_state_release(&want);
	tt_topo_release(&topo);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd);
}

static const char *file(const char *rel)
{
	static char buf[256];
	char path[1024];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, rel);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

#define WI "sys/kernel/mm/mempolicy/weighted_interleave/"

static void test_upstream_roundtrip(void **state)
{
	(void)state;
	open_copy("qemu-3node-hmat");
	char why[256];
	assert_int_equal(tt_wi_upstream.detect(&sfs, why, sizeof(why)), 0);
	assert_int_equal(tt_wi_rfc.detect(&sfs, why, sizeof(why)), TT_EUNAVAIL);
	assert_non_null(strstr(why, "interleave_weight"));
	assert_int_equal(tt_wi_upstream.read(&sfs, &topo, &cur), 0);
	assert_int_equal(tt_nodemask_weight(&cur.node.set), 3);
	assert_int_equal(cur.auto_mode, -1); /* 6.12: no auto file */
	assert_int_equal(tt_weights_parse("0:5,2:2", &want.node), 0);
	want.auto_mode = -1;
	assert_int_equal(tt_wi_upstream.validate(&topo, &cur, &want), 0);
	assert_int_equal(tt_wi_upstream.write(&sfs, &want), 0);
	assert_string_equal(file(WI "node0"), "5\n");
	assert_string_equal(file(WI "node1"), "1\n");
	assert_string_equal(file(WI "node2"), "2\n");
	tt_wi_state_release(&cur);
	assert_int_equal(tt_wi_upstream.read(&sfs, &topo, &cur), 0);
	assert_int_equal(tt_weights_get(&cur.node, 0, 0), 5);
	assert_int_equal(tt_weights_get(&cur.node, 2, 0), 2);
}

static void test_upstream_validate(void **state)
{
	(void)state;
	open_copy("qemu-3node-hmat");
	assert_int_equal(tt_wi_upstream.read(&sfs, &topo, &cur), 0);
	assert_int_equal(tt_weights_parse("0:256", &want.node), 0);
	assert_int_equal(tt_wi_upstream.validate(&topo, &cur, &want), TT_EINPUT);
	assert_string_equal(tt_err_msg(), "weight '256' for node 0 out of range (1-255)");
	assert_int_equal(tt_weights_parse("1:0", &want.node), 0);
	assert_int_equal(tt_wi_upstream.validate(&topo, &cur, &want), TT_EINPUT);
	assert_int_equal(tt_weights_parse("5:1", &want.node), 0);
	assert_int_equal(tt_wi_upstream.validate(&topo, &cur, &want), TT_EINPUT);
	assert_non_null(strstr(tt_err_msg(), "node 5 is not online"));
	want.auto_mode = 1;
	assert_int_equal(tt_weights_parse("0:1", &want.node), 0);
	assert_int_equal(tt_wi_upstream.validate(&topo, &cur, &want), TT_EUNAVAIL);
	/* The writer refuses 0 even unvalidated: 6.16+ rejects it, older
	 * kernels take it as "reset". Nothing was written. */
	assert_int_equal(tt_weights_parse("0:0", &want.node), 0);
	want.auto_mode = -1;
	assert_int_equal(tt_wi_upstream.write(&sfs, &want), TT_EINPUT);
	assert_string_equal(file(WI "node0"), "1\n");
}

static void test_auto_mode(void **state)
{
	(void)state;
	open_copy("spr-ddr5-2cxl");
	assert_int_equal(tt_wi_upstream.read(&sfs, &topo, &cur), 0);
	assert_int_equal(cur.auto_mode, 1);
	assert_string_equal(cur.auto_file, "auto");
	/* Writing a node turns auto off, as node_store does. */
	assert_int_equal(tt_weights_parse("1:4", &want.node), 0);
	want.auto_mode = -1;
	assert_int_equal(tt_wi_upstream.write(&sfs, &want), 0);
	assert_string_equal(file(WI "node1"), "4\n");
	assert_string_equal(file(WI "auto"), "false\n");
	/* The kernel rejects 0 on 6.16+; the file keeps its value. */
	assert_int_equal(tt_sysfs_write(&sfs, "0", "/" WI "node1"), TT_EFAIL);
	assert_non_null(strstr(tt_err_msg(), "Invalid argument"));
	assert_string_equal(file(WI "node1"), "4\n");
	/* Back to auto: the kernel recomputes every weight from HMAT. */
	tt_weights_clear(&want.node);
	want.auto_mode = 1;
	snprintf(want.auto_file, sizeof(want.auto_file), "auto");
	assert_int_equal(tt_wi_upstream.write(&sfs, &want), 0);
	assert_string_equal(file(WI "auto"), "true\n");
	assert_string_equal(file(WI "node0"), "25\n");
	assert_string_equal(file(WI "node1"), "3\n");
	assert_string_equal(file(WI "node2"), "3\n");
}

static void test_auto_type_without_hmat(void **state)
{
	(void)state;
	open_copy("vm-1node");
	assert_int_equal(tt_wi_upstream.read(&sfs, &topo, &cur), 0);
	assert_int_equal(cur.auto_mode, 1);
	assert_string_equal(cur.auto_file, "__auto_type");
	/* No bandwidth ever reported: auto=1 is -ENODEV, nothing changes. */
	assert_int_equal(tt_sysfs_write(&sfs, "1", "/" WI "__auto_type"), TT_EFAIL);
	assert_non_null(strstr(tt_err_msg(), "No such device"));
	assert_int_equal(tt_sysfs_write(&sfs, "maybe", "/" WI "__auto_type"), TT_EFAIL);
	assert_string_equal(file(WI "__auto_type"), "true\n");
	assert_int_equal(tt_sysfs_write(&sfs, "0", "/" WI "__auto_type"), 0);
	assert_string_equal(file(WI "__auto_type"), "false\n");
	/* kstrtou8 with base 0 reads hex. */
	assert_int_equal(tt_sysfs_write(&sfs, "0x10", "/" WI "node0"), 0);
	assert_string_equal(file(WI "node0"), "16\n");
}

#define T4 "sys/devices/virtual/memory_tiering/memory_tier4/interleave_weight"

static void test_rfc_write(void **state)
{
	struct tt_wi_tier *t4;
	struct tt_weights tw;

	(void)state;
	open_copy("rfc-4node");
	assert_int_equal(tt_wi_rfc.read(&sfs, &topo, &cur), 0);
	assert_int_equal(cur.ntiers, 2);
	tt_wi_rfc.current(&cur, &topo, 1, &tw);
	assert_true(tw.w[4] == 3 && tw.w[22] == 1 && tt_nodemask_weight(&tw.set) == 2);
	t4 = tt_wi_state_add_tier(&want, 4);
	assert_non_null(t4);
	tt_weights_put(&t4->by_src, 0, 85);
	assert_int_equal(tt_wi_rfc.validate(&topo, &cur, &want), 0);
	assert_int_equal(tt_wi_rfc.write(&sfs, &want), 0);
	assert_string_equal(file(T4), "0:85,1:3,2:1,3:1\n");
	tt_weights_put(&t4->by_src, 1, 101);
	assert_int_equal(tt_wi_rfc.validate(&topo, &cur, &want), TT_EINPUT);
	assert_string_equal(tt_err_msg(),
			    "weight '101' for tier 4 from node 1 out of range (0-100)");
	/* The store handler rejects it too, and an offline source. */
	assert_int_equal(tt_sysfs_write(&sfs, "1:101", "/" T4), TT_EFAIL);
	assert_int_equal(tt_sysfs_write(&sfs, "7:1", "/" T4), TT_EFAIL);
	assert_int_equal(tt_sysfs_write(&sfs, "85", "/" T4), TT_EFAIL);
	assert_string_equal(file(T4), "0:85,1:3,2:1,3:1\n");
	t4->by_src.w[1] = 3;
	assert_null(tt_wi_state_find_tier(&want, 22));
	assert_non_null(tt_wi_state_add_tier(&want, 9));
	assert_int_equal(tt_wi_rfc.validate(&topo, &cur, &want), TT_EINPUT);
	assert_non_null(strstr(tt_err_msg(), "tier 9"));
}

/* Seed 003's store: kstrtou32(src, 10) and kstrtou8(weight, 0) return
 * their own errors (lib/kstrtox.c: a leading '+' is taken, a value past
 * the type is -ERANGE), and only "weight > 100" and an offline source are
 * the handler's -EINVAL. */
static void test_rfc_store_rules(void **state)
{
	static const struct {
		const char *value, *err; /* err NULL: taken */
		const char *after;
	} v[] = {
		{ "+1:7", NULL, "0:4,1:7,2:1,3:1\n" },
		{ "1:+0x9", NULL, "0:4,1:9,2:1,3:1\n" },
		{ "1:010\n", NULL, "0:4,1:8,2:1,3:1\n" },
		{ "0:256", "Numerical result out of range", NULL },
		{ "4294967296:1", "Numerical result out of range", NULL },
		{ "0:99999999999999999999", "Numerical result out of range", NULL },
		{ "0:101", "Invalid argument", NULL },
		{ "0x1:5", "Invalid argument", NULL },
		{ "7:1", "Invalid argument", NULL },
		{ "-1:1", "Invalid argument", NULL },
		{ "0:", "Invalid argument", NULL },
		{ "0: 5", "Invalid argument", NULL },
		{ "85", "Invalid argument", NULL },
	};
	char before[256];

	(void)state;
	open_copy("rfc-4node");
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		int rc = tt_sysfs_write(&sfs, v[i].value, "/" T4);

		snprintf(before, sizeof(before), "%s", file(T4));
		if (!v[i].err) {
			assert_int_equal(rc, 0);
			assert_string_equal(before, v[i].after);
			continue;
		}
		assert_int_equal(rc, TT_EFAIL);
		if (!strstr(tt_err_msg(), v[i].err))
			fail_msg("'%s': %s (want %s)", v[i].value, tt_err_msg(), v[i].err);
	}
	assert_string_equal(file(T4), "0:4,1:8,2:1,3:1\n");
}

#define T22 "sys/devices/virtual/memory_tiering/memory_tier22/interleave_weight"

/* Seeds 009-011: one weight per tier (show "%u\n", store kstrtou16(, 0) at
 * most 100), the same path as the v2 RFC's, told apart by what it holds. */
static void test_rfcv1(void **state)
{
	static const struct {
		const char *value, *err, *after;
	} v[] = {
		{ "+5", NULL, "5\n" },
		{ "0x10\n", NULL, "16\n" },
		{ "0", NULL, "0\n" },
		{ "101", "Invalid argument", NULL },
		{ "70000", "Numerical result out of range", NULL },
		{ "0:5", "Invalid argument", NULL },
		{ "", "Invalid argument", NULL },
	};
	char why[256];
	struct tt_weights tw;

	(void)state;
	open_copy("rfcv1-4node");
	assert_int_equal(tt_wi_rfc.detect(&sfs, why, sizeof(why)), TT_EUNAVAIL);
	assert_non_null(strstr(why, "one weight per tier"));
	assert_int_equal(tt_wi_rfcv1.detect(&sfs, why, sizeof(why)), 0);
	assert_int_equal(tt_wi_rfcv1.read(&sfs, &topo, &cur), 0);
	tt_wi_rfcv1.current(&cur, &topo, -1, &tw);
	assert_true(tt_weights_get(&tw, 4, 0) == 85 && tt_weights_get(&tw, 22, 0) == 15 &&
		    tt_weights_count(&tw) == 2);
	tt_weights_put(&want.node, 22, 30);
	assert_int_equal(tt_wi_rfcv1.validate(&topo, &cur, &want), 0);
	assert_int_equal(tt_wi_rfcv1.write(&sfs, &want), 0);
	assert_string_equal(file(T22), "30\n");
	tt_weights_put(&want.node, 22, 101);
	assert_int_equal(tt_wi_rfcv1.validate(&topo, &cur, &want), TT_EINPUT);
	assert_string_equal(tt_err_msg(), "weight '101' for tier 22 out of range (0-100)");
	tt_weights_clear(&want.node);
	tt_weights_put(&want.node, 9, 1);
	assert_int_equal(tt_wi_rfcv1.validate(&topo, &cur, &want), TT_EINPUT);
	assert_non_null(strstr(tt_err_msg(), "tier 9"));
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		int rc = tt_sysfs_write(&sfs, v[i].value, "/" T4);

		if (!v[i].err) {
			assert_int_equal(rc, 0);
			assert_string_equal(file(T4), v[i].after);
			continue;
		}
		assert_int_equal(rc, TT_EFAIL);
		if (!strstr(tt_err_msg(), v[i].err))
			fail_msg("'%s': %s (want %s)", v[i].value, tt_err_msg(), v[i].err);
	}
	/* The shared path takes either kind; a journal line is checked by its. */
	assert_true(tt_wi_weight_file_takes("/" T4, TT_WRITE_PLAIN));
	assert_true(tt_wi_weight_file_takes("/" T4, TT_WRITE_ENTRY));
	assert_false(tt_wi_weight_file_takes("/sys/kernel/mm/mempolicy/weighted_interleave/node0",
					     TT_WRITE_ENTRY));
}

/* A tier id past 1024 (abstract distance / 128: a 1 GiB/s-class node was
 * tier 1350 on a real kernel) is read, validated and written like any: the
 * RFC fixture's tier 22 renamed 1350. */
static void test_tier_1350(void **state)
{
	char cmd[1200];
	struct tt_weights tw;
	struct tt_il_order o;
	struct tt_nodemask m = { 0 };

	(void)state;
	open_copy("rfc-4node");
	tt_topo_release(&topo);
	snprintf(cmd, sizeof(cmd),
		 "mv '%s/sys/devices/virtual/memory_tiering/memory_tier22' "
		 "'%s/sys/devices/virtual/memory_tiering/memory_tier1350'",
		 tmpdir, tmpdir);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(tt_topo_load(&topo, &sfs), 0);
	assert_true(tt_wi_weight_file("/sys/devices/virtual/memory_tiering/memory_tier1350/"
				      "interleave_weight",
				      NULL));
	assert_int_equal(tt_weights_parse_ids("1350:2", TT_MAX_TIER_ID, &tw), 0);
	assert_int_equal(tt_wi_check(&tt_wi_rfc, &sfs, &topo, 0, &tw), 0);
	assert_int_equal(tt_wi_rfc.read(&sfs, &topo, &cur), 0);
	assert_non_null(tt_wi_state_find_tier(&cur, 1350));
	assert_int_equal(tt_sysfs_write(&sfs, "0:2",
					"/sys/devices/virtual/memory_tiering/memory_tier1350/"
					"interleave_weight"),
			 0);
	tt_wi_state_release(&cur);
	tt_wi_state_init(&cur);
	assert_int_equal(tt_wi_rfc.read(&sfs, &topo, &cur), 0);
	tt_wi_rfc.current(&cur, &topo, 0, &tw);
	assert_int_equal(tt_weights_get(&tw, 1350, 0), 2);
	assert_int_equal(tt_weights_get(&tw, 4, 0), 4);
	/* The order uses the weight written: nodes 0,2 of source 0 take 4 and 2. */
	tt_bit_set(m.bits, 0);
	tt_bit_set(m.bits, 2);
	assert_int_equal(tt_wi_order(&tt_wi_rfc, &cur, &topo, 0, &m, &o), 0);
	assert_true(o.weight[0] == 4 && o.weight[1] == 2);
}

/* Memory hot-added to a node of an existing tier (seed 003's memset in
 * set_node_memory_tier; seed 010's "= 1"): the fixture kernel resets the
 * tier's weights as the kernel does, and tt_apply_tiers_reset finds the
 * tier whose applied weights are gone (topo says so). 0:7,1:17,2:27 from
 * the report became 0:1,1:1,2:1,3:1. */
static void hot_add(const char *fixture, const struct tt_wi_backend *be, int src,
		    const char *want_after)
{
	char cmd[1200], statedir[300];
	struct tt_apply_plan p;
	struct tt_apply_result res;
	struct tt_weights w, reset;

	open_copy(fixture);
	/* Node 3 has no memory yet: tier 22 is node 2 alone. */
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && echo 0-2 >sys/devices/system/node/has_memory && "
		 "echo 2 >sys/devices/virtual/memory_tiering/memory_tier22/nodelist",
		 tmpdir);
	assert_int_equal(system(cmd), 0);
	tt_topo_release(&topo);
	assert_int_equal(tt_topo_load(&topo, &sfs), 0);
	snprintf(statedir, sizeof(statedir), "%s/state", tmpdir);
	assert_int_equal(tt_weights_parse("4:9,22:5", &w), 0);
	tt_apply_plan_init(&p, be, &sfs);
	assert_int_equal(tt_apply_plan_weights(&p, &topo, src, &w), 0);
	assert_int_equal(tt_apply_run(&p, statedir, "apply", &res), 0);
	tt_apply_plan_release(&p);
	assert_int_equal(tt_apply_tiers_reset(be, &sfs, statedir, &reset), 0);
	assert_int_equal(tt_fixture_node_online(&sfs, 3, 22), 0);
	assert_string_equal(file(T22), want_after);
	assert_string_equal(file("sys/devices/virtual/memory_tiering/memory_tier22/nodelist"),
			    "2-3\n");
	assert_int_equal(tt_apply_tiers_reset(be, &sfs, statedir, &reset), 1);
	assert_true(tt_weights_has(&reset, 22) && !tt_weights_has(&reset, 4));
}

static void test_hot_add_rfc(void **state)
{
	(void)state;
	hot_add("rfc-4node", &tt_wi_rfc, 0, "0:1,1:1,2:1,3:1\n");
}

static void test_hot_add_rfcv1(void **state)
{
	(void)state;
	hot_add("rfcv1-4node", &tt_wi_rfcv1, -1, "1\n");
}

static void test_live_guard(void **state)
{
	struct tt_sysfs live;

	(void)state;
	open_copy("vm-1node");
	setenv("TIERTUNE_TEST_NO_LIVE_WRITES", "1", 1);
	assert_int_equal(tt_root_open(&live, "/"), 0);
	assert_true(live.live);
	assert_int_equal(
		tt_sysfs_write(&live, "1", "/sys/kernel/mm/mempolicy/weighted_interleave/node0"),
		TT_EUNAVAIL);
	assert_non_null(strstr(tt_err_msg(), "refusing to write"));
}

/* The only files tiertune writes: table of paths, kept and refused. */
static void test_weight_file(void **state)
{
	static const struct {
		const char *rel;
		bool ok;
	} v[] = {
		{ "/sys/kernel/mm/mempolicy/weighted_interleave/node0", true },
		{ "/sys/kernel/mm/mempolicy/weighted_interleave/node1023", true },
		{ "/sys/kernel/mm/mempolicy/weighted_interleave/auto", true },
		{ "/sys/kernel/mm/mempolicy/weighted_interleave/__auto_type", true },
		{ "/sys/devices/virtual/memory_tiering/memory_tier4/interleave_weight", true },
		{ "/sys/devices/virtual/memory_tiering/memory_tier1350/interleave_weight", true },
		{ "/sys/devices/virtual/memory_tiering/memory_tier16777215/interleave_weight",
		  true },
		{ "/sys/devices/virtual/memory_tiering/memory_tier16777216/interleave_weight",
		  false },
		{ "/sys/devices/virtual/memory_tiering/memory_tier04/interleave_weight", false },
		{ "/sys/kernel/mm/mempolicy/weighted_interleave/node1024", false },
		{ "/sys/kernel/mm/mempolicy/weighted_interleave/node01", false },
		{ "/sys/kernel/mm/mempolicy/weighted_interleave/node", false },
		{ "/sys/kernel/mm/mempolicy/weighted_interleave/node1/x", false },
		{ "/sys/kernel/mm/mempolicy/weighted_interleave/../../../../devices/system/node/"
		  "online",
		  false },
		{ "/sys/devices/system/node/online", false },
		{ "/sys/devices/virtual/memory_tiering/memory_tier4/../memory_tier4/"
		  "interleave_weight",
		  false },
		{ "/sys/devices/virtual/memory_tiering/memory_tier4/nodelist", false },
		{ "/etc/passwd", false },
		{ "", false },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		assert_int_equal(tt_wi_weight_file(v[i].rel, NULL), v[i].ok);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_upstream_roundtrip, teardown),
		cmocka_unit_test_teardown(test_upstream_validate, teardown),
		cmocka_unit_test_teardown(test_auto_mode, teardown),
		cmocka_unit_test_teardown(test_auto_type_without_hmat, teardown),
		cmocka_unit_test_teardown(test_rfc_write, teardown),
		cmocka_unit_test_teardown(test_rfc_store_rules, teardown),
		cmocka_unit_test_teardown(test_rfcv1, teardown),
		cmocka_unit_test_teardown(test_tier_1350, teardown),
		cmocka_unit_test_teardown(test_hot_add_rfc, teardown),
		cmocka_unit_test_teardown(test_hot_add_rfcv1, teardown),
		cmocka_unit_test_teardown(test_live_guard, teardown),
		cmocka_unit_test(test_weight_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
