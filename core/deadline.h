/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Deadlines on the monotonic clock, for the threads that do something every
 * period (the collectors' sampler, tiertop's process scanner): a step of
 * the wall clock (NTP, date -s) must neither stretch nor cut a period.
 * Calling sequence: the thread's condition variable made by
 * tt_deadline_cond_init; a deadline set by tt_deadline_in and moved on by
 * tt_deadline_add; between rounds, with the mutex held, tt_deadline_wait
 * until it passes or the caller's stop (or kick) is signalled.
 */
#ifndef TT_DEADLINE_H
#define TT_DEADLINE_H

#include <pthread.h>
#include <stdbool.h>
#include <time.h>

/* Now on the monotonic clock, seconds. */
double tt_mono_s(void);
/* cv, waiting on the monotonic clock the deadlines are on. */
void tt_deadline_cond_init(pthread_cond_t *cv);
/* *due: s seconds from now. */
void tt_deadline_in(struct timespec *due, double s);
/* *due moved on by s seconds: a deadline a whole number of periods from
 * the first does not drift by the time each round takes. */
void tt_deadline_add(struct timespec *due, double s);
/* Waits on cv (mu held) until due: true once it has passed, false when cv
 * was signalled first (the caller looks at why, and waits again if for
 * nothing). */
bool tt_deadline_wait(pthread_cond_t *cv, pthread_mutex_t *mu, const struct timespec *due);

#endif
