// SPDX-License-Identifier: GPL-3.0-or-later
/* core/options.c: the grammar tiertune and tiertop share, as tables of
 * command lines and what each one gives (values or the message). */
#include "test.h"

#include "../../core/error.h"
#include "../../core/options.h"
#include "../../core/parse.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

struct vals {
	bool once, batch, json, secret;
	uint64_t n, size;
	int64_t node;
	double delay;
	int view, strategy;
	const char *nodes;
	struct tt_opt_budget budget;
	const char *called;
};

static const char *const views[] = { "nodes", "tiers", NULL };

/* A plug-in table's names, as tuner/strategies.c would give them. */
static const char *strategy(int i)
{
	static const char *const names[] = { "hillclimb", "grid", "shares" };

	return i >= 0 && i < 3 ? names[i] : NULL;
}

static int call(const struct tt_opt *o, const char *arg)
{
	if (strcmp(arg, "7") == 0)
		return 7; /* the program printed its own message */
	if (strcmp(arg, "ok"))
		return tt_err(TT_EINPUT, "option '--%s' value '%s' is not ok", o->name, arg);
	*(const char **)o->value = arg;
	return 0;
}

#define OPTS(v)                                                                                    \
	{                                                                                          \
		TT_OPT_FLAG("once", &(v).once, "one"),                                             \
			TT_OPT_FLAG("batch", &(v).batch, "many", .short_name = 'b'),               \
			TT_OPT_FLAG("json", &(v).json, "json"),                                    \
			TT_OPT_FLAG("secret", &(v).secret, NULL),                                  \
			TT_OPT_U64("iterations", &(v).n, "N", "frames", 1, 1000000000,             \
				   .short_name = 'n'),                                             \
			TT_OPT_DOUBLE("delay", &(v).delay, "SECS", "interval", 0.1, 3600,          \
				      .short_name = 'd'),                                          \
			TT_OPT_I64("node", &(v).node, "N", "a node", 0, 63),                       \
			TT_OPT_STRING("nodes", &(v).nodes, "LIST", "nodes"),                       \
			TT_OPT_CHOICE("view", &(v).view, views, "view"),                           \
			TT_OPT_CHOICE("strategy", &(v).strategy, NULL, "search",                   \
				      .choice = strategy),                                         \
			TT_OPT_BUDGET("budget", &(v).budget, "TRIALS|DURATION", "budget",          \
				      "trials", 1, 1000000, 7 * 86400.0),                          \
			TT_OPT_SIZE("size", &(v).size, "BYTES", "bytes", 1, UINT64_MAX),           \
			TT_OPT_CALL("call", call, &(v).called, "X", "the program's own"),          \
			TT_OPT_END,                                                                \
	}

/* The values and positional arguments as one line, to compare. */
static void summary(const struct vals *v, char **argv, const struct tt_opt_args *a, char *buf,
		    size_t size)
{
	int at = snprintf(buf, size,
			  "once=%d batch=%d json=%d secret=%d n=%" PRIu64 " delay=%g node=%" PRId64
			  " nodes=%s view=%d strategy=%d budget=%" PRIu64 "/%g size=%" PRIu64
			  " dd=%d args=",
			  v->once, v->batch, v->json, v->secret, v->n, v->delay, v->node,
			  v->nodes ? v->nodes : "-", v->view, v->strategy, v->budget.count,
			  v->budget.seconds, v->size, a->dashdash);

	for (int i = 0; i < a->n && at < (int)size; i++)
		at += snprintf(buf + at, size - (size_t)at, "%s%s", i ? "," : "", argv[i]);
}

#define DEFAULTS                                                                                   \
	"once=0 batch=0 json=0 secret=0 n=0 delay=1 node=-1 nodes=- view=0 strategy=0 "            \
	"budget=0/0 size=0"

/* Splits line at spaces into argv (argv[0] "prog"); "_" stands for an
 * empty word. */
static int split(char *line, char **argv, int max)
{
	int argc = 0;

	argv[argc++] = "prog";
	for (char *w = strtok(line, " "); w && argc < max; w = strtok(NULL, " "))
		argv[argc++] = strcmp(w, "_") ? w : "";
	return argc;
}

static void test_parse(void **state)
{
	static const struct {
		const char *line;
		const char *want; /* the summary, or the message */
	} v[] = {
		{ "", DEFAULTS " dd=-1 args=" },
		{ "--once -bn3",
		  "once=1 batch=1 json=0 secret=0 n=3 delay=1 node=-1 nodes=- view=0 "
		  "strategy=0 budget=0/0 size=0 dd=-1 args=" },
		{ "--onc --ba", "once=1 batch=1 json=0 secret=0 n=0 delay=1 node=-1 nodes=- view=0 "
				"strategy=0 budget=0/0 size=0 dd=-1 args=" },
		/* An exact name wins over the longer names it begins. */
		{ "--node 2", "once=0 batch=0 json=0 secret=0 n=0 delay=1 node=2 nodes=- view=0 "
			      "strategy=0 budget=0/0 size=0 dd=-1 args=" },
		{ "--nod 2", "option '--nod' is ambiguous: --node, --nodes" },
		{ "--nodes=0-2 -d0.5 --view tiers --str grid a -- --once b",
		  "once=0 batch=0 json=0 secret=0 n=0 delay=0.5 node=-1 nodes=0-2 view=1 "
		  "strategy=1 budget=0/0 size=0 dd=1 args=a,--once,b" },
		/* Unlisted: its whole name only. */
		{ "--secret - x",
		  "once=0 batch=0 json=0 secret=1 n=0 delay=1 node=-1 nodes=- view=0 "
		  "strategy=0 budget=0/0 size=0 dd=-1 args=-,x" },
		{ "--sec", "unknown option '--sec'" },
		{ "--", DEFAULTS " dd=0 args=" },
		{ "--once=1", "option '--once' takes no value" },
		{ "--on=1", "option '--once' takes no value" },
		{ "-n", "option '--iterations' needs a value" },
		{ "--iter", "option '--iterations' needs a value" },
		{ "-bx", "unknown option '-x'" },
		{ "--no-such=3", "unknown option '--no-such'" },
		{ "-n 0", "option '--iterations' value '0' out of range (1-1000000000)" },
		{ "-n x", "option '--iterations' value 'x' is not a number" },
		{ "--node -1", "option '--node' value '-1' is not a number" },
		{ "-d -1", "option '--delay' value '-1' out of range (0.1-3600)" },
		{ "-d 3600.5", "option '--delay' value '3600.5' out of range (0.1-3600)" },
		{ "-d 1e-1", "once=0 batch=0 json=0 secret=0 n=0 delay=0.1 node=-1 nodes=- view=0 "
			     "strategy=0 budget=0/0 size=0 dd=-1 args=" },
		{ "-d inf", "option '--delay' value 'inf' is not a number" },
		{ "-d nan", "option '--delay' value 'nan' is not a number" },
		{ "-d 0x1p3", "option '--delay' value '0x1p3' is not a number" },
		{ "-d _", "option '--delay' value '' is not a number" },
		{ "-d 1s", "option '--delay' value '1s' is not a number" },
		{ "--view tier", "option '--view' value 'tier' is not one of: nodes, tiers" },
		{ "--strategy simplex",
		  "option '--strategy' value 'simplex' is not one of: hillclimb, grid, shares" },
		{ "--budget 60",
		  "once=0 batch=0 json=0 secret=0 n=0 delay=1 node=-1 nodes=- view=0 "
		  "strategy=0 budget=60/0 size=0 dd=-1 args=" },
		{ "--budget 1.5m", "once=0 batch=0 json=0 secret=0 n=0 delay=1 node=-1 nodes=- "
				   "view=0 strategy=0 budget=0/90 size=0 dd=-1 args=" },
		{ "--budget 168h", "once=0 batch=0 json=0 secret=0 n=0 delay=1 node=-1 nodes=- "
				   "view=0 strategy=0 budget=0/604800 size=0 dd=-1 args=" },
		{ "--budget 169h", "option '--budget' value '169h' is not a number of trials "
				   "(1-1000000) or a duration (90s, 5m, 1h; at most a week)" },
		{ "--budget 0", "option '--budget' value '0' is not a number of trials (1-1000000) "
				"or a duration (90s, 5m, 1h; at most a week)" },
		{ "--budget 0s", "option '--budget' value '0s' is not a number of trials "
				 "(1-1000000) or a duration (90s, 5m, 1h; at most a week)" },
		{ "--budget 2.5", "option '--budget' value '2.5' is not a number of trials "
				  "(1-1000000) or a duration (90s, 5m, 1h; at most a week)" },
		{ "--budget 5d", "option '--budget' value '5d' is not a number of trials "
				 "(1-1000000) or a duration (90s, 5m, 1h; at most a week)" },
		{ "--size 1.5K",
		  "once=0 batch=0 json=0 secret=0 n=0 delay=1 node=-1 nodes=- view=0 "
		  "strategy=0 budget=0/0 size=1536 dd=-1 args=" },
		{ "--size 1MB", "option '--size' value '1MB' is not a size; give " TT_SIZE_FORMS },
		{ "--size 0", "option '--size' value '0' out of range (1-18446744073709551615)" },
		{ "--call no", "option '--call' value 'no' is not ok" },
		/* A later value replaces an earlier one. */
		{ "-n 2 --iterations=5",
		  "once=0 batch=0 json=0 secret=0 n=5 delay=1 node=-1 "
		  "nodes=- view=0 strategy=0 budget=0/0 size=0 dd=-1 args=" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct vals vals = { .node = -1, .delay = 1 };
		struct tt_opt opts[] = OPTS(vals);
		struct tt_opt *tables[] = { opts, NULL };
		struct tt_opt_args args;
		char line[256], got[512], *argv[16];
		int argc, rc;

		snprintf(line, sizeof(line), "%s", v[i].line);
		argc = split(line, argv, 16);
		rc = tt_opt_parse(tables, 0, argc, argv, &args);
		if (rc == 0)
			summary(&vals, argv, &args, got, sizeof(got));
		else
			snprintf(got, sizeof(got), "%s", tt_err_msg());
		if (strcmp(got, v[i].want)) {
			print_error("'%s':\n got:  %s\n want: %s\n", v[i].line, got, v[i].want);
			fail();
		}
		assert_int_equal(rc, rc ? TT_EINPUT : 0);
	}
}

/* What the front ends need besides the message: the shape of the command
 * line (for a --help hint), an unknown option and where, a program's own
 * exit code. */
static void test_args(void **state)
{
	struct vals vals = { .node = -1 };
	struct tt_opt opts[] = OPTS(vals);
	struct tt_opt *tables[] = { opts, NULL };
	struct tt_opt_args a;
	char *bogus[] = { "prog", "--once", "--bogus", "x" };
	char *value[] = { "prog", "-n", "0" };
	char *own[] = { "prog", "--call", "7" };
	char *stop[] = { "prog", "--once", "cmd", "--batch" };

	(void)state;
	assert_int_equal(tt_opt_parse(tables, 0, 4, bogus, &a), TT_EINPUT);
	assert_true(a.grammar && a.unknown);
	assert_int_equal(a.next, 2);
	assert_int_equal(tt_opt_parse(tables, 0, 3, value, &a), TT_EINPUT);
	assert_true(!a.grammar && !a.unknown && a.failed == &opts[4]);
	assert_int_equal(tt_opt_parse(tables, 0, 3, own, &a), TT_EINPUT);
	assert_int_equal(a.call_rc, 7);
	/* Options before a command's name only. */
	assert_int_equal(tt_opt_parse(tables, TT_OPT_STOP_AT_ARG, 4, stop, &a), 0);
	assert_int_equal(a.next, 2);
	assert_true(vals.once && !vals.batch && a.n == 0);
	assert_true(tt_opt_find(tables, "batch") == &opts[1] && !opts[1].seen);
}

static void test_rules(void **state)
{
	static const struct tt_opt_rule rules[] = {
		{ .kind = TT_OPT_ONE_OF, .terms = { "once", "batch", "json" } },
		{ .kind = TT_OPT_AT_MOST_ONE, .terms = { "strategy", "budget" } },
		{ .kind = TT_OPT_EXCLUDES, .terms = { "node", "nodes", "view=tiers" } },
		{ .kind = TT_OPT_NEEDS, .terms = { "iterations", "batch", "json" } },
		{ .kind = TT_OPT_EXCLUDES,
		  .terms = { "secret", "size" },
		  "the secret has no size" },
		/* A choice's word as the term that needs another (auto's
		 * "objective=latency" needs "traffic-rate"). */
		{ .kind = TT_OPT_NEEDS, .terms = { "view=tiers", "nodes" }, "tiers need --nodes" },
		{ .kind = TT_OPT_RULE_END },
	};
	static const struct tt_opt_rule wrong[] = {
		{ .kind = TT_OPT_NEEDS, .terms = { "once", "nope" } },
		{ .kind = TT_OPT_RULE_END },
	};
	static const struct tt_opt_rule wrong_word[] = {
		{ .kind = TT_OPT_EXCLUDES, .terms = { "json", "view=tree" } },
		{ .kind = TT_OPT_RULE_END },
	};
	static const struct {
		const char *line;
		const char *want; /* "" when the rules hold */
	} v[] = {
		{ "--once", "" },
		{ "", "give one of --once, --batch or --json" },
		{ "--once --json", "give only one of --once, --batch or --json" },
		{ "--json --strategy grid --budget 5", "give only one of --strategy or --budget" },
		{ "--json --node 1 --nodes 2", "--node and --nodes do not go together" },
		{ "--json --node 1 --view tiers", "--node and --view tiers do not go together" },
		{ "--json --node 1 --view nodes", "" },
		{ "--once -n 2", "--iterations goes with --batch or --json" },
		{ "--batch -n 2", "" },
		{ "--once --secret --size 1", "the secret has no size" },
		{ "--once --view tiers", "tiers need --nodes" },
		{ "--once --view tiers --nodes 1", "" },
		{ "--once --view nodes", "" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct vals vals = { .node = -1 };
		struct tt_opt opts[] = OPTS(vals);
		struct tt_opt *tables[] = { opts, NULL };
		struct tt_opt_args args;
		char line[256], *argv[16];
		int argc = (snprintf(line, sizeof(line), "%s", v[i].line), split(line, argv, 16));
		int rc;

		assert_int_equal(tt_opt_parse(tables, 0, argc, argv, &args), 0);
		rc = tt_opt_check(tables, rules, &args);
		if (strcmp(rc ? tt_err_msg() : "", v[i].want)) {
			print_error("'%s':\n got:  %s\n want: %s\n", v[i].line,
				    rc ? tt_err_msg() : "", v[i].want);
			fail();
		}
		assert_int_equal(rc, *v[i].want ? TT_EINPUT : 0);
		assert_false(args.grammar);
	}
	/* A rule that names no option is the program's mistake, every time. */
	{
		struct vals vals = { .node = -1 };
		struct tt_opt opts[] = OPTS(vals);
		struct tt_opt *tables[] = { opts, NULL };
		struct tt_opt_args args;
		char *argv[] = { "prog" };

		assert_int_equal(tt_opt_parse(tables, 0, 1, argv, &args), 0);
		assert_int_equal(tt_opt_check(tables, wrong, &args), TT_EFAIL);
		assert_string_equal(tt_err_msg(), "an option rule names no option '--nope'");
		/* ... or a word its choice does not have, given or not. */
		assert_int_equal(tt_opt_check(tables, wrong_word, &args), TT_EFAIL);
		assert_string_equal(tt_err_msg(),
				    "an option rule names no word 'tree' of '--view'");
		/* A required option not given: the command line's shape. */
		opts[7].required = true;
		assert_int_equal(tt_opt_check(tables, NULL, &args), TT_EINPUT);
		assert_string_equal(tt_err_msg(), "this command needs --nodes");
		assert_true(args.grammar);
	}
}

/* --help's argument names: a choice's are its words. */
static void test_arg_name(void **state)
{
	struct vals vals;
	struct tt_opt opts[] = OPTS(vals);
	char buf[64];

	(void)state;
	assert_null(tt_opt_arg_name(&opts[0], buf, sizeof(buf)));
	assert_string_equal(tt_opt_arg_name(&opts[4], buf, sizeof(buf)), "N");
	assert_string_equal(tt_opt_arg_name(&opts[8], buf, sizeof(buf)), "nodes|tiers");
	assert_string_equal(tt_opt_arg_name(&opts[9], buf, sizeof(buf)), "hillclimb|grid|shares");
	/* Cut to fit. */
	assert_string_equal(tt_opt_arg_name(&opts[9], buf, 8), "hillcli");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_args),
		cmocka_unit_test(test_rules),
		cmocka_unit_test(test_arg_name),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
