// SPDX-License-Identifier: GPL-3.0-or-later
#include "json.h"

#include <math.h>
#include <stdio.h>

json_t *tt_json_real(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *tt_json_nodes(const struct tt_nodemask *m)
{
	json_t *a = json_array();
	int node;

	tt_nodemask_for_each (node, m)
		json_array_append_new(a, json_integer(node));
	return a;
}

json_t *tt_json_weights(const struct tt_weights *w)
{
	json_t *o = json_object();
	char key[16];
	int id;

	tt_weights_for_each(id, w)
	{
		snprintf(key, sizeof(key), "%d", id);
		json_object_set_new(o, key, json_integer(tt_weights_get(w, id, 0)));
	}
	return o;
}
