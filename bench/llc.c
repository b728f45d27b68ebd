// SPDX-License-Identifier: GPL-3.0-or-later
/* The last-level cache the threads of a run share, and whether a run
 * measured memory or that cache (run.h). */
#include "harness.h"

#include "../core/error.h"
#include "../core/parse.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#ifdef TT_HAVE_HWLOC
#include <hwloc.h>
#endif

#define MIN_ELEMENTS (1u << 20)
#define MAX_CACHES 64 /* distinct last-level caches counted */

/* One cache of sysfs's cpuN/cache/indexM. */
struct cache {
	int level;
	uint64_t bytes;
	char shared[256]; /* shared_cpu_list: which CPUs share it */
};

static int read_index(const struct tt_sysfs *s, int cpu, const char *index, struct cache *c)
{
	const char *base = "/sys/devices/system/cpu/cpu%d/cache/%s/%s";
	char type[32], size[64];
	uint64_t level;

	if (tt_sysfs_read(s, type, sizeof(type), base, cpu, index, "type") < 0 ||
	    strcmp(type, "Instruction") == 0 ||
	    tt_sysfs_read_u64(s, &level, 1, 16, base, cpu, index, "level") < 0 ||
	    tt_sysfs_read(s, size, sizeof(size), base, cpu, index, "size") < 0 ||
	    tt_parse_size(size, 1, UINT64_C(1) << 44, &c->bytes) < 0 ||
	    tt_sysfs_read(s, c->shared, sizeof(c->shared), base, cpu, index, "shared_cpu_list") < 0)
		return -1;
	c->level = (int)level;
	return 0;
}

/* cpu's last-level cache: its cache of the highest level that holds data
 * (index3 on most x86, index2 on many Arm parts, index4 where there is an
 * L4). */
static int cpu_llc(const struct tt_sysfs *s, int cpu, struct cache *out)
{
	char **names;
	int found = -1;

	if (tt_sysfs_list(s, &names, "/sys/devices/system/cpu/cpu%d/cache", cpu) < 0)
		return -1;
	for (char **n = names; *n; n++) {
		struct cache c;

		if (strncmp(*n, "index", 5) != 0 || read_index(s, cpu, *n, &c) < 0)
			continue;
		if (found < 0 || c.level > out->level ||
		    (c.level == out->level && c.bytes > out->bytes)) {
			*out = c;
			found = 0;
		}
	}
	tt_sysfs_free_names(names);
	return found;
}

/* Each distinct last-level cache of the CPUs once, summed. */
static void from_sysfs(const struct tt_sysfs *s, const int *cpus, int ncpus, struct tt_llc *llc)
{
	struct cache seen[MAX_CACHES];
	int nseen = 0;

	for (int i = 0; i < ncpus && nseen < MAX_CACHES; i++) {
		struct cache c;
		bool dup = false;

		if (cpu_llc(s, cpus[i], &c) < 0)
			continue;
		for (int j = 0; j < nseen && !dup; j++)
			dup = seen[j].level == c.level && strcmp(seen[j].shared, c.shared) == 0;
		if (dup)
			continue;
		seen[nseen++] = c;
		llc->bytes += c.bytes;
		if (c.level > llc->level)
			llc->level = c.level;
	}
	llc->count = nseen;
	if (nseen)
		llc->from = "sysfs";
}

/* Packages (sockets) the CPUs are on, from sysfs's topology; 1 when it
 * does not say. A cache size from sysconf, CPUID or hwloc is one
 * package's. */
static int packages(const struct tt_sysfs *s, const int *cpus, int ncpus)
{
	uint64_t seen[TT_MAX_CPUS / 64] = { 0 }, id;
	int n = 0;

	for (int i = 0; i < ncpus; i++)
		if (tt_sysfs_read_u64(s, &id, 0, TT_MAX_CPUS - 1,
				      "/sys/devices/system/cpu/cpu%d/topology/physical_package_id",
				      cpus[i]) == 0 &&
		    !tt_bit_test(seen, (unsigned int)id)) {
			tt_bit_set(seen, (unsigned int)id);
			n++;
		}
	return n ? n : 1;
}

/* glibc's figures (from CPUID on x86): the highest level it knows. */
static void from_sysconf(struct tt_llc *llc)
{
	static const struct {
		int name, level;
	} levels[] = {
#ifdef _SC_LEVEL4_CACHE_SIZE /* glibc's */
		{ _SC_LEVEL4_CACHE_SIZE, 4 },
		{ _SC_LEVEL3_CACHE_SIZE, 3 },
		{ _SC_LEVEL2_CACHE_SIZE, 2 },
#else
		{ 0, 0 },
#endif
	};

	for (size_t i = 0; i < sizeof(levels) / sizeof(*levels); i++) {
		long v = levels[i].level ? sysconf(levels[i].name) : 0;

		if (v > 0) {
			llc->bytes = (uint64_t)v;
			llc->level = levels[i].level;
			llc->from = "sysconf/CPUID";
			return;
		}
	}
}

/* CPUID leaf 4 (Intel) or 0x8000001D (AMD): the unified cache of the
 * highest level, ways x partitions x line size x sets; else AMD's
 * 0x80000006. */
static void from_cpuid(struct tt_llc *llc)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, b, c, d, max = (unsigned int)__get_cpuid_max(0x80000000, NULL);
	unsigned int leaves[] = { 4, 0x8000001d };

	for (int l = 0; l < 2 && !llc->bytes; l++) {
		if (leaves[l] > 0x80000000 ? max < leaves[l]
					   : (unsigned int)__get_cpuid_max(0, NULL) < leaves[l])
			continue;
		for (unsigned int sub = 0; sub < 16; sub++) {
			__cpuid_count(leaves[l], sub, a, b, c, d);
			unsigned int type = a & 0x1f, level = (a >> 5) & 7;
			uint64_t bytes = (uint64_t)((b >> 22) + 1) * (((b >> 12) & 0x3ff) + 1) *
					 ((b & 0xfff) + 1) * ((uint64_t)c + 1);

			if (type == 0)
				break;
			if (type == 3 && (int)level >= llc->level) {
				llc->bytes = bytes;
				llc->level = (int)level;
			}
		}
	}
	/* AMD's older leaf (all a guest may get, as on the development VM):
	 * L3 in EDX[31:18] in 512 KiB units, L2 in ECX[31:16] in KiB. */
	if (!llc->bytes && max >= 0x80000006) {
		__cpuid(0x80000006, a, b, c, d);
		llc->bytes = (uint64_t)(d >> 18) << 19;
		llc->level = llc->bytes ? 3 : 2;
		if (!llc->bytes)
			llc->bytes = (uint64_t)(c >> 16) << 10;
		if (!llc->bytes)
			llc->level = 0;
	}
	if (llc->bytes)
		llc->from = "CPUID";
#else
	(void)llc;
#endif
}

/* hwloc's view (its own sysfs, device tree or CPUID reading), of the live
 * system only: each CPU's cache of the highest level that holds data,
 * each distinct one once, summed. */
static void from_hwloc(const struct tt_sysfs *s, const int *cpus, int ncpus, struct tt_llc *llc)
{
#ifdef TT_HAVE_HWLOC
	hwloc_obj_t seen[MAX_CACHES];
	hwloc_topology_t topo;
	int nseen = 0;

	if (!s->live || hwloc_topology_init(&topo) < 0)
		return;
	if (hwloc_topology_load(topo) < 0)
		ncpus = 0;
	for (int i = 0; i < ncpus && nseen < MAX_CACHES; i++) {
		hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(topo, (unsigned int)cpus[i]),
			    best = NULL;
		bool dup = false;

		for (hwloc_obj_t o = pu ? pu->parent : NULL; o; o = o->parent)
			if (hwloc_obj_type_is_cache(o->type) &&
			    o->attr->cache.type != HWLOC_OBJ_CACHE_INSTRUCTION &&
			    o->attr->cache.size &&
			    (!best || o->attr->cache.depth > best->attr->cache.depth))
				best = o;
		for (int j = 0; j < nseen && !dup; j++)
			dup = seen[j] == best;
		if (!best || dup)
			continue;
		seen[nseen++] = best;
		llc->bytes += best->attr->cache.size;
		if ((int)best->attr->cache.depth > llc->level)
			llc->level = (int)best->attr->cache.depth;
	}
	llc->count = nseen;
	if (nseen)
		llc->from = "hwloc";
	hwloc_topology_destroy(topo);
#else
	(void)s;
	(void)cpus;
	(void)ncpus;
	(void)llc;
#endif
}

int tt_bench_llc_of(const struct tt_sysfs *s, const int *cpus, int ncpus, struct tt_llc *llc)
{
	memset(llc, 0, sizeof(*llc));
	from_sysfs(s, cpus, ncpus, llc);
	if (llc->bytes)
		return 0;
	/* Under a fixture root too: the arrays are always this machine's,
	 * whatever topology they are placed by. */
	from_sysconf(llc);
	if (!llc->bytes)
		from_cpuid(llc);
	if (llc->bytes) {
		/* One package's cache, and the threads may span several. */
		llc->count = packages(s, cpus, ncpus);
		llc->bytes *= (uint64_t)llc->count;
		return 0;
	}
	from_hwloc(s, cpus, ncpus, llc);
	if (llc->bytes)
		return 0;
	llc->from = "none in sysfs cpu*/cache, sysconf, CPUID or hwloc";
	return -1;
}

int tt_bench_llc(const struct tt_sysfs *s, struct tt_llc *llc)
{
	int cpus[TT_MAX_CPUS], n = 0;

	while (n < TT_MAX_CPUS && tt_sysfs_exists(s, "/sys/devices/system/cpu/cpu%d", n)) {
		cpus[n] = n;
		n++;
	}
	return tt_bench_llc_of(s, cpus, n, llc);
}

size_t tt_bench_default_bytes(const struct tt_llc *llc, char *rule, size_t size)
{
	if (!llc->bytes) {
		snprintf(rule, size, "1M elements (STREAM's minimum; last-level cache unknown: %s)",
			 llc->from);
		return (size_t)MIN_ELEMENTS * sizeof(double);
	}
	if (llc->bytes * TT_LLC_FACTOR > (uint64_t)MIN_ELEMENTS * sizeof(double)) {
		snprintf(rule, size, "STREAM's rule: 4x the L%d cache of %.1f MiB, from %s",
			 llc->level, (double)llc->bytes / (1 << 20), llc->from);
		return llc->bytes * TT_LLC_FACTOR;
	}
	snprintf(rule, size, "1M elements (STREAM's minimum; larger than 4x the L%d %.1f MiB)",
		 llc->level, (double)llc->bytes / (1 << 20));
	return (size_t)MIN_ELEMENTS * sizeof(double);
}

bool tt_bench_curve_check(const struct tt_loaded_point *pts, int n, double idle_ns, char *why,
			  size_t size)
{
	int order[TT_MAX_DELAYS], m = 0;

	/* By delay, most load first: latency may only fall from there. */
	for (int i = 0; i < n && m < TT_MAX_DELAYS; i++) {
		int k = m++;

		while (k > 0 && pts[order[k - 1]].delay > pts[i].delay) {
			order[k] = order[k - 1];
			k--;
		}
		order[k] = i;
	}
	/* Points under the chase alone first, all of them: a loaded chase is
	 * never faster than an idle one, so such points say the idle point
	 * itself was slowed, and the curve has no floor to be read against.
	 * Reported after a non-monotone point they went unnamed (issue 44). */
	int under = 0;
	const struct tt_loaded_point *lowest = NULL;

	for (int k = 0; k < m; k++) {
		const struct tt_loaded_point *p = &pts[order[k]];

		if (!isfinite(p->lat_ns) || p->lat_ns <= 0) {
			snprintf(why, size, "no load completed at delay %ju", (uintmax_t)p->delay);
			return false;
		}
		if (idle_ns > 0 && p->lat_ns < idle_ns * (1 - TT_CURVE_NOISE)) {
			under++;
			if (!lowest || p->lat_ns < lowest->lat_ns)
				lowest = p;
		}
	}
	if (under) {
		snprintf(why, size,
			 "%d of %d points under the idle latency (%.1f ns) by more than %.0f%%, "
			 "the lowest %.1f ns at delay %ju: the chase alone was slowed",
			 under, m, idle_ns, TT_CURVE_NOISE * 100, lowest->lat_ns,
			 (uintmax_t)lowest->delay);
		return false;
	}
	for (int k = 0; k < m; k++) {
		const struct tt_loaded_point *p = &pts[order[k]], *low = NULL;

		for (int i = 0; i < k; i++)
			if (!low || pts[order[i]].lat_ns < low->lat_ns)
				low = &pts[order[i]];
		if (low && p->lat_ns > low->lat_ns * (1 + TT_CURVE_NOISE)) {
			snprintf(why, size,
				 "not monotone: %.1f ns at delay %ju is %.0f%% above the %.1f ns "
				 "at delay %ju, under more load",
				 p->lat_ns, (uintmax_t)p->delay,
				 (p->lat_ns / low->lat_ns - 1) * 100, low->lat_ns,
				 (uintmax_t)low->delay);
			return false;
		}
	}
	if (why && size)
		why[0] = '\0';
	return true;
}

void tt_bench_judge(struct tt_bench_result *r, double tick_s)
{
	size_t touched = r->touched_bytes ? r->touched_bytes : r->array_bytes;

	r->tick_s = tick_s;
	/* STREAM's rule on each array (the latency chain is one). Under it a
	 * share of the accesses may hit the cache; only a working set the
	 * cache can hold whole is served from it (issue 34: 3 GiB touched per
	 * pass with a 300 MiB L3 was called cache-resident). */
	r->below_rule = r->llc.bytes && r->array_bytes < TT_LLC_FACTOR * r->llc.bytes;
	/* A chase (idle latency, or a curve's chase alone) that took memory's
	 * time was not served from the cache. */
	double chase_ns = r->loads ? r->lat_median_ns : r->idle_lat_ns;

	r->cache_resident = r->llc.bytes && touched <= r->llc.bytes && chase_ns < TT_CACHE_LAT_NS;
	r->unstable = false;
	r->unstable_why[0] = '\0';
	if (r->npoints)
		r->unstable = !tt_bench_curve_check(r->points, r->npoints, r->idle_lat_ns,
						    r->unstable_why, sizeof(r->unstable_why));
	else if (r->best_s > 0 && r->median_s > r->best_s * (1 + TT_SPREAD_MAX)) {
		r->unstable = true;
		snprintf(r->unstable_why, sizeof(r->unstable_why),
			 "the median pass took %.0f%% longer than the best (more than %.0f%%)",
			 (r->median_s / r->best_s - 1) * 100, TT_SPREAD_MAX * 100);
	}
	r->descheduled = tt_ran_judge(&r->ran, r->descheduled_why, sizeof(r->descheduled_why));
	/* The shortest pass: the one the best figure comes from. A curve's
	 * points run for a set time, not passes. */
	r->short_pass = r->best_s > 0 && r->best_s < TT_MIN_TICKS * tick_s;
}

static const struct {
	const char *json, *word;
} judgements[TT_JUDGEMENTS] = {
	[TT_JUDGED_NOT_VALIDATED] = { "not_validated", "NOT VALIDATED" },
	[TT_JUDGED_CACHE_RESIDENT] = { "cache_resident", "cache-resident" },
	[TT_JUDGED_BELOW_RULE] = { "below_llc_rule", "below 4x rule" },
	[TT_JUDGED_SHORT_PASS] = { "short_pass", "too short" },
	[TT_JUDGED_DESCHEDULED] = { "descheduled", "descheduled" },
	[TT_JUDGED_UNSTABLE] = { "unstable", "unstable" },
};

const char *tt_judged_json(enum tt_judgement j)
{
	return (unsigned int)j < TT_JUDGEMENTS ? judgements[j].json : "";
}

const char *tt_judged_word(enum tt_judgement j)
{
	return (unsigned int)j < TT_JUDGEMENTS ? judgements[j].word : "";
}

unsigned int tt_judged(const struct tt_judging *v)
{
	bool failed[TT_JUDGEMENTS] = {
		[TT_JUDGED_NOT_VALIDATED] = !v->validated,
		[TT_JUDGED_CACHE_RESIDENT] = v->cache_resident,
		[TT_JUDGED_BELOW_RULE] = v->below_rule && !v->cache_resident,
		[TT_JUDGED_SHORT_PASS] = v->short_pass,
		[TT_JUDGED_DESCHEDULED] = v->descheduled,
		[TT_JUDGED_UNSTABLE] = v->unstable,
	};
	unsigned int fails = 0;

	for (int j = 0; j < TT_JUDGEMENTS; j++)
		if (failed[j])
			fails |= 1u << j;
	return fails;
}

unsigned int tt_bench_judged(const struct tt_bench_result *r)
{
	return tt_judged(&(struct tt_judging){ .validated = r->validated,
					       .cache_resident = r->cache_resident,
					       .below_rule = r->below_rule,
					       .short_pass = r->short_pass,
					       .descheduled = r->descheduled,
					       .unstable = r->unstable });
}

unsigned int tt_matrix_judged(const struct tt_matrix *m)
{
	/* Each of its runs' output was checked, or the matrix failed. */
	return tt_judged(&(struct tt_judging){ .validated = true,
					       .cache_resident = m->cache_resident,
					       .below_rule = m->below_rule,
					       .short_pass = m->short_pass,
					       .descheduled = m->descheduled,
					       .unstable = m->unstable });
}

void tt_judged_text(unsigned int fails, char *buf, size_t size)
{
	size_t at = 0;

	snprintf(buf, size, "valid");
	for (int j = 0; j < TT_JUDGEMENTS && at < size; j++)
		if (fails & 1u << j)
			at += (size_t)snprintf(buf + at, size - at, "%s%s", at ? ", " : "",
					       judgements[j].word);
}
