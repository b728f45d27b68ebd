/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tiertop's own parts, shared by its front ends: the application state
 * (top.c: topology, weights, collectors on the sampler's thread, the process
 * scanner, history; the weight edit and undo through writer/apply.h), the
 * scripted test collector, and the curses screen (screen.c, the only file
 * that includes curses.h).
 *
 *	struct tt_top top = {.interval_s = 1, ...};
 *	tt_top_open(&top, root, collectors);
 *	tt_top_take(&top) / tt_top_take_tick(&top, i);  tt_top_frame(&top, &f);
 *	tt_top_close(&top);
 */
#ifndef TT_TUI_H
#define TT_TUI_H

#include "frame.h"
#include "procs.h"

#include "../collectors/collector.h"
#include "../collectors/sampler.h"
#include "../core/sysfs.h"
#include "../core/test-hooks.h" /* the test build's collectors */
#include "../core/topo.h"
#include "../core/wi.h"

struct tt_top {
	/* settings */
	double interval_s;
	int source_node; /* -1: the first node with CPUs */
	enum tt_view view;
	enum tt_proc_sort sort;
	bool paused;
	const char *collectors; /* NULL: every one that works here */
	/* state */
	struct tt_sysfs sfs;
	struct tt_topo topo;
	bool topo_loaded;
	const struct tt_wi_backend *be;
	struct tt_wi_state wi;
	char wi_why[512];
	int nsrc;
	struct tt_source **src;
	struct tt_sampler *sampler;
	struct tt_feed feed;
	struct tt_scanner *scanner;
	struct tt_proc_scan scan;
	bool have_scan;
	uint64_t hist_tick; /* feed tick the history last took */
	int nhist;
	double hist_bw[TT_HISTORY], hist_slow[TT_HISTORY];
	char message[256];
	double t0_s; /* CLOCK_MONOTONIC when opened */
	/* CLOCK_MONOTONIC of the sample tt_top_take_tick last took, 0 after
	 * tt_top_take: a --batch frame is of that sample, however late it is
	 * printed (the first waits for the process scan, seconds on a busy
	 * host), so its readings' age is judged at it, not at the clock. */
	double taken_s;
};

int tt_top_open(struct tt_top *top, const char *root);
void tt_top_close(struct tt_top *top);
/* Every reading the sampler has, and a newer process scan if one is done. */
void tt_top_take(struct tt_top *top);
/* Waits (up to ten intervals) for the sampler's tick number i (0 first)
 * and takes exactly the readings up to it: frames of --batch are one
 * sample each, whatever the timing. TT_EFAIL when the sampler stalls. */
int tt_top_take_tick(struct tt_top *top, uint64_t i);
int tt_top_frame(struct tt_top *top, struct tt_frame *f);
/* Restarts sampling at a new interval, or with new collectors' context. */
int tt_top_restart(struct tt_top *top);
/* Re-reads topology and weights and reopens the collectors (hotplug).
 * *kept: the topology could not be read, and all is as it was. */
int tt_top_reread(struct tt_top *top, bool *kept);
/* The next source node (nodes with CPUs, in turn). */
void tt_top_next_source(struct tt_top *top);
/* "2:5" (node:weight; RFC: tier:weight for the source node): validated as
 * apply validates, written through apply's transaction and journal. On
 * failure the message says why (not root, out of range, auto mode lost). */
int tt_top_write_weight(struct tt_top *top, const char *text);
/* Undoes the newest apply recorded for this root (restore --last). */
int tt_top_undo(struct tt_top *top);

/* tiertop's keys, one table (screen.c): it drives the screen's dispatch,
 * its help, usage() and the man page check. */
struct tt_screen;
struct tt_key {
	const char *keys;  /* the characters that do it: "h?" */
	const char *label; /* as the help shows them, "h ?"; NULL: with the one above */
	const char *brief; /* for usage(): "h help"; NULL: with the one above */
	const char *help;  /* the help screen's text; '\n' continues it */
	void (*act)(struct tt_screen *s);
};
extern const struct tt_key tt_keys[]; /* ends with keys NULL */
const struct tt_key *tt_key_find(int ch);
void tt_keys_help(void (*fn)(void *ctx, int style, const char *line), void *ctx);
void tt_keys_usage(FILE *f);

/* The curses screen; returns the exit status. */
int tt_screen_run(struct tt_top *top);

#endif
