/* tiertune simulate: the kernel's interleave order for a policy, as a model. */
#include "cli.h"

#include "../core/interleave.h"
#include "../core/parse.h"
#include "../core/topo.h"
#include "../core/wi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PAGES 10000000

struct sim_args {
	const char *nodes, *weights, *tier_weights, *iface, *mode;
	int64_t source; /* -1 when not given */
	uint64_t start, pages;
};

/* Upstream weights: --weights, "auto" (the kernel's formula on the root's
 * HMAT figures), or what the root's sysfs holds. */
static int upstream_weights(struct tt_cli *cli, const struct tt_topo *t, const struct sim_args *a,
			    const struct tt_nodemask *mask, struct tt_weights *w, const char **from)
{
	char why[256];
	int rc, node;

	if (a->weights && strcmp(a->weights, "auto") == 0) {
		rc = cli_weights_auto(cli, t, w);
		*from = "auto: the kernel's formula on HMAT access1 bandwidth";
		return rc;
	}
	if (a->weights) {
		rc = tt_weights_parse(a->weights, w);
		if (rc < 0)
			return rc;
		tt_nodemask_for_each (node, &w->set) {
			if (!tt_nodemask_test(mask, node))
				return tt_err(TT_EINPUT,
					      "weights '%s' give node %d, which is not in "
					      "--nodes '%s'",
					      a->weights, node, a->nodes);
		}
		*from = "--weights";
		return tt_weights_check_range(w, tt_wi_upstream.min_weight,
					      tt_wi_upstream.max_weight);
	}
	if (tt_wi_upstream.detect(&cli->sfs, why, sizeof(why)) < 0)
		return tt_err(TT_EUNAVAIL, "no weights given and %s", why);
	struct tt_wi_state st;
	tt_wi_state_init(&st);
	rc = tt_wi_upstream.read(&cli->sfs, t, &st);
	if (rc == 0)
		*w = st.node;
	tt_wi_state_release(&st);
	*from = "sysfs";
	return rc;
}

/* RFC tier weights for the source node: --tier-weights TIER:W,... or sysfs. */
static int rfc_weights(struct tt_cli *cli, const struct tt_topo *t, const struct sim_args *a,
		       uint32_t *tier_w, const char **from)
{
	struct tt_weights tw;
	char why[256];
	int rc, tier;

	if (a->weights)
		return tt_err(TT_EINPUT,
			      "--weights gives node weights, which the rfc interface does "
			      "not have; use --tier-weights TIER:W,...");
	if (a->tier_weights) {
		rc = tt_weights_parse(a->tier_weights, &tw);
		if (rc < 0) {
			tt_err_prefix("--tier-weights");
			return rc;
		}
		tt_nodemask_for_each (tier, &tw.set) {
			if (!tt_topo_tier(t, tier))
				return tt_err(TT_EINPUT,
					      "tier %d in --tier-weights '%s' does not exist "
					      "under '%s'",
					      tier, a->tier_weights, tt_sysfs_root(&cli->sfs));
			if (tw.w[tier] > tt_wi_rfc.max_weight)
				return tt_err(TT_EINPUT,
					      "weight '%u' for tier %d out of range (0-%u)",
					      tw.w[tier], tier, tt_wi_rfc.max_weight);
		}
		for (int i = 0; i < t->ntiers; i++)
			tier_w[i] = tt_weights_get(&tw, t->tiers[i].id, 1);
		*from = "--tier-weights";
		return 0;
	}
	if (tt_wi_rfc.detect(&cli->sfs, why, sizeof(why)) < 0)
		return tt_err(TT_EUNAVAIL, "no --tier-weights given and %s", why);
	struct tt_wi_state st;
	tt_wi_state_init(&st);
	rc = tt_wi_rfc.read(&cli->sfs, t, &st);
	if (rc == 0)
		tt_wi_rfc_tier_weights(&st, t, (int)a->source, tier_w);
	tt_wi_state_release(&st);
	*from = "sysfs";
	return rc;
}

static const char *pick_interface(struct tt_cli *cli, const struct sim_args *a)
{
	char why[256];

	if (a->iface)
		return a->iface;
	if (a->tier_weights)
		return "rfc";
	if (a->weights || tt_wi_upstream.detect(&cli->sfs, why, sizeof(why)) == 0)
		return "upstream";
	if (tt_wi_rfc.detect(&cli->sfs, why, sizeof(why)) == 0)
		return "rfc";
	return "upstream";
}

static int report(const struct tt_cli *cli, const struct sim_args *a, const char *iface,
		  const char *from, const struct tt_il_order *o, const int *pages)
{
	uint64_t cycle[TT_MAX_NODES], count[TT_MAX_NODES] = { 0 };
	int rc = tt_il_cycle_counts(o, cycle);

	if (rc < 0)
		return cli_fail(rc);
	for (uint64_t p = 0; p < a->pages; p++)
		for (int i = 0; i < o->n; i++)
			if (o->node[i] == pages[p])
				count[i]++;
	if (cli->json) {
		json_t *root = json_object(), *jp = json_array(), *per = json_array();

		json_object_set_new(root, "simulated", json_true());
		json_object_set_new(root, "interface", json_string(iface));
		json_object_set_new(root, "mode", json_string(a->mode));
		json_object_set_new(root, "weights_from", json_string(from));
		json_object_set_new(root, "source_node",
				    a->source < 0 ? json_null() : json_integer(a->source));
		json_object_set_new(root, "start_index", json_integer((json_int_t)a->start));
		json_object_set_new(root, "cycle_slots", json_integer((json_int_t)o->total));
		for (uint64_t p = 0; p < a->pages; p++)
			json_array_append_new(jp, json_integer(pages[p]));
		for (int i = 0; i < o->n; i++)
			json_array_append_new(
				per,
				json_pack("{s:i,s:I,s:I,s:f,s:f}", "node", o->node[i], "weight",
					  (json_int_t)o->weight[i], "pages", (json_int_t)count[i],
					  "share", (double)count[i] / (double)a->pages,
					  "cycle_share", (double)cycle[i] / (double)o->total));
		json_object_set_new(root, "per_node", per);
		json_object_set_new(root, "page_nodes", jp);
		return cli_print_json(root);
	}
	printf("simulated: %s weighted interleave, %s walk (a model; nothing allocated)\n", iface,
	       a->mode);
	printf("nodes %s, weights from %s", a->nodes, from);
	if (a->source >= 0)
		printf(", source node %jd", (intmax_t)a->source);
	printf(", start index %ju, %ju pages\n", (uintmax_t)a->start, (uintmax_t)a->pages);
	printf("pages:");
	for (uint64_t p = 0; p < a->pages; p++)
		printf("%s%d", p && p % 32 == 0 ? "\n      " : " ", pages[p]);
	printf("\n\nnode  weight  pages       share    cycle share\n");
	for (int i = 0; i < o->n; i++)
		printf("%-5d %6u  %-10ju %6.2f%%  %6.2f%%\n", o->node[i], o->weight[i],
		       (uintmax_t)count[i], 100.0 * (double)count[i] / (double)a->pages,
		       100.0 * (double)cycle[i] / (double)o->total);
	return 0;
}

static int simulate(struct tt_cli *cli, const struct sim_args *a)
{
	struct tt_nodemask mask, dropped = { 0 };
	struct tt_topo t;
	struct tt_il_order *o = NULL;
	struct tt_weights *w = NULL;
	const char *iface, *from = "";
	int *pages = NULL, rc, node;

	if (tt_parse_list(a->nodes, mask.bits, TT_MAX_NODES) || tt_nodemask_weight(&mask) == 0)
		return cli_usage("--nodes '%s' is not a node list (want e.g. 0-2 or 0,2)",
				 a->nodes);
	iface = pick_interface(cli, a);
	if (strcmp(iface, "upstream") && strcmp(iface, "rfc"))
		return cli_usage("--interface '%s' is not upstream or rfc", iface);
	if (strcmp(a->mode, "vma") && strcmp(a->mode, "task"))
		return cli_usage("--mode '%s' is not vma or task", a->mode);
	if (strcmp(iface, "rfc") == 0 && a->source < 0)
		return cli_usage("rfc weights are relative to a source node: give --source-node N");
	rc = cli_load_topo(cli, &t);
	if (rc)
		return rc;
	rc = tt_topo_check_nodes(&t, &mask, "--nodes");
	if (rc == 0 && a->source >= 0) {
		struct tt_nodemask src = { 0 };

		tt_bit_set(src.bits, (unsigned int)a->source);
		rc = tt_topo_check_nodes(&t, &src, "--source-node");
	}
	if (rc < 0)
		goto fail;
	/* mpol_set_nodemask() keeps only nodes with memory. */
	tt_nodemask_for_each (node, &mask) {
		if (!tt_nodemask_test(&t.mem_nodes, node))
			tt_bit_set(dropped.bits, (unsigned int)node);
	}
	tt_nodemask_for_each (node, &dropped) {
		cli_warn("node %d has no memory; the kernel drops it from the policy", node);
		tt_bit_clear(mask.bits, (unsigned int)node);
	}
	if (tt_nodemask_weight(&mask) == 0) {
		rc = tt_err(TT_EINPUT, "--nodes '%s' has no node with memory", a->nodes);
		goto fail;
	}
	o = malloc(sizeof(*o));
	w = malloc(sizeof(*w));
	pages = malloc(a->pages * sizeof(*pages));
	if (!o || !w || !pages) {
		rc = tt_err(TT_EFAIL, "out of memory for %ju pages", (uintmax_t)a->pages);
		goto fail;
	}
	if (strcmp(iface, "upstream") == 0) {
		rc = upstream_weights(cli, &t, a, &mask, w, &from);
		if (rc == 0)
			rc = tt_il_order_upstream(o, &mask, w);
	} else {
		uint32_t tier_w[t.ntiers + 1];

		rc = rfc_weights(cli, &t, a, tier_w, &from);
		if (rc == 0)
			rc = tt_il_order_rfc(o, &mask, &t, tier_w);
	}
	if (rc < 0)
		goto fail;
	if (strcmp(a->mode, "vma") == 0) {
		for (uint64_t p = 0; p < a->pages; p++) {
			pages[p] = tt_il_vma_node(o, a->start + p);
			if (pages[p] < 0) {
				rc = pages[p];
				goto fail;
			}
		}
	} else {
		struct tt_il_task ts;

		tt_il_task_init(&ts);
		for (uint64_t p = 0; p < a->start; p++)
			tt_il_task_next(o, &ts);
		for (uint64_t p = 0; p < a->pages; p++)
			pages[p] = tt_il_task_next(o, &ts);
	}
	rc = report(cli, a, iface, from, o, pages);
	goto out;
fail:
	rc = cli_fail(rc);
out:
	free(o);
	free(w);
	free(pages);
	tt_topo_release(&t);
	return rc;
}

int cmd_simulate(struct tt_cli *cli, int argc, char **argv)
{
	struct sim_args a = { .mode = "vma", .source = -1 };
	struct cli_opt opts[] = {
		CLI_STRING("nodes", &a.nodes, "LIST",
			   "the policy's nodes, as the kernel lists them "
			   "(0-2,4)",
			   .required = true),
		CLI_U64("pages", &a.pages, "K", "how many pages to place", 1, MAX_PAGES,
			.required = true),
		CLI_STRING(
			"weights", &a.weights, "N:W,...|auto",
			"upstream weights per node (1-255), or 'auto' for the kernel's auto-mode "
			"formula on the HMAT figures (default: what the sysfs root holds)"),
		CLI_STRING("tier-weights", &a.tier_weights, "TIER:W,...",
			   "RFC weights per tier for the source node (0-100; default: the root's)"),
		CLI_SOURCE_NODE(&a.source, "the node whose tier weights the RFC interface uses "
					   "(RFC only)"),
		CLI_STRING("interface", &a.iface, "upstream|rfc",
			   "which kernel interface to model (default: the one this kernel has)"),
		CLI_STRING("mode", &a.mode, "vma|task",
			   "the kernel's walk: per-VMA page index (vma, default) or the task's "
			   "counter (task)"),
		CLI_U64("start-index", &a.start, "I",
			"the first page's index in the walk (default 0)", 0,
			UINT64_MAX - MAX_PAGES),
		CLI_END,
	};
	int nargs, rc = cli_parse(cli, cli_find_command("simulate"), opts, argc, argv, &nargs);

	if (rc >= 0)
		return rc;
	return simulate(cli, &a);
}
