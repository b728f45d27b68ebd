/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Command-line options as git's parse-options takes them: a program
 * declares its options once, in a table of struct tt_opt (long name, value,
 * type with its range or choices, help with unit and default), and how
 * they relate (exactly one of, at most one of, incompatible with, goes
 * with) in a table of struct tt_opt_rule. This parser knows no program: it
 * takes argv and the tables, fills the values and returns; what is wrong
 * comes back as a status with its message (core/error.h) for the front end
 * to print. tiertune (cli/options.c) and tiertop (tui/tiertop.c) both use
 * it, so they have one grammar.
 *
 *	uint64_t n = 0; double delay = 1; int view = 0; bool once = false, batch = false;
 *	static const char *const views[] = { "nodes", "tiers", NULL };
 *	struct tt_opt opts[] = {
 *		TT_OPT_U64("iterations", &n, "N", "frames, then exit", 1, 1000000000,
 *			   .short_name = 'n'),
 *		TT_OPT_DOUBLE("delay", &delay, "SECS", "refresh interval", 0.1, 3600),
 *		TT_OPT_CHOICE("view", &view, views, "rows per node or per tier"),
 *		TT_OPT_FLAG("once", &once, "one frame"),
 *		TT_OPT_FLAG("batch", &batch, "frames as text"),
 *		TT_OPT_END,
 *	};
 *	static const struct tt_opt_rule rules[] = {
 *		{ .kind = TT_OPT_EXCLUDES, .terms = { "once", "batch" } },
 *		{ .kind = TT_OPT_RULE_END },
 *	};
 *	struct tt_opt *tables[] = { opts, NULL };
 *	struct tt_opt_args args;
 *	if (tt_opt_parse(tables, 0, argc, argv, &args) < 0 ||
 *	    tt_opt_check(tables, rules, &args) < 0)
 *		... print tt_err_msg(), and with args.grammar a pointer to --help ...
 *	... argv[0..args.n-1] are the positional arguments, in order ...
 *
 * Grammar: "--name value", "--name=value", "-c value", "-cvalue", short
 * flags clustered ("-bn1" is "-b -n 1"); "--" ends the options; the other
 * arguments are positional, in any order with the options. A long name may
 * be abbreviated to any prefix that names one listed option (as
 * getopt_long takes it): an exact name wins over the longer names it
 * begins, a prefix of several is refused naming them all, and an unlisted
 * option (help NULL: the completion helper's question) answers to its
 * whole name only. Messages name an option by its long name ("option
 * '--iterations' value '0' out of range (1-1000000000)"), except an unknown
 * or ambiguous one, named as written.
 */
#ifndef TT_OPTIONS_H
#define TT_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum tt_opt_kind {
	TT_OPT_KIND_END,
	TT_OPT_KIND_FLAG,   /* bool *: set when given */
	TT_OPT_KIND_STRING, /* const char **: the argument itself */
	TT_OPT_KIND_U64,    /* uint64_t *: a decimal in [min, max] */
	TT_OPT_KIND_I64,    /* int64_t *: a decimal in [min, max]; untouched when not given */
	TT_OPT_KIND_SIZE,   /* uint64_t *: bytes, K/M/G/T (core/parse.h), in [min, max] */
	TT_OPT_KIND_DOUBLE, /* double *: a decimal in [fmin, fmax] (above fmin with .above) */
	TT_OPT_KIND_CHOICE, /* int *: the index of the word among the choices */
	TT_OPT_KIND_BUDGET, /* struct tt_opt_budget *: a count in [min, max], or a
			       duration (90s, 5m, 1h) above 0 and at most fmax seconds */
	TT_OPT_KIND_CALL,   /* call(opt, arg): the program's own parser */
};

/* A count or a duration: exactly one of the two is non-zero once given. */
struct tt_opt_budget {
	uint64_t count;
	double seconds;
};

struct tt_opt {
	const char *name; /* long name, without "--" */
	char short_name;  /* 'o' for -o, or 0 */
	enum tt_opt_kind kind;
	void *value;
	/* The argument's name in help ("N:W,...", "BYTES"); NULL for a flag,
	 * and for a choice its words joined by '|' (tt_opt_arg_name). */
	const char *arg;
	const char *help;  /* what it does, with unit and default; NULL: not listed */
	uint64_t min, max; /* integers, sizes, a budget's count */
	double fmin, fmax; /* doubles; a budget's longest duration in seconds (fmax) */
	bool above;	   /* a double must be above fmin, not equal to it */
	const char *what;  /* a budget's count, in its message: "trials" */
	/* A choice's words: a NULL-terminated list, or the i-th name of a
	 * plug-in table (NULL past its end), so that the table's names are the
	 * choices and help cannot go stale. */
	const char *const *choices;
	const char *(*choice)(int i);
	/* The program's own parser: 0, a negative status with its message
	 * (tt_err), or a positive exit code when it printed the error itself. */
	int (*call)(const struct tt_opt *opt, const char *arg);
	bool required; /* the program cannot run without it */
	bool seen;     /* set by tt_opt_parse when given */
};

#define TT_OPT_FLAG(n, v, h, ...)                                                                  \
	{                                                                                          \
		.name = (n), .kind = TT_OPT_KIND_FLAG, .value = (v), .help = (h), __VA_ARGS__      \
	}
#define TT_OPT_STRING(n, v, a, h, ...)                                                             \
	{                                                                                          \
		.name = (n), .kind = TT_OPT_KIND_STRING, .value = (v), .arg = (a), .help = (h),    \
		__VA_ARGS__                                                                        \
	}
#define TT_OPT_U64(n, v, a, h, lo, hi, ...)                                                        \
	{                                                                                          \
		.name = (n), .kind = TT_OPT_KIND_U64, .value = (v), .arg = (a), .help = (h),       \
		.min = (lo), .max = (hi), __VA_ARGS__                                              \
	}
#define TT_OPT_I64(n, v, a, h, lo, hi, ...)                                                        \
	{                                                                                          \
		.name = (n), .kind = TT_OPT_KIND_I64, .value = (v), .arg = (a), .help = (h),       \
		.min = (lo), .max = (hi), __VA_ARGS__                                              \
	}
#define TT_OPT_SIZE(n, v, a, h, lo, hi, ...)                                                       \
	{                                                                                          \
		.name = (n), .kind = TT_OPT_KIND_SIZE, .value = (v), .arg = (a), .help = (h),      \
		.min = (lo), .max = (hi), __VA_ARGS__                                              \
	}
#define TT_OPT_DOUBLE(n, v, a, h, lo, hi, ...)                                                     \
	{                                                                                          \
		.name = (n), .kind = TT_OPT_KIND_DOUBLE, .value = (v), .arg = (a), .help = (h),    \
		.fmin = (lo), .fmax = (hi), __VA_ARGS__                                            \
	}
/* c: a NULL-terminated list of words; for a plug-in table, .choice = fn
 * with c NULL. */
#define TT_OPT_CHOICE(n, v, c, h, ...)                                                             \
	{                                                                                          \
		.name = (n), .kind = TT_OPT_KIND_CHOICE, .value = (v), .choices = (c),             \
		.help = (h), __VA_ARGS__                                                           \
	}
#define TT_OPT_BUDGET(n, v, a, h, w, lo, hi, secs, ...)                                            \
	{                                                                                          \
		.name = (n), .kind = TT_OPT_KIND_BUDGET, .value = (v), .arg = (a), .help = (h),    \
		.what = (w), .min = (lo), .max = (hi), .fmax = (secs), __VA_ARGS__                 \
	}
#define TT_OPT_CALL(n, f, v, a, h, ...)                                                            \
	{                                                                                          \
		.name = (n), .kind = TT_OPT_KIND_CALL, .call = (f), .value = (v), .arg = (a),      \
		.help = (h), __VA_ARGS__                                                           \
	}
#define TT_OPT_END                                                                                 \
	{                                                                                          \
		.kind = TT_OPT_KIND_END                                                            \
	}

/* How options relate, declared beside them rather than counted by index
 * in the program's code. A term is an option's long name, or "name=word"
 * (given with that word: a choice's, which must be one of its words, or a
 * string's). */
enum tt_opt_rule_kind {
	TT_OPT_RULE_END,
	TT_OPT_ONE_OF,	    /* exactly one of the terms */
	TT_OPT_AT_MOST_ONE, /* none or one of the terms */
	TT_OPT_EXCLUDES,    /* the first term goes with none of the others */
	TT_OPT_NEEDS,	    /* the first term needs one of the others */
};

#define TT_OPT_RULE_TERMS 8
struct tt_opt_rule {
	enum tt_opt_rule_kind kind;
	const char *terms[TT_OPT_RULE_TERMS]; /* NULL-terminated when fewer */
	/* The message when it is broken (for TT_OPT_ONE_OF, none given and
	 * more than one alike); NULL: one naming the options. */
	const char *message;
};

/* tt_opt_parse's flags. */
enum {
	/* Options only up to the first other argument (a program's options
	 * before its command's): args->next is its index, nothing moved. */
	TT_OPT_STOP_AT_ARG = 1,
};

/* What tt_opt_parse saw beside the options, and what went wrong. */
struct tt_opt_args {
	int n; /* positional arguments, moved to argv[0..n-1] in order */
	/* The argument parsing stopped at: the first positional one with
	 * TT_OPT_STOP_AT_ARG, the one refused on an error; argc: none. */
	int next;
	int dashdash; /* positional arguments before "--"; -1: no "--" */
	/* The error is the command line's shape (an option unknown or
	 * ambiguous, a value missing or given to a flag, a required one not
	 * given): a front end points at its --help. Clear for a refused value
	 * or a broken rule, whose message says what to give. */
	bool grammar;
	bool unknown;		     /* the error is an unknown option */
	const struct tt_opt *failed; /* the option whose value was refused, or NULL */
	int call_rc;		     /* failed's call returned this positive exit code */
};

/* Parses argv (argv[0] is the program's or command's name) against the
 * options of tables (NULL-terminated), filling each one's value and seen;
 * an option given twice keeps its last value. 0, or TT_EINPUT with the
 * message; args says the rest. */
int tt_opt_parse(struct tt_opt *const *tables, unsigned int flags, int argc, char **argv,
		 struct tt_opt_args *args);
/* After parsing: every required option given, every rule kept (rules may
 * be NULL). 0, TT_EINPUT with the message, or TT_EFAIL when a rule names
 * no option of the tables, or a word its choice lacks (a program's
 * mistake, refused every time). */
int tt_opt_check(struct tt_opt *const *tables, const struct tt_opt_rule *rules,
		 struct tt_opt_args *args);

/* A decimal in [min, max] for the option named name ("pages"): 0, or
 * TT_EINPUT "option '--pages' value 'x' is not a number" (or out of range). */
int tt_opt_number(const char *name, const char *arg, uint64_t min, uint64_t max, uint64_t *out);

/* The option of the tables with this exact long name, or NULL. */
struct tt_opt *tt_opt_find(struct tt_opt *const *tables, const char *name);
/* The word of a choice with index i, or NULL past the last. */
const char *tt_opt_choice(const struct tt_opt *o, int i);
/* The argument's name as help shows it: o->arg, a choice's words joined by
 * '|' (in buf), or NULL for a flag. */
const char *tt_opt_arg_name(const struct tt_opt *o, char *buf, size_t size);
/* Help text wrapped at word breaks to width columns, continuation lines
 * indented: the text starts at column col (padded to indent when left of
 * it) and ends with a newline. Into buf, cut short where it does not fit;
 * both front ends' --help (cli/options.c, tui/tiertop.c) use it. */
void tt_opt_wrap(char *buf, size_t size, const char *text, int col, int indent, int width);

#endif
