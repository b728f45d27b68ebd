/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A model of the user's own machine (the format model.h reads), written
 * from real `auto` runs' reports (`tiertune auto --json`: the measured
 * profile, one report for each source node the model is to have) and the
 * machine's tree (a capture, or the live machine being captured):
 * `tiertune capture --model-from REPORT` puts it in the capture as
 * model.json, so `tiertune auto --model DIR/model.json` runs what-if
 * searches of that machine on any host, every figure simulated.
 *
 *	struct tt_model_write_opts o = { .name = "host-a", .machine_sysfs = ".",
 *					 .by = "tiertune capture 0.2.0" };
 *	const char *reports[] = { "auto-0.json", "auto-1.json" };
 *	char *text;
 *	int src[2];
 *	if (tt_model_write(&text, reports, 2, &topo, &o, src) < 0) ...
 *	... write text (model.json), free(text);
 *
 * Each figure says where it came from in its node's "figure_from" object
 * (a key model.c does not read; the file's "source" says the same in
 * words):
 *   - "measured": the profile's bandwidth (the run's mix kernel with all
 *     its threads, every page on the node) and idle latency (the pointer
 *     chase) from the source. Read and write peaks are set so that the
 *     model gives exactly the measured bandwidth for that mix and thread
 *     count on the node alone (model.h: E = 1 / (R / read + W / write)),
 *     split by the write/read ratio below; the profile's own figures are
 *     kept verbatim in the node's "profile" object;
 *   - "hmat": a node the profile did not measure takes the machine's HMAT
 *     figures (the access class whose initiators hold the source: access1,
 *     else access0; else access1 from its best initiator, which overstates);
 *     HMAT's write/read ratio splits a measured bandwidth where it has one;
 *   - "assumed": a write/read ratio of 0.8 where HMAT has none (DRAM's bus
 *     turnarounds, as the shipped models assume), the loaded-latency curve
 *     (the shape of MLC --loaded_latency sweeps, as the shipped models',
 *     scaled to the node's idle latency), and 20 outstanding misses per
 *     thread, raised where a measured bandwidth needs more lines in flight
 *     at the curve's saturated latency than that allows.
 * The model is "simulated": true; the written text is parsed back by
 * tt_model_parse and each measured node evaluated, before it is returned.
 */
#ifndef TT_MODEL_WRITE_H
#define TT_MODEL_WRITE_H

#include "../core/topo.h"

struct tt_model_write_opts {
	const char *name;	   /* the model's "name" */
	const char *machine_sysfs; /* its "machine_sysfs", relative to the model file */
	const char *by;		   /* the tool and version, for the "source" note */
	/* Not NULL: the host name the note gives (a capture's anonymised
	 * one), and the report is not named by its path. */
	const char *hostname;
};

/* The profile's write/read ratio and outstanding misses where nothing
 * measured says otherwise ("assumed"). */
#define TT_MODEL_WRITE_RATIO 0.8
#define TT_MODEL_WRITE_MISSES 20.0

/* Writes the model of t (the machine captured) from the auto reports in
 * the files reports[0..n-1] (1 to TT_MODEL_MAX_SOURCES, a source of the
 * model each) into *text (malloc'd JSON), and each report's source node
 * into sources[]. TT_EINPUT naming the report when it is not an auto run's
 * --json report, is simulated, was measured on another machine
 * (fingerprint), names a node t lacks, has no measured profile, or is from
 * the same source as another; naming the node when one of t's memory
 * nodes has neither a measurement nor HMAT figures. Nothing is written
 * anywhere. */
int tt_model_write(char **text, const char *const *reports, int n, const struct tt_topo *t,
		   const struct tt_model_write_opts *o, int *sources);

#endif
