/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The JSON vocabulary every document shares (docs/json.md), for the
 * library's documents (runs, profiles) and every command's: figures, node
 * sets and weights each have one form. */
#ifndef TT_DB_JSON_H
#define TT_DB_JSON_H

#include "../core/bitmap.h"
#include "../core/weights.h"

#include <jansson.h>

/* A figure as JSON: null where it is not finite (jansson refuses NaN and
 * infinities, and a json_pack holding one returns NULL: the whole object
 * would be lost, not just the figure). */
json_t *tt_json_real(double v);

/* A node set as JSON: a list of node ids (docs/json.md). */
json_t *tt_json_nodes(const struct tt_nodemask *m);

/* Weights as JSON: an object from node (or tier) id to weight, the one
 * form every document uses (docs/json.md). */
json_t *tt_json_weights(const struct tt_weights *w);

#endif
