/*
 * Recommended weights, per source node, as the tuner produces them and
 * apply and export take them; and the two rules that turn them into what a
 * kernel can hold. Upstream kernels keep one global weight per node, so
 * per-source vectors merge only where they agree. The RFC keeps a weight per
 * tier per source node; tier weights split over a tier's nodes (seed 003)
 * for upstream, node weights sum per tier for the RFC.
 *
 *	struct tt_recos rs = {0};
 *	tt_recos_add(&rs, 0, "upstream", "0:5,2:1", 0.12, "tuner");
 *	tt_recos_convert(&rs, &topo, "upstream");
 *	tt_recos_upstream(&rs, -1, &weights);   (every source merged)
 */
#ifndef TT_RECOMMEND_H
#define TT_RECOMMEND_H

#include "topo.h"
#include "weights.h"

#include <stdint.h>

#define TT_RECO_MAX 64

struct tt_reco {
	int source_node;    /* -1: not tied to a source (upstream --weights) */
	char interface[16]; /* "upstream": node weights; "rfc": tier weights */
	struct tt_weights w;
	double gain; /* fraction over the baseline; NaN when unknown */
};

struct tt_recos {
	int n;
	struct tt_reco r[TT_RECO_MAX];
	int64_t run_id; /* 0: not from the database */
	char run_uuid[40];
	char objective[64];
	char hostname[256];
	char fingerprint[17]; /* "" when unknown (command-line weights) */
};

/* Adds one; where names the source of it in errors ("run 12", a file). */
int tt_recos_add(struct tt_recos *rs, int src, const char *interface, const char *weights,
		 double gain, const char *where);
/* Every recommendation in the form interface ("upstream" or "rfc") takes. */
int tt_recos_convert(struct tt_recos *rs, const struct tt_topo *t, const char *interface);
/* The upstream vector: the one source asked for (src >= 0), or every
 * source's merged. Overlapping sources that disagree are refused (TT_EINPUT),
 * naming the node and both weights. */
int tt_recos_upstream(const struct tt_recos *rs, int src, struct tt_weights *out);

#endif
