// SPDX-License-Identifier: GPL-3.0-or-later
/* Core counters through PAPI's perf_event component: presets counted per
 * CPU of the source node (PAPI_CPU_ATTACH, system granularity), read by
 * the sampler. PAPI's perf_event_uncore component reads the same kernel
 * PMUs as perf-uncore; this collector reports its state, and memory
 * bandwidth comes from perf-uncore. */
#include "collector.h"

#include "../core/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef TT_HAVE_PAPI
#include <papi.h>

static const struct {
	const char *metric;
	int code;
	const char *unit;
} presets[] = {
	{ "cycles", PAPI_TOT_CYC, "cycles/s" },
	{ "instructions", PAPI_TOT_INS, "instructions/s" },
	{ "llc_misses", PAPI_L3_TCM, "misses/s" },
	{ "stall_cycles", PAPI_RES_STL, "cycles/s" },
};
#define NPRESETS (sizeof(presets) / sizeof(*presets))

static int init(char *why, size_t size)
{
	static int state;
	static char reason[256];

	if (!state) {
		int v = PAPI_library_init(PAPI_VER_CURRENT);

		state = v == PAPI_VER_CURRENT ? 1 : -1;
		if (state < 0)
			snprintf(reason, sizeof(reason), "PAPI_library_init failed: %s",
				 v > 0 ? "version mismatch" : PAPI_strerror(v));
	}
	if (state < 0)
		snprintf(why, size, "%s", reason);
	return state > 0 ? 0 : TT_EUNAVAIL;
}

/* An event set on one CPU with every preset that can be counted; mask
 * says which. */
static int cpu_set(int cpu, int *es, unsigned int *mask, char *why, size_t size)
{
	PAPI_option_t opt;
	int rc;

	*es = PAPI_NULL;
	*mask = 0;
	if ((rc = PAPI_create_eventset(es)) != PAPI_OK ||
	    (rc = PAPI_assign_eventset_component(*es, 0)) != PAPI_OK)
		goto fail;
	memset(&opt, 0, sizeof(opt));
	opt.cpu.eventset = *es;
	opt.cpu.cpu_num = (unsigned int)cpu;
	if ((rc = PAPI_set_opt(PAPI_CPU_ATTACH, &opt)) != PAPI_OK)
		goto fail;
	for (size_t i = 0; i < NPRESETS; i++)
		if (PAPI_add_event(*es, presets[i].code) == PAPI_OK)
			*mask |= 1u << i;
	if (!*mask) {
		snprintf(why, size,
			 "PAPI cannot count any of its presets here (PAPI_TOT_CYC: %s; "
			 "%d hardware counters reported)",
			 PAPI_strerror(PAPI_add_event(*es, PAPI_TOT_CYC)), PAPI_num_cmp_hwctrs(0));
		PAPI_cleanup_eventset(*es);
		PAPI_destroy_eventset(es);
		return TT_EUNAVAIL;
	}
	if ((rc = PAPI_start(*es)) != PAPI_OK)
		goto fail;
	return 0;
fail:
	snprintf(why, size, "PAPI on CPU %d: %s", cpu, PAPI_strerror(rc));
	if (*es != PAPI_NULL) {
		PAPI_cleanup_eventset(*es);
		PAPI_destroy_eventset(es);
	}
	return TT_EUNAVAIL;
}

static int source_cpu(const struct tt_collect_ctx *ctx, int k)
{
	for (int i = 0; i < ctx->topo->nnodes; i++) {
		const struct tt_node *n = &ctx->topo->nodes[i];

		if (n->ncpus && (ctx->source_node < 0 || n->id == ctx->source_node))
			return k < n->ncpus ? n->cpus[k] : -1;
	}
	return -1;
}

static int probe(const struct tt_collect_ctx *ctx, char *why, size_t size)
{
	const PAPI_component_info_t *c;
	unsigned int mask;
	int es, rc;

	if (init(why, size) < 0)
		return TT_EUNAVAIL;
	if (!ctx->sfs->live) {
		snprintf(why, size, "counting needs the live system (the sysfs root is a copy)");
		return TT_EUNAVAIL;
	}
	c = PAPI_get_component_info(0);
	if (!c || c->disabled) {
		snprintf(why, size, "PAPI's perf_event component is disabled: %s",
			 c ? c->disabled_reason : "not built in");
		return TT_EUNAVAIL;
	}
	if (PAPI_num_cmp_hwctrs(0) <= 0) {
		snprintf(why, size, "PAPI reports 0 hardware counters");
		return TT_EUNAVAIL;
	}
	rc = cpu_set(source_cpu(ctx, 0) < 0 ? 0 : source_cpu(ctx, 0), &es, &mask, why, size);
	if (rc < 0)
		return rc;
	PAPI_stop(es, NULL);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	why[0] = '\0';
	return 0;
}

struct priv {
	int ncpu;
	int es[512];
	unsigned int cpu_mask[512]; /* presets each CPU's set counts, in add order */
	unsigned int mask;	    /* presets every CPU counts: the metrics */
	long long *vals;
};

static void close_papi(struct tt_source *s)
{
	struct priv *p = s ? s->priv : NULL;

	for (int i = 0; p && i < p->ncpu; i++) {
		PAPI_stop(p->es[i], NULL);
		PAPI_cleanup_eventset(p->es[i]);
		PAPI_destroy_eventset(&p->es[i]);
	}
	if (p)
		free(p->vals);
	free(p);
	tt_source_free(s);
}

static int open_papi(const struct tt_collect_ctx *ctx, struct tt_source **out)
{
	struct priv *p = calloc(1, sizeof(*p));
	struct tt_source *s = tt_source_new(&tt_c_papi, (int)NPRESETS);
	int cap = (int)NPRESETS, cpu;
	char why[256];

	if (!p || !s || !(p->vals = calloc(NPRESETS, sizeof(long long)))) {
		if (p)
			free(p->vals);
		free(p);
		tt_source_free(s);
		return tt_err(TT_EFAIL, "out of memory");
	}
	s->priv = p;
	if (init(why, sizeof(why)) < 0) {
		close_papi(s);
		return tt_err(TT_EUNAVAIL, "%s", why);
	}
	for (int k = 0; (cpu = source_cpu(ctx, k)) >= 0 && p->ncpu < 512; k++) {
		unsigned int mask;

		if (cpu_set(cpu, &p->es[p->ncpu], &mask, why, sizeof(why)) < 0) {
			close_papi(s);
			return tt_err(TT_EUNAVAIL, "%s", why);
		}
		p->mask = p->ncpu ? p->mask & mask : mask;
		p->cpu_mask[p->ncpu++] = mask;
	}
	for (size_t i = 0; i < NPRESETS; i++)
		if (p->mask & (1u << i))
			tt_source_add(s, &cap, presets[i].metric, presets[i].unit, TT_COUNTER,
				      ctx->source_node, "source-node CPUs");
	*out = s;
	return 0;
}

static int sample(struct tt_source *s, double *v)
{
	struct priv *p = s->priv;

	for (int m = 0; m < s->nmetrics; m++)
		v[m] = 0;
	for (int c = 0; c < p->ncpu; c++) {
		int m = 0;

		if (PAPI_read(p->es[c], p->vals) != PAPI_OK)
			return TT_EFAIL;
		/* PAPI returns values in the order events were added. */
		for (size_t i = 0, k = 0; i < NPRESETS; i++) {
			if (!(p->cpu_mask[c] & (1u << i)))
				continue;
			if (p->mask & (1u << i))
				v[m++] += (double)p->vals[k];
			k++;
		}
	}
	return 0;
}

#endif

const struct tt_collector tt_c_papi = {
	.name = "papi",
	.summary = "core counters through PAPI presets (cycles, instructions, L3 misses, stall "
		   "cycles) on the source node's CPUs",
	.flags = TT_C_HARDWARE,
	.gives = "cycles instructions llc_misses stall_cycles (per second, over the source node's "
		 "CPUs)",
#ifdef TT_HAVE_PAPI
	.probe = probe,
	.open = open_papi,
	.sample = sample,
	.close = close_papi,
#else
	.unbuilt = "built without PAPI (libpapi-dev)",
#endif
};
