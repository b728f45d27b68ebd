/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libtiertune: weighted interleave for applications that calibrate for
 * themselves. Read the machine's memory nodes, tiers and weights; probe
 * each memory node from the calling thread's node (bandwidth and idle
 * latency within a budget in milliseconds, every page's node verified,
 * two passes in opposite orders, each figure judged as `tiertune bench`
 * judges it); the weights tiertune's search recommends from that probe
 * (the search `tiertune auto` runs) or from a stored profile; and the
 * calling thread's MPOL_WEIGHTED_INTERLEAVE policy.
 *
 *	tiertune *tt;
 *	tiertune_probe *p;
 *	unsigned w[8];
 *	if (tiertune_open(&tt, NULL) < 0)
 *		fprintf(stderr, "%s\n", tiertune_error());
 *	tiertune_probe_run(tt, -1, NULL, 0, 300, &p);
 *	tiertune_recommend(tt, p, 0, 300, w);      (w[i]: probe node i's)
 *	tiertune_set_policy(tt, nodes, n);
 *	tiertune_probe_free(p);
 *	tiertune_close(tt);
 *
 * Build with `pkg-config --cflags --libs tiertune`. Every call returns 0
 * (or a count) on success and a negative enum tiertune_status on failure,
 * with a message naming the input that tiertune_error() gives; nothing
 * here prints or exits. Handles are opaque.
 *
 * Threads: the error message is the calling thread's own. A handle may be
 * read by several threads at once (the node and weight calls); a probe or
 * a recommendation runs measuring threads of its own, pinned to the
 * source node's CPUs, so run one at a time. tiertune_close and
 * tiertune_probe_free must not race with any other use of their handle.
 *
 * Versions: the soname's number (libtiertune.so.1) is TIERTUNE_ABI; a
 * call or type changed incompatibly bumps it, and one added bumps
 * TIERTUNE_ABI_MINOR (the symbols' version node TIERTUNE_1.<minor>).
 * The manual pages are tiertune_open(3), tiertune_probe_run(3),
 * tiertune_recommend(3) and tiertune_set_policy(3).
 */
#ifndef TIERTUNE_H
#define TIERTUNE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TIERTUNE_ABI 1
#define TIERTUNE_ABI_MINOR 0

enum tiertune_status {
	TIERTUNE_OK = 0,
	TIERTUNE_EFAIL = -1,	/* a failure at run time (a measurement, memory) */
	TIERTUNE_EINPUT = -2,	/* a bad argument, or a garbled file it names */
	TIERTUNE_EUNAVAIL = -3, /* a feature, file or permission this machine lacks */
};

/* A machine: its topology and weight interface, read once. */
typedef struct tiertune tiertune;
/* One probe's figures. */
typedef struct tiertune_probe tiertune_probe;

/* The release the library is ("1.4.0"). */
const char *tiertune_version(void);
/* The calling thread's last error message ("" when none), and its hint
 * line ("" when none); valid until the thread's next call. */
const char *tiertune_error(void);
const char *tiertune_error_hint(void);

/* This machine (sysfs_root NULL or "/"), or the tree of another under a
 * root (a fixture, `tiertune capture`'s copy): read there. */
int tiertune_open(tiertune **out, const char *sysfs_root);
/* A performance model (a file, or a model's name as `tiertune auto
 * --model` takes it): probes give its figures, recommendations search on
 * it (every figure simulated, the same as auto's for the same budget).
 * Its machine's tree is the topology unless sysfs_root is given. */
int tiertune_open_model(tiertune **out, const char *model, const char *sysfs_root);
void tiertune_close(tiertune *tt);

/* Node flags (tiertune_node). */
#define TIERTUNE_NODE_CPUS 0x1u
#define TIERTUNE_NODE_MEMORY 0x2u

/* The online nodes: their count, and the id of the index-th (ascending). */
int tiertune_node_count(const tiertune *tt);
int tiertune_node_id(const tiertune *tt, int index);
/* Node node's flags, memory tier (-1: in none) and memory in bytes; any
 * output may be NULL. TIERTUNE_EINPUT naming a node that is not online. */
int tiertune_node(const tiertune *tt, int node, unsigned int *flags, int *tier,
		  uint64_t *mem_bytes);
/* The weights the kernel gives nodes[0..n-1] now for tasks on source
 * (-1: the calling thread's node), as node weights (a per-tier interface's
 * split over the nodes); TIERTUNE_EUNAVAIL where the kernel has no
 * weighted interleave. */
int tiertune_weights(const tiertune *tt, int source, const int *nodes, unsigned int *weights,
		     int n);
/* The node of the CPU the calling thread runs on now. */
int tiertune_self_node(void);

/* What a probe's figure was judged (tiertune_probe_result's judged): a
 * bit each; 0 is valid. As `tiertune bench` says them. */
#define TIERTUNE_JUDGED_NOT_VALIDATED 0x01u /* the kernel's output was wrong */
#define TIERTUNE_JUDGED_CACHE_RESIDENT 0x02u
#define TIERTUNE_JUDGED_BELOW_RULE 0x04u /* arrays under 4x the last-level cache */
#define TIERTUNE_JUDGED_SHORT_PASS 0x08u /* a pass under 20 clock ticks */
#define TIERTUNE_JUDGED_DESCHEDULED 0x10u
#define TIERTUNE_JUDGED_UNSTABLE 0x20u
#define TIERTUNE_JUDGED_NOT_MEASURED 0x100u /* the budget ended before the node */

/* Probes nodes[0..n-1] (NULL, 0: every memory node) from source (-1: the
 * calling thread's node): each node's bandwidth (the triad mix, every CPU
 * of the source, every page on the node, verified) and idle latency
 * (a pointer chase), in two passes, the second in reverse order, within
 * budget_ms (1-600000): the arrays are sized to it and no node is begun
 * that would pass it. A model's handle gives the model's figures. */
int tiertune_probe_run(tiertune *tt, int source, const int *nodes, int n, unsigned int budget_ms,
		       tiertune_probe **out);
void tiertune_probe_free(tiertune_probe *p);
int tiertune_probe_source(const tiertune_probe *p);
int tiertune_probe_count(const tiertune_probe *p);
/* Its wall time, ms, and the bytes of each array its runs used. */
double tiertune_probe_elapsed_ms(const tiertune_probe *p);
uint64_t tiertune_probe_array_bytes(const tiertune_probe *p);
/* The i-th node's figures: bytes/s, ns (0: unknown), its judgements; any
 * output may be NULL. */
int tiertune_probe_result(const tiertune_probe *p, int i, int *node, double *bw_bytes_s,
			  double *lat_ns, unsigned int *judged);
/* The judgements in words ("valid", "below 4x rule, unstable"); the
 * length snprintf would give. */
int tiertune_judged_text(unsigned int judged, char *buf, size_t size);

/* The weights tiertune's search (auto's) recommends for the probe's
 * nodes from its source, its figures the search's prior: weights[i] for
 * the probe's i-th node. The budget is measurements (budget_trials),
 * time (budget_ms, a model's simulated time), or both, the first reached
 * ending it; not both 0. Real measurements run on this machine only. */
int tiertune_recommend(tiertune *tt, const tiertune_probe *p, unsigned int budget_trials,
		       unsigned int budget_ms, unsigned int *weights);
/* The weights a stored profile (`tiertune export --format json`) holds
 * for source (-1: the calling thread's node) and nodes[0..n-1], refused
 * when it was found on other hardware. */
int tiertune_recommend_profile(const tiertune *tt, const char *path, int source, const int *nodes,
			       unsigned int *weights, int n);

/* The calling thread's memory policy: MPOL_WEIGHTED_INTERLEAVE over
 * nodes[0..n-1] (memory nodes of tt's machine), for the memory it
 * allocates from now on. The weights the kernel then uses are its own,
 * global (tiertune_weights reads them; `tiertune apply` writes them). */
int tiertune_set_policy(const tiertune *tt, const int *nodes, int n);

#ifdef __cplusplus
}
#endif

#endif
