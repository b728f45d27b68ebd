/* tiertune runs and tiertune show: what the database holds. */
#include "cli.h"

#include "../core/parse.h"
#include "../db/db.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { OPT_HOST = OPT_FIRST_COMMAND, OPT_LIMIT, OPT_CSV };

static void when(double t, char *buf, size_t size)
{
	time_t s = (time_t)t;
	struct tm tm;

	if (t <= 0 || !localtime_r(&s, &tm) || !strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(buf, size, "-");
}

/* Escaped (core/parse.h): a database merged from another host may hold
 * anything. A few buffers in turn, as one printf takes several. */
static const char *str(json_t *row, const char *key)
{
	static char bufs[8][1024];
	static unsigned int next;
	const char *s = json_string_value(json_object_get(row, key));

	return s ? tt_str_escape(s, bufs[next++ % 8], sizeof(bufs[0])) : "-";
}

/* The best figure a run has: bandwidth, else latency. */
static void best(json_t *row, char *buf, size_t size)
{
	json_t *bw = json_object_get(row, "best_bw_bytes_s"), *lat = json_object_get(row, "best_lat_ns");

	if (json_is_number(bw))
		snprintf(buf, size, "%.2f GB/s", json_number_value(bw) / 1e9);
	else if (json_is_number(lat))
		snprintf(buf, size, "%.1f ns", json_number_value(lat));
	else
		snprintf(buf, size, "-");
}

static int print_run(json_t *row, void *ctx)
{
	char start[32], fig[32], src[16] = "-";
	json_t *sn = json_object_get(row, "source_node");

	if (ctx) /* --json */
		return json_array_append(ctx, row);
	when(json_number_value(json_object_get(row, "started")), start, sizeof(start));
	best(row, fig, sizeof(fig));
	if (json_is_integer(sn))
		snprintf(src, sizeof(src), "%" JSON_INTEGER_FORMAT, json_integer_value(sn));
	printf("%6" JSON_INTEGER_FORMAT "  %-19s  %-16.16s %-8s %-6s %-11s %6" JSON_INTEGER_FORMAT
	       "  %-12s%s\n",
	       json_integer_value(json_object_get(row, "id")), start, str(row, "host"),
	       str(row, "kind"), src, str(row, "status"),
	       json_integer_value(json_object_get(row, "trials")), fig,
	       json_integer_value(json_object_get(row, "simulated")) ? "  SIMULATED" : "");
	return 0;
}

int cmd_runs(struct tt_cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{"host", required_argument, NULL, OPT_HOST},
		{"limit", required_argument, NULL, OPT_LIMIT},
		CLI_COMMON_OPTIONS,
		{NULL, 0, NULL, 0},
	};
	const struct tt_cmd *self = cli_find_command("runs");
	const char *host = NULL;
	uint64_t limit = 20;
	struct tt_db *db;
	json_t *all = NULL;
	int c, rc;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case OPT_HOST: host = optarg; break;
		case OPT_LIMIT:
			if (cli_number("limit", optarg, 1, 1000000, &limit))
				return 2;
			break;
		default:
			rc = cli_common_option(cli, self, c);
			if (rc >= 0)
				return rc;
		}
	}
	if (optind < argc)
		return cli_usage("runs takes no argument, got '%s'", argv[optind]);
	rc = cli_open_db(cli, TT_DB_READONLY, &db);
	if (rc)
		return rc;
	if (cli->json)
		all = json_array();
	else
		printf("%6s  %-19s  %-16s %-8s %-6s %-11s %6s  %s\n", "run", "started", "host", "kind",
		       "source", "status", "trials", "best");
	rc = tt_db_runs(db, host, (int)limit, print_run, all);
	tt_db_close(db);
	if (rc < 0) {
		json_decref(all);
		return cli_fail(rc);
	}
	return all ? cli_print_json(all) : 0;
}

static void print_show(json_t *run)
{
	char start[32], end[32];
	size_t i, k;
	json_t *t, *n;

	when(json_number_value(json_object_get(run, "started")), start, sizeof(start));
	when(json_number_value(json_object_get(run, "finished")), end, sizeof(end));
	printf("run %" JSON_INTEGER_FORMAT " (%s)%s\n", json_integer_value(json_object_get(run, "id")),
	       str(run, "uuid"),
	       json_integer_value(json_object_get(run, "simulated")) ? "  SIMULATED" : "");
	printf("host      %s (fingerprint %s), %s, kernel %s\n", str(run, "host"),
	       str(run, "fingerprint"), str(run, "cpu_model"), str(run, "kernel_release"));
	printf("kind      %s, status %s, %s .. %s\n", str(run, "kind"), str(run, "status"), start, end);
	printf("command   %s\n", str(run, "command"));
	printf("\n%5s %-14s %-10s %7s %10s %10s %10s %9s  %s\n", "trial", "kernel", "placement",
	       "threads", "MiB", "GB/s", "median", "ns", "achieved share per node");
	json_array_foreach(json_object_get(run, "trials"), i, t) {
		json_t *bw = json_object_get(t, "bw_bytes_s"), *med = json_object_get(t, "bw_median_bytes_s"),
		       *lat = json_object_get(t, "lat_ns");
		char b[16] = "-", m[16] = "-", l[16] = "-";

		if (json_is_number(bw))
			snprintf(b, sizeof(b), "%.2f", json_number_value(bw) / 1e9);
		if (json_is_number(med))
			snprintf(m, sizeof(m), "%.2f", json_number_value(med) / 1e9);
		if (json_is_number(lat))
			snprintf(l, sizeof(l), "%.1f", json_number_value(lat));
		printf("%5" JSON_INTEGER_FORMAT " %-14s %-10s %7" JSON_INTEGER_FORMAT
		       " %10.1f %10s %10s %9s  ",
		       json_integer_value(json_object_get(t, "seq")), str(t, "kernel"),
		       str(t, "placement"), json_integer_value(json_object_get(t, "threads")),
		       (double)json_integer_value(json_object_get(t, "size_bytes")) / (1 << 20), b, m, l);
		json_array_foreach(json_object_get(t, "nodes"), k, n)
			printf("%s%" JSON_INTEGER_FORMAT ":%.1f%%", k ? " " : "",
			       json_integer_value(json_object_get(n, "node")),
			       100 * json_number_value(json_object_get(n, "achieved_share")));
		printf("%s\n", json_integer_value(json_object_get(t, "validated")) ? "" : "  NOT VALIDATED");
	}
	if (json_array_size(json_object_get(run, "recommendations")))
		printf("\n%6s %-9s %-24s %8s\n", "source", "interface", "weights", "gain");
	json_array_foreach(json_object_get(run, "recommendations"), i, t)
		printf("%6" JSON_INTEGER_FORMAT " %-9s %-24s %+7.1f%%\n",
		       json_integer_value(json_object_get(t, "source_node")), str(t, "interface"),
		       str(t, "weights"), 100 * json_number_value(json_object_get(t, "gain")));
}

int cmd_show(struct tt_cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{"csv", no_argument, NULL, OPT_CSV},
		CLI_COMMON_OPTIONS,
		{NULL, 0, NULL, 0},
	};
	const struct tt_cmd *self = cli_find_command("show");
	struct tt_db *db;
	json_t *run;
	uint64_t id;
	bool csv = false;
	int c, rc;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == OPT_CSV) {
			csv = true;
			continue;
		}
		rc = cli_common_option(cli, self, c);
		if (rc >= 0)
			return rc;
	}
	if (optind + 1 != argc)
		return cli_usage("show takes one run id (see 'tiertune runs')");
	if (tt_parse_u64(argv[optind], 1, INT64_MAX, &id) != 0)
		return cli_usage("run '%s' is not a run id (see 'tiertune runs')", argv[optind]);
	if (csv && cli->json)
		return cli_usage("--csv and --json do not go together");
	rc = cli_open_db(cli, TT_DB_READONLY, &db);
	if (rc)
		return rc;
	rc = tt_db_run_get(db, (int64_t)id, &run);
	tt_db_close(db);
	if (rc < 0)
		return cli_fail(rc);
	if (cli->json)
		return cli_print_json(run);
	if (csv)
		cli_trials_csv(run, stdout);
	else
		print_show(run);
	json_decref(run);
	return 0;
}
