// SPDX-License-Identifier: GPL-3.0-or-later
/* tiertune run: launch a program under MPOL_WEIGHTED_INTERLEAVE over the
 * weights' nodes, its CPUs on the source node the weights were tuned for,
 * as numactl --weighted-interleave does from 2.0.19 (Debian 12 has 2.0.16).
 *
 * Upstream weights are global (weighted_interleave/nodeN): the policy
 * names only the nodes, and the kernel takes each page's node from the
 * weights sysfs holds at that moment. So the weights asked for (--weights,
 * --run, --profile) must be what sysfs holds; when they are not, run says
 * so and writes nothing, unless --apply, which writes them through the one
 * write path (writer/writer.h) for the program's run only: held, journalled,
 * as a tuner trial holds weights, and put back (the old weights, then auto
 * mode) when it ends. With --nodes alone it runs under whatever sysfs
 * holds. tiertune execs the program, or with weights held or
 * --rebalance-after runs it as a child: either way its exit status is the
 * program's. */
#include "cli.h"

#include "../core/mpol.h"
#include "../core/parse.h"
#include "../core/topo.h"
#include "../core/wi.h"
#include "../db/db.h"
#include "../measure/app.h"
#include "../writer/recos.h"
#include "../writer/writer.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct run_args {
	const char *weights, *profile, *nodes;
	int64_t run, source;
	bool apply, force;
	double rebalance_after; /* s; < 0: exec, no rebalance */
	char **argv;		/* the program and its arguments, NULL-terminated */
};

/* The weights of nodes that sysfs holds otherwise, "node 1: 3 (wanted 2)". */
static int differs(const struct tt_weights *want, const struct tt_wi_state *st,
		   const struct tt_nodemask *nodes, char *buf, size_t size)
{
	int id, n = 0;
	size_t len = 0;

	buf[0] = '\0';
	tt_nodemask_for_each (id, nodes) {
		uint32_t have = tt_weights_get(&st->node, id, 0);

		if (have == want->w[id])
			continue;
		if (len < size)
			len += (size_t)snprintf(buf + len, size - len, "%snode %d holds %u, not %u",
						n ? ", " : "", id, have, want->w[id]);
		n++;
	}
	return n;
}

/* Writes the weights through the one write path, held (res->held) until
 * tt_writer_unhold puts back what was there. */
static int apply_first(struct tt_cli *cli, const struct run_args *a, const struct tt_topo *t,
		       const struct tt_wi_backend *be, struct tt_writer_result *res)
{
	struct tt_writer_req rq = {
		.kind = TT_WRITER_RUN_HELD,
		.from = a->weights   ? TT_WRITER_WEIGHTS
			: a->profile ? TT_WRITER_PROFILE
				     : TT_WRITER_RUN,
		.topo = t,
		.be = be,
		.run_id = a->run,
		.profile = a->profile,
		.source = (int)a->source,
		.force = a->force,
	};
	struct tt_weights w;
	int rc;

	if (a->weights && (rc = cli_weights_read(cli, t, a->weights, CLI_NODE_WEIGHTS, &w)) < 0)
		return rc;
	rq.weights = a->weights ? &w : NULL;
	return cli_write_keep(cli, &rq, res);
}

/* Weights asked for (--weights, --run, --profile), not --nodes alone. */
static bool asked(const struct run_args *a)
{
	return a->weights || a->profile || a->run > 0;
}

/* --nodes: the policy's nodes, among those the weights asked for weigh. */
static int given_nodes(const struct run_args *a, const struct tt_weights *w,
		       struct tt_nodemask *nodes)
{
	struct tt_nodemask given;
	int id;

	memset(&given, 0, sizeof(given));
	if (tt_parse_list(a->nodes, given.bits, TT_MAX_NODES) < 0)
		return tt_err(TT_EINPUT, "--nodes '%s' is not a node list (such as 0-2,4)",
			      a->nodes);
	if (asked(a))
		tt_nodemask_for_each (id, &given)
			if (!tt_nodemask_test(&w->set, id))
				return tt_err(TT_EINPUT,
					      "--nodes '%s' names node %d, which the weights do "
					      "not weigh",
					      a->nodes, id);
	*nodes = given;
	return 0;
}

/* The weights asked for (*w, and *src when they were tuned for one) and
 * the nodes the program's policy names (*nodes, in list): those the
 * weights weigh, or --nodes; each an online memory node. */
static int policy_nodes(struct tt_cli *cli, const struct run_args *a, const struct tt_topo *t,
			const struct tt_wi_backend *be, struct tt_weights *w, int *src,
			struct tt_nodemask *nodes, char *list, size_t lsize)
{
	int rc;

	tt_weights_clear(w);
	memset(nodes, 0, sizeof(*nodes));
	if (asked(a)) {
		struct cli_target tg = { .weights = a->weights,
					 .profile = a->profile,
					 .run = a->run,
					 .source = a->source,
					 .force = a->force };

		rc = cli_target_weights(cli, &tg, t, be, w, src);
		if (rc < 0)
			return rc;
		*nodes = w->set;
	}
	if (a->nodes && (rc = given_nodes(a, w, nodes)) < 0)
		return rc;
	for (int id = 0; id < TT_MAX_NODES; id++)
		if (tt_nodemask_test(nodes, id) && !tt_nodemask_test(&t->mem_nodes, id))
			return tt_err(TT_EINPUT, "node %d is not an online memory node", id);
	tt_bit_format_list(nodes->bits, TT_MAX_NODES, list, lsize);
	return 0;
}

/* What sysfs holds now (*st); the weights asked for must be it, or with
 * --apply are written first, held for the program's run (*res), and read
 * back. */
static int hold_weights(struct tt_cli *cli, const struct run_args *a, const struct tt_topo *t,
			const struct tt_wi_backend *be, const struct tt_weights *w,
			const struct tt_nodemask *nodes, struct tt_wi_state *st,
			struct tt_writer_result *res)
{
	char diff[1024], wtext[1024];
	int rc = be->read(&cli->sfs, t, st);

	if (rc != 0 || !asked(a) || !differs(w, st, nodes, diff, sizeof(diff)))
		return rc;
	tt_weights_format(w, wtext, sizeof(wtext));
	if (!a->apply) {
		rc = tt_err(TT_EUNAVAIL,
			    "sysfs does not hold these weights (%s): %s; nothing written", wtext,
			    diff);
		tt_err_hint("weights are global on this kernel, so every program under "
			    "weighted interleave would use them: 'tiertune run --apply ...' "
			    "writes them for the program's run and puts the old ones back "
			    "when it ends, or apply them yourself ('tiertune apply')");
		return rc;
	}
	rc = apply_first(cli, a, t, be, res);
	if (rc < 0)
		return rc;
	tt_wi_state_release(st);
	tt_wi_state_init(st);
	rc = be->read(&cli->sfs, t, st);
	if (rc == 0 && differs(w, st, nodes, diff, sizeof(diff)))
		rc = tt_err(TT_EFAIL, "after --apply sysfs still does not hold %s: %s", wtext,
			    diff);
	return rc;
}

/* The program, a child of tiertune: its pid, for the handler. */
static volatile sig_atomic_t child_pid;

static void forward(int sig)
{
	if (child_pid > 0)
		kill((pid_t)child_pid, sig);
}

/* While the program runs as a child, tiertune outlives it to put the
 * weights back: Ctrl-C and Ctrl-\ reach the program from the terminal
 * (the foreground group) and tiertune ignores them, as system(3) does; a
 * TERM (a service manager's stop, kill PID) or a HUP (the terminal closed)
 * sent to tiertune is passed on to the program. Only SIGKILL leaves the
 * journal for the next tiertune to put back. */
static const int run_signals[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP };
#define NRUN_SIGNALS (int)(sizeof(run_signals) / sizeof(run_signals[0]))

static void parent_signals(struct sigaction *was)
{
	for (int i = 0; i < NRUN_SIGNALS; i++) {
		struct sigaction sa = { 0 };

		sa.sa_handler =
			run_signals[i] == SIGINT || run_signals[i] == SIGQUIT ? SIG_IGN : forward;
		sa.sa_flags = SA_RESTART;
		sigemptyset(&sa.sa_mask);
		sigaction(run_signals[i], &sa, &was[i]);
	}
}

static void restore_signals(const struct sigaction *was)
{
	for (int i = 0; i < NRUN_SIGNALS; i++)
		sigaction(run_signals[i], &was[i], NULL);
}

/* The program as a child: for the weights held (put back when it ends)
 * and for --rebalance-after, whose pages go to the weights' shares after
 * the delay (its warm-up: the heap it allocates then is what gets moved),
 * as tiertune rebalance --move does, reported on standard error so the
 * program's output stays its own. The exit status is the program's (128 +
 * signal when killed). */
static int launch_child(struct tt_cli *cli, const struct run_args *a, const struct tt_topo *t,
			const struct tt_weights *w, const struct tt_app *app,
			const struct tt_nodemask *nodes)
{
	struct cli_rebalance_opts o = {
		.move = true,
		.tolerance_pct = 1,
		.batch = 1024,
		.rounds = 3,
	};
	struct sigaction was[NRUN_SIGNALS];
	sigset_t block, mask;
	double waited = 0;
	int status, out;
	pid_t child, r;

	/* Blocked across the fork: a signal before the handlers are set
	 * waits for them instead of killing tiertune with the weights held. */
	sigemptyset(&block);
	for (int i = 0; i < NRUN_SIGNALS; i++)
		sigaddset(&block, run_signals[i]);
	sigprocmask(SIG_BLOCK, &block, &mask);
	child = fork();
	if (child < 0) {
		sigprocmask(SIG_SETMASK, &mask, NULL);
		return tt_err_sys(TT_EFAIL, errno, "cannot start '%s'", app->path);
	}
	if (child == 0) {
		sigprocmask(SIG_SETMASK, &mask, NULL);
		/* Said as the shell says a program it cannot run: 127. */
		cli_fail(tt_app_exec(app, nodes));
		fflush(NULL);
		_exit(127);
	}
	child_pid = child;
	parent_signals(was);
	sigprocmask(SIG_SETMASK, &mask, NULL);
	r = 0;
	while (a->rebalance_after >= 0 && (r = waitpid(child, &status, WNOHANG)) == 0 &&
	       waited < a->rebalance_after) {
		struct timespec ts = { 0, 50 * 1000 * 1000 };

		nanosleep(&ts, NULL);
		waited += 0.05;
	}
	if (r == 0 && a->rebalance_after >= 0) {
		fflush(stdout);
		out = dup(1);
		if (out >= 0 && dup2(2, 1) >= 0) {
			cli_rebalance(cli, t, child, w, &o);
			fflush(stdout);
			dup2(out, 1);
		}
		if (out >= 0)
			close(out);
	} else if (r > 0) {
		fprintf(stderr,
			"tiertune run: '%s' exited before --rebalance-after %.1f s: "
			"nothing rebalanced\n",
			a->argv[0], a->rebalance_after);
	}
	if (r == 0)
		while ((r = waitpid(child, &status, 0)) < 0 && errno == EINTR)
			;
	/* A TERM from here on is tiertune's own to ignore: the pid may be
	 * another process's by now. */
	child_pid = 0;
	restore_signals(was);
	if (r < 0)
		return tt_err_sys(TT_EFAIL, errno, "cannot wait for '%s'", app->path);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The program on node src's CPUs under weighted interleave over nodes:
 * tiertune becomes it (measure/app.h's exec form), or with weights held
 * or --rebalance-after runs it as a child. */
static int start(struct tt_cli *cli, const struct run_args *a, const struct tt_topo *t,
		 struct tt_app *app, const struct tt_weights *w, const struct tt_nodemask *nodes,
		 const struct tt_wi_state *st, int src, const char *list, bool held)
{
	const struct tt_node *n = tt_topo_node(t, src);
	uint64_t bits[TT_MAX_CPUS / 64] = { 0 };
	struct tt_weights rw = *w;
	char cpulist[1024];
	int id;

	if (!n || !n->ncpus)
		return tt_err(TT_EINPUT, "source node %d has no CPUs to run the program on", src);
	for (int i = 0; i < n->ncpus; i++)
		tt_bit_set(bits, (unsigned int)n->cpus[i]);
	tt_bit_format_list(bits, TT_MAX_CPUS, cpulist, sizeof(cpulist));
	tt_app_pin(app, n->cpus, n->ncpus);
	if (!cli->sfs.live)
		cli_warn("--sysfs-root '%s' is not this machine: the program's pages follow this "
			 "kernel's weights, and its CPUs and nodes must be this machine's",
			 cli->sysfs_root);
	fprintf(stderr,
		"tiertune run: '%s' on node %d's CPUs (%s), weighted interleave over nodes %s\n",
		a->argv[0], src, cpulist, list);
	fflush(NULL);
	if (a->rebalance_after < 0 && !held)
		return tt_app_exec(app, nodes);
	/* --nodes alone: the weights sysfs holds for them. */
	if (!asked(a)) {
		tt_weights_clear(&rw);
		tt_nodemask_for_each (id, nodes)
			tt_weights_put(&rw, id, tt_weights_get(&st->node, id, 1));
	}
	return launch_child(cli, a, t, &rw, app, nodes);
}

/* The weights held for the program put back once it ended, said on
 * standard error (its output stays its own); a put-back that failed
 * leaves the journal the next tiertune puts back (the message names
 * it), and is the failure run exits with. */
static int put_back(struct tt_writer_result *res, int status)
{
	int restored, rc;

	if (!res->held)
		return status;
	rc = tt_writer_unhold(res, &restored);
	if (rc < 0)
		return rc;
	fprintf(stderr,
		"tiertune run: %sthe weights%s are back as they were (%d value%s put back)\n",
		status >= 0 ? "the program ended: " : "",
		res->auto_turned_off ? " and the kernel's auto mode" : "", restored,
		restored == 1 ? "" : "s");
	return status;
}

static int launch(struct tt_cli *cli, const struct run_args *a)
{
	const struct tt_wi_backend *be = tt_wi_for_key(TT_WI_BY_NODE);
	struct tt_app app;
	struct tt_writer_result res;
	struct tt_wi_state st;
	struct tt_weights w;
	struct tt_nodemask nodes;
	struct tt_topo t;
	char why[256], list[256];
	int src = (int)a->source, rc = cli_load_topo(cli, &t);

	if (rc)
		return rc;
	memset(&res, 0, sizeof(res));
	/* A program that cannot start is refused before anything is written. */
	rc = tt_app_init(&app, a->argv, NULL, true, NULL);
	tt_wi_state_init(&st);
	if (rc < 0)
		goto out;
	/* Global node weights (upstream): the policy names nodes, sysfs
	 * holds their weights. */
	if (!be || be->per_source) {
		rc = tt_err(TT_EUNAVAIL, "no weight interface keyed by node for every source");
		goto out;
	}
	rc = be->detect(&cli->sfs, why, sizeof(why));
	if (rc < 0) {
		rc = tt_err(TT_EUNAVAIL, "run needs %s weights (%s): %s", be->name, be->dir, why);
		goto out;
	}
	rc = policy_nodes(cli, a, &t, be, &w, &src, &nodes, list, sizeof(list));
	if (rc < 0)
		goto out;
	if (src < 0) {
		rc = cli_usage("run needs --source-node N: the node whose CPUs the program runs on "
			       "(the weights were tuned for tasks there)");
		goto out;
	}
	rc = tt_topo_check_source(&t, src);
	if (rc >= 0)
		rc = hold_weights(cli, a, &t, be, &w, &nodes, &st, &res);
	if (rc >= 0)
		rc = start(cli, a, &t, &app, &w, &nodes, &st, src, list, res.held);
	/* Also after a failure to start: what was written goes back. */
	if (res.held) {
		char msg[1024];
		int back;

		snprintf(msg, sizeof(msg), "%s", rc < 0 ? tt_err_msg() : "");
		back = put_back(&res, rc);
		if (back < 0 || rc >= 0)
			rc = back;
		else
			tt_err(rc, "%s", msg);
	}
out:
	tt_writer_result_release(&res);
	tt_app_release(&app);
	tt_wi_state_release(&st);
	tt_topo_release(&t);
	return rc < 0 ? cli_fail(rc) : rc;
}

int cmd_run(struct tt_cli *cli, int argc, char **argv)
{
	struct run_args a = { .source = -1, .run = -1, .rebalance_after = -1 };
	struct cli_opt opts[] = {
		CLI_STRING("weights", &a.weights, "N:W,...",
			   "these node weights (they must be what sysfs holds, or --apply)"),
		CLI_I64("run", &a.run, "RUN", "the weights run RUN recommends", 1, INT64_MAX),
		CLI_STRING("profile", &a.profile, "FILE",
			   "the weights of a profile (export --format json) made on this "
			   "hardware"),
		CLI_STRING("nodes", &a.nodes, "LIST",
			   "interleave over these nodes (default: those the weights weigh); alone, "
			   "under the weights sysfs holds"),
		CLI_SOURCE_NODE(&a.source,
				"the node whose CPUs the program runs on (default: the source the "
				"run or profile was tuned for)"),
		CLI_FLAG("apply", &a.apply,
			 "write the weights for the program's run when sysfs holds others "
			 "(apply's transaction, held; the old weights and auto mode put back "
			 "when it ends; global meanwhile: every program under weighted "
			 "interleave uses them)"),
		CLI_FLAG("force", &a.force, "use a run or profile from other hardware"),
		CLI_DOUBLE("rebalance-after", &a.rebalance_after, "SECONDS",
			   "run the program as a child and after SECONDS move its pages to the "
			   "weights' shares (as rebalance --move; its report on standard error)",
			   0, 1e9),
		CLI_END,
	};
	int nargs, rc = cli_parse(cli, cli_find_command("run"), opts, argc, argv, &nargs);

	if (rc >= 0)
		return rc;
	if (cli->dashdash != 0 || !nargs)
		return cli_usage("run needs the program after '--': tiertune run [options] -- "
				 "COMMAND ARGS...");
	argv[nargs] = NULL;
	a.argv = argv;
	if (!!a.weights + opts[1].seen + !!a.profile > 1)
		return cli_usage("run takes one of --weights, --run, --profile");
	if (!a.weights && !opts[1].seen && !a.profile && !a.nodes)
		return cli_usage("run needs --weights, --run, --profile or --nodes");
	return launch(cli, &a);
}
