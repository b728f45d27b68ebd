/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Command-line options, declared once per command as git's parse-options
 * does: a table of struct cli_opt (name, value, argument, help with unit
 * and default) from which parsing, --help, shell completion and the tests
 * that hold the man page to the code all come, so they cannot drift.
 *
 *	bool thp = false; uint64_t pages = 0; const char *nodes = NULL;
 *	struct cli_opt opts[] = {
 *		CLI_STRING("nodes", &nodes, "LIST", "the policy's nodes", .required = true),
 *		CLI_U64("pages", &pages, "K", "pages to place", 1, 1000000),
 *		CLI_FLAG("thp", &thp, "2 MiB pages"),
 *		CLI_END,
 *	};
 *	int nargs, rc = cli_parse(cli, self, opts, argc, argv, &nargs);
 *	if (rc >= 0) return rc;      (--help printed: 0; an error printed: 2)
 *	... argv[0..nargs-1] are the positional arguments, in order ...
 *
 * The common options (--sysfs-root, --db, --json, --help) are every
 * command's; cli_parse adds them.
 */
#ifndef TT_CLI_OPTIONS_H
#define TT_CLI_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct tt_cli;
struct tt_cmd;

enum cli_opt_kind {
	CLI_OPT_END,
	CLI_OPT_FLAG,	/* bool *: set when given */
	CLI_OPT_STRING, /* const char **: the argument itself */
	CLI_OPT_U64,	/* uint64_t *: a decimal in [min, max] */
	CLI_OPT_I64,	/* int64_t *: a decimal in [min, max]; untouched when not given */
	CLI_OPT_SIZE,	/* uint64_t *: bytes, K/M/G/T (core/parse.h), in [min, max] */
	CLI_OPT_CALL,	/* call(opt, arg): the command's own parser; returns 0 or 2 */
};

struct cli_opt {
	const char *name; /* long name, without "--" */
	char short_name;  /* 'o' for -o, or 0 */
	enum cli_opt_kind kind;
	void *value;
	const char *arg;   /* the argument's name in help ("N:W,...", "BYTES"); NULL for a flag */
	const char *help;  /* what it does, with unit and default */
	uint64_t min, max; /* for numbers and sizes */
	int (*call)(const struct cli_opt *opt, const char *arg);
	bool required; /* the command cannot run without it */
	bool seen;     /* set by cli_parse when given */
};

#define CLI_FLAG(n, v, h, ...)                                                                     \
	{                                                                                          \
		.name = (n), .kind = CLI_OPT_FLAG, .value = (v), .help = (h), __VA_ARGS__          \
	}
#define CLI_STRING(n, v, a, h, ...)                                                                \
	{                                                                                          \
		.name = (n), .kind = CLI_OPT_STRING, .value = (v), .arg = (a), .help = (h),        \
		__VA_ARGS__                                                                        \
	}
#define CLI_U64(n, v, a, h, lo, hi, ...)                                                           \
	{                                                                                          \
		.name = (n), .kind = CLI_OPT_U64, .value = (v), .arg = (a), .help = (h),           \
		.min = (lo), .max = (hi), __VA_ARGS__                                              \
	}
#define CLI_I64(n, v, a, h, lo, hi, ...)                                                           \
	{                                                                                          \
		.name = (n), .kind = CLI_OPT_I64, .value = (v), .arg = (a), .help = (h),           \
		.min = (lo), .max = (hi), __VA_ARGS__                                              \
	}
#define CLI_SIZE(n, v, a, h, lo, hi, ...)                                                          \
	{                                                                                          \
		.name = (n), .kind = CLI_OPT_SIZE, .value = (v), .arg = (a), .help = (h),          \
		.min = (lo), .max = (hi), __VA_ARGS__                                              \
	}
#define CLI_CALL(n, f, v, a, h, ...)                                                               \
	{                                                                                          \
		.name = (n), .kind = CLI_OPT_CALL, .call = (f), .value = (v), .arg = (a),          \
		.help = (h), __VA_ARGS__                                                           \
	}
#define CLI_END                                                                                    \
	{                                                                                          \
		.kind = CLI_OPT_END                                                                \
	}

/* The source node as every command takes it: --source-node N into an
 * int64_t that stays -1 when not given. */
#define CLI_SOURCE_NODE(v, h) CLI_I64("source-node", (v), "N", (h), 0, TT_MAX_NODES - 1)

/* Parses argv (argv[0] is the command's name) against opts and the common
 * options, in any order; "--" ends the options (cli->dashdash says how many
 * positional arguments came before it). The positional arguments
 * are moved to argv[0..*nargs-1]; a command whose table entry has no args
 * takes none (refused here, naming the first). Returns -1 to go on, or an exit code with
 * what happened printed: 0 after --help (or --completion-helper), 2 for a
 * usage error naming the option. */
int cli_parse(struct tt_cli *cli, const struct tt_cmd *cmd, struct cli_opt *opts, int argc,
	      char **argv, int *nargs);

/* A command's --help: usage line, summary and every option, wrapped at 80. */
void cli_help(FILE *f, const struct tt_cmd *cmd, const struct cli_opt *opts);

/* Prints text wrapped at width with the cursor now at column col: a line
 * begun (col > 0) is padded to indent, and every further line starts at
 * indent. Ends with a newline. */
void cli_wrap(FILE *f, const char *text, int col, int indent, int width);

#endif
