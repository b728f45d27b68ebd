// SPDX-License-Identifier: GPL-3.0-or-later
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

/* The weights the interface models, keyed by its unit: --weights (node
 * weights; "auto", the kernel's formula on the root's HMAT figures) or
 * --tier-weights, whichever the interface takes, or what the root's sysfs
 * holds for the source node. */
static int sim_weights(struct tt_cli *cli, const struct tt_topo *t, const struct sim_args *a,
		       const struct tt_wi_backend *be, const struct tt_nodemask *mask,
		       struct tt_weights *w, const char **from)
{
	bool by_node = be->key == TT_WI_BY_NODE;
	const char *given = by_node ? a->weights : a->tier_weights,
		   *opt = by_node ? "--weights" : "--tier-weights";
	struct tt_wi_state st;
	char why[256];
	int rc, id;

	if (!by_node && a->weights)
		return tt_err(TT_EINPUT,
			      "--weights gives node weights, which the %s interface does "
			      "not have; use --tier-weights TIER:W,...",
			      be->name);
	if (given && by_node && strcmp(given, "auto") == 0) {
		*from = "auto: the kernel's formula on HMAT access1 bandwidth";
		return cli_weights_auto(cli, t, w);
	}
	if (given) {
		rc = tt_weights_parse_ids(given, by_node ? TT_MAX_NODES - 1 : TT_MAX_TIER_ID, w);
		if (rc < 0) {
			if (!by_node)
				tt_err_prefix("%s", opt);
			return rc;
		}
		tt_weights_for_each(id, w)
		{
			if (by_node && !tt_nodemask_test(mask, id))
				return tt_err(TT_EINPUT,
					      "weights '%s' give node %d, which is not in "
					      "--nodes '%s'",
					      given, id, a->nodes);
			if (!by_node && !tt_topo_tier(t, id))
				return tt_err(TT_EINPUT,
					      "tier %d in --tier-weights '%s' does not exist "
					      "under '%s'",
					      id, given, tt_sysfs_root(&cli->sfs));
			if (!by_node && tt_weights_get(w, id, 0) > be->max_weight)
				return tt_err(TT_EINPUT,
					      "weight '%u' for tier %d out of range (0-%u)",
					      tt_weights_get(w, id, 0), id, be->max_weight);
		}
		*from = opt;
		return tt_weights_check_range_of(w, be->min_weight, be->max_weight, be->unit);
	}
	if (be->detect(&cli->sfs, why, sizeof(why)) < 0)
		return tt_err(TT_EUNAVAIL, "no %s given and %s", by_node ? "weights" : opt, why);
	tt_wi_state_init(&st);
	rc = be->read(&cli->sfs, t, &st);
	if (rc == 0)
		be->current(&st, t, (int)a->source, w);
	tt_wi_state_release(&st);
	*from = "sysfs";
	return rc;
}

/* --interface; else the one this root has, when it takes the weights
 * given (--weights by node, --tier-weights by tier); else the table's
 * first keyed as they are; else the table's first. NULL: unknown name.
 * The root is opened first (cli_pick_interface): looked up before, the
 * interface was this host's, and an RFC root fell to upstream. */
static const struct tt_wi_backend *pick_interface(struct tt_cli *cli, const struct sim_args *a)
{
	const struct tt_wi_backend *be;

	if (a->iface)
		return tt_wi_find(a->iface);
	if (cli_pick_interface(cli, NULL, &be) == 0 &&
	    (!a->tier_weights || be->key == TT_WI_BY_TIER) &&
	    (!a->weights || be->key == TT_WI_BY_NODE))
		return be;
	if (a->tier_weights)
		return tt_wi_for_key(TT_WI_BY_TIER);
	if (a->weights)
		return tt_wi_for_key(TT_WI_BY_NODE);
	return tt_wi_backends[0];
}

/* The root's other weight interfaces than the one modelled, joined by
 * sep ("" when none): a kernel with upstream's and an RFC's models only
 * one at a time, and which is not plain from the pages. */
static const char *other_interfaces(const struct tt_cli *cli, const struct tt_wi_backend *be,
				    const char *sep, char *buf, size_t size)
{
	size_t len = 0;
	char why[256];

	buf[0] = '\0';
	for (const struct tt_wi_backend *const *b = tt_wi_backends; *b; b++)
		if (*b != be && (*b)->detect(&cli->sfs, why, sizeof(why)) == 0 && len < size)
			len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? sep : "",
						(*b)->name);
	return buf;
}

static int report(const struct tt_cli *cli, const struct sim_args *a,
		  const struct tt_wi_backend *be, const char *from, const struct tt_il_order *o,
		  const int *pages)
{
	uint64_t cycle[TT_MAX_NODES], count[TT_MAX_NODES] = { 0 };
	const char *iface = be->name;
	char others[256];
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
		json_t *also = json_array();
		char *save = NULL;

		other_interfaces(cli, be, " ", others, sizeof(others));
		for (char *n = strtok_r(others, " ", &save); n; n = strtok_r(NULL, " ", &save))
			json_array_append_new(also, json_string(n));
		json_object_set_new(root, "other_interfaces", also);
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
	if (other_interfaces(cli, be, ", ", others, sizeof(others))[0])
		printf("this kernel also has: %s (not modelled here: --interface NAME models "
		       "one)\n",
		       others);
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
	struct tt_topo *t;
	struct tt_il_order *o = NULL;
	struct tt_weights *w = NULL;
	const struct tt_wi_backend *be;
	const char *from = "";
	char names[256];
	int *pages = NULL, rc, node;

	if (tt_parse_list(a->nodes, mask.bits, TT_MAX_NODES) || tt_nodemask_weight(&mask) == 0)
		return cli_usage("--nodes '%s' is not a node list (want e.g. 0-2 or 0,2)",
				 a->nodes);
	be = pick_interface(cli, a);
	if (!be)
		return cli_usage("--interface '%s' is not one of %s", a->iface,
				 tt_wi_names(", ", names, sizeof(names)));
	if (strcmp(a->mode, "vma") && strcmp(a->mode, "task"))
		return cli_usage("--mode '%s' is not vma or task", a->mode);
	if (be->per_source && a->source < 0)
		return cli_usage("%s weights are relative to a source node: give --source-node N",
				 be->name);
	rc = cli_setup(cli);
	if (rc)
		return rc;
	t = cli->topo;
	rc = tt_topo_check_nodes(t, &mask, "--nodes");
	if (rc == 0 && a->source >= 0) {
		struct tt_nodemask src = { 0 };

		tt_bit_set(src.bits, (unsigned int)a->source);
		rc = tt_topo_check_nodes(t, &src, "--source-node");
	}
	if (rc < 0)
		goto fail;
	/* mpol_set_nodemask() keeps only nodes with memory. */
	tt_nodemask_for_each (node, &mask) {
		if (!tt_nodemask_test(&t->mem_nodes, node))
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
	rc = sim_weights(cli, t, a, be, &mask, w, &from);
	if (rc == 0)
		rc = be->order(o, &mask, t, w);
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
	rc = report(cli, a, be, from, o, pages);
	goto out;
fail:
	rc = cli_fail(rc);
out:
	free(o);
	free(w);
	free(pages);
	return rc;
}

int cmd_simulate(struct tt_cli *cli, int argc, char **argv)
{
	struct sim_args a = { .mode = "vma", .source = -1 };
	char ifaces[256];
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
		CLI_STRING("interface", &a.iface, cli_interfaces(ifaces, sizeof(ifaces), NULL),
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
