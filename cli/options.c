// SPDX-License-Identifier: GPL-3.0-or-later
#include "options.h"

#include "cli.h"

#include "../core/error.h"

#include <stdarg.h>
#include <string.h>

/* Every command's: parsed here, listed in every --help. */
static const char *opt_sysfs_root, *opt_db, *opt_choices;
static bool opt_json, opt_help, opt_completion;
static struct cli_opt common[] = {
	CLI_STRING(
		"sysfs-root", &opt_sysfs_root, "DIR",
		"read (and write) /sys and /proc under DIR instead of / (a fixture tree or a copy "
		"of one)"),
	CLI_STRING("db", &opt_db, "PATH",
		   "the results database (default $TIERTUNE_DB, else ~/.local/share/tiertune/"
		   "tiertune.db, /var/lib/tiertune/tiertune.db for root)"),
	CLI_FLAG("json", &opt_json, "print JSON instead of text (fields: docs/json.md)"),
	CLI_FLAG("help", &opt_help, "show this help", .short_name = 'h'),
	/* Not listed: shell completion's questions (cli/completion.bash):
	 * the options, and the words an option takes. */
	CLI_FLAG("completion-helper", &opt_completion, NULL),
	CLI_STRING("completion-choices", &opt_choices, "OPTION", NULL),
	CLI_END,
};

static int usage_error(const struct tt_cmd *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int usage_error(const struct tt_cmd *cmd, const char *fmt, ...)
{
	va_list ap;

	fputs("tiertune: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nhint: see 'tiertune %s --help'\n", cmd->name);
	return 2;
}

/* What the parser refused: the command line's shape with a pointer to the
 * command's help; a value or a rule with the message alone (it says what
 * to give); a command's own parser (CLI_CALL) said why already. */
static int refused(const struct tt_cmd *cmd, const struct tt_opt_args *args)
{
	if (args->call_rc > 0)
		return args->call_rc;
	if (args->grammar)
		return usage_error(cmd, "%s", tt_err_msg());
	return cli_usage("%s", tt_err_msg());
}

/* The options shell completion offers, one a line. */
static void completion(const struct tt_cmd *cmd, const struct cli_opt *opts)
{
	for (const struct cli_opt *set[] = { opts, common }, **s = set; s < set + 2; s++)
		for (const struct cli_opt *o = *s; o->kind != CLI_OPT_END; o++)
			if (o->help && (cmd->json || o->value != &opt_json))
				printf("--%s%s\n", o->name, o->kind != TT_OPT_KIND_FLAG ? "=" : "");
}

/* The words option name takes, one a line: a choice's (its table's
 * names; a string option that parses its own way may name them too), or
 * those an argument name spells ("upstream|rfc|both"); none for a free
 * value (N, FILE, N:W,...|auto) or a flag. A name the command has no
 * option of is a usage error: answering it with no words made a check
 * that asked for "strategy=" compare nothing (issue 46). */
static int choices(const struct tt_cmd *cmd, const struct cli_opt *opts, const char *name)
{
	char buf[512];
	bool found = false;

	for (const struct cli_opt *set[] = { opts, common }, **s = set; s < set + 2; s++)
		for (const struct cli_opt *o = *s; o->kind != CLI_OPT_END; o++) {
			const char *arg;

			if (strcmp(o->name, name) != 0)
				continue;
			found = true;
			if (!(arg = tt_opt_arg_name(o, buf, sizeof(buf))))
				continue;
			if (tt_opt_choice(o, 0))
				for (int i = 0; tt_opt_choice(o, i); i++)
					printf("%s\n", tt_opt_choice(o, i));
			else if (strspn(arg, "abcdefghijklmnopqrstuvwxyz0123456789-|") ==
				 strlen(arg))
				for (const char *w = arg; *w; w += strcspn(w, "|"), w += !!*w)
					printf("%.*s\n", (int)strcspn(w, "|"), w);
		}
	if (!found)
		return usage_error(cmd, "--completion-choices: %s has no option '--%s'", cmd->name,
				   name);
	return 0;
}

int cli_parse_first(struct tt_cli *cli, const struct tt_cmd *cmd, struct cli_opt *opts,
		    const struct tt_opt_rule *rules, int (*first)(struct tt_cli *cli), int argc,
		    char **argv, int *nargs)
{
	struct tt_opt *tables[] = { opts, common, NULL };
	struct tt_opt_args args;
	int rc;

	opt_sysfs_root = opt_db = opt_choices = NULL;
	opt_json = opt_help = opt_completion = false;
	cli->dashdash = -1;
	if (tt_opt_parse(tables, 0, argc, argv, &args) < 0)
		return refused(cmd, &args);
	cli->dashdash = args.dashdash;
	*nargs = args.n;
	if (opt_choices)
		return choices(cmd, opts, opt_choices);
	if (args.n && !cmd->args && !opt_help && !opt_completion)
		return usage_error(cmd, "%s takes no argument, got '%s'", cmd->name, argv[0]);
	if (opt_completion) {
		completion(cmd, opts);
		return 0;
	}
	if (opt_help) {
		cli_help(stdout, cmd, opts);
		return 0;
	}
	if (opt_json && !cmd->json)
		return usage_error(cmd, "%s has no JSON output", cmd->name);
	/* Before the rules: first may read the machine under the root. */
	if (opt_sysfs_root) {
		cli->sysfs_root = opt_sysfs_root;
		cli->sysfs_root_given = true;
	}
	if (opt_db)
		cli->db_path = opt_db;
	cli->json |= opt_json;
	if (first && (rc = first(cli)) >= 0)
		return rc;
	rc = tt_opt_check(tables, rules, &args);
	if (rc < 0)
		return rc == TT_EFAIL ? cli_fail(rc) : refused(cmd, &args);
	return -1;
}

int cli_parse_rules(struct tt_cli *cli, const struct tt_cmd *cmd, struct cli_opt *opts,
		    const struct tt_opt_rule *rules, int argc, char **argv, int *nargs)
{
	return cli_parse_first(cli, cmd, opts, rules, NULL, argc, argv, nargs);
}

int cli_parse(struct tt_cli *cli, const struct tt_cmd *cmd, struct cli_opt *opts, int argc,
	      char **argv, int *nargs)
{
	return cli_parse_rules(cli, cmd, opts, NULL, argc, argv, nargs);
}

void cli_wrap(FILE *f, const char *text, int col, int indent, int width)
{
	char buf[4096];

	tt_opt_wrap(buf, sizeof(buf), text, col, indent, width);
	fputs(buf, f);
}

static void help_opts(FILE *f, const struct cli_opt *opts, bool json)
{
	for (const struct cli_opt *o = opts; o->kind != CLI_OPT_END; o++) {
		char left[64], words[256];
		const char *arg = tt_opt_arg_name(o, words, sizeof(words));
		int len;

		if (!o->help || (!json && o->value == &opt_json))
			continue;
		len = snprintf(left, sizeof(left), "  %s%s--%s%s%s", o->short_name ? "-" : "",
			       o->short_name ? (char[]){ o->short_name, ',', ' ', '\0' } : "",
			       o->name, arg ? " " : "", arg ? arg : "");
		fputs(left, f);
		if (len >= 23) {
			fprintf(f, "\n%24s", "");
			len = 24;
		}
		cli_wrap(f, o->help, len, 24, 80);
	}
}

void cli_help(FILE *f, const struct tt_cmd *cmd, const struct cli_opt *opts)
{
	char usage[256];

	snprintf(usage, sizeof(usage), "usage: tiertune %s [options]%s%s", cmd->name,
		 cmd->args ? " " : "", cmd->args ? cmd->args : "");
	cli_wrap(f, usage, 0, 8, 80);
	fputc('\n', f);
	cli_wrap(f, cmd->summary, 0, 0, 80);
	if (opts[0].kind != CLI_OPT_END) {
		fprintf(f, "\noptions:\n");
		help_opts(f, opts, true);
	}
	fprintf(f, "\ncommon options:\n");
	help_opts(f, common, cmd->json);
	fputc('\n', f);
	cli_wrap(f,
		 "exit codes: 0 ok, 1 failure, 2 usage or bad input, 3 unavailable; see "
		 "tiertune(1)",
		 0, 0, 80);
}
