/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Recommended weights, per source node, as the tuner produces them and
 * apply and export take them; and the two rules that turn them into what a
 * weight interface (core/wi.h) holds. A recommendation is keyed like the
 * interface it names: by node or by tier. Interfaces that are not per
 * source keep one weight per id for every source, so per-source vectors
 * merge only where they agree. Tier weights split over a tier's nodes
 * (seed 003) for a node-keyed interface; node weights sum per tier for a
 * tier-keyed one.
 *
 *	struct tt_recos rs = {0};
 *	tt_recos_add(&rs, 0, tt_wi_for_key(TT_WI_BY_NODE)->name, "0:5,2:1", 0.12, "tuner");
 *	tt_recos_convert(&rs, &topo, be);
 *	tt_recos_merged(&rs, be, -1, &weights);   (every source merged)
 */
#ifndef TT_RECOMMEND_H
#define TT_RECOMMEND_H

#include "topo.h"
#include "weights.h"
#include "wi.h"

#include <stdint.h>

#define TT_RECO_MAX 64

struct tt_reco {
	int source_node;    /* -1: not tied to a source (--weights) */
	char interface[16]; /* a backend's name; w is keyed by its unit */
	struct tt_weights w;
	double gain; /* fraction over the baseline; NaN when unknown */
	/* The gain's baseline as the record names it ("kernel auto mode":
	 * what the machine ran, issue 43); "": not named. */
	char baseline[32];
};

struct tt_recos {
	int n;
	struct tt_reco r[TT_RECO_MAX];
	int64_t run_id; /* 0: not from the database */
	char run_uuid[40];
	char objective[64];
	char hostname[256];
	char fingerprint[17]; /* "" when unknown (command-line weights) */
	char cpu_model[128];
	char kernel_release[64];
	bool simulated; /* from a performance model, not measurements */
	/* A run's recommendations that are no weights (schema 4): keep the
	 * kernel's auto mode, or bind to local memory. */
	int nactions;
	struct {
		int source_node;
		char action[16]; /* "keep_auto", "bind_local" */
	} actions[TT_RECO_MAX];
};

/* Adds one; where names the source of it in errors ("run 12", a file).
 * tt_recos_add reads the weights from text (a run's, a profile's: ids in
 * tt_wi_max_id of the interface); tt_recos_add_weights takes them typed,
 * as the command line read them. */
int tt_recos_add(struct tt_recos *rs, int src, const char *interface, const char *weights,
		 double gain, const char *where);
int tt_recos_add_weights(struct tt_recos *rs, int src, const char *interface,
			 const struct tt_weights *w, double gain, const char *where);
/* The largest id weights keyed by key carry: a node's, or a tier's
 * (abstract distances, up to TT_MAX_TIER_ID). */
int tt_recos_max_id(enum tt_wi_key key);
/* Every node (and tier) the recommendations name is on t: a memory node
 * onlined after boot (CXL through dax/kmem) is absent until then, and a
 * vector without it would be a different vector. TT_EUNAVAIL naming the
 * first absent one and what names it ("profile 'p.json'") otherwise;
 * checked before the hardware fingerprint, which covers every online node
 * and so cannot match until they are all there. The weights of another
 * CPU model pass (their fingerprint check names the machine); an absent
 * source node never does. */
int tt_recos_check_present(const struct tt_recos *rs, const struct tt_topo *t, const char *what);
/* Every recommendation in the form be takes (keyed by its unit). */
int tt_recos_convert(struct tt_recos *rs, const struct tt_topo *t, const struct tt_wi_backend *be);
/* For an interface that is not per source: the vector of the one source
 * asked for (src >= 0), or every source's merged, from the recommendations
 * for be. Overlapping sources that disagree are refused (TT_EINPUT), naming
 * the id and both weights. */
int tt_recos_merged(const struct tt_recos *rs, const struct tt_wi_backend *be, int src,
		    struct tt_weights *out);

#endif
