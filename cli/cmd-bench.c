/* tiertune bench: run a kernel under a placement and report bandwidth and
 * where the pages went. */
#include "cli.h"

#include "../bench/run.h"
#include "../core/parse.h"
#include "../core/wi.h"

#include <stdio.h>
#include <string.h>

enum { OPT_KERNEL = OPT_FIRST_COMMAND, OPT_SOURCE, OPT_NODES, OPT_WEIGHTS, OPT_PLACEMENT,
       OPT_THREADS, OPT_SIZE, OPT_REPEAT, OPT_LIST, OPT_THP, OPT_VERIFY_MAX };

static int list_kernels(const struct tt_cli *cli)
{
	if (cli->json) {
		json_t *a = json_array();

		for (const struct tt_kernel *const *k = tt_kernels; *k; k++)
			json_array_append_new(a, json_pack("{s:s,s:s,s:i,s:i,s:i}", "name", (*k)->name,
							   "summary", (*k)->summary, "arrays",
							   (*k)->arrays, "read_bytes", (*k)->read_bytes,
							   "write_bytes", (*k)->write_bytes));
		return cli_print_json(a);
	}
	printf("kernel     bytes/elem r+w  what\n");
	for (const struct tt_kernel *const *k = tt_kernels; *k; k++)
		printf("%-10s %6u+%-6u    %s\n", (*k)->name, (*k)->read_bytes, (*k)->write_bytes,
		       (*k)->summary);
	return 0;
}

static int report(const struct tt_cli *cli, const struct tt_bench_opts *o,
		  const struct tt_bench_result *r, const struct tt_topo *t)
{
	const struct tt_place_report *p = &r->place;
	char nodes[256];

	tt_bit_format_list(o->place.nodes.bits, TT_MAX_NODES, nodes, sizeof(nodes));
	if (cli->json) {
		json_t *per = json_array();

		for (int node = 0; node < TT_MAX_NODES; node++) {
			if (!p->want[node] && !p->got[node])
				continue;
			json_array_append_new(per, json_pack("{s:i,s:f,s:f,s:I}", "node", node,
							     "requested_share",
							     (double)p->want[node] / (double)p->checked,
							     "achieved_share",
							     (double)p->got[node] / (double)p->checked,
							     "pages", (json_int_t)p->got[node]));
		}
		return cli_print_json(json_pack(
			"{s:b,s:s,s:s,s:s,s:i,s:s,s:i,s:I,s:I,s:s,s:i,s:f,s:f,s:f,s:f,s:f,s:f,s:b,"
			"s:{s:I,s:I,s:I,s:I,s:s,s:f,s:o},s:{s:s,s:s}}",
			"simulated", 0, "kernel", o->kernel->name, "placement",
			tt_place_mode_names[o->place.mode], "nodes", nodes, "source_node",
			o->source_node, "size_rule", r->size_rule, "threads", r->threads,
			"array_bytes", (json_int_t)r->array_bytes, "elements",
			(json_int_t)r->elements, "unit", "bytes/s", "repeat", o->repeat,
			"bw_best_bytes_s", r->bw_best_bytes_s, "bw_median_bytes_s",
			r->bw_median_bytes_s, "bw_min_bytes_s", r->bw_min_bytes_s, "best_s",
			r->best_s, "median_s", r->median_s, "max_s", r->max_s, "validated",
			r->validated, "verification", "pages", (json_int_t)p->pages, "checked",
			(json_int_t)p->checked, "misplaced", (json_int_t)p->misplaced, "unknown",
			(json_int_t)p->unknown, "method", r->place_method, "place_s", r->place_s,
			"per_node", per, "machine", "kernel_release", t->kernel_release,
			"cpu_model", t->cpu_model));
	}
	printf("kernel %s, %s placement on nodes %s (%s), source node %d, %d threads\n",
	       o->kernel->name, tt_place_mode_names[o->place.mode], nodes, r->place_method,
	       o->source_node, r->threads);
	printf("arrays %d x %.1f MiB (%s), %d timed passes after one warm-up\n",
	       o->kernel->arrays, (double)r->array_bytes / (1 << 20), r->size_rule, o->repeat);
	printf("\n%-12s %12s %12s %12s\n", "", "best", "median", "min");
	printf("%-12s %12.2f %12.2f %12.2f\n", "GB/s", r->bw_best_bytes_s / 1e9,
	       r->bw_median_bytes_s / 1e9, r->bw_min_bytes_s / 1e9);
	printf("%-12s %12.6f %12.6f %12.6f\n", "seconds", r->best_s, r->median_s, r->max_s);
	printf("\nplacement verified: %ju of %ju pages checked, %ju misplaced, %.3f s\n",
	       (uintmax_t)p->checked, (uintmax_t)p->pages, (uintmax_t)p->misplaced, r->place_s);
	printf("node  requested  achieved\n");
	for (int node = 0; node < TT_MAX_NODES; node++) {
		if (!p->want[node] && !p->got[node])
			continue;
		printf("%-5d %8.2f%%  %7.2f%%\n", node, 100.0 * (double)p->want[node] / (double)p->checked,
		       100.0 * (double)p->got[node] / (double)p->checked);
	}
	printf("validation: %s\n", r->validated ? "passed" : "FAILED");
	return 0;
}

struct bench_args {
	const char *kernel, *nodes, *weights, *placement;
	int64_t source;
	uint64_t threads, size, repeat, verify_max;
	bool list, thp;
};

static int bench(struct tt_cli *cli, const struct bench_args *a)
{
	struct tt_bench_opts o = {.repeat = (int)a->repeat, .threads = (int)a->threads,
				  .array_bytes = a->size, .verify_max = a->verify_max};
	enum tt_place_mode mode = TT_PLACE_EXACT;
	struct tt_bench_result r;
	struct tt_weights w;
	struct tt_nodemask nodes = {0};
	struct tt_topo t;
	int rc, node;

	o.kernel = tt_kernel_find(a->kernel);
	if (!o.kernel)
		return cli_usage("unknown kernel '%s' (see 'tiertune bench --list')", a->kernel);
	if (a->placement && tt_place_mode_parse(a->placement, &mode) < 0)
		return cli_fail(TT_EINPUT);
	rc = cli_load_topo(cli, &t);
	if (rc)
		return rc;
	o.topo = &t;
	o.sfs = &cli->sfs;
	o.source_node = a->source >= 0 ? (int)a->source : t.nodes[0].id;
	{
		struct tt_nodemask s = {0};

		tt_bit_set(s.bits, (unsigned int)o.source_node);
		rc = tt_topo_check_nodes(&t, &s, "--source-node");
		if (rc < 0)
			goto fail;
	}
	if (a->nodes) {
		if (tt_parse_list(a->nodes, nodes.bits, TT_MAX_NODES) || !tt_nodemask_weight(&nodes)) {
			rc = tt_err(TT_EINPUT, "--nodes '%s' is not a node list (want e.g. 0-2)", a->nodes);
			goto fail;
		}
	} else {
		tt_bit_set(nodes.bits, (unsigned int)o.source_node);
	}
	rc = tt_topo_check_nodes(&t, &nodes, "--nodes");
	if (rc < 0)
		goto fail;
	tt_weights_clear(&w);
	if (a->weights) {
		if (mode == TT_PLACE_KERNEL) {
			rc = tt_err(TT_EINPUT, "--weights does not go with kernel placement, which uses "
					       "the weights in sysfs (set them with tiertune apply)");
			goto fail;
		}
		rc = tt_weights_parse(a->weights, &w);
		if (rc == 0)
			rc = tt_weights_check_range(&w, 1, 255);
		if (rc < 0)
			goto fail;
		tt_nodemask_for_each(node, &w.set) {
			if (!tt_nodemask_test(&nodes, node)) {
				rc = tt_err(TT_EINPUT, "weights '%s' give node %d, which is not in --nodes",
					    a->weights, node);
				goto fail;
			}
		}
	} else if (mode == TT_PLACE_KERNEL) {
		struct tt_wi_state st;
		char why[256];

		if (tt_wi_upstream.detect(&cli->sfs, why, sizeof(why)) < 0) {
			rc = tt_err(TT_EUNAVAIL, "kernel placement is unavailable: %s", why);
			goto fail;
		}
		tt_wi_state_init(&st);
		rc = tt_wi_upstream.read(&cli->sfs, &t, &st);
		w = st.node;
		tt_wi_state_release(&st);
		if (rc < 0)
			goto fail;
	}
	if (mode == TT_PLACE_BIND && tt_nodemask_weight(&nodes) != 1) {
		rc = tt_err(TT_EINPUT, "bind placement takes one node in --nodes, got '%s'", a->nodes);
		goto fail;
	}
	rc = tt_place_init(&o.place, mode, &nodes, &w, o.source_node);
	if (rc < 0)
		goto fail;
	o.place.thp = a->thp;
	rc = tt_bench_run(&o, &r);
	if (rc < 0)
		goto fail;
	rc = report(cli, &o, &r, &t);
	tt_topo_release(&t);
	return rc;
fail:
	tt_topo_release(&t);
	return cli_fail(rc);
}

int cmd_bench(struct tt_cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{"kernel", required_argument, NULL, OPT_KERNEL},
		{"source-node", required_argument, NULL, OPT_SOURCE},
		{"nodes", required_argument, NULL, OPT_NODES},
		{"weights", required_argument, NULL, OPT_WEIGHTS},
		{"placement", required_argument, NULL, OPT_PLACEMENT},
		{"threads", required_argument, NULL, OPT_THREADS},
		{"size", required_argument, NULL, OPT_SIZE},
		{"repeat", required_argument, NULL, OPT_REPEAT},
		{"verify-max", required_argument, NULL, OPT_VERIFY_MAX},
		{"list", no_argument, NULL, OPT_LIST},
		{"thp", no_argument, NULL, OPT_THP},
		CLI_COMMON_OPTIONS,
		{NULL, 0, NULL, 0},
	};
	const struct tt_cmd *self = cli_find_command("bench");
	struct bench_args a = {.source = -1, .repeat = 10};
	uint64_t v;
	int c, rc;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case OPT_KERNEL: a.kernel = optarg; break;
		case OPT_NODES: a.nodes = optarg; break;
		case OPT_WEIGHTS: a.weights = optarg; break;
		case OPT_PLACEMENT: a.placement = optarg; break;
		case OPT_LIST: a.list = true; break;
		case OPT_THP: a.thp = true; break;
		case OPT_SOURCE:
			if (cli_number("source-node", optarg, 0, TT_MAX_NODES - 1, &v))
				return 2;
			a.source = (int64_t)v;
			break;
		case OPT_THREADS:
			if (cli_number("threads", optarg, 1, 4096, &a.threads))
				return 2;
			break;
		case OPT_SIZE:
			if (cli_number("size", optarg, 4096, UINT64_C(1) << 46, &a.size))
				return 2;
			break;
		case OPT_REPEAT:
			if (cli_number("repeat", optarg, 1, 100000, &a.repeat))
				return 2;
			break;
		case OPT_VERIFY_MAX:
			if (cli_number("verify-max", optarg, 0, UINT64_MAX, &a.verify_max))
				return 2;
			break;
		default:
			rc = cli_common_option(cli, self, c);
			if (rc >= 0)
				return rc;
		}
	}
	if (optind < argc)
		return cli_usage("bench takes no argument, got '%s'", argv[optind]);
	if (a.list)
		return list_kernels(cli);
	if (!a.kernel)
		return cli_usage("bench needs --kernel NAME (see 'tiertune bench --list')");
	return bench(cli, &a);
}
