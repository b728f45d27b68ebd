/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * auto's and sweep's options: one table each (typed entries: the choices'
 * words come from their tables, doubles and the budget with their ranges)
 * with the rules between them, and the typed request (tuner/auto.h) they
 * make. Everything the command line says is checked here, before anything
 * is read, so that bad input writes nothing.
 *
 *	struct cli_auto_args a;
 *	int rc = cli_auto_parse(cli, TT_RUN_AUTO, argc, argv, &a);
 *	if (rc >= 0) return rc;      (--help printed: 0; an error printed: 2)
 *	... a.req is the run asked for (with --all-sources, for each CPU node
 *	    with a.req.source set); --model's file is a.model ...
 */
#ifndef TT_CLI_AUTO_OPTIONS_H
#define TT_CLI_AUTO_OPTIONS_H

#include "../tuner/auto.h"

#include <stdbool.h>

struct tt_cli;

struct cli_auto_args {
	/* Every choice typed. .model is NULL (the caller loads a.model);
	 * .source is -1 with --all-sources. */
	struct tt_auto_req req;
	const char *model; /* --model: a file or a shipped model's name; NULL: real trials */
	bool all_sources, apply, no_record, verbose;
};

/* Parses and checks auto's or sweep's command line (argv[0] is the
 * command's name) into a. Returns -1 to go on, or an exit code with what
 * happened printed: 0 after --help, 2 for bad input naming it. */
int cli_auto_parse(struct tt_cli *cli, enum tt_run_kind kind, int argc, char **argv,
		   struct cli_auto_args *a);

#endif
