// SPDX-License-Identifier: GPL-3.0-or-later
/* A probe's figures as text and JSON (probe.h). */
#include "probe.h"

#include "../core/figure.h"

/* A figure as the table shows it, or "-" when unknown. */
static void shown(enum tt_figure_id id, double v, char *buf, size_t size)
{
	if (v > 0)
		tt_figure_print(tt_figure(id), v, buf, size);
	else
		snprintf(buf, size, "-");
}

void tt_probe_text(FILE *f, const struct tt_probe_view *v)
{
	const struct tt_figure *bw = tt_figure(TT_FIG_BANDWIDTH), *lat = tt_figure(TT_FIG_LATENCY);
	char head[2][32];

	fprintf(f, "%sprobe from node %d: %d memory node%s in %.0f ms of a %.0f ms budget",
		v->simulated ? "SIMULATED " : "", v->source, v->n, v->n == 1 ? "" : "s",
		v->elapsed_ms, v->budget_ms);
	if (v->array_bytes)
		fprintf(f, ", arrays of %.1f MiB", (double)v->array_bytes / (1 << 20));
	fprintf(f, "\n");
	snprintf(head[0], sizeof(head[0]), "bandwidth %s", bw->label);
	snprintf(head[1], sizeof(head[1]), "idle latency %s", lat->label);
	fprintf(f, "%4s  %14s  %15s  %s\n", "node", head[0], head[1], "judged");
	for (int i = 0; i < v->n; i++) {
		const struct tt_probe_row *r = &v->rows[i];
		char b[32], l[32];

		shown(TT_FIG_BANDWIDTH, r->bw_bytes_s, b, sizeof(b));
		shown(TT_FIG_LATENCY, r->lat_ns, l, sizeof(l));
		fprintf(f, "%4d  %14s  %15s  %s\n", r->node, b, l, r->judged);
	}
}

json_t *tt_probe_json(const struct tt_probe_view *v)
{
	json_t *nodes = json_array();

	for (int i = 0; i < v->n; i++) {
		const struct tt_probe_row *r = &v->rows[i];

		json_array_append_new(
			nodes,
			json_pack("{s:i,s:o,s:o,s:s}", "node", r->node, "bw_bytes_s",
				  r->bw_bytes_s > 0 ? json_real(r->bw_bytes_s) : json_null(),
				  "idle_lat_ns", r->lat_ns > 0 ? json_real(r->lat_ns) : json_null(),
				  "judged", r->judged));
	}
	return json_pack("{s:i,s:b,s:f,s:f,s:I,s:o}", "source_node", v->source, "simulated",
			 v->simulated, "elapsed_s", v->elapsed_ms / 1e3, "budget_s",
			 v->budget_ms / 1e3, "array_bytes", (json_int_t)v->array_bytes, "nodes",
			 nodes);
}
