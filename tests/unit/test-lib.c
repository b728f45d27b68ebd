// SPDX-License-Identifier: GPL-3.0-or-later
/* lib/tiertune.c's public calls on their error paths: a NULL handle or
 * output, a node that is not online or has no memory, a budget out of
 * range, a probe or policy on another machine's tree: each a status and a
 * message naming the input, nothing printed. And the calls that read a
 * fixture give its figures. */
#include "test.h"

#include "../../lib/tiertune.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char root[600], model[600];

static int setup(void **state)
{
	const char *top = getenv("TT_TOP");

	(void)state;
	snprintf(root, sizeof(root), "%s/tests/fixtures/sysfs/spr-ddr5-2cxl", top ? top : ".");
	snprintf(model, sizeof(model), "%s/model/machines/spr-ddr5-2cxl.json", top ? top : ".");
	return 0;
}

/* rc is want and the message holds each of the words. */
static void said(int rc, int want, const char *w1, const char *w2)
{
	assert_int_equal(rc, want);
	if (w1 && !strstr(tiertune_error(), w1))
		fail_msg("'%s' does not name '%s'", tiertune_error(), w1);
	if (w2 && !strstr(tiertune_error(), w2))
		fail_msg("'%s' does not name '%s'", tiertune_error(), w2);
}

static void null_handles(void **state)
{
	tiertune_probe *p = (tiertune_probe *)1;
	unsigned int w[2];
	int nodes[1] = { 0 };

	(void)state;
	said(tiertune_open(NULL, NULL), TIERTUNE_EINPUT, "tiertune_open", "out");
	said(tiertune_open_model(NULL, model, NULL), TIERTUNE_EINPUT, "tiertune_open_model", "out");
	said(tiertune_node_count(NULL), TIERTUNE_EINPUT, "tiertune_node_count", "handle");
	said(tiertune_node_id(NULL, 0), TIERTUNE_EINPUT, "tiertune_node_id", "handle");
	said(tiertune_node(NULL, 0, NULL, NULL, NULL), TIERTUNE_EINPUT, "tiertune_node", "handle");
	said(tiertune_weights(NULL, 0, nodes, w, 1), TIERTUNE_EINPUT, "tiertune_weights", "handle");
	said(tiertune_probe_run(NULL, 0, NULL, 0, 300, &p), TIERTUNE_EINPUT, "tiertune_probe_run",
	     "handle");
	assert_null(p); /* the output cleared before any check */
	said(tiertune_probe_count(NULL), TIERTUNE_EINPUT, "tiertune_probe_count", "probe");
	said(tiertune_probe_result(NULL, 0, NULL, NULL, NULL, NULL), TIERTUNE_EINPUT,
	     "tiertune_probe_result", "probe");
	said(tiertune_recommend(NULL, NULL, 10, 0, w), TIERTUNE_EINPUT, "tiertune_recommend",
	     "handle");
	said(tiertune_recommend_profile(NULL, "p.json", 0, nodes, w, 1), TIERTUNE_EINPUT,
	     "tiertune_recommend_profile", "handle");
	said(tiertune_set_policy(NULL, nodes, 1), TIERTUNE_EINPUT, "tiertune_set_policy", "handle");
	tiertune_close(NULL);
	tiertune_probe_free(NULL);
}

static void bad_root(void **state)
{
	tiertune *tt = (tiertune *)1;

	(void)state;
	assert_true(tiertune_open(&tt, "/nonexistent/tiertune-root") < 0);
	assert_null(tt);
	assert_non_null(strstr(tiertune_error(), "/nonexistent/tiertune-root"));
	said(tiertune_open_model(&tt, "/nonexistent/m.json", NULL), TIERTUNE_EINPUT,
	     "/nonexistent/m.json", NULL);
	assert_null(tt);
}

/* The fixture's nodes: 0 (CPUs, DRAM, tier 4), 1 and 2 (CXL, no CPUs). */
static void fixture_nodes(void **state)
{
	unsigned int flags, w[3];
	int tier, nodes[3] = { 0, 1, 2 };
	uint64_t mem;
	tiertune *tt;

	(void)state;
	assert_int_equal(tiertune_open(&tt, root), 0);
	assert_int_equal(tiertune_node_count(tt), 3);
	assert_int_equal(tiertune_node_id(tt, 2), 2);
	said(tiertune_node_id(tt, 3), TIERTUNE_EINPUT, "index 3", "0-2");
	assert_int_equal(tiertune_node(tt, 0, &flags, &tier, &mem), 0);
	assert_int_equal(flags, TIERTUNE_NODE_CPUS | TIERTUNE_NODE_MEMORY);
	assert_int_equal(tiertune_node(tt, 1, &flags, NULL, NULL), 0);
	assert_int_equal(flags, TIERTUNE_NODE_MEMORY);
	said(tiertune_node(tt, 7, NULL, NULL, NULL), TIERTUNE_EINPUT, "node 7", "online");
	assert_int_equal(tiertune_weights(tt, 0, nodes, w, 3), 0);
	said(tiertune_weights(tt, 1, nodes, w, 3), TIERTUNE_EINPUT, "source node 1", "no CPUs");
	nodes[2] = 9;
	said(tiertune_weights(tt, 0, nodes, w, 3), TIERTUNE_EINPUT, "node 9", NULL);
	nodes[2] = 1;
	said(tiertune_weights(tt, 0, nodes, w, 3), TIERTUNE_EINPUT, "node 1 given twice", NULL);
	tiertune_close(tt);
}

/* A probe, a policy or a search times this machine: refused on a tree. */
static void not_this_machine(void **state)
{
	tiertune_probe *p = NULL;
	int nodes[2] = { 0, 1 };
	tiertune *tt;

	(void)state;
	assert_int_equal(tiertune_open(&tt, root), 0);
	said(tiertune_probe_run(tt, 0, NULL, 0, 300, &p), TIERTUNE_EINPUT, root,
	     "not this machine");
	assert_null(p);
	said(tiertune_set_policy(tt, nodes, 2), TIERTUNE_EINPUT, root, "not this machine");
	tiertune_close(tt);
}

static void bad_probe_input(void **state)
{
	tiertune_probe *p = NULL;
	int nodes[2] = { 0, 5 };
	tiertune *tt;

	(void)state;
	assert_int_equal(tiertune_open_model(&tt, model, NULL), 0);
	said(tiertune_probe_run(tt, 0, NULL, 0, 0, &p), TIERTUNE_EINPUT, "budget 0 ms", "1-600000");
	said(tiertune_probe_run(tt, 0, NULL, 0, 600001, &p), TIERTUNE_EINPUT, "budget 600001 ms",
	     NULL);
	said(tiertune_probe_run(tt, 0, nodes, 2, 300, &p), TIERTUNE_EINPUT, "node 5", NULL);
	said(tiertune_probe_run(tt, 1, NULL, 0, 300, &p), TIERTUNE_EINPUT, "source node 1",
	     "no CPUs");
	said(tiertune_probe_run(tt, 0, nodes, 0, 300, &p), TIERTUNE_EINPUT, "0 nodes", NULL);
	said(tiertune_probe_run(tt, 0, NULL, 0, 300, NULL), TIERTUNE_EINPUT, "out", NULL);
	assert_null(p);
	tiertune_close(tt);
}

/* On the model: its figures, and the search's weights. */
static void model_probe(void **state)
{
	unsigned int w[3], judged;
	tiertune_probe *p;
	double bw, lat;
	char text[64];
	tiertune *tt;
	int node;

	(void)state;
	assert_int_equal(tiertune_open_model(&tt, model, NULL), 0);
	assert_int_equal(tiertune_probe_run(tt, 0, NULL, 0, 300, &p), 0);
	assert_int_equal(tiertune_probe_count(p), 3);
	assert_int_equal(tiertune_probe_result(p, 1, &node, &bw, &lat, &judged), 0);
	assert_int_equal(node, 1);
	assert_true(bw > 0 && lat > 0);
	assert_int_equal(judged, 0);
	tiertune_judged_text(judged, text, sizeof(text));
	assert_string_equal(text, "valid");
	said(tiertune_probe_result(p, 3, NULL, NULL, NULL, NULL), TIERTUNE_EINPUT, "index 3", NULL);
	said(tiertune_recommend(tt, p, 0, 0, w), TIERTUNE_EINPUT, "no budget", NULL);
	said(tiertune_recommend(tt, p, 10, 0, NULL), TIERTUNE_EINPUT, "weights", NULL);
	assert_int_equal(tiertune_recommend(tt, p, 60, 0, w), 0);
	assert_true(w[0] > w[1] && w[1] > 0);
	tiertune_probe_free(p);
	tiertune_close(tt);
}

static void judged_words(void **state)
{
	char text[128];

	(void)state;
	tiertune_judged_text(TIERTUNE_JUDGED_CACHE_RESIDENT | TIERTUNE_JUDGED_UNSTABLE, text,
			     sizeof(text));
	assert_string_equal(text, "cache-resident, unstable");
	tiertune_judged_text(TIERTUNE_JUDGED_NOT_MEASURED, text, sizeof(text));
	assert_string_equal(text, "not measured (the budget ended first)");
}

static void profile_errors(void **state)
{
	unsigned int w[2];
	int nodes[2] = { 0, 1 };
	tiertune *tt;

	(void)state;
	assert_int_equal(tiertune_open(&tt, root), 0);
	said(tiertune_recommend_profile(tt, "/nonexistent/p.json", 0, nodes, w, 2), TIERTUNE_EINPUT,
	     "/nonexistent/p.json", NULL);
	said(tiertune_recommend_profile(tt, NULL, 0, nodes, w, 2), TIERTUNE_EINPUT, "path", NULL);
	tiertune_close(tt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(null_handles),	   cmocka_unit_test(bad_root),
		cmocka_unit_test(fixture_nodes),   cmocka_unit_test(not_this_machine),
		cmocka_unit_test(bad_probe_input), cmocka_unit_test(model_probe),
		cmocka_unit_test(judged_words),	   cmocka_unit_test(profile_errors),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
