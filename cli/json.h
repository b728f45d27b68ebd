/* The JSON vocabulary every document shares (docs/json.md): figures, node
 * sets, weights, and the document's schema_version. Its own file because
 * library-side readers and writers of documents (recos.c's profiles) link it
 * without the rest of the command line. */
#ifndef TT_CLI_JSON_H
#define TT_CLI_JSON_H

#include "../core/bitmap.h"
#include "../core/version.h" /* TT_JSON_SCHEMA_VERSION */
#include "../core/weights.h"

#include <jansson.h>

/* A figure as JSON: null where it is not finite (jansson refuses NaN and
 * infinities, and a json_pack holding one returns NULL: the whole object
 * would be lost, not just the figure). */
json_t *cli_json_real(double v);

/* A node set as JSON: a list of node ids (docs/json.md). */
json_t *cli_nodes_json(const struct tt_nodemask *m);

/* Weights as JSON: an object from node (or tier) id to weight, the one
 * form every document uses (docs/json.md). */
json_t *cli_weights_json(const struct tt_weights *w);

/* Prints and frees a JSON document (an object), "schema_version" first;
 * returns 0 or an exit code. */
int cli_print_json(json_t *root);

#endif
