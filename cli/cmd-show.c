// SPDX-License-Identifier: GPL-3.0-or-later
/* tiertune show RUN: one recorded run with its host, trials and
 * recommendations. */
#include "cli.h"
#include "../view/run-figures.h"

#include "../bench/run.h"
#include "../core/parse.h"
#include "../db/db.h"
#include "../view/interval.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A bench kernel's trials: bandwidth and latency, and the share of the
 * pages each node got. */
static void print_bench_trials(json_t *run)
{
	size_t i, k, unstable = 0, resident = 0, below = 0;
	json_t *t, *n;

	printf("\n%5s %-14s %-10s %7s %10s %10s %10s %9s  %s\n", "trial", "kernel", "placement",
	       "threads", "MiB", "best GB/s", "med. GB/s", "med. ns", "achieved share per node");
	json_array_foreach (json_object_get(run, "trials"), i, t) {
		json_t *bw = json_object_get(t, "bw_best_bytes_s"),
		       *med = json_object_get(t, "bw_median_bytes_s"),
		       *lat = json_object_get(t, "lat_median_ns");
		char b[16] = "-", m[16] = "-", l[16] = "-";

		if (json_is_number(bw))
			snprintf(b, sizeof(b), "%.2f", json_number_value(bw) / 1e9);
		if (json_is_number(med))
			snprintf(m, sizeof(m), "%.2f", json_number_value(med) / 1e9);
		if (json_is_number(lat))
			snprintf(l, sizeof(l), "%.1f", json_number_value(lat));
		printf("%5" JSON_INTEGER_FORMAT " %-14s %-10s %7" JSON_INTEGER_FORMAT
		       " %10.1f %10s %10s %9s  ",
		       json_integer_value(json_object_get(t, "seq")), cli_str(t, "kernel"),
		       cli_str(t, "placement"), json_integer_value(json_object_get(t, "threads")),
		       (double)json_integer_value(json_object_get(t, "size_bytes")) / (1 << 20), b,
		       m, l);
		json_array_foreach (json_object_get(t, "nodes"), k, n)
			printf("%s%" JSON_INTEGER_FORMAT ":%.1f%%", k ? " " : "",
			       json_integer_value(json_object_get(n, "node")),
			       100 * json_number_value(json_object_get(n, "achieved_share")));
		printf("%s%s\n",
		       json_is_true(json_object_get(t, "validated")) ? "" : "  NOT VALIDATED",
		       json_is_true(json_object_get(t, "unstable")) ? "  UNSTABLE" : "");
		unstable += json_is_true(json_object_get(t, "unstable"));
		resident += json_is_true(json_object_get(t, "cache_resident"));
		below += json_is_true(json_object_get(t, "below_llc_rule")) &&
			 !json_is_true(json_object_get(t, "cache_resident"));
	}
	/* bench's words for the same marks (cli/cmd-bench.c print_trust). */
	if (unstable)
		printf("UNSTABLE: %zu trial%s whose passes spread beyond %.0f%%, or whose curve "
		       "was "
		       "not\n  monotone: other work shared the host\n",
		       unstable, unstable == 1 ? "" : "s", TT_SPREAD_MAX * 100);
	if (resident)
		printf("cache-resident: %zu trial%s whose working set fitted in the last-level "
		       "cache:\n  the cache's figures, not memory's\n",
		       resident, resident == 1 ? "" : "s");
	if (below)
		printf("below STREAM's 4x rule: %zu trial%s with arrays under 4x the last-level "
		       "cache\n",
		       below, below == 1 ? "" : "s");
}

/* App mode's trials (auto -- COMMAND): the program's wall time or metric
 * per candidate, and the weights it ran under. */
static void print_app_trials(json_t *run)
{
	bool metric = strncmp(cli_str(run, "objective"), "app:metric", 10) == 0;
	const char *f[3] = { metric ? "metric_best" : "time_best_s",
			     metric ? "metric_median" : "time_median_s",
			     metric ? "metric_worst" : "time_max_s" };
	size_t i, k;
	json_t *t, *n;

	printf("objective %s\n", cli_str(run, "objective"));
	printf("\n%5s %-10s %7s %12s %12s %12s  %s\n", "trial", "placement", "threads",
	       metric ? "best" : "best s", metric ? "median" : "median s",
	       metric ? "worst" : "max s", "weights");
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
		printf("\n");
	}
}

static void print_show(json_t *run)
{
	char start[32], end[32], fig[160];
	struct cli_headline h;
	bool latency;
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
	printf("command   %s\n", cli_str(run, "command"));
	cli_run_headline(run, &h);
	cli_headline_text(&h, fig, sizeof(fig));
	printf("headline  %s\n", fig);
	if (strncmp(cli_str(run, "objective"), "app:", 4) == 0)
		print_app_trials(run);
	else
		print_bench_trials(run);
	cli_trials_text(run);
	/* The latency objective's gain is in loads per second (1/latency):
	 * shown as the change of latency (tuner/stats.h). */
	latency = strncmp(cli_str(run, "objective"), "latency:", 8) == 0;
	if (json_array_size(json_object_get(run, "recommendations")))
		printf("\n%6s %-9s %-24s %8s  %s\n", "source", "interface", "weights",
		       latency ? "latency" : "gain", "action, figure");
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
		double gain = json_is_number(g) ? json_number_value(g) : NAN, lo, hi;
		char gs[16] = "-";

		cli_reco_headline(run, t, &h);
		h.action = NULL; /* said first */
		cli_headline_text(&h, fig, sizeof(fig));
		if (latency)
			tt_inverse_change(gain, NAN, NAN, &gain, &lo, &hi);
		if (isfinite(gain))
			snprintf(gs, sizeof(gs), "%+.1f%%", 100 * gain);
		printf("%6" JSON_INTEGER_FORMAT " %-9s %-24s %8s  %s, %s\n",
		       json_integer_value(json_object_get(t, "source_node")),
		       cli_str(t, "interface"), w, gs, cli_str(t, "action"), fig);
	}
}

int cmd_show(struct tt_cli *cli, int argc, char **argv)
{
	struct tt_db *db;
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
	rc = cli_open_db(cli, TT_DB_READONLY, &db);
	if (rc)
		return rc;
	rc = cli_run_get(db, (int64_t)id, &run);
	tt_db_close(db);
	if (rc < 0)
		return cli_fail(rc);
	if (cli->json) {
		struct cli_headline h;

		cli_run_headline(run, &h);
		cli_headline_json(run, &h);
		return cli_print_json(run);
	}
	if (csv)
		cli_trials_csv(run, stdout);
	else
		print_show(run);
	json_decref(run);
	return 0;
}
