/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Topology of the machine under a sysfs root: nodes (CPUs, memory, distances,
 * HMAT access classes), memory tiers and perf PMUs. Loaded once; the tuner
 * and tiertop keep one tt_topo for their lifetime.
 *
 *	struct tt_topo t;
 *	if (tt_topo_load(&t, &sfs) < 0) ...
 *	const struct tt_node *n = tt_topo_node(&t, 2);
 *	tt_topo_release(&t);
 */
#ifndef TT_TOPO_H
#define TT_TOPO_H

#include "bitmap.h"
#include "sysfs.h"

#include <stdbool.h>
#include <stdint.h>

/* The kernel's tier of an abstract distance: mm/memory-tiers.c builds tiers
 * of MEMTIER_CHUNK_SIZE (128) distances, and DRAM sits at 576, tier 4. */
#define TT_MEMTIER_CHUNK 128
#define TT_MEMTIER_DRAM 4

/* nodeN/accessC/initiators/: C=0 best initiator of any kind, C=1 best
 * initiator with CPUs (the class auto weights and abstract distance use). */
struct tt_hmat {
	bool present;
	uint64_t read_bw_mb_s;	/* as the kernel reports: MB/s per the ABI document */
	uint64_t write_bw_mb_s; /* MB/s */
	uint64_t read_lat_ns;	/* ns */
	uint64_t write_lat_ns;	/* ns */
	/* The initiators the figures are from (accessC/initiators/nodeM):
	 * from any other node the memory is further, so these figures are the
	 * best case, not what every CPU sees. */
	struct tt_nodemask initiators;
};

struct tt_node {
	int id;
	bool has_cpu;
	bool has_memory;
	int ncpus;
	int *cpus;		  /* ascending CPU ids, ncpus of them */
	uint64_t mem_total_bytes; /* bytes, nodeN/meminfo MemTotal */
	uint64_t mem_free_bytes;  /* bytes, nodeN/meminfo MemFree */
	int tier;		  /* memory_tierN id, -1 when in no tier */
	int *distance;		  /* SLIT distance to each online node, indexed like nodes[] */
	struct tt_hmat access[2];
	/* Where reclaim demotes this node's pages, as the kernel computes it
	 * from tiers and distances (tt_topo_load; seed 008): preferred, the
	 * next lower tier's nodes at the best distance; allowed, every memory
	 * node of every lower tier. Both empty for the last tier. */
	struct tt_nodemask demote_preferred;
	struct tt_nodemask demote_allowed;
};

struct tt_tier {
	int id;
	struct tt_nodemask nodes;
};

struct tt_pmu {
	char name[64];
	int type; /* perf_event_attr.type */
};

struct tt_topo {
	int nnodes;
	struct tt_node *nodes; /* online nodes, ascending id */
	struct tt_nodemask online;
	struct tt_nodemask cpu_nodes;
	struct tt_nodemask mem_nodes;
	int ntiers;
	struct tt_tier *tiers; /* ascending id */
	int npmus;
	struct tt_pmu *pmus; /* sorted by name */
	char kernel_release[128];
	char cpu_model[128]; /* "" when /proc/cpuinfo has no model name */
	char hostname[256];  /* /proc/sys/kernel/hostname, "" when absent */
	/* Page movement that competes with a placement: reclaim demoting to
	 * the next lower tier (/sys/kernel/mm/numa/demotion_enabled: 1, 0)
	 * and NUMA balancing (/proc/sys/kernel/numa_balancing: 0 off, bit 0
	 * normal, bit 1 memory tiering). -1 where the file is absent. */
	int demotion_enabled;
	int numa_balancing;
};

/* The tier's abstract distance range, [id * 128, id * 128 + 127]. */
#define TT_TIER_ADIST_MIN(id) ((id)*TT_MEMTIER_CHUNK)
#define TT_TIER_ADIST_MAX(id) ((id)*TT_MEMTIER_CHUNK + TT_MEMTIER_CHUNK - 1)
/* "off", "normal", "memory tiering" or "normal and memory tiering". */
const char *tt_numa_balancing_name(int mode);

int tt_topo_load(struct tt_topo *t, const struct tt_sysfs *s);
void tt_topo_release(struct tt_topo *t);
const struct tt_node *tt_topo_node(const struct tt_topo *t, int id);
/* The bandwidth the kernel's auto mode takes for node n: HMAT access1's
 * lesser of read and write, MB/s; 0 when n is NULL or has none. */
uint64_t tt_hmat_auto_bw_mb_s(const struct tt_node *n);
const struct tt_tier *tt_topo_tier(const struct tt_topo *t, int id);
/* The hardware's identity as 16 hex digits: CPU model and, per node, CPUs,
 * memory size, tier and HMAT figures. Memory counts in whole GiB (8 GiB
 * steps from 16 GiB), so identical hosts whose firmware reserves a little
 * more or less still match. The kernel release is left out: the same box
 * after an upgrade is the same hardware (runs record their kernel). */
void tt_topo_fingerprint(const struct tt_topo *t, char out[17]);
/* Checks that every node of mask is online; names the first that is not. */
/* A source node (where a task runs): -1 (none given) or an online node;
 * TT_EINPUT naming it otherwise. */
int tt_topo_check_source(const struct tt_topo *t, int src);
int tt_topo_check_nodes(const struct tt_topo *t, const struct tt_nodemask *mask, const char *what);
/* The CPU node nearest (SLIT) to nodes[i], ties to the first; -1 when no
 * node has CPUs, or the topology has no distances and nodes[i] no CPUs.
 * A memory node is local to that CPU node and remote to the others,
 * whatever its tier. */
int tt_topo_near_cpu(const struct tt_topo *t, int i);
/* A tier in words against DRAM's, by abstract distance: "faster than
 * DRAM", "DRAM", "slower than DRAM". */
const char *tt_tier_class(int tier);
/* A memory node in words as seen from a source: "local DRAM", "remote
 * DRAM", "local CPU-less, faster than DRAM" (flat-mode HBM beside the
 * source), "remote CPU-less, slower than DRAM"; local 1 or 0, or -1 when
 * not known (a CPU-less node of a run recorded without its CPU node:
 * "CPU-less, slower than DRAM"); tier < 0: the role alone. The one place
 * for these words (plot's axes; topo's tiers by tt_tier_class). */
void tt_node_words(int local, bool cpus, int tier, char *buf, size_t size);

#endif
