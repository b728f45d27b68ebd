// SPDX-License-Identifier: GPL-3.0-or-later
/* A recorded run's objective and its text (objective.h). */
#include "objective.h"

#include "error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The option's words and their kinds, one line each (objective.h). */
#define OBJECTIVE_CHOICES(X)                                                                       \
	X("bandwidth", TT_OBJ_BANDWIDTH) /* the mix's bandwidth (the default) */                   \
	X("latency", TT_OBJ_LATENCY)	 /* its loaded latency at a stated traffic */
#define CHOICE_NAME(name, kind) name,
#define CHOICE_KIND(name, kind) kind,
const char *const tt_objective_names[] = { OBJECTIVE_CHOICES(CHOICE_NAME) NULL };
static const enum tt_objective_kind choice_kinds[] = { OBJECTIVE_CHOICES(CHOICE_KIND) };

enum tt_objective_kind tt_objective_choice(int i)
{
	return i >= 0 && (size_t)i < sizeof(choice_kinds) / sizeof(*choice_kinds) ? choice_kinds[i]
										  : TT_OBJ_NONE;
}

double tt_objective_traffic_bytes_s(const struct tt_objective *o)
{
	/* A product with 1e9, as the option's GB/s always became bytes/s. */
	return o->kind == TT_OBJ_LATENCY ? o->traffic_gb_s * 1e9 : 0;
}

/* The words of the text form, by kind. */
static const char *const prefixes[] = {
	[TT_OBJ_BANDWIDTH] = "bandwidth:",
	[TT_OBJ_LATENCY] = "latency:",
	[TT_OBJ_MATRIX] = "matrix:",
};
static const char wall_time[] = "app:wall-time";
static const char metric_higher[] = "app:metric,higher-is-better";
static const char metric_lower[] = "app:metric,lower-is-better";
static const char latency_bound[] = ",latency-bound";
static const char gb_s[] = "GB/s";

#define TEXT_QUOTED 200 /* bytes of a bad text an error quotes */

/* A kernel's name as bench's table spells them ("triad", "copy-nt",
 * "3r1w", "loaded-latency"): nothing the text form uses as a separator. */
static size_t kernel_len(const char *s)
{
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-");
}

static bool kernel_ok(const char *k)
{
	size_t n = kernel_len(k);

	return n > 0 && n < TT_OBJECTIVE_KERNEL_MAX && k[n] == '\0';
}

/* The traffic with the fewest digits that read back as the same double:
 * %g's six where they do (every rate auto has recorded reads the same as
 * before), more where they would not. */
static int format_rate(double v, char *buf, size_t size)
{
	int n = 0;

	for (int p = 6; p <= 17; p++) {
		n = snprintf(buf, size, "%.*g", p, v);
		if (n < 0 || (size_t)n >= size || strtod(buf, NULL) == v)
			break;
	}
	return n;
}

int tt_objective_format(const struct tt_objective *o, char *buf, size_t size)
{
	char rate[32] = "";
	int n = -1;

	if (size)
		buf[0] = '\0';
	switch (o->kind) {
	case TT_OBJ_WALL_TIME:
		n = snprintf(buf, size, "%s", wall_time);
		break;
	case TT_OBJ_METRIC:
		n = snprintf(buf, size, "%s", o->lower_better ? metric_lower : metric_higher);
		break;
	case TT_OBJ_BANDWIDTH:
	case TT_OBJ_LATENCY:
	case TT_OBJ_MATRIX:
		if (!kernel_ok(o->kernel))
			return tt_err(TT_EINPUT, "objective's kernel '%.*s' is not a kernel name",
				      (int)strnlen(o->kernel, sizeof(o->kernel)), o->kernel);
		if (o->kind == TT_OBJ_LATENCY && o->traffic_gb_s != 0) {
			if (!isfinite(o->traffic_gb_s) || o->traffic_gb_s < 0)
				return tt_err(TT_EINPUT,
					      "objective's traffic '%g' GB/s is not a rate",
					      o->traffic_gb_s);
			rate[0] = '@';
			format_rate(o->traffic_gb_s, rate + 1, sizeof(rate) - 1 - strlen(gb_s));
			strcat(rate, gb_s);
		}
		n = snprintf(buf, size, "%s%s%s%s", prefixes[o->kind], o->kernel, rate,
			     o->kind == TT_OBJ_BANDWIDTH && o->latency_bound ? latency_bound : "");
		break;
	case TT_OBJ_NONE:
	default:
		return tt_err(TT_EINPUT, "a run that measures nothing has no objective");
	}
	if (n < 0 || (size_t)n >= size)
		return tt_err(TT_EINPUT, "objective '%s' does not fit in %zu bytes", buf, size);
	return 0;
}

/* "@RATEGB/s" after a latency kernel: a plain decimal ("10", "12.5",
 * "1e+06"), finite and above zero. */
static bool parse_rate(const char *s, double *v)
{
	size_t n = strspn(s, "0123456789.eE+-");
	char *end;

	if (n == 0 || s[0] < '0' || s[0] > '9' || strcmp(s + n, gb_s) != 0)
		return false;
	*v = strtod(s, &end);
	return end == s + n && isfinite(*v) && *v > 0;
}

static bool parse_kernel(const char *s, struct tt_objective *o)
{
	size_t n = kernel_len(s);

	if (n == 0 || n >= sizeof(o->kernel))
		return false;
	memcpy(o->kernel, s, n);
	o->kernel[n] = '\0';
	s += n;
	if (o->kind == TT_OBJ_BANDWIDTH && strcmp(s, latency_bound) == 0)
		return o->latency_bound = true;
	if (o->kind == TT_OBJ_LATENCY && s[0] == '@')
		return parse_rate(s + 1, &o->traffic_gb_s);
	return s[0] == '\0';
}

int tt_objective_parse(const char *text, struct tt_objective *o)
{
	*o = (struct tt_objective){ .kind = TT_OBJ_NONE };
	if (text && strcmp(text, wall_time) == 0) {
		o->kind = TT_OBJ_WALL_TIME;
		return 0;
	}
	if (text && (strcmp(text, metric_higher) == 0 || strcmp(text, metric_lower) == 0)) {
		o->kind = TT_OBJ_METRIC;
		o->lower_better = strcmp(text, metric_lower) == 0;
		return 0;
	}
	for (int k = 0; text && k < (int)(sizeof(prefixes) / sizeof(*prefixes)); k++) {
		size_t n = prefixes[k] ? strlen(prefixes[k]) : 0;

		if (!n || strncmp(text, prefixes[k], n) != 0)
			continue;
		o->kind = (enum tt_objective_kind)k;
		if (parse_kernel(text + n, o))
			return 0;
		break;
	}
	/* The text as it is: the front ends escape a message as they print
	 * it (cli.c), and escaping here too would double its backslashes. A
	 * long one is cut, so that the message ends as it says. */
	*o = (struct tt_objective){ .kind = TT_OBJ_NONE };
	return tt_err(TT_EINPUT, "objective '%.*s%s' is not one tiertune records", TEXT_QUOTED,
		      text ? text : "(none)", text && strlen(text) > TEXT_QUOTED ? "..." : "");
}

int tt_objective_of_run(long long id, const char *kind, const char *text, struct tt_objective *o)
{
	static const char *const measuring[] = { "bench", "auto", "sweep" };
	bool measures = !kind;

	if (tt_objective_parse(text, o) == 0)
		return 0;
	for (size_t i = 0; kind && i < sizeof(measuring) / sizeof(*measuring); i++)
		measures |= strcmp(kind, measuring[i]) == 0;
	/* A run that measures nothing (apply, restore, rebalance) keeps a
	 * note there ("run 12", "pid 4242 (postgres)"), or nothing. */
	if (!measures)
		return 0;
	tt_err_prefix("run %lld", id);
	tt_err_hint("the database holds text that no version of tiertune writes there "
		    "(damaged, or edited)");
	return TT_EINPUT;
}

bool tt_objective_equal(const struct tt_objective *a, const struct tt_objective *b)
{
	return a->kind == b->kind && strcmp(a->kernel, b->kernel) == 0 &&
	       a->traffic_gb_s == b->traffic_gb_s && a->latency_bound == b->latency_bound &&
	       a->lower_better == b->lower_better;
}
