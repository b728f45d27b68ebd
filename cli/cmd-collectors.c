// SPDX-License-Identifier: GPL-3.0-or-later
/* tiertune collectors: every collector, whether it works here and why not,
 * and the metrics it gives (or would). */
#include "cli.h"

#include "../collectors/collector.h"
#include "../core/error.h"
#include "../core/topo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *metric_json(const struct tt_metric *m)
{
	return json_pack("{s:s,s:s,s:s,s:o,s:s}", "name", m->name, "unit", m->unit, "metric_kind",
			 m->kind == TT_COUNTER ? "counter" : "gauge", "node",
			 m->node >= 0 ? json_integer(m->node) : json_null(), "source", m->source);
}

/* One collector as a JSON object. TT_EINPUT for a garbled file, which
 * stops the listing before anything is printed. */
static int describe(const struct tt_collect_ctx *ctx, const struct tt_collector *c, json_t *all)
{
	char why[1024] = "";
	struct tt_source *src = NULL;
	int rc = tt_collector_probe(c, ctx, why, sizeof(why));
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
	if (src)
		c->close(src);
	json_array_append_new(all,
			      json_pack("{s:s,s:s,s:b,s:b,s:b,s:s?,s:s?,s:s,s:o}", "name", c->name,
					"summary", c->summary, "available", rc == 0, "simulated",
					!!(c->flags & TT_C_SIMULATED), "hardware",
					!!(c->flags & TT_C_HARDWARE), "reason", rc ? why : NULL,
					"note", rc == 0 && why[0] ? why : NULL, "gives", c->gives,
					"metrics", metrics));
	return 0;
}

static void print_human(json_t *all)
{
	size_t i, k;
	json_t *c, *m;

	json_array_foreach (all, i, c) {
		bool ok = json_is_true(json_object_get(c, "available"));
		const char *reason = json_string_value(json_object_get(c, "reason")),
			   *note = json_string_value(json_object_get(c, "note"));

		printf("%-11s %s\n            %s\n", json_string_value(json_object_get(c, "name")),
		       !ok ? "unavailable"
		       : json_is_true(json_object_get(c, "simulated"))
			       ? "available (SIMULATED values)"
			       : "available",
		       json_string_value(json_object_get(c, "summary")));
		if (!ok) {
			printf("            why: %s\n            would give: %s\n", reason,
			       json_string_value(json_object_get(c, "gives")));
			continue;
		}
		if (note)
			printf("            note: %s\n", note);
		printf("            metrics:");
		json_array_foreach (json_object_get(c, "metrics"), k, m) {
			json_t *node = json_object_get(m, "node");

			if (k && k % 6 == 0)
				printf("\n                    ");
			printf(" %s", json_string_value(json_object_get(m, "name")));
			if (json_is_integer(node))
				printf("@%" JSON_INTEGER_FORMAT, json_integer_value(node));
		}
		printf("\n");
	}
}

int cmd_collectors(struct tt_cli *cli, int argc, char **argv)
{
	int64_t source = -1;
	struct cli_opt opts[] = {
		CLI_SOURCE_NODE(&source, "the node whose CPUs the core counters count (default: "
					 "the first node with CPUs)"),
		CLI_END,
	};
	struct tt_collect_ctx ctx = { .source_node = -1 };
	struct tt_topo *t;
	json_t *all = NULL;
	int nargs, rc = cli_parse(cli, cli_find_command("collectors"), opts, argc, argv, &nargs);

	if (rc >= 0)
		return rc;
	ctx.source_node = (int)source;
	rc = cli_setup(cli);
	if (rc)
		return rc;
	t = cli->topo;
	if ((rc = tt_topo_check_source(t, ctx.source_node)) < 0) {
		return cli_fail(rc);
	}
	ctx.sfs = &cli->sfs;
	ctx.topo = t;
	all = json_array();
	for (const struct tt_collector *const *col = tt_collectors; *col && rc == 0; col++)
		rc = describe(&ctx, *col, all);
	if (rc < 0) {
		json_decref(all);
		return cli_fail(rc);
	}
	if (cli->json)
		return cli_print_json(json_pack("{s:o}", "collectors", all));
	print_human(all);
	json_decref(all);
	return 0;
}
