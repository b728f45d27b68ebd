/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The app objective's program: run once per measurement, forked, pinned to
 * the source node's CPUs, under MPOL_WEIGHTED_INTERLEAVE over the trial's
 * nodes (set before exec, as numactl -w does), its standard output and error
 * appended to a log rather than mixed into tiertune's report. Its score is
 * its wall time, or a number it prints (--metric). The weights themselves
 * are written around each run by the caller (policy.h).
 *
 *	struct tt_app a;
 *	if (tt_app_init(&a, argv, "([0-9.]+) ops/s", true, log) < 0) ...
 *	tt_app_pin(&a, cpus, ncpus);              (none: wherever allowed)
 *	rc = tt_app_run(&a, &nodes, "0:3,1:1", &res);   (then tt_app_score)
 *	tt_app_release(&a);
 *
 * A program that exits non-zero or is killed is a failed run (TT_EFAIL
 * naming the command and its status); one that prints nothing the metric
 * matches, too. The program runs in its own process group; a signal caught
 * by tiertune (policy.h) while it runs sends the group SIGTERM, then
 * SIGKILL after a grace period, and the run fails saying so. After every
 * run, whatever it left (its group's members, and setsid daemons, which come
 * back to tiertune as their subreaper) is ended the same way and reaped, and
 * counted in the result and in a->leftovers. `tiertune run` execs the
 * program in its own process instead (tt_app_exec): the same CPUs and
 * policy, no fork, no log.
 */
#ifndef TT_APP_H
#define TT_APP_H

#include "../core/bitmap.h"

#include <limits.h>
#include <regex.h>
#include <stdbool.h>

#include "../core/weights.h"

struct tt_db_trial;
struct tt_topo;

struct tt_app_result {
	double wall_s; /* fork to exit, s */
	double value;  /* the metric's number (NaN without --metric) */
	int status;    /* waitpid status */
	int leftovers; /* processes the run left, ended after it */
	/* Whether the program ran (tt_app_run's sampling, app.c): the share of
	 * the run's wall time its longest-waiting thread was not kept waiting
	 * for a CPU (schedstat), NaN when it could not be read; the steal of
	 * its CPUs over the run (NaN unknown); its involuntary context
	 * switches. descheduled under bench's TT_RAN_MIN or with steal beyond
	 * it, why saying how. */
	double share;
	double steal_s;
	long nivcsw;
	bool descheduled;
	char why[200];
};

struct tt_app {
	char **argv;	       /* the command and its arguments, NULL-terminated */
	char path[PATH_MAX];   /* argv[0] as found in PATH */
	const char *metric;    /* the --metric regex; NULL: wall time */
	bool higher_is_better; /* the metric's direction */
	regex_t re;	       /* metric compiled (POSIX extended) */
	const char *log_path;  /* the program's output, appended */
	int cpus[TT_MAX_CPUS]; /* where it may run; ncpus 0: anywhere */
	int ncpus;
	int runs;      /* runs started */
	int leftovers; /* processes left by the runs, all ended (tt_app_run) */
	/* The policy's nodes for every run instead of the weights' own: for
	 * the orchestration tests on a fixture, whose nodes this host lacks. */
	bool host_nodes;
	struct tt_nodemask nodes;
	double grace_s; /* after SIGTERM on an interruption, before SIGKILL */
	/* A descheduled run is run again up to TT_UNSTABLE_RUNS times, then
	 * refused (tt_app_measure); keep_descheduled (--allow-unstable) takes
	 * it. last: the run tt_app_measure scored, for the record. */
	bool keep_descheduled;
	struct tt_app_result last;
};

/* Finds the command (TT_EINPUT when it is not an executable file, in PATH
 * when it has no '/'), compiles the metric (TT_EINPUT naming it), and
 * truncates the log (created 0600; NULL: none, for tt_app_exec). */
/* cmd as execvp would find it (PATH when it has no '/'), in out:
 * TT_EINPUT naming it when it is not an executable file. */
int tt_app_find(const char *cmd, char *out, size_t size);
int tt_app_init(struct tt_app *a, char **argv, const char *metric, bool higher_is_better,
		const char *log_path);
void tt_app_release(struct tt_app *a);
void tt_app_pin(struct tt_app *a, const int *cpus, int ncpus);
/* One run under MPOL_WEIGHTED_INTERLEAVE over nodes; label heads its part
 * of the log. */
int tt_app_run(struct tt_app *a, const struct tt_nodemask *nodes, const char *label,
	       struct tt_app_result *r);
/* The exec form (tiertune run): this process becomes the program, pinned
 * to a->cpus (tt_app_pin; none: wherever allowed), under
 * MPOL_WEIGHTED_INTERLEAVE over nodes, its input and output tiertune's
 * own, its exit status the command's. Returns only when it could not
 * (negative status naming the step, as tt_app_run's child reports it). */
int tt_app_exec(const struct tt_app *a, const struct tt_nodemask *nodes);
/* The search's score of a run, higher is better: 1/wall_s, the metric, or
 * 1/metric when lower is better (which needs a positive metric; TT_EFAIL
 * otherwise). The inverse keeps gains meaningful: +10% is 10% more runs
 * (or units of the metric) per unit, where a negated time would flip signs. */
int tt_app_score(const struct tt_app *a, const struct tt_app_result *r, double *score);
/* The search's measure callback (search.h); ctx is the struct tt_app. The
 * policy's nodes are those w gives a weight (or a->nodes). */
int tt_app_measure(void *ctx, const struct tt_weights *w, double *score);
/* A score shown in the objective's own terms: seconds or the metric. */
double tt_app_shown(const struct tt_app *a, double score);
/* The program's n scores as the database keeps a trial of them, in its
 * own terms: best, median and worst of the seconds, or of the metric with
 * its direction. */
void tt_app_figures(const struct tt_app *a, const double *score, int n, struct tt_db_trial *d);
/* Where the program runs: on the source node's CPUs; under the test hook
 * (core/test-hooks.h) on a fixture's copy (not live), on this host's
 * memory nodes instead of the weights' own, which this host lacks. */
int tt_app_place(struct tt_app *a, const struct tt_topo *t, int source, bool live);

/* The number in text the metric matches last: the first capture group, or
 * the whole match without one. 0, 1 for no match, or TT_EINPUT when the
 * match is not a number. Exposed for the unit tests. */
int tt_app_parse_metric(const struct tt_app *a, const char *text, double *value);

#endif
