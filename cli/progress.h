/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The status line a person at a terminal watches while a real trial runs:
 * one line on stderr, rewritten in place, saying where the trial is (first
 * touch with its percentage, the warm-up, pass n of N, point n of N), with
 * the time elapsed. bench shows the trial alone; auto and sweep put their
 * own state (measurement n of N, the best so far, time left) before it as
 * the head. One place for it, so the two commands cannot drift: issue 34
 * saw a 6 GiB first touch sit silent for tens of seconds under auto while
 * bench ticked through the same touch.
 *
 * A ticker thread redraws the line every half second between the trial's
 * own calls (bench/run.h's started and progress hooks), so no wait shows a
 * frozen line. Nothing at all unless tty: a log or a pipe gets no status
 * line (the caller decides, from isatty(stderr)).
 *
 *	struct cli_progress p;
 *	cli_progress_init(&p, isatty(STDERR_FILENO));
 *	o.started = ...;  calls cli_progress_started(&p, kernel, r)
 *	o.progress = ...; calls cli_progress_pass(&p, n, of)
 *	o.touched_bytes = cli_progress_counter(&p);
 *	... the run ...
 *	cli_progress_end(&p);
 */
#ifndef CLI_PROGRESS_H
#define CLI_PROGRESS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct tt_bench_result;
struct tt_kernel;

struct cli_progress {
	FILE *out; /* stderr (a test gives a file) */
	bool tty;  /* draw at all */
	double t0; /* elapsed counts from here (init) */
	/* The caller's state before the trial's ("measurement 3 of 30, best
	 * ..."), without the time; "": none (bench). */
	char head[256];
	/* The trial's: what it is doing, and for the first touch how far. */
	const struct tt_kernel *kernel; /* NULL: not known (a profile's runs) */
	char placing[96];
	char line[160]; /* "": no trial under way */
	bool touching;
	bool count_seen; /* kernel NULL: a percentage once the counter moves */
	uint64_t to_touch;
	_Atomic uint64_t touched;
	bool shown, hidden;
	double last;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	pthread_t ticker;
	bool ticking, done;
};

void cli_progress_init(struct cli_progress *p, bool tty);
/* The columns of the terminal on fd (TIOCGWINSZ), else $COLUMNS, else 80:
 * what the status line and a message at a terminal are cut or wrapped
 * to. */
int cli_term_width(int fd);
/* The first-touch counter to give bench/run.h (touched_bytes), or NULL
 * when nothing is drawn (so the run does not count for nobody). */
_Atomic uint64_t *cli_progress_counter(struct cli_progress *p);
/* The head, drawn now (and the trial's line forgotten: a new state of the
 * caller is between trials). NULL or "": none. */
void cli_progress_head(struct cli_progress *p, const char *head);
/* bench/run.h's started: the buffers are mapped, about to be placed and
 * touched (k: the run's kernel; NULL when the caller cannot know it). */
void cli_progress_started(struct cli_progress *p, const struct tt_kernel *k,
			  const struct tt_bench_result *r);
/* bench/run.h's progress: placing (of 0), the warm-up (n 0), pass or point
 * n of of. */
void cli_progress_pass(struct cli_progress *p, int n, int of);
/* The line erased until the next draw: a message is to be printed. */
void cli_progress_hide(struct cli_progress *p);
/* The ticker stopped and the line erased. */
void cli_progress_end(struct cli_progress *p);

#endif
