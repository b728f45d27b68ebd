/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The performance model: what a bandwidth trial would measure on a machine
 * described in a JSON file (the files in model/machines/), so the tuner can be
 * developed, tested and shown without CXL or HBM, and users can ask "what
 * if". Every figure it produces is simulated and must be labelled so by
 * whoever prints or stores it (tt_model_sim.simulated is always true).
 *
 *	struct tt_model m;
 *	struct tt_model_sim sim;
 *	if (tt_model_load(&m, "model/machines/spr-ddr5-2cxl.json") < 0) ...
 *	if (tt_model_sim_init(&sim, &m, 0, "triad", 0, 0.03, 42) < 0) ...
 *	tt_model_measure(&sim, &weights, &bw_bytes_s);   (a tt_measure_fn)
 *
 * How a trial's bandwidth is computed (tt_model_eval). A weight vector gives
 * node i the share s_i = w_i / sum(w) of every stream's pages. The kernel
 * moves R read and W written bytes per element at the memory controllers
 * (ordinary stores also read the line first: the RFO). At element rate E:
 *   - node i is busy u_i = E * s_i * (R / read_bw_i + W / write_bw_i) of the
 *     time, and no node can be busier than 1: E <= 1 / max_i(...);
 *   - its loaded latency is L_i(u_i), from the node's curve;
 *   - the source's threads keep at most threads * outstanding_misses lines
 *     in flight, so by Little's law E * (R + W) / line * sum_i s_i L_i(u_i)
 *     <= threads * outstanding_misses.
 * E is the largest rate meeting both (bisection: the left side of the last
 * line grows with E). Bandwidth-bound, the optimum gives each node a share
 * proportional to its bandwidth for this mix; concurrency-bound, a slow node
 * costs latency for every line it serves, and the optimum moves towards the
 * nodes that are quicker to reach, as Colloid (SOSP'24) balances loaded
 * latencies. So it depends on the mix and the thread count.
 */
#ifndef TT_MODEL_H
#define TT_MODEL_H

#include "../core/weights.h"
#include "../measure/sample.h"

#include <stdbool.h>
#include <stdint.h>

#define TT_MODEL_MAX_SOURCES 8
#define TT_MODEL_MAX_NODES 16
#define TT_MODEL_MAX_CURVE 16
/* The model file format this loader reads ("schema_version"). */
#define TT_MODEL_SCHEMA_VERSION 1

struct tt_topo;

struct tt_profile;

struct tt_model_node {
	int node;
	double read_bw_bytes_s;	 /* bytes/s, peak from this source */
	double write_bw_bytes_s; /* bytes/s */
	double idle_lat_ns;	 /* ns, unloaded read latency from this source */
	/* Loaded latency: piecewise linear through (util, lat_ns) points,
	 * ascending util in [0, 1]; or, with no points, the M/M/1-like
	 * idle + mm1_service_ns * u / (1 - u) (u capped at 0.99); or flat. */
	int ncurve;
	double curve_util[TT_MODEL_MAX_CURVE];	 /* fraction of peak, 0..1 */
	double curve_lat_ns[TT_MODEL_MAX_CURVE]; /* ns */
	double mm1_service_ns;			 /* ns, 0: not used */
	int cpus; /* "cpus": 1 the node has CPUs, 0 it is CPU-less, -1 not said */
};

struct tt_model_source {
	int node;		   /* the CPU node the threads run on */
	int threads;		   /* default thread count */
	double outstanding_misses; /* cache lines in flight per thread */
	int nnodes;
	struct tt_model_node nodes[TT_MODEL_MAX_NODES];
};

struct tt_model {
	char path[512];
	char name[64];
	char source_note[2048]; /* where the figures come from */
	/* "machine_sysfs": the sysfs tree of the machine the model describes
	 * (relative to the model file); "" if it names none. A run on the
	 * model reads its topology there unless --sysfs-root says otherwise,
	 * so it is the modelled machine whatever host it runs on. */
	char machine_sysfs[1024];
	double line_bytes; /* bytes per cache line (64) */
	int nsources;
	struct tt_model_source src[TT_MODEL_MAX_SOURCES];
};

/* A traffic mix as the memory controllers see it, per element, and the
 * bytes the kernel reports bandwidth by (its own counting, as bench does). */
struct tt_mix {
	char name[32];
	double read_bytes;    /* bytes read at the controllers, RFO included */
	double write_bytes;   /* bytes written */
	double counted_bytes; /* bytes the kernel's bandwidth figure counts */
};

/* Parses and checks path (a file, or a model's name: tt_model_find in
 * model-path.h); TT_EINPUT naming the file and the JSON path of a
 * bad field ("model 'x.json': sources[0].nodes[1].read_bw_bytes_s is
 * negative"), a schema_version other than TT_MODEL_SCHEMA_VERSION, or a
 * file that cannot be read (the user named it). */
int tt_model_load(struct tt_model *m, const char *path);
/* As tt_model_load, from a string; name stands for the file in messages. */
int tt_model_parse(struct tt_model *m, const char *json, const char *name);
/* Whether m describes machine t for a search from src over nodes[0..n-1]:
 * every source node of the model is a CPU node of t, every memory node it
 * names is a memory node of t (and has CPUs or not as its "cpus" says),
 * and the model describes each of nodes from src. A model of another
 * machine would quietly search the wrong nodes: TT_EINPUT naming the node
 * that disagrees. */
int tt_model_check_machine(const struct tt_model *m, int src, const struct tt_topo *t,
			   const int *nodes, int n);
/* The source with CPU node src, or NULL. */
const struct tt_model_source *tt_model_source(const struct tt_model *m, int src);
/* The mix of a bench bandwidth kernel by name ("triad", "reads", "1r1w"...),
 * from its descriptor's bytes per element; STREAM counting gets the RFO of
 * its stores added. TT_EINPUT for an unknown or non-bandwidth kernel. */
int tt_mix_from_kernel(const char *kernel, struct tt_mix *mix);

struct tt_model_result {
	double bw_bytes_s;	/* bytes/s in the kernel's counting */
	double elems_s;		/* elements/s */
	bool concurrency_bound; /* Little's law, not a node's bandwidth, limits */
	int nnodes;
	int node[TT_MODEL_MAX_NODES];
	double share[TT_MODEL_MAX_NODES];
	double util[TT_MODEL_MAX_NODES];   /* fraction of the node's peak, 0..1 */
	double lat_ns[TT_MODEL_MAX_NODES]; /* ns, loaded */
	/* What a dependent load placed by the same weights waits, ns: node i
	 * serves share_i of its lines, so sum_i share_i * lat_ns[i]. */
	double mean_lat_ns;
	bool overloaded;     /* tt_model_eval_at: the traffic is beyond the weights' peak */
	double peak_bytes_s; /* tt_model_eval_at: that peak, bytes/s */
};

/* Noise-free outcome of weights w (nodes without a weight get no traffic)
 * from source src with threads (0: the model's). TT_EINPUT when w names a
 * node the model has not from src, or has no positive weight. */
int tt_model_eval(const struct tt_model *m, int src, const struct tt_mix *mix, int threads,
		  const struct tt_weights *w, struct tt_model_result *r);

/* The same weights carrying a stated traffic (bytes/s in the mix's
 * counting) rather than as much as they can: the loaded latency at that
 * level, the latency objective's figure. Traffic beyond the weights' peak
 * cannot be carried: r->overloaded, and the latency is the peak's scaled by
 * traffic / peak (queues grow without bound; the scale keeps a slope
 * towards weights that carry more, for the search to follow). */
int tt_model_eval_at(const struct tt_model *m, int src, const struct tt_mix *mix, int threads,
		     const struct tt_weights *w, double traffic_bytes_s, struct tt_model_result *r);

/* The whole machine busy at once (issue 43 item 2): every source's threads
 * run the mix at the same time under the same global weights w (each
 * source's tasks interleaving over w's nodes). A node's capacity is shared:
 * its utilisation is the sum of every source's, u_i = sum_s E_s * cost_s,i
 * (cost_s,i: seconds node i is busy per element of source s, from that
 * source's peaks, which hold the link to it), and each source's loaded
 * latency on it is read at that sum, so two sockets' traffic on one node
 * is counted once, not once a socket. The rates: the fixed point of every
 * source's Little's law at the others' utilisation, then any node still
 * over 1 shared in proportion to each source's demand on it. A link is
 * within each source's remote peak: UPI and xGMI are full duplex, so two
 * sockets' remote streams do not share a direction of one. */
struct tt_model_machine {
	int n; /* sources, in the model's order */
	struct {
		int node;	      /* the source's CPU node */
		double bw_bytes_s;    /* beside the other sources, the mix's counting */
		double alone_bytes_s; /* the same source alone (tt_model_eval): an upper bound */
	} src[TT_MODEL_MAX_SOURCES];
	double total_bytes_s;		 /* the machine's: the sum of bw_bytes_s */
	double util[TT_MODEL_MAX_NODES]; /* of each of w's nodes (node[]), 0..1 */
	int node[TT_MODEL_MAX_NODES];
	int nnodes;
};
/* TT_EINPUT as tt_model_eval, for any source. */
int tt_model_eval_machine(const struct tt_model *m, const struct tt_mix *mix,
			  const struct tt_weights *w, struct tt_model_machine *r);

/* Bandwidth the source would measure on each node alone (min of read and
 * write peak, as the kernel's auto mode takes from HMAT): the "profile"
 * that seeds the search. TT_EINPUT for a node the model lacks. */
int tt_model_profile(const struct tt_model *m, int src, const int *nodes, int n,
		     double *bw_bytes_s);
/* The model's figures from src as the search's profile (measure/profile.h):
 * min of read and write peak, idle latency. */
int tt_profile_model(struct tt_profile *p, const struct tt_model *m, int src, const int *nodes,
		     int n);

/* A simulated measurement source for the search (a tt_measure_fn context). */
struct tt_model_sim {
	const struct tt_model *m;
	int src;
	struct tt_mix mix;
	int threads;	    /* 0: the model's */
	double noise_sigma; /* relative standard deviation of a measurement */
	uint64_t rng[4];    /* xoshiro256** state */
	bool simulated;	    /* always true: say so wherever this is shown */
	long calls;	    /* measurements made */
	/* tt_model_sample: 0, the bandwidth objective (score bytes/s, latency
	 * at that load); else the latency objective at this traffic, bytes/s
	 * (score 1e9 / lat_ns). */
	double traffic_bytes_s;
};

/* TT_EINPUT for an unknown source or mix, or a sigma outside 0..0.2. */
int tt_model_sim_init(struct tt_model_sim *s, const struct tt_model *m, int src, const char *mix,
		      int threads, double noise_sigma, uint64_t seed);
/* Noise-free score times (1 + sigma * z), z standard normal clamped to
 * +-4 (a measurement is never negative); int (*)(void *, ...) so the search
 * takes it as its measure callback. */
int tt_model_measure(void *sim, const struct tt_weights *w, double *score);
/* A tt_sample_fn: the score as above (or, with traffic_bytes_s, of the
 * latency objective) and the loaded latency, each with its own noise. */
int tt_model_sample(void *sim, const struct tt_weights *w, struct tt_sample *out);

/* A pointer chase on node from the source, as the profile runs it: the
 * node's idle latency times the noise above. TT_EINPUT for a node the
 * model has not from the source. */
int tt_model_chase(struct tt_model_sim *s, int node, double *lat_ns);

/* The deterministic generator behind the noise: splitmix64 seeding,
 * xoshiro256** (Blackman & Vigna, https://prng.di.unimi.it/). */
void tt_rng_seed(uint64_t s[4], uint64_t seed);
uint64_t tt_rng_next(uint64_t s[4]);
double tt_rng_normal(uint64_t s[4]);

#endif
