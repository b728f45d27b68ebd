// SPDX-License-Identifier: GPL-3.0-or-later
/* tuner/auto.c on the fixtures and their models, without the CLI: a whole
 * run through its hooks (progress for every measurement, the record in a
 * database the hook opens), --nodes local, tier groups, the refusals, and
 * --all-sources' merge. */
#include "test.h"

#include "../../bench/kernels.h"
#include "../../writer/apply.h"
#include "../../core/error.h"
#include "../../core/grid.h"
#include "../../core/sysfs.h"
#include "../../core/topo.h"
#include "../../core/wi.h"
#include "../../db/db.h"
#include "../../tuner/auto.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One run's state, as cmd-auto.c keeps it: a fixture's topology, a
 * shipped model, the search and what it hands back. */
struct run {
	struct tt_sysfs sfs;
	struct tt_topo t;
	struct tt_model model;
	struct tt_auto_req q;
	struct tt_auto c;
	bool started;
	int calls; /* progress hook */
	const struct tt_auto *seen;
	int opened; /* open_db hook */
	char db[512];
};

static void count(void *ctx, const struct tt_auto *c, const struct tt_search *s, int trial)
{
	struct run *x = ctx;

	(void)s;
	(void)trial;
	x->calls++;
	x->seen = c;
}

static int open_db(void *ctx, struct tt_db **db)
{
	struct run *x = ctx;

	x->opened++;
	return tt_db_open(db, x->db, 0);
}

static struct run *run_new(const char *fixture, const char *model)
{
	const char *top = getenv("TT_TOP") ? getenv("TT_TOP") : ".";
	struct run *x = calloc(1, sizeof(*x));
	char p[1024];

	assert_non_null(x);
	snprintf(p, sizeof(p), "%s/tests/fixtures/sysfs/%s", top, fixture);
	assert_int_equal(tt_sysfs_init(&x->sfs, p), 0);
	assert_int_equal(tt_topo_load(&x->t, &x->sfs), 0);
	snprintf(p, sizeof(p), "%s/model/machines/%s.json", top, model);
	if (tt_model_load(&x->model, p) < 0)
		fail_msg("%s", tt_err_msg());
	return x;
}

/* The request as cmd-auto.c fills it for --model, --seed 7 and its
 * default budget there; run_start opens the session on it (after a test
 * changed what it tests). */
static void run_init(struct run *x, int source, const char *mix)
{
	x->q = (struct tt_auto_req){ .kind = TT_RUN_AUTO,
				     .command = "test-auto",
				     .kernel = tt_kernel_find(mix),
				     .source = source,
				     .repeat = 5,
				     .model = &x->model,
				     .sigma = 0.03,
				     .seed = 7,
				     .granularity = TT_GRANULARITY_DEFAULT,
				     .strategy = &tt_s_shares,
				     .budget_trials = 200 };
	assert_non_null(x->q.kernel);
}

static void run_start(struct run *x)
{
	const struct tt_auto_hooks hooks = { .progress = count, .open_db = open_db, .ctx = x };

	if (x->started)
		tt_auto_release(&x->c);
	tt_auto_init(&x->c, &x->q, &x->t, &x->sfs, &hooks);
	x->started = true;
}

static void run_search(struct run *x)
{
	run_start(x);
	assert_int_equal(tt_auto_nodes(&x->c), 0);
	assert_int_equal(tt_auto_prepare(&x->c), 0);
	assert_int_equal(tt_auto_search(&x->c), 0);
}

static void run_free(struct run *x)
{
	if (x->started)
		tt_auto_release(&x->c);
	tt_topo_release(&x->t);
	free(x);
}

/* The database and what sqlite keeps beside it in WAL mode. */
static void db_remove(const char *db)
{
	static const char *const ext[] = { "", "-wal", "-shm" };
	char p[600];

	for (size_t i = 0; i < sizeof(ext) / sizeof(*ext); i++) {
		snprintf(p, sizeof(p), "%s%s", db, ext[i]);
		unlink(p);
	}
}

static int measured(const struct tt_report *r)
{
	int n = 0;

	for (int i = 0; i < r->ntrials; i++)
		n += r->trials[i].n > 0;
	return n;
}

/* A whole run on the SPR model: every memory node, the model's profile as
 * the prior, a line for every measurement, a recommendation for the
 * source, and the run recorded with each measured trial. */
static void test_model_run(void **state)
{
	struct run *x = run_new("spr-ddr5-2cxl", "spr-ddr5-2cxl");
	struct tt_db *db;
	int64_t id = 0;
	json_t *j;
	(void)state;

	snprintf(x->db, sizeof(x->db), "%s/tt-test-auto-%ld.db",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (long)getpid());
	db_remove(x->db);
	run_init(x, 0, "triad");
	run_search(x);
	assert_true(x->c.simulated);
	assert_int_equal(x->c.s.cfg.nnodes, 3);
	assert_string_equal(x->c.s.cfg.prior_from, "model");
	assert_null(x->c.prior.profile.skipped);
	assert_int_equal(x->c.s.cfg.local_node, 0);
	assert_true(x->c.req.threads > 0);
	assert_int_equal(x->calls, x->c.s.measurements);
	assert_ptr_equal(x->seen, &x->c);
	assert_int_equal(x->c.rs.n, 1);
	assert_int_equal(x->c.rs.r[0].source_node, 0);
	assert_int_equal(x->opened, 0);
	assert_int_equal(tt_auto_record(&x->c), 0);
	id = x->c.run;
	assert_int_equal(x->opened, 1);
	assert_true(id > 0);
	assert_int_equal(tt_db_open(&db, x->db, TT_DB_READONLY), 0);
	assert_int_equal(tt_db_run_get(db, id, &j), 0);
	assert_string_equal(json_string_value(json_object_get(j, "kind")), "auto");
	assert_string_equal(json_string_value(json_object_get(j, "objective")), "bandwidth:triad");
	assert_int_equal(json_array_size(json_object_get(j, "trials")), measured(&x->c.r));
	assert_int_equal(json_array_size(json_object_get(j, "recommendations")), 1);
	json_decref(j);
	tt_db_close(db);
	db_remove(x->db);
	run_free(x);
}

/* The bandwidth objective's search through the session is the one
 * tt_search_init runs on the session's configuration (issue 33 item 1):
 * the same trials, measured as often, with the same scores, on two, three
 * and four nodes. Before, the session always started the sampling search,
 * meant for latency: on three nodes and more the pattern search, on two
 * the golden section, never the line and the fitted surrogate the quality
 * figures (tests/perf/tuner-quality.c) describe. */
static void test_bandwidth_search_is_plain(void **state)
{
	static const struct {
		const char *model;
		int source;
		const char *nodes;
	} cases[] = { { "spr-ddr5-2cxl", 0, NULL },
		      { "2s-genoa-cxl", 0, "0,2" },
		      { "xeon-max-hbm-flat", 1, NULL } };
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct run *x = run_new(cases[i].model, cases[i].model);
		struct tt_search_cfg cfg;
		struct tt_model_sim sim;
		struct tt_search s;
		const struct tt_search *a = &x->c.s;

		run_init(x, cases[i].source, "triad");
		x->q.nodes = cases[i].nodes;
		run_search(x);
		cfg = x->c.cfg;
		assert_int_equal(
			tt_model_sim_init(&sim, &x->model, cases[i].source, "triad", 0, 0.03, 7),
			0);
		assert_int_equal(tt_search_init(&s, &cfg, tt_model_measure, &sim), 0);
		assert_int_equal(tt_search_run(&s), 0);
		if (s.ntrials != a->ntrials || s.measurements != a->measurements)
			fail_msg("%s: the session made %d trials, %d measurements; "
				 "tt_search_init's search %d, %d",
				 cases[i].model, a->ntrials, a->measurements, s.ntrials,
				 s.measurements);
		for (int t = 0; t < s.ntrials; t++) {
			assert_memory_equal(s.trials[t].w, a->trials[t].w, sizeof(s.trials[t].w));
			assert_int_equal(s.trials[t].n, a->trials[t].n);
			for (int k = 0; k < s.trials[t].n; k++)
				assert_true(s.trials[t].score[k] == a->trials[t].score[k]);
		}
		assert_int_equal(s.best, a->best);
		tt_search_release(&s);
		run_free(x);
	}
}

/* What a run decided, as its report says it: every trial's vector and
 * measurements, each baseline's verdict and gain, the action and the
 * recommended weights, in one buffer to compare byte for byte. */
static size_t run_bytes(const struct tt_auto *c, unsigned char *buf, size_t cap)
{
	const struct tt_search *s = &c->s;
	const struct tt_report *r = &c->r;
	size_t n = 0;

#define PUT(p, len)                                                                                \
	do {                                                                                       \
		assert_true(n + (len) <= cap);                                                     \
		memcpy(buf + n, (p), (len));                                                       \
		n += (len);                                                                        \
	} while (0)
	for (int t = 0; t < s->ntrials; t++) {
		PUT(s->trials[t].w, sizeof(s->trials[t].w));
		PUT(&s->trials[t].n, sizeof(int));
		/* A trial the budget ended before its first measurement has no
		 * scores (NULL): memcpy from NULL is undefined even for none. */
		if (s->trials[t].n)
			PUT(s->trials[t].score, sizeof(double) * (size_t)s->trials[t].n);
	}
	for (int b = 0; b < r->nbaselines; b++) {
		PUT(&r->base[b].verdict, sizeof(r->base[b].verdict));
		PUT(&r->base[b].gain, sizeof(double));
		PUT(&r->base[b].gain_lo, sizeof(double));
		PUT(&r->base[b].gain_hi, sizeof(double));
	}
	PUT(&r->action, sizeof(r->action));
	PUT(&r->lost_to, sizeof(int));
	/* The weights as their text: past the ids in its set and its nbig
	 * large ids, a struct tt_weights holds what was there before
	 * (tt_weights_clear clears the set alone), which under ASan's stack
	 * differed between two runs of seed 1 (big[] past nbig). */
	char wtext[4096];

	tt_weights_format(&c->rs.r[0].w, wtext, sizeof(wtext));
	PUT(wtext, strlen(wtext));
	PUT(&r->elapsed_s, sizeof(double));
	PUT(r->stop_reason, strlen(r->stop_reason));
#undef PUT
	return n;
}

/* One seed's run, twice: the same bytes (run_bytes), and the action the
 * rule applied to its verdicts; the action is counted. */
static void check_seed(struct run *x, uint64_t seed, double budget_s, int *actions)
{
	static unsigned char a[1 << 16], b[1 << 16];
	const struct tt_report *r = &x->c.r;
	int kind_auto = -1, kind_local = -1;
	enum tt_reco_action want = TT_ACTION_APPLY;
	size_t na, nb;

	run_init(x, 0, "triad");
	x->q.seed = seed;
	if (budget_s > 0) {
		x->q.budget_trials = 0;
		x->q.budget_s = budget_s;
	}
	run_search(x);
	na = run_bytes(&x->c, a, sizeof(a));
	run_search(x);
	nb = run_bytes(&x->c, b, sizeof(b));
	if (na != nb || memcmp(a, b, na) != 0)
		fail_msg("seed %llu%s: two runs differ (%zu and %zu bytes; the second: %d "
			 "measurements, %g s, %s)",
			 (unsigned long long)seed, budget_s > 0 ? ", seconds budget" : "", na, nb,
			 x->c.s.measurements, r->elapsed_s, r->stop_reason);
	for (int i = 0; i < r->nbaselines; i++) {
		if (r->base[i].kind == TT_BASE_AUTO)
			kind_auto = i;
		if (r->base[i].kind == TT_BASE_LOCAL)
			kind_local = i;
	}
	/* The tree is in auto mode: auto mode is now, the one baseline the
	 * action is decided against (issue 43); local memory only where it
	 * is the best itself. */
	if (r->now_base != kind_auto)
		fail_msg("seed %llu: now is baseline %d, not auto mode's %d",
			 (unsigned long long)seed, r->now_base, kind_auto);
	if (r->lost_to >= 0)
		want = r->lost_to == kind_auto	  ? TT_ACTION_KEEP_AUTO
		       : r->lost_to == kind_local ? TT_ACTION_BIND_LOCAL
						  : TT_ACTION_APPLY;
	else if (kind_auto >= 0 && r->base[kind_auto].verdict != TT_VERDICT_BETTER)
		want = TT_ACTION_KEEP_AUTO;
	else if (kind_local >= 0 && r->base[kind_local].verdict == TT_VERDICT_SAME)
		want = TT_ACTION_BIND_LOCAL;
	if (r->action == TT_ACTION_BIND_LOCAL && r->base[kind_auto].verdict == TT_VERDICT_BETTER &&
	    r->base[kind_local].verdict != TT_VERDICT_SAME)
		fail_msg("seed %llu: bind_local over a best that beats now beyond the noise",
			 (unsigned long long)seed);
	if (r->action != want)
		fail_msg("seed %llu: action %s, but its verdicts say %s", (unsigned long long)seed,
			 tt_reco_action_name(r->action), tt_reco_action_name(want));
	actions[r->action]++;
}

/* Item 7 of issue 33: a model run is a function of its inputs and seed (200
 * seeds, each run twice: the same trials, measurements, verdicts, action,
 * weights and elapsed time, byte for byte), and its action is the rule
 * applied to the verdicts it reports: on a tree in auto mode, a baseline the
 * winner lost to is kept (auto mode, or local memory bound); else auto mode
 * is kept unless the winner is "better" than it, then local memory unless
 * the winner is "better" than that; else the weights are applied. With a
 * budget of measurements, and of seconds: a model's seconds are its
 * simulated clock (each trial's modelled duration), not the host's, which
 * made --budget 30s end where the host's load had it end. 0.08 simulated s
 * is about 90 of the 200 measurements the count budget gives, so it binds. */
static void test_seeded_runs_reproducible(void **state)
{
	struct run *x = run_new("spr-ddr5-2cxl", "spr-ddr5-2cxl");
	int actions[5] = { 0 }, by_s[5] = { 0 };
	(void)state;

	for (uint64_t seed = 1; seed <= 200; seed++) {
		check_seed(x, seed, 0, actions);
		check_seed(x, seed, 0.08, by_s);
		if (!strstr(x->c.r.stop_reason, "budget of 0.08 s reached"))
			fail_msg("seed %llu: the seconds budget did not bind (%s, %g s)",
				 (unsigned long long)seed, x->c.r.stop_reason, x->c.r.elapsed_s);
	}
	/* Both outcomes occur, so the rule was checked on each. */
	assert_true(actions[TT_ACTION_APPLY] > 0 && actions[TT_ACTION_KEEP_AUTO] > 0);
	assert_true(by_s[TT_ACTION_APPLY] > 0 && by_s[TT_ACTION_KEEP_AUTO] > 0);
	run_free(x);
}

/* The model's noise-free bandwidth of weights w over the search's nodes. */
static double truth(const struct run *x, const uint32_t *w)
{
	const struct tt_search_cfg *c = &x->c.s.cfg;
	struct tt_model_result m;
	struct tt_weights tw;
	struct tt_mix mix;

	tt_weights_clear(&tw);
	for (int k = 0; k < c->nnodes; k++)
		if (w[k])
			tt_weights_put(&tw, c->nodes[k], w[k]);
	assert_int_equal(tt_mix_from_kernel(x->q.kernel->name, &mix), 0);
	assert_int_equal(tt_model_eval(&x->model, x->q.source, &mix, 0, &tw, &m), 0);
	return m.bw_bytes_s;
}

/* The final comparison spends what the search leaves; the search leaves
 * it only what that comparison plans. On the 2-node Genoa (local DDR5
 * and a CXL expander, --nodes 0,2: a flat peak, every vector from 14:1 to
 * 31:1 within 1% of 16:1, local alone 2.48% below) at a real run's
 * budget (60) and 3% noise, the search stopped at the reserve sized
 * before any gain was known (20 measurements) while a winner whose only
 * near baseline is local planned 6 to 9 of them: seed 1018 of the quality
 * benchmark (bench/scripts/tuner-quality.sh) ended at 32:1, 1.02% below
 * the optimum, having made 47 measurements of 60, and 3 of its 20 seeds
 * (1000-1019) were more than 1% below. */
static void test_budget_spent(void **state)
{
	struct run *x = run_new("2s-genoa-cxl", "2s-genoa-cxl");
	uint32_t w[TT_SEARCH_MAX_NODES] = { 0 };
	struct tt_grid g;
	double opt = 0;
	int over = 0;
	(void)state;

	for (uint64_t seed = 1000; seed < 1020; seed++) {
		const struct tt_report *r = &x->c.r;

		run_init(x, 0, "triad");
		x->q.nodes = "0,2";
		x->q.budget_trials = 60;
		x->q.seed = seed;
		run_search(x);
		if (opt == 0)
			for (tt_grid_init(&g, 2, 32); tt_grid_next(&g, w);)
				opt = fmax(opt, truth(x, w));
		for (int k = 0; k < 2; k++)
			w[k] = tt_weights_get(r->lost_to >= 0 ? &r->base[r->lost_to].w : &r->best_w,
					      x->c.s.cfg.nodes[k], 0);
		over += truth(x, w) < 0.99 * opt;
		if (seed == 1018 && (x->c.s.measurements < 58 || truth(x, w) < 0.99 * opt))
			fail_msg("seed 1018: %u:%u, %.2f%% below the optimum, %d measurements of "
				 "60",
				 w[0], w[1], 100 * (1 - truth(x, w) / opt), x->c.s.measurements);
	}
	if (over > 1)
		fail_msg("%d of 20 seeds more than 1%% below the optimum", over);
	run_free(x);
}

/* Issue 43 item 4: the final comparison is planned to tell 3% over what
 * the machine runs now. Genoa over its own socket's nodes (--nodes 0,2,
 * no weights set: now is local DRAM), a model run's budget (200) and 3%
 * noise: the best is 2.5% over local DRAM (16:1). The search had taken the
 * budget the comparison's plan was cut from, round by round, and left it
 * 5-12 rounds: local memory was kept in 15 of 20 seeds. With the plan for
 * 3% kept (20 rounds or more) the gain is told in 19 or more. */
static void test_power_over_now(void **state)
{
	struct run *x = run_new("2s-genoa-cxl", "2s-genoa-cxl");
	int applied = 0;
	(void)state;

	for (uint64_t seed = 1000; seed < 1020; seed++) {
		const struct tt_report *r = &x->c.r;

		run_init(x, 0, "triad");
		x->q.nodes = "0,2";
		x->q.seed = seed;
		run_search(x);
		assert_int_equal(r->now_base, tt_auto_now_base(&x->c));
		assert_int_equal(r->base[r->now_base].kind, TT_BASE_LOCAL);
		applied += r->action == TT_ACTION_APPLY;
		if (r->base[r->now_base].rounds < 20)
			fail_msg("seed %d: %d rounds against local DRAM", (int)seed,
				 r->base[r->now_base].rounds);
	}
	if (applied < 19)
		fail_msg("the 2.5%% gain applied in %d of 20 seeds", applied);
	run_free(x);
}

/* --nodes local on the HBM machine: each socket its DDR and its HBM. */
static void test_local_nodes(void **state)
{
	struct run *x = run_new("xeon-max-hbm-flat", "xeon-max-hbm-flat");
	(void)state;

	for (int src = 0; src < 2; src++) {
		run_init(x, src, "triad");
		x->q.nodes = "local";
		run_start(x);
		assert_int_equal(tt_auto_nodes(&x->c), 0);
		assert_int_equal(x->c.cfg.nnodes, 2);
		assert_int_equal(x->c.cfg.nodes[0], src);
		assert_int_equal(x->c.cfg.nodes[1], src + 2);
	}
	run_free(x);
}

/* --granularity tier on the RFC fixture: the search's groups are tiers 4
 * and 22, the recommendation the RFC's per-tier form. */
static void test_tiers(void **state)
{
	struct run *x = run_new("rfc-4node", "2s-genoa-cxl");
	(void)state;

	run_init(x, 0, "reads");
	x->q.granularity = TT_GRANULARITY_TIER;
	x->q.threads = 200;
	run_search(x);
	assert_int_equal(x->c.s.cfg.nnodes, 2);
	assert_int_equal(x->c.s.cfg.nodes[0], 4);
	assert_int_equal(x->c.s.cfg.nodes[1], 22);
	assert_int_equal(x->c.s.cfg.local_node, 4);
	assert_true(x->c.r.tiers);
	assert_int_equal(x->c.rs.n, 1);
	assert_string_equal(x->c.rs.r[0].interface, tt_wi_for_key(TT_WI_BY_TIER)->name);
	run_free(x);
}

/* --granularity tier --placement kernel on the kernel with rfcv1 beside
 * upstream, its slow tier at 1350 (issue 45): each trial writes the
 * tiers' split over their nodes as node weights, so the check before the
 * first trial is of nodes 0-3, not of "nodes" 4 and 1350 ("node 4 is not
 * online" before). The tree is a copy: the check opens its weight files
 * for writing. */
static void test_tiers_kernel_placement(void **state)
{
	const char *top = getenv("TT_TOP") ? getenv("TT_TOP") : ".";
	char dir[] = "/tmp/tt-auto-tier.XXXXXX", cmd[2048];
	struct run *x = calloc(1, sizeof(*x));
	(void)state;

	assert_non_null(x);
	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd),
		 "cp -a '%s/tests/fixtures/sysfs/rfcv1-upstream-tier1350/.' '%s/root' && mkdir -m "
		 "700 '%s/state'",
		 top, dir, dir);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "%s/state", dir);
	setenv("TIERTUNE_STATE_DIR", cmd, 1);
	snprintf(cmd, sizeof(cmd), "%s/root", dir);
	assert_int_equal(tt_sysfs_init(&x->sfs, cmd), 0);
	assert_int_equal(tt_topo_load(&x->t, &x->sfs), 0);
	run_init(x, 0, "triad");
	x->q.model = NULL;
	x->q.placement = TT_PLACE_KERNEL;
	x->q.granularity = TT_GRANULARITY_TIER;
	/* No profile: it would measure this host's nodes, which the tree's
	 * are not; nothing here runs a trial. */
	x->q.no_profile = true;
	run_start(x);
	assert_int_equal(tt_auto_nodes(&x->c), 0);
	if (tt_auto_prepare(&x->c) < 0)
		fail_msg("%s", tt_err_msg());
	assert_int_equal(x->c.cfg.nnodes, 2);
	assert_int_equal(x->c.cfg.nodes[0], 4);
	assert_int_equal(x->c.cfg.nodes[1], 1350);
	run_free(x);
	unsetenv("TIERTUNE_STATE_DIR");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* What the library refuses, with the CLI's messages. */
static void test_refusals(void **state)
{
	struct run *x = run_new("spr-ddr5-2cxl", "spr-ddr5-2cxl");
	(void)state;

	run_init(x, 0, "triad");
	x->q.nodes = "x";
	run_start(x);
	assert_int_equal(tt_auto_nodes(&x->c), TT_EINPUT);
	assert_non_null(strstr(tt_err_msg(), "--nodes 'x' is not a node list"));
	run_init(x, 1, "triad");
	run_start(x);
	assert_int_equal(tt_auto_nodes(&x->c), TT_EINPUT);
	assert_non_null(strstr(tt_err_msg(), "source node 1 has no CPUs"));
	run_init(x, 0, "triad");
	x->q.nodes = "0";
	run_start(x);
	assert_int_equal(tt_auto_nodes(&x->c), 0);
	assert_int_equal(tt_auto_prepare(&x->c), TT_EUNAVAIL);
	assert_non_null(strstr(tt_err_msg(), "nothing to interleave: node 0 is the only memory "
					     "node in --nodes"));
	/* A sweep of --grid 255 over 3 nodes without a budget. */
	run_init(x, 0, "triad");
	x->q.kind = TT_RUN_SWEEP;
	x->q.strategy = &tt_s_grid;
	x->q.budget_trials = 0;
	x->q.max_weight = 255;
	run_start(x);
	assert_int_equal(tt_auto_nodes(&x->c), 0);
	assert_int_equal(tt_auto_prepare(&x->c), TT_EINPUT);
	assert_non_null(strstr(tt_err_msg(), "--grid 255 over 3 nodes"));
	assert_int_equal(x->calls, 0);
	run_free(x);
}

/* --all-sources on the HBM machine with --nodes local: the sockets' nodes
 * do not overlap, so upstream's global weights hold both, merged over all
 * four nodes, and the plan writes them once. */
static void test_all_sources(void **state)
{
	struct run *x = run_new("xeon-max-hbm-flat", "xeon-max-hbm-flat");
	struct tt_auto_all *all = calloc(1, sizeof(*all));
	struct tt_apply_plan p;
	(void)state;

	for (int src = 0; src < 2; src++) {
		run_init(x, src, "triad");
		x->q.nodes = "local";
		run_search(x);
		assert_int_equal(tt_auto_all_add(all, &x->c), 0);
	}
	tt_auto_all_merge(all, &x->sfs, &x->t);
	assert_non_null(all->be);
	assert_false(all->be->per_source);
	assert_string_equal(all->conflict, "");
	assert_string_equal(all->why, "");
	for (int node = 0; node < 4; node++)
		assert_true(tt_nodemask_test(&all->merged.set, node));
	tt_apply_plan_init(&p, all->be, &x->sfs);
	assert_int_equal(tt_auto_all_plan(all, &x->t, &p), 0);
	assert_true(p.n > 0);
	tt_apply_plan_release(&p);
	free(all);
	run_free(x);
}

/* Real bench trials on arrays the last-level cache holds would search the
 * cache's bandwidth: refused before any trial, naming the cache and the
 * size that would do, unless allowed. The SPR tree with a 32 MiB L3. */
static void test_cache_resident_refused(void **state)
{
	const char *top = getenv("TT_TOP") ? getenv("TT_TOP") : ".";
	char dir[] = "/tmp/tt-auto-llc.XXXXXX", cmd[2048];
	struct run *x = calloc(1, sizeof(*x));
	int rc;
	(void)state;

	assert_non_null(x);
	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd),
		 "cp -a '%s/tests/fixtures/sysfs/spr-ddr5-2cxl/.' '%s' && c='%s/sys/devices/system/"
		 "cpu/cpu0/cache/index3' && mkdir -p \"$c\" && echo 3 >\"$c/level\" && echo "
		 "Unified >\"$c/type\" && echo 32768K >\"$c/size\" && echo 0 "
		 ">\"$c/shared_cpu_list\"",
		 top, dir, dir);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(tt_sysfs_init(&x->sfs, dir), 0);
	assert_int_equal(tt_topo_load(&x->t, &x->sfs), 0);
	snprintf(cmd, sizeof(cmd), "%s/model/machines/spr-ddr5-2cxl.json", top);
	assert_int_equal(tt_model_load(&x->model, cmd), 0);
	run_init(x, 0, "triad");
	x->q.model = NULL;
	x->q.size_bytes = 8 << 20;
	run_start(x);
	assert_int_equal(tt_auto_nodes(&x->c), 0);
	assert_int_equal(tt_auto_prepare(&x->c), TT_EINPUT);
	assert_string_equal(
		tt_err_msg(),
		"triad's 8.0 MiB arrays are below STREAM's 4x rule: under 4x the last-level "
		"cache of its CPUs (L3, 32.0 MiB, from sysfs); all a pass touches fits there: "
		"the trial would measure the cache, not memory");
	/* 128 MiB is 4x: not refused for the cache (whatever comes next). */
	x->c.req.size_bytes = 128 << 20;
	rc = tt_auto_prepare(&x->c);
	assert_true(rc == 0 || !strstr(tt_err_msg(), "last-level cache"));
	x->c.req.size_bytes = 8 << 20;
	x->c.req.allow_cache_resident = true;
	rc = tt_auto_prepare(&x->c);
	assert_true(rc == 0 || !strstr(tt_err_msg(), "last-level cache"));
	run_free(x);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* Issue 34: an auto or sweep run's trial rows carry bench's marks, as
 * bench --record's do, so that show and plot can mark them: a real trial
 * any of whose measurements was unstable or cache-resident (let through by
 * --allow-unstable or --allow-cache-resident) is stored so, with the cache
 * it was held to; the model's trials, which time no passes, stay NULL (not
 * judged). Before, every auto and sweep row had them NULL. The search is
 * the model's (this host has no two memory nodes to place real trials on);
 * its measurements are then given what a real trial's leave in seen->last
 * (tuner/auto-pipe.c note_placement), each kept as the run keeps it. */
static void test_trial_marks_recorded(void **state)
{
	struct run *x = run_new("spr-ddr5-2cxl", "spr-ddr5-2cxl");
	struct tt_auto_seen *seen = &x->c.seen;
	int shaky = -1, resident = -1, nrec = 0, shaky_seq = 0, resident_seq = 0;
	struct tt_db *db;
	json_t *j, *t;
	size_t k;
	(void)state;

	snprintf(x->db, sizeof(x->db), "%s/tt-test-auto-marks-%ld.db",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (long)getpid());
	db_remove(x->db);
	run_init(x, 0, "triad");
	x->q.budget_trials = 40;
	run_search(x);
	assert_int_equal(tt_auto_record(&x->c), 0);
	assert_int_equal(tt_db_open(&db, x->db, TT_DB_READONLY), 0);
	assert_int_equal(tt_db_run_get(db, x->c.run, &j), 0);
	assert_true(json_array_size(json_object_get(j, "trials")) > 2);
	json_array_foreach (json_object_get(j, "trials"), k, t) {
		assert_true(json_is_null(json_object_get(t, "unstable")));
		assert_true(json_is_null(json_object_get(t, "cache_resident")));
		assert_true(json_is_null(json_object_get(t, "llc_bytes")));
	}
	json_decref(j);
	tt_db_close(db);

	/* The same trials as real ones: one unstable in its first measurement
	 * only, one cache-resident. */
	x->c.simulated = false;
	seen->per_trial = calloc((size_t)x->c.s.ntrials, sizeof(*seen->per_trial));
	assert_non_null(seen->per_trial);
	seen->nper = x->c.s.ntrials;
	for (int i = 0; i < x->c.s.ntrials; i++) {
		int n = x->c.s.trials[i].n;

		if (!n)
			continue;
		nrec++;
		if (shaky < 0 && n >= 2) {
			shaky = i;
			shaky_seq = nrec;
		} else if (resident < 0) {
			resident = i;
			resident_seq = nrec;
		}
		for (int m = 0; m < n; m++) {
			seen->last =
				(struct tt_auto_placed){ .validated = true,
							 .judged = true,
							 .llc_bytes = 32 << 20,
							 .unstable = i == shaky && m == 0,
							 .descheduled = i == shaky && m == 1,
							 .cpu_share =
								 i == shaky && m == 1 ? 0.2 : 0.95,
							 .below_rule = i == resident,
							 .cache_resident = i == resident };
			tt_auto_seen_keep(seen, i);
		}
	}
	assert_true(shaky >= 0 && resident >= 0);
	assert_int_equal(tt_auto_record(&x->c), 0);
	assert_int_equal(tt_db_open(&db, x->db, TT_DB_READONLY), 0);
	assert_int_equal(tt_db_run_get(db, x->c.run, &j), 0);
	assert_int_equal(json_array_size(json_object_get(j, "trials")), nrec);
	json_array_foreach (json_object_get(j, "trials"), k, t) {
		int seq = (int)json_integer_value(json_object_get(t, "seq"));

		assert_int_equal(json_integer_value(json_object_get(t, "llc_bytes")), 32 << 20);
		assert_true(json_is_boolean(json_object_get(t, "unstable")));
		assert_int_equal(json_is_true(json_object_get(t, "unstable")), seq == shaky_seq);
		assert_int_equal(json_is_true(json_object_get(t, "cache_resident")),
				 seq == resident_seq);
		assert_int_equal(json_is_true(json_object_get(t, "below_llc_rule")),
				 seq == resident_seq);
		assert_true(json_is_false(json_object_get(t, "short_pass")));
		/* Issue 44: descheduled in its second measurement only, its
		 * share the least of them; the verdict in bench's words. */
		assert_int_equal(json_is_true(json_object_get(t, "descheduled")), seq == shaky_seq);
		assert_true(json_real_value(json_object_get(t, "cpu_share")) ==
			    (seq == shaky_seq ? 0.2 : 0.95));
		assert_string_equal(json_string_value(json_object_get(t, "judged")),
				    seq == shaky_seq	  ? "descheduled, unstable"
				    : seq == resident_seq ? "cache-resident"
							  : "valid");
	}
	assert_string_equal(json_string_value(json_object_get(j, "judged")),
			    "descheduled, unstable; cache-resident");
	json_decref(j);
	tt_db_close(db);
	db_remove(x->db);
	run_free(x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_run),
		cmocka_unit_test(test_bandwidth_search_is_plain),
		cmocka_unit_test(test_seeded_runs_reproducible),
		cmocka_unit_test(test_budget_spent),
		cmocka_unit_test(test_power_over_now),
		cmocka_unit_test(test_local_nodes),
		cmocka_unit_test(test_tiers),
		cmocka_unit_test(test_tiers_kernel_placement),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_all_sources),
		cmocka_unit_test(test_cache_resident_refused),
		cmocka_unit_test(test_trial_marks_recorded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
