// SPDX-License-Identifier: GPL-3.0-or-later
/* The status line of a real trial (progress.h), bench's and auto's. */
#include "progress.h"

#include "../bench/kernels.h"
#include "../bench/run.h"

#include <inttypes.h>
#include <string.h>
#include <time.h>

#define MIB(b) ((double)(b) / (1 << 20))

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void cli_progress_init(struct cli_progress *p, bool tty)
{
	memset(p, 0, sizeof(*p));
	p->out = stderr;
	p->tty = tty;
	p->t0 = now_s();
	atomic_init(&p->touched, 0);
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
}

_Atomic uint64_t *cli_progress_counter(struct cli_progress *p)
{
	return p->tty ? &p->touched : NULL;
}

/* Under p->mu. bench's line alone keeps its tenths of a second; after
 * auto's head, whole seconds, as auto's own line has them. */
static void draw(struct cli_progress *p, double t)
{
	char touched[64] = "";
	uint64_t done = atomic_load(&p->touched);

	if (p->line[0] && p->touching && p->to_touch && (p->kernel || done || p->count_seen)) {
		p->count_seen = true;
		if (done >= p->to_touch)
			snprintf(touched, sizeof(touched), ", asking where the pages are");
		else
			snprintf(touched, sizeof(touched), ", %.0f%% touched",
				 100.0 * (double)done / (double)p->to_touch);
	}
	if (!p->head[0])
		fprintf(p->out, "\r\033[K%s%s, %.1f s elapsed", p->line, touched, t - p->t0);
	else if (p->line[0])
		fprintf(p->out, "\r\033[K%s; %s%s, %.0f s elapsed", p->head, p->line, touched,
			t - p->t0);
	else
		fprintf(p->out, "\r\033[K%s, %.0f s elapsed", p->head, t - p->t0);
	fflush(p->out);
	p->shown = true;
	p->last = t;
}

static void *tick(void *arg)
{
	struct cli_progress *p = arg;

	pthread_mutex_lock(&p->mu);
	while (!p->done) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 500000000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&p->cv, &p->mu, &ts);
		if (!p->done && p->shown && now_s() - p->last >= 0.5)
			draw(p, now_s());
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

void cli_progress_head(struct cli_progress *p, const char *head)
{
	if (!p->tty)
		return;
	double t = now_s();

	pthread_mutex_lock(&p->mu);
	snprintf(p->head, sizeof(p->head), "%s", head ? head : "");
	p->line[0] = '\0';
	p->touching = false;
	/* At most ten redraws a second; the ticker shows the newest head. */
	if (!p->shown || t - p->last >= 0.1)
		draw(p, t);
	pthread_mutex_unlock(&p->mu);
}

void cli_progress_started(struct cli_progress *p, const struct tt_kernel *k,
			  const struct tt_bench_result *r)
{
	if (!p->tty)
		return;
	pthread_mutex_lock(&p->mu);
	p->kernel = k;
	p->count_seen = false;
	atomic_store(&p->touched, 0);
	if (r->reused) {
		/* A tuner's trial in the arrays an earlier one placed: only
		 * the pages whose node changes were moved (bench/run.h). */
		snprintf(p->placing, sizeof(p->placing), "%s in place (%" PRIu64 " pages moved)",
			 k ? k->kind->buffers : "buffers", r->moved_pages);
		p->to_touch = 0;
	} else if (k) {
		snprintf(p->placing, sizeof(p->placing), "placing and touching %s (%.1f MiB)",
			 k->kind->buffers, MIB((uint64_t)k->arrays * r->array_bytes));
		/* The bandwidth arrays report their touch; a chain is built
		 * in one sweep and says only its time. */
		p->to_touch = k->kind->bandwidth ? (uint64_t)k->arrays * r->array_bytes : 0;
	} else {
		/* The kernel unknown: all the run touches, and a percentage
		 * only once the touch counts (a chain never does). */
		snprintf(p->placing, sizeof(p->placing),
			 "placing and touching the buffers (%.1f MiB)", MIB(r->touched_bytes));
		p->to_touch = r->touched_bytes;
	}
	if (!p->ticking)
		p->ticking = pthread_create(&p->ticker, NULL, tick, p) == 0;
	pthread_mutex_unlock(&p->mu);
}

void cli_progress_pass(struct cli_progress *p, int n, int of)
{
	if (!p->tty)
		return;
	double t = now_s();
	bool curve = p->kernel && p->kernel->kind->curve;

	pthread_mutex_lock(&p->mu);
	if (p->shown && n > 0 && n < of && t - p->last < 0.1) {
		pthread_mutex_unlock(&p->mu);
		return;
	}
	p->touching = of == 0;
	if (of == 0)
		snprintf(p->line, sizeof(p->line), "%s",
			 p->placing[0] ? p->placing : "placing and touching the buffers");
	else if (curve && n == 0)
		snprintf(p->line, sizeof(p->line), "idle latency, before %d points", of);
	else if (curve)
		snprintf(p->line, sizeof(p->line), "point %d of %d", n, of);
	else if (n == 0)
		snprintf(p->line, sizeof(p->line), "warm-up pass");
	else
		snprintf(p->line, sizeof(p->line), "pass %d of %d", n, of);
	draw(p, t);
	pthread_mutex_unlock(&p->mu);
}

void cli_progress_hide(struct cli_progress *p)
{
	pthread_mutex_lock(&p->mu);
	if (p->shown) {
		fprintf(p->out, "\r\033[K");
		fflush(p->out);
	}
	p->shown = false;
	pthread_mutex_unlock(&p->mu);
}

void cli_progress_end(struct cli_progress *p)
{
	if (p->ticking) {
		pthread_mutex_lock(&p->mu);
		p->done = true;
		pthread_cond_signal(&p->cv);
		pthread_mutex_unlock(&p->mu);
		pthread_join(p->ticker, NULL);
		p->ticking = false;
	}
	cli_progress_hide(p);
}
