// SPDX-License-Identifier: GPL-3.0-or-later
#include "procs.h"

#include "../core/deadline.h"
#include "../core/error.h"
#include "../core/numa-maps.h"
#include "../core/parse.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

int tt_procs_scan(const struct tt_sysfs *s, struct tt_proc_scan *out)
{
	char **names = NULL;
	struct tt_numa_maps *m = malloc(sizeof(*m));
	int rc, cap = 0;

	memset(out, 0, sizeof(*out));
	if (!m)
		return tt_err(TT_EFAIL, "out of memory");
	rc = tt_sysfs_list(s, &names, "/proc");
	if (rc < 0) {
		free(m);
		return rc;
	}
	rc = 0;
	for (char **n = names; *n && rc == 0; n++) {
		uint64_t pid;
		char comm[64];

		if (tt_parse_u64(*n, 1, INT32_MAX, &pid) < 0)
			continue;
		out->seen++;
		if (tt_numa_maps_read(s, (pid_t)pid, m) < 0) {
			out->skipped++;
			continue;
		}
		if (!m->il_vmas)
			continue;
		if (out->n == cap) {
			int nc = cap ? cap * 2 : 8;
			struct tt_proc_info *np = realloc(out->p, (size_t)nc * sizeof(*np));

			if (!np) {
				rc = tt_err(TT_EFAIL, "out of memory");
				break;
			}
			out->p = np;
			cap = nc;
		}
		struct tt_proc_info *p = &out->p[out->n];

		memset(p, 0, sizeof(*p));
		if (!(p->bytes = malloc(sizeof(m->bytes)))) {
			rc = tt_err(TT_EFAIL, "out of memory");
			break;
		}
		out->n++;
		p->pid = (int)pid;
		if (tt_sysfs_read(s, comm, sizeof(comm), "/proc/%d/comm", (int)pid) < 0)
			snprintf(comm, sizeof(comm), "?");
		tt_str_escape(comm, p->comm, sizeof(p->comm));
		p->mode = m->mode;
		memcpy(p->flags, m->flags, sizeof(p->flags));
		p->nodes = m->nodes;
		p->mixed = m->mixed;
		p->resident = m->resident;
		memcpy(p->bytes, m->bytes, sizeof(m->bytes));
		p->total_bytes = m->total_bytes;
	}
	tt_sysfs_free_names(names);
	free(m);
	out->t_s = tt_mono_s();
	if (rc < 0)
		tt_proc_scan_release(out);
	return rc;
}

/* How long quitting waits for a scan under way to finish, s. */
#define STOP_WAIT_S 0.3

struct tt_scanner {
	struct tt_sysfs sfs;
	double period_s;
	pthread_t tid;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool stop, kick, fresh, idle;
	/* The thread has left its loop; stop gave up waiting for it, so the
	 * thread frees the scanner itself. */
	bool done, abandoned;
	struct tt_proc_scan ready;
};

static void scanner_free(struct tt_scanner *sc)
{
	tt_proc_scan_release(&sc->ready);
	pthread_cond_destroy(&sc->cv);
	pthread_mutex_destroy(&sc->mu);
	free(sc);
}

static void *run(void *arg)
{
	struct tt_scanner *sc = arg;

	pthread_mutex_lock(&sc->mu);
	while (!sc->stop) {
		struct tt_proc_scan s;

		pthread_mutex_unlock(&sc->mu);
		int rc = tt_procs_scan(&sc->sfs, &s);

		pthread_mutex_lock(&sc->mu);
		if (rc == 0) {
			tt_proc_scan_release(&sc->ready);
			sc->ready = s;
			sc->fresh = true;
			pthread_cond_broadcast(&sc->cv);
		}
		struct timespec due;

		/* A period from the end of a scan: a slow /proc does not
		 * make scans run back to back. */
		tt_deadline_in(&due, sc->period_s);
		while (!sc->stop && !sc->kick) {
			if (sc->idle)
				pthread_cond_wait(&sc->cv, &sc->mu);
			else if (tt_deadline_wait(&sc->cv, &sc->mu, &due))
				break;
		}
		sc->kick = false;
	}
	sc->done = true;
	pthread_cond_broadcast(&sc->cv);
	if (sc->abandoned) {
		pthread_mutex_unlock(&sc->mu);
		scanner_free(sc);
		return NULL;
	}
	pthread_mutex_unlock(&sc->mu);
	return NULL;
}

int tt_scanner_start(struct tt_scanner **out, const struct tt_sysfs *s, double period_s)
{
	struct tt_scanner *sc = calloc(1, sizeof(*sc));

	*out = NULL;
	if (!sc)
		return tt_err(TT_EFAIL, "out of memory");
	sc->sfs = *s;
	sc->period_s = period_s;
	pthread_mutex_init(&sc->mu, NULL);
	tt_deadline_cond_init(&sc->cv);
	int rc = pthread_create(&sc->tid, NULL, run, sc);

	if (rc) {
		pthread_cond_destroy(&sc->cv);
		pthread_mutex_destroy(&sc->mu);
		free(sc);
		return tt_err_sys(TT_EFAIL, rc, "cannot start the process scanner");
	}
	*out = sc;
	return 0;
}

bool tt_scanner_take(struct tt_scanner *sc, struct tt_proc_scan *scan)
{
	bool got;

	pthread_mutex_lock(&sc->mu);
	got = sc->fresh;
	if (got) {
		tt_proc_scan_release(scan);
		*scan = sc->ready;
		memset(&sc->ready, 0, sizeof(sc->ready));
		sc->fresh = false;
	}
	pthread_mutex_unlock(&sc->mu);
	return got;
}

bool tt_scanner_wait(struct tt_scanner *sc, double timeout_s)
{
	struct timespec due;
	bool got;

	tt_deadline_in(&due, timeout_s);
	pthread_mutex_lock(&sc->mu);
	while (!sc->fresh && !tt_deadline_wait(&sc->cv, &sc->mu, &due))
		;
	got = sc->fresh;
	pthread_mutex_unlock(&sc->mu);
	return got;
}

void tt_scanner_kick(struct tt_scanner *sc)
{
	pthread_mutex_lock(&sc->mu);
	sc->kick = true;
	pthread_cond_broadcast(&sc->cv);
	pthread_mutex_unlock(&sc->mu);
}

void tt_scanner_set_idle(struct tt_scanner *sc, bool idle)
{
	pthread_mutex_lock(&sc->mu);
	sc->idle = idle;
	pthread_cond_broadcast(&sc->cv);
	pthread_mutex_unlock(&sc->mu);
}

void tt_scanner_set_period(struct tt_scanner *sc, double period_s)
{
	pthread_mutex_lock(&sc->mu);
	sc->period_s = period_s;
	pthread_mutex_unlock(&sc->mu);
}

void tt_scanner_stop(struct tt_scanner *sc)
{
	if (!sc)
		return;
	struct timespec due;

	tt_deadline_in(&due, STOP_WAIT_S);
	pthread_mutex_lock(&sc->mu);
	sc->stop = true;
	pthread_cond_broadcast(&sc->cv);
	while (!sc->done && !tt_deadline_wait(&sc->cv, &sc->mu, &due))
		;
	if (!sc->done) {
		/* A read that does not return (a process's numa_maps behind a
		 * stalled mmap lock, a FIFO) must not keep q, Ctrl-C or TERM
		 * from quitting: the thread is left to end on its own. */
		sc->abandoned = true;
		pthread_detach(sc->tid);
		pthread_mutex_unlock(&sc->mu);
		return;
	}
	pthread_mutex_unlock(&sc->mu);
	pthread_join(sc->tid, NULL);
	scanner_free(sc);
}
