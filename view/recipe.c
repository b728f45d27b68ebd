// SPDX-License-Identifier: GPL-3.0-or-later
/* A per_source run's recipe as the database keeps it (recipe.h). */
#include "recipe.h"

#include "../core/error.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

char *tt_recipe_json(const struct tt_recipe *r)
{
	json_t *others = json_array(), *j;
	char *text;

	for (int i = 0; i < r->nothers; i++)
		json_array_append_new(others,
				      json_pack("{s:i,s:s}", "source_node", r->other[i].source,
						"mems", r->other[i].mems));
	j = json_pack("{s:i,s:s,s:s,s:s,s:o}", "source_node", r->source, "weights", r->weights,
		      "nodes", r->nodes, "cpus", r->cpus, "others", others);
	text = j ? json_dumps(j, JSON_COMPACT) : NULL;
	json_decref(j);
	return text;
}

static void copy_str(char *dst, size_t size, const json_t *v)
{
	snprintf(dst, size, "%s", json_string_value(v) ?: "");
}

int tt_recipe_parse(const char *json, struct tt_recipe *out)
{
	json_t *j = json_loads(json ? json : "", 0, NULL), *o;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (!json_is_object(j) || !json_is_integer(json_object_get(j, "source_node"))) {
		json_decref(j);
		return tt_err(TT_EINPUT, "a per-socket recipe is not an object with a source_node");
	}
	out->source = (int)json_integer_value(json_object_get(j, "source_node"));
	copy_str(out->weights, sizeof(out->weights), json_object_get(j, "weights"));
	copy_str(out->nodes, sizeof(out->nodes), json_object_get(j, "nodes"));
	copy_str(out->cpus, sizeof(out->cpus), json_object_get(j, "cpus"));
	json_array_foreach (json_object_get(j, "others"), i, o) {
		if (out->nothers == TT_RECIPE_MAX_OTHERS)
			break;
		out->other[out->nothers].source =
			(int)json_integer_value(json_object_get(o, "source_node"));
		copy_str(out->other[out->nothers].mems, sizeof(out->other[0].mems),
			 json_object_get(o, "mems"));
		out->nothers++;
	}
	json_decref(j);
	return 0;
}
