// SPDX-License-Identifier: GPL-3.0-or-later
/* tiertop: main, options, and the non-interactive modes (--once, --batch,
 * --json). The options are declared once, below: parsing and --help come
 * from that one table. */
#include "tui.h"

#include "../core/error.h"
#include "../core/parse.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef TT_VERSION
#define TT_VERSION "0.1.0"
#endif

enum {
	OPT_ONCE = 256,
	OPT_JSON,
	OPT_ROOT,
	OPT_SOURCE,
	OPT_COLLECTORS,
	OPT_VIEW,
	OPT_SORT,
	OPT_VERSION,
};

static const struct opt {
	const char *name;
	int val;
	const char *arg; /* NULL: a flag */
	const char *help;
} opts[] = {
	{ "once", OPT_ONCE, NULL,
	  "print one frame as text and exit (after one interval: rates "
	  "need two samples)" },
	{ "batch", 'b', NULL, "print frames as text, one per interval, as top -b does" },
	{ "iterations", 'n', "N",
	  "with --batch or --json: N frames, then exit (default: until "
	  "interrupted)" },
	{ "delay", 'd', "SECS", "refresh interval in seconds, 0.1 to 3600 (default 1)" },
	{ "json", OPT_JSON, NULL, "one JSON object per sample, one per line" },
	{ "sysfs-root", OPT_ROOT, "DIR",
	  "read /sys and /proc under DIR (a fixture tree; default /)" },
	{ "source-node", OPT_SOURCE, "N",
	  "the source node whose weight shares are shown (default: "
	  "the first node with CPUs)" },
	{ "collectors", OPT_COLLECTORS, "LIST",
	  "comma-separated collectors (default: numastat, "
	  "perf-uncore, resctrl where they work)" },
	{ "view", OPT_VIEW, "nodes|tiers",
	  "rows per node with tier subtotals, or tiers only "
	  "(default nodes)" },
	{ "sort", OPT_SORT, "pages|skew|pid", "order of the processes panel (default pages)" },
	{ "help", 'h', NULL, "this help" },
	{ "version", OPT_VERSION, NULL, "the version" },
};
#define NOPTS (sizeof(opts) / sizeof(*opts))

static void usage(FILE *f)
{
	fprintf(f, "usage: tiertop [options]\n\n"
		   "A live view of memory tiers, interleave weights, where the traffic goes and "
		   "which\nprocesses interleave. Interactive on a terminal; --once, --batch and "
		   "--json print.\n\n");
	for (size_t i = 0; i < NOPTS; i++) {
		char left[48];

		if (opts[i].val < 256)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", opts[i].val, opts[i].name,
				 opts[i].arg ? " " : "", opts[i].arg ? opts[i].arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", opts[i].name,
				 opts[i].arg ? " " : "", opts[i].arg ? opts[i].arg : "");
		fprintf(f, "  %-30s %s\n", left, opts[i].help);
	}
	fprintf(f, "\n");
	tt_keys_usage(f);
	fprintf(f, "exit: 0 ok, 1 failure, 2 bad input, 3 unavailable\n");
}

static int bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int bad(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "tiertop: error: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nhint: tiertop --help lists the options\n");
	return 2;
}

static int fail(int rc)
{
	char safe[2048];

	fprintf(stderr, "tiertop: error: %s\n", tt_str_escape(tt_err_msg(), safe, sizeof(safe)));
	if (tt_err_hint_msg()[0])
		fprintf(stderr, "hint: %s\n", tt_err_hint_msg());
	return tt_err_exit_code(rc);
}

static void print_line(void *ctx, int style, const char *line)
{
	(void)style;
	fprintf(ctx, "%s\n", line);
}

static int print_frame(struct tt_top *top, bool json)
{
	struct tt_frame f;
	struct tt_render_opts ro = { .width = 80, .processes = true };
	int rc = tt_top_frame(top, &f);

	if (rc < 0)
		return rc;
	if (json)
		rc = tt_frame_json(&f, stdout);
	else
		tt_frame_lines(&f, &ro, print_line, stdout);
	tt_frame_release(&f);
	if (fflush(stdout) == EOF || ferror(stdout))
		rc = tt_err_sys(TT_EFAIL, errno, "cannot write to standard output");
	return rc;
}

/* Frames on stdout, one per sample. --once: the frame of the second
 * sample. The first frame waits for the first process scan, so that every
 * frame of a fixture shows its processes. */
static int print_frames(struct tt_top *top, bool once, bool json, long n)
{
	int rc = 0;

	if (top->scanner)
		tt_scanner_wait(top->scanner, 10 + top->interval_s);
	for (long i = once ? 1 : 0; rc == 0 && (n == 0 || i < (once ? 2 : n)); i++) {
		rc = tt_top_take_tick(top, (uint64_t)i);
		if (rc == 0 && !once && !json && i > 0)
			printf("\n");
		if (rc == 0)
			rc = print_frame(top, json);
	}
	return rc;
}

/* The option "--name" or "--na=value" stands for (a unique prefix, as
 * getopt_long takes it), or 0. */
static int long_val(const char *arg)
{
	size_t len = strncmp(arg, "--", 2) ? 0 : strcspn(arg + 2, "=");
	int val = 0, hits = 0;

	for (size_t i = 0; len && i < NOPTS; i++)
		if (strncmp(opts[i].name, arg + 2, len) == 0) {
			val = opts[i].val;
			hits++;
		}
	return hits == 1 ? val : 0;
}

/* getopt_long refuses a prefix of two options as it refuses a name of
 * none: say which it was, and which options it could be. */
static int unknown_long(const char *arg)
{
	char names[256] = "";
	size_t len = strcspn(arg + 2, "="), at = 0;
	int hits = 0;

	for (size_t i = 0; strncmp(arg, "--", 2) == 0 && i < NOPTS; i++) {
		if (strncmp(opts[i].name, arg + 2, len) || !len)
			continue;
		hits++;
		at += (size_t)snprintf(names + at, sizeof(names) - at, "%s--%s", at ? ", " : "",
				       opts[i].name);
		if (at >= sizeof(names))
			at = sizeof(names) - 1;
	}
	if (hits > 1)
		return bad("option '%s' is ambiguous: %s", arg, names);
	return bad("unknown option '%s'", arg);
}

static int parse_double(const char *s, double min, double max, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	return !*s || *end || errno || !isfinite(*out) || *out < min || *out > max ? -1 : 0;
}

int main(int argc, char **argv)
{
	struct option lo[NOPTS + 1];
	char shorts[64] = ":";
	struct tt_top top = { .interval_s = 1, .source_node = -1 };
	bool once = false, batch = false, json = false;
	const char *root = "/";
	long n = 0;
	int c, rc;

	for (size_t i = 0; i < NOPTS; i++) {
		lo[i] = (struct option){ opts[i].name,
					 opts[i].arg ? required_argument : no_argument, NULL,
					 opts[i].val };
		if (opts[i].val < 256) {
			size_t len = strlen(shorts);

			shorts[len] = (char)opts[i].val;
			shorts[len + 1] = '\0';
			if (opts[i].arg)
				strcat(shorts, ":");
		}
	}
	memset(&lo[NOPTS], 0, sizeof(lo[NOPTS]));
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		uint64_t v;
		double d;

		switch (c) {
		case OPT_ONCE:
			once = true;
			break;
		case 'b':
			batch = true;
			break;
		case 'n':
			if (tt_parse_u64(optarg, 1, 1000000000, &v) < 0)
				return bad("-n '%s' is not a number of frames from 1 to 1000000000",
					   optarg);
			n = (long)v;
			break;
		case 'd':
			if (parse_double(optarg, 0.1, 3600, &d) < 0)
				return bad("-d '%s' is not an interval from 0.1 to 3600 seconds",
					   optarg);
			top.interval_s = d;
			break;
		case OPT_JSON:
			json = true;
			break;
		case OPT_ROOT:
			root = optarg;
			break;
		case OPT_SOURCE:
			if (tt_parse_u64(optarg, 0, TT_MAX_NODES - 1, &v) < 0)
				return bad("--source-node '%s' is not a node number", optarg);
			top.source_node = (int)v;
			break;
		case OPT_COLLECTORS:
			top.collectors = optarg;
			break;
		case OPT_VIEW:
			if (!strcmp(optarg, "nodes"))
				top.view = TT_VIEW_NODES;
			else if (!strcmp(optarg, "tiers"))
				top.view = TT_VIEW_TIERS;
			else
				return bad("--view '%s' is neither nodes nor tiers", optarg);
			break;
		case OPT_SORT:
			if (!strcmp(optarg, "pages"))
				top.sort = TT_SORT_PAGES;
			else if (!strcmp(optarg, "skew"))
				top.sort = TT_SORT_SKEW;
			else if (!strcmp(optarg, "pid"))
				top.sort = TT_SORT_PID;
			else
				return bad("--sort '%s' is not pages, skew or pid", optarg);
			break;
		case 'h':
			usage(stdout);
			return fflush(stdout) == EOF ? 1 : 0;
		case OPT_VERSION:
			printf("tiertop %s\n", TT_VERSION);
			return 0;
		case ':':
			return bad("option '%s' needs a value", argv[optind - 1]);
		default:
			/* glibc names the option in optopt for '--once=1';
			 * argv[optind - 1] is a short option's only at the
			 * end of its cluster ('-xb' is still at the x). */
			if (optopt && long_val(argv[optind - 1]) == optopt)
				return bad("option '%s' takes no value", argv[optind - 1]);
			if (!optopt && strncmp(argv[optind - 1], "--", 2) == 0)
				return unknown_long(argv[optind - 1]);
			return bad("unknown option '-%c'", optopt);
		}
	}
	if (optind < argc)
		return bad("tiertop takes no argument, got '%s'", argv[optind]);
	if (once + batch > 1)
		return bad("--once and --batch exclude each other");
	if (n && !batch && !json)
		return bad("-n '%ld' goes with --batch or --json", n);
	if (!once && !batch && !json && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)))
		return bad(
			"the interactive screen needs a terminal: use --once, --batch or --json");

	rc = tt_top_open(&top, root);
	if (rc < 0)
		return fail(rc);
	if (once || batch || json) {
		rc = print_frames(&top, once, json, once ? 1 : n);
		rc = rc < 0 ? fail(rc) : 0;
	} else {
		rc = tt_screen_run(&top);
	}
	tt_top_close(&top);
	return rc;
}
