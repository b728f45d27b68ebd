// SPDX-License-Identifier: GPL-3.0-or-later
/* tt_opt_parse and tt_opt_check (core/options.c), on a command line of the
 * input's lines against a table of every kind: the status is 0 or
 * TT_EINPUT with a message; the positional arguments are the input's words
 * in their order; with TT_OPT_STOP_AT_ARG the stop is a word of the line. */
#include "../../core/error.h"
#include "../../core/options.h"
#include "fuzz.h"

#include <assert.h>

static const char *const views[] = { "nodes", "tiers", NULL };

static const char *strategy(int i)
{
	static const char *const names[] = { "hillclimb", "grid", "shares" };

	return i >= 0 && i < 3 ? names[i] : NULL;
}

static int call(const struct tt_opt *o, const char *arg)
{
	(void)o;
	return arg[0] == 'x' ? tt_err(TT_EINPUT, "refused") : arg[0] == 'y' ? 2 : 0;
}

static void one(char **argv, int argc, unsigned int flags)
{
	bool once = false, batch = false;
	uint64_t n = 0, size = 0;
	int64_t node = -1;
	double delay = 1;
	int view = 0, strat = 0;
	const char *nodes = NULL, *called = NULL;
	struct tt_opt_budget budget = { 0 };
	struct tt_opt opts[] = {
		TT_OPT_FLAG("once", &once, "one"),
		TT_OPT_FLAG("batch", &batch, "many", .short_name = 'b'),
		TT_OPT_U64("iterations", &n, "N", "frames", 1, 1000000000, .short_name = 'n'),
		TT_OPT_DOUBLE("delay", &delay, "SECS", "interval", 0.1, 3600, .short_name = 'd'),
		TT_OPT_I64("node", &node, "N", "a node", 0, 63),
		TT_OPT_STRING("nodes", &nodes, "LIST", "nodes", .short_name = 'o'),
		TT_OPT_CHOICE("view", &view, views, "view"),
		TT_OPT_CHOICE("strategy", &strat, NULL, "search", .choice = strategy),
		TT_OPT_BUDGET("budget", &budget, "B", "budget", "trials", 1, 1000000, 604800),
		TT_OPT_SIZE("size", &size, "BYTES", "bytes", 1, UINT64_MAX, .above = true),
		TT_OPT_CALL("call", call, &called, "X", "own"),
		TT_OPT_FLAG("hidden", &once, NULL),
		TT_OPT_END,
	};
	static const struct tt_opt_rule rules[] = {
		{ .kind = TT_OPT_AT_MOST_ONE, .terms = { "once", "batch" } },
		{ .kind = TT_OPT_EXCLUDES, .terms = { "node", "nodes", "view=tiers" } },
		{ .kind = TT_OPT_NEEDS, .terms = { "iterations", "batch", "strategy=grid" } },
		{ .kind = TT_OPT_RULE_END },
	};
	struct tt_opt *tables[] = { opts, NULL };
	char *words[34];
	struct tt_opt_args a;
	int rc;

	memcpy(words, argv, sizeof(*argv) * (size_t)argc);
	rc = tt_opt_parse(tables, flags, argc, argv, &a);
	assert(rc == 0 || rc == TT_EINPUT);
	assert(rc == 0 || tt_err_msg()[0]);
	assert(a.next >= 1 && a.next <= argc);
	assert(a.n >= 0 && a.n < argc && a.dashdash <= a.n);
	/* The positional arguments, in order, among the words. */
	for (int i = 0, w = 1; i < a.n; i++, w++) {
		while (w < argc && words[w] != argv[i])
			w++;
		assert(w < argc);
	}
	if (rc == 0) {
		assert(delay >= 0.1 && delay <= 3600 && node <= 63 && n <= 1000000000);
		assert(view >= 0 && view <= 1 && strat >= 0 && strat <= 2);
		rc = tt_opt_check(tables, rules, &a);
		assert(rc == 0 || (rc == TT_EINPUT && tt_err_msg()[0]));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size), *argv[33] = { "prog" };
	int argc = 1;

	if (!s)
		return 0;
	for (char *p = s, *nl; p && argc < 33; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		argv[argc++] = p;
	}
	{
		char *copy[33];

		memcpy(copy, argv, sizeof(copy));
		one(copy, argc, 0);
		one(argv, argc, TT_OPT_STOP_AT_ARG);
	}
	free(s);
	return 0;
}
