// SPDX-License-Identifier: GPL-3.0-or-later
#include "pmu.h"

#include "../core/error.h"
#include "../core/parse.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PMU_DIR "/sys/bus/event_source/devices"

int tt_pmu_parse_format(const char *text, struct tt_pmu_format *f)
{
	const char *p;
	uint64_t lo, hi;

	memset(f, 0, sizeof(*f));
	if (strncmp(text, "config", 6) != 0)
		return -EINVAL;
	p = text + 6;
	if (*p == '1' || *p == '2')
		f->word = *p++ - '0';
	if (*p++ != ':')
		return -EINVAL;
	for (;;) {
		if (f->nranges == 8 || tt_parse_u64_prefix(p, 0, 63, &lo, &p))
			return -EINVAL;
		hi = lo;
		if (*p == '-' && (tt_parse_u64_prefix(p + 1, lo, 63, &hi, &p)))
			return -EINVAL;
		f->r[f->nranges].lo = (int)lo;
		f->r[f->nranges].hi = (int)hi;
		f->nranges++;
		if (*p == '\0')
			return 0;
		if (*p++ != ',')
			return -EINVAL;
	}
}

int tt_pmu_put(const struct tt_pmu_format *f, uint64_t value, uint64_t config[3])
{
	int used = 0;

	for (int i = 0; i < f->nranges; i++) {
		int width = f->r[i].hi - f->r[i].lo + 1;
		uint64_t mask = width == 64 ? ~UINT64_C(0) : (UINT64_C(1) << width) - 1;

		config[f->word] |= ((used < 64 ? value >> used : 0) & mask) << f->r[i].lo;
		used += width;
	}
	if (used < 64 && (value >> used))
		return -ERANGE;
	return 0;
}

int tt_pmu_encode(const struct tt_sysfs *s, const char *pmu, const char *spec, uint64_t config[3])
{
	char buf[512], *save = NULL, fmt[128];

	config[0] = config[1] = config[2] = 0;
	if (snprintf(buf, sizeof(buf), "%s", spec) >= (int)sizeof(buf) || !*spec)
		return tt_err(TT_EINPUT, "event '%.64s' of PMU %s is empty or too long", spec, pmu);
	for (char *term = strtok_r(buf, ",", &save); term; term = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(term, '=');
		uint64_t value = 1;
		struct tt_pmu_format f;
		int rc;

		if (eq) {
			*eq = '\0';
			errno = 0;
			char *end;
			value = strtoull(eq + 1, &end, 0);
			if (errno || end == eq + 1 || *end || eq[1] == '-')
				return tt_err(TT_EINPUT,
					      "PMU %s event '%s': term '%s' has value '%s', not a "
					      "number",
					      pmu, spec, term, eq + 1);
		}
		if (strcmp(term, "config") == 0 || strcmp(term, "config1") == 0 ||
		    strcmp(term, "config2") == 0) {
			config[term[6] ? term[6] - '0' : 0] |= value;
			continue;
		}
		rc = tt_sysfs_read(s, fmt, sizeof(fmt), PMU_DIR "/%s/format/%s", pmu, term);
		if (rc == TT_EUNAVAIL)
			return tt_err(TT_EINPUT, "PMU %s event '%s': term '%s' has no format file",
				      pmu, spec, term);
		if (rc < 0)
			return rc;
		if (tt_pmu_parse_format(fmt, &f))
			return tt_err(TT_EINPUT,
				      "'%s%s/%s/format/%s' holds '%s', not 'config[12]:lo-hi'",
				      s->root, PMU_DIR, pmu, term, fmt);
		if (tt_pmu_put(&f, value, config))
			return tt_err(TT_EINPUT, "PMU %s event '%s': %s=%#jx does not fit '%s'",
				      pmu, spec, term, (uintmax_t)value, fmt);
	}
	return 0;
}

static double unit_bytes(const char *unit)
{
	static const struct {
		const char *unit;
		double bytes;
	} units[] = { { "B", 1 },      { "Bytes", 1 },	   { "bytes", 1 },
		      { "KiB", 1024 }, { "MiB", 1048576 }, { "GiB", 1073741824 },
		      { "KB", 1e3 },   { "MB", 1e6 },	   { "GB", 1e9 } };

	for (size_t i = 0; i < sizeof(units) / sizeof(*units); i++)
		if (strcmp(unit, units[i].unit) == 0)
			return units[i].bytes;
	return 0;
}

static int node_of_cpu(const struct tt_topo *t, int cpu)
{
	for (int i = 0; i < t->nnodes; i++)
		for (int k = 0; k < t->nodes[i].ncpus; k++)
			if (t->nodes[i].cpus[k] == cpu)
				return t->nodes[i].id;
	return -1;
}

/* CXL: memX's endpoint decoders are targets of a region, and the region's
 * device-dax instance names the node its memory was onlined as
 * (Documentation/ABI/testing/sysfs-bus-cxl regionZ/target[0..N];
 * sysfs-bus-dax daxX.Y/target_node). */
static int cxl_node(const struct tt_sysfs *s, int mem)
{
	char **regions = NULL, dec[64];
	int node = -1;

	if (tt_sysfs_list(s, &regions, "/sys/bus/cxl/devices") < 0)
		return -1;
	for (char **r = regions; *r && node < 0; r++) {
		unsigned int z;

		if (sscanf(*r, "region%u", &z) != 1)
			continue;
		for (int k = 0; k < 16 && node < 0; k++) {
			unsigned int port, id;
			uint64_t v;

			if (tt_sysfs_read(s, dec, sizeof(dec), "/sys/bus/cxl/devices/%s/target%d",
					  *r, k) < 0)
				break;
			if (sscanf(dec, "decoder%u.%u", &port, &id) != 2 ||
			    !tt_sysfs_exists(s, "/sys/bus/cxl/devices/mem%d/endpoint%u/%s", mem,
					     port, dec))
				continue;
			if (tt_sysfs_read_u64(
				    s, &v, 0, TT_MAX_NODES - 1,
				    "/sys/bus/cxl/devices/%s/dax_region%u/dax%u.0/target_node", *r,
				    z, z) == 0)
				node = (int)v;
		}
	}
	tt_sysfs_free_names(regions);
	return node;
}

int tt_pmu_node(const struct tt_sysfs *s, const struct tt_topo *t, const char *pmu, int cpu)
{
	int mem, sub, node;

	if (sscanf(pmu, "cxl_pmu_mem%d.%d", &mem, &sub) == 2)
		return cxl_node(s, mem);
	node = cpu >= 0 ? node_of_cpu(t, cpu) : -1;
	/* Sub-NUMA clustering splits a socket into several nodes; the box's
	 * CPU then names one of them, which is the closest we know. */
	return node;
}

int tt_pmu_event_load(const struct tt_sysfs *s, const struct tt_topo *t, const char *pmu,
		      const char *name, const char *spec, double bytes_per_count,
		      struct tt_pmu_event *ev)
{
	char text[512], list[256];
	uint64_t type;
	int rc;

	memset(ev, 0, sizeof(*ev));
	snprintf(ev->pmu, sizeof(ev->pmu), "%s", pmu);
	snprintf(ev->name, sizeof(ev->name), "%s", name);
	rc = tt_sysfs_read_u64(s, &type, 0, UINT32_MAX, PMU_DIR "/%s/type", pmu);
	if (rc < 0)
		return rc;
	ev->type = (uint32_t)type;
	if (!spec) {
		rc = tt_sysfs_read(s, text, sizeof(text), PMU_DIR "/%s/events/%s", pmu, name);
		if (rc < 0)
			return rc;
		spec = text;
	}
	rc = tt_pmu_encode(s, pmu, spec, ev->config);
	if (rc < 0)
		return rc;
	ev->scale = 1;
	if (tt_sysfs_read(s, list, sizeof(list), PMU_DIR "/%s/events/%s.scale", pmu, name) >= 0) {
		char *end;

		ev->scale = strtod(list, &end);
		if (end == list || *end || !isfinite(ev->scale) || ev->scale <= 0)
			return tt_err(TT_EINPUT,
				      "'%s%s/%s/events/%s.scale' holds '%s', not a scale", s->root,
				      PMU_DIR, pmu, name, list);
	}
	if (tt_sysfs_read(s, ev->unit, sizeof(ev->unit), PMU_DIR "/%s/events/%s.unit", pmu, name) <
	    0)
		ev->unit[0] = '\0';
	ev->bytes = unit_bytes(ev->unit) ? ev->scale * unit_bytes(ev->unit)
					 : ev->scale * bytes_per_count;
	ev->cpu = -1;
	if (tt_sysfs_read(s, list, sizeof(list), PMU_DIR "/%s/cpumask", pmu) >= 0) {
		uint64_t bits[TT_MAX_CPUS / 64];

		if (tt_parse_list(list, bits, TT_MAX_CPUS))
			return tt_err(TT_EINPUT, "'%s%s/%s/cpumask' holds '%s', not a CPU list",
				      s->root, PMU_DIR, pmu, list);
		for (int c = 0; c < TT_MAX_CPUS && ev->cpu < 0; c++)
			if (tt_bit_test(bits, (unsigned int)c))
				ev->cpu = c;
	}
	ev->node = tt_pmu_node(s, t, pmu, ev->cpu);
	return 0;
}
