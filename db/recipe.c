// SPDX-License-Identifier: GPL-3.0-or-later
/* A per_source run's recipe as the database keeps it (recipe.h). */
#include "recipe.h"

#include "../core/bitmap.h"
#include "../core/error.h"
#include "../core/parse.h"
#include "../core/weights.h"

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

/* A node id, as the kernel numbers nodes. */
static int node_id(const json_t *v, const char *what, int *out)
{
	json_int_t id = json_integer_value(v);

	if (!json_is_integer(v) || id < 0 || id >= TT_MAX_NODES)
		return tt_err(TT_EINPUT, "a per-socket recipe's %s is not a node id (0-%d)", what,
			      TT_MAX_NODES - 1);
	*out = (int)id;
	return 0;
}

/* A list field, "0-2,5" as the kernel prints node and CPU lists (empty
 * only where allowed), copied whole into dst. */
static int list_field(const json_t *v, const char *what, unsigned int nbits, bool may_be_empty,
		      char *dst, size_t size)
{
	static uint64_t bits[TT_MAX_CPUS / 64];
	const char *s = json_string_value(v);

	if (!s)
		return tt_err(TT_EINPUT, "a per-socket recipe's %s is not a string", what);
	if (strlen(s) >= size || (!*s && !may_be_empty) || tt_parse_list(s, bits, nbits))
		return tt_err(TT_EINPUT, "a per-socket recipe's %s '%.80s' is not a %s list", what,
			      s, nbits == TT_MAX_CPUS ? "CPU" : "node");
	snprintf(dst, size, "%s", s);
	return 0;
}

static int weights_field(const json_t *v, char *dst, size_t size)
{
	struct tt_weights w;
	const char *s = json_string_value(v);

	if (!s)
		return tt_err(TT_EINPUT, "a per-socket recipe's weights are not a string");
	if (strlen(s) >= size || tt_weights_parse(s, &w) < 0)
		return tt_err(TT_EINPUT,
			      "a per-socket recipe's weights '%.80s' are not NODE:WEIGHT,...", s);
	snprintf(dst, size, "%s", s);
	return 0;
}

int tt_recipe_parse(const char *json, struct tt_recipe *out)
{
	json_t *j = json_loads(json ? json : "", JSON_REJECT_DUPLICATES, NULL), *o, *others;
	size_t i;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!json_is_object(j)) {
		json_decref(j);
		return tt_err(TT_EINPUT, "a per-socket recipe is not a JSON object");
	}
	others = json_object_get(j, "others");
	rc = node_id(json_object_get(j, "source_node"), "source_node", &out->source);
	if (rc == 0)
		rc = weights_field(json_object_get(j, "weights"), out->weights,
				   sizeof(out->weights));
	if (rc == 0)
		rc = list_field(json_object_get(j, "nodes"), "nodes", TT_MAX_NODES, false,
				out->nodes, sizeof(out->nodes));
	if (rc == 0)
		rc = list_field(json_object_get(j, "cpus"), "cpus", TT_MAX_CPUS, false, out->cpus,
				sizeof(out->cpus));
	if (rc == 0 && others && !json_is_array(others))
		rc = tt_err(TT_EINPUT, "a per-socket recipe's others are not a list");
	if (rc == 0 && json_array_size(others) > TT_RECIPE_MAX_OTHERS)
		rc = tt_err(TT_EINPUT, "a per-socket recipe names %zu other nodes (at most %d)",
			    json_array_size(others), TT_RECIPE_MAX_OTHERS);
	json_array_foreach (others, i, o) {
		if (rc < 0)
			break;
		rc = node_id(json_object_get(o, "source_node"), "other source_node",
			     &out->other[i].source);
		if (rc == 0)
			rc = list_field(json_object_get(o, "mems"), "other mems", TT_MAX_NODES,
					true, out->other[i].mems, sizeof(out->other[0].mems));
		out->nothers++;
	}
	json_decref(j);
	if (rc < 0)
		memset(out, 0, sizeof(*out));
	return rc;
}
