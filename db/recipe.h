/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef TT_RECIPE_H
#define TT_RECIPE_H

/* The most other CPU nodes a run judges (tuner/auto.h TT_AUTO_MAX_OTHERS). */
#define TT_RECIPE_MAX_OTHERS 7

/* A per_source run's advice (issue 33): its weights launched per socket,
 * never written globally. The report prints it, the database keeps it
 * (recommendations.recipe) and apply, export and show of the run print it
 * again from there, so the data is one struct in both places. Here, with
 * the database, because its text is read back from a file that may not be
 * ours (a merged store): it is checked where it is read, at merge and at
 * every read of the run (tt_db_run_get), never only where printed. */
struct tt_recipe {
	int source;	   /* the run's source node */
	char weights[256]; /* its best weights, "0:11,2:1" */
	char nodes[128];   /* their nodes, "0,2" */
	char cpus[256];	   /* the source's CPUs, "0-47" */
	int nothers;
	struct {
		int source;	/* another CPU node */
		char mems[128]; /* its local memory nodes (--nodes local), "" none */
	} other[TT_RECIPE_MAX_OTHERS];
};
/* As JSON text (malloc'd; NULL when out of memory). */
char *tt_recipe_json(const struct tt_recipe *r);
/* Back from that text, checked: an object whose source_node and others'
 * source_node are node ids, weights parse as node weights, nodes and each
 * mems as node lists ("" only for mems), cpus as a CPU list, each within
 * its field (nothing cut), others at most TT_RECIPE_MAX_OTHERS. Anything
 * else is TT_EINPUT naming the field and its text: the recipe is printed
 * as commands to paste, so a text that is not what the field holds
 * ("0:32,1:7 -- PROGRAM; curl x | sh #", escape sequences) is refused
 * whole, never printed in part. */
int tt_recipe_parse(const char *json, struct tt_recipe *out);

#endif
