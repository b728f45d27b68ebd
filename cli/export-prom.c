// SPDX-License-Identifier: GPL-3.0-or-later
/* export --format prometheus (export.h): node_exporter's textfile of the
 * weights, the recommendation's figures and action, and the profile's
 * health. */
#include "export.h"

#include "auto-display.h"
#include "cli.h"
#include "../view/run-figures.h"
#include "../writer/apply.h"
#include "../core/parse.h"
#include "../migrate/rebalance.h"
#include "../core/wi.h"
#include "../db/db.h"
#include "../migrate/damon.h"
#include "../writer/recos.h"
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The recommendation's mean and 95% interval, the figure the search
 * ranked it by (view/run-figures.h), as a summary's quantiles are: one
 * gauge, the statistic in a label. None from weights or a profile. */
static void prometheus_figures(const struct export *e, FILE *f)
{
	bool helped = false;
	json_t *reco;
	size_t i;

	json_array_foreach (json_object_get(e->run, "recommendations"), i, reco) {
		int src = (int)json_integer_value(json_object_get(reco, "source_node"));
		const char *const stat[] = { "mean", "ci_low", "ci_high" };
		struct tt_headline h;

		tt_reco_headline(e->run, reco, &h);
		if (h.kind != TT_HEADLINE_MEAN || (e->source >= 0 && src != e->source))
			continue;
		if (!helped)
			fprintf(f,
				"# HELP %s The recommended weights' mean over their measurements, "
				"and its 95%% interval, as the search ranked them.\n# TYPE %s "
				"gauge\n",
				h.q->prom, h.q->prom);
		helped = true;
		for (int j = 0; j < 3; j++) {
			double v = (double[]){ h.mean, h.lo, h.hi }[j];

			if (isfinite(v))
				fprintf(f, "%s{source_node=\"%d\",stat=\"%s\"%s} %.17g\n",
					h.q->prom, src, stat[j],
					e->rs.simulated ? ",simulated=\"true\"" : "",
					v * h.q->prom_scale);
		}
	}
}

/* A label value as the text format reads it (\\, \" and \n its only
 * escapes): the reason is made one line of well-formed UTF-8 first
 * (tt_str_escape), as its file name and the input it quotes may be
 * anything. */
static void prometheus_label(FILE *f, const char *s)
{
	char buf[1024];

	for (const char *p = tt_str_escape(s, buf, sizeof(buf)); *p; p++) {
		if (*p == '\\' || *p == '"')
			fputc('\\', f);
		fputc(*p, f);
	}
}

/* Whether the profile holds for this host; with a bad one the file is
 * still written, its current weights read now, so that an alert sees the
 * reason rather than the series of the last good minute. */
static void prometheus_profile_ok(const struct export *e, FILE *f)
{
	fprintf(f, "# HELP tiertune_profile_ok 1 when the profile is valid for this host; 0 "
		   "with the reason (no recommended weights then).\n# TYPE tiertune_profile_ok "
		   "gauge\n");
	if (!e->profile_error) {
		fprintf(f, "tiertune_profile_ok 1\n");
		return;
	}
	fprintf(f, "tiertune_profile_ok{reason=\"");
	prometheus_label(f, e->profile_error);
	fprintf(f, "\"} 0\n");
}

/* node_exporter's textfile collector: recommended and current weights,
 * and the gain the recommendation was measured at. Current weights are
 * those of the interfaces that hold one weight per id for every source. */
int cli_export_prometheus(const struct export *e, FILE *f)
{
	bool helped = false, auto_said = false;
	int id;

	fprintf(f, "# HELP tiertune_weight_recommended Interleave weight tiertune recommends.\n"
		   "# TYPE tiertune_weight_recommended gauge\n");
	for (int i = 0; i < e->rs.n; i++) {
		const struct tt_reco *r = &e->rs.r[i];
		const struct tt_wi_backend *be = tt_wi_find(r->interface);

		if (e->source >= 0 && r->source_node >= 0 && r->source_node != e->source)
			continue;
		char src[64] = "";

		/* No source node: no label, rather than a node "-1" that is not one. */
		if (r->source_node >= 0)
			snprintf(src, sizeof(src), ",source_node=\"%d\"", r->source_node);
		/* A modelled run's weights say so in every sample. */
		if (e->rs.simulated)
			snprintf(src + strlen(src), sizeof(src) - strlen(src),
				 ",simulated=\"true\"");
		tt_weights_for_each(id, &r->w) fprintf(
			f, "tiertune_weight_recommended{interface=\"%s\"%s,%s=\"%d\"} %u\n",
			r->interface, src, be ? be->unit : "id", id, tt_weights_get(&r->w, id, 0));
	}
	fprintf(f, "# HELP tiertune_gain_ratio Measured gain of the recommendation over its "
		   "baseline (0.12 = +12%%).\n# TYPE tiertune_gain_ratio gauge\n");
	for (int i = 0; i < e->rs.n; i++) {
		if (isnan(e->rs.r[i].gain))
			continue;
		const char *sep = "{";

		/* The baseline named, as the report's headline names it (issue
		 * 43: what the machine runs now); read from a database, so
		 * escaped as every label here. */
		fputs("tiertune_gain_ratio", f);
		if (e->rs.r[i].source_node >= 0) {
			fprintf(f, "%ssource_node=\"%d\"", sep, e->rs.r[i].source_node);
			sep = ",";
		}
		if (e->rs.simulated) {
			fprintf(f, "%ssimulated=\"true\"", sep);
			sep = ",";
		}
		if (e->rs.r[i].baseline[0]) {
			fprintf(f, "%sbaseline=\"", sep);
			prometheus_label(f, e->rs.r[i].baseline);
			fputc('"', f);
			sep = ",";
		}
		fprintf(f, "%s %g\n", *sep == ',' ? "}" : "", e->rs.r[i].gain);
	}
	prometheus_figures(e, f);
	for (const struct tt_wi_backend *const *b = tt_wi_backends; *b; b++) {
		struct tt_wi_state st;
		char why[256];

		if ((*b)->per_source || (*b)->detect(&e->cli->sfs, why, sizeof(why)) < 0)
			continue;
		tt_wi_state_init(&st);
		if ((*b)->read(&e->cli->sfs, e->t, &st) == 0) {
			if (!helped)
				fprintf(f, "# HELP tiertune_weight_current Interleave weight in "
					   "sysfs now.\n# TYPE tiertune_weight_current gauge\n");
			helped = true;
			tt_weights_for_each(id, &st.node) fprintf(
				f, "tiertune_weight_current{interface=\"%s\",%s=\"%d\"} %u\n",
				(*b)->name, (*b)->unit, id, tt_weights_get(&st.node, id, 0));
			if (st.auto_mode >= 0 && !auto_said)
				fprintf(f,
					"# HELP tiertune_auto_mode 1 when the kernel sets weights "
					"itself.\n# TYPE tiertune_auto_mode "
					"gauge\ntiertune_auto_mode "
					"%d\n",
					st.auto_mode);
			auto_said |= st.auto_mode >= 0;
		}
		tt_wi_state_release(&st);
	}
	if (e->profile)
		prometheus_profile_ok(e, f);
	return 0;
}
