/* tiertune help [COMMAND]: the overview of the commands, or one command's
 * usage. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

void cli_print_overview(FILE *f)
{
	fprintf(f, "usage: tiertune [--sysfs-root DIR] [--db PATH] [--version] COMMAND [OPTIONS]\n\ncommands:\n");
	for (const struct tt_cmd *c = tt_commands; c->name; c++)
		fprintf(f, "  %-10s %.*s\n", c->name, (int)strcspn(c->summary, "."), c->summary);
	fprintf(f, "\nexit codes: 0 ok, 1 failure, 2 usage or bad input, 3 unavailable\n");
}

int cmd_help(struct tt_cli *cli, int argc, char **argv)
{
	const struct tt_cmd *c;

	(void)cli;
	if (argc < 2) {
		cli_print_overview(stdout);
		return 0;
	}
	if (argc > 2)
		return cli_usage("help takes one command, got '%s' too", argv[2]);
	c = cli_find_command(argv[1]);
	if (!c)
		return cli_usage("unknown command '%s' (see 'tiertune help')", argv[1]);
	cli_print_usage(c);
	return 0;
}
