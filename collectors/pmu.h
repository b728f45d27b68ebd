/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * perf PMUs as sysfs describes them (Documentation/ABI/testing/
 * sysfs-bus-event_source-devices-*): an event string from events/<name>
 * ("event=0x05,umask=0xcf"), the bit layout of each of its terms from
 * format/<term> ("config:8-15", "config1:0-3,8-11"), .scale and .unit
 * beside the event, type, and cpumask (the CPU to open an uncore event
 * on). Pure parsing and encoding, tested on fixture trees of real PMUs.
 */
#ifndef TT_PMU_H
#define TT_PMU_H

#include "../core/sysfs.h"
#include "../core/topo.h"

#include <stdint.h>

struct tt_pmu_format {
	int word; /* 0 config, 1 config1, 2 config2 */
	int nranges;
	struct {
		int lo, hi;
	} r[8]; /* bit ranges, low bits of the value first */
};

/* "config:0-7", "config1:0-3,8-11", "config2:5". */
int tt_pmu_parse_format(const char *text, struct tt_pmu_format *f);
/* Puts value's bits into the format's ranges; -ERANGE when value does not
 * fit in the field. */
int tt_pmu_put(const struct tt_pmu_format *f, uint64_t value, uint64_t config[3]);

/* Encodes an event string with the PMU's format/ files; "config=",
 * "config1=", "config2=" set words directly (CXL PMU events read so), and a
 * term without "=" means 1. TT_EINPUT naming the PMU, term and file. */
int tt_pmu_encode(const struct tt_sysfs *s, const char *pmu, const char *spec, uint64_t config[3]);

struct tt_pmu_event {
	char pmu[64];
	char name[64];
	uint32_t type;
	uint64_t config[3];
	double scale;  /* .scale, 1 when absent */
	char unit[16]; /* .unit, "" when absent */
	double bytes;  /* bytes per count: scale x unit, or the caller's default */
	int cpu;       /* first CPU of cpumask, -1 when none */
	int node;      /* NUMA node the box serves, -1 when unknown */
};

/* Loads events/<name> (or spec when not NULL: PMUs without named events,
 * like AMD's UMC), scale, unit, type, cpumask and the box's node.
 * bytes_per_count is used when the event has no byte unit. */
int tt_pmu_event_load(const struct tt_sysfs *s, const struct tt_topo *t, const char *pmu,
		      const char *name, const char *spec, double bytes_per_count,
		      struct tt_pmu_event *ev);

/* The NUMA node whose memory a PMU counts: an uncore box serves its
 * socket's node (the node of its cpumask CPU that has memory); a CXL PMU
 * of memX the node that memX's region was onlined as. -1 when unknown. */
int tt_pmu_node(const struct tt_sysfs *s, const struct tt_topo *t, const char *pmu, int cpu);

#endif
