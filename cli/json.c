#include "json.h"

#include <math.h>
#include <stdio.h>

json_t *cli_json_real(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *cli_nodes_json(const struct tt_nodemask *m)
{
	json_t *a = json_array();
	int node;

	tt_nodemask_for_each (node, m)
		json_array_append_new(a, json_integer(node));
	return a;
}

json_t *cli_weights_json(const struct tt_weights *w)
{
	json_t *o = json_object();
	char key[16];
	int id;

	tt_nodemask_for_each (id, &w->set) {
		snprintf(key, sizeof(key), "%d", id);
		json_object_set_new(o, key, json_integer(w->w[id]));
	}
	return o;
}

int cli_print_json(json_t *root)
{
	json_t *doc = root;
	int rc;

	if (!root) {
		fprintf(stderr, "tiertune: error: out of memory building JSON\n");
		return 1;
	}
	/* Every document is an object that opens with its vocabulary's
	 * version (docs/json.md), whichever command wrote it. */
	if (json_is_object(root) && !json_object_get(root, "schema_version")) {
		doc = json_pack("{s:i}", "schema_version", TT_JSON_SCHEMA_VERSION);
		if (!doc || json_object_update(doc, root) < 0) {
			json_decref(doc);
			json_decref(root);
			fprintf(stderr, "tiertune: error: out of memory building JSON\n");
			return 1;
		}
		json_decref(root);
	}
	rc = json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(doc);
	if (rc < 0)
		return 1;
	putchar('\n');
	return 0;
}
