/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tiertop's frame model: what one screen shows, computed from the topology,
 * the weights, the latest collector readings and the process scan, with no
 * terminal in sight. The text, JSON and curses front ends all draw a frame;
 * none of them collects anything (the sampler's thread and the process
 * scanner's thread do, see feed.h and procs.h).
 *
 *	struct tt_frame f;
 *	tt_frame_build(&f, &in);        (in: topo, weights, feed, procs, view)
 *	tt_frame_lines(&f, &opts, fn, ctx);   or tt_frame_json(&f, stdout)
 *	tt_frame_release(&f);
 *
 * A cell holds a value only when its source gave one: otherwise its state
 * says why not (n/a, with the reason once in the footer; init on the first
 * sample of a rate; stale when the source stopped answering). Never a 0
 * standing in for "unknown".
 */
#ifndef TT_TUI_FRAME_H
#define TT_TUI_FRAME_H

#include "../collectors/sampler.h"
#include "../core/topo.h"
#include "../core/wi.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

enum tt_cell_state {
	TT_CELL_OK,
	TT_CELL_NA,    /* no source for it here: the footer says why */
	TT_CELL_INIT,  /* first sample: a rate needs two */
	TT_CELL_STALE, /* its source stopped answering */
};
extern const char *const tt_cell_state_names[]; /* "ok", "n/a", "initializing", "stale" */

struct tt_cell {
	enum tt_cell_state st;
	double v;
};

/* The latest reading of every metric of every open source (feed.c). */
struct tt_latest {
	bool have;
	bool ever; /* a reading that was not stale came once */
	double value, t_s;
	enum tt_sample_state state;
};

struct tt_feed {
	int n;
	struct tt_source **src;
	struct tt_latest **v; /* [source][metric] */
	int nun;	      /* collectors not opened, and why */
	struct {
		const struct tt_collector *c;
		char name[24];
		char why[256];
	} un[16];
	uint64_t seq;	   /* the sampler's next reading */
	uint64_t per_tick; /* readings per sampler tick (all metrics) */
	uint64_t ticks;	   /* ticks taken in */
};

int tt_feed_init(struct tt_feed *f, struct tt_source **src, int n);
void tt_feed_release(struct tt_feed *f);
void tt_feed_take(struct tt_feed *f, const struct tt_reading *r, size_t n);

enum tt_frame_row_kind { TT_ROW_NODE, TT_ROW_TIER, TT_ROW_TOTAL };

struct tt_frame_row {
	enum tt_frame_row_kind kind;
	int node;      /* TT_ROW_NODE */
	int tier;      /* -1: in no tier */
	char cpus[24]; /* "0-47", "CPU-less", or the tier's node list */
	/* The same as sets, for JSON: a node's CPUs, a tier's memory nodes. */
	uint64_t cpu_bits[TT_MAX_CPUS / 64];
	struct tt_nodemask members;
	struct tt_cell mem_used;  /* bytes */
	struct tt_cell mem_total; /* bytes */
	struct tt_cell rd, wr;	  /* bytes/s */
	struct tt_cell weight;	  /* configured weight (tiers: sum) */
	struct tt_cell wshare;	  /* share the weights imply for the source node, 0-1 */
	struct tt_cell mshare;	  /* measured share of traffic, 0-1 */
	struct tt_cell alloc;	  /* pages/s allocated on the node (numa_hit + numa_miss) */
};

struct tt_frame_demote {
	int node;
	char preferred[64], allowed[64]; /* node lists, "" when none */
	struct tt_nodemask preferred_set, allowed_set;
	/* pages/s from nodeN/vmstat: demoted FROM this node (the kernel counts
	 * a demotion on the node being reclaimed) and promoted TO it */
	struct tt_cell demote, promote;
};

struct tt_frame_proc_node {
	int node;
	uint64_t pages;	     /* 4 KiB pages resident on node */
	double share;	     /* of the process's interleaved pages */
	struct tt_cell want; /* share the current weights imply */
};

struct tt_frame_proc {
	int pid;
	char comm[40];
	char policy[64]; /* "weighted interleave:0-3" ("+" when VMAs differ) */
	uint64_t pages;	 /* 4 KiB pages, all interleaved VMAs */
	double skew;	 /* largest |share - want| over its nodes */
	int nnodes;
	struct tt_frame_proc_node *nodes;
};

/* A process scan (procs.c fills one; the frame copies what it shows). */
struct tt_proc_info {
	int pid;
	char comm[40];
	int mode; /* TT_MPOL_INTERLEAVE or TT_MPOL_WEIGHTED_INTERLEAVE */
	char flags[24];
	struct tt_nodemask nodes;
	bool mixed;
	struct tt_nodemask resident;
	uint64_t *bytes; /* [TT_MAX_NODES] resident bytes per node */
	uint64_t total_bytes;
};

struct tt_proc_scan {
	int n;
	struct tt_proc_info *p;
	int seen;    /* processes looked at */
	int skipped; /* vanished or denied (skipped quietly) */
	double t_s;  /* CLOCK_MONOTONIC when taken */
};
void tt_proc_scan_release(struct tt_proc_scan *s);

enum tt_view { TT_VIEW_NODES, TT_VIEW_TIERS };
enum tt_proc_sort { TT_SORT_PAGES, TT_SORT_SKEW, TT_SORT_PID };
/* Their names, in enum order, NULL-terminated (tiertop's --sort and --view). */
extern const char *const tt_proc_sort_names[];
extern const char *const tt_view_names[];

#define TT_HISTORY 60

struct tt_frame_in {
	const struct tt_topo *topo;
	const struct tt_wi_backend *be; /* NULL: no weight interface */
	const struct tt_wi_state *wi;
	const char *wi_why; /* why there is none */
	int source_node;
	double interval_s;
	double now_s; /* CLOCK_MONOTONIC, for staleness */
	time_t wall;
	bool paused;
	enum tt_view view;
	const struct tt_feed *feed;
	const struct tt_proc_scan *procs; /* NULL: not scanned (yet) */
	enum tt_proc_sort sort;
	const char *message; /* a line for the status bar, or NULL */
	/* Sparkline history: total bytes/s and the slow tiers' share, oldest
	 * first; NAN where unknown. */
	int nhist;
	const double *hist_bw, *hist_slow;
};

struct tt_frame {
	time_t wall;
	char host[256], kernel[128];
	char iface[16]; /* "upstream", "rfc", "none" */
	char mode[40];	/* "auto", "manual", "manual (no auto file)", "" */
	int source_node;
	char collectors[160]; /* in use, "numastat, perf-uncore" */
	int ncollectors;
	char collector_names[16][32]; /* the same, by name, for JSON */
	bool simulated;		      /* a figure comes from a model or a script */
	double interval_s;
	bool paused, initializing;
	enum tt_view view;
	int nrows;
	struct tt_frame_row *rows;	/* node rows and tier subtotals, then the total */
	struct tt_cell promote, demote; /* pages/s, all nodes (/proc/vmstat) */
	/* demote_to[]: one per memory node, its targets as the kernel computes
	 * them (core/topo.h) and its own demotion and promotion rates */
	int demotion_enabled; /* as topo: 1, 0, -1 unknown */
	int ndemote;
	struct tt_frame_demote *demote_to;
	bool procs_scanned;
	int nprocs, procs_skipped;
	struct tt_frame_proc *procs;
	enum tt_proc_sort sort;
	int nnotes;
	char notes[8][512]; /* footer: "READ WRITE: n/a: <why>", each once */
	char message[256];
	int nhist;
	double hist_bw[TT_HISTORY], hist_slow[TT_HISTORY];
	double total_bw;   /* NAN unknown, for the history */
	double slow_share; /* share of traffic in tiers below the first; NAN */
};

int tt_frame_build(struct tt_frame *f, const struct tt_frame_in *in);
void tt_frame_release(struct tt_frame *f);

/* Text: the lines of one frame, each at most width columns (0: no limit),
 * given to fn with a style hint (0 plain, 1 heading, 2 a tier's subtotal,
 * 3 status/footer). */
struct tt_render_opts {
	int width;
	bool processes;	  /* show the processes panel */
	int max_procs;	  /* 0: all */
	bool no_message;  /* the screen shows the message in its bar */
	bool no_demotion; /* leave out demotion and history (room for processes) */
};
typedef void (*tt_line_fn)(void *ctx, int style, const char *line);
void tt_frame_lines(const struct tt_frame *f, const struct tt_render_opts *o, tt_line_fn fn,
		    void *ctx);
/* One JSON object on one line. Returns 0 or TT_EFAIL. */
int tt_frame_json(const struct tt_frame *f, FILE *out);

/* The shares the weights imply for interleaving over mask from source node
 * src: out[node] in 0-1 for the nodes of mask; false when there are no
 * weights to go by. */
bool tt_frame_weight_shares(const struct tt_topo *t, const struct tt_wi_backend *be,
			    const struct tt_wi_state *wi, int src, int mode,
			    const struct tt_nodemask *mask, double *out);

#endif
