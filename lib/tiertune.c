// SPDX-License-Identifier: GPL-3.0-or-later
/* libtiertune's public calls (tiertune.h) over the internal floors: the
 * topology and weight interfaces (core/), the profile (measure/profile.h,
 * bench's runs and judgements), the search session (tuner/auto.h), the
 * stored profiles (writer/recos.h) and the policy call (core/mpol.h). Only
 * what tiertune.h declares is exported (lib/tiertune.map). */
#include "tiertune.h"

#include "../bench/kernels.h"
#include "../bench/run.h"
#include "../core/error.h"
#include "../core/mpol.h"
#include "../core/recommend.h"
#include "../core/topo.h"
#include "../core/wi.h"
#include "../measure/profile.h"
#include "../model/model.h"
#include "../tuner/auto.h"
#include "../writer/recos.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef TT_VERSION
#define TT_VERSION "0.0.0-dev"
#endif

#define API __attribute__((visibility("default")))

/* The public judgement bits are bench's (enum tt_judgement), one for one. */
_Static_assert(TIERTUNE_JUDGED_NOT_VALIDATED == 1u << TT_JUDGED_NOT_VALIDATED &&
		       TIERTUNE_JUDGED_CACHE_RESIDENT == 1u << TT_JUDGED_CACHE_RESIDENT &&
		       TIERTUNE_JUDGED_BELOW_RULE == 1u << TT_JUDGED_BELOW_RULE &&
		       TIERTUNE_JUDGED_SHORT_PASS == 1u << TT_JUDGED_SHORT_PASS &&
		       TIERTUNE_JUDGED_DESCHEDULED == 1u << TT_JUDGED_DESCHEDULED &&
		       TIERTUNE_JUDGED_UNSTABLE == 1u << TT_JUDGED_UNSTABLE &&
		       TIERTUNE_JUDGED_NOT_MEASURED > 1u << TT_JUDGEMENTS,
	       "tiertune.h's judgement bits are bench/run.h's");
_Static_assert((int)TIERTUNE_EFAIL == (int)TT_EFAIL && (int)TIERTUNE_EINPUT == (int)TT_EINPUT &&
		       (int)TIERTUNE_EUNAVAIL == (int)TT_EUNAVAIL,
	       "tiertune.h's codes are core/error.h's");

/* A probe's timed passes: three, so that the spread rule (the median
 * against the best) has a median that is not the best. */
#define PROBE_REPEAT 3
/* The budget a probe may ask, ms: at most ten minutes. */
#define PROBE_BUDGET_MAX 600000u
/* The arrays a budget affords: a node's pass (a bandwidth run: three
 * arrays touched, a warm-up and PROBE_REPEAT passes of triad's three
 * streams; a latency run: its chain touched and chased PROBE_REPEAT + 1
 * times at about a tenth of the streams' rate) moves about
 * PROBE_VOLUMES arrays' worth at PROBE_RATE, two passes per node. Both
 * are this project's 2-vCPU VM's first touch and triad taken low
 * (lib/README.md has the figures). */
#define PROBE_VOLUMES 60.0
#define PROBE_RATE 1e9
/* No array under a MiB: a latency chain must outgrow the L2. */
#define PROBE_MIN_BYTES (UINT64_C(1) << 20)

struct tiertune {
	struct tt_sysfs sfs;
	struct tt_topo topo;
	struct tt_model *model; /* NULL: this machine's trials */
};

struct tiertune_probe {
	struct tt_profile prof;
	uint64_t array_bytes;
};

API const char *tiertune_version(void)
{
	return TT_VERSION;
}

API const char *tiertune_error(void)
{
	return tt_err_msg();
}

API const char *tiertune_error_hint(void)
{
	return tt_err_hint_msg();
}

static int null_arg(const char *call, const char *what)
{
	return tt_err(TT_EINPUT, "%s: %s is NULL", call, what);
}

static int open_root(struct tiertune *tt, const char *root)
{
	int rc = tt_sysfs_init(&tt->sfs, root ? root : "/");

	if (rc == 0)
		rc = tt_topo_load(&tt->topo, &tt->sfs);
	return rc;
}

API int tiertune_open(tiertune **out, const char *sysfs_root)
{
	struct tiertune *tt;
	int rc;

	if (!out)
		return null_arg("tiertune_open", "out");
	*out = NULL;
	if (!(tt = calloc(1, sizeof(*tt))))
		return tt_err(TT_EFAIL, "out of memory");
	if ((rc = open_root(tt, sysfs_root)) < 0) {
		free(tt);
		return rc;
	}
	*out = tt;
	return 0;
}

API int tiertune_open_model(tiertune **out, const char *model, const char *sysfs_root)
{
	struct tiertune *tt;
	int rc;

	if (!out)
		return null_arg("tiertune_open_model", "out");
	*out = NULL;
	if (!model)
		return null_arg("tiertune_open_model", "model");
	if (!(tt = calloc(1, sizeof(*tt))) || !(tt->model = malloc(sizeof(*tt->model)))) {
		free(tt);
		return tt_err(TT_EFAIL, "out of memory");
	}
	rc = tt_model_load(tt->model, model);
	/* As auto --model: the machine the model describes, unless a root. */
	if (rc == 0 && !sysfs_root && !tt->model->machine_sysfs[0])
		rc = tt_err(TT_EINPUT, "model '%s' names no machine's sysfs tree: give a root",
			    model);
	if (rc == 0)
		rc = open_root(tt, sysfs_root ? sysfs_root : tt->model->machine_sysfs);
	if (rc < 0) {
		free(tt->model);
		free(tt);
		return rc;
	}
	*out = tt;
	return 0;
}

API void tiertune_close(tiertune *tt)
{
	if (!tt)
		return;
	tt_topo_release(&tt->topo);
	free(tt->model);
	free(tt);
}

API int tiertune_node_count(const tiertune *tt)
{
	return tt ? tt->topo.nnodes : null_arg("tiertune_node_count", "the handle");
}

API int tiertune_node_id(const tiertune *tt, int index)
{
	if (!tt)
		return null_arg("tiertune_node_id", "the handle");
	if (index < 0 || index >= tt->topo.nnodes)
		return tt_err(TT_EINPUT, "node index %d out of range (0-%d)", index,
			      tt->topo.nnodes - 1);
	return tt->topo.nodes[index].id;
}

/* node as an online node of tt's machine. */
static const struct tt_node *online(const tiertune *tt, int node, const char *what)
{
	const struct tt_node *n = tt_topo_node(&tt->topo, node);

	if (!n)
		tt_err(TT_EINPUT, "%s %d is not an online node of '%s'", what, node,
		       tt_sysfs_root(&tt->sfs));
	return n;
}

API int tiertune_node(const tiertune *tt, int node, unsigned int *flags, int *tier,
		      uint64_t *mem_bytes)
{
	const struct tt_node *n;

	if (!tt)
		return null_arg("tiertune_node", "the handle");
	if (!(n = online(tt, node, "node")))
		return TT_EINPUT;
	if (flags)
		*flags = (n->has_cpu ? TIERTUNE_NODE_CPUS : 0) |
			 (n->has_memory ? TIERTUNE_NODE_MEMORY : 0);
	if (tier)
		*tier = n->tier;
	if (mem_bytes)
		*mem_bytes = n->mem_total_bytes;
	return 0;
}

API int tiertune_self_node(void)
{
	unsigned int cpu, node;

	if (syscall(SYS_getcpu, &cpu, &node, NULL) < 0)
		return tt_err_sys(TT_EFAIL, errno, "getcpu");
	return (int)node;
}

/* source as given, or the calling thread's node; a node with CPUs. */
static int source_node(const tiertune *tt, int source)
{
	const struct tt_node *n;

	if (source < 0 && (source = tiertune_self_node()) < 0)
		return source;
	if (!(n = online(tt, source, "source node")))
		return TT_EINPUT;
	if (!n->has_cpu)
		return tt_err(TT_EINPUT, "source node %d has no CPUs: no task runs there", source);
	return source;
}

/* nodes[0..n-1] as memory nodes of tt's machine, each once. */
static int memory_nodes(const tiertune *tt, const int *nodes, int n, const char *call)
{
	struct tt_nodemask seen = { 0 };

	if (!nodes)
		return null_arg(call, "nodes");
	if (n < 1 || n > TT_SEARCH_MAX_NODES)
		return tt_err(TT_EINPUT, "%s: %d nodes, out of range (1-%d)", call, n,
			      TT_SEARCH_MAX_NODES);
	for (int i = 0; i < n; i++) {
		const struct tt_node *nd = online(tt, nodes[i], "node");

		if (!nd)
			return TT_EINPUT;
		if (!nd->has_memory)
			return tt_err(TT_EINPUT, "node %d has no memory", nodes[i]);
		if (tt_nodemask_test(&seen, nodes[i]))
			return tt_err(TT_EINPUT, "node %d given twice", nodes[i]);
		tt_bit_set(seen.bits, (unsigned int)nodes[i]);
	}
	return 0;
}

/* The node weights of recos rs for source src on nodes, as the node-keyed
 * interface takes them (a tier weight split over its nodes). */
static int node_weights(const tiertune *tt, struct tt_recos *rs, int src, const int *nodes, int n,
			unsigned int *weights)
{
	const struct tt_wi_backend *be = tt_wi_for_key(TT_WI_BY_NODE);
	struct tt_weights w;
	int rc = tt_recos_convert(rs, &tt->topo, be);

	if (rc == 0)
		rc = tt_recos_merged(rs, be, src, &w);
	for (int i = 0; rc == 0 && i < n; i++)
		weights[i] = tt_weights_get(&w, nodes[i], 0);
	return rc;
}

API int tiertune_weights(const tiertune *tt, int source, const int *nodes, unsigned int *weights,
			 int n)
{
	const struct tt_wi_backend *be;
	struct tt_recos rs = { 0 };
	struct tt_wi_state st;
	struct tt_weights cur;
	char buf[4096];
	int rc, src;

	if (!tt)
		return null_arg("tiertune_weights", "the handle");
	if (!weights)
		return null_arg("tiertune_weights", "weights");
	if ((src = source_node(tt, source)) < 0)
		return src;
	if ((rc = memory_nodes(tt, nodes, n, "tiertune_weights")) < 0)
		return rc;
	if ((rc = tt_wi_pick(&tt->sfs, NULL, &be)) < 0)
		return rc;
	tt_wi_state_init(&st);
	rc = be->read(&tt->sfs, &tt->topo, &st);
	if (rc == 0) {
		be->current(&st, &tt->topo, be->per_source ? src : -1, &cur);
		rc = tt_weights_format(&cur, buf, sizeof(buf));
	}
	tt_wi_state_release(&st);
	if (rc >= 0)
		rc = tt_recos_add(&rs, be->per_source ? src : -1, be->name, buf, 0, "sysfs");
	return rc < 0 ? rc : node_weights(tt, &rs, src, nodes, n, weights);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Arrays the budget affords over n nodes, within STREAM's rule (the most
 * a figure needs) and PROBE_MIN_BYTES; whole pages. */
static size_t probe_bytes(const struct tt_sysfs *sfs, int n, unsigned int budget_ms)
{
	struct tt_llc llc;
	char rule[128];
	size_t most, fit;

	if (tt_bench_llc(sfs, &llc) < 0)
		llc = (struct tt_llc){ .from = "unknown" };
	most = tt_bench_default_bytes(&llc, rule, sizeof(rule));
	fit = (size_t)(budget_ms * 1e-3 * PROBE_RATE / (2.0 * n * PROBE_VOLUMES));
	fit = fit < PROBE_MIN_BYTES ? PROBE_MIN_BYTES : fit;
	fit = fit < most ? fit : most;
	return fit & ~(size_t)4095;
}

API int tiertune_probe_run(tiertune *tt, int source, const int *nodes, int n,
			   unsigned int budget_ms, tiertune_probe **out)
{
	int all[TT_SEARCH_MAX_NODES], src, rc;
	struct tiertune_probe *p;

	if (!out)
		return null_arg("tiertune_probe_run", "out");
	*out = NULL;
	if (!tt)
		return null_arg("tiertune_probe_run", "the handle");
	if (budget_ms < 1 || budget_ms > PROBE_BUDGET_MAX)
		return tt_err(TT_EINPUT, "probe budget %u ms out of range (1-%u)", budget_ms,
			      PROBE_BUDGET_MAX);
	if ((src = source_node(tt, source)) < 0)
		return src;
	if (!nodes && n == 0) {
		for (int i = 0; i < tt->topo.nnodes && n < TT_SEARCH_MAX_NODES; i++)
			if (tt->topo.nodes[i].has_memory)
				all[n++] = tt->topo.nodes[i].id;
		nodes = all;
	}
	if ((rc = memory_nodes(tt, nodes, n, "tiertune_probe_run")) < 0)
		return rc;
	if (!(p = calloc(1, sizeof(*p))))
		return tt_err(TT_EFAIL, "out of memory");
	if (tt->model) {
		double t0 = now_s();

		rc = tt_profile_model(&p->prof, tt->model, src, nodes, n);
		p->prof.elapsed_s = now_s() - t0;
	} else if (!tt->sfs.live) {
		rc = tt_err(TT_EINPUT,
			    "'%s' is not this machine: a probe allocates and times this "
			    "machine's memory",
			    tt_sysfs_root(&tt->sfs));
		tt_err_hint("open a model of it (tiertune_open_model) for its figures");
	} else {
		struct tt_bench_opts o = {
			.kernel = tt_kernel_find("triad"),
			.topo = &tt->topo,
			.source_node = src,
			.repeat = PROBE_REPEAT,
			.sfs = &tt->sfs,
			.array_bytes = probe_bytes(&tt->sfs, n, budget_ms),
		};

		p->array_bytes = o.array_bytes;
		rc = tt_profile_measure(&p->prof, &o, nodes, n, budget_ms * 1e-3);
	}
	if (rc < 0) {
		free(p);
		return rc;
	}
	*out = p;
	return 0;
}

API void tiertune_probe_free(tiertune_probe *p)
{
	free(p);
}

API int tiertune_probe_source(const tiertune_probe *p)
{
	return p ? p->prof.source : null_arg("tiertune_probe_source", "the probe");
}

API int tiertune_probe_count(const tiertune_probe *p)
{
	return p ? p->prof.n : null_arg("tiertune_probe_count", "the probe");
}

API double tiertune_probe_elapsed_ms(const tiertune_probe *p)
{
	return p ? p->prof.elapsed_s * 1e3 : 0;
}

API uint64_t tiertune_probe_array_bytes(const tiertune_probe *p)
{
	return p ? p->array_bytes : 0;
}

API int tiertune_probe_result(const tiertune_probe *p, int i, int *node, double *bw_bytes_s,
			      double *lat_ns, unsigned int *judged)
{
	const struct tt_profile_node *pn;

	if (!p)
		return null_arg("tiertune_probe_result", "the probe");
	if (i < 0 || i >= p->prof.n)
		return tt_err(TT_EINPUT, "probe index %d out of range (0-%d)", i, p->prof.n - 1);
	pn = &p->prof.nodes[i];
	if (node)
		*node = pn->node;
	if (bw_bytes_s)
		*bw_bytes_s = pn->bw_bytes_s;
	if (lat_ns)
		*lat_ns = pn->lat_ns;
	if (judged)
		*judged = pn->judged |
			  (strcmp(pn->from, "none") == 0 ? TIERTUNE_JUDGED_NOT_MEASURED : 0);
	return 0;
}

API int tiertune_judged_text(unsigned int judged, char *buf, size_t size)
{
	char text[256];

	tt_judged_text(judged & ((1u << TT_JUDGEMENTS) - 1), text, sizeof(text));
	if (judged & TIERTUNE_JUDGED_NOT_MEASURED)
		snprintf(text, sizeof(text), "not measured (the budget ended first)");
	return snprintf(buf, buf ? size : 0, "%s", text);
}

/* The probe's nodes as --nodes gives them: NULL when every memory node
 * (what auto searches without it, so that the two runs are one). */
static const char *nodes_arg(const tiertune *tt, const struct tt_profile *p, char *buf, size_t size)
{
	int nmem = 0, len = 0;

	for (int i = 0; i < tt->topo.nnodes; i++)
		nmem += tt->topo.nodes[i].has_memory;
	if (p->n == nmem)
		return NULL;
	for (int k = 0; k < p->n; k++)
		len += snprintf(buf + len, size - (size_t)len, "%s%d", k ? "," : "",
				p->nodes[k].node);
	return buf;
}

API int tiertune_recommend(tiertune *tt, const tiertune_probe *p, unsigned int budget_trials,
			   unsigned int budget_ms, unsigned int *weights)
{
	char list[TT_SEARCH_MAX_NODES * 12];
	struct tt_auto c;
	int rc;

	if (!tt)
		return null_arg("tiertune_recommend", "the handle");
	if (!p)
		return null_arg("tiertune_recommend", "the probe");
	if (!weights)
		return null_arg("tiertune_recommend", "weights");
	if (!budget_trials && !budget_ms)
		return tt_err(TT_EINPUT, "tiertune_recommend: no budget (trials and ms both 0)");
	if (!tt->model && !tt->sfs.live)
		return tt_err(TT_EINPUT,
			      "'%s' is not this machine: a search measures this machine's memory",
			      tt_sysfs_root(&tt->sfs));
	/* auto's defaults (cli/auto-options.c), node weights, nothing recorded. */
	struct tt_auto_req req = {
		.kind = TT_RUN_AUTO,
		.command = "libtiertune",
		.source = p->prof.source,
		.nodes = nodes_arg(tt, &p->prof, list, sizeof(list)),
		.kernel = tt_kernel_find("triad"),
		.repeat = 5,
		.profile = &p->prof,
		.model = tt->model,
		.sigma = 0.03,
		.seed = 1,
		.granularity = TT_GRANULARITY_NODE,
		.placement = TT_PLACE_EXACT,
		.strategy = tt_strategies[0],
		.max_weight = TT_WEIGHTINESS,
		.budget_trials = (int)budget_trials,
		.budget_s = budget_ms * 1e-3,
	};

	tt_auto_init(&c, &req, &tt->topo, &tt->sfs, &(struct tt_auto_hooks){ 0 });
	rc = tt_auto_nodes(&c);
	if (rc == 0)
		rc = tt_auto_prepare(&c);
	if (rc == 0)
		rc = tt_auto_search(&c);
	for (int k = 0; rc == 0 && k < p->prof.n; k++)
		weights[k] = tt_weights_get(&c.r.best_w, p->prof.nodes[k].node, 0);
	tt_auto_release(&c);
	return rc;
}

API int tiertune_recommend_profile(const tiertune *tt, const char *path, int source,
				   const int *nodes, unsigned int *weights, int n)
{
	struct tt_recos *rs;
	char what[4200];
	int rc, src;

	if (!tt)
		return null_arg("tiertune_recommend_profile", "the handle");
	if (!path)
		return null_arg("tiertune_recommend_profile", "path");
	if (!weights)
		return null_arg("tiertune_recommend_profile", "weights");
	if ((src = source_node(tt, source)) < 0)
		return src;
	if ((rc = memory_nodes(tt, nodes, n, "tiertune_recommend_profile")) < 0)
		return rc;
	if (!(rs = calloc(1, sizeof(*rs))))
		return tt_err(TT_EFAIL, "out of memory");
	snprintf(what, sizeof(what), "profile '%s'", path);
	rc = tt_recos_from_profile(path, rs);
	if (rc == 0)
		rc = tt_recos_check_present(rs, &tt->topo, what);
	if (rc == 0)
		rc = tt_recos_check_machine(rs, &tt->topo, false, what);
	if (rc == 0 && rs->n == 0)
		rc = tt_err(TT_EUNAVAIL, "%s recommends no weights%s%s", what,
			    rs->nactions ? ": " : "",
			    rs->nactions ? tt_recos_action_says(rs->actions[0].action) : "");
	if (rc == 0)
		rc = node_weights(tt, rs, src, nodes, n, weights);
	free(rs);
	return rc;
}

API int tiertune_set_policy(const tiertune *tt, const int *nodes, int n)
{
	struct tt_nodemask mask = { 0 };
	int rc;

	if (!tt)
		return null_arg("tiertune_set_policy", "the handle");
	if ((rc = memory_nodes(tt, nodes, n, "tiertune_set_policy")) < 0)
		return rc;
	if (!tt->sfs.live)
		return tt_err(TT_EINPUT,
			      "'%s' is not this machine: a policy is this machine's kernel's",
			      tt_sysfs_root(&tt->sfs));
	for (int i = 0; i < n; i++)
		tt_bit_set(mask.bits, (unsigned int)nodes[i]);
	rc = tt_set_mempolicy(MPOL_WEIGHTED_INTERLEAVE, &mask);
	if (rc == -EINVAL)
		return tt_err(TT_EUNAVAIL,
			      "this kernel has no weighted interleave (MPOL_WEIGHTED_INTERLEAVE, "
			      "Linux 6.9)");
	if (rc < 0)
		return tt_err_sys(TT_EFAIL, -rc, "set_mempolicy(MPOL_WEIGHTED_INTERLEAVE)");
	return 0;
}
