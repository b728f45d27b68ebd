// SPDX-License-Identifier: GPL-3.0-or-later
/* auto's and sweep's options and the request they make (auto-options.h). */
#include "auto-options.h"

#include "cli.h"

#include "../bench/kernels.h"
#include "../core/figure.h"
#include "../core/weights.h"

#include <stdint.h>
#include <string.h>

/* Real trials: 60 measurements, the 14 that the baselines and the final
 * comparison of three baselines need and room for a 1-D search of two
 * groups to settle (tuner/README.md), a few minutes of triad. The model
 * costs microseconds a measurement: 200 lets a 3-node simplex search
 * settle too. */
#define DEFAULT_BUDGET 60
#define DEFAULT_BUDGET_MODEL 200

/* What the tables fill: the request's own fields where the types agree,
 * and the rest as parsed (raw), which request() converts. Static, as the
 * tables that point into them: one command a process, and a table too
 * long for a function (cli/options.c's common options are kept alike). */
static struct cli_auto_args args;
static struct auto_raw {
	int64_t source;
	const char *mix;
	uint64_t threads, max_weight, size, repeat;
	struct tt_opt_budget budget;
	int strategy, objective, granularity, placement; /* indices of their words */
	double traffic_gb_s;
} raw;

/* --strategy's words: the strategies' table, so help and the message
 * that refuses a word name every strategy there is. */
static const char *strategy_name(int i)
{
	return tt_strategies[i] ? tt_strategies[i]->name : NULL;
}

/* --placement's words: bench's first two modes, the two a search can run
 * its trials under (exact placement, or the kernel's policy). */
static const char *placement_name(int i)
{
	return i <= TT_PLACE_KERNEL ? tt_place_mode_names[i] : NULL;
}

#define THREADS_OPTION                                                                             \
	CLI_U64("threads", &raw.threads, "T",                                                      \
		"threads on the source node (default: one per CPU; the model's count with "        \
		"--model)",                                                                        \
		1, 4096)
#define BUDGET_OPTION(help)                                                                        \
	CLI_BUDGET("budget", &raw.budget, "TRIALS|DURATION", (help), "trials", 1, 1000000,         \
		   7 * 86400.0)

/* The options auto and sweep share: the model's noise, real trials' size
 * and passes, and recording. */
#define TRIAL_OPTIONS                                                                              \
	CLI_DOUBLE("noise", &args.req.sigma, "SIGMA",                                              \
		   "the model's relative measurement noise (0..0.2, default 0.03)", 0, 0.2),       \
		CLI_U64("seed", &args.req.seed, "S", "the model's noise seed (default 1)", 0,      \
			UINT64_MAX),                                                               \
		CLI_SIZE("size", &raw.size, "BYTES",                                               \
			 "real trials: bytes per array (default: STREAM's rule)", 4096,            \
			 UINT64_C(1) << 46),                                                       \
		CLI_U64("repeat", &raw.repeat, "R", "real trials: timed passes each (default 5)",  \
			1, 1000),                                                                  \
		CLI_FLAG("allow-cache-resident", &args.req.allow_cache_resident,                   \
			 "real trials: allow --size under 4x the last-level cache (they then "     \
			 "measure the cache)"),                                                    \
		CLI_FLAG(                                                                          \
			"allow-unstable", &args.req.allow_unstable,                                \
			"real trials: keep one whose passes spread beyond 10% or whose thread "    \
			"ran under 90% of them (app mode: a program thread kept waiting for a "    \
			"CPU over 10% of its run), recorded as unstable or descheduled (without: " \
			"measured again, three such runs end the run)"),                           \
		CLI_FLAG("no-record", &args.no_record,                                             \
			 "do not store the run in the database (stored by default)"),              \
		CLI_FLAG("verbose", &args.verbose,                                                 \
			 "a line per measurement on a terminal too (default there: one status "    \
			 "line)")

static struct cli_opt auto_opts[] = {
	CLI_I64("source-node", &raw.source, "N",
		"the CPU node whose threads the weights are for (or --all-sources)", 0,
		TT_MAX_NODES - 1),
	CLI_STRING("nodes", &args.req.nodes, "LIST",
		   "the memory nodes to interleave over (default: every memory node, which "
		   "a --model must describe; 'local': those nearest the source)"),
	CLI_STRING("mix", &raw.mix, "KERNEL",
		   "the traffic: a bench bandwidth kernel (default triad; see 'tiertune bench "
		   "--list')"),
	THREADS_OPTION,
	CLI_U64("max-weight", &raw.max_weight, "W", "the largest weight tried (default 32)", 1,
		TT_SEARCH_MAX_WEIGHT),
	BUDGET_OPTION("measurements in all, or a duration such as 90s, 5m, 1h (default 60 "
		      "measurements; 200 with --model)"),
	CLI_STRING("model", &args.model, "FILE.json",
		   "measure on a performance model (model/machines/) instead of this machine: "
		   "every figure SIMULATED; the topology is the modelled machine's tree the "
		   "model names, unless --sysfs-root"),
	CLI_CHOICE("strategy", &raw.strategy, NULL, "search strategy (default: the first)",
		   .choice = strategy_name),
	CLI_CHOICE("objective", &raw.objective, tt_objective_names,
		   "bandwidth (default) or latency: the loaded latency at --traffic-rate",
		   .arg = "NAME"),
	CLI_DOUBLE("traffic-rate", &raw.traffic_gb_s, "GB/S",
		   "the mix's traffic at which --objective latency measures (10^9 bytes/s, "
		   "the mix's counting)",
		   0, 1e5, .above = true),
	CLI_DOUBLE("max-latency", &args.req.max_lat_ns, "NS",
		   "bandwidth within a loaded-latency bound, in ns: weights over it are "
		   "infeasible",
		   1, 1e6),
	CLI_CHOICE("granularity", &raw.granularity, tt_granularity_names,
		   "search node weights (default) or memory-tier weights (the RFC's per-tier "
		   "form)"),
	CLI_FLAG("all-sources", &args.all_sources,
		 "search for every CPU node in turn and merge the set (instead of "
		 "--source-node)"),
	CLI_FLAG("no-profile", &args.req.no_profile,
		 "skip the profile (bandwidth and latency from the source to each node): "
		 "HMAT's figures as the prior"),
	CLI_CHOICE("placement", &raw.placement, NULL,
		   "bench trials: exact (default: userspace placement, no root, nothing "
		   "written) or kernel (each candidate's weights written to sysfs for its "
		   "trial and put back, MPOL_WEIGHTED_INTERLEAVE; root)",
		   .choice = placement_name, .arg = "MODE"),
	CLI_STRING("metric", &args.req.app.metric, "REGEX",
		   "app mode: the score is the number the program prints that REGEX "
		   "matches (its first group, else the whole match; the last match) "
		   "instead of its wall time"),
	CLI_FLAG("higher-is-better", &args.req.app.higher_is_better,
		 "app mode: a larger --metric is better (default: smaller, like time)"),
	TRIAL_OPTIONS,
	CLI_FLAG("apply", &args.apply,
		 "write the recommendation through the apply transaction ('tiertune restore "
		 "--last' undoes it)"),
	CLI_END,
};

static struct cli_opt sweep_opts[] = {
	CLI_I64("source-node", &raw.source, "N", "the CPU node whose threads run the trials", 0,
		TT_MAX_NODES - 1, .required = true),
	CLI_STRING("nodes", &args.req.nodes, "LIST",
		   "the memory nodes (default: every memory node, which a --model must "
		   "describe)"),
	CLI_U64("grid", &raw.max_weight, "W", "every reduced vector of weights 0..W over the nodes",
		1, TT_SEARCH_MAX_WEIGHT, .required = true),
	CLI_STRING("mix", &raw.mix, "KERNEL",
		   "the traffic: a bench bandwidth kernel (default triad)"),
	THREADS_OPTION,
	BUDGET_OPTION("stop after this many measurements or this long (default: the whole grid; "
		      "real trials: at most 2000 measurements without it)"),
	CLI_STRING("model", &args.model, "FILE.json",
		   "measure on a performance model instead of this machine: every figure "
		   "SIMULATED"),
	TRIAL_OPTIONS,
	CLI_END,
};

/* The model's options, and real trials' (auto and sweep). */
#define TRIAL_RULES                                                                                \
	{ .kind = TT_OPT_NEEDS,                                                                    \
	  .terms = { "noise", "model" },                                                           \
	  .message = "--noise goes with --model (real trials bring their own)" },                  \
	{                                                                                          \
		.kind = TT_OPT_EXCLUDES, .terms = { "model", "size", "repeat" },                   \
		.message = "--size and --repeat shape real trials; --model has none"               \
	}

/* auto's, in the order they are checked: the source, the objective, the
 * placement, the model, --apply. */
static const struct tt_opt_rule auto_rules[] = {
	{ .kind = TT_OPT_EXCLUDES,
	  .terms = { "all-sources", "source-node" },
	  .message = "--all-sources searches for every CPU node: give it or --source-node, not "
		     "both" },
	{ .kind = TT_OPT_ONE_OF,
	  .terms = { "source-node", "all-sources" },
	  .message = "auto needs --source-node N (or --all-sources)" },
	{ .kind = TT_OPT_EXCLUDES,
	  .terms = { "max-latency", "objective=latency" },
	  .message = "--max-latency bounds the bandwidth objective; --objective latency "
		     "minimises the latency itself" },
	{ .kind = TT_OPT_NEEDS,
	  .terms = { "traffic-rate", "objective=latency" },
	  .message = "--traffic-rate states the level for --objective latency" },
	{ .kind = TT_OPT_NEEDS,
	  .terms = { "objective=latency", "traffic-rate" },
	  .message = "--objective latency needs --traffic-rate GB/S: the traffic at which to "
		     "minimise the loaded latency" },
	{ .kind = TT_OPT_EXCLUDES,
	  .terms = { "placement=kernel", "objective=latency", "max-latency" },
	  .message = "--placement kernel measures bandwidth only, not the latency objective or "
		     "bound" },
	TRIAL_RULES,
	{ .kind = TT_OPT_EXCLUDES,
	  .terms = { "apply", "json" },
	  .message = "--apply prints apply's own report; give it without --json, or run "
		     "'tiertune apply --run RUN --json' afterwards" },
	{ .kind = TT_OPT_RULE_END },
};

static const struct tt_opt_rule sweep_rules[] = {
	TRIAL_RULES,
	{ .kind = TT_OPT_RULE_END },
};

static bool given(const char *name)
{
	return tt_opt_find((struct tt_opt *[]){ auto_opts, NULL }, name)->seen;
}

/* App mode's program: the arguments after "--", and only those. */
static int app_command(const struct tt_cli *cli, char **argv, int nargs)
{
	if (nargs && cli->dashdash != 0)
		return cli_usage("auto takes a program only after '--', got '%s'", argv[0]);
	if (cli->dashdash == 0 && !nargs)
		return cli_usage("no command after '--' (auto --source-node N [options] -- COMMAND "
				 "ARGS...)");
	/* argv has room: the positional arguments are fewer than argc. */
	argv[nargs] = NULL;
	args.req.app.argv = nargs ? argv : NULL;
	return 0;
}

/* What goes with a program after "--" and what does not: the checks the
 * rules cannot state, as the program is no option. */
static int app_mode(void)
{
	bool app = args.req.app.argv != NULL, placement = given("placement");
	bool kernel = placement && raw.placement == TT_PLACE_KERNEL;

	if ((given("metric") || args.req.app.higher_is_better) && !app)
		return cli_usage("--%s scores a program: give it after '--' (auto --source-node N "
				 "[options] -- COMMAND ARGS...)",
				 given("metric") ? "metric" : "higher-is-better");
	/* Not a rule: without a program, that it needs one says more. */
	if (args.req.app.higher_is_better && !given("metric"))
		return cli_usage("--higher-is-better is the direction of --metric; wall time is "
				 "lower-is-better");
	if (app && placement && !kernel)
		return cli_usage("a program runs under the kernel's policy: --placement '%s' does "
				 "not apply to it",
				 placement_name(raw.placement));
	if (app && (given("mix") || given("threads") || given("size") || given("repeat")))
		return cli_usage("--mix, --threads, --size and --repeat shape bench trials; a "
				 "program after '--' is its own traffic");
	if (app && (given("objective") || given("traffic-rate") || given("max-latency") ||
		    given("granularity")))
		return cli_usage(
			"--objective, --traffic-rate, --max-latency and --granularity shape "
			"bench trials; a program after '--' is scored by its own time or "
			"--metric");
	if ((app || placement) && args.all_sources)
		return cli_usage("--all-sources runs bench trials with exact placement; app mode "
				 "and --placement take one --source-node");
	if ((app || kernel) && args.model)
		return cli_usage("--model measures nothing: trials under the kernel's policy (app "
				 "mode, --placement kernel) run on this machine");
	return 0;
}

/* The request from what the tables filled; the mix checked last. */
static int request(const struct tt_cli *cli)
{
	struct tt_auto_req *q = &args.req;
	bool is_auto = q->kind == TT_RUN_AUTO;

	if (is_auto && !raw.budget.count && !raw.budget.seconds)
		raw.budget.count = args.model ? DEFAULT_BUDGET_MODEL : DEFAULT_BUDGET;
	q->command = cli->cmdline;
	q->source = (int)raw.source;
	q->threads = (int)raw.threads;
	q->size_bytes = raw.size;
	q->repeat = (int)raw.repeat;
	q->max_weight = (uint32_t)raw.max_weight;
	q->objective = (struct tt_objective){ .kind = tt_objective_choice(raw.objective),
					      .traffic_gb_s = raw.traffic_gb_s };
	q->granularity = (enum tt_granularity)raw.granularity;
	q->placement = (enum tt_place_mode)raw.placement;
	q->strategy = is_auto ? tt_strategies[raw.strategy] : &tt_s_grid;
	q->budget_trials = (int)raw.budget.count;
	q->budget_s = raw.budget.seconds;
	if (tt_mix_from_kernel(raw.mix, &(struct tt_mix){ 0 }) < 0 ||
	    !(q->kernel = tt_kernel_find(raw.mix)))
		return cli_fail(TT_EINPUT);
	return 0;
}

/* Asked for no source on a machine of one memory node: that there is
 * nothing to interleave is the reason, not the missing --source-node it
 * would be asked for first (issue 44). With a source, a model or --nodes
 * the search's own check says it (tuner/auto.c tt_auto_prepare). */
static int one_node_first(struct tt_cli *cli)
{
	struct tt_topo *t;
	int rc, nmem = 0, node = -1;

	if (raw.source >= 0 || args.all_sources || args.model || args.req.nodes)
		return -1;
	if ((rc = cli_topo(cli)))
		return rc;
	t = cli->topo;
	for (int i = 0; i < t->nnodes; i++)
		if (t->nodes[i].has_memory) {
			nmem++;
			node = t->nodes[i].id;
		}
	return nmem == 1 ? cli_fail(tt_auto_one_node(node, false)) : -1;
}

int cli_auto_parse(struct tt_cli *cli, enum tt_run_kind kind, int argc, char **argv,
		   struct cli_auto_args *a)
{
	bool is_auto = kind == TT_RUN_AUTO;
	int nargs, rc;

	args = (struct cli_auto_args){ .req = { .kind = kind, .sigma = 0.03, .seed = 1 } };
	raw = (struct auto_raw){ .source = -1,
				 .mix = "triad",
				 .max_weight = TT_WEIGHTINESS,
				 .repeat = 5,
				 .granularity = TT_GRANULARITY_DEFAULT };
	rc = cli_parse_first(cli, cli_find_command(tt_run_kind_name(kind)),
			     is_auto ? auto_opts : sweep_opts, is_auto ? auto_rules : sweep_rules,
			     one_node_first, argc, argv, &nargs);
	if (rc >= 0)
		return rc;
	if (is_auto && (rc = app_command(cli, argv, nargs)))
		return rc;
	if (raw.granularity == TT_GRANULARITY_TIER && raw.max_weight > 100)
		return cli_usage("--max-weight %ju with --granularity tier: tier weights are "
				 "0-100 (the RFC's range)",
				 (uintmax_t)raw.max_weight);
	if (is_auto && (rc = app_mode()))
		return rc;
	if ((rc = request(cli)))
		return rc;
	*a = args;
	return -1;
}
