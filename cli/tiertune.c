// SPDX-License-Identifier: GPL-3.0-or-later
/* tiertune: find and apply the best weighted-interleave settings. */
#include "cli.h"

#include "../collectors/collector.h"
#include "../core/apply.h"
#include "../bench/kernels.h"
#include "../core/state.h"
#include "../core/topo.h"
#include "../core/wi.h"
#include "../model/model-path.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#ifndef TT_VERSION
#define TT_VERSION "0.0.0-dev"
#endif

const char cli_version[] = TT_VERSION;

/* The commands; each parses its own options (cli/options.h). */
const struct tt_cmd tt_commands[] = {
	{ "topo", cmd_topo, NULL,
	  "Show nodes (CPUs, memory, tier, HMAT figures and their initiators), tiers, distances, "
	  "demotion and NUMA balancing, the weight interfaces with their current weights and auto "
	  "state, and perf PMUs.",
	  true },
	{ "simulate", cmd_simulate, NULL,
	  "Show the node of each of K pages as the kernel's weighted interleave would place them "
	  "(a model: nothing is allocated). Weights default to what the sysfs root holds.",
	  true },
	{ "bench", cmd_bench, NULL,
	  "Run a memory kernel (bandwidth, latency, loaded latency) for real with its buffers "
	  "placed per the weights, verify where every page landed, and report the figures.",
	  true },
	{ "auto", cmd_auto, "[-- COMMAND ARGS...]",
	  "Find the best weights for one source node: baselines, a search, and the winner proved "
	  "against the baselines; recorded, and applied with --apply. With a COMMAND after '--', "
	  "the score is that program's, run once per measurement under each candidate.",
	  true },
	{ "sweep", cmd_sweep, NULL,
	  "Measure every weight vector of a grid (the exhaustive picture auto's search avoids), "
	  "with the same baselines, report and record.",
	  true },
	{ "plot", cmd_plot, "RUN...",
	  "Draw an auto or sweep run's trials over their shares with the winner and the baselines "
	  "marked, bench loaded-latency curves or a --matrix heat map (gnuplot, PNG and SVG); "
	  "without gnuplot, write the data and the script.",
	  false },
	{ "apply", cmd_apply, NULL,
	  "Write weights to sysfs as a transaction: validate, journal the old values, write, read "
	  "back, and put everything back on any failure.",
	  true },
	{ "restore", cmd_restore, NULL,
	  "Put back what the last apply replaced (or what a leftover journal holds), weight 1 "
	  "everywhere, or the kernel's auto mode.",
	  true },
	{ "export", cmd_export, NULL,
	  "Write recommended weights as a shell script, a profile for other hosts, a "
	  "systemd-tmpfiles snippet, a numactl line, a Prometheus textfile, or the run's trials.",
	  false },
	{ "run", cmd_run, "-- COMMAND [ARGS...]",
	  "Launch a program under weighted interleave over the weights' nodes with its CPUs on "
	  "the source node; the weights (global on upstream kernels) must be what sysfs holds, "
	  "or --apply writes them first.",
	  false },
	{ "rebalance", cmd_rebalance, NULL,
	  "Show where a running process's pages are against the shares weights stand for, and "
	  "with --move move them there (move_pages, in bounded batches; a dry run by default).",
	  true },
	{ "capture", cmd_capture, NULL,
	  "Copy what tiertune reads of this machine (nodes, CPUs, caches, HMAT, tiers, weights, "
	  "PMUs) into a folder or .tar.gz that --sysfs-root and hwloc read back: for a bug "
	  "report, or what-if searches elsewhere.",
	  false },
	{ "collectors", cmd_collectors, NULL,
	  "List every collector (perf counters, memory-controller bandwidth, allocation "
	  "statistics), whether it works on this machine and why not, and its metrics.",
	  true },
	{ "runs", cmd_runs, NULL,
	  "List recorded runs, newest first, with kind, source node, status and best result.",
	  true },
	{ "show", cmd_show, "RUN", "Show one run: its host, trials and recommendations.", true },
	{ "db", cmd_db, "check | migrate | merge FILE...",
	  "Check the database's integrity and schema version, bring an older one to this "
	  "version, or merge other hosts' databases into it (all or nothing).",
	  true },
	{ "help", cmd_help, "[COMMAND]", "Show the commands, or one command's options.", false },
	{ NULL, NULL, NULL, NULL, false },
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

	if (strcmp(cmd->name, "help") == 0 || cmd->run == cmd_restore ||
	    tt_state_dir(TT_DIR_STATE, state, sizeof(state)) < 0 ||
	    tt_apply_leftover(state, path, sizeof(path)) != 1)
		return;
	cli_warn("an interrupted tiertune left weights half-applied; journal '%s' holds the old "
		 "values: run 'tiertune restore' to put them back",
		 path);
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

/* The values shell completion offers for an option (cli/completion.bash
 * asks by kind): the shipped models, the bench kernels, export's formats,
 * the online nodes of --sysfs-root. Run ids come from 'runs'. */
static int completion_values(struct tt_cli *cli, const char *kind)
{
	struct tt_topo t;

	if (!strcmp(kind, "models")) {
		tt_model_names(print_name, NULL);
	} else if (!strcmp(kind, "kernels")) {
		for (const struct tt_kernel *const *k = tt_kernels; *k; k++)
			printf("%s\n", (*k)->name);
	} else if (!strcmp(kind, "formats")) {
		cli_export_formats(stdout);
	} else if (!strcmp(kind, "nodes")) {
		if (cli_load_topo(cli, &t))
			return 1;
		for (int n = 0; n < t.nnodes; n++)
			printf("%d\n", t.nodes[n].id);
		tt_topo_release(&t);
	} else {
		return cli_usage("--completion-values takes models, kernels, formats or nodes, not "
				 "'%s'",
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
	warn_leftover_journal(cmd);
	command_line(argc, argv, cli.cmdline, sizeof(cli.cmdline));
	return finish(cmd->run(&cli, argc - i, argv + i));
}
