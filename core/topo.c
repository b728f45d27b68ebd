// SPDX-License-Identifier: GPL-3.0-or-later
#include "topo.h"

#include "error.h"
#include "parse.h"

#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static int meminfo_kv(const char *key, uint64_t value, void *ctx)
{
	struct tt_node *n = ctx;

	if (strcmp(key, "MemTotal") == 0)
		n->mem_total_bytes = value;
	else if (strcmp(key, "MemFree") == 0)
		n->mem_free_bytes = value;
	return 0;
}

static int load_hmat(const struct tt_sysfs *s, struct tt_node *n, int cls)
{
	static const char *const files[] = { "read_bandwidth", "write_bandwidth", "read_latency",
					     "write_latency" };
	struct tt_hmat *h = &n->access[cls];
	uint64_t *dst[] = { &h->read_bw_mb_s, &h->write_bw_mb_s, &h->read_lat_ns,
			    &h->write_lat_ns };

	/* HMAT is optional (no ACPI HMAT, or CONFIG_ACPI_HMAT unset); a class
	 * that exists must be complete, though a value of 0 means "no data". */
	if (!tt_sysfs_exists(s, "/sys/devices/system/node/node%d/access%d/initiators", n->id, cls))
		return 0;
	for (int i = 0; i < 4; i++) {
		int rc = tt_sysfs_read_u64(s, dst[i], 0, UINT32_MAX,
					   "/sys/devices/system/node/node%d/access%d/initiators/%s",
					   n->id, cls, files[i]);
		if (rc == TT_EUNAVAIL)
			continue; /* the kernel only creates attributes it has data for */
		if (rc < 0)
			return rc;
	}
	/* The nodeM symlinks name the initiators. */
	char **names = NULL;
	int rc = tt_sysfs_list(s, &names, "/sys/devices/system/node/node%d/access%d/initiators",
			       n->id, cls);

	if (rc < 0)
		return rc;
	for (char **p = names; *p; p++) {
		uint64_t id;

		if (strncmp(*p, "node", 4) == 0 &&
		    tt_parse_u64(*p + 4, 0, TT_MAX_NODES - 1, &id) == 0)
			tt_bit_set(h->initiators.bits, (unsigned int)id);
	}
	tt_sysfs_free_names(names);
	h->present = true;
	return 0;
}

static int load_node(const struct tt_sysfs *s, struct tt_topo *t, struct tt_node *n)
{
	uint64_t cpus[TT_MAX_CPUS / 64];
	char buf[8192], *save = NULL, *tok;
	int rc, i = 0;

	n->has_cpu = tt_nodemask_test(&t->cpu_nodes, n->id);
	n->has_memory = tt_nodemask_test(&t->mem_nodes, n->id);
	n->tier = -1;

	rc = tt_sysfs_read_list(s, cpus, TT_MAX_CPUS, "/sys/devices/system/node/node%d/cpulist",
				n->id);
	if (rc < 0)
		return rc;
	n->ncpus = (int)tt_bit_count(cpus, TT_MAX_CPUS);
	n->cpus = calloc((size_t)n->ncpus + 1, sizeof(*n->cpus));
	if (!n->cpus)
		return tt_err(TT_EFAIL, "out of memory");
	for (unsigned int c = tt_bit_next(cpus, TT_MAX_CPUS, 0); c < TT_MAX_CPUS;
	     c = tt_bit_next(cpus, TT_MAX_CPUS, c + 1))
		n->cpus[i++] = (int)c;

	rc = tt_sysfs_read(s, buf, sizeof(buf), "/sys/devices/system/node/node%d/meminfo", n->id);
	if (rc < 0)
		return rc;
	if (tt_parse_kv(buf, meminfo_kv, n))
		return tt_err(TT_EINPUT, "malformed '%s/sys/devices/system/node/node%d/meminfo'",
			      s->root, n->id);

	rc = tt_sysfs_read(s, buf, sizeof(buf), "/sys/devices/system/node/node%d/distance", n->id);
	if (rc < 0)
		return rc;
	n->distance = calloc((size_t)t->nnodes, sizeof(*n->distance));
	if (!n->distance)
		return tt_err(TT_EFAIL, "out of memory");
	i = 0;
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		uint64_t d;

		if (i == t->nnodes || tt_parse_u64(tok, 0, 255, &d))
			return tt_err(
				TT_EINPUT,
				"malformed distance '%s' in '%s/sys/devices/system/node/node%d/"
				"distance' (want %d numbers 0-255)",
				tok, s->root, n->id, t->nnodes);
		n->distance[i++] = (int)d;
	}
	if (i != t->nnodes)
		return tt_err(
			TT_EINPUT,
			"'%s/sys/devices/system/node/node%d/distance' has %d distances for %d "
			"online nodes",
			s->root, n->id, i, t->nnodes);
	for (int cls = 0; cls < 2; cls++) {
		rc = load_hmat(s, n, cls);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int load_tiers(const struct tt_sysfs *s, struct tt_topo *t)
{
	char **names = NULL;
	int rc, cap = 0;

	rc = tt_sysfs_list(s, &names, "/sys/devices/virtual/memory_tiering");
	if (rc == TT_EUNAVAIL)
		return 0; /* kernels before 6.1, or CONFIG_NUMA without tiering */
	if (rc < 0)
		return rc;
	for (char **p = names; *p; p++)
		cap += strncmp(*p, "memory_tier", 11) == 0;
	t->tiers = calloc((size_t)cap + 1, sizeof(*t->tiers));
	if (!t->tiers) {
		rc = tt_err(TT_EFAIL, "out of memory");
		goto out;
	}
	for (char **p = names; *p; p++) {
		struct tt_tier *tier = &t->tiers[t->ntiers];
		uint64_t id;
		int node;

		if (strncmp(*p, "memory_tier", 11) != 0)
			continue;
		if (tt_parse_u64(*p + 11, 0, INT32_MAX, &id)) {
			rc = tt_err(TT_EINPUT,
				    "unexpected tier '%s' in '%s/sys/devices/virtual/"
				    "memory_tiering'",
				    *p, s->root);
			goto out;
		}
		tier->id = (int)id;
		rc = tt_sysfs_read_list(s, tier->nodes.bits, TT_MAX_NODES,
					"/sys/devices/virtual/memory_tiering/%s/nodelist", *p);
		if (rc < 0)
			goto out;
		tt_nodemask_for_each (node, &tier->nodes) {
			for (int i = 0; i < t->nnodes; i++)
				if (t->nodes[i].id == node)
					t->nodes[i].tier = tier->id;
		}
		t->ntiers++;
	}
	/* Directory order is by name, so "memory_tier22" sorts before "memory_tier4". */
	for (int i = 1; i < t->ntiers; i++)
		for (int j = i; j > 0 && t->tiers[j - 1].id > t->tiers[j].id; j--) {
			struct tt_tier tmp = t->tiers[j];

			t->tiers[j] = t->tiers[j - 1];
			t->tiers[j - 1] = tmp;
		}
	rc = 0;
out:
	tt_sysfs_free_names(names);
	return rc;
}

static int load_pmus(const struct tt_sysfs *s, struct tt_topo *t)
{
	char **names = NULL;
	int rc, n = 0;

	rc = tt_sysfs_list(s, &names, "/sys/bus/event_source/devices");
	if (rc == TT_EUNAVAIL)
		return 0; /* no perf_events in this kernel, or a fixture without PMUs */
	if (rc < 0)
		return rc;
	for (char **p = names; *p; p++)
		n++;
	t->pmus = calloc((size_t)n + 1, sizeof(*t->pmus));
	if (!t->pmus) {
		rc = tt_err(TT_EFAIL, "out of memory");
		goto out;
	}
	for (char **p = names; *p; p++) {
		struct tt_pmu *pmu = &t->pmus[t->npmus];
		uint64_t type;

		if (strlen(*p) >= sizeof(pmu->name))
			continue;
		rc = tt_sysfs_read_u64(s, &type, 0, INT32_MAX,
				       "/sys/bus/event_source/devices/%s/type", *p);
		if (rc < 0)
			goto out;
		strcpy(pmu->name, *p);
		pmu->type = (int)type;
		t->npmus++;
	}
	rc = 0;
out:
	tt_sysfs_free_names(names);
	return rc;
}

static void load_cpu_model(const struct tt_sysfs *s, struct tt_topo *t)
{
	const size_t size = 1 << 20;
	char *buf = malloc(size);
	const char *p;

	/* Only the first "model name" matters for the fingerprint; cpuinfo of a
	 * large machine is hundreds of KiB, and a missing file is no error. */
	if (!buf || tt_sysfs_read(s, buf, size, "/proc/cpuinfo") < 0)
		goto out;
	p = strstr(buf, "model name");
	if (!p || !(p = strchr(p, ':')))
		goto out;
	p++;
	while (*p == ' ' || *p == '\t')
		p++;
	size_t len = strcspn(p, "\n");
	if (len >= sizeof(t->cpu_model))
		len = sizeof(t->cpu_model) - 1;
	memcpy(t->cpu_model, p, len);
	t->cpu_model[len] = '\0';
out:
	free(buf);
}

#define MASK_WORDS (sizeof(((struct tt_nodemask *)0)->bits) / sizeof(uint64_t))

/* node_distance() as the kernel has it: SLIT by position in nodes[]. */
static int distance(const struct tt_topo *t, const struct tt_node *from, int to)
{
	for (int i = 0; i < t->nnodes; i++)
		if (t->nodes[i].id == to)
			return from->distance[i];
	return INT_MAX / 4;
}

/* mm/page_alloc.c find_next_best_node(): the memory node not yet in used
 * with the lowest distance, penalised by one for a node below this one and
 * by one for a node with CPUs, scaled by MAX_NUMNODES before node_load[]
 * is added. node_load[] is left from building the zonelists at boot; it
 * breaks ties only, and we take it as 0, so ties go to the lower id. */
static int next_best_node(const struct tt_topo *t, const struct tt_node *from,
			  struct tt_nodemask *used)
{
	int best = -1;
	long best_val = LONG_MAX;

	if (!tt_nodemask_test(used, from->id)) {
		tt_bit_set(used->bits, (unsigned int)from->id);
		return from->id;
	}
	for (int i = 0; i < t->nnodes; i++) {
		const struct tt_node *n = &t->nodes[i];
		long val;

		if (!n->has_memory || tt_nodemask_test(used, n->id))
			continue;
		val = distance(t, from, n->id) + (n->id < from->id) + (n->ncpus > 0);
		val *= TT_MAX_NODES;
		if (val < best_val) {
			best_val = val;
			best = n->id;
		}
	}
	if (best >= 0)
		tt_bit_set(used->bits, (unsigned int)best);
	return best;
}

/* mm/memory-tiers.c establish_demotion_targets(): for each memory node not
 * in the last tier, the next lower tier's nodes in find_next_best_node
 * order, kept while their distance equals the first's; allowed is every
 * memory node of the tiers below (lower_tier_mask). */
static void load_demotion(struct tt_topo *t)
{
	for (int i = 0; i < t->nnodes; i++) {
		struct tt_node *n = &t->nodes[i];
		const struct tt_tier *tier = n->has_memory ? tt_topo_tier(t, n->tier) : NULL;
		int k = tier ? (int)(tier - t->tiers) : -1, target, best = -1;
		struct tt_nodemask used = t->mem_nodes;

		if (!tier || k + 1 >= t->ntiers)
			continue;
		for (int j = k + 1; j < t->ntiers; j++)
			for (size_t w = 0; w < MASK_WORDS; w++)
				n->demote_allowed.bits[w] |=
					t->tiers[j].nodes.bits[w] & t->mem_nodes.bits[w];
		/* Only the next tier's nodes are left out of used. */
		for (size_t w = 0; w < MASK_WORDS; w++)
			used.bits[w] &= ~t->tiers[k + 1].nodes.bits[w];
		while ((target = next_best_node(t, n, &used)) >= 0) {
			int d = distance(t, n, target);

			if (best != -1 && d != best)
				break;
			best = d;
			tt_bit_set(n->demote_preferred.bits, (unsigned int)target);
		}
	}
}

/* Demotion and NUMA balancing: absent files (kernels before 5.15/6.1,
 * !CONFIG_NUMA_BALANCING) are -1; a garbled one is an error naming it. */
static int load_movement(const struct tt_sysfs *s, struct tt_topo *t)
{
	char buf[32];
	uint64_t v;
	int rc;

	t->demotion_enabled = t->numa_balancing = -1;
	rc = tt_sysfs_read(s, buf, sizeof(buf), "/sys/kernel/mm/numa/demotion_enabled");
	if (rc >= 0) {
		if (strcmp(buf, "true") == 0 || strcmp(buf, "1") == 0)
			t->demotion_enabled = 1;
		else if (strcmp(buf, "false") == 0 || strcmp(buf, "0") == 0)
			t->demotion_enabled = 0;
		else
			return tt_err(TT_EINPUT,
				      "'%s/sys/kernel/mm/numa/demotion_enabled' holds '%s', "
				      "not true or false",
				      s->root, buf);
	} else if (rc != TT_EUNAVAIL) {
		return rc;
	}
	rc = tt_sysfs_read_u64(s, &v, 0, 3, "/proc/sys/kernel/numa_balancing");
	if (rc == 0)
		t->numa_balancing = (int)v;
	return rc == TT_EUNAVAIL ? 0 : rc;
}

const char *tt_numa_balancing_name(int mode)
{
	static const char *const names[] = { "off", "normal", "memory tiering",
					     "normal and memory tiering" };

	return mode >= 0 && mode <= 3 ? names[mode] : "unknown";
}

int tt_topo_load(struct tt_topo *t, const struct tt_sysfs *s)
{
	int rc, node, i = 0;

	memset(t, 0, sizeof(*t));
	rc = tt_sysfs_read_list(s, t->online.bits, TT_MAX_NODES, "/sys/devices/system/node/online");
	if (rc == TT_EUNAVAIL) {
		tt_err_hint("is '%s' a sysfs root? it needs sys/devices/system/node/",
			    tt_sysfs_root(s));
		return rc;
	}
	if (rc < 0)
		return rc;
	rc = tt_sysfs_read_list(s, t->cpu_nodes.bits, TT_MAX_NODES,
				"/sys/devices/system/node/has_cpu");
	if (rc < 0)
		return rc;
	rc = tt_sysfs_read_list(s, t->mem_nodes.bits, TT_MAX_NODES,
				"/sys/devices/system/node/has_memory");
	if (rc < 0)
		return rc;
	t->nnodes = (int)tt_nodemask_weight(&t->online);
	if (t->nnodes == 0)
		return tt_err(TT_EINPUT, "'%s/sys/devices/system/node/online' lists no node",
			      s->root);
	t->nodes = calloc((size_t)t->nnodes, sizeof(*t->nodes));
	if (!t->nodes)
		return tt_err(TT_EFAIL, "out of memory");
	tt_nodemask_for_each (node, &t->online)
		t->nodes[i++].id = node;
	for (i = 0; i < t->nnodes; i++) {
		rc = load_node(s, t, &t->nodes[i]);
		if (rc < 0)
			goto fail;
	}
	rc = load_tiers(s, t);
	if (rc == 0)
		load_demotion(t);
	if (rc < 0)
		goto fail;
	rc = load_pmus(s, t);
	if (rc < 0)
		goto fail;
	rc = tt_sysfs_read(s, t->kernel_release, sizeof(t->kernel_release),
			   "/proc/sys/kernel/osrelease");
	if (rc < 0)
		goto fail;
	load_cpu_model(s, t);
	if (tt_sysfs_read(s, t->hostname, sizeof(t->hostname), "/proc/sys/kernel/hostname") < 0)
		t->hostname[0] = '\0';
	/* Display strings, kept on one line from the start (the database and
	 * every export get them as shown). */
	char raw[sizeof(t->hostname) > sizeof(t->cpu_model) ? sizeof(t->hostname)
							    : sizeof(t->cpu_model)];
	memcpy(raw, t->hostname, sizeof(t->hostname));
	tt_str_escape(raw, t->hostname, sizeof(t->hostname));
	memcpy(raw, t->cpu_model, sizeof(t->cpu_model));
	tt_str_escape(raw, t->cpu_model, sizeof(t->cpu_model));
	rc = load_movement(s, t);
	if (rc < 0)
		goto fail;
	return 0;
fail:
	tt_topo_release(t);
	return rc;
}

void tt_topo_release(struct tt_topo *t)
{
	for (int i = 0; t->nodes && i < t->nnodes; i++) {
		free(t->nodes[i].cpus);
		free(t->nodes[i].distance);
	}
	free(t->nodes);
	free(t->tiers);
	free(t->pmus);
	memset(t, 0, sizeof(*t));
}

uint64_t tt_hmat_auto_bw_mb_s(const struct tt_node *n)
{
	const struct tt_hmat *h = n ? &n->access[1] : NULL;

	if (!h || !h->present)
		return 0;
	return h->read_bw_mb_s < h->write_bw_mb_s ? h->read_bw_mb_s : h->write_bw_mb_s;
}

const struct tt_node *tt_topo_node(const struct tt_topo *t, int id)
{
	for (int i = 0; i < t->nnodes; i++)
		if (t->nodes[i].id == id)
			return &t->nodes[i];
	return NULL;
}

const struct tt_tier *tt_topo_tier(const struct tt_topo *t, int id)
{
	for (int i = 0; i < t->ntiers; i++)
		if (t->tiers[i].id == id)
			return &t->tiers[i];
	return NULL;
}

int tt_topo_check_nodes(const struct tt_topo *t, const struct tt_nodemask *mask, const char *what)
{
	int node;

	tt_nodemask_for_each (node, mask) {
		if (!tt_nodemask_test(&t->online, node)) {
			char online[256];

			tt_bit_format_list(t->online.bits, TT_MAX_NODES, online, sizeof(online));
			return tt_err(TT_EINPUT, "%s: node %d is not online (online: %s)", what,
				      node, online);
		}
	}
	return 0;
}

int tt_topo_check_source(const struct tt_topo *t, int src)
{
	char online[256];

	if (src < 0 || (src < TT_MAX_NODES && tt_nodemask_test(&t->online, src)))
		return 0;
	tt_bit_format_list(t->online.bits, TT_MAX_NODES, online, sizeof(online));
	return tt_err(TT_EINPUT, "source node %d is not online (online: %s)", src, online);
}

static uint64_t fnv1a(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3;
	return h;
}

void tt_topo_fingerprint(const struct tt_topo *t, char out[17])
{
	uint64_t h = fnv1a(0xcbf29ce484222325, t->cpu_model);
	char buf[256];

	for (int i = 0; i < t->nnodes; i++) {
		const struct tt_node *n = &t->nodes[i];
		const struct tt_hmat *a = &n->access[n->access[1].present ? 1 : 0];
		uint64_t gib = (n->mem_total_bytes + (1 << 29)) >> 30;

		if (gib >= 16)
			gib = (gib + 4) / 8 * 8;
		snprintf(buf, sizeof(buf), "|%d:%d:%ju:%d:%ju:%ju:%ju:%ju", n->id, n->ncpus,
			 (uintmax_t)gib, n->tier, (uintmax_t)a->read_bw_mb_s,
			 (uintmax_t)a->write_bw_mb_s, (uintmax_t)a->read_lat_ns,
			 (uintmax_t)a->write_lat_ns);
		h = fnv1a(h, buf);
	}
	snprintf(out, 17, "%016jx", (uintmax_t)h);
}

int tt_topo_near_cpu(const struct tt_topo *t, int i)
{
	int near = -1, best = 0;

	/* A topology with no distances (built by hand, not read): a CPU node
	 * is its own nearest, and a CPU-less one's is not known. */
	if (!t->nodes[i].distance)
		return t->nodes[i].has_cpu ? t->nodes[i].id : -1;
	for (int c = 0; c < t->nnodes; c++)
		if (t->nodes[c].has_cpu && (near < 0 || t->nodes[i].distance[c] < best)) {
			near = t->nodes[c].id;
			best = t->nodes[i].distance[c];
		}
	return near;
}

const char *tt_tier_class(int tier)
{
	if (tier < TT_MEMTIER_DRAM)
		return "faster than DRAM";
	return tier == TT_MEMTIER_DRAM ? "DRAM" : "slower than DRAM";
}

void tt_node_words(int local, bool cpus, int tier, char *buf, size_t size)
{
	const char *role = local > 0	? (cpus ? "local" : "local CPU-less")
			   : local == 0 ? (cpus ? "remote" : "remote CPU-less")
			   : cpus	? "remote"
					: "CPU-less";

	if (tier < 0)
		snprintf(buf, size, "%s", role);
	else
		snprintf(buf, size, "%s%s%s", role, tier == TT_MEMTIER_DRAM ? " " : ", ",
			 tt_tier_class(tier));
}
