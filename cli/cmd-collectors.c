/* tiertune collectors: every collector, whether it works here and why not,
 * and the metrics it gives (or would). */
#include "cli.h"

#include "../collectors/collector.h"
#include "../core/error.h"
#include "../core/topo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_SOURCE = OPT_FIRST_COMMAND };

static json_t *metric_json(const struct tt_metric *m)
{
	return json_pack("{s:s,s:s,s:s,s:o,s:s}", "name", m->name, "unit", m->unit, "kind",
			 m->kind == TT_COUNTER ? "counter" : "gauge", "node",
			 m->node >= 0 ? json_integer(m->node) : json_null(), "source", m->source);
}

/* One collector's line (or object). Returns TT_EINPUT for a garbled file,
 * which stops the listing. */
static int describe(const struct tt_cli *cli, const struct tt_collect_ctx *ctx,
		    const struct tt_collector *c, json_t *all)
{
	char why[1024] = "";
	struct tt_source *src = NULL;
	int rc = c->probe(ctx, why, sizeof(why));
	json_t *metrics = json_array();

	if (rc == TT_EINPUT || (rc < 0 && rc != TT_EUNAVAIL)) {
		json_decref(metrics);
		return tt_err(rc, "collector %s: %s", c->name, why);
	}
	if (rc == 0 && c->open(ctx, &src) < 0) {
		snprintf(why, sizeof(why), "%s", tt_err_msg());
		rc = TT_EUNAVAIL;
	}
	for (int i = 0; src && i < src->nmetrics; i++)
		json_array_append_new(metrics, metric_json(&src->metrics[i]));
	if (cli->json) {
		json_array_append_new(all, json_pack("{s:s,s:s,s:b,s:b,s:b,s:s?,s:s?,s:o}", "name",
						     c->name, "summary", c->summary, "available",
						     rc == 0, "simulated", !!(c->flags & TT_C_SIMULATED),
						     "hardware", !!(c->flags & TT_C_HARDWARE), "reason",
						     rc ? why : NULL, "note", rc == 0 && why[0] ? why : NULL,
						     "metrics", rc == 0 ? metrics : json_array()));
		if (rc)
			json_decref(metrics);
	} else {
		printf("%-11s %s\n", c->name,
		       rc == 0 ? (c->flags & TT_C_SIMULATED ? "available (SIMULATED values)" : "available")
			       : "unavailable");
		printf("            %s\n", c->summary);
		if (rc)
			printf("            why: %s\n            would give: %s\n", why, c->gives);
		else if (why[0])
			printf("            note: %s\n", why);
		if (rc == 0)
			printf("            %d metrics: %s\n", src->nmetrics, c->gives);
		json_decref(metrics);
	}
	if (src)
		c->close(src);
	return 0;
}

int cmd_collectors(struct tt_cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{"source-node", required_argument, NULL, OPT_SOURCE},
		CLI_COMMON_OPTIONS,
		{NULL, 0, NULL, 0},
	};
	const struct tt_cmd *self = cli_find_command("collectors");
	struct tt_collect_ctx ctx = {.source_node = -1};
	struct tt_topo t;
	json_t *all = NULL;
	uint64_t v;
	int c, rc;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == OPT_SOURCE) {
			if (cli_number("source-node", optarg, 0, TT_MAX_NODES - 1, &v))
				return 2;
			ctx.source_node = (int)v;
			continue;
		}
		rc = cli_common_option(cli, self, c);
		if (rc >= 0)
			return rc;
	}
	if (optind < argc)
		return cli_usage("collectors takes no argument, got '%s'", argv[optind]);
	rc = cli_load_topo(cli, &t);
	if (rc)
		return rc;
	ctx.sfs = &cli->sfs;
	ctx.topo = &t;
	if (cli->json)
		all = json_array();
	for (const struct tt_collector *const *col = tt_collectors; *col && rc == 0; col++)
		rc = describe(cli, &ctx, *col, all);
	tt_topo_release(&t);
	if (rc < 0) {
		json_decref(all);
		return cli_fail(rc);
	}
	return all ? cli_print_json(all) : 0;
}
