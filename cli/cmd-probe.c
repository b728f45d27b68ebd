// SPDX-License-Identifier: GPL-3.0-or-later
/* tiertune probe: the library's probe at a shell (lib/tiertune.h, the
 * calls an application makes): bandwidth and idle latency from a node to
 * each memory node within a budget, as view/probe.h shows them. */
#include "cli.h"

#include "../core/bitmap.h"
#include "../core/error.h"
#include "../core/parse.h"
#include "../lib/tiertune.h"
#include "../view/probe.h"

#include <stdio.h>
#include <string.h>

int cmd_probe(struct tt_cli *cli, int argc, char **argv)
{
	int64_t source = -1;
	uint64_t budget_ms = 300;
	const char *list = NULL, *model = NULL;
	struct cli_opt opts[] = {
		CLI_SOURCE_NODE(&source, "the node whose CPUs probe (default: the node this "
					 "command runs on)"),
		CLI_STRING("nodes", &list, "LIST",
			   "the memory nodes to probe (default: every memory node)"),
		CLI_U64("budget", &budget_ms, "MS",
			"the time the probe may take, in milliseconds (default 300): its arrays "
			"are sized to it, and no node is begun that would pass it",
			1, 600000),
		CLI_STRING("model", &model, "FILE.json",
			   "the figures of a performance model (model/machines/) instead of this "
			   "machine's: SIMULATED"),
		CLI_END,
	};
	struct tt_probe_row rows[TT_MAX_NODES];
	char judged[TT_MAX_NODES][128];
	uint64_t bits[TT_MAX_NODES / 64] = { 0 };
	int nodes[TT_MAX_NODES], n = 0, nargs, rc;
	tiertune_probe *p = NULL;
	tiertune *tt = NULL;

	rc = cli_parse(cli, cli_find_command("probe"), opts, argc, argv, &nargs);
	if (rc >= 0)
		return rc;
	if (list && tt_parse_list(list, bits, TT_MAX_NODES) < 0)
		return cli_fail(TT_EINPUT);
	for (unsigned int b = tt_bit_next(bits, TT_MAX_NODES, 0); b < TT_MAX_NODES;
	     b = tt_bit_next(bits, TT_MAX_NODES, b + 1))
		nodes[n++] = (int)b;
	rc = model ? tiertune_open_model(&tt, model, cli->sysfs_root_given ? cli->sysfs_root : NULL)
		   : tiertune_open(&tt, cli->sysfs_root);
	if (rc == 0)
		rc = tiertune_probe_run(tt, (int)source, list ? nodes : NULL, n,
					(unsigned int)budget_ms, &p);
	if (rc < 0) {
		tiertune_close(tt);
		return cli_fail(rc);
	}
	struct tt_probe_view v = { .source = tiertune_probe_source(p),
				   .simulated = model != NULL,
				   .elapsed_ms = tiertune_probe_elapsed_ms(p),
				   .budget_ms = (double)budget_ms,
				   .array_bytes = tiertune_probe_array_bytes(p),
				   .n = tiertune_probe_count(p),
				   .rows = rows };

	for (int i = 0; i < v.n; i++) {
		unsigned int j;

		tiertune_probe_result(p, i, &rows[i].node, &rows[i].bw_bytes_s, &rows[i].lat_ns,
				      &j);
		tiertune_judged_text(j, judged[i], sizeof(judged[i]));
		rows[i].judged = judged[i];
	}
	tiertune_probe_free(p);
	tiertune_close(tt);
	if (cli->json)
		return cli_print_json(tt_probe_json(&v));
	tt_probe_text(stdout, &v);
	return 0;
}
