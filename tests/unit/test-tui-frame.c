// SPDX-License-Identifier: GPL-3.0-or-later
/* tui/frame.c: which figure lands in which cell, and why a cell has none.
 * The topology is the 2s-genoa-cxl fixture (tiers 4: nodes 0-1, 22: nodes
 * 2-3); readings are made up here, as the sampler would hand them over. */
#include "test.h"

#include "../../core/error.h"
#include "../../core/numa-maps.h"
#include "../../tui/frame.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const struct tt_wi_backend tt_wi_upstream;

static struct tt_topo topo;
static struct tt_sysfs sfs;

static int setup(void **state)
{
	char root[4096];

	(void)state;
	snprintf(root, sizeof(root), "%s/tests/fixtures/sysfs/2s-genoa-cxl",
		 getenv("TT_TOP") ? getenv("TT_TOP") : ".");
	if (tt_sysfs_init(&sfs, root) < 0 || tt_topo_load(&topo, &sfs) < 0)
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tt_topo_release(&topo);
	return 0;
}

/* perf-uncore with two boxes on node 0, one on nodes 1 and 2, none on 3
 * unless all is set. Metric order: read, write per box. */
static struct tt_source *uncore(bool all)
{
	static const int box_node[] = { 0, 0, 1, 2, 3 };
	struct tt_source *s = tt_source_new(&tt_c_uncore, 16);
	int cap = 16;

	for (int b = 0; b < (all ? 5 : 4); b++) {
		tt_source_add(s, &cap, "read_bytes", "bytes/s", TT_COUNTER, box_node[b], "box");
		tt_source_add(s, &cap, "write_bytes", "bytes/s", TT_COUNTER, box_node[b], "box");
	}
	return s;
}

static struct tt_frame_in input(struct tt_feed *feed, struct tt_wi_state *wi)
{
	return (struct tt_frame_in){ .topo = &topo,
				     .be = &tt_wi_upstream,
				     .wi = wi,
				     .source_node = 0,
				     .interval_s = 1,
				     .now_s = 100,
				     .wall = 0,
				     .feed = feed };
}

static const struct tt_frame_row *row(const struct tt_frame *f, enum tt_frame_row_kind k, int id)
{
	for (int i = 0; i < f->nrows; i++)
		if (f->rows[i].kind == k &&
		    (k == TT_ROW_TOTAL ||
		     (k == TT_ROW_NODE ? f->rows[i].node : f->rows[i].tier) == id))
			return &f->rows[i];
	return NULL;
}

static bool has_note(const struct tt_frame *f, const char *start)
{
	for (int i = 0; i < f->nnotes; i++)
		if (strncmp(f->notes[i], start, strlen(start)) == 0)
			return true;
	return false;
}

static void take(struct tt_feed *feed, const double *rd, enum tt_sample_state st, double t)
{
	struct tt_reading r[10];
	int n = feed->src[0]->nmetrics;

	for (int m = 0; m < n; m++)
		r[m] = (struct tt_reading){ .seq = feed->seq + (uint64_t)m,
					    .t_s = t,
					    .source = 0,
					    .metric = m,
					    .value = m % 2 ? 1e9 : rd[m / 2],
					    .state = st };
	tt_feed_take(feed, r, (size_t)n);
}

static void test_cells(void **state)
{
	struct tt_source *s = uncore(true);
	struct tt_feed feed;
	struct tt_wi_state wi;
	struct tt_frame f;
	struct tt_frame_in in;
	static const double rd[] = { 10e9, 20e9, 30e9, 15e9, 15e9 };

	(void)state;
	tt_wi_state_init(&wi);
	for (int n = 0; n < 4; n++)
		tt_weights_put(&wi.node, n, n < 2 ? 3 : 1);
	assert_int_equal(tt_feed_init(&feed, &s, 1), 0);
	in = input(&feed, &wi);

	/* Nothing sampled yet: initializing, never 0. */
	assert_int_equal(tt_frame_build(&f, &in), 0);
	assert_true(f.initializing);
	assert_int_equal(row(&f, TT_ROW_NODE, 0)->rd.st, TT_CELL_INIT);
	assert_int_equal(row(&f, TT_ROW_TIER, 4)->rd.st, TT_CELL_INIT);
	tt_frame_release(&f);

	/* A first counter reading is init; the next is a rate. */
	take(&feed, rd, TT_S_INIT, 99);
	assert_int_equal(tt_frame_build(&f, &in), 0);
	assert_int_equal(row(&f, TT_ROW_NODE, 2)->rd.st, TT_CELL_INIT);
	tt_frame_release(&f);
	take(&feed, rd, TT_S_OK, 100);
	assert_int_equal(tt_frame_build(&f, &in), 0);
	assert_false(f.initializing);
	/* Node 0 has two boxes: their sum. Writes are 1 GB/s per box. */
	assert_true(row(&f, TT_ROW_NODE, 0)->rd.v == 30e9);
	assert_true(row(&f, TT_ROW_NODE, 0)->wr.v == 2e9);
	assert_true(row(&f, TT_ROW_TIER, 4)->rd.v == 60e9);
	assert_true(row(&f, TT_ROW_TIER, 22)->rd.v == 30e9);
	assert_true(row(&f, TT_ROW_TOTAL, 0)->rd.v == 90e9);
	/* Measured shares of read + write: 32, 31, 16, 16 of 95. */
	assert_true(fabs(row(&f, TT_ROW_NODE, 0)->mshare.v - 32.0 / 95) < 1e-12);
	assert_true(fabs(row(&f, TT_ROW_TIER, 22)->mshare.v - 32.0 / 95) < 1e-12);
	assert_true(fabs(row(&f, TT_ROW_TOTAL, 0)->mshare.v - 1) < 1e-12);
	/* Weights 3:3:1:1 imply 37.5% and 12.5%; the tier sums them. */
	assert_true(row(&f, TT_ROW_NODE, 1)->weight.v == 3);
	assert_true(fabs(row(&f, TT_ROW_NODE, 1)->wshare.v - 0.375) < 1e-12);
	assert_true(fabs(row(&f, TT_ROW_TIER, 22)->wshare.v - 0.25) < 1e-12);
	assert_true(row(&f, TT_ROW_TIER, 4)->weight.v == 6);
	/* No numastat: allocation n/a with the reason, memory from meminfo. */
	assert_int_equal(row(&f, TT_ROW_NODE, 0)->alloc.st, TT_CELL_NA);
	assert_true(has_note(&f, "ALLOC/s: n/a: numastat collector: "));
	assert_int_equal(row(&f, TT_ROW_NODE, 0)->mem_used.st, TT_CELL_OK);
	tt_frame_release(&f);

	/* Readings three intervals old: the source stopped answering. */
	in.now_s = 105;
	assert_int_equal(tt_frame_build(&f, &in), 0);
	assert_int_equal(row(&f, TT_ROW_NODE, 3)->rd.st, TT_CELL_STALE);
	assert_int_equal(row(&f, TT_ROW_TOTAL, 0)->rd.st, TT_CELL_STALE);
	tt_frame_release(&f);
	/* A reading the sampler marks stale. */
	in.now_s = 101;
	take(&feed, rd, TT_S_STALE, 101);
	assert_int_equal(tt_frame_build(&f, &in), 0);
	assert_int_equal(row(&f, TT_ROW_NODE, 1)->rd.st, TT_CELL_STALE);
	tt_frame_release(&f);

	tt_feed_release(&feed);
	tt_source_free(s);
	tt_wi_state_release(&wi);
}

static void test_missing_node(void **state)
{
	struct tt_source *s = uncore(false);
	struct tt_feed feed;
	struct tt_wi_state wi;
	struct tt_frame f;
	struct tt_frame_in in;
	static const double rd[] = { 10e9, 20e9, 30e9, 15e9 };

	(void)state;
	tt_wi_state_init(&wi);
	assert_int_equal(tt_feed_init(&feed, &s, 1), 0);
	in = input(&feed, &wi);
	take(&feed, rd, TT_S_OK, 100);
	assert_int_equal(tt_frame_build(&f, &in), 0);
	/* Node 3 has no box: n/a, and no node gets a share of a partial sum. */
	assert_int_equal(row(&f, TT_ROW_NODE, 3)->rd.st, TT_CELL_NA);
	assert_int_equal(row(&f, TT_ROW_NODE, 0)->mshare.st, TT_CELL_NA);
	assert_true(has_note(&f, "READ WRITE MEAS%: n/a for node 3: perf-uncore has no counter"));
	assert_true(has_note(&f, "MEAS%: n/a: not every memory node has a traffic figure"));
	/* No nodeN weights read: every node weighs 1. */
	assert_true(row(&f, TT_ROW_NODE, 2)->weight.v == 1);
	assert_true(has_note(&f, "WGT: node 2 has no weighted_interleave/node2 file"));
	tt_frame_release(&f);
	tt_feed_release(&feed);
	tt_source_free(s);
	tt_wi_state_release(&wi);
}

static void test_no_sources(void **state)
{
	struct tt_feed feed;
	struct tt_frame f;
	struct tt_frame_in in;

	(void)state;
	assert_int_equal(tt_feed_init(&feed, NULL, 0), 0);
	feed.nun = 1;
	feed.un[0].c = &tt_c_uncore;
	snprintf(feed.un[0].name, sizeof(feed.un[0].name), "perf-uncore");
	snprintf(feed.un[0].why, sizeof(feed.un[0].why), "no PMU");
	in = input(&feed, NULL);
	in.be = NULL;
	in.wi_why = "no weighted_interleave folder";
	assert_int_equal(tt_frame_build(&f, &in), 0);
	assert_int_equal(row(&f, TT_ROW_NODE, 0)->rd.st, TT_CELL_NA);
	assert_int_equal(row(&f, TT_ROW_NODE, 0)->weight.st, TT_CELL_NA);
	assert_true(has_note(
		&f, "READ WRITE MEAS%: n/a: no traffic counter here: perf-uncore: no PMU"));
	assert_true(
		has_note(&f, "WGT WGT%: n/a: no weight interface: no weighted_interleave folder"));
	assert_string_equal(f.collectors, "none");
	assert_string_equal(f.iface, "none");
	tt_frame_release(&f);
	tt_feed_release(&feed);
}

static void test_procs(void **state)
{
	struct tt_feed feed;
	struct tt_wi_state wi;
	struct tt_frame f;
	struct tt_frame_in in;
	struct tt_proc_info p = { .pid = 42, .comm = "app", .mode = TT_MPOL_WEIGHTED_INTERLEAVE };
	struct tt_proc_scan scan = { .n = 1, .p = &p };

	(void)state;
	tt_wi_state_init(&wi);
	tt_weights_put(&wi.node, 0, 3);
	tt_weights_put(&wi.node, 2, 1);
	p.bytes = calloc(TT_MAX_NODES, sizeof(uint64_t));
	assert_non_null(p.bytes);
	for (int n = 0; n <= 2; n += 2) {
		tt_bit_set(p.nodes.bits, (unsigned int)n);
		tt_bit_set(p.resident.bits, (unsigned int)n);
	}
	p.bytes[0] = 4096 * 700;
	p.bytes[2] = 4096 * 300;
	p.total_bytes = 4096 * 1000;
	assert_int_equal(tt_feed_init(&feed, NULL, 0), 0);
	in = input(&feed, &wi);
	in.procs = &scan;
	assert_int_equal(tt_frame_build(&f, &in), 0);
	assert_int_equal(f.nprocs, 1);
	assert_string_equal(f.procs[0].policy, "weighted interleave:0,2");
	assert_int_equal(f.procs[0].nnodes, 2);
	assert_true(f.procs[0].nodes[1].pages == 300);
	/* Weights 3:1 over {0, 2} want 75% and 25%: 5 points off. */
	assert_true(fabs(f.procs[0].nodes[0].want.v - 0.75) < 1e-12);
	assert_true(fabs(f.procs[0].skew - 0.05) < 1e-12);
	tt_frame_release(&f);
	/* Plain interleave wants equal shares whatever the weights. */
	p.mode = TT_MPOL_INTERLEAVE;
	assert_int_equal(tt_frame_build(&f, &in), 0);
	assert_true(fabs(f.procs[0].nodes[1].want.v - 0.5) < 1e-12);
	tt_frame_release(&f);
	free(p.bytes);
	tt_feed_release(&feed);
	tt_wi_state_release(&wi);
}

/* Demotion and promotion per node (numastat's nodeN/vmstat metrics): the
 * demotion rate sums the pgdemote_* the kernel has; a node where none
 * answers is n/a with the reason, never 0. */
static void test_migration(void **state)
{
	static const struct {
		const char *name;
		int node;
		double value; /* NAN: the key is absent (the sampler says stale, never ok) */
	} m[] = {
		{ "pgdemote_kswapd", 0, 100 },	   { "pgdemote_direct", 0, 20 },
		{ "pgdemote_khugepaged", 0, NAN }, { "pgpromote_success", 0, 30 },
		{ "pgdemote_kswapd", 1, NAN },	   { "pgdemote_direct", 1, NAN },
		{ "pgpromote_success", 1, 5 },	   { "pgpromote_success", -1, 35 },
		{ "pgdemote_kswapd", -1, 90 },	   { "pgdemote_direct", -1, 30 },
		{ "pgdemote_khugepaged", -1, 40 }, { "pgdemote_proactive", -1, NAN },
	};
	const int n = (int)(sizeof(m) / sizeof(*m));
	struct tt_source *s = tt_source_new(&tt_c_numastat, n);
	struct tt_reading r[sizeof(m) / sizeof(*m)];
	struct tt_feed feed;
	struct tt_wi_state wi;
	struct tt_frame f;
	struct tt_frame_in in;
	int cap = n;

	(void)state;
	tt_wi_state_init(&wi);
	for (int node = 0; node < 4; node++)
		tt_weights_put(&wi.node, node, 1);
	for (int i = 0; i < n; i++)
		tt_source_add(s, &cap, m[i].name, "pages/s", TT_COUNTER, m[i].node, "vmstat");
	assert_int_equal(tt_feed_init(&feed, &s, 1), 0);
	in = input(&feed, &wi);
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < n; i++)
			r[i] = (struct tt_reading){ .seq = feed.seq + (uint64_t)i,
						    .t_s = 99 + pass,
						    .source = 0,
						    .metric = i,
						    .value = isnan(m[i].value) ? 0 : m[i].value,
						    .state = isnan(m[i].value) ? TT_S_STALE
							     : pass	       ? TT_S_OK
									       : TT_S_INIT };
		tt_feed_take(&feed, r, (size_t)n);
		assert_int_equal(tt_frame_build(&f, &in), 0);
		assert_int_equal(f.ndemote, 4);
		assert_int_equal(f.demote_to[0].node, 0);
		if (!pass) {
			/* First reading of a counter: init, not 0. */
			assert_int_equal(f.demote_to[0].demote.st, TT_CELL_INIT);
			assert_int_equal(f.demote_to[0].promote.st, TT_CELL_INIT);
			tt_frame_release(&f);
			continue;
		}
		/* kswapd + direct; khugepaged absent on this kernel: left out. */
		assert_int_equal(f.demote_to[0].demote.st, TT_CELL_OK);
		assert_true(f.demote_to[0].demote.v == 120);
		assert_true(f.demote_to[0].promote.v == 30);
		assert_string_equal(f.demote_to[0].preferred, "2");
		assert_string_equal(f.demote_to[0].allowed, "2-3");
		/* Node 1: no pgdemote_* at all (before 6.8), promotions counted. */
		assert_int_equal(f.demote_to[1].demote.st, TT_CELL_NA);
		assert_true(f.demote_to[1].promote.st == TT_CELL_OK &&
			    f.demote_to[1].promote.v == 5);
		/* Nodes 2 and 3: no metric at all. */
		assert_int_equal(f.demote_to[2].demote.st, TT_CELL_NA);
		assert_int_equal(f.demote_to[3].promote.st, TT_CELL_NA);
		assert_true(
			has_note(&f, "DEMOTED/s per node: n/a: nodeN/vmstat has no pgdemote_*"));
		assert_true(has_note(
			&f, "PROMOTED/s per node: n/a: nodeN/vmstat has no pgpromote_success"));
		/* The machine-wide figures stay /proc/vmstat's own, summed as
		 * a node's are: khugepaged's demotions count there too. */
		assert_true(f.demote.st == TT_CELL_OK && f.demote.v == 160);
		assert_true(f.promote.st == TT_CELL_OK && f.promote.v == 35);
		tt_frame_release(&f);
	}
	/* Without numastat: every rate n/a, the footer says why once. */
	tt_feed_release(&feed);
	assert_int_equal(tt_feed_init(&feed, NULL, 0), 0);
	in = input(&feed, &wi);
	assert_int_equal(tt_frame_build(&f, &in), 0);
	assert_int_equal(f.demote_to[0].demote.st, TT_CELL_NA);
	assert_int_equal(f.demote_to[0].promote.st, TT_CELL_NA);
	assert_true(has_note(&f, "ALLOC/s: n/a: numastat collector: "));
	tt_frame_release(&f);
	tt_feed_release(&feed);
	tt_source_free(s);
	tt_wi_state_release(&wi);
}

/* A traffic collector added by the recipe alone (collector.h: its file
 * with .meanings; no list in tiertop or collect.c names it) shows as
 * tiertop's READ, WRITE and MEAS% columns. Counted at the issuing CPUs,
 * its scope's reason stands in for the shares. */
static const struct tt_metric_meaning recipe_meanings[] = {
	{ "rd", TT_ROLE_READ_BYTES, TT_SCOPE_MEMORY, TT_UNIT_BYTES_S, TT_AGG_SUM },
	{ "wr", TT_ROLE_WRITE_BYTES, TT_SCOPE_MEMORY, TT_UNIT_BYTES_S, TT_AGG_SUM },
	{ 0 },
};

static void test_recipe_collector(void **state)
{
	struct tt_collector c = { .name = "recipe", .meanings = recipe_meanings };
	struct tt_source *s = tt_source_new(&c, 8);
	struct tt_reading r[8];
	struct tt_feed feed;
	struct tt_wi_state wi;
	struct tt_frame f;
	struct tt_frame_in in;
	int cap = 8;

	(void)state;
	tt_wi_state_init(&wi);
	for (int n = 0; n < 4; n++) {
		tt_source_add(s, &cap, "rd", "bytes/s", TT_GAUGE, n, "x");
		tt_source_add(s, &cap, "wr", "bytes/s", TT_GAUGE, n, "x");
	}
	for (int m = 0; m < 8; m++)
		r[m] = (struct tt_reading){ .seq = (uint64_t)m,
					    .t_s = 100,
					    .metric = m,
					    .value = m % 2 ? 1e9 : 3e9,
					    .state = TT_S_OK };
	assert_int_equal(tt_collector_traffic_rank(&c), 0);
	assert_int_equal(tt_feed_init(&feed, &s, 1), 0);
	tt_feed_take(&feed, r, 8);
	in = input(&feed, &wi);
	assert_int_equal(tt_frame_build(&f, &in), 0);
	assert_true(row(&f, TT_ROW_NODE, 2)->rd.st == TT_CELL_OK &&
		    row(&f, TT_ROW_NODE, 2)->rd.v == 3e9);
	assert_true(row(&f, TT_ROW_NODE, 2)->wr.v == 1e9);
	assert_true(row(&f, TT_ROW_TOTAL, 0)->rd.v == 12e9);
	assert_true(fabs(row(&f, TT_ROW_NODE, 3)->mshare.v - 0.25) < 1e-12);
	assert_false(has_note(&f, "READ WRITE MEAS%"));
	tt_frame_release(&f);

	c.scope_why = "what the recipe counts: each node's CPUs";
	c.meanings = (const struct tt_metric_meaning[]){
		{ "rd", TT_ROLE_READ_BYTES, TT_SCOPE_CPUS, TT_UNIT_BYTES_S, TT_AGG_SUM },
		{ "wr", TT_ROLE_WRITE_BYTES, TT_SCOPE_CPUS, TT_UNIT_BYTES_S, TT_AGG_SUM },
		{ 0 },
	};
	assert_int_equal(tt_collector_traffic_rank(&c), 2);
	assert_int_equal(tt_frame_build(&f, &in), 0);
	assert_true(row(&f, TT_ROW_NODE, 0)->rd.v == 3e9);
	assert_int_equal(row(&f, TT_ROW_NODE, 0)->mshare.st, TT_CELL_NA);
	assert_true(has_note(&f, "MEAS%: n/a: READ is what the recipe counts: each node's CPUs"));
	tt_frame_release(&f);
	tt_feed_release(&feed);
	tt_source_free(s);
	tt_wi_state_release(&wi);
}

struct lines {
	int width, n;
	size_t len;
	char text[65536];
};

/* Every line within the width; a renderer that loops (a wrap that takes no
 * text) fails here after a bound rather than hanging the suite. */
static void keep(void *ctx, int style, const char *line)
{
	struct lines *l = ctx;
	size_t n = strlen(line);

	(void)style;
	if (l->width > 0 && (int)n > l->width)
		fail_msg("width %d: a line of %zu columns: '%s'", l->width, n, line);
	if (++l->n > 2000)
		fail_msg("width %d: over 2000 lines: the renderer does not end", l->width);
	if (l->len + n + 2 < sizeof(l->text)) {
		memcpy(l->text + l->len, line, n);
		l->len += n;
		l->text[l->len++] = '\n';
		l->text[l->len] = '\0';
	}
}

/* tiertop at any terminal width, 1 to 200 columns (issue 21: 11 columns
 * looped for ever in wrapped(), 1-10 read before the text): each line
 * fits, the text ends, and the footer's words are all there whenever the
 * longest fits. */
static void test_every_width(void **state)
{
	static const char msg[] = "not written: writing weights needs root (the kernel's weight "
				  "files are root's): run tiertop as root";
	struct tt_feed feed;
	struct tt_frame f;
	struct tt_frame_in in;
	struct tt_proc_info p = { .pid = 42, .comm = "app", .mode = TT_MPOL_INTERLEAVE };
	struct tt_proc_scan scan = { .n = 1, .p = &p };
	static struct lines l;

	(void)state;
	p.bytes = calloc(TT_MAX_NODES, sizeof(uint64_t));
	assert_non_null(p.bytes);
	tt_bit_set(p.nodes.bits, 0);
	tt_bit_set(p.resident.bits, 0);
	p.bytes[0] = p.total_bytes = 4096 * 10;
	assert_int_equal(tt_feed_init(&feed, NULL, 0), 0);
	feed.nun = 1;
	feed.un[0].c = &tt_c_uncore;
	snprintf(feed.un[0].name, sizeof(feed.un[0].name), "perf-uncore");
	snprintf(feed.un[0].why, sizeof(feed.un[0].why), "no uncore_imc PMU");
	in = input(&feed, NULL);
	in.be = NULL;
	in.wi_why = "no weighted_interleave folder";
	in.procs = &scan;
	in.message = msg;
	assert_int_equal(tt_frame_build(&f, &in), 0);
	for (int w = 1; w <= 200; w++) {
		for (int k = 0; k < 4; k++) {
			struct tt_render_opts o = { .width = w,
						    .processes = k & 1,
						    .no_demotion = k & 2 };
			char words[sizeof(msg)], *save = NULL;

			memset(&l, 0, sizeof(l));
			l.width = w;
			tt_frame_lines(&f, &o, keep, &l);
			assert_true(l.n > 0);
			if (w < 12) /* the longest word of the message */
				continue;
			memcpy(words, msg, sizeof(msg));
			for (char *t = strtok_r(words, " ", &save); t;
			     t = strtok_r(NULL, " ", &save))
				if (!strstr(l.text, t))
					fail_msg("width %d: the message lost '%s'", w, t);
		}
	}
	tt_frame_release(&f);
	free(p.bytes);
	tt_feed_release(&feed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cells),
		cmocka_unit_test(test_missing_node),
		cmocka_unit_test(test_no_sources),
		cmocka_unit_test(test_procs),
		cmocka_unit_test(test_migration),
		cmocka_unit_test(test_every_width),
		cmocka_unit_test(test_recipe_collector),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
