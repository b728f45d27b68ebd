// SPDX-License-Identifier: GPL-3.0-or-later
/* rebalance --damon: the shares kept by DAMON (migrate/damon.h) rather than
 * moved once. Sets the scheme set up, reports each scheme's goal and stats
 * as DAMON counts them, and removes it when the time given is up, on ^C,
 * SIGTERM or SIGHUP, or (--damon-keep left it) on --damon-stop: DAMON as
 * it was found, no kdamond. */
#include "cli.h"

#include "../core/deadline.h"
#include "../migrate/damon.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static void catch_signals(bool on)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on ? on_signal : SIG_DFL;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(*sigs); i++)
		sigaction(sigs[i], &sa, NULL);
}

/* One table of DAMON's own figures: the goal's current_value against its
 * target, what the scheme tried and applied, the quota the tuner set. */
static int report(struct tt_cli *cli, const struct tt_damon_set *set, struct tt_damon_now *now)
{
	int rc = tt_damon_progress(&cli->sfs, set, now);

	if (rc < 0)
		return rc;
	printf("  node  target_bp  current_bp  tried_bytes  applied_bytes  quota_bytes\n");
	for (int i = 0; i < set->n; i++)
		printf("%6d  %9u  %10llu  %11llu  %13llu  %11llu\n", now[i].nid, now[i].target_bp,
		       (unsigned long long)now[i].current_bp,
		       (unsigned long long)now[i].sz_tried_bytes,
		       (unsigned long long)now[i].sz_applied_bytes,
		       (unsigned long long)now[i].effective_bytes);
	fflush(stdout);
	return 0;
}

/* Sleeps s seconds, or until a signal sets stop_signal (an EINTR before
 * the deadline sleeps on only when no stop was asked). */
static void pause_s(double s)
{
	struct timespec due;

	tt_deadline_in(&due, s);
	while (!stop_signal && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &due, NULL) == EINTR)
		;
}

int cli_rebalance_damon(struct tt_cli *cli, const struct tt_weights *w,
			const struct cli_damon_opts *o)
{
	struct tt_damon_set *set = malloc(sizeof(*set));
	struct tt_damon_now *now = calloc(TT_MAX_NODES, sizeof(*now));
	double left = o->seconds;
	int rc = set && now ? 0 : tt_err(TT_EFAIL, "out of memory"), stop;
	bool started = false;

	if (rc == 0)
		rc = tt_damon_set_from_weights(cli->topo, w, set);
	if (rc == 0)
		tt_damon_read_spans(&cli->sfs, set);
	if (rc == 0) {
		catch_signals(!o->keep);
		rc = tt_damon_start(&cli->sfs, set);
		started = rc == 0;
	}
	if (rc == 0) {
		printf("DAMON keeps the machine's hot memory at the shares: kdamond 0, paddr, "
		       "%d migrate_hot schemes, goals %s\n",
		       set->n, TT_DAMON_METRIC);
		rc = report(cli, set, now);
	}
	if (rc == 0 && o->keep) {
		printf("left running; 'tiertune rebalance --damon-stop' removes it\n");
		goto out;
	}
	while (rc == 0 && !stop_signal && (o->seconds <= 0 || left > 0)) {
		double step = o->seconds > 0 && left < o->every ? left : o->every;

		pause_s(step);
		left -= step;
		if (!stop_signal)
			rc = report(cli, set, now);
	}
	if (started) {
		stop = tt_damon_stop(&cli->sfs);
		if (stop == 0 && rc == 0)
			printf("removed%s: DAMON as found, no kdamond\n",
			       stop_signal ? " on a signal" : "");
		if (rc == 0)
			rc = stop;
	}
	catch_signals(false);
out:
	free(now);
	free(set);
	return rc < 0 ? cli_fail(rc) : 0;
}

int cli_rebalance_damon_stop(struct tt_cli *cli)
{
	char what[512];
	int rc = cli_open_root(cli), ours;

	if (rc)
		return rc;
	ours = tt_damon_ours(&cli->sfs, what, sizeof(what));
	if (ours == 0)
		rc = tt_err(TT_EUNAVAIL,
			    "no DAMON scheme set of tiertune's to remove (%s): a kdamond another "
			    "tool set up is left alone",
			    what);
	else if (ours < 0)
		rc = ours;
	else
		rc = tt_damon_stop(&cli->sfs);
	if (rc == 0)
		printf("removed: DAMON as found, no kdamond\n");
	return rc < 0 ? cli_fail(rc) : 0;
}
