// SPDX-License-Identifier: GPL-3.0-or-later
/* tiertune rebalance: a running process's pages to the shares weights stand
 * for. Weights reach only new allocations; a heap allocated before them
 * keeps its placement until the program restarts. This reads where the
 * process's private anonymous pages are (move_pages queries on this
 * machine; /proc/PID/numa_maps on another root), shows each node's share
 * against its target and, with --move, moves pages with move_pages(2) in
 * bounded batches until every node is within the tolerance of its share.
 * A dry run by default, as migratepages' users would expect of a tool that
 * touches a production process. The work is rebalance-out.c (run
 * --rebalance-after does it too), the planner and mover migrate/rebalance.c. */
#include "cli.h"

#include "../core/figure.h"
#include "../migrate/rebalance.h"
#include "../core/topo.h"
#include "../core/wi.h"

#include <stdint.h>
#include <string.h>

/* --damon-stop needs no weights: it is done before the rules that ask
 * for them (cli_parse_first). */
static bool damon_stop;

static int damon_stop_first(struct tt_cli *cli)
{
	return damon_stop ? cli_rebalance_damon_stop(cli) : -1;
}

/* --damon with --pid: the goal counts physical memory only, a process's
 * would be a vaddr context, which the kernel refuses it in. */
static int damon_check(const struct tt_cli *cli, bool damon, int64_t pid)
{
	if (damon && cli->json)
		return cli_usage("rebalance --damon reports as text only (no --json yet)");
	if (!damon && !pid)
		return cli_usage("this command needs --pid (or --damon, the machine's hot memory "
				 "kept by DAMON)");
	if (damon && pid)
		return cli_fail(tt_err(TT_EUNAVAIL,
				       "DAMON cannot keep one process's shares: its goal "
				       "node_eligible_mem_bp counts physical memory and the kernel "
				       "refuses it in a process's (vaddr) context "
				       "(damon_commit_ctx: -EINVAL); --damon without --pid keeps "
				       "the whole machine's hot memory, rebalance --pid moves a "
				       "process's pages once"));
	return -1;
}

int cmd_rebalance(struct tt_cli *cli, int argc, char **argv)
{
	static const char *const orders[] = { "shares", "interleave", NULL };
	struct cli_target tg = { .run = -1, .source = -1, .weights_auto = true };
	struct cli_rebalance_opts o = { .tolerance_pct = 1, .batch = 1024, .rounds = 3 };
	const struct tt_wi_backend *be = tt_wi_for_key(TT_WI_BY_NODE);
	int64_t pid = 0;
	uint64_t batch = 1024, rounds = 3;
	int order = TT_RB_SHARES; /* the index in orders[], as enum tt_rb_order */
	struct cli_damon_opts d = { .every = 2 };
	bool damon = false;
	struct cli_opt opts[] = {
		CLI_I64("pid", &pid, "PID", "the process whose pages to rebalance", 1, INT32_MAX),
		CLI_STRING("weights", &tg.weights, "N:W,...|auto",
			   "the node weights whose shares to bring about"),
		CLI_I64("run", &tg.run, "RUN", "the weights run RUN recommends", 1, INT64_MAX),
		CLI_STRING("profile", &tg.profile, "FILE",
			   "the weights of a profile (export --format json) made on this "
			   "hardware"),
		CLI_SOURCE_NODE(&tg.source, "the source node whose recommendation to use"),
		CLI_FLAG("force", &tg.force, "use a run or profile from other hardware"),
		CLI_FLAG("move", &o.move,
			 "move the pages (default: a dry run that shows the plan)"),
		CLI_DOUBLE("tolerance", &o.tolerance_pct, "PCT",
			   "each node within PCT percentage points of its share (default 1)", 0.01,
			   50),
		CLI_CHOICE("order", &order, orders,
			   "shares: the fewest moves, spread over the address space; "
			   "interleave: each page where the kernel's weighted interleave would "
			   "put it (default shares)"),
		CLI_DOUBLE("rate", &o.rate_mib_s, "MIB_S",
			   "move at most MIB_S MiB per second, 0.1 or more (default 0: no limit)",
			   0, TT_RB_RATE_MAX_BYTES_S / (1024 * 1024)),
		CLI_U64("batch", &batch, "N", "at most N pages per move_pages call (default 1024)",
			1, 1 << 20),
		CLI_U64("rounds", &rounds, "N",
			"move, look again and move what is still off, at most N times (default 3)",
			1, 100),
		CLI_FLAG("move-all", &o.move_all,
			 "also move pages shared with other processes (MPOL_MF_MOVE_ALL: "
			 "CAP_SYS_NICE)"),
		CLI_FLAG("no-record", &o.no_record, "do not record the rebalance in the database"),
		CLI_FLAG("damon", &damon,
			 "keep the machine's hot memory at the shares with DAMON (a "
			 "node_eligible_mem_bp goal a node; docs/damon.md), removed on exit"),
		CLI_DOUBLE("damon-seconds", &d.seconds, "S",
			   "with --damon, report for S seconds, then remove it (default 0: "
			   "until interrupted)",
			   0, 1e9),
		CLI_DOUBLE("damon-every", &d.every, "S",
			   "with --damon, seconds between reports (default 2)", 0.01, 3600),
		CLI_FLAG("damon-keep", &d.keep,
			 "with --damon, leave it running after the first report"),
		CLI_FLAG("damon-stop", &damon_stop,
			 "remove the DAMON schemes a --damon-keep left (nothing else)"),
		CLI_END,
	};
	static const struct tt_opt_rule rules[] = {
		{ .kind = TT_OPT_ONE_OF,
		  .terms = { "weights", "run", "profile" },
		  .message = "rebalance needs exactly one of --weights, --run, --profile" },
		{ .kind = TT_OPT_EXCLUDES,
		  .terms = { "damon", "move", "order", "rate", "batch", "rounds", "move-all",
			     "tolerance" } },
		{ .kind = TT_OPT_NEEDS, .terms = { "damon-keep", "damon" } },
		{ .kind = TT_OPT_NEEDS, .terms = { "damon-seconds", "damon" } },
		{ .kind = TT_OPT_NEEDS, .terms = { "damon-every", "damon" } },
		{ .kind = TT_OPT_EXCLUDES, .terms = { "damon-keep", "damon-seconds" } },
		{ .kind = TT_OPT_RULE_END },
	};
	struct tt_weights w;
	struct tt_topo *t;
	int nargs, src = -1,
		   rc = cli_parse_first(cli, cli_find_command("rebalance"), opts, rules,
					damon_stop_first, argc, argv, &nargs);

	if (rc >= 0)
		return rc;
	if (nargs)
		return cli_usage("rebalance takes no arguments ('%s')", argv[0]);
	rc = damon_check(cli, damon, pid);
	if (rc >= 0)
		return rc;
	if (o.rate_mib_s > 0 &&
	    o.rate_mib_s < TT_RB_RATE_MIN_BYTES_S / tt_figure(TT_FIG_MOVE_RATE)->divisor)
		return cli_usage("option '--rate' value %g MiB/s below 0.1 (a 2 MiB huge page "
				 "every 20 s); 0 is no limit",
				 o.rate_mib_s);
	o.order = order;
	o.batch = (uint32_t)batch;
	o.rounds = (int)rounds;
	rc = cli_setup(cli);
	if (rc)
		return rc;
	t = cli->topo;
	tt_weights_clear(&w);
	rc = be ? cli_target_weights(cli, &tg, t, be, &w, &src)
		: tt_err(TT_EUNAVAIL, "no weight interface keyed by node");
	if (rc == 0 && !tt_nodemask_weight(&w.set))
		rc = tt_err(TT_EINPUT, "the weights weigh no node");
	if (rc < 0) {
		return cli_fail(rc);
	}
	if (damon)
		return cli_rebalance_damon(cli, &w, &d);
	rc = cli_rebalance(cli, t, (pid_t)pid, &w, &o);
	return rc;
}
