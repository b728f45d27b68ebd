/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tiertune's side of the option parser (core/options.h, which tiertop
 * uses too): each command declares its options once, in a table of struct
 * cli_opt (name, value, type with range or choices, help with unit and
 * default) and how they relate in a table of struct tt_opt_rule, from
 * which parsing, --help, shell completion and the tests that hold the man
 * page to the code all come, so they cannot drift.
 *
 *	bool thp = false; uint64_t pages = 0; const char *nodes = NULL;
 *	struct cli_opt opts[] = {
 *		CLI_STRING("nodes", &nodes, "LIST", "the policy's nodes", .required = true),
 *		CLI_U64("pages", &pages, "K", "pages to place", 1, 1000000),
 *		CLI_FLAG("thp", &thp, "2 MiB pages"),
 *		CLI_END,
 *	};
 *	static const struct tt_opt_rule rules[] = {
 *		{ .kind = TT_OPT_EXCLUDES, .terms = { "thp", "pages" } },
 *		{ .kind = TT_OPT_RULE_END },
 *	};
 *	int nargs, rc = cli_parse_rules(cli, self, opts, rules, argc, argv, &nargs);
 *	if (rc >= 0) return rc;      (--help printed: 0; an error printed: 2)
 *	... argv[0..nargs-1] are the positional arguments, in order ...
 *
 * The common options (--sysfs-root, --db, --json, --help) are every
 * command's; cli_parse adds them, prints what the parser refuses, and
 * --help.
 */
#ifndef TT_CLI_OPTIONS_H
#define TT_CLI_OPTIONS_H

#include "../core/options.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct tt_cli;
struct tt_cmd;

/* The command files spell the core's table (core/options.h) struct
 * cli_opt and its constructors CLI_*: the same struct and macros. */
#define cli_opt tt_opt
#define CLI_OPT_END TT_OPT_KIND_END
#define CLI_FLAG TT_OPT_FLAG
#define CLI_STRING TT_OPT_STRING
#define CLI_U64 TT_OPT_U64
#define CLI_I64 TT_OPT_I64
#define CLI_SIZE TT_OPT_SIZE
#define CLI_DOUBLE TT_OPT_DOUBLE
#define CLI_CHOICE TT_OPT_CHOICE
#define CLI_BUDGET TT_OPT_BUDGET
#define CLI_CALL TT_OPT_CALL
#define CLI_END TT_OPT_END

/* The source node as every command takes it: --source-node N into an
 * int64_t that stays -1 when not given. */
#define CLI_SOURCE_NODE(v, h) CLI_I64("source-node", (v), "N", (h), 0, TT_MAX_NODES - 1)

/* Parses argv (argv[0] is the command's name) against opts and the common
 * options with core/options.h's grammar (unique prefixes of long names
 * taken), in any order; "--" ends the options (cli->dashdash says how many
 * positional arguments came before it). The positional arguments are
 * moved to argv[0..*nargs-1]; a command whose table entry has no args
 * takes none (refused here, naming the first). Then the required options
 * and the rules (NULL: none) are checked. Returns -1 to go on, or an exit
 * code with what happened printed: 0 after --help (or
 * --completion-helper), 2 for a usage error naming the option. */
int cli_parse_rules(struct tt_cli *cli, const struct tt_cmd *cmd, struct cli_opt *opts,
		    const struct tt_opt_rule *rules, int argc, char **argv, int *nargs);
/* cli_parse_rules with first called once the options are read and before
 * the rules are checked: -1 to go on, else the exit code with what it
 * printed (a reason that makes the rules moot, said before them). */
int cli_parse_first(struct tt_cli *cli, const struct tt_cmd *cmd, struct cli_opt *opts,
		    const struct tt_opt_rule *rules, int (*first)(struct tt_cli *cli), int argc,
		    char **argv, int *nargs);
/* cli_parse_rules without rules. */
int cli_parse(struct tt_cli *cli, const struct tt_cmd *cmd, struct cli_opt *opts, int argc,
	      char **argv, int *nargs);

/* A command's --help: usage line, summary and every option, wrapped at 80. */
void cli_help(FILE *f, const struct tt_cmd *cmd, const struct cli_opt *opts);

/* Prints text wrapped at width with the cursor now at column col: a line
 * begun (col > 0) is padded to indent, and every further line starts at
 * indent. Ends with a newline. */
void cli_wrap(FILE *f, const char *text, int col, int indent, int width);

#endif
