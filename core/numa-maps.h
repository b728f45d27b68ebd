/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * /proc/PID/numa_maps: one line per VMA, "<start> <policy> key=value...",
 * as mm/mempolicy.c show_numa_map() prints it. tiertop's process panel reads
 * it to find the processes whose memory is interleaved and where their
 * resident pages are.
 *
 *	struct tt_numa_maps m;
 *	tt_numa_maps_init(&m);
 *	for each line: tt_numa_maps_add(&m, line);   (or tt_numa_maps_read)
 *
 * The policy is the mode name of policy_modes[] (two of which hold a space:
 * "weighted interleave", "prefer (many)"), then "=static"/"=relative" flags,
 * then ":" and the node list; a VMA without a policy of its own shows the
 * task's (kernel-interfaces.md 7.1). Per-node resident pages are the
 * N<node>= fields, in units of kernelpagesize_kB.
 */
#ifndef TT_NUMA_MAPS_H
#define TT_NUMA_MAPS_H

#include "bitmap.h"
#include "sysfs.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* The mode numbers of include/uapi/linux/mempolicy.h. */
enum tt_mpol_mode {
	TT_MPOL_DEFAULT = 0,
	TT_MPOL_PREFERRED = 1,
	TT_MPOL_BIND = 2,
	TT_MPOL_INTERLEAVE = 3,
	TT_MPOL_LOCAL = 4,
	TT_MPOL_PREFERRED_MANY = 5,
	TT_MPOL_WEIGHTED_INTERLEAVE = 6,
};

/* The kernel's name of a mode ("weighted interleave"), "?" for others. */
const char *tt_mpol_mode_name(int mode);

struct tt_nmap_vma {
	int mode;		      /* enum tt_mpol_mode */
	char flags[24];		      /* "static", "relative", ... or "" */
	struct tt_nodemask nodes;     /* the policy's nodes; empty for default, local */
	uint64_t page_bytes;	      /* kernelpagesize_kB * 1024; 4096 when absent */
	struct tt_nodemask resident;  /* nodes with an N<node>= field */
	uint64_t pages[TT_MAX_NODES]; /* N<node>= counts, in page_bytes units */
};

/* One line (without its newline). 0, or -EINVAL for a line that is not a
 * numa_maps line (unknown mode, malformed list or count). */
int tt_numa_maps_line(const char *line, struct tt_nmap_vma *out);

/* A process's interleaved memory: the VMAs whose policy is interleave or
 * weighted interleave, summed. */
struct tt_numa_maps {
	int vmas;    /* lines parsed */
	int bad;     /* lines that did not parse (skipped) */
	int il_vmas; /* interleaved VMAs */
	int mode;    /* of the interleaved VMA with most resident bytes */
	char flags[24];
	struct tt_nodemask nodes;     /* its nodes */
	bool mixed;		      /* interleaved VMAs differ in mode or nodes */
	uint64_t best_bytes;	      /* resident bytes of that VMA's policy so far */
	uint64_t bytes[TT_MAX_NODES]; /* resident bytes per node, all interleaved VMAs */
	struct tt_nodemask resident;
	uint64_t total_bytes;
};

void tt_numa_maps_init(struct tt_numa_maps *m);
/* Adds one line; a line that does not parse is counted in m->bad. */
void tt_numa_maps_add(struct tt_numa_maps *m, const char *line);
/* Reads /proc/PID/numa_maps under the root into m (initialised here).
 * TT_EUNAVAIL when the process is gone or its file cannot be read (another
 * user's, without ptrace access): callers skip those quietly. */
int tt_numa_maps_read(const struct tt_sysfs *s, pid_t pid, struct tt_numa_maps *m);
/* "weighted interleave:0-3" (with "=static" flags when set). */
int tt_numa_maps_policy(int mode, const char *flags, const struct tt_nodemask *nodes, char *buf,
			unsigned long size);

#endif
