/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Where apply and export get recommendations (core/recommend.h): a run in
 * the database, a profile file (export --format json), or the command line.
 */
#ifndef TT_WRITER_RECOS_H
#define TT_WRITER_RECOS_H

#include "../core/recommend.h"
#include "../db/db.h"

#include <jansson.h>

int tt_recos_from_run(struct tt_db *db, int64_t run_id, struct tt_recos *out);
/* What a recommendation that is no weights says to do, as messages name
 * it ("keeping the kernel's auto mode", ...), for keep_auto, bind_local
 * and per_source (schema v6: no global weights, a per-socket launch). */
const char *tt_recos_action_says(const char *action);
/* The newest run that has recommendations: of t's hardware (its
 * fingerprint) when there is one, else of any (NULL t: of any). */
int tt_recos_latest(struct tt_db *db, const struct tt_topo *t, struct tt_recos *out);
int tt_recos_from_profile(const char *path, struct tt_recos *out);
json_t *tt_recos_profile_json(const struct tt_recos *rs, const struct tt_topo *t);
/* Weights from a run or profile are for the machine they were found on:
 * TT_EINPUT naming both fingerprints when t is other hardware, unless
 * force (or the source carries none: command-line weights). what names the
 * source in the message ("run 12", "profile 'p.json'"). */
int tt_recos_check_machine(const struct tt_recos *rs, const struct tt_topo *t, bool force,
			   const char *what);
/* The recommendations carry a fingerprint, and t's is another. */
bool tt_recos_other_hw(const struct tt_recos *rs, const struct tt_topo *t);

/* Weights from the command line: node weights (--weights) or tier weights
 * (--tier-weights), for to when it is keyed that way (the interface being
 * written), else the first interface keyed that way (a per-source one
 * needs a source node). */
int tt_recos_from_args(const struct tt_weights *weights, const struct tt_weights *tier_weights,
		       int src, const struct tt_wi_backend *to, struct tt_recos *rs);

#endif
