/* tiertune: find and apply the best weighted-interleave settings. */
#include "cli.h"

#include "../collectors/collector.h"
#include "../core/apply.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#ifndef TT_VERSION
#define TT_VERSION "0.0.0-dev"
#endif

const struct tt_cmd tt_commands[] = {
	{"topo", cmd_topo, "[--json]",
	 "Show nodes (CPUs, memory, tier, HMAT), tiers, distances, the weight interfaces with "
	 "their current weights and auto state, and perf PMUs."},
	{"simulate", cmd_simulate,
	 "--nodes LIST --pages K [--weights N:W,...|auto] [--source-node N] "
	 "[--interface upstream|rfc] [--mode vma|task] [--start-index I] [--thp] [--json]",
	 "Show the node of each of K pages as the kernel's weighted interleave would place them "
	 "(a model: nothing is allocated). Weights default to what the sysfs root holds."},
	{"bench", cmd_bench,
	 "--kernel NAME [--source-node N] [--nodes LIST] [--weights N:W,...] "
	 "[--placement exact|kernel|interleave|bind|local] [--threads T] [--size BYTES] "
	 "[--repeat R] [--verify-max PAGES] [--thp] [--delays D,...] [--traffic KERNEL] "
	 "[--point-ms MS] [--collect LIST] [--record] [--json] | --matrix [--record] | --list",
	 "Run a memory kernel (bandwidth, latency, loaded latency) for real with its buffers "
	 "placed per the weights, verify where every page landed, and report the figures."},
	{"apply", cmd_apply,
	 "(--weights N:W,... | --tier-weights TIER:W,... | --run RUN | --profile FILE [--force]) "
	 "[--source-node N | --all-sources] [--interface upstream|rfc] [--dry-run] [--json]",
	 "Write weights to sysfs as a transaction: validate, journal the old values, write, read "
	 "back, and put everything back on any failure."},
	{"restore", cmd_restore, "[--last | --journal FILE | --defaults | --auto] [--dry-run]",
	 "Put back what the last apply replaced (or what a leftover journal holds), weight 1 "
	 "everywhere, or the kernel's auto mode."},
	{"export", cmd_export,
	 "(--run RUN | --latest | --weights N:W,... | --tier-weights TIER:W,...) [--source-node N | "
	 "--all-sources] --format shell|json|tmpfiles|numactl|prometheus|csv [-o FILE]",
	 "Write recommended weights as a shell script, a profile for other hosts, a "
	 "systemd-tmpfiles snippet, a numactl line, a Prometheus textfile, or the run's trials."},
	{"collectors", cmd_collectors, "[--source-node N] [--json]",
	 "List every collector (perf counters, memory-controller bandwidth, allocation "
	 "statistics), whether it works on this machine and why not, and its metrics."},
	{"runs", cmd_runs, "[--host H] [--limit N] [--json]",
	 "List recorded runs, newest first, with kind, source node, status and best result."},
	{"show", cmd_show, "RUN [--json|--csv]", "Show one run: its host, trials and recommendations."},
	{"db", cmd_db, "check | migrate | merge FILE...",
	 "Check the database's integrity and schema version, bring an older one to this "
	 "version, or merge other hosts' databases into it."},
	{"help", cmd_help, "[COMMAND]", "Show the commands, or one command's usage."},
	{NULL, NULL, NULL, NULL},
};

/* The command line as a shell would take it back, for the run record:
 * arguments with anything but plain characters go in single quotes. */
static void command_line(int argc, char **argv, char *out, size_t size)
{
	static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
				    "-_=.,:/+@%";
	FILE *f = fmemopen(out, size, "w");

	if (!f) {
		out[0] = '\0';
		return;
	}
	for (int k = 0; k < argc; k++) {
		const char *a = argv[k];

		fputs(k ? " " : "", f);
		if (*a && strspn(a, plain) == strlen(a)) {
			fputs(a, f);
			continue;
		}
		fputc('\'', f);
		for (; *a; a++)
			fputs(*a == '\'' ? "'\\''" : (char[]){*a, '\0'}, f);
		fputc('\'', f);
	}
	fclose(f); /* fmemopen truncates and terminates at size - 1 */
}

/* A journal left by a tiertune killed mid-apply means the machine may be
 * half-changed. apply and restore put it back first thing (under the lock)
 * and say so; every command says it is there. */
static void warn_leftover_journal(const struct tt_cmd *cmd)
{
	char state[4096], path[4300];

	if (cmd->run == cmd_help || cmd->run == cmd_restore ||
	    tt_apply_state_dir(state, sizeof(state)) < 0 ||
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

/* The version, and which collectors this build has: a fleet's binaries
 * may come from builds without PAPI, likwid or libpfm4. */
static void print_version(void)
{
	printf("tiertune %s\ncollectors:", TT_VERSION);
	for (const struct tt_collector *const *c = tt_collectors; *c; c++)
		printf(" %s%s", (*c)->name, (*c)->unbuilt ? "(not built)" : "");
	putchar('\n');
	for (const struct tt_collector *const *c = tt_collectors; *c; c++)
		if ((*c)->unbuilt)
			printf("  %s: %s\n", (*c)->name, (*c)->unbuilt);
}

int main(int argc, char **argv)
{
	struct tt_cli cli = {.sysfs_root = "/"};
	const struct tt_cmd *cmd;
	int i = 1;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--version") == 0) {
			print_version();
			return finish(0);
		} else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			cli_print_overview(stdout);
			return finish(0);
		} else if (strcmp(argv[i], "--sysfs-root") == 0 && i + 1 < argc) {
			cli.sysfs_root = argv[++i];
		} else if (strncmp(argv[i], "--sysfs-root=", 13) == 0) {
			cli.sysfs_root = argv[i] + 13;
		} else if (strcmp(argv[i], "--db") == 0 && i + 1 < argc) {
			cli.db_path = argv[++i];
		} else if (strncmp(argv[i], "--db=", 5) == 0) {
			cli.db_path = argv[i] + 5;
		} else {
			return cli_usage("unknown option '%s' (see 'tiertune help')", argv[i]);
		}
	}
	if (i == argc) {
		cli_print_overview(stderr);
		return 2;
	}
	cmd = cli_find_command(argv[i]);
	if (!cmd)
		return cli_usage("unknown command '%s' (see 'tiertune help')", argv[i]);
	warn_leftover_journal(cmd);
	command_line(argc, argv, cli.cmdline, sizeof(cli.cmdline));
	optind = 1;
	return finish(cmd->run(&cli, argc - i, argv + i));
}
