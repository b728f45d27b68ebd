// SPDX-License-Identifier: GPL-3.0-or-later
/* The app objective's program (see app.h). */
#define _GNU_SOURCE /* CPU_SET_S, pipe2 */
#include "app.h"

#include "../bench/run.h"
#include "../core/error.h"
#include "../core/mpol.h"
#include "../core/sysfs.h"
#include "../core/test-hooks.h"
#include "../db/db.h"
#include "stats.h"
#include "policy.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Where a metric is looked for: the end of a run's output. */
#define METRIC_TAIL (1 << 20)

static bool executable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* As execvp would find it, so that a missing command is refused before
 * anything is written, not discovered in the first trial. */
int tt_app_find(const char *cmd, char *out, size_t size)
{
	const char *path = getenv("PATH");

	if (strchr(cmd, '/')) {
		if (!executable(cmd))
			return tt_err(TT_EINPUT, "command '%s' is not an executable file", cmd);
		snprintf(out, size, "%s", cmd);
		return 0;
	}
	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		size_t len = strcspn(p, ":");

		if (len && (size_t)snprintf(out, size, "%.*s/%s", (int)len, p, cmd) < size &&
		    executable(out))
			return 0;
		p += len + (p[len] == ':');
	}
	return tt_err(TT_EINPUT, "command '%s' not found in PATH", cmd);
}

int tt_app_init(struct tt_app *a, char **argv, const char *metric, bool higher_is_better,
		const char *log_path)
{
	int fd, rc;

	memset(a, 0, sizeof(*a));
	a->argv = argv;
	a->higher_is_better = higher_is_better;
	a->log_path = log_path;
	a->grace_s = 2;
	if (!argv || !argv[0] || !argv[0][0])
		return tt_err(TT_EINPUT, "no command to run");
	rc = tt_app_find(argv[0], a->path, sizeof(a->path));
	if (rc < 0)
		return rc;
	if (metric) {
		char why[256];

		rc = regcomp(&a->re, metric, REG_EXTENDED);
		if (rc) {
			regerror(rc, &a->re, why, sizeof(why));
			return tt_err(TT_EINPUT, "--metric '%s' is not a regular expression: %s",
				      metric, why);
		}
		a->metric = metric;
	}
	if (!log_path)
		return 0;
	fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		rc = tt_err_sys(TT_EFAIL, errno, "cannot open the program's log '%s'", log_path);
		tt_app_release(a);
		return rc;
	}
	close(fd);
	return 0;
}

void tt_app_release(struct tt_app *a)
{
	if (a->metric)
		regfree(&a->re);
	a->metric = NULL;
}

void tt_app_pin(struct tt_app *a, const int *cpus, int ncpus)
{
	a->ncpus = ncpus < TT_MAX_CPUS ? ncpus : TT_MAX_CPUS;
	memcpy(a->cpus, cpus, (size_t)a->ncpus * sizeof(*cpus));
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* What failed in the child before exec, sent up the pipe. */
struct child_err {
	int step; /* 1 affinity, 2 mempolicy, 3 exec, 4 output */
	int err;
};

/* The program in this process: its CPUs (cpus NULL: wherever allowed), its
 * policy weighted interleave over nodes, then exec, as numactl -w does.
 * Only system calls (the child of tt_app_run is between fork and exec);
 * returns only on failure, with the step that failed. */
static struct child_err enter(const struct tt_app *a, const cpu_set_t *cpus, size_t cpus_size,
			      const struct tt_nodemask *nodes)
{
	struct child_err e = { 0, 0 };

	if (cpus && sched_setaffinity(0, cpus_size, cpus) < 0)
		return (struct child_err){ 1, errno };
	if ((e.err = -tt_set_mempolicy(MPOL_WEIGHTED_INTERLEAVE, nodes)) != 0) {
		e.step = 2;
		return e;
	}
	execv(a->path, a->argv);
	return (struct child_err){ 3, errno };
}

/* The failure enter() or the child's output reported, as an error. */
static int entry_failed(const struct tt_app *a, const struct child_err *e)
{
	static const char *const steps[] = { "", "pinning it to the source node's CPUs",
					     "setting MPOL_WEIGHTED_INTERLEAVE", "starting it",
					     "sending its output to the log" };
	int rc = tt_err_sys(e->step == 2 && e->err == EINVAL ? TT_EUNAVAIL : TT_EFAIL, e->err,
			    "running '%s': %s failed", a->argv[0],
			    steps[e->step >= 1 && e->step <= 4 ? e->step : 0]);

	if (e->step == 2 && e->err == EINVAL)
		tt_err_hint("MPOL_WEIGHTED_INTERLEAVE needs Linux 6.9 or later");
	return rc;
}

/* a->cpus as a CPU set in *set (NULL when a is not pinned). */
static int pin_set(const struct tt_app *a, cpu_set_t **set, size_t size)
{
	*set = NULL;
	if (!a->ncpus)
		return 0;
	*set = CPU_ALLOC(TT_MAX_CPUS);
	if (!*set)
		return tt_err(TT_EFAIL, "out of memory");
	CPU_ZERO_S(size, *set);
	for (int i = 0; i < a->ncpus; i++)
		CPU_SET_S((size_t)a->cpus[i], size, *set);
	return 0;
}

int tt_app_exec(const struct tt_app *a, const struct tt_nodemask *nodes)
{
	size_t size = CPU_ALLOC_SIZE(TT_MAX_CPUS);
	cpu_set_t *cpus;
	struct child_err e;
	int rc = pin_set(a, &cpus, size);

	if (rc < 0)
		return rc;
	fflush(NULL);
	e = enter(a, cpus, size, nodes);
	/* Not run: the task's policy goes with this process. */
	if (cpus)
		CPU_FREE(cpus);
	return entry_failed(a, &e);
}

/* Between fork and exec: only system calls. */
static void child(const struct tt_app *a, const cpu_set_t *cpus, size_t cpus_size,
		  const struct tt_nodemask *nodes, int log, int report, pid_t parent)
{
	struct child_err e = { 0, 0 };
	int null = open("/dev/null", O_RDONLY);

	/* A tiertune killed outright takes its program with it; the journal
	 * it leaves is the next tiertune's to put back. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	/* Its own process group, so that a stop reaches whatever it started
	 * (a shell's children); the parent sets it too, so neither order of
	 * the two races. */
	setpgid(0, 0);
	if (null < 0 || dup2(null, 0) < 0 || dup2(log, 1) < 0 || dup2(log, 2) < 0)
		e = (struct child_err){ 4, errno };
	else
		e = enter(a, cpus, cpus_size, nodes);
	if (write(report, &e, sizeof(e)) < 0)
		_exit(126);
	_exit(127);
}

/* Whether the program ran: how long each of its threads (and its
 * descendants') waited on a run queue, ready to run with no CPU to run on
 * (/proc/PID/task/TID/schedstat's second figure, ns), against the run's
 * wall time. The thread kept waiting longest is the one that delayed the
 * program most: a program is as late as its slowest thread. A thread that
 * sleeps or reads a disk is not waiting, so a program that does either by
 * design is judged by what it lost, not by what it did not ask for
 * (issue 44: the program's own CPU time against its wall time, where it
 * is CPU-bound). Read every RAN_SAMPLE_MS while it runs and once more when
 * it exits (its leader's, as a zombie): a thread that ends between two
 * readings loses up to one period of its waiting. */
#define RAN_SAMPLE_MS 200
/* How deep descendants are followed (task/TID/children). */
#define RAN_DEPTH 8

struct ran_threads {
	uint64_t max_wait_ns; /* the longest any one thread waited */
	bool read;	      /* a schedstat was read */
};

/* A small live /proc file, NUL-terminated in buf: its length, or -1 when
 * it is gone (a process or thread that ended) or empty. One read: these
 * files are generated whole by the kernel on the first. */
static ssize_t read_live(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t got;

	if (fd < 0)
		return -1;
	got = read(fd, buf, size - 1);
	close(fd);
	if (got <= 0)
		return -1;
	buf[got] = '\0';
	return got;
}

static void ran_thread(struct ran_threads *rt, pid_t pid, pid_t tid)
{
	char path[96], buf[128];
	uint64_t run, wait;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/schedstat", (int)pid, (int)tid);
	if (read_live(path, buf, sizeof(buf)) < 0)
		return;
	if (sscanf(buf, "%" SCNu64 " %" SCNu64, &run, &wait) != 2)
		return;
	rt->read = true;
	/* A thread's figure only grows: its last reading is its longest. */
	if (wait > rt->max_wait_ns)
		rt->max_wait_ns = wait;
}

/* The threads of pid and of its descendants, read once. */
static void ran_sample(struct ran_threads *rt, pid_t pid, int depth)
{
	char path[96];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		pid_t tid = (pid_t)atoi(de->d_name);
		char list[4096], *at, *end;

		if (tid <= 0)
			continue;
		ran_thread(rt, pid, tid);
		if (depth >= RAN_DEPTH)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)pid, (int)tid);
		if (read_live(path, list, sizeof(list)) < 0)
			continue;
		for (at = list;; at = end) {
			long child = strtol(at, &end, 10);

			if (end == at)
				break;
			if (child > 0)
				ran_sample(rt, (pid_t)child, depth + 1);
		}
	}
	closedir(d);
}

/* Blocks until the program exits (its pidfd readable), reading its
 * threads every RAN_SAMPLE_MS and once at the exit; false when a signal
 * came first (the caller's check), true otherwise, also when the pidfd
 * cannot be polled (the caller's waitpid then blocks as before). */
static bool await_exit(int pidfd, pid_t pid, struct ran_threads *rt)
{
	for (;;) {
		struct pollfd pf = { .fd = pidfd, .events = POLLIN };
		int got = pidfd < 0 ? 1 : poll(&pf, 1, RAN_SAMPLE_MS);

		if (got < 0 && errno == EINTR)
			return false;
		if (got != 0) {
			if (got > 0 && pidfd >= 0)
				ran_sample(rt, pid, 0);
			return true;
		}
		ran_sample(rt, pid, 0);
	}
}

/* The CPUs the program may run on: its pin, else this process's. */
static int ran_cpus(const struct tt_app *a, int *cpus)
{
	cpu_set_t set;
	int n = 0;

	if (a->ncpus) {
		memcpy(cpus, a->cpus, (size_t)a->ncpus * sizeof(*cpus));
		return a->ncpus;
	}
	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return 0;
	for (int c = 0; c < CPU_SETSIZE && n < TT_MAX_CPUS; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	return n;
}

/* The steal of the program's CPUs: /proc/stat of this host, where the
 * program runs whatever root the topology is read from (a fixture's
 * machine is not the one its program runs on). */
static int64_t ran_steal(const int *cpus, int n)
{
	struct tt_sysfs live;

	return n > 0 && tt_sysfs_init(&live, "/") == 0 ? tt_ran_steal(&live, cpus, n) : -1;
}

/* The run judged by bench's rule (TT_RAN_MIN): the share of its wall time
 * its longest-waiting thread was not kept from a CPU, and the steal of
 * its CPUs. */
static void ran_judge(const struct ran_threads *rt, int64_t steal, int ncpus,
		      struct tt_app_result *r)
{
	double tick = 1.0 / (double)sysconf(_SC_CLK_TCK), cpu_s = r->wall_s * ncpus;
	double waited = (double)rt->max_wait_ns * 1e-9;

	r->share = rt->read && r->wall_s > 0 ? fmax(0, 1 - waited / r->wall_s) : NAN;
	r->steal_s = steal >= 0 ? (double)steal * tick : NAN;
	if (r->share < TT_RAN_MIN) {
		r->descheduled = true;
		snprintf(r->why, sizeof(r->why),
			 "a thread of the program waited for a CPU %.0f%% of its run (%.2f s of "
			 "%.2f s; %ld involuntary context switch%s)",
			 (1 - r->share) * 100, waited, r->wall_s, r->nivcsw,
			 r->nivcsw == 1 ? "" : "es");
	} else if (cpu_s > 0 && r->steal_s - tick > cpu_s * (1 - TT_RAN_MIN)) {
		r->descheduled = true;
		snprintf(r->why, sizeof(r->why),
			 "the hypervisor stole %.0f%% of the program's CPUs' time over its run "
			 "(%.2f s of %.2f s, steal in /proc/stat)",
			 r->steal_s / cpu_s * 100, r->steal_s, cpu_s);
	}
}

/* Waits for the program; on a signal caught by tiertune (policy.h), asks
 * its process group to stop, kills the group after the grace period, and
 * returns once the program is reaped and its group empty (or killed), so
 * that nothing it started outlives the run. A signal that lands between
 * the flag's check and waitpid's sleep is seen when the program ends (the
 * trial is then not used either: tt_policy_measure checks the flag
 * again), so it delays the stop, never loses it. */
static int wait_program(const struct tt_app *a, pid_t pid, int pidfd, struct ran_threads *rt,
			int *status, int *sig)
{
	double deadline = 0;
	bool reaped = false;

	*sig = 0;
	for (;;) {
		pid_t w = 0;

		if (!reaped && deadline == 0 && !await_exit(pidfd, pid, rt)) {
			w = -1;
			errno = EINTR;
		} else if (!reaped) {
			w = waitpid(pid, status, deadline > 0 ? WNOHANG : 0);
		}

		if (w == pid) {
			reaped = true;
			if (!*sig && !tt_policy_signal())
				return 0;
		}
		if (w < 0 && errno != EINTR)
			return tt_err_sys(TT_EFAIL, errno, "waiting for '%s'", a->argv[0]);
		if (tt_policy_signal() && deadline == 0) {
			*sig = tt_policy_signal();
			kill(-pid, SIGTERM);
			deadline = now_s() + a->grace_s;
		}
		/* The group outlives its leader while a member lives: wait for
		 * it to empty (ESRCH) as for the program. Its orphans are ours
		 * to reap (tt_app_run makes tiertune their subreaper), else
		 * their zombies would keep it; a second past the SIGKILL is
		 * the limit all the same. */
		while (reaped && waitpid(-pid, NULL, WNOHANG) > 0)
			;
		if (reaped && (kill(-pid, 0) < 0 || now_s() > deadline + 1))
			return 0;
		if (deadline > 0) {
			if (now_s() > deadline)
				kill(-pid, SIGKILL);
			nanosleep(&(struct timespec){ 0, 10 * 1000 * 1000 }, NULL);
		}
	}
}

struct proc {
	pid_t pid, ppid, pgrp;
};

/* Every live process of this host (from the live /proc: these are this
 * host's processes, not a fixture's) in *out, malloc'd; returns how many.
 * A zombie runs nothing: reaped when it is an orphan of the run (its exit
 * status is no one's: tiertune's child, not in before[], pgid > 0), never
 * listed. */
static size_t procs(pid_t pgid, const pid_t *before, int nbefore, struct proc **out)
{
	struct proc *all = NULL;
	size_t n = 0, cap = 0;
	pid_t self = getpid();
	DIR *d = opendir("/proc");
	struct dirent *de;

	*out = NULL;
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char path[300], buf[512], *p;
		struct proc pr;
		char state;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		if (read_live(path, buf, sizeof(buf)) < 0)
			continue;
		/* pid (comm) state ppid pgrp: comm may hold spaces and ')'. */
		p = strrchr(buf, ')');
		if (!p || sscanf(buf, "%d", &pr.pid) != 1 ||
		    sscanf(p + 1, " %c %d %d", &state, &pr.ppid, &pr.pgrp) != 3)
			continue;
		if (state == 'Z') {
			bool theirs = false;

			for (int k = 0; k < nbefore; k++)
				theirs = theirs || before[k] == pr.pid;
			if (pr.ppid == self && pgid > 0 && !theirs)
				waitpid(pr.pid, NULL, WNOHANG);
			continue;
		}
		if (n == cap) {
			struct proc *grown =
				realloc(all, (cap = cap ? 2 * cap : 256) * sizeof(*all));

			if (!grown)
				break;
			all = grown;
		}
		all[n++] = pr;
	}
	closedir(d);
	*out = all;
	return n;
}

/* The processes a run left: its group's members, and the descendants of
 * the orphans reparented to tiertune (its subreaper), which a setsid
 * daemon escapes the group to be. Children tiertune had before the run
 * (before[]) are not the program's. Fills pids[] (up to max) and returns
 * how many. */
static int leftovers(pid_t pgid, const pid_t *before, int nbefore, pid_t *pids, int max)
{
	struct proc *all;
	size_t n = procs(pgid, before, nbefore, &all);
	pid_t self = getpid();
	int found = 0;

	/* The closure over parenthood, from the group and tiertune's new
	 * children: a pass per generation until nothing is added. */
	for (bool added = true; added;) {
		added = false;
		for (size_t i = 0; i < n && found < max; i++) {
			bool mine = all[i].pgrp == pgid && all[i].pid != self;
			bool known = false;

			if (all[i].ppid == self) {
				mine = true;
				for (int k = 0; k < nbefore; k++)
					mine = mine && before[k] != all[i].pid;
			}
			for (int k = 0; k < found && !mine; k++)
				mine = pids[k] == all[i].ppid;
			for (int k = 0; k < found; k++)
				known = known || pids[k] == all[i].pid;
			if (mine && !known) {
				pids[found++] = all[i].pid;
				added = true;
			}
		}
	}
	free(all);
	return found;
}

/* tiertune's children now, so that the end of a run tells its own apart. */
static int children(pid_t *pids, int max)
{
	return leftovers(-1, NULL, 0, pids, max);
}

/* Ends what a run left (see leftovers): SIGTERM, SIGKILL after the grace
 * period, each reaped that is tiertune's child (a grandchild becomes one
 * when its parent dies). Returns how many processes there were. */
static int end_leftovers(const struct tt_app *a, pid_t pgid, const pid_t *before, int nbefore)
{
	enum { MAX = 4096 };
	pid_t *pids = malloc(MAX * sizeof(*pids));
	pid_t *seen = malloc(MAX * sizeof(*seen));
	double deadline = now_s() + a->grace_s;
	int nseen = 0, n;

	if (!pids || !seen) {
		free(pids);
		free(seen);
		kill(-pgid, SIGKILL);
		return 0;
	}
	for (;;) {
		n = leftovers(pgid, before, nbefore, pids, MAX);
		for (int i = 0; i < n; i++) {
			bool known = false;

			for (int k = 0; k < nseen; k++)
				known = known || seen[k] == pids[i];
			if (!known && nseen < MAX)
				seen[nseen++] = pids[i];
			kill(pids[i], now_s() > deadline ? SIGKILL : SIGTERM);
			waitpid(pids[i], NULL, WNOHANG);
		}
		if (n == 0 || now_s() > deadline + 1)
			break;
		nanosleep(&(struct timespec){ 0, 10 * 1000 * 1000 }, NULL);
	}
	free(pids);
	free(seen);
	return nseen;
}

/* The run's part of the log (the tail of it), NUL-terminated, malloc'd. */
static char *read_output(int fd, off_t from)
{
	off_t end = lseek(fd, 0, SEEK_END);
	size_t len;
	char *buf;
	ssize_t got;

	if (end < from)
		return NULL;
	bool window = end - from > METRIC_TAIL;

	if (window)
		from = end - METRIC_TAIL;
	len = (size_t)(end - from);
	buf = malloc(len + 1);
	if (!buf)
		return NULL;
	got = pread(fd, buf, len, from);
	buf[got > 0 ? (size_t)got : 0] = '\0';
	/* A window that starts mid-line would hand the parser a line's tail
	 * (12345 read as 345): whole lines only. */
	if (window) {
		char *nl = strchr(buf, '\n');
		size_t rest = nl ? strlen(nl + 1) : 0;

		memmove(buf, nl ? nl + 1 : buf, rest);
		buf[rest] = '\0';
	}
	return buf;
}

int tt_app_parse_metric(const struct tt_app *a, const char *text, double *value)
{
	char num[128];
	bool found = false;

	for (const char *line = text; *line;) {
		size_t len = strcspn(line, "\n");
		char *copy = strndup(line, len);
		regmatch_t m[2];

		if (!copy)
			return tt_err(TT_EFAIL, "out of memory");
		if (regexec(&a->re, copy, 2, m, 0) == 0) {
			regmatch_t g = a->re.re_nsub >= 1 && m[1].rm_so >= 0 ? m[1] : m[0];
			int n = (int)(g.rm_eo - g.rm_so);

			if (n >= (int)sizeof(num)) {
				tt_err(TT_EINPUT,
				       "--metric '%s' matched %d characters ('%.40s...'): too "
				       "long, it "
				       "is not a number read whole",
				       a->metric, n, copy + g.rm_so);
				free(copy);
				return TT_EINPUT;
			}
			snprintf(num, sizeof(num), "%.*s", n, copy + g.rm_so);
			found = true;
		}
		free(copy);
		line += len + (line[len] == '\n');
	}
	if (!found)
		return 1;
	char *end;
	const char *s = num + strspn(num, " \t");

	errno = 0;
	*value = strtod(s, &end);
	end += strspn(end, " \t");
	if (end == s || *end || errno || !isfinite(*value))
		return tt_err(TT_EINPUT, "--metric '%s' matched '%s', which is not a number",
			      a->metric, num);
	return 0;
}

static int run_failed(const struct tt_app *a, int status)
{
	if (WIFSIGNALED(status))
		tt_err(TT_EFAIL, "command '%s' was killed by signal %d (%s)", a->argv[0],
		       WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		tt_err(TT_EFAIL, "command '%s' exited with status %d", a->argv[0],
		       WEXITSTATUS(status));
	tt_err_hint("its output is in '%s'", a->log_path);
	return TT_EFAIL;
}

int tt_app_run(struct tt_app *a, const struct tt_nodemask *nodes, const char *label,
	       struct tt_app_result *r)
{
	size_t cpus_size = CPU_ALLOC_SIZE(TT_MAX_CPUS);
	cpu_set_t *cpus = NULL;
	struct child_err e;
	int log = -1, pipefd[2] = { -1, -1 }, pidfd = -1, sig, rc;
	off_t from;
	double t0;
	pid_t pid;
	char *out;

	memset(r, 0, sizeof(*r));
	r->value = NAN;
	r->share = r->steal_s = NAN;
	log = open(a->log_path, O_RDWR | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
	if (log < 0)
		return tt_err_sys(TT_EFAIL, errno, "cannot open the program's log '%s'",
				  a->log_path);
	dprintf(log, "## tiertune: run %d of '%s', weights %s\n", ++a->runs, a->argv[0], label);
	from = lseek(log, 0, SEEK_END);
	rc = pin_set(a, &cpus, cpus_size);
	if (rc < 0)
		goto out;
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		rc = tt_err_sys(TT_EFAIL, errno, "pipe for '%s'", a->argv[0]);
		goto out;
	}
	fflush(NULL);
	t0 = now_s();
	pid_t parent = getpid();
	pid_t before[64];
	int nbefore = children(before, 64);

	struct ran_threads rt = { 0 };
	struct rusage ru0, ru1;
	int ran[TT_MAX_CPUS], nran = ran_cpus(a, ran);
	int64_t steal = ran_steal(ran, nran);

	getrusage(RUSAGE_CHILDREN, &ru0);
	pid = fork();
	if (pid < 0) {
		rc = tt_err_sys(TT_EFAIL, errno, "cannot fork to run '%s'", a->argv[0]);
		goto out;
	}
	if (pid == 0)
		child(a, cpus, cpus_size, nodes, log, pipefd[1], parent);
	setpgid(pid, pid);
	/* What the program starts and leaves comes back to tiertune, not to
	 * init, so that a stop can reap the whole group (wait_program). */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	close(pipefd[1]);
	pipefd[1] = -1;
	/* No pidfd (before Linux 5.3): waited for as before, not judged. */
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	rc = wait_program(a, pid, pidfd, &rt, &r->status, &sig);
	r->wall_s = now_s() - t0;
	if (steal >= 0) {
		int64_t after = ran_steal(ran, nran);

		steal = after >= steal ? after - steal : -1;
	}
	/* A run's lifetime ends with it: what it left would overlap the next
	 * trial and outlive tiertune. */
	r->leftovers = end_leftovers(a, pid, before, nbefore);
	getrusage(RUSAGE_CHILDREN, &ru1);
	r->nivcsw = ru1.ru_nivcsw - ru0.ru_nivcsw;
	ran_judge(&rt, steal, nran, r);
	a->leftovers += r->leftovers;
	if (r->leftovers)
		dprintf(log, "## tiertune: ended %d process%s the run left\n", r->leftovers,
			r->leftovers == 1 ? "" : "es");
	if (rc < 0)
		goto out;
	if (read(pipefd[0], &e, sizeof(e)) == (ssize_t)sizeof(e)) {
		rc = entry_failed(a, &e);
		goto out;
	}
	if (sig) {
		rc = tt_err(TT_EFAIL,
			    "interrupted by signal %d (%s) while '%s' ran; it was stopped", sig,
			    strsignal(sig), a->argv[0]);
		goto out;
	}
	if (!WIFEXITED(r->status) || WEXITSTATUS(r->status)) {
		rc = run_failed(a, r->status);
		goto out;
	}
	if (!a->metric)
		goto out;
	out = read_output(log, from);
	rc = out ? tt_app_parse_metric(a, out, &r->value) : tt_err(TT_EFAIL, "out of memory");
	free(out);
	if (rc == 1) {
		rc = tt_err(TT_EFAIL, "'%s' printed nothing that --metric '%s' matches", a->argv[0],
			    a->metric);
		tt_err_hint("its output is in '%s'", a->log_path);
	}
out:
	if (pidfd >= 0)
		close(pidfd);
	if (pipefd[0] >= 0)
		close(pipefd[0]);
	if (pipefd[1] >= 0)
		close(pipefd[1]);
	if (cpus)
		CPU_FREE(cpus);
	close(log);
	return rc;
}

int tt_app_score(const struct tt_app *a, const struct tt_app_result *r, double *score)
{
	if (!a->metric) {
		*score = 1 / fmax(r->wall_s, 1e-9);
		return 0;
	}
	if (a->higher_is_better) {
		*score = r->value;
		return 0;
	}
	if (!(r->value > 0))
		return tt_err(TT_EFAIL,
			      "--metric read %g: a lower-is-better metric must be positive (the "
			      "search maximises its inverse)",
			      r->value);
	*score = 1 / r->value;
	return 0;
}

double tt_app_shown(const struct tt_app *a, double score)
{
	return a->metric && a->higher_is_better ? score : 1 / score;
}

/* The scores are 1/s or 1/metric where less is better, so the best run is
 * the highest score whichever way it is shown. */
void tt_app_figures(const struct tt_app *a, const double *score, int n, struct tt_db_trial *d)
{
	double *v = n > 0 ? malloc((size_t)n * sizeof(*v)) : NULL, lo = INFINITY, hi = -INFINITY;
	double median;

	for (int j = 0; j < n; j++) {
		if (v)
			v[j] = tt_app_shown(a, score[j]);
		lo = fmin(lo, score[j]);
		hi = fmax(hi, score[j]);
	}
	median = v ? tt_median(v, n) : NAN;
	free(v);
	if (!a->metric) {
		d->time_best_s = tt_app_shown(a, hi);
		d->time_median_s = median;
		d->time_max_s = tt_app_shown(a, lo);
		return;
	}
	d->metric = true;
	d->metric_higher_is_better = a->higher_is_better;
	d->metric_best = tt_app_shown(a, hi);
	d->metric_median = median;
	d->metric_worst = tt_app_shown(a, lo);
}

/* The test hook's policy nodes: this host's memory nodes. */
static int host_mem_nodes(struct tt_nodemask *m)
{
	struct tt_sysfs live;
	int rc = tt_sysfs_init(&live, "/");

	memset(m, 0, sizeof(*m));
	return rc < 0 ? rc
		      : tt_sysfs_read_list(&live, m->bits, TT_MAX_NODES,
					   "/sys/devices/system/node/has_memory");
}

int tt_app_place(struct tt_app *a, const struct tt_topo *t, int source, bool live)
{
	int cpus[TT_MAX_CPUS], n, rc;

	if (tt_test_hooks && tt_test_hooks->app_host_nodes && !live) {
		a->host_nodes = true;
		return host_mem_nodes(&a->nodes);
	}
	rc = tt_bench_cpus(t, source, cpus, &n);
	if (rc == 0)
		tt_app_pin(a, cpus, n);
	return rc;
}

int tt_app_measure(void *ctx, const struct tt_weights *w, double *score)
{
	struct tt_app *a = ctx;
	struct tt_app_result r;
	char label[256];
	int rc;

	if (tt_weights_format(w, label, sizeof(label)) < 0)
		snprintf(label, sizeof(label), "?");
	/* A descheduled run is run again, as bench runs an unstable or
	 * descheduled trial again (bench/run.c), then refused: its time is the
	 * host's other work's. */
	for (int runs = 1;; runs++) {
		rc = tt_app_run(a, a->host_nodes ? &a->nodes : &w->set, label, &r);
		if (rc < 0)
			return rc;
		a->last = r;
		if (!r.descheduled || a->keep_descheduled)
			break;
		if (runs == TT_UNSTABLE_RUNS) {
			rc = tt_err(TT_EFAIL,
				    "'%s' was descheduled in %d runs in a row (the last: %s)",
				    a->argv[0], runs, r.why);
			tt_err_hint("other work shares its CPUs: run when the host is quieter, or "
				    "give --allow-unstable to search such runs knowingly (each is "
				    "recorded as descheduled)");
			return rc;
		}
	}
	return tt_app_score(a, &r, score);
}
