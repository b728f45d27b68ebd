// SPDX-License-Identifier: GPL-3.0-or-later
/* tiertune: find and apply the best weighted-interleave settings. */
#include "cli.h"

#include "../collectors/collector.h"
#include "../writer/apply.h"
#include "../bench/kernels.h"
#include "../core/state.h"
#include "../core/topo.h"
#include "../core/wi.h"
#include "../core/objective.h"
#include "../db/db.h"
#include "../model/model-path.h"
#include "../view/plot.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#ifndef TT_VERSION
#define TT_VERSION "0.0.0-dev"
#endif

const char cli_version[] = TT_VERSION;

/* The commands, one descriptor each: what it needs opened (enum
 * cli_need, cli.h: run_builtin and cli_setup open and close it), its
 * arguments and summary; each declares its options in its own file
 * (cli/options.h). To add one: cli.h's recipe above struct tt_cmd. */
const struct tt_cmd tt_commands[] = {
	{ .name = "topo",
	  .run = cmd_topo,
	  .needs = CLI_TOPO,
	  .summary = "Show nodes (CPUs, memory, tier, HMAT figures and their initiators), tiers, "
		     "distances, demotion and NUMA balancing, the weight interfaces with their "
		     "current weights and auto state, and perf PMUs.",
	  .json = true },
	{ .name = "simulate",
	  .run = cmd_simulate,
	  .needs = CLI_TOPO,
	  .summary = "Show the node of each of K pages as the kernel's weighted interleave would "
		     "place them (a model: nothing is allocated). Weights default to what the "
		     "sysfs root holds.",
	  .json = true },
	{ .name = "bench",
	  .run = cmd_bench,
	  .needs = CLI_TOPO,
	  .summary = "Run a memory kernel (bandwidth, latency, loaded latency) for real with its "
		     "buffers placed per the weights, verify where every page landed, and report "
		     "the figures.",
	  .json = true },
	/* Through the library's calls (lib/tiertune.h), which open the
	 * root themselves. */
	{ .name = "probe",
	  .run = cmd_probe,
	  .summary = "Measure bandwidth and idle latency from a node to each memory node within "
		     "a budget in milliseconds, as an application does through libtiertune "
		     "(placement verified, two passes in opposite orders, each figure judged).",
	  .json = true },
	{ .name = "auto",
	  .run = cmd_auto,
	  .needs = CLI_TOPO,
	  .args = "[-- COMMAND ARGS...]",
	  .summary = "Find the best weights for one source node: baselines, a search, and the "
		     "winner proved against the baselines; recorded, and applied with --apply. "
		     "With a COMMAND after '--', the score is that program's, run once per "
		     "measurement under each candidate.",
	  .json = true },
	{ .name = "sweep",
	  .run = cmd_sweep,
	  .needs = CLI_TOPO,
	  .summary = "Measure every weight vector of a grid (the exhaustive picture auto's search "
		     "avoids), with the same baselines, report and record.",
	  .json = true },
	{ .name = "plot",
	  .run = cmd_plot,
	  .needs = CLI_DB,
	  .args = "RUN...",
	  .summary = "Draw an auto or sweep run's trials over their shares with the winner and the "
		     "baselines "
		     "marked, bench loaded-latency curves or a --matrix heat map (gnuplot, PNG and "
		     "SVG); "
		     "without gnuplot, write the data and the script." },
	{ .name = "apply",
	  .run = cmd_apply,
	  .needs = CLI_TOPO,
	  .summary = "Write weights to sysfs as a transaction: validate, journal the old values, "
		     "write, read back, and put everything back on any failure.",
	  .json = true },
	{ .name = "restore",
	  .run = cmd_restore,
	  .needs = CLI_ROOT | CLI_RECOVERS,
	  .summary = "Put back what the last apply replaced (or what a leftover journal holds), "
		     "weight 1 everywhere, or the kernel's auto mode.",
	  .json = true },
	{ .name = "export",
	  .run = cmd_export,
	  .needs = CLI_TOPO,
	  .args = "[-- COMMAND [ARGS...]]",
	  .summary = "Write recommended weights as a shell script, a profile for other hosts, a "
		     "systemd-tmpfiles snippet, a numactl line, a systemd drop-in, a Prometheus "
		     "textfile, or the run's trials." },
	/* run launches on the topology it reads itself; db opens the
	 * database as its action needs (check read-only). */
	{ .name = "run",
	  .run = cmd_run,
	  .args = "-- COMMAND [ARGS...]",
	  .summary = "Launch a program under weighted interleave over the weights' nodes with its "
		     "CPUs on "
		     "the source node; the weights (global on upstream kernels) must be what sysfs "
		     "holds, "
		     "or --apply writes them first." },
	{ .name = "rebalance",
	  .run = cmd_rebalance,
	  .needs = CLI_TOPO,
	  .summary = "Show where a running process's pages are against the shares weights stand "
		     "for, and with --move move them there (move_pages, in bounded batches; a dry "
		     "run by default).",
	  .json = true },
	{ .name = "capture",
	  .run = cmd_capture,
	  .needs = CLI_ROOT,
	  .summary =
		  "Copy what tiertune reads of this machine (nodes, CPUs, caches, HMAT, tiers, "
		  "weights, "
		  "PMUs) into a folder or .tar.gz that --sysfs-root and hwloc read back: for a bug "
		  "report, or what-if searches elsewhere." },
	{ .name = "collectors",
	  .run = cmd_collectors,
	  .needs = CLI_TOPO,
	  .summary = "List every collector (perf counters, memory-controller bandwidth, allocation "
		     "statistics), whether it works on this machine and why not, and its metrics.",
	  .json = true },
	{ .name = "runs",
	  .run = cmd_runs,
	  .needs = CLI_DB,
	  .summary = "List recorded runs, newest first, with kind, source node, status and best "
		     "result.",
	  .json = true },
	{ .name = "show",
	  .run = cmd_show,
	  .needs = CLI_DB,
	  .args = "RUN",
	  .summary = "Show one run: its host, trials and recommendations.",
	  .json = true },
	{ .name = "db",
	  .run = cmd_db,
	  .args = "check | migrate | merge FILE...",
	  .summary = "Check the database's integrity and schema version, bring an older one to "
		     "this version, or merge other hosts' databases into it (all or nothing).",
	  .json = true },
	{ .name = "help",
	  .run = cmd_help,
	  .needs = CLI_NO_MACHINE,
	  .args = "[COMMAND]",
	  .summary = "Show the commands, or one command's options." },
	{ .name = NULL },
};

/* The command line as a shell would take it back, for the run record. */
static void command_line(int argc, char **argv, char *out, size_t size)
{
	FILE *f = fmemopen(out, size, "w");

	if (!f) {
		out[0] = '\0';
		return;
	}
	for (int k = 0; k < argc; k++) {
		fputs(k ? " " : "", f);
		cli_shell_quote(f, argv[k]);
	}
	fclose(f); /* fmemopen truncates and terminates at size - 1 */
}

/* A journal left by a tiertune killed mid-apply means the machine may be
 * half-changed. apply and restore put it back first thing (under the lock)
 * and say so; every command says it is there. */
static void warn_leftover_journal(const struct tt_cmd *cmd)
{
	char state[4096], path[4300];

	if ((cmd->needs & (CLI_RECOVERS | CLI_NO_MACHINE)) ||
	    tt_state_dir(TT_DIR_STATE, state, sizeof(state)) < 0 ||
	    tt_apply_leftover(state, path, sizeof(path)) != 1)
		return;
	cli_warn("an interrupted tiertune left weights half-applied; journal '%s' holds the old "
		 "values: run 'tiertune restore' to put them back",
		 path);
}

/* As git's run_builtin: the command runs with what its descriptor
 * declares opened for it (cli_setup, called once its options are checked),
 * and closed here after, whatever it returned. */
static int run_builtin(struct tt_cli *cli, const struct tt_cmd *cmd, int argc, char **argv, int i)
{
	int rc;

	warn_leftover_journal(cmd);
	command_line(argc, argv, cli->cmdline, sizeof(cli->cmdline));
	cli->cmd = cmd;
	rc = cmd->run(cli, argc - i, argv + i);
	cli_release(cli);
	return rc;
}

static int finish(int rc)
{
	/* A full disk or closed pipe shows up only here, for buffered stdout. */
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "tiertune: error: writing standard output failed\n");
		return rc ? rc : 1;
	}
	return rc;
}

/* The version, which collectors this build has (a fleet's binaries may
 * come from builds without PAPI, likwid or libpfm4), and which weight
 * interfaces it knows (a kernel with the rfcv1 patches needs a build that
 * has that backend). */
static void print_version(void)
{
	char names[256];

	printf("tiertune %s\ninterfaces: %s\ncollectors:", cli_version,
	       tt_wi_names(" ", names, sizeof(names)));
	for (const struct tt_collector *const *c = tt_collectors; *c; c++)
		printf(" %s%s", (*c)->name, (*c)->unbuilt ? "(not built)" : "");
	putchar('\n');
	for (const struct tt_collector *const *c = tt_collectors; *c; c++)
		if ((*c)->unbuilt)
			printf("  %s: %s\n", (*c)->name, (*c)->unbuilt);
}

static void print_name(const char *name, void *ctx)
{
	(void)ctx;
	printf("%s\n", name);
}

/* A run plot can draw (view/plot.h), by its id. */
static int print_plottable(json_t *row, void *ctx)
{
	const char *kind = json_string_value(json_object_get(row, "kind"));
	long long id = json_integer_value(json_object_get(row, "id"));
	struct tt_objective o;
	enum tt_plot_kind pk;

	(void)ctx;
	if (kind && json_integer_value(json_object_get(row, "ntrials")) > 0 &&
	    tt_objective_of_run(id, kind, json_string_value(json_object_get(row, "objective")),
				&o) == 0 &&
	    tt_plot_draws(kind, &o, &pk))
		printf("%lld\n", id);
	return 0;
}

/* The values shell completion offers for an option (cli/completion.bash
 * and tui/completion.bash ask by kind): the shipped models, the bench
 * kernels, export's formats, the collectors (bench --collect, tiertop
 * --collectors), the online nodes of --sysfs-root and those with CPUs
 * (--source-node: a run from a CPU-less node is refused), the runs of
 * --db that plot draws (the newest 100, as 'runs --limit 100' gives show).
 * Other run ids come from 'runs'; a choice's words from its command
 * (--completion-choices). */
static int completion_values(struct tt_cli *cli, const char *kind)
{
	struct tt_topo t;
	struct tt_db *db;
	int rc;

	if (!strcmp(kind, "models")) {
		tt_model_names(print_name, NULL);
	} else if (!strcmp(kind, "kernels")) {
		for (const struct tt_kernel *const *k = tt_kernels; *k; k++)
			printf("%s\n", (*k)->name);
	} else if (!strcmp(kind, "formats")) {
		cli_export_formats(stdout);
	} else if (!strcmp(kind, "collectors")) {
		for (const struct tt_collector *const *c = tt_collectors; *c; c++)
			printf("%s\n", (*c)->name);
	} else if (!strcmp(kind, "nodes") || !strcmp(kind, "cpu-nodes")) {
		if (cli_load_topo(cli, &t))
			return 1;
		for (int n = 0; n < t.nnodes; n++)
			if (kind[0] == 'n' || t.nodes[n].ncpus)
				printf("%d\n", t.nodes[n].id);
		tt_topo_release(&t);
	} else if (!strcmp(kind, "plot-runs")) {
		if ((rc = cli_open_db(cli, TT_DB_READONLY, &db)))
			return rc;
		rc = tt_db_runs(db, NULL, 100, print_plottable, NULL);
		tt_db_close(db);
		if (rc < 0)
			return cli_fail(rc);
	} else {
		return cli_usage(
			"--completion-values takes models, kernels, formats, collectors, nodes, "
			"cpu-nodes or plot-runs, not '%s'",
			kind);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct tt_cli cli = { .sysfs_root = "/" };
	bool version = false, help = false, completion = false;
	const char *values = NULL;
	/* tiertune's own options, before the command: the grammar of every
	 * command's (core/options.h); the overview (cli_overview) lists them. */
	struct tt_opt opts[] = {
		TT_OPT_FLAG("version", &version, "the release and the collectors built"),
		TT_OPT_FLAG("help", &help, "the commands", .short_name = 'h'),
		TT_OPT_FLAG("completion-helper", &completion, NULL),
		TT_OPT_STRING("completion-values", &values, "KIND", NULL),
		TT_OPT_STRING("sysfs-root", &cli.sysfs_root, "DIR", "as a command's --sysfs-root"),
		TT_OPT_STRING("db", &cli.db_path, "PATH", "as a command's --db"),
		TT_OPT_END,
	};
	struct tt_opt *tables[] = { opts, NULL };
	struct tt_opt_args args;
	const struct tt_cmd *cmd;
	int i;

	if (tt_opt_parse(tables, TT_OPT_STOP_AT_ARG, argc, argv, &args) < 0) {
		if (args.unknown)
			return cli_usage("unknown option '%s' before the command (see 'tiertune "
					 "--help')",
					 argv[args.next]);
		return cli_usage("%s", tt_err_msg());
	}
	if (version) {
		print_version();
		return finish(0);
	}
	if (help) {
		cli_overview(stdout);
		return finish(0);
	}
	if (completion) {
		for (const struct tt_cmd *c = tt_commands; c->name; c++)
			printf("%s\n", c->name);
		return finish(0);
	}
	cli.sysfs_root_given = tt_opt_find(tables, "sysfs-root")->seen;
	if (values)
		return finish(completion_values(&cli, values));
	i = args.next;
	if (i == argc) {
		cli_overview(stderr);
		return 2;
	}
	cmd = cli_find_command(argv[i]);
	if (!cmd)
		return cli_usage("unknown command '%s' (see 'tiertune help')", argv[i]);
	return finish(run_builtin(&cli, cmd, argc, argv, i));
}
