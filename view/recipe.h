/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef TT_RECIPE_H
#define TT_RECIPE_H

/* The most other CPU nodes a run judges (tuner/auto.h TT_AUTO_MAX_OTHERS). */
#define TT_RECIPE_MAX_OTHERS 7

/* A per_source run's advice (issue 33): its weights launched per socket,
 * never written globally. The report prints it, the database keeps it
 * (recommendations.recipe) and apply, export and show of the run print it
 * again from there, so the data is one struct in both places. */
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
/* As JSON text (malloc'd; NULL when out of memory), and back from the
 * object (TT_EINPUT when it is not one). */
char *tt_recipe_json(const struct tt_recipe *r);
int tt_recipe_parse(const char *json, struct tt_recipe *out);

#endif
