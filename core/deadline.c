// SPDX-License-Identifier: GPL-3.0-or-later
#include "deadline.h"

#include <errno.h>

double tt_mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void tt_deadline_cond_init(pthread_cond_t *cv)
{
	pthread_condattr_t ca;

	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(cv, &ca);
	pthread_condattr_destroy(&ca);
}

void tt_deadline_add(struct timespec *due, double s)
{
	long ns = (long)(s * 1e9);

	due->tv_sec += ns / 1000000000L;
	due->tv_nsec += ns % 1000000000L;
	if (due->tv_nsec >= 1000000000L) {
		due->tv_sec++;
		due->tv_nsec -= 1000000000L;
	}
}

void tt_deadline_in(struct timespec *due, double s)
{
	clock_gettime(CLOCK_MONOTONIC, due);
	tt_deadline_add(due, s);
}

bool tt_deadline_wait(pthread_cond_t *cv, pthread_mutex_t *mu, const struct timespec *due)
{
	return pthread_cond_timedwait(cv, mu, due) == ETIMEDOUT;
}
