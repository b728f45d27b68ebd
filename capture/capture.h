/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A copy of what tiertune reads of a machine, as a tree that --sysfs-root
 * reads back (and hwloc, with HWLOC_FSROOT): for a bug report, or to run
 * what-if searches of one's own machine elsewhere. As hwloc-gather-topology
 * does for hwloc, but only the files tiertune and hwloc read:
 *
 *	/proc: cpuinfo, meminfo, vmstat, sys/kernel/{hostname,osrelease,
 *	    numa_balancing,perf_event_paranoid}
 *	/sys/devices/system/node: nodes, their CPUs, distances, HMAT access
 *	    classes (with the initiator links), meminfo, vmstat, numastat
 *	    (not the memory blocks: thousands on a large machine, unread)
 *	/sys/devices/system/cpu: online CPUs, each one's topology and caches
 *	/sys/devices/virtual/memory_tiering, /sys/kernel/mm/mempolicy,
 *	    /sys/kernel/mm/numa: tiers, weights, auto mode, demotion
 *	/sys/bus/event_source/devices: each PMU's type, cpumask, formats, events
 *	/sys/bus/cxl/devices: regions, their targets and dax devices' nodes
 *	/sys/bus/cpu/devices, /sys/bus/node/devices: the links hwloc looks for
 *	/sys/fs/resctrl: info and mon_data (not the groups' tasks)
 *
 * Nothing else: no process, no boot id, no serial number, no DMI table.
 * Every source file is opened beneath the root through tt_sysfs_open, never
 * through a link: a bus's entries (links into /sys/devices on a live
 * machine) are resolved by their text and copied at the place they name,
 * beneath the root, with the link beside them; any other relative link is
 * kept when what it names is in the copy, and no kept link leads out of
 * it. A file the kernel will not let this user read is left out and
 * counted (unreadable); an entry that is not what sysfs holds (a link out
 * of the root, a FIFO, a file over TT_CAPTURE_MAX_FILE) is left out and
 * counted (refused). A tree of more than TT_CAPTURE_MAX_ENTRIES entries is
 * not a machine's sysfs: refused whole.
 *
 * The tree is made under a temporary name beside dest and renamed into
 * place whole, with the caller's files (a model of the machine,
 * model/model-write.h) at its top; dest must not exist.
 *
 *	struct tt_capture_stats st;
 *	struct tt_capture_file extra[] = { { "model.json", text }, { NULL, NULL } };
 *	rc = tt_capture(&sfs, "capture-dir", "anonymous", "tiertune 0.2.0", extra, &st);
 */
#ifndef TT_CAPTURE_H
#define TT_CAPTURE_H

#include "../core/sysfs.h"

/* A sysfs attribute is at most a page; /proc/cpuinfo of a machine with
 * thousands of CPUs runs to a few megabytes. */
#define TT_CAPTURE_MAX_FILE (16u << 20)
/* A 1024-CPU machine's CPUs, caches and nodes are some 70 000. */
#define TT_CAPTURE_MAX_ENTRIES 500000

struct tt_capture_stats {
	int files;	 /* regular files copied */
	int links;	 /* symbolic links kept (those whose target is in the copy) */
	int unreadable;	 /* files the kernel would not let this user read */
	int refused;	 /* links out of the root, FIFOs, files too large */
	long long bytes; /* bytes copied */
};

/* A file of the caller's, written at the top of the tree before it is
 * renamed into place: a name without '/', and its text. */
struct tt_capture_file {
	const char *name;
	const char *text;
};

/* Copies s's machine into dest, with extra (ended by a NULL name; or
 * NULL) at its top. hostname, when not NULL, replaces the
 * host's name (proc/sys/kernel/hostname) and the SOURCE note names no
 * path; by names the tool in the SOURCE note at the top of the tree.
 * TT_EINPUT when dest exists or cannot be made, or the tree is too large;
 * TT_EUNAVAIL when s has no /sys/devices/system/node. */
int tt_capture(const struct tt_sysfs *s, const char *dest, const char *hostname, const char *by,
	       const struct tt_capture_file *extra, struct tt_capture_stats *st);

/* Removes a tree this process made (a capture, or a folder holding one),
 * never following a link: a failed capture's, a packed one's. */
void tt_capture_remove(const char *dir);

#endif
