// SPDX-License-Identifier: GPL-3.0-or-later
/* measure/app.c: the --metric parser (vectors as a table), the score's
 * direction, what tt_app_init refuses before anything runs, and the exec
 * form `tiertune run` becomes the program through. */
#define _GNU_SOURCE /* sched_getcpu */
#include "test.h"

#include "../../core/error.h"
#include "../../measure/app.h"

#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const struct {
	const char *re, *text;
	int rc;	     /* 0 found, 1 no match, TT_EINPUT not a number */
	double want; /* when found */
} metric_cases[] = {
	{ "([0-9.]+) ops/s", "warm-up\n12.5 ops/s\n", 0, 12.5 },
	/* The last matching line wins: programs print warm-up figures first. */
	{ "([0-9.]+) ops/s", "1 ops/s\n2 ops/s\n3 ops/s", 0, 3 },
	/* No group: the whole match. */
	{ "[0-9]+e[0-9]+", "took 15e3 cycles", 0, 15e3 },
	{ "Triad: +([0-9.]+)", "Triad:     9876.5  0.01", 0, 9876.5 },
	{ "time=(-?[0-9.]+)", "time=-4.25", 0, -4.25 },
	{ "([0-9]+) ops", "no figures here\n", 1, 0 },
	{ "", "", 1, 0 }, /* an empty output has no line to match */
	{ "(ops)/s", "12 ops/s", TT_EINPUT, 0 },
	{ "result: (.*)", "result: 12 and more", TT_EINPUT, 0 },
	{ "x=([0-9a-z]+)", "x=nan", TT_EINPUT, 0 },
	/* Longer than a number is read (127): refused, not cut to its head. */
	{ "n=([0-9]+)",
	  "n=10000000000000000000000000000000000000000000000000000000000000000000000000000000"
	  "000000000000000000000000000000000000000000000000000000000000000000000000000000000",
	  TT_EINPUT, 0 },
};

static void test_metric(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(metric_cases) / sizeof(metric_cases[0]); i++) {
		char *argv[] = { "sh", NULL };
		struct tt_app a;
		double v = NAN;
		char log[] = "/tmp/tt-test-app.XXXXXX";
		int fd = mkstemp(log);

		assert_true(fd >= 0);
		close(fd);
		assert_int_equal(tt_app_init(&a, argv, metric_cases[i].re, true, log), 0);
		assert_int_equal(tt_app_parse_metric(&a, metric_cases[i].text, &v),
				 metric_cases[i].rc);
		if (metric_cases[i].rc == 0)
			assert_true(v == metric_cases[i].want);
		if (metric_cases[i].rc == TT_EINPUT)
			assert_non_null(strstr(tt_err_msg(), "is not a number"));
		tt_app_release(&a);
		unlink(log);
	}
}

static void test_score(void **state)
{
	char *argv[] = { "sh", NULL };
	struct tt_app_result r = { .wall_s = 0.5, .value = 4 };
	struct tt_app a;
	char log[] = "/tmp/tt-test-app.XXXXXX";
	int fd = mkstemp(log);
	double score;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	/* Wall time: runs per second, shown back as seconds. */
	assert_int_equal(tt_app_init(&a, argv, NULL, false, log), 0);
	assert_int_equal(tt_app_score(&a, &r, &score), 0);
	assert_true(score == 2 && tt_app_shown(&a, score) == 0.5);
	tt_app_release(&a);
	/* A lower-is-better metric: its inverse, which must exist. */
	assert_int_equal(tt_app_init(&a, argv, "([0-9]+)", false, log), 0);
	assert_int_equal(tt_app_score(&a, &r, &score), 0);
	assert_true(score == 0.25 && tt_app_shown(&a, score) == 4);
	r.value = 0;
	assert_int_equal(tt_app_score(&a, &r, &score), TT_EFAIL);
	tt_app_release(&a);
	/* Higher is better: the metric itself, any sign. */
	assert_int_equal(tt_app_init(&a, argv, "([0-9]+)", true, log), 0);
	r.value = -3;
	assert_int_equal(tt_app_score(&a, &r, &score), 0);
	assert_true(score == -3 && tt_app_shown(&a, score) == -3);
	tt_app_release(&a);
	unlink(log);
}

static void test_init_refuses(void **state)
{
	char *missing[] = { "no-such-command-for-tiertune", NULL };
	char plain[] = "/tmp/tt-test-app.XXXXXX";
	char *notexec[] = { plain, NULL };
	char *sh[] = { "sh", NULL };
	char *empty[] = { NULL };
	struct tt_app a;
	int fd = mkstemp(plain); /* mode 0600: no execute bit, even for root */

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(tt_app_init(&a, missing, NULL, false, "/nonexistent/log"), TT_EINPUT);
	assert_non_null(strstr(tt_err_msg(), "'no-such-command-for-tiertune' not found in PATH"));
	assert_int_equal(tt_app_init(&a, notexec, NULL, false, "/nonexistent/log"), TT_EINPUT);
	assert_non_null(strstr(tt_err_msg(), "not an executable file"));
	unlink(plain);
	assert_int_equal(tt_app_init(&a, empty, NULL, false, "/nonexistent/log"), TT_EINPUT);
	assert_int_equal(tt_app_init(&a, sh, "([0-9]", false, "/nonexistent/log"), TT_EINPUT);
	assert_non_null(strstr(tt_err_msg(), "--metric '([0-9]' is not a regular expression"));
	/* Found, but no log can be made: a failure, not bad input. */
	assert_int_equal(tt_app_init(&a, sh, NULL, false, "/nonexistent/log"), TT_EFAIL);
}

/* tt_app_exec in a child: its exit status, or 100 + the negated status it
 * returned (then its message in msg). */
static int exec_child(const struct tt_app *a, const struct tt_nodemask *nodes, char *msg,
		      size_t size)
{
	int fds[2], status;
	ssize_t got;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int rc = tt_app_exec(a, nodes);

		if (write(fds[1], tt_err_msg(), strlen(tt_err_msg())) < 0)
			_exit(99);
		_exit(100 - rc);
	}
	close(fds[1]);
	got = read(fds[0], msg, size - 1);
	msg[got > 0 ? got : 0] = '\0';
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

/* The lowest node this task may allocate on (Mems_allowed_list). */
static int allowed_node(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[4096];
	int node = -1;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "Mems_allowed_list: %d", &node) == 1)
			break;
	if (f)
		fclose(f);
	return node;
}

/* The exec form: the program runs in this process on the pinned CPU under
 * weighted interleave over the nodes, and its exit status is the child's;
 * a policy the kernel refuses returns (unavailable, naming the step), and
 * nothing runs. */
static void test_exec(void **state)
{
	char script[512], msg[1024];
	char *argv[] = { "sh", "-c", script, NULL };
	int cpu = sched_getcpu(), node = allowed_node(), rc;
	struct tt_nodemask nodes;
	struct tt_app a;

	(void)state;
	assert_true(cpu >= 0 && node >= 0);
	/* No log: the exec form's output is the caller's own. */
	assert_int_equal(tt_app_init(&a, argv, NULL, false, NULL), 0);
	memset(&nodes, 0, sizeof(nodes));
	nodes.bits[(TT_MAX_NODES - 1) / 64] |= 1ULL << ((TT_MAX_NODES - 1) % 64);
	snprintf(script, sizeof(script), "exit 7");
	rc = exec_child(&a, &nodes, msg, sizeof(msg));
	assert_int_equal(rc, 100 - TT_EUNAVAIL);
	assert_non_null(strstr(msg, "running 'sh': setting MPOL_WEIGHTED_INTERLEAVE failed"));

	tt_app_pin(&a, &cpu, 1);
	memset(&nodes, 0, sizeof(nodes));
	nodes.bits[node / 64] |= 1ULL << (node % 64);
	snprintf(script, sizeof(script),
		 "grep -q '^Cpus_allowed_list:[[:space:]]*%d$' /proc/self/status || exit 3; "
		 "grep -q 'weighted interleave:%d ' /proc/self/numa_maps || exit 4; exit 7",
		 cpu, node);
	rc = exec_child(&a, &nodes, msg, sizeof(msg));
	if (rc == 100 - TT_EUNAVAIL && strstr(msg, "MPOL_WEIGHTED_INTERLEAVE")) {
		tt_app_release(&a);
		skip(); /* a kernel before 6.9: no weighted interleave */
	}
	assert_int_equal(rc, 7);
	tt_app_release(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_metric),
		cmocka_unit_test(test_score),
		cmocka_unit_test(test_init_refuses),
		cmocka_unit_test(test_exec),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
