// SPDX-License-Identifier: GPL-3.0-or-later
/* tiertune topo: what the machine (or fixture) under the sysfs root offers. */
#include "cli.h"

#include "../core/figure.h"
#include "../writer/apply.h"
#include "../core/state.h"
#include "../core/topo.h"
#include "../core/wi.h"

#include <stdio.h>
#include <string.h>

struct wi_seen {
	const struct tt_wi_backend *be;
	int rc;	       /* detect (or read) status */
	char why[256]; /* reason when unavailable */
	struct tt_wi_state st;
	/* Tiers the kernel put back to 1 since the last apply (a node
	 * joined them: tt_apply_tiers_reset). */
	int nreset;
	struct tt_weights reset;
};

static void list_cpus(const struct tt_node *n, char *buf, size_t size)
{
	uint64_t bits[TT_MAX_CPUS / 64] = { 0 };

	for (int i = 0; i < n->ncpus; i++)
		tt_bit_set(bits, (unsigned int)n->cpus[i]);
	if (tt_bit_format_list(bits, TT_MAX_CPUS, buf, size) < 0)
		snprintf(buf, size, "%d cpus", n->ncpus);
	if (!buf[0])
		snprintf(buf, size, "-");
}

static json_t *hmat_json(const struct tt_hmat *h)
{
	if (!h->present)
		return json_null();
	/* The ABI's MB/s are 10^6 bytes/s: in bytes/s like every figure. */
	return json_pack("{s:I,s:I,s:I,s:I,s:o}", "read_bw_bytes_s",
			 (json_int_t)h->read_bw_mb_s * 1000000, "write_bw_bytes_s",
			 (json_int_t)h->write_bw_mb_s * 1000000, "read_lat_ns",
			 (json_int_t)h->read_lat_ns, "write_lat_ns", (json_int_t)h->write_lat_ns,
			 "initiators", tt_json_nodes(&h->initiators));
}

static int print_json(const struct tt_cli *cli, const struct tt_topo *t, const struct wi_seen *wis,
		      int nwi)
{
	json_t *root = json_object(), *nodes = json_array(), *tiers = json_array(),
	       *ifs = json_array(), *pmus = json_array();
	char fp[17];

	json_object_set_new(root, "sysfs_root", json_string(tt_sysfs_root(&cli->sfs)));
	json_object_set_new(root, "kernel_release", json_string(t->kernel_release));
	json_object_set_new(root, "cpu_model", json_string(t->cpu_model));
	tt_topo_fingerprint(t, fp);
	json_object_set_new(root, "fingerprint", json_string(fp));
	for (int i = 0; i < t->nnodes; i++) {
		const struct tt_node *n = &t->nodes[i];
		json_t *cpus = json_array(), *dist = json_object();

		for (int c = 0; c < n->ncpus; c++)
			json_array_append_new(cpus, json_integer(n->cpus[c]));
		for (int k = 0; k < t->nnodes; k++) {
			char key[16];

			snprintf(key, sizeof(key), "%d", t->nodes[k].id);
			json_object_set_new(dist, key, json_integer(n->distance[k]));
		}
		json_array_append_new(
			nodes,
			json_pack("{s:i,s:b,s:b,s:o,s:I,s:I,s:o,s:o,s:o,s:o,s:{s:o,s:o}}", "id",
				  n->id, "has_cpu", n->has_cpu, "has_memory", n->has_memory, "cpus",
				  cpus, "mem_total_bytes", (json_int_t)n->mem_total_bytes,
				  "mem_free_bytes", (json_int_t)n->mem_free_bytes, "tier",
				  n->tier < 0 ? json_null() : json_integer(n->tier), "distance",
				  dist, "hmat_access0", hmat_json(&n->access[0]), "hmat_access1",
				  hmat_json(&n->access[1]), "demotion", "preferred",
				  tt_json_nodes(&n->demote_preferred), "allowed",
				  tt_json_nodes(&n->demote_allowed)));
	}
	json_object_set_new(root, "nodes", nodes);
	for (int i = 0; i < t->ntiers; i++) {
		int id = t->tiers[i].id;

		json_array_append_new(tiers,
				      json_pack("{s:i,s:o,s:i,s:i,s:s}", "id", id, "nodes",
						tt_json_nodes(&t->tiers[i].nodes), "adist_min",
						TT_TIER_ADIST_MIN(id), "adist_max",
						TT_TIER_ADIST_MAX(id), "class", tt_tier_class(id)));
	}
	json_object_set_new(root, "tiers", tiers);
	json_object_set_new(root, "demotion_enabled",
			    t->demotion_enabled < 0 ? json_null()
						    : json_boolean(t->demotion_enabled));
	json_object_set_new(root, "numa_balancing",
			    t->numa_balancing < 0 ? json_null() : json_integer(t->numa_balancing));
	json_object_set_new(root, "numa_balancing_mode",
			    t->numa_balancing < 0
				    ? json_null()
				    : json_string(tt_numa_balancing_name(t->numa_balancing)));
	for (int i = 0; i < nwi; i++) {
		const struct wi_seen *w = &wis[i];
		json_t *o = json_pack("{s:s,s:b}", "name", w->be->name, "available", w->rc == 0);

		if (w->nreset) {
			json_t *ids = json_array();
			int id;

			tt_weights_for_each(id, &w->reset)
				json_array_append_new(ids, json_integer(id));
			json_object_set_new(o, "tiers_reset_since_apply", ids);
		}
		if (w->rc < 0) {
			json_object_set_new(o, "reason", json_string(w->why));
		} else if (!w->be->per_source && w->be->key == TT_WI_BY_TIER) {
			json_object_set_new(o, "tier_weights", tt_json_weights(&w->st.node));
		} else if (!w->be->per_source) {
			json_object_set_new(o, "weights", tt_json_weights(&w->st.node));
			json_object_set_new(o, "auto",
					    w->st.auto_mode < 0 ? json_null()
								: json_boolean(w->st.auto_mode));
			json_object_set_new(o, "auto_file",
					    w->st.auto_file[0] ? json_string(w->st.auto_file)
							       : json_null());
		} else {
			json_t *tw = json_object();

			for (int k = 0; k < w->st.ntiers; k++) {
				char key[16];

				snprintf(key, sizeof(key), "%d", w->st.tiers[k].tier);
				json_object_set_new(tw, key,
						    tt_json_weights(&w->st.tiers[k].by_src));
			}
			json_object_set_new(o, "tier_weights_by_source", tw);
		}
		json_array_append_new(ifs, o);
	}
	json_object_set_new(root, "weight_interfaces", ifs);
	for (int i = 0; i < t->npmus; i++)
		json_array_append_new(pmus, json_pack("{s:s,s:i}", "name", t->pmus[i].name, "type",
						      t->pmus[i].type));
	json_object_set_new(root, "pmus", pmus);
	return cli_print_json(root);
}

static void print_hmat(const struct tt_hmat *h)
{
	if (!h->present) {
		printf("  -");
		return;
	}
	char from[64];

	const struct tt_figure *bw = tt_figure(TT_FIG_HMAT_BW), *lat = tt_figure(TT_FIG_HMAT_LAT);
	char v[4][32];

	tt_bit_format_list(h->initiators.bits, TT_MAX_NODES, from, sizeof(from));
	/* sysfs holds the figure as shown (the ABI's MB/s). */
	tt_figure_print(bw, (double)h->read_bw_mb_s * bw->divisor, v[0], sizeof(v[0]));
	tt_figure_print(bw, (double)h->write_bw_mb_s * bw->divisor, v[1], sizeof(v[1]));
	tt_figure_print(lat, (double)h->read_lat_ns, v[2], sizeof(v[2]));
	tt_figure_print(lat, (double)h->write_lat_ns, v[3], sizeof(v[3]));
	printf("  %s/%s %s %s/%s %s from node %s", v[0], v[1], bw->label, v[2], v[3], lat->label,
	       from[0] ? from : "?");
}

/* Tiers 72 and 240 are both "slower than DRAM": the abstract distance and
 * the members' HMAT figures tell them apart. */
static void print_tier(const struct tt_topo *t, const struct tt_tier *tier)
{
	char nodes[128];
	int node;

	tt_bit_format_list(tier->nodes.bits, TT_MAX_NODES, nodes, sizeof(nodes));
	printf("  memory_tier%-4d nodes %-8s adist %d-%d, %s\n", tier->id, nodes,
	       TT_TIER_ADIST_MIN(tier->id), TT_TIER_ADIST_MAX(tier->id), tt_tier_class(tier->id));
	tt_nodemask_for_each (node, &tier->nodes) {
		const struct tt_node *n = tt_topo_node(t, node);

		if (n && n->access[1].present) {
			printf("%20snode %d", "", node);
			print_hmat(&n->access[1]);
			printf("\n");
		}
	}
}

static void print_nodes(const struct tt_topo *t)
{
	char buf[512];

	printf("\nnode  cpus           memory        free  tier  hmat access1 (read/write)\n");
	for (int i = 0; i < t->nnodes; i++) {
		const struct tt_node *n = &t->nodes[i];
		const struct tt_figure *mem = tt_figure(TT_FIG_MEMORY);
		char tier[16], total[32], avail[32];

		list_cpus(n, buf, sizeof(buf));
		snprintf(tier, sizeof(tier), n->tier < 0 ? "-" : "%d", n->tier);
		tt_figure_print(mem, (double)n->mem_total_bytes, total, sizeof(total));
		tt_figure_print(mem, (double)n->mem_free_bytes, avail, sizeof(avail));
		printf("%-5d %-10s %7s %s %7s %s %5s", n->id, buf, total, mem->label, avail,
		       mem->label, tier);
		print_hmat(&n->access[1]);
		printf("\n");
	}
	printf("\ndistances\n     ");
	for (int k = 0; k < t->nnodes; k++)
		printf("%5d", t->nodes[k].id);
	printf("\n");
	for (int i = 0; i < t->nnodes; i++) {
		printf("%5d", t->nodes[i].id);
		for (int k = 0; k < t->nnodes; k++)
			printf("%5d", t->nodes[i].distance[k]);
		printf("\n");
	}
}

static void print_demotion(const struct tt_topo *t)
{
	printf("\ndemotion targets (reclaim, from tiers and distances as the kernel computes "
	       "them)\n");
	for (int i = 0; i < t->nnodes; i++) {
		const struct tt_node *n = &t->nodes[i];
		char pref[128], allowed[128];

		if (!n->has_memory)
			continue;
		tt_bit_format_list(n->demote_preferred.bits, TT_MAX_NODES, pref, sizeof(pref));
		tt_bit_format_list(n->demote_allowed.bits, TT_MAX_NODES, allowed, sizeof(allowed));
		if (pref[0])
			printf("  node %-4d preferred %-8s allowed %s\n", n->id, pref, allowed);
		else
			printf("  node %-4d none (lowest tier)\n", n->id);
	}
	printf("\npage movement\n  demotion        %s\n  NUMA balancing  %s\n",
	       t->demotion_enabled < 0 ? "- (no /sys/kernel/mm/numa/demotion_enabled)"
	       : t->demotion_enabled   ? "enabled: reclaim moves pages to the next lower tier"
				       : "disabled",
	       t->numa_balancing < 0 ? "- (no /proc/sys/kernel/numa_balancing)"
				     : tt_numa_balancing_name(t->numa_balancing));
}

/* One weight interface's rows: what sysfs holds now, and the tiers whose
 * weights the kernel reset since the last apply. */
static void print_wi(const struct wi_seen *w)
{
	char buf[512];

	if (w->rc < 0) {
		printf("  %-9s unavailable: %s\n", w->be->name, w->why);
		return;
	}
	printf("  %-9s %s\n", w->be->name, w->be->summary);
	if (!w->be->per_source && w->be->key == TT_WI_BY_TIER) {
		tt_weights_format(&w->st.node, buf, sizeof(buf));
		printf("            tier weights %s (every task's, split over the "
		       "policy's nodes)\n",
		       buf[0] ? buf : "(no interleave_weight files)");
	} else if (!w->be->per_source) {
		tt_weights_format(&w->st.node, buf, sizeof(buf));
		printf("            weights %s\n", buf[0] ? buf : "(no nodeN files)");
		if (w->st.auto_mode < 0)
			printf("            mode    manual only (no auto file: kernel "
			       "before "
			       "6.16)\n");
		else
			printf("            mode    %s (file %s)\n",
			       w->st.auto_mode ? "auto" : "manual", w->st.auto_file);
	} else {
		for (int k = 0; k < w->st.ntiers; k++) {
			tt_weights_format(&w->st.tiers[k].by_src, buf, sizeof(buf));
			printf("            memory_tier%d by source node: %s\n",
			       w->st.tiers[k].tier, buf);
		}
	}
	if (w->nreset) {
		int id;

		buf[0] = '\0';
		tt_weights_for_each(id, &w->reset)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%d",
				 buf[0] ? "," : "", id);
		printf("            reset   tier%s %s read 1 where the last apply wrote "
		       "other\n"
		       "                    weights: memory joined the tier and the "
		       "kernel reset\n"
		       "                    them (set_node_memory_tier); apply again\n",
		       w->nreset > 1 ? "s" : "", buf);
	}
}

static void print_human(const struct tt_cli *cli, const struct tt_topo *t,
			const struct wi_seen *wis, int nwi)
{
	printf("sysfs root   %s\nkernel       %s\n", tt_sysfs_root(&cli->sfs), t->kernel_release);
	if (t->cpu_model[0])
		printf("cpu          %s\n", t->cpu_model);
	print_nodes(t);
	printf("\nmemory tiers\n");
	if (t->ntiers == 0)
		printf("  none (no /sys/devices/virtual/memory_tiering)\n");
	for (int i = 0; i < t->ntiers; i++)
		print_tier(t, &t->tiers[i]);
	print_demotion(t);
	printf("\nweight interfaces\n");
	for (int i = 0; i < nwi; i++)
		print_wi(&wis[i]);
	printf("\nperf PMUs\n  ");
	if (t->npmus == 0)
		printf("none");
	for (int i = 0; i < t->npmus; i++)
		printf("%s%s(%d)", i ? " " : "", t->pmus[i].name, t->pmus[i].type);
	printf("\n");
}

/* The fingerprint alone, one line: what a fleet's configuration management
 * keys its profiles by (ansible/roles/tiertune names its profiles
 * FINGERPRINT.json), without parsing the whole topology. */
static int print_fingerprint(const struct tt_cli *cli, const struct tt_topo *t)
{
	char fp[17];

	if (cli->json)
		return cli_usage("topo --fingerprint prints the fingerprint alone; "
				 "topo --json holds it as 'fingerprint'");
	tt_topo_fingerprint(t, fp);
	printf("%s\n", fp);
	return 0;
}

int cmd_topo(struct tt_cli *cli, int argc, char **argv)
{
	bool fingerprint = false;
	struct cli_opt opts[] = {
		CLI_FLAG("fingerprint", &fingerprint,
			 "print only the hardware fingerprint (16 hex digits), as profiles "
			 "and runs record it"),
		CLI_END,
	};
	static struct wi_seen wis[8];
	struct tt_topo *t;
	char state[4096];
	int nargs, rc = cli_parse(cli, cli_find_command("topo"), opts, argc, argv, &nargs), nwi = 0;
	bool have_state;

	if (rc >= 0)
		return rc;
	rc = cli_setup(cli);
	if (rc)
		return rc;
	t = cli->topo;
	if (fingerprint)
		return print_fingerprint(cli, t);
	have_state = tt_state_dir(TT_DIR_STATE, state, sizeof(state)) == 0;
	for (const struct tt_wi_backend *const *b = tt_wi_backends; *b && nwi < 8; b++) {
		struct wi_seen *w = &wis[nwi++];

		w->be = *b;
		tt_wi_state_init(&w->st);
		w->nreset = 0;
		w->rc = w->be->detect(&cli->sfs, w->why, sizeof(w->why));
		if (w->rc == 0)
			w->rc = w->be->read(&cli->sfs, t, &w->st);
		if (w->rc == 0 && have_state)
			w->nreset = tt_apply_tiers_reset(w->be, &cli->sfs, state, &w->reset);
		if (w->rc < 0 && w->rc != TT_EUNAVAIL) {
			rc = cli_fail(w->rc);
			goto out;
		}
	}
	if (cli->json) {
		rc = print_json(cli, t, wis, nwi);
	} else {
		print_human(cli, t, wis, nwi);
		rc = 0;
	}
out:
	for (int i = 0; i < nwi; i++)
		tt_wi_state_release(&wis[i].st);
	return rc;
}
