/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * An auto or sweep run (tiertune auto, sweep) as a session: a typed request
 * in, one report document out (report.h). Between them the nodes for a
 * source, the prior, the measurement pipeline (built once: a base measure,
 * real, the model's or a program's, and wrappers of one signature: trials
 * under written weights through policy.h, tier weights split over their
 * nodes), the search and its recommendation, the record in the database and
 * the plan apply would run. Nothing here prints: the caller prints through
 * the hooks along the way and renders the document at the end.
 *
 *	struct tt_auto_req req = {.kind = TT_RUN_AUTO, .kernel = k, .source = 0,
 *				  .model = m, .strategy = &tt_s_shares, ...};
 *	struct tt_auto c;
 *	struct tt_auto_doc d;
 *	tt_auto_init(&c, &req, &t, &sfs, &hooks);
 *	tt_auto_nodes(&c);                   (the source, --nodes)
 *	tt_auto_prepare(&c);                 (prior, tiers, model, pipeline)
 *	tt_auto_search(&c);                  (c.s, c.r, c.rs: the outcome)
 *	tt_auto_record(&c);                  (unless --no-record: c.run)
 *	tt_auto_report(&c, &where, &d);      (the plan and the document)
 *	... render d ...
 *	tt_auto_release(&c);
 *
 * Each step returns 0 or a library status with its message; the CLI prints
 * it. --all-sources runs the sequence per CPU node and gathers the results
 * in a struct tt_auto_all (tt_auto_all_add, _merge, _plan).
 */
#ifndef TT_AUTO_H
#define TT_AUTO_H

#include "../bench/place.h"
#include "../core/objective.h"
#include "../writer/apply.h"
#include "../core/recommend.h"
#include "../core/topo.h"
#include "../model/model.h"
#include "../measure/policy.h"
#include "../measure/profile.h"
#include "../db/recipe.h"
#include "report.h"
#include "search.h"

#include <stdbool.h>
#include <stdint.h>

struct tt_app;
struct tt_auto;
struct tt_bench_ctx;
struct tt_bench_result;
struct tt_db;
struct tt_kernel;
struct tt_wi_backend;

/* What a run is, for its record and its report: "auto" or "sweep". */
enum tt_run_kind { TT_RUN_AUTO, TT_RUN_SWEEP };
const char *tt_run_kind_name(enum tt_run_kind k);

/* The groupings a request names; the option table takes its words from
 * this NULL-terminated list, indexed by the enum. (The objectives' are
 * core/objective.h's tt_objective_names.) */
enum tt_granularity {
	TT_GRANULARITY_DEFAULT = -1, /* the interface's (tt_auto_init) */
	TT_GRANULARITY_NODE,
	TT_GRANULARITY_TIER,
};
extern const char *const tt_granularity_names[];

/* App mode: a program run under each candidate's weights, scored by its
 * wall time or a number it prints. */
struct tt_auto_app {
	char **argv; /* NULL-terminated; NULL: bench trials */
	const char *metric;
	bool higher_is_better;
};

/* The run asked for, as the caller parsed it: every choice typed. */
struct tt_auto_req {
	enum tt_run_kind kind;
	const char *command; /* the command line, for the records */
	int source;
	const char *nodes;		/* --nodes: a list, "local" or NULL (every memory node) */
	const struct tt_kernel *kernel; /* the mix */
	int threads;			/* 0: every CPU of the source node (the model's count) */
	size_t size_bytes;		/* per array; 0: STREAM's rule */
	/* Real bench trials with arrays the last-level cache can hold would
	 * tune the cache's bandwidth: refused unless this is set. */
	bool allow_cache_resident;
	/* Real bench trials (and the profile) whose passes spread beyond
	 * TT_SPREAD_MAX TT_UNSTABLE_RUNS runs in a row end the run unless this
	 * is set; with it the first run is kept, recorded as unstable. */
	bool allow_unstable;
	int repeat;
	bool no_profile;
	/* A profile measured before from the source to the searched nodes
	 * (the library's probe, lib/tiertune.h): the prior, not measured
	 * again, and no cost to the budget; NULL, or another source or
	 * nodes: measured as without it. */
	const struct tt_profile *profile;
	const struct tt_model *model; /* NULL: real trials */
	double sigma;		      /* the model's relative noise */
	uint64_t seed;		      /* the model's noise seed */
	/* What the run ranks by, from the option to the record: the kind
	 * (TT_OBJ_BANDWIDTH; TT_OBJ_LATENCY at traffic_gb_s, whose scores are
	 * 1e9 / lat_ns). tt_auto_init completes it from the rest of the
	 * request: the mix's kernel, the bound, app mode's wall time or
	 * metric. */
	struct tt_objective objective;
	double max_lat_ns; /* --max-latency; 0: none */
	/* Tier: the search's groups are tiers, and every measurement splits
	 * their weights over the tiers' nodes first. */
	enum tt_granularity granularity;
	/* TT_PLACE_KERNEL: each candidate's weights written for its trial
	 * (so always in app mode); else exact placement. */
	enum tt_place_mode placement;
	struct tt_auto_app app;
	const struct tt_strategy *strategy;
	uint32_t max_weight;
	int budget_trials; /* measurements in all, the profile's included; 0: none */
	double budget_s;   /* s; 0: none */
};

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
	/* Weights cand (the recommendation, or --all-sources' merged set)
	 * are about to be measured from another source, for its tasks
	 * interleaving over nodes (tt_auto_judge: each source on each mask
	 * its tasks use). */
	void (*judging)(void *ctx, const struct tt_auto *c, const struct tt_weights *cand,
			int source, const struct tt_nodemask *nodes);
	/* The database, opened for writing (a library status). */
	int (*open_db)(void *ctx, struct tt_db **db);
	/* For a person waiting inside a real trial (the profile's, the
	 * search's, the other sources'): bench/run.h's started, progress and
	 * first-touch counter, with ctx as their report_ctx. */
	int (*trial_started)(void *ctx, const struct tt_bench_result *r);
	void (*trial_progress)(void *ctx, int n, int of);
	_Atomic uint64_t *touched_bytes;
	void *ctx;
};

/* One stage of the measurement pipeline. Every stage, the base measure
 * and the wrappers around it alike, has this one signature; a wrapper
 * measures through next. */
struct tt_stage {
	int (*fn)(const struct tt_stage *self, const struct tt_weights *w, struct tt_sample *out);
	void *ctx;
	const struct tt_stage *next; /* NULL: the base measure */
};

/* The measurement the search calls (stage[n - 1]) and what its stages
 * keep between measurements. */
struct tt_auto_pipe {
	struct tt_stage stage[3];
	int n;
	/* The objective or a latency bound needs each measurement's latency:
	 * the search is then the sampling one (tt_search_init_sampled), else
	 * the bandwidth search the quality figures describe (tt_search_init). */
	bool sampled;
	struct tt_model_sim sim; /* the model's (req.model) */
	/* The model's clock (tt_auto_pipe_clock): each simulated trial's
	 * modelled duration summed, s; and what a bandwidth trial moves in
	 * the mix's counting, bytes (its passes over arrays of its size). */
	double sim_s;
	double sim_trial_bytes;
	/* Real measurements' arrays, placed once and kept: each new vector
	 * moves only the pages whose node changes (bench/run.h). */
	struct tt_bench_ctx *reuse;
	/* Trials under written weights: the transaction held per trial,
	 * and app mode's program; the state folder for their lock, journal
	 * and the program's log. */
	struct tt_policy pol;
	struct tt_policy_measure pm; /* pm.pol set: trials under written weights */
	struct tt_app *app;
	char state[4096];
	char log[4200];
};

/* A trial under written weights measured again: its weights moved. */
struct tt_auto_discard {
	struct tt_weights w;
	char why[256];
};

/* What real measurements placed and used, kept per trial for the record:
 * the measure callback cannot know its trial, the progress callback that
 * follows every measurement does. */
struct tt_auto_placed {
	double achieved[TT_SEARCH_MAX_NODES]; /* fraction of checked pages */
	bool validated;
	/* Bench's judgements (bench/run.h), for the record as bench --record
	 * stores its own: judged, by a real bench trial (not the model's nor a
	 * program's); the cache the arrays were held to (0: unknown); below
	 * STREAM's rule, cache-resident, too short, descheduled or unstable
	 * in any of the trial's measurements (tt_auto_seen_keep), and the
	 * least of their median passes' shares of CPU time (bench/run.h
	 * struct tt_bench_ran; NaN: none measured). */
	bool judged;
	uint64_t llc_bytes;
	bool below_rule, cache_resident, short_pass, unstable, descheduled;
	double cpu_share;
};
struct tt_auto_seen {
	struct tt_auto_placed last; /* the latest real measurement */
	struct tt_auto_placed *per_trial;
	int nper;
	size_t array_bytes; /* as the last real trial allocated */
	int used_threads;
	struct tt_auto_discard *discarded; /* trials under written weights measured again */
	int ndiscarded;
};

/* The prior and the auto baseline's figures. */
struct tt_auto_prior {
	struct tt_profile profile; /* the prior's figures */
	int cost;		   /* measurements of the budget the profile took */
	/* the auto baseline's figures: "hmat" (the kernel's table over
	 * auto_nodes nodes), "no_hmat" (no table: every weight 1), by tier
	 * the prior's; NULL: none */
	const char *auto_from;
	int auto_nodes;		 /* the memory nodes the kernel's table covers */
	int auto_mode;		 /* the interface's mode now: 1 auto, 0 manual, -1 none */
	struct tt_weights now_w; /* the weights the machine holds now, over the nodes */
};

/* A trial as the report shows it. */
struct tt_doc_trial {
	struct tt_weights w; /* the search's groups' weights (tier ids by tier) */
	enum tt_phase phase;
	int n;		   /* measurements; 0: none (the budget ended first) */
	double mean, half; /* as measured (not a bound's ranking), score units; NaN: none */
	double lat_ns;	   /* ns, mean loaded latency; NaN: not measured */
	bool feasible;
	double remote_share; /* of the weight, on nodes other than the source */
};

/* The whole machine judged (tt_auto_sources): the recommendation written,
 * measured from each CPU node for tasks interleaving over each mask their
 * policies may name, against what they get now (issue 43). */
#define TT_AUTO_MAX_OTHERS TT_RECIPE_MAX_OTHERS
#define TT_AUTO_MAX_JUDGED (2 * TT_AUTO_MAX_OTHERS + 2)
struct tt_auto_other {
	int source;
	struct tt_nodemask mask; /* the nodes its tasks' policy interleaves over */
	const char *why;	 /* not judged, why; NULL: judged */
	int rounds;		 /* interleaved rounds planned */
	/* What those tasks get once the weights are written (the weights'
	 * own where they hold the node, the file's as it is elsewhere), what
	 * they get now and its name ("kernel auto mode", "weights set now",
	 * "kernel default 1s"). */
	struct tt_weights after;
	struct tt_weights now;
	const char *now_what;
	struct tt_confirm cmp;			/* best[]: after, base[]: now; gain */
	double cand_mean, now_mean, local_mean; /* score units: after, now, local */
	enum tt_verdict verdict;		/* after against now */
};
struct tt_auto_sources {
	bool judged;	   /* measured from the other sources */
	char skipped[128]; /* not judged: why ("": nothing global to write) */
	struct tt_weights cand;
	int n;
	struct tt_auto_other o[TT_AUTO_MAX_JUDGED];
	bool loses; /* a source loses beyond the noise: TT_ACTION_PER_SOURCE */
};

/* The report document of a run: everything its report says, as text or
 * JSON, comes from here (cli/auto-display.c renders both), so the two
 * cannot drift. Pointers are into the session and live as long as it. */
struct tt_auto_doc {
	const struct tt_auto_req *req; /* kind, model, mix, objective, bound, app */
	const char *root;	       /* the topology's root as given */
	bool model_tree;	       /* the root is the model's own tree (read only) */
	const struct tt_topo *t;       /* host, CPU, kernel release, tiers */
	bool simulated, tiers;
	const struct tt_objective *objective; /* req's: what the run ranks by, as recorded */
	int threads;	   /* as run: the model's count or the last real trial's; 0: unknown */
	int budget_trials; /* the profile's share included; 0: none */
	double budget_s;   /* s; 0: none */
	const struct tt_auto_prior *prior;
	const struct tt_app *app;    /* app mode's program; NULL */
	const char *log;	     /* its output */
	const struct tt_policy *pol; /* trials under written weights; NULL: none */
	const struct tt_auto_discard *discarded;
	int ndiscarded;
	const struct tt_report *r;   /* baselines with verdicts, best, action */
	struct tt_doc_trial *trials; /* every trial, r->ntrials of them */
	const struct tt_reco *reco;  /* the recommendation, in the interface's form */
	bool keeps;		     /* nothing to write (tt_report_keeps) */
	/* What the machine runs now, the headline's baseline: auto mode's
	 * where it is on, the weights set by hand, else local memory, the
	 * default policy (r->base index; -1: by tier, the recommendation's
	 * gain_over). */
	int now_base;
	bool leaves_auto;		      /* applying turns the kernel's auto mode off */
	const struct tt_auto_sources *others; /* the other sources' verdicts */
	bool applying;			      /* --apply writes after the report (tt_auto_where) */
	const struct tt_apply_plan *plan;     /* what apply would write; NULL: plan_why */
	const char *plan_why;
	int64_t run;		/* recorded as; 0: not recorded */
	const char *record_why; /* recording it failed (why); NULL: it did not */
	/* The next commands, for the root the weights are for: the copy of
	 * the model's tree to make first (""), then apply and export of the
	 * run, or apply of the weights, or show of a run that keeps. */
	char copy_tree[4200];
	char next[2][4400];
	int nnext;
};
void tt_auto_doc_release(struct tt_auto_doc *d);

struct tt_auto {
	struct tt_auto_req req; /* as asked; granularity resolved by tt_auto_init */
	const struct tt_topo *t;
	const struct tt_sysfs *sfs;
	struct tt_auto_hooks hooks;
	bool simulated; /* with a model: every figure says so */
	bool tiers;	/* the search's groups are tiers */
	struct tt_search_cfg cfg;
	struct tt_auto_prior prior;
	struct tt_auto_pipe pipe;
	struct tt_auto_seen seen;
	/* The outcome (tt_auto_search): the search, its report and the
	 * recommendation as the machine's interface takes it; the run it is
	 * recorded as (0: not) and the plan apply would run. */
	struct tt_search s;
	bool searched;
	struct tt_report r;
	struct tt_recos rs;
	int64_t run;
	char record_why[1100]; /* tt_auto_record failed: why ("": it did not) */
	struct tt_apply_plan plan;
	bool planned;
	char plan_why[512]; /* why there is no plan, or why nothing is to be written */
	struct tt_auto_doc doc;
	int req_threads; /* the threads asked for (req.threads becomes the model's) */
	struct tt_auto_sources others;
};

/* The request copied, the search's configuration from it, and the
 * granularity by default the interface's: tiers where the interface holds
 * a weight for every tier of a source (the RFC) and the run is auto's
 * bench trials with weights in its range. */
void tt_auto_init(struct tt_auto *c, const struct tt_auto_req *req, const struct tt_topo *t,
		  const struct tt_sysfs *sfs, const struct tt_auto_hooks *hooks);
/* The source (a CPU node of the machine) and the nodes to interleave over
 * into c->cfg; a model must describe them (tt_model_check_machine). */
int tt_auto_nodes(struct tt_auto *c);
/* Two or more nodes, a sweep's grid within reach, the prior (the profile,
 * measured or the model's; HMAT's when skipped) and the auto baseline's
 * figures into c->cfg, its groups the tiers with c->tiers, the model's
 * simulation, the measurement pipeline, and for trials under written
 * weights the program found, the weight files writable, a leftover journal
 * put back and signals caught. */
int tt_auto_prepare(struct tt_auto *c);
/* TT_EUNAVAIL, with its hint: node is the only memory node of the machine
 * (or of --nodes, in_nodes), so there is nothing to interleave. What
 * tt_auto_prepare says, and the CLI before it asks for options a search
 * would need (issue 44). */
int tt_auto_one_node(int node, bool in_nodes);
/* The search, its report, what the measurements support doing
 * (tt_report_decide) and the recommendation, tier weights as the
 * machine's interface takes them. TT_EFAIL naming the nearest miss when no
 * weights were feasible. */
int tt_auto_search(struct tt_auto *c);
/* Upstream's weights are global: a single source's recommendation to
 * write them is measured, written, from every CPU node for tasks
 * interleaving over every memory node and over that node's own socket's
 * nodes (tt_auto_local_nodes; the source's searched mask is the final
 * comparison's), each against what those tasks get now (the model's
 * figures from it, or real trials on its CPUs), in interleaved rounds
 * (confirm_rounds, beyond the budget); where one loses beyond the noise
 * the action becomes TT_ACTION_PER_SOURCE and nothing is to be written.
 * Nothing to judge (a run that keeps, tier weights, one CPU node;
 * --all-sources' own runs, judged merged by tt_auto_all_judge): 0. */
int tt_auto_sources(struct tt_auto *c);
/* The tasks judged, without a measurement: each CPU node's masks (skip
 * from c's source left out), what they get now and once cand is written
 * (all->o[]: mask, now, after; verdict "same" where they are equal). */
void tt_auto_masks(const struct tt_auto *c, const struct tt_weights *cand,
		   const struct tt_nodemask *skip, struct tt_auto_sources *all);
/* The judgement itself, of weights cand written (c's session gives the
 * request, the topology and the pipelines), from every CPU node over its
 * masks, skip (from c's source: the searched mask) left out; into all. */
int tt_auto_judge(struct tt_auto *c, const struct tt_weights *cand, const struct tt_nodemask *skip,
		  struct tt_auto_sources *all);
/* The run, its trials and the recommendation, through hooks.open_db, as
 * c->run. A failure is kept in c->record_why as well: the report and
 * --apply still go ahead (the whole search is done), then the front end
 * says the run was not stored. */
int tt_auto_record(struct tt_auto *c);
/* Where the report's commands point: the root as the user gave it, and
 * whether it is the model's own tree (read only: a copy is to be made). */
struct tt_auto_where {
	const char *root;
	bool model_tree;
	/* The front end's options the printed commands repeat (the database,
	 * a --sysfs-root given), ready to paste ("--db 'F' "), or "". */
	const char *options;
	/* --apply writes the weights after the report: it says so instead of
	 * what apply would write and how to apply the run. */
	bool applying;
};
/* The plan apply would run (or why there is none) and the report document
 * of the whole run (c->doc, valid while c lives). */
int tt_auto_report(struct tt_auto *c, const struct tt_auto_where *where,
		   const struct tt_auto_doc **d);
void tt_auto_release(struct tt_auto *c);

/* For auto*.c: the baselines the machine would run without the search
 * (auto-base.c: the kernel's auto mode as the kernel computes it, the
 * weights set now, the fast tier alone) into c->cfg; the memory nodes
 * nearer (SLIT) to src than to any other CPU node. */
void tt_auto_baselines(struct tt_auto *c);
void tt_auto_local_nodes(const struct tt_topo *t, int src, struct tt_nodemask *mask);
/* What the machine runs now among the searched report's baselines (the
 * headline's and the action's baseline); -1: by tier, none. */
int tt_auto_now_base(const struct tt_auto *c);

/* A per_source run's advice (db/recipe.h) from the run's source and
 * weights on topology t. */
void tt_auto_recipe(const struct tt_topo *t, int source, const struct tt_weights *w,
		    struct tt_recipe *out);
/* For auto*.c: what every real run from the source shares (the mix, the
 * threads, the arrays' size and the passes); tier weights as the node
 * weights a measurement places by (the RFC's split); the pipeline built
 * (tt_auto_prepare), called (a tt_sample_fn on c->pipe) and freed. */
struct tt_bench_opts tt_auto_bench_opts(const struct tt_auto *c);
/* tt_auto_bench_opts as the real trials and the profile run it: an
 * unstable run measured again, then refused unless --allow-unstable. */
struct tt_bench_opts tt_auto_trial_bench(const struct tt_auto *c);
/* The latest real measurement (seen->last) kept as trial's: its placement
 * as the latest, bench's marks if any measurement of the trial had them. */
void tt_auto_seen_keep(struct tt_auto_seen *seen, int trial);
int tt_auto_tier_nodes(const struct tt_auto *c, const struct tt_weights *tiers,
		       struct tt_weights *nodes);
int tt_auto_pipe_build(struct tt_auto *c);
int tt_auto_pipe_sample(void *ctx, const struct tt_weights *w, struct tt_sample *out);
/* The same, its score alone: the search's measure callback (search.h). */
int tt_auto_pipe_measure(void *ctx, const struct tt_weights *w, double *score);
/* A model run's simulated clock, seconds (search.h's cfg.clock; ctx: the
 * pipe): each trial as long as the real one it stands for would take at
 * the bandwidth the model gave it. */
double tt_auto_pipe_clock(void *ctx);
void tt_auto_pipe_release(struct tt_auto_pipe *p);

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
	char keep[512]; /* the sources whose run recommends writing nothing, and what */
	/* The merged set judged as a single source's weights are
	 * (tt_auto_all_judge): every CPU node's tasks on its masks against
	 * now; refused says which lose beyond the noise ("": none). */
	struct tt_auto_sources judge;
	char refused[256];
};

/* A source's recommendation (c->rs.r[0]) and its run (c->run; 0: not
 * recorded), and whether its run supports writing weights. */
int tt_auto_all_add(struct tt_auto_all *all, const struct tt_auto *c);
/* The set through recommend.c on the machine's interface: upstream's one
 * global weight per node merges sources whose nodes do not overlap (or
 * agree) and names a conflict; the RFC holds every source's tier weights.
 * What fails is said in all->why or all->conflict. */
void tt_auto_all_merge(struct tt_auto_all *all, const struct tt_sysfs *sfs,
		       const struct tt_topo *t);
/* The merged set judged from every CPU node on its masks (tt_auto_judge,
 * through session c: any source's, prepared), where it would be written:
 * one loss beyond the noise refuses it (all->refused). 0 or a status. */
int tt_auto_all_judge(struct tt_auto_all *all, struct tt_auto *c);
/* The set is to be written: an interface with global weights, every
 * source's run supporting a write, no conflict, no loss (refused). */
bool tt_auto_all_writes(const struct tt_auto_all *all);
/* The plan for the whole set on all->be (p->be): upstream's merged
 * weights, or every source's tier weights on the RFC. */
int tt_auto_all_plan(const struct tt_auto_all *all, const struct tt_topo *t,
		     struct tt_apply_plan *p);
/* The plan apply would run for the session's recommendation on this
 * kernel's interface (p initialised by the caller). */
int tt_auto_plan(const struct tt_auto *c, struct tt_apply_plan *p);

#endif
