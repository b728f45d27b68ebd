/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Collectors: where memory traffic and allocation actually go, one plug-in
 * per source. Each says at probe time whether it works on this machine and,
 * when not, why; none prints. The sampler (sampler.h) reads the open ones
 * at a fixed interval on its own thread; tiertop and bench --collect read
 * the sampler.
 *
 *	struct tt_collect_ctx ctx = {.sfs = &sfs, .topo = &topo, .cpus = ...};
 *	char why[256];
 *	if (c->probe(&ctx, why, sizeof(why)) == 0) {
 *		struct tt_source *src;
 *		c->open(&ctx, &src);   // src->metrics[] now describes its values
 *		c->sample(src, values);
 *		c->close(src);
 *	}
 */
#ifndef TT_COLLECTOR_H
#define TT_COLLECTOR_H

#include "../core/sysfs.h"
#include "../core/topo.h"
#include "../core/weights.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum tt_metric_kind {
	TT_GAUGE,   /* a level: free bytes */
	TT_COUNTER, /* monotonic: the sampler turns it into a rate per second */
};

struct tt_metric {
	char name[64]; /* "imc_read_bytes", "numa_hit" */
	char unit[16]; /* of the value (counters: per second once a rate) */
	enum tt_metric_kind kind;
	int node;	   /* NUMA node it belongs to, -1 for none */
	char source[48];   /* box or file: "uncore_imc_3", "node1/numastat" */
	unsigned int bits; /* counter width for wraparound, 0 = 64 */
	double scale;	   /* value = raw * scale (perf .scale, MiB -> bytes) */
};

struct tt_source {
	const struct tt_collector *c;
	int nmetrics;
	struct tt_metric *metrics;
	void *priv;
};

/* What a collector may look at. */
struct tt_collect_ctx {
	const struct tt_sysfs *sfs;
	const struct tt_topo *topo;
	int source_node; /* the benchmark's node: per-CPU counters go there; -1 all */
	const struct tt_weights *weights; /* the placement being run, for the model; NULL none */
	/* Bandwidth measured from source_node to each node (bytes/s, indexed
	 * by node; 0: not measured), for the model, which takes HMAT's figures
	 * (each node's best initiator, an overstatement from another socket)
	 * only where this has none. NULL: nothing measured. */
	const double *measured_bw_bytes_s;
};

/* What a metric means, so that tiertop's columns and bench's per-node
 * summary come from the collectors' own declarations, not from lists of
 * collector and metric names kept elsewhere. */
enum tt_metric_role {
	TT_ROLE_OTHER,	     /* shown in listings and summaries only */
	TT_ROLE_READ_BYTES,  /* bytes read from the memory */
	TT_ROLE_WRITE_BYTES, /* bytes written to it */
	TT_ROLE_TOTAL_BYTES, /* reads and writes as one figure */
	TT_ROLE_ALLOC_PAGES, /* pages allocated */
	TT_ROLE_MEM_USED,    /* bytes in use */
	TT_ROLE_PROMOTED,    /* pages promoted to the node */
	TT_ROLE_DEMOTED,     /* pages demoted from the node */
};

/* Where a per-node figure is counted. */
enum tt_metric_scope {
	TT_SCOPE_MEMORY, /* at the memory node that serves it */
	TT_SCOPE_CPUS,	 /* at the node's CPUs that issued it, whatever memory they reach */
};

enum tt_unit { TT_UNIT_BYTES, TT_UNIT_BYTES_S, TT_UNIT_PAGES_S };

/* How the metrics of one role (on one node) make one figure. */
enum tt_aggregation {
	TT_AGG_SUM,	    /* every one must answer: boxes of a node, hit + miss */
	TT_AGG_SUM_PRESENT, /* the ones this kernel has (pgdemote_* by reclaimer) */
};

struct tt_metric_meaning {
	const char *metric; /* as the collector names it; NULL ends a list */
	enum tt_metric_role role;
	enum tt_metric_scope scope;
	enum tt_unit unit;
	enum tt_aggregation agg;
};

enum {
	TT_C_HARDWARE = 1,  /* needs a PMU or other hardware support */
	TT_C_SIMULATED = 2, /* values come from a model, never from the machine */
};

struct tt_collector {
	const char *name;
	const char *summary;
	unsigned int flags;
	const char *gives; /* the metrics it gives, for listings when unavailable */
	/* Set, and the functions NULL, in a build without the collector's
	 * library: "built without PAPI (libpapi-dev)". It stays in the table
	 * and says why (mk/configure.sh decides what is built). */
	const char *unbuilt;
	/* 0 when usable; TT_EUNAVAIL with the reason in why (no PMU, paranoid
	 * level, not mounted, library reports no counters). */
	/* What its metrics mean (NULL-terminated; a metric not listed is
	 * TT_ROLE_OTHER). The byte roles make it a traffic source. */
	const struct tt_metric_meaning *meanings;
	/* For TT_SCOPE_CPUS traffic: what it counts, so why no node's share
	 * of the traffic can be made of it. */
	const char *scope_why;
	/* TT_C_SIMULATED: whose figures, for the label ("the model"). */
	const char *simulated_as;
	/* For TT_ROLE_TOTAL_BYTES without a write figure: why. */
	const char *no_split_why;
	int (*probe)(const struct tt_collect_ctx *ctx, char *why, size_t size);
	int (*open)(const struct tt_collect_ctx *ctx, struct tt_source **out);
	/* One raw value per metric (counters unscaled and undifferenced); a
	 * value that cannot be read this time is NAN, and a whole source that
	 * stops answering returns an error: both show as stale. */
	int (*sample)(struct tt_source *src, double *values);
	void (*close)(struct tt_source *src);
};

extern const struct tt_collector tt_c_numastat, tt_c_uncore, tt_c_pfm, tt_c_papi, tt_c_likwid,
	tt_c_resctrl, tt_c_model;
/* NULL-terminated. To add one: 1. write collectors/c-<name>.c with a const
 * struct tt_collector (the Makefile builds every file of the folder),
 * its .meanings saying what each metric it gives means (a traffic source
 * declares read/write or total bytes and their scope: tiertop's columns,
 * its default collectors and bench's per-node summary follow from that);
 * 2. declare it above; 3. list it in collectors.c; 4. name it, in bold,
 * in docs/tiertune.1's collectors section (t0013 holds that list to this
 * table). One that needs a
 * library also gets a probe in mk/configure.sh and an #ifdef
 * TT_HAVE_<LIB> around its code, with .unbuilt in the #else (c-papi.c is
 * one). */
extern const struct tt_collector *const tt_collectors[];
const struct tt_collector *tt_collector_find(const char *name);

/* c->probe, or TT_EUNAVAIL with c->unbuilt as the reason: call this, never
 * c->probe directly. */
int tt_collector_probe(const struct tt_collector *c, const struct tt_collect_ctx *ctx, char *why,
		       size_t size);

/* Opens the collectors named in a comma-separated list: TT_EINPUT for a
 * name that is not one, TT_EUNAVAIL with the reason for one that cannot run
 * here. On success *sources holds *n open sources (close each, free the
 * array). */
int tt_collectors_open(const struct tt_collect_ctx *ctx, const char *list,
		       struct tt_source ***sources, int *n);
void tt_collectors_close(struct tt_source **sources, int n);
/* Does the list name a collector whose figures come from a model? (A
 * benchmark under a fixture's topology is only meaningful as such a run.) */
bool tt_collectors_simulated(const char *list);

/* The meaning c declares for metric name, NULL when none (TT_ROLE_OTHER). */
const struct tt_metric_meaning *tt_collector_meaning(const struct tt_collector *c,
						     const char *name);
/* Does c declare a metric of role? */
bool tt_collector_gives(const struct tt_collector *c, enum tt_metric_role role);
/* Where c stands among traffic sources, lower is better, -1 when it gives
 * no traffic: measured before simulated, counted at the memory before at
 * the issuing CPUs, reads and writes apart before one total. */
int tt_collector_traffic_rank(const struct tt_collector *c);

/* Helpers for collectors: a source with room for n metrics, and adding one. */
struct tt_source *tt_source_new(const struct tt_collector *c, int cap);
struct tt_metric *tt_source_add(struct tt_source *s, int *cap, const char *name, const char *unit,
				enum tt_metric_kind kind, int node, const char *source);
void tt_source_free(struct tt_source *s);

#endif
