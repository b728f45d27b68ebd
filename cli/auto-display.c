// SPDX-License-Identifier: GPL-3.0-or-later
/* What auto's and sweep's reports share, the lines printed along the way,
 * and the per-socket recipe (auto-display.h). */
#include "auto-display.h"
#include "cli.h"

#include "../core/bitmap.h"
#include "../core/error.h"
#include "../core/parse.h"
#include "../view/interval.h"
#include "../view/score.h"
#include "../core/figure.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A mean and its 95% interval, both on scores, as show prints the same
 * run's (view/interval.h): the interval's ends, exact for a figure that
 * is the score's inverse (a latency's is not symmetric about its mean,
 * and a half width to first order read 721.7..1808.7 ns where show read
 * 885.0..2218.1); "n/a" for one measurement, "unbounded" for an interval
 * that bounds nothing. */
void cli_auto_figure(FILE *f, const struct tt_objective *o, double score, double lo, double hi)
{
	bool several = isfinite(lo) && isfinite(hi);
	char m[48], ci[96];
	double flo, fhi;

	tt_score_print(o, score, m, sizeof(m));
	tt_score_ci(o, lo, hi, &flo, &fhi);
	tt_ci_print(tt_score_fig(o), flo, fhi, several, ci, sizeof(ci));
	fprintf(f, "%8s %16s", m, ci);
}

/* A score as shown, into a caller's buffer of 48 bytes. */
const char *cli_auto_score(const struct tt_objective *o, double score, char *buf)
{
	tt_score_print(o, score, buf, 48);
	return buf;
}

void cli_auto_weights(const struct tt_weights *w, char *buf, size_t size)
{
	if (tt_weights_format(w, buf, size) < 0)
		snprintf(buf, size, "?");
}

static void trial_weights(const struct tt_search *s, int trial, char *buf, size_t size)
{
	uint32_t w[TT_SEARCH_MAX_NODES];
	struct tt_weights tw;

	tt_search_trial_weights(s, trial, w);
	tt_search_weights(s, w, &tw);
	cli_auto_weights(&tw, buf, size);
}

/* The nodes of list a that list b names too, as a list ("" none). */
static void shared_nodes(const char *a, const char *b, char *buf, size_t size)
{
	uint64_t x[TT_MAX_NODES / 64] = { 0 }, y[TT_MAX_NODES / 64] = { 0 };

	buf[0] = '\0';
	if (tt_parse_list(a, x, TT_MAX_NODES) < 0 || tt_parse_list(b, y, TT_MAX_NODES) < 0)
		return;
	for (unsigned int i = 0; i < TT_MAX_NODES / 64; i++)
		x[i] &= y[i];
	tt_bit_format_list(x, TT_MAX_NODES, buf, size);
}

/* What to do instead of global weights that cost another source: tune
 * every source together, or launch per socket (upstream's answer to
 * per-socket requests: the CPUs bound, the policy's nodes; weights are
 * global, never per socket). Every line a command that runs as printed,
 * and the words say what it does (issue 43): tiertune run --apply puts the
 * weights back when the program ends; the numactl line only where this
 * host's numactl has -w (asked now, cli_numactl_weighted); the other
 * sockets' tasks bound to their own local memory, which may be some of
 * the program's nodes, and then the gain, measured with them idle, is an
 * upper bound; a service's drop-in from export --format systemd. */
void cli_auto_recipe_text(FILE *f, const struct tt_recipe *in)
{
	struct tt_recipe safe = *in, *r = &safe;
	char why[256], shared[128];

	/* Checked where read (tt_recipe_parse), and still escaped here, as
	 * every stored string a terminal is shown. */
	tt_str_escape(in->weights, r->weights, sizeof(r->weights));
	tt_str_escape(in->nodes, r->nodes, sizeof(r->nodes));
	tt_str_escape(in->cpus, r->cpus, sizeof(r->cpus));
	for (int i = 0; i < r->nothers; i++)
		tt_str_escape(in->other[i].mems, r->other[i].mems, sizeof(r->other[i].mems));

	/* Prose wrapped where the values are short (80 columns for "0-47",
	 * "0-1", "0:9,1:2"), each command alone on its line. */
	fprintf(f,
		"instead, either tune every source at once, each over its own nodes\n"
		"(global weights can hold them together):\n"
		"  tiertune auto --all-sources --nodes local\n"
		"or launch per socket: the program on node %d's CPUs (%s), under weighted\n"
		"interleave over nodes %s; --apply writes %s for its run only (global\n"
		"meanwhile: every task interleaving over those nodes gets them), then puts\n"
		"the weights and auto mode back as they were:\n"
		"  tiertune run --source-node %d --weights %s --apply -- PROGRAM\n",
		r->source, r->cpus, r->nodes, r->weights, r->source, r->weights);
	if (cli_numactl_weighted(why, sizeof(why)))
		fprintf(f,
			"or, the weights written for good first ('tiertune apply --weights %s'):\n"
			"  numactl --cpunodebind=%d --weighted-interleave=%s -- PROGRAM\n",
			r->weights, r->source, r->nodes);
	else
		fprintf(f, "(no numactl line: %s;\ntiertune run does what numactl -w would)\n",
			why);
	for (int i = 0; i < r->nothers; i++) {
		const char *mems = r->other[i].mems;

		if (!mems[0]) {
			fprintf(f, "node %d's tasks: it has no local memory node to bind them to\n",
				r->other[i].source);
			continue;
		}
		fprintf(f,
			"node %d's tasks on its CPUs and local memory, nodes %s (or their\n"
			"cgroup's cpuset.mems=%s):\n"
			"  numactl --cpunodebind=%d --membind=%s -- PROGRAM\n",
			r->other[i].source, mems, mems, r->other[i].source, mems);
		shared_nodes(mems, r->nodes, shared, sizeof(shared));
		if (shared[0])
			fprintf(f,
				"they share node%s %s with the program: its gain was measured "
				"with\n"
				"them idle, so with them running it is an upper bound\n",
				strchr(shared, ',') || strchr(shared, '-') ? "s" : "", shared);
	}
	fprintf(f,
		"a service: its systemd drop-in (CPUAffinity=, NUMAPolicy=, NUMAMask=, after\n"
		"the boot unit that writes the weights) from\n"
		"  tiertune export --weights %s --source-node %d --format systemd -- PROGRAM\n",
		r->weights, r->source);
}

int cli_auto_run_recipe_get(const json_t *run, struct tt_recipe *r)
{
	const json_t *rec;
	size_t i;

	json_array_foreach (json_object_get(run, "recommendations"), i, rec) {
		const char *stored = json_string_value(json_object_get(rec, "recipe_text"));
		char *text;
		int rc;

		if (strcmp(json_string_value(json_object_get(rec, "action")) ?: "", "per_source"))
			continue;
		/* What tt_db_run_get refused: refused again, for its message. */
		text = stored ? strdup(stored)
			      : json_dumps(json_object_get(rec, "recipe"), JSON_COMPACT);
		if (!text)
			continue;
		rc = tt_recipe_parse(text, r);
		free(text);
		if (rc < 0) {
			tt_err_prefix("run %" JSON_INTEGER_FORMAT
				      "'s per-socket recipe is refused, not printed",
				      json_integer_value(json_object_get(run, "id")));
			tt_err_hint("the database is damaged, or a store merged in holds text "
				    "no tiertune wrote");
			return rc;
		}
		return 1;
	}
	return 0;
}

int cli_auto_run_recipe(const json_t *run, FILE *f)
{
	struct tt_recipe r;
	char w[sizeof(r.weights)];
	int rc = cli_auto_run_recipe_get(run, &r);

	if (rc <= 0)
		return rc;
	fprintf(f,
		"no global weights for source node %d: its best weights, %s, cost another "
		"CPU node beyond the noise (upstream weights are global)\n",
		r.source, tt_str_escape(r.weights, w, sizeof(w)));
	cli_auto_recipe_text(f, &r);
	return 1;
}

void cli_auto_confirm(FILE *f, const struct tt_auto *c, const struct tt_search *s, int trial)
{
	const struct tt_objective *o = &c->req.objective;
	char w[96], v[48];

	trial_weights(s, trial, w, sizeof(w));
	fprintf(f, "%sconfirm %d/%d %-5s %-14s ", c->simulated ? "SIMULATED " : "",
		s->confirm_round + 1, s->confirm_planned,
		s->confirm_arm < 0 ? "best" : s->base[s->confirm_arm].name, w);
	fprintf(f, "%8s %s", cli_auto_score(o, s->confirm_score, v), tt_score_unit(o));
	if (s->confirm_arm >= 0) {
		double g, lo, hi;
		char gain[64];

		tt_confirm_gain(&s->base[s->confirm_arm], &g, &lo, &hi);
		tt_gain_text(o, g, lo, hi, TT_GAIN_PM, gain, sizeof(gain));
		fprintf(f, "  %s %s", tt_gain_word(o), gain);
	}
	fprintf(f, "\n");
}

void cli_auto_progress(FILE *f, const struct tt_auto *c, const struct tt_search *s, int trial)
{
	const struct tt_objective *o = &c->req.objective;
	const struct tt_figure *fl = tt_figure(TT_FIG_LATENCY);
	const struct tt_trial *tr = &s->trials[trial], *lead = &s->trials[s->leader];
	char w[96], bw[96] = "-", v[48];
	double mean = NAN, half = NAN;

	trial_weights(s, trial, w, sizeof(w));
	trial_weights(s, s->leader, bw, sizeof(bw));
	/* Counted as the user's budget, the profile's share included. */
	fprintf(f, "%strial %d", c->simulated ? "SIMULATED " : "", s->measurements + c->prior.cost);
	if (s->cfg.budget_trials)
		fprintf(f, "/%d", s->cfg.budget_trials + c->prior.cost);
	else if (s->cfg.budget_s > 0)
		fprintf(f, " (%.0f of %.0f s)", s->elapsed_s, s->cfg.budget_s);
	fprintf(f, " %-14s", w);
	if (tr->n)
		tt_trial_raw(tr, &mean, &half);
	cli_auto_figure(f, o, mean, mean - half, mean + half);
	fprintf(f, " %s", tt_score_unit(o));
	if (c->req.max_lat_ns > 0) {
		tt_figure_print_whole(fl, tr->lat_mean_ns, v, sizeof(v));
		fprintf(f, " %5s %s%s", v, fl->label, tr->feasible ? "" : " over");
	}
	/* The search's leader; under a bound none may be feasible yet. */
	if (lead->feasible) {
		fprintf(f, "  best %s %s\n", bw, cli_auto_score(o, lead->raw_mean, v));
	} else {
		tt_figure_print_whole(fl, c->req.max_lat_ns, v, sizeof(v));
		fprintf(f, "  best - (none within %s %s yet)\n", v, fl->label);
	}
}

void cli_auto_status(char *buf, size_t size, const struct tt_auto *c, const struct tt_search *s,
		     double elapsed_s)
{
	const struct tt_objective *o = &c->req.objective;
	const struct tt_trial *lead = &s->trials[s->leader];
	int done = s->measurements + c->prior.cost, of = s->cfg.budget_trials + c->prior.cost;
	size_t n = 0;
	char w[96], v[48];
	if (s->confirming)
		n += (size_t)snprintf(buf, size, "%sconfirming: round %d of %d",
				      c->simulated ? "SIMULATED " : "", s->confirm_round + 1,
				      s->cfg.confirm_rounds);
	else if (s->cfg.budget_trials)
		n += (size_t)snprintf(buf, size, "%smeasurement %d of %d",
				      c->simulated ? "SIMULATED " : "", done, of);
	else
		n += (size_t)snprintf(buf, size, "%smeasurement %d",
				      c->simulated ? "SIMULATED " : "", done);
	if (n < size && lead->feasible && lead->n) {
		trial_weights(s, s->leader, w, sizeof(w));
		n += (size_t)snprintf(buf + n, size - n, ", best %s %s %s", w,
				      cli_auto_score(o, lead->raw_mean, v), tt_score_unit(o));
	}
	/* Time left by the budget: the clock's, or the measurements' pace so
	 * far (the final comparison's rounds are not counted in it). */
	double left = -1;

	if (s->cfg.budget_s > 0)
		left = s->cfg.budget_s - s->elapsed_s;
	else if (s->cfg.budget_trials && done > 0 && !s->confirming)
		left = elapsed_s / done * (of - done);
	if (n < size && left >= 0)
		n += (size_t)snprintf(buf + n, size - n, ", about %.0f s left", left);
	if (n < size)
		snprintf(buf + n, size - n, ", %.0f s elapsed", elapsed_s);
}
