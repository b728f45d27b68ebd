// SPDX-License-Identifier: GPL-3.0-or-later
/* tiertop: main, options, and the non-interactive modes (--once, --batch,
 * --json). The options are declared once, below: parsing and --help come
 * from that one table. */
#include "tui.h"

#include "../core/error.h"
#include "../core/options.h"
#include "../core/parse.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef TT_VERSION
#define TT_VERSION "0.1.0"
#endif

/* What the options set beside struct tt_top. */
struct args {
	bool once, batch, json, help, version;
	uint64_t frames;
	int64_t source;
	int view, sort;
	const char *root;
};

/* How the modes combine. */
static const struct tt_opt_rule rules[] = {
	{ .kind = TT_OPT_EXCLUDES,
	  .terms = { "once", "batch" },
	  .message = "--once and --batch exclude each other" },
	{ .kind = TT_OPT_NEEDS, .terms = { "iterations", "batch", "json" } },
	{ .kind = TT_OPT_RULE_END },
};

static void usage(FILE *f, const struct tt_opt *opts)
{
	char text[1024];

	tt_opt_wrap(text, sizeof(text),
		    "A live view of memory tiers, interleave weights, where the traffic goes and "
		    "which processes interleave. Interactive on a terminal; --once, --batch and "
		    "--json print.",
		    0, 0, 80);
	fprintf(f, "usage: tiertop [options]\n\n%s\n", text);
	for (const struct tt_opt *o = opts; o->kind != TT_OPT_KIND_END; o++) {
		char left[48], words[64];
		const char *arg = tt_opt_arg_name(o, words, sizeof(words));

		snprintf(left, sizeof(left), "%c%c%c --%s%s%s", o->short_name ? '-' : ' ',
			 o->short_name ? o->short_name : ' ', o->short_name ? ',' : ' ', o->name,
			 arg ? " " : "", arg ? arg : "");
		char help[1024];

		/* Wrapped to 80 columns, as tiertune's --help (t0012 holds it). */
		tt_opt_wrap(help, sizeof(help), o->help, fprintf(f, "  %-30s", left), 33, 80);
		fputs(help, f);
	}
	fprintf(f, "\n");
	tt_keys_usage(f);
	fprintf(f, "exit: 0 ok, 1 failure, 2 bad input, 3 unavailable\n");
}

static int bad(const char *msg)
{
	fprintf(stderr, "tiertop: error: %s\nhint: tiertop --help lists the options\n", msg);
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

int main(int argc, char **argv)
{
	struct tt_top top = { .interval_s = 1, .source_node = -1 };
	struct args a = { .source = -1, .root = "/" };
	/* The options, declared once (core/options.h: tiertune's grammar):
	 * parsing and --help come from this table. */
	struct tt_opt opts[] = {
		TT_OPT_FLAG("once", &a.once,
			    "print one frame as text and exit (after one interval: rates "
			    "need two samples)"),
		TT_OPT_FLAG("batch", &a.batch,
			    "print frames as text, one per interval, as top -b does",
			    .short_name = 'b'),
		TT_OPT_U64("iterations", &a.frames, "N",
			   "with --batch or --json: N frames, then exit (default: until "
			   "interrupted)",
			   1, 1000000000, .short_name = 'n'),
		TT_OPT_DOUBLE("delay", &top.interval_s, "SECS",
			      "refresh interval in seconds, 0.1 to 3600 (default 1)", 0.1, 3600,
			      .short_name = 'd'),
		TT_OPT_FLAG("json", &a.json, "one JSON object per sample, one per line"),
		TT_OPT_STRING("sysfs-root", &a.root, "DIR",
			      "read /sys and /proc under DIR (a fixture tree; default /)"),
		TT_OPT_I64("source-node", &a.source, "N",
			   "the source node whose weight shares are shown (default: "
			   "the first node with CPUs)",
			   0, TT_MAX_NODES - 1),
		TT_OPT_STRING("collectors", &top.collectors, "LIST",
			      "comma-separated collectors (default: numastat, "
			      "perf-uncore, resctrl where they work)"),
		TT_OPT_CHOICE("view", &a.view, tt_view_names,
			      "rows per node with tier subtotals, or tiers only "
			      "(default nodes)"),
		TT_OPT_CHOICE("sort", &a.sort, tt_proc_sort_names,
			      "order of the processes panel (default pages)"),
		TT_OPT_FLAG("help", &a.help, "this help", .short_name = 'h'),
		TT_OPT_FLAG("version", &a.version, "the version"),
		TT_OPT_END,
	};
	struct tt_opt *tables[] = { opts, NULL };
	struct tt_opt_args args;
	int rc;

	if (tt_opt_parse(tables, 0, argc, argv, &args) < 0)
		return bad(tt_err_msg());
	if (a.help) {
		usage(stdout, opts);
		return fflush(stdout) == EOF ? 1 : 0;
	}
	if (a.version) {
		printf("tiertop %s\n", TT_VERSION);
		return 0;
	}
	if (args.n) {
		tt_err(TT_EINPUT, "tiertop takes no argument, got '%s'", argv[0]);
		return bad(tt_err_msg());
	}
	if (tt_opt_check(tables, rules, &args) < 0)
		return bad(tt_err_msg());
	if (!a.once && !a.batch && !a.json && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)))
		return bad(
			"the interactive screen needs a terminal: use --once, --batch or --json");
	top.source_node = (int)a.source;
	top.view = (enum tt_view)a.view;
	top.sort = (enum tt_proc_sort)a.sort;

	rc = tt_top_open(&top, a.root);
	if (rc < 0)
		return fail(rc);
	if (a.once || a.batch || a.json) {
		rc = print_frames(&top, a.once, a.json, a.once ? 1 : (long)a.frames);
		rc = rc < 0 ? fail(rc) : 0;
	} else {
		rc = tt_screen_run(&top);
	}
	tt_top_close(&top);
	return rc;
}
