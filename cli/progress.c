// SPDX-License-Identifier: GPL-3.0-or-later
/* The status line of a real trial (progress.h), bench's and auto's. */
#include "progress.h"

#include "../bench/kernels.h"
#include "../bench/run.h"
#include "../core/deadline.h"
#include "../core/figure.h"

#include <inttypes.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <string.h>
#include <time.h>

void cli_progress_init(struct cli_progress *p, bool tty)
{
	memset(p, 0, sizeof(*p));
	p->out = stderr;
	p->tty = tty;
	p->t0 = tt_mono_s();
	atomic_init(&p->touched, 0);
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
}

_Atomic uint64_t *cli_progress_counter(struct cli_progress *p)
{
	return p->tty ? &p->touched : NULL;
}

int cli_term_width(int fd)
{
	struct winsize ws;
	const char *env = getenv("COLUMNS");
	char *end;
	long n;

	if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	if (env && *env) {
		n = strtol(env, &end, 10);
		if (*end == '\0' && n > 0 && n <= 10000)
			return (int)n;
	}
	return 80;
}

/* s cut to at most max bytes, "..." where it was cut, never inside a
 * UTF-8 sequence. Bytes, not columns: a character is never narrower. */
static void cut(char *s, size_t max)
{
	size_t n;

	if (strlen(s) <= max)
		return;
	if (max < 4) {
		s[max] = '\0';
		return;
	}
	n = max - 3;
	while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	memcpy(s + n, "...", 4);
}

/* Under p->mu. bench's line alone keeps its tenths of a second; after
 * auto's head, whole seconds, as auto's own line has them. The line is
 * cut to the terminal, its time kept: "\r\033[K" clears only the row the
 * cursor is on, so a line that wrapped left its first rows behind at every
 * redraw (issue 44: 84 characters at 80 columns, a line per redraw at 60).
 * The last column stays empty: a terminal wraps, or holds the cursor
 * there. */
static void draw(struct cli_progress *p, double t)
{
	char touched[64] = "", body[512], elapsed[48];
	uint64_t done = atomic_load(&p->touched);
	int width = cli_term_width(fileno(p->out)) - 1;

	if (p->line[0] && p->touching && p->to_touch && (p->kernel || done || p->count_seen)) {
		p->count_seen = true;
		if (done >= p->to_touch)
			snprintf(touched, sizeof(touched), ", asking where the pages are");
		else
			snprintf(touched, sizeof(touched), ", %.0f%% touched",
				 100.0 * (double)done / (double)p->to_touch);
	}
	if (!p->head[0]) {
		snprintf(body, sizeof(body), "%s%s", p->line, touched);
		snprintf(elapsed, sizeof(elapsed), ", %.1f s elapsed", t - p->t0);
	} else {
		if (p->line[0])
			snprintf(body, sizeof(body), "%s; %s%s", p->head, p->line, touched);
		else
			snprintf(body, sizeof(body), "%s", p->head);
		snprintf(elapsed, sizeof(elapsed), ", %.0f s elapsed", t - p->t0);
	}
	if (width < (int)strlen(elapsed) + 8) {
		body[0] = '\0';
		cut(elapsed + 2, width > 2 ? (size_t)width : 1);
		memmove(elapsed, elapsed + 2, strlen(elapsed + 2) + 1);
	} else {
		cut(body, (size_t)width - strlen(elapsed));
	}
	fprintf(p->out, "\r\033[K%s%s", body, elapsed);
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
		if (!p->done && p->shown && tt_mono_s() - p->last >= 0.5)
			draw(p, tt_mono_s());
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

void cli_progress_head(struct cli_progress *p, const char *head)
{
	if (!p->tty)
		return;
	double t = tt_mono_s();

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
	char size[48];

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
		tt_figure_text(tt_figure(TT_FIG_SIZE), (double)k->arrays * (double)r->array_bytes,
			       size, sizeof(size));
		snprintf(p->placing, sizeof(p->placing), "placing and touching %s (%s)",
			 k->kind->buffers, size);
		/* The bandwidth arrays report their touch; a chain is built
		 * in one sweep and says only its time. */
		p->to_touch = k->kind->bandwidth ? (uint64_t)k->arrays * r->array_bytes : 0;
	} else {
		/* The kernel unknown: all the run touches, and a percentage
		 * only once the touch counts (a chain never does). */
		tt_figure_text(tt_figure(TT_FIG_SIZE), (double)r->touched_bytes, size,
			       sizeof(size));
		snprintf(p->placing, sizeof(p->placing), "placing and touching the buffers (%s)",
			 size);
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
	double t = tt_mono_s();
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
