// SPDX-License-Identifier: GPL-3.0-or-later
/* The option parser every front end uses (options.h). */
#include "options.h"

#include "error.h"
#include "parse.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A list of words, joined and cut to fit: "--a, --b or --c". */
struct words {
	char buf[512];
	size_t at;
};

static void words_add(struct words *w, const char *sep, const char *fmt, const char *word)
{
	if (w->at < sizeof(w->buf))
		w->at += (size_t)snprintf(w->buf + w->at, sizeof(w->buf) - w->at, "%s",
					  w->at ? sep : "");
	if (w->at < sizeof(w->buf))
		w->at += (size_t)snprintf(w->buf + w->at, sizeof(w->buf) - w->at, fmt, word);
}

const char *tt_opt_choice(const struct tt_opt *o, int i)
{
	if (o->choice)
		return o->choice(i);
	return o->choices ? o->choices[i] : NULL;
}

const char *tt_opt_arg_name(const struct tt_opt *o, char *buf, size_t size)
{
	size_t at = 0;
	const char *w;

	if (o->arg || o->kind != TT_OPT_KIND_CHOICE || size == 0)
		return o->arg;
	buf[0] = '\0';
	for (int i = 0; (w = tt_opt_choice(o, i)) && at < size; i++)
		at += (size_t)snprintf(buf + at, size - at, "%s%s", i ? "|" : "", w);
	return buf;
}

/* snprintf at *at, never past size. */
static void wrap_put(char *buf, size_t size, size_t *at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void wrap_put(char *buf, size_t size, size_t *at, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*at >= size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *at, size - *at, fmt, ap);
	va_end(ap);
	*at = n < 0 ? size : *at + (size_t)n;
}

void tt_opt_wrap(char *buf, size_t size, const char *text, int col, int indent, int width)
{
	bool line_start = true;
	size_t at = 0;

	if (!size)
		return;
	buf[0] = '\0';
	if (col > 0 && col < indent) {
		wrap_put(buf, size, &at, "%*s", indent - col, "");
		col = indent;
	}
	for (const char *p = text; *p;) {
		size_t len;

		p += strspn(p, " \n");
		if (!*p)
			break;
		len = strcspn(p, " \n");
		if (!line_start && col + 1 + (int)len > width) {
			wrap_put(buf, size, &at, "\n%*s", indent, "");
			col = indent;
			line_start = true;
		}
		if (!line_start || (col > 0 && col > indent)) {
			wrap_put(buf, size, &at, " ");
			col++;
		}
		wrap_put(buf, size, &at, "%.*s", (int)len, p);
		col += (int)len;
		p += len;
		line_start = false;
	}
	wrap_put(buf, size, &at, "\n");
}

struct tt_opt *tt_opt_find(struct tt_opt *const *tables, const char *name)
{
	for (struct tt_opt *const *t = tables; *t; t++)
		for (struct tt_opt *o = *t; o->kind != TT_OPT_KIND_END; o++)
			if (strcmp(o->name, name) == 0)
				return o;
	return NULL;
}

/* The option "--" + name[0..len) stands for: its exact name, else the one
 * listed option it begins. NULL with the message when none or several. */
static struct tt_opt *find_long(struct tt_opt *const *tables, const char *name, size_t len,
				struct tt_opt_args *args)
{
	struct tt_opt *hit = NULL;
	struct words names = { .at = 0 };
	int hits = 0;

	for (struct tt_opt *const *t = tables; *t; t++)
		for (struct tt_opt *o = *t; o->kind != TT_OPT_KIND_END; o++)
			if (strlen(o->name) == len && strncmp(o->name, name, len) == 0)
				return o;
	for (struct tt_opt *const *t = tables; *t && len; t++)
		for (struct tt_opt *o = *t; o->kind != TT_OPT_KIND_END; o++)
			if (o->help && strncmp(o->name, name, len) == 0) {
				hit = o;
				hits++;
				words_add(&names, ", ", "--%s", o->name);
			}
	if (hits == 1)
		return hit;
	args->grammar = true;
	if (hits > 1)
		tt_err(TT_EINPUT, "option '--%.*s' is ambiguous: %s", (int)len, name, names.buf);
	else {
		args->unknown = true;
		tt_err(TT_EINPUT, "unknown option '--%.*s'", (int)len, name);
	}
	return NULL;
}

static struct tt_opt *find_short(struct tt_opt *const *tables, char c)
{
	for (struct tt_opt *const *t = tables; *t; t++)
		for (struct tt_opt *o = *t; o->kind != TT_OPT_KIND_END; o++)
			if (o->short_name && o->short_name == c)
				return o;
	return NULL;
}

static int number_error(int rc, const char *name, const char *arg, uint64_t min, uint64_t max)
{
	if (rc == -ERANGE)
		return tt_err(TT_EINPUT, "option '--%s' value '%s' out of range (%ju-%ju)", name,
			      arg, (uintmax_t)min, (uintmax_t)max);
	return tt_err(TT_EINPUT, "option '--%s' value '%s' is not a number", name, arg);
}

int tt_opt_number(const char *name, const char *arg, uint64_t min, uint64_t max, uint64_t *out)
{
	int rc = tt_parse_u64(arg, min, max, out);

	return rc ? number_error(rc, name, arg, min, max) : 0;
}

/* A plain decimal ("0.5", "2", "1e3"): strtod alone would also take
 * leading blanks, "inf", "nan" and hexadecimal. */
static bool decimal(const char *arg, double *out, char **end)
{
	size_t len = strspn(arg, "0123456789.eE+-");

	errno = 0;
	*out = strtod(arg, end);
	return *end != arg && (size_t)(*end - arg) <= len && !errno && isfinite(*out);
}

static int set_double(const struct tt_opt *o, const char *arg)
{
	char *end;
	double v;

	if (!decimal(arg, &v, &end) || *end)
		return tt_err(TT_EINPUT, "option '--%s' value '%s' is not a number", o->name, arg);
	if (o->above ? !(v > o->fmin) || v > o->fmax : v < o->fmin || v > o->fmax) {
		if (o->above)
			return tt_err(TT_EINPUT,
				      "option '--%s' value '%s' out of range (above %.15g, at most "
				      "%.15g)",
				      o->name, arg, o->fmin, o->fmax);
		return tt_err(TT_EINPUT, "option '--%s' value '%s' out of range (%.15g-%.15g)",
			      o->name, arg, o->fmin, o->fmax);
	}
	*(double *)o->value = v;
	return 0;
}

static int set_choice(const struct tt_opt *o, const char *arg)
{
	struct words words = { .at = 0 };
	const char *w;

	for (int i = 0; (w = tt_opt_choice(o, i)); i++) {
		if (strcmp(w, arg) == 0) {
			*(int *)o->value = i;
			return 0;
		}
		words_add(&words, ", ", "%s", w);
	}
	return tt_err(TT_EINPUT, "option '--%s' value '%s' is not one of: %s", o->name, arg,
		      words.buf);
}

/* A count, or a number with s, m or h. */
static int set_budget(const struct tt_opt *o, const char *arg)
{
	static const struct {
		const char *suffix;
		double scale;
	} units[] = { { "s", 1 }, { "m", 60 }, { "h", 3600 } };
	struct tt_opt_budget *b = o->value;
	char *end, most[32];
	uint64_t count;
	double v;

	if (tt_parse_u64(arg, o->min, o->max, &count) == 0) {
		*b = (struct tt_opt_budget){ .count = count };
		return 0;
	}
	for (size_t i = 0; i < sizeof(units) / sizeof(*units); i++)
		if (decimal(arg, &v, &end) && strcmp(end, units[i].suffix) == 0 && v > 0 &&
		    v * units[i].scale <= o->fmax) {
			*b = (struct tt_opt_budget){ .seconds = v * units[i].scale };
			return 0;
		}
	if (o->fmax == 7 * 86400.0)
		snprintf(most, sizeof(most), "a week");
	else
		snprintf(most, sizeof(most), "%.15g s", o->fmax);
	return tt_err(TT_EINPUT,
		      "option '--%s' value '%s' is not a number of %s (%ju-%ju) or a duration "
		      "(90s, 5m, 1h; at most %s)",
		      o->name, arg, o->what, (uintmax_t)o->min, (uintmax_t)o->max, most);
}

/* The value of o from arg (NULL for a flag). */
static int set_value(struct tt_opt *o, const char *arg, struct tt_opt_args *args)
{
	uint64_t v;
	int rc;

	o->seen = true;
	args->failed = o;
	switch (o->kind) {
	case TT_OPT_KIND_FLAG:
		*(bool *)o->value = true;
		rc = 0;
		break;
	case TT_OPT_KIND_STRING:
		*(const char **)o->value = arg;
		rc = 0;
		break;
	case TT_OPT_KIND_DOUBLE:
		rc = set_double(o, arg);
		break;
	case TT_OPT_KIND_CHOICE:
		rc = set_choice(o, arg);
		break;
	case TT_OPT_KIND_BUDGET:
		rc = set_budget(o, arg);
		break;
	case TT_OPT_KIND_CALL:
		rc = o->call(o, arg);
		if (rc > 0) {
			args->call_rc = rc;
			rc = tt_err(TT_EINPUT, "option '--%s' value '%s' refused", o->name, arg);
		}
		break;
	case TT_OPT_KIND_SIZE:
		rc = tt_parse_size(arg, o->min, o->max, &v);
		if (rc == -EINVAL || rc == -EDOM)
			rc = tt_err(TT_EINPUT, "option '--%s' value '%s' is not a size%s; give %s",
				    o->name, arg, rc == -EDOM ? " in whole bytes" : "",
				    TT_SIZE_FORMS);
		else if (rc)
			rc = number_error(rc, o->name, arg, o->min, o->max);
		else
			*(uint64_t *)o->value = v;
		break;
	case TT_OPT_KIND_U64:
	case TT_OPT_KIND_I64:
		rc = tt_opt_number(o->name, arg, o->min, o->max, &v);
		if (rc == 0 && o->kind == TT_OPT_KIND_I64)
			*(int64_t *)o->value = (int64_t)v;
		else if (rc == 0)
			*(uint64_t *)o->value = v;
		break;
	default:
		rc = tt_err(TT_EFAIL, "option '--%s' has no kind", o->name);
	}
	if (rc == 0)
		args->failed = NULL;
	return rc;
}

struct cursor {
	int i, argc;
	char **argv;
	struct tt_opt_args *args;
};

/* o's value: the rest of the word (inline), else the next argument. */
static int take(struct cursor *c, struct tt_opt *o, const char *inline_val)
{
	if (o->kind == TT_OPT_KIND_FLAG)
		return set_value(o, NULL, c->args);
	if (!inline_val && c->i + 1 >= c->argc) {
		c->args->grammar = true;
		return tt_err(TT_EINPUT, "option '--%s' needs a value", o->name);
	}
	return set_value(o, inline_val ? inline_val : c->argv[++c->i], c->args);
}

static int long_option(struct tt_opt *const *tables, struct cursor *c, const char *a)
{
	const char *eq = strchr(a + 2, '=');
	struct tt_opt *o =
		find_long(tables, a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2), c->args);

	if (!o)
		return TT_EINPUT;
	if (eq && o->kind == TT_OPT_KIND_FLAG) {
		c->args->grammar = true;
		return tt_err(TT_EINPUT, "option '--%s' takes no value", o->name);
	}
	return take(c, o, eq ? eq + 1 : NULL);
}

/* -c, -cVALUE, or flags clustered: -bn1 is -b -n 1. */
static int short_options(struct tt_opt *const *tables, struct cursor *c, const char *a)
{
	for (const char *p = a + 1; *p; p++) {
		struct tt_opt *o = find_short(tables, *p);
		int rc;

		if (!o) {
			c->args->grammar = c->args->unknown = true;
			return tt_err(TT_EINPUT, "unknown option '-%c'", *p);
		}
		if (o->kind != TT_OPT_KIND_FLAG)
			return take(c, o, p[1] ? p + 1 : NULL);
		if ((rc = set_value(o, NULL, c->args)) < 0)
			return rc;
	}
	return 0;
}

int tt_opt_parse(struct tt_opt *const *tables, unsigned int flags, int argc, char **argv,
		 struct tt_opt_args *args)
{
	struct cursor c = { .argc = argc, .argv = argv, .args = args };
	bool options = true;
	int rc = 0;

	*args = (struct tt_opt_args){ .dashdash = -1, .next = argc };
	for (struct tt_opt *const *t = tables; *t; t++)
		for (struct tt_opt *o = *t; o->kind != TT_OPT_KIND_END; o++)
			o->seen = false;
	for (c.i = 1; rc == 0 && c.i < argc; c.i++) {
		char *a = argv[c.i];
		bool positional = !options || a[0] != '-' || a[1] == '\0';

		if (positional && (flags & TT_OPT_STOP_AT_ARG)) {
			args->next = c.i;
			break;
		} else if (positional) {
			argv[args->n++] = a;
		} else if (strcmp(a, "--") == 0) {
			options = false;
			args->dashdash = args->n;
		} else if (a[1] == '-') {
			rc = long_option(tables, &c, a);
		} else {
			rc = short_options(tables, &c, a);
		}
	}
	if (rc < 0)
		args->next = c.i - 1;
	return rc;
}

/* The option a rule's term names, or NULL with the message. */
static struct tt_opt *term_opt(struct tt_opt *const *tables, const char *term)
{
	char name[64];
	struct tt_opt *o;

	snprintf(name, sizeof(name), "%.*s", (int)strcspn(term, "="), term);
	o = tt_opt_find(tables, name);
	if (!o)
		tt_err(TT_EFAIL, "an option rule names no option '--%s'", name);
	return o;
}

/* Whether word is one of a choice's words. */
static bool is_choice(const struct tt_opt *o, const char *word)
{
	const char *w;

	for (int i = 0; (w = tt_opt_choice(o, i)); i++)
		if (strcmp(w, word) == 0)
			return true;
	return false;
}

/* 1 when the term holds (the option given, with that word if it names
 * one), 0 when not, or TT_EFAIL. A choice's word that is none of its
 * words is refused whether the option is given or not, so that a rule
 * cannot outlive the word it was written for unnoticed. */
static int holds(struct tt_opt *const *tables, const char *term)
{
	const char *eq = strchr(term, '=');
	struct tt_opt *o = term_opt(tables, term);

	if (!o)
		return TT_EFAIL;
	if (eq && o->kind == TT_OPT_KIND_CHOICE && !is_choice(o, eq + 1))
		return tt_err(TT_EFAIL, "an option rule names no word '%s' of '--%s'", eq + 1,
			      o->name);
	if (!o->seen || !eq)
		return o->seen;
	if (o->kind == TT_OPT_KIND_CHOICE)
		return strcmp(tt_opt_choice(o, *(const int *)o->value), eq + 1) == 0;
	return o->kind == TT_OPT_KIND_STRING && strcmp(*(const char *const *)o->value, eq + 1) == 0;
}

/* A term as messages name it: "--name", "--name word". */
static void term_words(struct words *w, const char *sep, const char *term)
{
	char buf[96];
	size_t len = strcspn(term, "=");

	snprintf(buf, sizeof(buf), "--%.*s%s%s", (int)len, term, term[len] ? " " : "",
		 term[len] ? term + len + 1 : "");
	words_add(w, sep, "%s", buf);
}

/* The terms from the from-th, as "--a, --b or --c". */
static const char *terms_list(const struct tt_opt_rule *r, int from, struct words *w)
{
	int n = from;

	while (n < TT_OPT_RULE_TERMS && r->terms[n])
		n++;
	for (int i = from; i < n; i++)
		term_words(w, i + 1 == n && i > from ? " or " : ", ", r->terms[i]);
	return w->buf;
}

static int check_rule(struct tt_opt *const *tables, const struct tt_opt_rule *r)
{
	struct words w = { .at = 0 }, rest = { .at = 0 };
	int given = 0, first = holds(tables, r->terms[0]), other = -1;

	if (first < 0)
		return first;
	for (int i = 1; i < TT_OPT_RULE_TERMS && r->terms[i]; i++) {
		int h = holds(tables, r->terms[i]);

		if (h < 0)
			return h;
		if (h && other < 0)
			other = i;
		given += h;
	}
	switch (r->kind) {
	case TT_OPT_ONE_OF:
	case TT_OPT_AT_MOST_ONE:
		if (first + given == 1 || (first + given == 0 && r->kind == TT_OPT_AT_MOST_ONE))
			return 0;
		if (r->message)
			return tt_err(TT_EINPUT, "%s", r->message);
		return tt_err(TT_EINPUT, "give %s of %s", first + given ? "only one" : "one",
			      terms_list(r, 0, &w));
	case TT_OPT_EXCLUDES:
		if (!first || !given)
			return 0;
		if (r->message)
			return tt_err(TT_EINPUT, "%s", r->message);
		term_words(&w, "", r->terms[0]);
		term_words(&w, " and ", r->terms[other]);
		return tt_err(TT_EINPUT, "%s do not go together", w.buf);
	case TT_OPT_NEEDS:
		if (!first || given)
			return 0;
		if (r->message)
			return tt_err(TT_EINPUT, "%s", r->message);
		term_words(&w, "", r->terms[0]);
		return tt_err(TT_EINPUT, "%s goes with %s", w.buf, terms_list(r, 1, &rest));
	default:
		return 0;
	}
}

int tt_opt_check(struct tt_opt *const *tables, const struct tt_opt_rule *rules,
		 struct tt_opt_args *args)
{
	int rc;

	for (struct tt_opt *const *t = tables; *t; t++)
		for (const struct tt_opt *o = *t; o->kind != TT_OPT_KIND_END; o++)
			if (o->required && !o->seen) {
				args->grammar = true;
				return tt_err(TT_EINPUT, "this command needs --%s", o->name);
			}
	for (const struct tt_opt_rule *r = rules; r && r->kind != TT_OPT_RULE_END; r++)
		if ((rc = check_rule(tables, r)) < 0)
			return rc;
	return 0;
}
