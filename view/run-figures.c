// SPDX-License-Identifier: GPL-3.0-or-later
/* A recorded run's headline, its trials' figures, and its trials as CSV
 * (run-figures.h). */
#include "run-figures.h"

#include "../bench/kernels.h"
#include "../bench/run.h"
#include "../core/error.h"
#include "../core/figure.h"
#include "../core/objective.h"
#include "../core/parse.h"
#include "../db/db.h"
#include "score.h"
#include "interval.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static double number(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

int tt_run_objective(json_t *run, struct tt_objective *o)
{
	return tt_objective_of_run(json_integer_value(json_object_get(run, "id")),
				   json_string_value(json_object_get(run, "kind")),
				   json_string_value(json_object_get(run, "objective")), o);
}

/* The figure run's objective ranks by, its objective in *o. A run that
 * measures nothing (apply's before and after) has none of its own: its
 * trials' figures are read as bandwidth, as every recorded trial has a
 * column for it. A run whose objective does not parse has no headline
 * (NULL): show, export and plot refuse it (tt_run_get), runs lists it
 * with a warning. */
static const struct tt_figure *run_figure(json_t *run, struct tt_objective *o)
{
	const struct tt_figure *f;

	if (tt_run_objective(run, o) < 0)
		return NULL;
	f = tt_objective_figure(o);
	return f ? f : tt_figure(TT_FIG_BANDWIDTH);
}

/* A figure's mean and interval as a headline. A t interval from two or
 * three noisy measurements can reach below zero (-3.2 GB/s was shown): no
 * bound is known then, and the text says the measurements were too few
 * instead. */
static void mean_headline(const struct tt_figure *f, double mean, double lo, double hi, int n,
			  struct tt_headline *h)
{
	h->q = f;
	h->kind = TT_HEADLINE_MEAN;
	h->n = n;
	h->mean = mean;
	h->lo = lo;
	h->hi = hi;
	tt_ci_bounded(f, &h->lo, &h->hi);
}

/* A score (higher is better, docs/json.md's recommendations[].score) in
 * the objective's own terms. */
static void from_score(json_t *run, double score, double lo, double hi, int n,
		       struct tt_headline *h)
{
	struct tt_objective o;
	const struct tt_figure *f = run_figure(run, &o);
	double mean;

	if (!f)
		return;
	tt_score_figure(tt_score_k(&o), score, lo, hi, &mean, &lo, &hi);
	mean_headline(f, mean, lo, hi, n, h);
}

void tt_reco_headline(json_t *run, json_t *reco, struct tt_headline *h)
{
	json_t *n = json_object_get(reco, "score_n");

	static const char *const actions[] = { "apply", "keep_auto", "bind_local" };
	const char *action = json_string_value(json_object_get(reco, "action"));

	*h = (struct tt_headline){ .lo = NAN, .hi = NAN, .best = NAN, .median = NAN };
	/* The table's own words (schema v4's CHECK), not the row's string:
	 * the headline outlives the row's fields (tt_headline_json). */
	for (size_t i = 0; action && i < sizeof(actions) / sizeof(*actions); i++)
		if (strcmp(action, actions[i]) == 0)
			h->action = actions[i];
	if (!isfinite(number(reco, "score")))
		return;
	from_score(run, number(reco, "score"), number(reco, "score_ci_low"),
		   number(reco, "score_ci_high"),
		   json_is_integer(n) ? (int)json_integer_value(n) : 0, h);
}

int tt_run_headline(json_t *run, struct tt_headline *h)
{
	/* The figures a bench or app run's trials record, in the order a
	 * run's best pass is looked for. */
	static const enum tt_figure_id passes[] = { TT_FIG_BANDWIDTH, TT_FIG_LATENCY,
						    TT_FIG_WALL_TIME, TT_FIG_METRIC };
	struct tt_objective o;
	json_t *reco;
	int rc = tt_run_objective(run, &o);

	if (rc < 0) {
		*h = (struct tt_headline){ .lo = NAN, .hi = NAN, .best = NAN, .median = NAN };
		return rc;
	}
	reco = json_pack("{s:O,s:O,s:O,s:O,s:O}", "action",
			 json_object_get(run, "reco_action") ?: json_null(), "score",
			 json_object_get(run, "reco_score") ?: json_null(), "score_ci_low",
			 json_object_get(run, "reco_score_ci_low") ?: json_null(), "score_ci_high",
			 json_object_get(run, "reco_score_ci_high") ?: json_null(), "score_n",
			 json_object_get(run, "reco_score_n") ?: json_null());

	tt_reco_headline(run, reco, h);
	json_decref(reco);
	/* A curve's points are one trial each, every figure a mean over the
	 * point: the best "pass" was the delay-0 point's bandwidth, given
	 * twice as best and median (issue 44). */
	const struct tt_kernel *k = o.kind == TT_OBJ_LATENCY ? tt_kernel_find(o.kernel) : NULL;

	if (h->kind == TT_HEADLINE_NONE && k && k->kind->curve &&
	    isfinite(number(run, tt_figure(TT_FIG_LATENCY)->best))) {
		h->kind = TT_HEADLINE_CURVE;
		h->q = tt_figure(TT_FIG_LATENCY);
		h->best = number(run, h->q->best);
		h->peak = number(run, tt_figure(TT_FIG_BANDWIDTH)->best);
	}
	/* No recommendation (a bench run, a search that failed): the best
	 * pass, as STREAM reports it. */
	for (size_t i = 0; h->kind == TT_HEADLINE_NONE && i < sizeof(passes) / sizeof(*passes);
	     i++) {
		const struct tt_figure *f = tt_figure(passes[i]);

		if (!isfinite(number(run, f->best)))
			continue;
		h->kind = TT_HEADLINE_BEST;
		h->q = f;
		h->best = number(run, f->best);
		h->median = f->median_in_headline ? number(run, f->median) : NAN;
	}
	return 0;
}

void tt_headline_text(const struct tt_headline *h, char *buf, size_t size)
{
	const struct tt_figure *q = h->q;
	size_t len = 0;

#define ADD(...) (len += len < size ? (size_t)snprintf(buf + len, size - len, __VA_ARGS__) : 0)
#define VALUE(v) (len += len < size ? (size_t)tt_figure_print(q, v, buf + len, size - len) : 0)
	snprintf(buf, size, "-");
	if (h->kind == TT_HEADLINE_NONE)
		return;
	if (h->kind == TT_HEADLINE_CURVE) {
		const struct tt_figure *bw = tt_figure(TT_FIG_BANDWIDTH);

		ADD("curve: ");
		VALUE(h->best);
		ADD(" %s lowest latency", q->label);
		if (isfinite(h->peak)) {
			ADD(", ");
			len += len < size
				       ? (size_t)tt_figure_print(bw, h->peak, buf + len, size - len)
				       : 0;
			ADD(" %s peak", bw->label);
		}
		return;
	}
	if (h->kind == TT_HEADLINE_BEST) {
		VALUE(h->best);
		ADD("%s%s best pass", q->label[0] ? " " : "", q->label);
		if (isfinite(h->median)) {
			ADD(", median ");
			VALUE(h->median);
		}
		return;
	}
	/* Keeping auto mode or binding locally writes no weights: the row's
	 * figure is then the best measured vector's, which the search found
	 * no better beyond the noise. */
	if (h->action && strcmp(h->action, "keep_auto") == 0)
		ADD("keep auto mode; best measured ");
	else if (h->action && strcmp(h->action, "bind_local") == 0)
		ADD("bind local; best measured ");
	VALUE(h->mean);
	ADD("%s%s mean", q->label[0] ? " " : "", q->label);
	if (isfinite(h->lo)) {
		ADD(" (95%% CI ");
		VALUE(h->lo);
		ADD("..");
		VALUE(h->hi);
		ADD(")");
	} else if (h->n == 1) {
		ADD(" (1 measurement: no interval)");
	} else {
		ADD(" (too few measurements to bound it)");
	}
#undef ADD
#undef VALUE
}

const char tt_size_unit[] = "MiB";

int tt_size_print(double bytes, char *buf, size_t size)
{
	return snprintf(buf, size, "%.1f", bytes / (1 << 20));
}

const char *tt_distrust_word(enum tt_distrust d)
{
	static const char *const words[TT_DISTRUSTS] = {
		[TT_DISTRUST_UNSTABLE] = "UNSTABLE",
		[TT_DISTRUST_CACHE_RESIDENT] = "cache-resident",
		[TT_DISTRUST_BELOW_RULE] = "below STREAM's 4x rule",
		[TT_DISTRUST_DESCHEDULED] = "DESCHEDULED",
		[TT_DISTRUST_DESCHEDULED_PROGRAM] = "DESCHEDULED",
	};

	return (unsigned)d < TT_DISTRUSTS ? words[d] : "";
}

/* bench's words for the same marks (cli/cmd-bench.c print_trust), as a
 * count of a run's trials. */
void tt_distrust_text(enum tt_distrust d, size_t n, FILE *f)
{
	const char *s = n == 1 ? "" : "s";

	if (!n)
		return;
	fprintf(f, "%s: %zu trial%s ", tt_distrust_word(d), n, s);
	if (d == TT_DISTRUST_UNSTABLE)
		fprintf(f,
			"whose passes spread beyond %.0f%%, or whose curve was not\n  monotone: "
			"other work shared the host\n",
			TT_SPREAD_MAX * 100);
	else if (d == TT_DISTRUST_DESCHEDULED)
		fprintf(f,
			"whose measuring threads ran under %.0f%% of their passes:\n  other work "
			"shared the CPU\n",
			TT_RAN_MIN * 100);
	else if (d == TT_DISTRUST_DESCHEDULED_PROGRAM)
		fprintf(f,
			"whose program had a thread kept waiting for a CPU\n  over %.0f%% of its "
			"run: other work shared its CPUs\n",
			(1 - TT_RAN_MIN) * 100);
	else if (d == TT_DISTRUST_CACHE_RESIDENT)
		fputs("whose working set fitted in the last-level cache:\n  the cache's figures, "
		      "not memory's\n",
		      f);
	else
		fputs("with arrays under 4x the last-level cache\n", f);
}

static json_t *real_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

void tt_headline_json(json_t *run, const struct tt_headline *h)
{
	static const enum tt_figure_id all[] = { TT_FIG_BANDWIDTH, TT_FIG_LATENCY, TT_FIG_WALL_TIME,
						 TT_FIG_METRIC };
	static const char *const reco[] = { "reco_action", "reco_score", "reco_score_ci_low",
					    "reco_score_ci_high", "reco_score_n" };
	bool mean = h->kind == TT_HEADLINE_MEAN;

	for (size_t i = 0; i < sizeof(reco) / sizeof(*reco); i++)
		json_object_del(run, reco[i]);
	json_object_set_new(run, "headline",
			    h->kind == TT_HEADLINE_MEAN	   ? json_string("recommendation_mean")
			    : h->kind == TT_HEADLINE_BEST  ? json_string("best_pass")
			    : h->kind == TT_HEADLINE_CURVE ? json_string("curve")
							   : json_null());
	json_object_set_new(run, "action", h->action ? json_string(h->action) : json_null());
	for (size_t i = 0; i < sizeof(all) / sizeof(*all); i++) {
		const char *const part[3] = { "mean", "ci_low", "ci_high" };
		double v[3] = { h->mean, h->lo, h->hi };

		for (int j = 0; j < 3; j++) {
			char key[64];

			tt_figure_key(tt_figure(all[i]), part[j], key, sizeof(key));
			json_object_set_new(
				run, key,
				real_or_null(mean && h->q == tt_figure(all[i]) ? v[j] : NAN));
		}
	}
	json_object_set_new(run, "measurements",
			    mean && h->n > 0 ? json_integer(h->n) : json_null());
}

/* A CSV field (RFC 4180): as it is, or in double quotes (quotes doubled)
 * when it holds a comma, a quote or a line break; a line break is kept
 * inside the quotes. A field that a spreadsheet would take for a formula
 * (=, +, -, @, tab, CR first: OWASP's CSV injection rule) is prefixed with
 * a single quote, so a string merged from another host's database is
 * shown, never run. Other control characters are escaped as \xNN (and a
 * backslash doubled, core/parse.h): show --csv goes to a terminal too. */
static void csv_string(FILE *f, const char *s)
{
	char *text = NULL, seg[1024];
	size_t size = 0, len = 0;
	FILE *m = open_memstream(&text, &size);

	if (!m)
		return;
	s = s ? s : "";
	if (*s && strchr("=+-@\t\r", *s))
		fputc('\'', m);
	while (*s) {
		size_t n = strcspn(s, "\t\r\n");
		char *chunk = strndup(s, n < sizeof(seg) ? n : sizeof(seg) - 1);

		fputs(chunk ? tt_str_escape(chunk, seg, sizeof(seg)) : "", m);
		free(chunk);
		s += n;
		if (*s)
			fputc(*s++, m);
	}
	fclose(m);
	len = strlen(text ? text : "");
	if (text && strcspn(text, ",\"\r\n") < len) {
		fputc('"', f);
		for (const char *p = text; *p; p++)
			fputs(*p == '"' ? "\"\"" : (char[]){ *p, '\0' }, f);
		fputc('"', f);
	} else if (text) {
		fputs(text, f);
	}
	free(text);
}

static void csv_number(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.17g", v);
}

/* A loaded-latency point's injected delay (spin iterations per cache
 * line): bench/kinds.c writes it at the end of the mix, "reads, delay
 * 400". NAN for any other trial. */
static double delay_of(const char *mix)
{
	const char *p = mix ? strstr(mix, ", delay ") : NULL;
	char *end;
	unsigned long long d;

	if (!p || p[8] < '0' || p[8] > '9')
		return NAN;
	d = strtoull(p + 8, &end, 10);
	return *end ? NAN : (double)d;
}

/* Whether a trial's weights are the recommendation's: every node with a
 * weight has the recommendation's weight, and no other. -1: the
 * recommendation is not by node (tiers), so trials cannot say. */
static int is_recommended(json_t *trial, json_t *reco)
{
	json_t *w = json_object_get(reco, "weights"), *n;
	size_t k, nweights = 0;

	if (!reco ||
	    strcmp(json_string_value(json_object_get(reco, "weights_keyed_by")) ?: "", "node") != 0)
		return -1;
	json_array_foreach (json_object_get(trial, "nodes"), k, n) {
		json_t *tw = json_object_get(n, "weight");
		char key[24];

		if (!json_is_integer(tw) || json_integer_value(tw) == 0)
			continue;
		snprintf(key, sizeof(key), "%" JSON_INTEGER_FORMAT,
			 json_integer_value(json_object_get(n, "node")));
		if (json_integer_value(json_object_get(w, key)) != json_integer_value(tw))
			return 0;
		nweights++;
	}
	return nweights && nweights == json_object_size(w);
}

/* The recommendation whose source node is the run's (the first, else). */
static json_t *run_reco(json_t *run)
{
	json_t *recs = json_object_get(run, "recommendations"), *r;
	size_t i;

	json_array_foreach (recs, i, r)
		if (json_equal(json_object_get(r, "source_node"),
			       json_object_get(run, "source_node")))
			return r;
	return json_array_get(recs, 0);
}

/* A sample of collector "search" (tuner/auto-record.c) on its trial: a
 * measurement in its "measurements", a baseline's kind in its
 * "baselines". */
static int add_measurement(json_t *row, void *ctx)
{
	json_int_t trial = json_integer_value(json_object_get(row, "trial_id"));
	json_t *t;
	size_t i;

	json_array_foreach (json_object_get(ctx, "trials"), i, t)
		if (json_integer_value(json_object_get(t, "id")) == trial) {
			const char *m = json_string_value(json_object_get(row, "metric"));
			const char *what =
				m && strcmp(m, "baseline") == 0 ? "baselines" : "measurements";
			json_t *ms = json_object_get(t, what);

			if (!ms)
				json_object_set_new(t, what, ms = json_array());
			json_array_append(ms, json_object_get(row, "value"));
			break;
		}
	return 0;
}

int tt_run_measurements(struct tt_db *db, json_t *run)
{
	return tt_db_run_samples(db, json_integer_value(json_object_get(run, "id")), "search",
				 add_measurement, run);
}

/* Trial t's figure from its measurements (in the objective's unit, as
 * auto-record stores them), as the plot shows it: tt_score_mean_ci. */
static void trial_figure(json_t *run, json_t *t, struct tt_headline *h)
{
	struct tt_objective o;
	const struct tt_figure *f = run_figure(run, &o);
	json_t *ms = json_object_get(t, "measurements"), *v;
	double *x = calloc(json_array_size(ms) + 1, sizeof(*x)), mean, lo, hi;
	size_t i;
	int n = 0;

	*h = (struct tt_headline){ .lo = NAN, .hi = NAN, .best = NAN, .median = NAN };
	if (!x || !f) {
		free(x);
		return;
	}
	json_array_foreach (ms, i, v)
		if (json_is_number(v))
			x[n++] = json_number_value(v);
	if ((n = tt_score_mean_ci(&o, x, n, &mean, &lo, &hi)) > 0)
		mean_headline(f, mean, lo, hi, n, h);
	free(x);
}

/* Each trial's figure set on it (docs/json.md, doc show: trials[]): the
 * recommended trial's is the recommendation's, as the run's headline has
 * it; every other trial's from its measurements. The measurements' array
 * gives way to their count. */
static void set_trial_figures(json_t *run)
{
	json_t *reco = run_reco(run), *t;
	struct tt_headline rh, h;
	size_t i;

	tt_reco_headline(run, reco, &rh);
	json_array_foreach (json_object_get(run, "trials"), i, t) {
		if (is_recommended(t, reco) > 0 && rh.kind == TT_HEADLINE_MEAN)
			h = rh;
		else if (json_array_size(json_object_get(t, "measurements")))
			trial_figure(run, t, &h);
		else
			continue;
		json_object_del(t, "measurements");
		json_object_del(t, "baselines");
		if (h.kind != TT_HEADLINE_MEAN)
			continue;
		const char *const part[3] = { "mean", "ci_low", "ci_high" };
		const double fig[3] = { h.mean, h.lo, h.hi };

		for (int j = 0; j < 3; j++) {
			char key[64];

			tt_figure_key(h.q, part[j], key, sizeof(key));
			json_object_set_new(t, key, real_or_null(fig[j]));
		}
		json_object_set_new(t, "measurements", h.n > 0 ? json_integer(h.n) : json_null());
	}
}

int tt_run_get(struct tt_db *db, int64_t id, json_t **run)
{
	struct tt_objective o;
	int rc = tt_db_run_get(db, id, run);

	if (rc == 0)
		rc = tt_run_objective(*run, &o);
	if (rc == 0)
		rc = tt_run_measurements(db, *run);
	if (rc == 0)
		set_trial_figures(*run);
	if (rc < 0) {
		json_decref(*run);
		*run = NULL;
	}
	return rc;
}

/* Trial t's figure as set_trial_figures left it on t. */
static void trial_headline(json_t *run, json_t *t, struct tt_headline *h)
{
	struct tt_objective o;
	const struct tt_figure *q = run_figure(run, &o);
	char key[64];

	*h = (struct tt_headline){ .lo = NAN, .hi = NAN, .best = NAN, .median = NAN };
	if (!q)
		return;
	tt_figure_key(q, "mean", key, sizeof(key));
	if (!json_is_number(json_object_get(t, key)))
		return;
	h->kind = TT_HEADLINE_MEAN;
	h->q = q;
	h->mean = number(t, key);
	tt_figure_key(q, "ci_low", key, sizeof(key));
	h->lo = number(t, key);
	tt_figure_key(q, "ci_high", key, sizeof(key));
	h->hi = number(t, key);
	h->n = (int)json_integer_value(json_object_get(t, "measurements"));
}

void tt_trials_text(json_t *run, FILE *f)
{
	struct tt_headline h;
	bool any = false;
	size_t i;
	json_t *t;

	json_array_foreach (json_object_get(run, "trials"), i, t) {
		char mean[32], ci[72];

		trial_headline(run, t, &h);
		if (h.kind != TT_HEADLINE_MEAN)
			continue;
		if (!any) {
			char head[32];

			snprintf(head, sizeof(head), "mean%s%s", h.q->label[0] ? " " : "",
				 h.q->label);
			fprintf(f, "\n%5s %14s %29s %12s\n", "trial", head, "95% CI",
				"measurements");
		}
		any = true;
		tt_figure_print(h.q, h.mean, mean, sizeof(mean));
		tt_ci_print(h.q, h.lo, h.hi, h.n >= 2, ci, sizeof(ci));
		fprintf(f, "%5" JSON_INTEGER_FORMAT " %14s %29s %12d\n",
			json_integer_value(json_object_get(t, "seq")), mean, ci, h.n);
	}
}

/* A trial's figure columns in the CSV (docs/tiertune.1), by where they
 * stand: v1's, app mode's, the search's. */
static const struct {
	enum tt_figure_id fig;
	bool median; /* the median pass, else the best */
} csv_v1[] = { { TT_FIG_BANDWIDTH, false }, { TT_FIG_LATENCY, true } },
  csv_app[] = { { TT_FIG_WALL_TIME, true }, { TT_FIG_METRIC, true } },
  csv_search[] = { { TT_FIG_BANDWIDTH, true }, { TT_FIG_LATENCY, false } };

#define CSV_NAME(c) (c.median ? tt_figure(c.fig)->median : tt_figure(c.fig)->best)
#define CSV_VALUE(f, t, c) csv_number(f, number(t, CSV_NAME(c)))

/* The figure a trial is ranked by, with its interval, unit and count;
 * empty fields when it has none. */
static void csv_headline(FILE *f, const struct tt_headline *h)
{
	if (h->kind != TT_HEADLINE_MEAN) {
		fputs(",,,,", f);
		return;
	}
	csv_number(f, h->mean);
	fputc(',', f);
	csv_number(f, h->lo);
	fputc(',', f);
	csv_number(f, h->hi);
	fputc(',', f);
	csv_string(f, h->q->csv_unit);
	fputc(',', f);
	if (h->n > 0)
		fprintf(f, "%d", h->n);
}

/* One record: trial t's figures on node n. rec: is_recommended's. */
static void csv_row(FILE *f, json_t *run, json_t *t, json_t *n, int rec,
		    const struct tt_headline *rh, const struct tt_headline *h)
{
	json_t *w = json_object_get(n, "weight");

	fprintf(f, "%jd,%jd,", (intmax_t)json_integer_value(json_object_get(run, "id")),
		(intmax_t)json_integer_value(json_object_get(t, "seq")));
	csv_string(f, json_string_value(json_object_get(t, "kernel")));
	fputc(',', f);
	csv_string(f, json_string_value(json_object_get(t, "mix")));
	fputc(',', f);
	csv_string(f, json_string_value(json_object_get(t, "placement")));
	fprintf(f, ",%jd,%jd,", (intmax_t)json_integer_value(json_object_get(t, "threads")),
		(intmax_t)json_integer_value(json_object_get(t, "size_bytes")));
	CSV_VALUE(f, t, csv_v1[0]);
	fputc(',', f);
	CSV_VALUE(f, t, csv_v1[1]);
	fprintf(f, ",%d,%d,%jd,", json_is_true(json_object_get(t, "validated")),
		json_is_true(json_object_get(t, "simulated")),
		(intmax_t)json_integer_value(json_object_get(n, "node")));
	if (json_is_integer(w))
		fprintf(f, "%jd", (intmax_t)json_integer_value(w));
	fprintf(f, ",%.17g,%.17g,", number(n, "requested_share"), number(n, "achieved_share"));
	CSV_VALUE(f, t, csv_app[0]);
	fputc(',', f);
	CSV_VALUE(f, t, csv_app[1]);
	fputc(',', f);
	csv_number(f, delay_of(json_string_value(json_object_get(t, "mix"))));
	fputc(',', f);
	CSV_VALUE(f, t, csv_search[0]);
	fputc(',', f);
	CSV_VALUE(f, t, csv_search[1]);
	fputc(',', f);
	if (rec >= 0)
		fprintf(f, "%d", rec);
	fputc(',', f);
	if (rec > 0)
		csv_string(f, rh->action ? rh->action : "apply");
	fputc(',', f);
	csv_headline(f, h);
	fputs("\r\n", f);
}

void tt_trials_csv(json_t *run, FILE *f)
{
	json_t *reco = run_reco(run), *t, *n;
	struct tt_headline rh, h;
	size_t i, k;

	tt_reco_headline(run, reco, &rh);
	/* The columns stay in this order (docs/tiertune.1): v1's first, app
	 * mode's (schema 3), then the figures the search ranks by. Records
	 * end in CRLF, as RFC 4180 has them. */
	fprintf(f,
		"run,trial,kernel,mix,placement,threads,size_bytes,%s,%s,validated,simulated,node,"
		"weight,requested_share,achieved_share,%s,%s,delay_iterations,%s,%s,recommended,"
		"action,mean,ci_low,ci_high,unit,measurements\r\n",
		CSV_NAME(csv_v1[0]), CSV_NAME(csv_v1[1]), CSV_NAME(csv_app[0]),
		CSV_NAME(csv_app[1]), CSV_NAME(csv_search[0]), CSV_NAME(csv_search[1]));
	json_array_foreach (json_object_get(run, "trials"), i, t) {
		int rec = is_recommended(t, reco);

		if (rec > 0 && rh.kind == TT_HEADLINE_MEAN)
			h = rh;
		else
			trial_headline(run, t, &h);
		json_array_foreach (json_object_get(t, "nodes"), k, n)
			csv_row(f, run, t, n, rec, &rh, &h);
	}
}
