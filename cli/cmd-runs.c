// SPDX-License-Identifier: GPL-3.0-or-later
/* tiertune runs: the runs the database holds, newest first. */
#include "cli.h"
#include "../view/run-figures.h"

#include "../core/parse.h"
#include "../db/db.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* After the headline, what show says under the trials of a run whose
 * figures the tool disowns (view/run-figures.h tt_distrust_word): the list
 * shows no figure without it. */
static void distrust(json_t *row, char *buf, size_t size)
{
	static const struct {
		const char *column;
		enum tt_distrust d;
	} marks[] = { { "unstable_trials", TT_DISTRUST_UNSTABLE },
		      { "descheduled_trials", TT_DISTRUST_DESCHEDULED },
		      { "cache_resident_trials", TT_DISTRUST_CACHE_RESIDENT } };
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(marks) / sizeof(*marks); i++)
		if (json_integer_value(json_object_get(row, marks[i].column)) > 0 && len < size)
			len += (size_t)snprintf(buf + len, size - len, "  %s",
						tt_distrust_word(marks[i].d));
}

static int print_run(json_t *row, void *ctx)
{
	char start[32], fig[128], src[16] = "-", marks[64];
	json_t *sn = json_object_get(row, "source_node");
	struct tt_headline h;

	if (tt_run_headline(row, &h) < 0)
		cli_warn("%s", tt_err_msg());
	tt_headline_json(row, &h);
	if (ctx) /* --json */
		return json_array_append(ctx, row);
	cli_when(json_number_value(json_object_get(row, "started")), start, sizeof(start));
	tt_headline_text(&h, fig, sizeof(fig));
	if (json_is_integer(sn))
		snprintf(src, sizeof(src), "%" JSON_INTEGER_FORMAT, json_integer_value(sn));
	distrust(row, marks, sizeof(marks));
	printf("%6" JSON_INTEGER_FORMAT "  %-19s  %-16.16s %-8s %-6s %-11s %6" JSON_INTEGER_FORMAT
	       "  %s%s%s\n",
	       json_integer_value(json_object_get(row, "id")), start, cli_str(row, "host"),
	       cli_str(row, "kind"), src, cli_str(row, "status"),
	       json_integer_value(json_object_get(row, "ntrials")), fig, marks,
	       json_is_true(json_object_get(row, "simulated")) ? "  SIMULATED" : "");
	/* Under its row: why it ended as it did, where the status does not
	 * say (a rebalance's process gone or out of reach, a full node). */
	if (json_is_string(json_object_get(row, "end_reason")))
		printf("%8s%s\n", "", cli_str(row, "end_reason"));
	return 0;
}

int cmd_runs(struct tt_cli *cli, int argc, char **argv)
{
	const char *host = NULL;
	uint64_t limit = 20;
	struct cli_opt opts[] = {
		CLI_STRING("host", &host, "HOST", "only this host's runs (by hostname)"),
		CLI_U64("limit", &limit, "N", "at most N runs, newest first (default 20)", 1,
			1000000),
		CLI_END,
	};
	struct tt_db *db;
	json_t *all = NULL;
	int nargs, rc = cli_parse(cli, cli_find_command("runs"), opts, argc, argv, &nargs);

	if (rc >= 0)
		return rc;
	rc = cli_setup(cli);
	if (rc)
		return rc;
	db = cli->db;
	if (cli->json)
		all = json_array();
	else
		printf("%6s  %-19s  %-16s %-8s %-6s %-11s %6s  %s\n", "run", "started", "host",
		       "kind", "source", "status", "trials", "headline");
	rc = tt_db_runs(db, host, (int)limit, print_run, all);
	if (rc < 0) {
		json_decref(all);
		return cli_fail(rc);
	}
	return all ? cli_print_json(json_pack("{s:o}", "runs", all)) : 0;
}
