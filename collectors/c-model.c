// SPDX-License-Identifier: GPL-3.0-or-later
/* The bandwidth model, for simulated runs: every value is computed, none
 * measured, and the collector is flagged simulated so that output and the
 * database say so. Interleaving by weights w gives node n a share
 * s_n = w_n / sum(w) of the traffic; the run is limited by the node that
 * saturates first, so total = min_n(B_n / s_n), and node n carries
 * total * s_n. B_n is the bandwidth measured from the source node where the
 * context has it (tt_collect_ctx.measured_bw_bytes_s: a profile or matrix
 * row), else the node's HMAT read bandwidth, a first guess: HMAT gives it
 * from the node's best initiator, so from another socket the model
 * overstates (issue 14 saw 20-50% on a 4-node kernel). Each metric's
 * source says which ("simulated: measured from node N" or "simulated: HMAT
 * best initiator"). */
#include "collector.h"

#include "../core/error.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

static int hmat_bw(const struct tt_topo *t, int node, double *bytes_s)
{
	const struct tt_node *n = tt_topo_node(t, node);
	const struct tt_hmat *a;

	if (!n)
		return -1;
	a = &n->access[n->access[1].present ? 1 : 0];
	if (!a->present || !a->read_bw_mb_s)
		return -1;
	*bytes_s = (double)a->read_bw_mb_s * 1e6; /* the ABI's MB/s */
	return 0;
}

/* The node's figure: measured from the source when there is one. */
static int node_bw(const struct tt_collect_ctx *ctx, int node, double *bytes_s, bool *measured)
{
	*measured = ctx->measured_bw_bytes_s && node >= 0 && node < TT_MAX_NODES &&
		    ctx->measured_bw_bytes_s[node] > 0;
	if (*measured) {
		*bytes_s = ctx->measured_bw_bytes_s[node];
		return 0;
	}
	return hmat_bw(ctx->topo, node, bytes_s);
}

static int probe(const struct tt_collect_ctx *ctx, char *why, size_t size)
{
	int node;
	double bw;
	bool measured;

	if (!ctx->weights || !tt_nodemask_weight(&ctx->weights->set)) {
		snprintf(why, size,
			 "nothing to model: it models a run's weights (bench --collect "
			 "model with --weights)");
		return TT_EUNAVAIL;
	}
	tt_nodemask_for_each (node, &ctx->weights->set) {
		if (node_bw(ctx, node, &bw, &measured) < 0) {
			snprintf(why, size,
				 "node %d has no bandwidth figure to model (no HMAT, nothing "
				 "measured from node %d)",
				 node, ctx->source_node);
			return TT_EUNAVAIL;
		}
	}
	return 0;
}

struct priv {
	int n;
	double share[TT_MAX_NODES], bw[TT_MAX_NODES];
	int node[TT_MAX_NODES];
};

static int open_model(const struct tt_collect_ctx *ctx, struct tt_source **out)
{
	struct priv *p = calloc(1, sizeof(*p));
	struct tt_source *s = tt_source_new(&tt_c_model, 8);
	double sum = 0;
	int cap = 8, node;
	char why[256];
	bool all_measured = true, any_measured = false;

	if (!p || !s) {
		free(p);
		tt_source_free(s);
		return tt_err(TT_EFAIL, "out of memory");
	}
	if (probe(ctx, why, sizeof(why)) < 0) {
		free(p);
		tt_source_free(s);
		return tt_err(TT_EUNAVAIL, "%s", why);
	}
	s->priv = p;
	tt_nodemask_for_each (node, &ctx->weights->set)
		sum += ctx->weights->w[node];
	tt_nodemask_for_each (node, &ctx->weights->set) {
		char from[48];
		bool measured;

		p->node[p->n] = node;
		p->share[p->n] = ctx->weights->w[node] / sum;
		node_bw(ctx, node, &p->bw[p->n], &measured);
		p->n++;
		all_measured &= measured;
		any_measured |= measured;
		if (measured)
			snprintf(from, sizeof(from), "simulated: measured from node %d",
				 ctx->source_node);
		else
			snprintf(from, sizeof(from), "simulated: HMAT best initiator");
		tt_source_add(s, &cap, "model_bw", "bytes/s", TT_GAUGE, node, from);
	}
	tt_source_add(s, &cap, "model_total_bw", "bytes/s", TT_GAUGE, -1,
		      all_measured   ? "simulated: measured figures"
		      : any_measured ? "simulated: measured and HMAT figures"
				     : "simulated: HMAT best initiator");
	*out = s;
	return 0;
}

static int sample(struct tt_source *s, double *v)
{
	struct priv *p = s->priv;
	double total = INFINITY;

	for (int i = 0; i < p->n; i++)
		if (p->share[i] > 0 && p->bw[i] / p->share[i] < total)
			total = p->bw[i] / p->share[i];
	for (int i = 0; i < p->n; i++)
		v[i] = total * p->share[i];
	v[p->n] = total;
	return 0;
}

static void close_model(struct tt_source *s)
{
	if (s)
		free(s->priv);
	tt_source_free(s);
}

static const struct tt_metric_meaning meanings[] = {
	{ "model_bw", TT_ROLE_TOTAL_BYTES, TT_SCOPE_MEMORY, TT_UNIT_BYTES_S, TT_AGG_SUM },
	{ 0 },
};

const struct tt_collector tt_c_model = {
	.name = "model",
	.summary = "SIMULATED: per-node bandwidth the weights would give, from figures measured "
		   "from the source node, else HMAT's",
	.flags = TT_C_SIMULATED,
	.gives = "model_bw (bytes/s) per weighted node, model_total_bw (bytes/s), all simulated",
	.meanings = meanings,
	.simulated_as = "the model",
	.no_split_why = "the model gives one figure per node (shown under READ)",
	.probe = probe,
	.open = open_model,
	.sample = sample,
	.close = close_model,
};
