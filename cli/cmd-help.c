// SPDX-License-Identifier: GPL-3.0-or-later
/* tiertune help [COMMAND]: the commands, or one command's options (the
 * same text as COMMAND --help, from the command's own option table). */
#include "cli.h"

#include <string.h>

void cli_overview(FILE *f)
{
	fprintf(f,
		"usage: tiertune [--sysfs-root DIR] [--db PATH] [--version] COMMAND [OPTIONS]\n\n"
		"commands:\n");
	for (const struct tt_cmd *c = tt_commands; c->name; c++) {
		char line[256];

		/* The summary's first sentence, wrapped under the command: it
		 * ends at a '.' before a space or the end, not the one of
		 * ".tar.gz". */
		const char *end = c->summary;

		while ((end = strchr(end, '.')) && end[1] && end[1] != ' ' && end[1] != '\n')
			end++;
		snprintf(line, sizeof(line), "%.*s",
			 (int)(end ? end - c->summary : (ptrdiff_t)strlen(c->summary)), c->summary);
		cli_wrap(f, line, fprintf(f, "  %-10s", c->name), 13, 80);
	}
	fprintf(f, "\n'tiertune COMMAND --help' lists a command's options.\n"
		   "exit codes: 0 ok, 1 failure, 2 usage or bad input, 3 unavailable\n");
}

int cmd_help(struct tt_cli *cli, int argc, char **argv)
{
	struct cli_opt opts[] = { CLI_END };
	const struct tt_cmd *c;
	int nargs, rc = cli_parse(cli, cli_find_command("help"), opts, argc, argv, &nargs);

	if (rc >= 0)
		return rc;
	if (nargs == 0) {
		cli_overview(stdout);
		return 0;
	}
	if (nargs > 1)
		return cli_usage("help takes one command, got '%s' too", argv[1]);
	c = cli_find_command(argv[0]);
	if (!c)
		return cli_usage("unknown command '%s' (see 'tiertune help')", argv[0]);
	/* The command prints its own help from its option table. */
	char *args[] = { (char *)c->name, "--help", NULL };

	return c->run(cli, 2, args);
}
