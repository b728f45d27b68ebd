/*
 * An auto or sweep run (tiertune auto, sweep): the nodes for a source, the
 * prior, the measurement (real trials through trial.h, the model's, trials
 * under written weights through policy.h and app.h, tier weights split over
 * their nodes), the search and its recommendation, the record in the
 * database, and the plan apply would run. The CLI parses the options into
 * struct tt_auto, prints through the hooks and after each step, and applies.
 * Nothing here prints.
 *
 *	struct tt_auto c = {.kind = "auto", .t = &t, .sfs = &sfs, .kernel = k,
 *			    .source = 0, .model = m, .hooks = {...}};
 *	tt_search_cfg_default(&cfg);              (budget, strategy, max weight)
 *	tt_auto_nodes(&c, &cfg);                  (the source, --nodes)
 *	tt_auto_prepare(&c, &cfg);                (prior, tiers, model, policy)
 *	tt_auto_search(&c, &cfg, &s, &r, &rs);    (then print s, r and rs)
 *	tt_auto_record(&c, &s, &r, &rs, &run);    (unless --no-record)
 *	tt_auto_plan(&c, &rs, &p);                (what apply would write)
 *	tt_search_release(&s);
 *	tt_auto_release(&c);
 *
 * Each step returns 0 or a library status with its message; the CLI prints
 * it. --all-sources runs the sequence per CPU node and gathers the results
 * in a struct tt_auto_all (tt_auto_all_add, _merge, _plan).
 */
#ifndef TT_AUTO_H
#define TT_AUTO_H

#include "../bench/place.h"
#include "../core/recommend.h"
#include "../core/topo.h"
#include "model.h"
#include "policy.h"
#include "profile.h"
#include "report.h"
#include "search.h"

#include <stdbool.h>
#include <stdint.h>

struct tt_app;
struct tt_apply_plan;
struct tt_auto;
struct tt_bench_ctx;
struct tt_db;
struct tt_kernel;
struct tt_wi_backend;

/* The caller's side: what it prints along the way, and what only it
 * opens. Each gets ctx; each may be NULL but open_db, which
 * tt_auto_record calls. */
struct tt_auto_hooks {
	/* After every measurement, as tt_search_cfg.progress. */
	void (*progress)(void *ctx, const struct tt_auto *c, const struct tt_search *s, int trial);
	/* The profile is about to be measured (it takes a while). */
	void (*profiling)(void *ctx, const struct tt_auto *c);
	/* A trial under written weights discarded (policy.h). */
	void (*discarded)(void *ctx, const struct tt_weights *w, const char *why);
	/* Before the first trial under written weights: a journal left by a
	 * killed tiertune put back (a library status). */
	int (*recover)(void *ctx);
	/* The database, opened for writing (a library status). */
	int (*open_db)(void *ctx, struct tt_db **db);
	void *ctx;
};

/* What a real measurement saw, kept per trial for the record: the
 * measure callback cannot know its trial, the progress callback that
 * follows every measurement does. */
struct tt_auto_placed {
	double achieved[TT_SEARCH_MAX_NODES]; /* fraction of checked pages */
	bool validated;
};

struct tt_auto {
	/* The run asked for, set by the caller. */
	const char *kind; /* "auto" or "sweep": the run's kind */
	const struct tt_topo *t;
	const struct tt_sysfs *sfs;
	const char *command; /* the command line, for the records */
	const struct tt_kernel *kernel;
	const char *mix; /* its name, for the model */
	int source;
	const char *nodes; /* --nodes: a list, "local" or NULL (every memory node) */
	int threads;	   /* 0: every CPU of the source node (the model's count) */
	size_t size_bytes; /* per array; 0: STREAM's rule */
	/* Real bench trials with arrays the last-level cache can hold would
	 * tune the cache's bandwidth: refused unless this is set. */
	bool allow_cache_resident;
	int repeat;
	bool no_profile;
	const struct tt_model *model; /* NULL: real trials */
	double sigma;		      /* the model's relative noise */
	uint64_t seed;		      /* the model's noise seed */
	bool latency;		      /* the latency objective: scores are 1e9 / lat_ns */
	double traffic_bytes_s;	      /* its stated traffic, bytes/s */
	double max_lat_ns;	      /* --max-latency; 0: none */
	/* --granularity tier: the search's groups are tiers, and every
	 * measurement splits their weights over the tiers' nodes first. */
	bool tiers;
	/* Trials under written weights: TT_PLACE_KERNEL for --placement
	 * kernel and app mode; its program, metric and direction. */
	enum tt_place_mode mode;
	char **app_argv; /* NULL-terminated; NULL: bench trials */
	const char *metric;
	bool higher_is_better;
	/* The program runs on this host's memory nodes, not the root's (the
	 * CLI's test hook: orchestration tests on a fixture copy). */
	bool app_host_nodes;
	struct tt_auto_hooks hooks;

	/* What the run set up and saw, for the report and the record. */
	bool simulated;		    /* with a model */
	struct tt_model_sim sim;    /* with a model */
	struct tt_auto_placed last; /* the latest real measurement */
	struct tt_auto_placed *per_trial;
	int nper;
	size_t array_bytes; /* as the last real trial allocated */
	int used_threads;
	/* The real measurements' arrays, placed once and kept: each new vector
	 * moves only the pages whose node changes (bench/run.h). */
	struct tt_bench_ctx *reuse;
	/* The node-weight measurement the tier split calls. */
	tt_sample_fn inner;
	tt_measure_fn inner_measure;
	void *inner_ctx;
	struct tt_profile profile; /* the prior's figures */
	int profile_cost;	   /* measurements of the budget it took */
	const char *auto_from;	   /* the auto baseline's figures: "hmat", the prior's */
	struct tt_policy pol;
	struct tt_policy_measure pm; /* pm.pol set: trials under written weights */
	struct tt_app *app;	     /* app mode's program */
	char state[4096];	     /* the state folder: lock, journal, the program's log */
	char log[4200];		     /* its output */
};

/* The source (a CPU node of the machine) and the nodes to interleave over
 * into cfg; a model must describe them (tt_model_check_machine). */
int tt_auto_nodes(struct tt_auto *c, struct tt_search_cfg *cfg);
/* Two or more nodes, a sweep's grid within reach, the prior (the profile,
 * measured or the model's; HMAT's when skipped) and the auto baseline's
 * figures into cfg, its groups the tiers with c->tiers, the model's
 * simulation, and for trials under written weights the program found, the
 * weight files writable, a leftover journal put back and signals caught. */
int tt_auto_prepare(struct tt_auto *c, struct tt_search_cfg *cfg);
/* The search on cfg, its report and the recommendation, tier weights as
 * the machine's interface takes them. On success the caller releases s
 * (tt_search_release); on failure it is released. TT_EFAIL naming the
 * nearest miss when no weights were feasible. */
int tt_auto_search(struct tt_auto *c, const struct tt_search_cfg *cfg, struct tt_search *s,
		   struct tt_report *r, struct tt_recos *rs);
/* The run, its trials and the recommendation, through hooks.open_db;
 * *run_id the run. */
int tt_auto_record(struct tt_auto *c, const struct tt_search *s, const struct tt_report *r,
		   const struct tt_recos *rs, int64_t *run_id);
/* The plan apply would run for the recommendation on this kernel's
 * interface (p initialised by the caller). */
int tt_auto_plan(const struct tt_auto *c, const struct tt_recos *reco, struct tt_apply_plan *p);
void tt_auto_release(struct tt_auto *c);

/* --all-sources: every source's recommendation and run, merged once all
 * have run. */
struct tt_auto_all {
	struct tt_recos rs;
	int64_t run[TT_RECO_MAX];
	/* After tt_auto_all_merge: the machine's interface (NULL: none, why
	 * says so), the merged node weights, or why the sources conflict. */
	const struct tt_wi_backend *be;
	struct tt_weights merged;
	char conflict[1024];
	char why[512];
};

/* A source's recommendation (rs->r[0]) and its run (0: not recorded). */
int tt_auto_all_add(struct tt_auto_all *all, const struct tt_recos *rs, int64_t run);
/* The set through recommend.c on the machine's interface: upstream's one
 * global weight per node merges sources whose nodes do not overlap (or
 * agree) and names a conflict; the RFC holds every source's tier weights.
 * What fails is said in all->why or all->conflict. */
void tt_auto_all_merge(struct tt_auto_all *all, const struct tt_sysfs *sfs,
		       const struct tt_topo *t);
/* The plan for the whole set on all->be (p->be): upstream's merged
 * weights, or every source's tier weights on the RFC. */
int tt_auto_all_plan(const struct tt_auto_all *all, const struct tt_topo *t,
		     struct tt_apply_plan *p);

#endif
