/*
 * Recommended weights as apply and export take them: per source node, from
 * a run in the database, a profile file (export --format json), or the
 * command line. And the upstream rule: one global vector, so per-source
 * vectors merge only when they do not disagree on a node.
 */
#ifndef TT_CLI_RECOS_H
#define TT_CLI_RECOS_H

#include "../core/topo.h"
#include "../core/weights.h"
#include "../db/db.h"

#include <jansson.h>

#define RECOS_MAX 64

struct reco {
	int source_node;        /* -1: not tied to a source (upstream --weights) */
	char interface[16];     /* "upstream": node weights; "rfc": tier weights */
	struct tt_weights w;
	double gain;            /* fraction over the baseline; NaN when unknown */
};

struct recos {
	int n;
	struct reco r[RECOS_MAX];
	int64_t run_id;         /* 0: not from the database */
	char run_uuid[40];
	char objective[64];
	char hostname[256];
	char fingerprint[17];   /* "" when unknown (command-line weights) */
};

int recos_from_run(struct tt_db *db, int64_t run_id, struct recos *out);
/* The newest run that has recommendations. */
int recos_latest(struct tt_db *db, struct recos *out);
int recos_from_profile(const char *path, struct recos *out);
json_t *recos_profile_json(const struct recos *rs, const struct tt_topo *t);

/* Weights from the command line: node weights are upstream's, tier
 * weights the RFC's (and need a source node). */
int recos_from_args(const char *weights, const char *tier_weights, int src, struct recos *rs);
/* Every recommendation in the form interface takes: tier weights split
 * over each tier's nodes for upstream (seed 003's rule), node weights
 * summed per tier for the RFC. */
int recos_convert(struct recos *rs, const struct tt_topo *t, const char *interface);

/* The upstream vector: the one source asked for (src >= 0), or every
 * source's merged. Overlapping sources that disagree are refused, naming
 * the node and both weights. */
int recos_upstream(const struct recos *rs, int src, struct tt_weights *out);

#endif
