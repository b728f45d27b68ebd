// SPDX-License-Identifier: GPL-3.0-or-later
/* tiertune show RUN: one recorded run with its host, trials and
 * recommendations. */
#include "auto-display.h"
#include "cli.h"
#include "../view/run-figures.h"

#include "../bench/kernels.h"
#include "../core/figure.h"
#include "../core/objective.h"
#include "../core/parse.h"
#include "../db/db.h"
#include "../view/interval.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The figures of a bench trial's columns: the best and median pass's
 * bandwidth, the median pass's latency. */
static const struct {
	enum tt_figure_id fig;
	bool median;   /* the median pass, else the best */
	int width;     /* of the column */
	const char *a; /* the header's word */
} bench_columns[] = {
	{ TT_FIG_BANDWIDTH, false, 10, "best" },
	{ TT_FIG_BANDWIDTH, true, 10, "med." },
	{ TT_FIG_LATENCY, true, 9, "med." },
};
#define BENCH_COLUMNS (sizeof(bench_columns) / sizeof(*bench_columns))

/* Column c of trial t as shown, "-" for none. */
static void bench_cell(json_t *t, size_t c, char *buf, size_t size)
{
	const struct tt_figure *f = tt_figure(bench_columns[c].fig);
	json_t *v = json_object_get(t, bench_columns[c].median ? f->median : f->best);

	if (json_is_number(v))
		tt_figure_print(f, json_number_value(v), buf, size);
	else
		snprintf(buf, size, "-");
}

/* A bench kernel's trials: bandwidth and latency, and the share of the
 * pages each node got. A loaded-latency curve's trials are its points, one
 * figure of each: its traffic and delay (the recorded mix) stand where the
 * best pass would, as the points were listed without them (issue 44). */
static void print_bench_trials(json_t *run)
{
	size_t i, k, unstable = 0, descheduled = 0, resident = 0, below = 0;
	char head[BENCH_COLUMNS][24];
	json_t *t, *n;
	const struct tt_kernel *kern = tt_kernel_find(
		cli_str(json_array_get(json_object_get(run, "trials"), 0), "kernel"));
	bool curve = kern && kern->kind->curve;

	for (size_t c = 0; c < BENCH_COLUMNS; c++)
		snprintf(head[c], sizeof(head[c]), "%s %s", bench_columns[c].a,
			 tt_figure(bench_columns[c].fig)->label);
	if (curve)
		snprintf(head[1], sizeof(head[1]), "%s", tt_figure(TT_FIG_BANDWIDTH)->label);
	printf("\n%5s %-14s %-10s %7s %10s %*s %10s %9s  %s\n", "trial", "kernel", "placement",
	       "threads", tt_size_unit, curve ? -18 : 10, curve ? "traffic, delay" : head[0],
	       head[1], head[2], "achieved share per node");
	json_array_foreach (json_object_get(run, "trials"), i, t) {
		char b[16], m[16], l[16], mib[32];

		bench_cell(t, 0, b, sizeof(b));
		bench_cell(t, 1, m, sizeof(m));
		bench_cell(t, 2, l, sizeof(l));
		tt_size_print((double)json_integer_value(json_object_get(t, "size_bytes")), mib,
			      sizeof(mib));
		printf("%5" JSON_INTEGER_FORMAT " %-14s %-10s %7" JSON_INTEGER_FORMAT
		       " %10s %*s %10s %9s  ",
		       json_integer_value(json_object_get(t, "seq")), cli_str(t, "kernel"),
		       cli_str(t, "placement"), json_integer_value(json_object_get(t, "threads")),
		       mib, curve ? -18 : 10, curve ? cli_str(t, "mix") : b, m, l);
		json_array_foreach (json_object_get(t, "nodes"), k, n)
			printf("%s%" JSON_INTEGER_FORMAT ":%.1f%%", k ? " " : "",
			       json_integer_value(json_object_get(n, "node")),
			       100 * json_number_value(json_object_get(n, "achieved_share")));
		printf("%s%s%s%s%s\n",
		       json_is_true(json_object_get(t, "validated")) ? "" : "  NOT VALIDATED",
		       json_is_true(json_object_get(t, "descheduled")) ? "  " : "",
		       json_is_true(json_object_get(t, "descheduled"))
			       ? tt_distrust_word(TT_DISTRUST_DESCHEDULED)
			       : "",
		       json_is_true(json_object_get(t, "unstable")) ? "  " : "",
		       json_is_true(json_object_get(t, "unstable"))
			       ? tt_distrust_word(TT_DISTRUST_UNSTABLE)
			       : "");
		unstable += json_is_true(json_object_get(t, "unstable"));
		descheduled += json_is_true(json_object_get(t, "descheduled"));
		resident += json_is_true(json_object_get(t, "cache_resident"));
		below += json_is_true(json_object_get(t, "below_llc_rule")) &&
			 !json_is_true(json_object_get(t, "cache_resident"));
	}
	/* The words runs puts after the headline, here with the count. */
	tt_distrust_text(TT_DISTRUST_UNSTABLE, unstable, stdout);
	tt_distrust_text(TT_DISTRUST_DESCHEDULED, descheduled, stdout);
	tt_distrust_text(TT_DISTRUST_CACHE_RESIDENT, resident, stdout);
	tt_distrust_text(TT_DISTRUST_BELOW_RULE, below, stdout);
}

/* App mode's trials (auto -- COMMAND): the program's wall time or metric
 * per candidate, and the weights it ran under. */
static void print_app_trials(json_t *run, const struct tt_objective *o)
{
	const struct tt_figure *fig = tt_objective_figure(o);
	const char *f[3] = { fig->best, fig->median, fig->worst },
		   *word[3] = { "best", "median", fig->worst_word };
	char text[TT_OBJECTIVE_TEXT_MAX], head[3][24];
	size_t i, k, descheduled = 0;
	json_t *t, *n;

	tt_objective_format(o, text, sizeof(text));
	for (int j = 0; j < 3; j++)
		snprintf(head[j], sizeof(head[j]), "%s%s%s", word[j], fig->label[0] ? " " : "",
			 fig->label);
	printf("objective %s\n", text);
	printf("\n%5s %-10s %7s %12s %12s %12s  %s\n", "trial", "placement", "threads", head[0],
	       head[1], head[2], "weights");
	json_array_foreach (json_object_get(run, "trials"), i, t) {
		printf("%5" JSON_INTEGER_FORMAT " %-10s %7" JSON_INTEGER_FORMAT,
		       json_integer_value(json_object_get(t, "seq")), cli_str(t, "placement"),
		       json_integer_value(json_object_get(t, "threads")));
		for (int j = 0; j < 3; j++) {
			json_t *v = json_object_get(t, f[j]);

			if (json_is_number(v))
				printf(" %12.6g", json_number_value(v));
			else
				printf(" %12s", "-");
		}
		printf("  ");
		json_array_foreach (json_object_get(t, "nodes"), k, n)
			printf("%s%" JSON_INTEGER_FORMAT ":%" JSON_INTEGER_FORMAT, k ? "," : "",
			       json_integer_value(json_object_get(n, "node")),
			       json_integer_value(json_object_get(n, "weight")));
		if (json_is_true(json_object_get(t, "descheduled")))
			printf("  %s", tt_distrust_word(TT_DISTRUST_DESCHEDULED_PROGRAM));
		descheduled += json_is_true(json_object_get(t, "descheduled"));
		printf("\n");
	}
	tt_distrust_text(TT_DISTRUST_DESCHEDULED_PROGRAM, descheduled, stdout);
}

static void print_show(json_t *run)
{
	char start[32], end[32], fig[160];
	struct tt_headline h;
	struct tt_objective o;
	size_t i;
	json_t *t;

	cli_when(json_number_value(json_object_get(run, "started")), start, sizeof(start));
	cli_when(json_number_value(json_object_get(run, "finished")), end, sizeof(end));
	printf("run %" JSON_INTEGER_FORMAT " (%s)%s\n",
	       json_integer_value(json_object_get(run, "id")), cli_str(run, "uuid"),
	       json_is_true(json_object_get(run, "simulated")) ? "  SIMULATED" : "");
	printf("host      %s (fingerprint %s), %s, kernel %s\n", cli_str(run, "host"),
	       cli_str(run, "fingerprint"), cli_str(run, "cpu_model"),
	       cli_str(run, "kernel_release"));
	printf("kind      %s, status %s, %s .. %s\n", cli_str(run, "kind"), cli_str(run, "status"),
	       start, end);
	/* Why it ended as it did, where the status does not say (a
	 * rebalance whose process went away or out of reach, a full node). */
	if (json_is_string(json_object_get(run, "end_reason")))
		printf("ended     %s\n", cli_str(run, "end_reason"));
	printf("command   %s\n", cli_str(run, "command"));
	tt_run_headline(run, &h);
	tt_headline_text(&h, fig, sizeof(fig));
	printf("headline  %s\n", fig);
	tt_run_objective(run, &o); /* tt_run_get refused one that does not parse */
	if (o.kind == TT_OBJ_WALL_TIME || o.kind == TT_OBJ_METRIC)
		print_app_trials(run, &o);
	else
		print_bench_trials(run);
	tt_trials_text(run, stdout);
	/* The gain as auto's report shows it (view/interval.h): the latency
	 * objective's, in loads per second, as the change of latency. */
	if (json_array_size(json_object_get(run, "recommendations")))
		printf("\n%6s %-9s %-24s %8s  %s\n", "source", "interface", "weights",
		       tt_gain_word(&o), "action, figure");
	json_array_foreach (json_object_get(run, "recommendations"), i, t) {
		char w[256] = "";
		size_t len = 0;
		const char *key;
		json_t *v;

		/* Stored text that is no weights (a damaged database), as it is. */
		if (json_is_string(json_object_get(t, "weights_text")))
			snprintf(w, sizeof(w), "'%s' (not weights)", cli_str(t, "weights_text"));
		json_object_foreach (json_object_get(t, "weights"), key, v)
			if (len < sizeof(w))
				len += (size_t)snprintf(w + len, sizeof(w) - len,
							"%s%s:%" JSON_INTEGER_FORMAT,
							len ? "," : "", key, json_integer_value(v));
		json_t *g = json_object_get(t, "gain");
		double gain = json_is_number(g) ? json_number_value(g) : NAN, shown[3];
		char gs[16];

		tt_reco_headline(run, t, &h);
		h.action = NULL; /* said first */
		tt_headline_text(&h, fig, sizeof(fig));
		tt_gain_text(&o, gain, NAN, NAN, TT_GAIN_BARE, gs, sizeof(gs));
		tt_gain_shown(&o, gain, NAN, NAN, shown);
		gain = shown[0];
		/* The gain's baseline named, as the report's headline does. */
		const char *base = json_string_value(json_object_get(t, "baseline"));

		printf("%6" JSON_INTEGER_FORMAT " %-9s %-24s %8s  %s, %s%s%s%s\n",
		       json_integer_value(json_object_get(t, "source_node")),
		       cli_str(t, "interface"), w, gs, cli_str(t, "action"),
		       base && isfinite(gain) ? "gain over " : "",
		       base && isfinite(gain) ? base : "", base && isfinite(gain) ? ", " : "", fig);
	}
	/* per_source: nothing global to write, and what to do instead. */
	if (cli_auto_run_recipe(run, stdout) > 0)
		printf("('apply --run %" JSON_INTEGER_FORMAT "' writes nothing for it)\n",
		       json_integer_value(json_object_get(run, "id")));
}

int cmd_show(struct tt_cli *cli, int argc, char **argv)
{
	json_t *run;
	uint64_t id;
	bool csv = false;
	struct cli_opt opts[] = {
		CLI_FLAG("csv", &csv, "the run's trials as CSV, a row per trial and node"),
		CLI_END,
	};
	int nargs, rc = cli_parse(cli, cli_find_command("show"), opts, argc, argv, &nargs);

	if (rc >= 0)
		return rc;
	if (nargs != 1)
		return cli_usage("show takes one run id (see 'tiertune runs')");
	if (tt_parse_u64(argv[0], 1, INT64_MAX, &id) != 0)
		return cli_usage("run '%s' is not a run id (see 'tiertune runs')", argv[0]);
	if (csv && cli->json)
		return cli_usage("--csv and --json do not go together");
	rc = cli_setup(cli);
	if (rc)
		return rc;
	rc = tt_run_get(cli->db, (int64_t)id, &run);
	if (rc < 0)
		return cli_fail(rc);
	if (cli->json) {
		struct tt_headline h;

		tt_run_headline(run, &h);
		tt_headline_json(run, &h);
		return cli_print_json(run);
	}
	/* A recipe that is no recipe: refused before a line is printed (the
	 * JSON has it as recipe_text, for a program to read). */
	struct tt_recipe r;

	if (!csv && (rc = cli_auto_run_recipe_get(run, &r)) < 0) {
		tt_err_hint("'tiertune show %ju --json' shows the run, the stored text as "
			    "recipe_text",
			    (uintmax_t)id);
		json_decref(run);
		return cli_fail(rc);
	}
	if (csv)
		tt_trials_csv(run, stdout);
	else
		print_show(run);
	json_decref(run);
	return 0;
}
