// SPDX-License-Identifier: GPL-3.0-or-later
#include "options.h"

#include "cli.h"

#include "../core/parse.h"

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

/* Every command's: parsed here, listed in every --help. */
static const char *opt_sysfs_root, *opt_db;
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
	/* Not listed: shell completion's question (cli/tiertune.bash). */
	CLI_FLAG("completion-helper", &opt_completion, NULL),
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

static struct cli_opt *find_long(struct cli_opt *opts, const char *name, size_t len)
{
	for (struct cli_opt *set[] = { opts, common }, **s = set; s < set + 2; s++)
		for (struct cli_opt *o = *s; o->kind != CLI_OPT_END; o++)
			if (strlen(o->name) == len && strncmp(o->name, name, len) == 0)
				return o;
	return NULL;
}

static struct cli_opt *find_short(struct cli_opt *opts, char c)
{
	for (struct cli_opt *set[] = { opts, common }, **s = set; s < set + 2; s++)
		for (struct cli_opt *o = *s; o->kind != CLI_OPT_END; o++)
			if (o->short_name && o->short_name == c)
				return o;
	return NULL;
}

static int set_value(const struct tt_cmd *cmd, struct cli_opt *o, const char *arg)
{
	uint64_t v;
	int rc;

	o->seen = true;
	switch (o->kind) {
	case CLI_OPT_FLAG:
		*(bool *)o->value = true;
		return -1;
	case CLI_OPT_STRING:
		*(const char **)o->value = arg;
		return -1;
	case CLI_OPT_U64:
	case CLI_OPT_I64:
		rc = cli_number(o->name, arg, o->min, o->max, &v);
		break;
	case CLI_OPT_SIZE:
		rc = cli_size(o->name, arg, o->min, o->max, &v);
		break;
	case CLI_OPT_CALL:
		return o->call(o, arg) ? 2 : -1;
	default:
		return usage_error(cmd, "option '--%s' has no kind", o->name);
	}
	if (rc)
		return rc;
	if (o->kind == CLI_OPT_I64)
		*(int64_t *)o->value = (int64_t)v;
	else
		*(uint64_t *)o->value = v;
	return -1;
}

/* The options shell completion offers, one a line. */
static void completion(const struct tt_cmd *cmd, const struct cli_opt *opts)
{
	for (const struct cli_opt *set[] = { opts, common }, **s = set; s < set + 2; s++)
		for (const struct cli_opt *o = *s; o->kind != CLI_OPT_END; o++)
			if (o->help && (cmd->json || o->value != &opt_json))
				printf("--%s%s\n", o->name, o->arg ? "=" : "");
}

int cli_parse(struct tt_cli *cli, const struct tt_cmd *cmd, struct cli_opt *opts, int argc,
	      char **argv, int *nargs)
{
	int n = 0, rc;
	bool options = true;

	opt_sysfs_root = opt_db = NULL;
	cli->dashdash = -1;
	opt_json = opt_help = opt_completion = false;
	for (struct cli_opt *o = common; o->kind != CLI_OPT_END; o++)
		o->seen = false;
	for (int i = 1; i < argc; i++) {
		char *a = argv[i];
		struct cli_opt *o;
		const char *val = NULL;

		if (!options || a[0] != '-' || a[1] == '\0') {
			argv[n++] = a;
			continue;
		}
		if (strcmp(a, "--") == 0) {
			options = false;
			cli->dashdash = n;
			continue;
		}
		if (a[1] == '-') {
			const char *eq = strchr(a + 2, '=');

			o = find_long(opts, a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2));
			if (!o)
				return usage_error(cmd, "unknown option '%.*s'",
						   (int)(eq ? eq - a : (ptrdiff_t)strlen(a)), a);
			if (eq) {
				if (o->kind == CLI_OPT_FLAG)
					return usage_error(cmd, "option '--%s' takes no value",
							   o->name);
				val = eq + 1;
			}
		} else {
			o = find_short(opts, a[1]);
			if (!o)
				return usage_error(cmd, "unknown option '%s'", a);
			if (a[2] && o->kind == CLI_OPT_FLAG)
				return usage_error(cmd, "option '%s' takes no value", a);
			if (a[2])
				val = a + 2;
		}
		if (o->kind != CLI_OPT_FLAG && !val) {
			if (i + 1 >= argc)
				return usage_error(cmd, "option '--%s' needs a value", o->name);
			val = argv[++i];
		}
		rc = set_value(cmd, o, val);
		if (rc >= 0)
			return rc;
	}
	*nargs = n;
	if (n && !cmd->args && !opt_help && !opt_completion)
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
	for (struct cli_opt *o = opts; o->kind != CLI_OPT_END; o++)
		if (o->required && !o->seen)
			return usage_error(cmd, "this command needs --%s", o->name);
	if (opt_sysfs_root) {
		cli->sysfs_root = opt_sysfs_root;
		cli->sysfs_root_given = true;
	}
	if (opt_db)
		cli->db_path = opt_db;
	cli->json |= opt_json;
	return -1;
}

void cli_wrap(FILE *f, const char *text, int col, int indent, int width)
{
	bool line_start = true;

	if (col > 0 && col < indent) {
		fprintf(f, "%*s", indent - col, "");
		col = indent;
	}
	for (const char *p = text; *p;) {
		size_t len;

		p += strspn(p, " \n");
		if (!*p)
			break;
		len = strcspn(p, " \n");
		if (!line_start && col + 1 + (int)len > width) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
			line_start = true;
		}
		if (!line_start || (col > 0 && col > indent)) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", (int)len, p);
		col += (int)len;
		p += len;
		line_start = false;
	}
	fputc('\n', f);
}

static void help_opts(FILE *f, const struct cli_opt *opts, bool json)
{
	for (const struct cli_opt *o = opts; o->kind != CLI_OPT_END; o++) {
		char left[64];
		int len;

		if (!o->help || (!json && o->value == &opt_json))
			continue;
		len = snprintf(left, sizeof(left), "  %s%s--%s%s%s", o->short_name ? "-" : "",
			       o->short_name ? (char[]){ o->short_name, ',', ' ', '\0' } : "",
			       o->name, o->arg ? " " : "", o->arg ? o->arg : "");
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
