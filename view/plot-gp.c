// SPDX-License-Identifier: GPL-3.0-or-later
/* A plot's gnuplot script and data table (plot.h tt_plot_write_data,
 * tt_plot_write_script): the title, the outputs, the palette, the marks,
 * the reference lines, and each kind's figure (the shares on one axis, the
 * ternary, pairs of nodes, the ranking, loaded-latency curves, the matrix). */
#include "plot-int.h"

#include "../bench/kernels.h"
#include "../bench/run.h"
#include "../core/error.h"
#include "../core/parse.h"
#include "../core/topo.h"
#include "../core/weights.h"
#include "score.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Eight of matplotlib's viridis stops: perceptually uniform, monotone in
 * lightness (so it reads in grey too), and told apart with the common
 * colour-vision deficiencies; the rainbow it replaces is none of these. */
static const char viridis[] = "set palette defined (0 '#440154', 0.143 '#46327e', 0.286 "
			      "'#365c8d', 0.429 '#277f8e', 0.571 '#1fa187', 0.714 '#4ac16d', "
			      "0.857 '#a0da39', 1 '#fde725')\n";

/* One word each: the data table's marks column is split at spaces. */
static const char *const mark_names[] = { "best", "local", "1:1", "auto", "now", "fast" };

/* Shapes told apart without colour: circle, square, triangle, diamond. */
static const int mark_pt[] = { 6, 4, 8, 12, 10, 14 };

/* s as a gnuplot string literal. In single quotes gnuplot expands neither
 * backquotes (`cmd` runs cmd in double quotes and bare words) nor @macros
 * nor backslash escapes; '' is the one escape, for a quote. Control
 * characters and malformed UTF-8 are made visible first (tt_str_escape):
 * a newline would end the command. Checked with gnuplot 5.4. */
static void gp_str(FILE *f, const char *s)
{
	char esc[1024];

	fputc('\'', f);
	for (s = tt_str_escape(s, esc, sizeof(esc)); *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

/* Two lines as one gnuplot string: each quoted by gp_str, joined by a
 * newline (which only a double-quoted string holds). */
static void gp_lines(FILE *f, const char *a, const char *b)
{
	gp_str(f, a);
	if (b && *b) {
		fputs(" . \"\\n\" . ", f);
		gp_str(f, b);
	}
}

/* A file name as a gnuplot string: as it is (the caller refuses control
 * characters in it; one here would still become '?'), a quote doubled. */
static void gp_path(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\'')
			fputc('\'', f);
		fputc(c < 0x20 || c == 0x7f ? '?' : c, f);
	}
	fputc('\'', f);
}

/* A stored string in a '#' line of the table: one line, whatever it holds. */
static void comment_str(FILE *f, const char *s)
{
	char esc[1024];

	fputs(tt_str_escape(s, esc, sizeof(esc)), f);
}

static void table_header(const struct tt_plot *pl, FILE *f)
{
	for (int r = 0; r < pl->nruns; r++) {
		fprintf(f, "# tiertune run %jd (", (intmax_t)tt_plot_run_id(pl->runs[r]));
		comment_str(f, tt_plot_str(pl->runs[r], "kind"));
		fputs(", ", f);
		comment_str(f, pl->objective[r]);
		fprintf(f, "), source node %jd%s\n",
			(intmax_t)json_integer_value(json_object_get(pl->runs[r], "source_node")),
			json_is_true(json_object_get(pl->runs[r], "simulated"))
				? ": SIMULATED, every figure from a model"
				: "");
	}
}

int tt_plot_write_data(const struct tt_plot *pl, FILE *f)
{
	table_header(pl, f);
	if (pl->kind == TT_PLOT_LOADED) {
		fprintf(f, "# run  bw_gb_s  lat_ns  delay  weights   (delay: spin iterations per "
			   "cache line, -1 unknown)\n");
		for (int i = 0; i < pl->n; i++)
			fprintf(f, "%jd %.6g %.6g %ld %s\n",
				(intmax_t)tt_plot_run_id(pl->runs[pl->p[i].run]), pl->p[i].bw_gb_s,
				pl->p[i].lat_ns, pl->p[i].delay, pl->p[i].weights);
		return 0;
	}
	if (pl->kind == TT_PLOT_MATRIX) {
		fprintf(f, "# cpu_node  mem_node  bw_gb_s  lat_ns\n");
		for (int i = 0; i < pl->n; i++)
			fprintf(f, "%d %d %.6g %.6g\n", pl->p[i].cpu, pl->p[i].mem,
				pl->p[i].bw_gb_s, pl->p[i].lat_ns);
		return 0;
	}
	fputs("#", f);
	for (int k = 0; k < pl->nnodes; k++)
		fprintf(f, " share_node%d", pl->nodes[k]);
	fprintf(f, "  %s  rank  measurements  weights  marks   (figures in %s)\n",
		pl->mean_ci ? "mean  ci_worse  ci_better" : "median  worst  best",
		pl->fig->plot_unit);
	for (int i = 0; i < pl->n; i++) {
		const char *sep = " ";

		for (int k = 0; k < pl->nnodes; k++)
			fprintf(f, "%.6f ", pl->p[i].share[k]);
		fprintf(f, "%.6g %.6g %.6g %d %d %s", pl->p[i].value, pl->p[i].worse,
			pl->p[i].better, pl->p[i].rank, pl->p[i].nmeas, pl->p[i].weights);
		for (int m = 0; m < TT_MARKS; m++)
			if (pl->mark[m].point == i) {
				fprintf(f, "%s%s", sep, mark_names[m]);
				sep = ",";
			}
		fputs(*sep == ' ' ? " -\n" : "\n", f);
	}
	return 0;
}

/* The title after cmd ("set title"): simulated said first, what was run,
 * the answer below; a cache-resident bench run says so. */
static void title(const struct tt_plot *pl, FILE *f, const char *cmd, const char *what)
{
	char t[1200];
	int len = snprintf(t, sizeof(t), "%s", pl->simulated ? "SIMULATED " : "");

	for (int r = 0; r < pl->nruns && len < (int)sizeof(t); r++)
		len += snprintf(t + len, sizeof(t) - (size_t)len, "%srun %jd", r ? ", " : "",
				(intmax_t)tt_plot_run_id(pl->runs[r]));
	if (len < (int)sizeof(t) && pl->nruns == 1 && pl->kind == TT_PLOT_MATRIX)
		snprintf(t + len, sizeof(t) - (size_t)len, " (%s): %s",
			 tt_plot_str(pl->runs[0], "kind"), pl->objective[0]);
	else if (len < (int)sizeof(t) && pl->nruns == 1)
		snprintf(t + len, sizeof(t) - (size_t)len, " (%s): %s from node %jd",
			 tt_plot_str(pl->runs[0], "kind"), pl->objective[0],
			 (intmax_t)json_integer_value(json_object_get(pl->runs[0], "source_node")));
	fprintf(f, "%s ", cmd);
	gp_str(f, t);
	fputs(" . \"\\n\" . ", f);
	gp_str(f, what);
	/* bench's words (cli/cmd-bench.c print_trust), shortened to a line. */
	if (pl->cache_resident)
		fputs(" . \"\\n\" . 'CACHE-RESIDENT: all a pass touches fits in the last-level "
		      "cache, these figures are the cache''s, not memory''s'",
		      f);
	else if (pl->below_rule)
		fputs(" . \"\\n\" . 'below STREAM''s 4x rule: arrays under 4x the last-level "
		      "cache, some of each pass may be served from it'",
		      f);
	if (pl->unstable)
		fprintf(f,
			" . \"\\n\" . 'UNSTABLE: passes spread beyond %.0f%%, or a curve not "
			"monotone: other work shared the host'",
			TT_SPREAD_MAX * 100);
	/* show's words (view/run-figures.c tt_distrust_text), on one line. */
	if (pl->descheduled)
		fprintf(f,
			" . \"\\n\" . 'DESCHEDULED: the measuring threads ran under %.0f%% of "
			"their "
			"passes: other work shared the CPU'",
			TT_RAN_MIN * 100);
	fputs("\n", f);
}

static void output(FILE *f, const char *prefix, const char *suffix, const char *term,
		   const char *size)
{
	char name[4200];

	snprintf(name, sizeof(name), "%s%s.%s", prefix, suffix, term);
	fprintf(f, "reset\nset terminal %s size %s noenhanced font ',10'\nset output ",
		!strcmp(term, "png") ? "pngcairo" : "svg", size);
	gp_path(f, name);
	fputs("\n", f);
}

static void value_range(const struct tt_plot *pl, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (int i = 0; i < pl->n; i++) {
		*lo = fmin(*lo, pl->p[i].value);
		*hi = fmax(*hi, pl->p[i].value);
	}
	if (!(*hi > *lo)) {
		*lo -= fabs(*lo) * 0.01 + 1e-9;
		*hi += fabs(*hi) * 0.01 + 1e-9;
	}
}

/* The colour scale: viridis, bright for better whichever way the figure
 * goes. */
static void palette(const struct tt_plot *pl, FILE *f)
{
	double lo, hi;
	char t[128];

	value_range(pl, &lo, &hi);
	fputs(viridis, f);
	if (pl->lower_better)
		fputs("set palette negative\n", f);
	fprintf(f, "set cbrange [%.9g:%.9g]\nset cblabel ", lo, hi);
	snprintf(t, sizeof(t), "%s, %s of its measurements (%s is better, brighter)",
		 pl->fig->plot_unit, pl->mean_ci ? "mean" : "median",
		 pl->lower_better ? "lower" : "higher");
	gp_str(f, t);
	fputs("\n", f);
}

/* The marks drawn over a panel: each its own shape, in black, labelled in
 * the key with its weights and figure; the recommendation's the largest. */
static void plot_marks(const struct tt_plot *pl, FILE *f, const char *x, const char *y, bool key)
{
	for (int m = 0; m < TT_MARKS; m++) {
		if (pl->mark[m].point < 0)
			continue;
		fprintf(f, ", \\\n  $m%d using %s:%s with points pt %d ps %s lw 2 lc rgb 'black' ",
			m, x, y, mark_pt[m], m == (int)pl->reco ? "3.2" : "2.2");
		if (key) {
			fputs("title ", f);
			gp_str(f, pl->mark[m].label);
		} else {
			fputs("notitle", f);
		}
	}
}

static void datablocks(const struct tt_plot *pl, FILE *f)
{
	fputs("$data << EOD\n", f);
	tt_plot_write_data(pl, f);
	fputs("EOD\n", f);
	if (pl->kind != TT_PLOT_SEARCH)
		return;
	/* Each mark's row alone, so that each is a plot element with its key
	 * entry. */
	for (int m = 0; m < TT_MARKS; m++) {
		const struct point *p = &pl->p[pl->mark[m].point];

		if (pl->mark[m].point < 0)
			continue;
		fprintf(f, "$m%d << EOD\n", m);
		for (int k = 0; k < pl->nnodes; k++)
			fprintf(f, "%.6f ", p->share[k]);
		fprintf(f, "%.6g %.6g %.6g %d\nEOD\n", p->value, p->worse, p->better, p->rank);
	}
}

/* The key's words for the trials' points and bars. */
static const char *trials_key(const struct tt_plot *pl)
{
	return pl->mean_ci ? "trials: mean of its measurements, bars its 95% CI (what the report "
			     "ranks by)"
			   : "trials: median, bars the worst..best of its measurements (recorded "
			     "without them)";
}

/* The baselines' reference lines: each line's label, its figure, and
 * the order by figure, highest first. Baselines of one trial (the weights
 * set now are often auto mode's) share one line, their names together. */
struct ref_lines {
	int n, order[TT_MARKS];
	char text[TT_MARKS][96];
	double v[TT_MARKS];
	int margin; /* characters right of the graph for the labels */
};

static void ref_lines(const struct tt_plot *pl, struct ref_lines *r)
{
	static const enum tt_plot_mark refs[] = { TT_MARK_LOCAL, TT_MARK_AUTO, TT_MARK_EVEN,
						  TT_MARK_NOW, TT_MARK_FAST };
	enum { NREFS = sizeof(refs) / sizeof(refs[0]) };
	size_t width = 0;

	r->n = 0;
	for (size_t i = 0; i < NREFS; i++) {
		const struct mark *mk = &pl->mark[refs[i]];
		char *t = r->text[r->n], fig[48];
		size_t at = 0, j;
		int k;

		for (j = 0; j < i && pl->mark[refs[j]].point != mk->point; j++)
			;
		if (mk->point < 0 || j < i)
			continue;
		r->v[r->n] = pl->p[mk->point].value;
		tt_plot_figure_text(pl, r->v[r->n], fig, sizeof(fig));
		t[0] = '\0';
		for (j = i; j < NREFS; j++)
			if (pl->mark[refs[j]].point == mk->point && at < sizeof(r->text[0]))
				at += (size_t)snprintf(t + at, sizeof(r->text[0]) - at, "%s%s",
						       at ? ", " : "", tt_plot_mark_words[refs[j]]);
		if (at < sizeof(r->text[0]))
			snprintf(t + at, sizeof(r->text[0]) - at, " %s", fig);
		width = strlen(t) > width ? strlen(t) : width;
		for (k = r->n; k > 0 && r->v[r->order[k - 1]] < r->v[r->n]; k--)
			r->order[k] = r->order[k - 1];
		r->order[k] = r->n++;
	}
	r->margin = width + 2 > 18 ? (int)width + 2 : 18;
}

/* A figure with reference lines ("900,650"), wider by what its labels
 * take beyond the 18 characters the margin had: "key below" is as wide as
 * the graph, and a key's long titles stopped fitting when the margin
 * grew. About 7 pixels a character of the 10-point font. */
static void ref_size(const struct tt_plot *pl, int w, int h, char *buf, size_t size)
{
	struct ref_lines r;

	ref_lines(pl, &r);
	snprintf(buf, size, "%d,%d", w + 7 * (r.margin - 18), h);
}

/* A horizontal reference line at each baseline's figure, labelled in the
 * right margin, as wide as the longest label (the fast tier's was cut by
 * the image's edge). Labels closer than a line of text apart print over
 * each other (local, auto mode and the weights set now often are): from
 * the top down each keeps at least that far below the one above, a line
 * being 5% of the bars' span, about a line of the 10-point font on the
 * 430-pixel graph. */
static void reference_lines(const struct tt_plot *pl, FILE *f)
{
	struct ref_lines r;
	double y[TT_MARKS], lo = INFINITY, hi = -INFINITY, gap;

	ref_lines(pl, &r);
	for (int i = 0; i < pl->n; i++) {
		lo = fmin(lo, fmin(pl->p[i].value, fmin(pl->p[i].worse, pl->p[i].better)));
		hi = fmax(hi, fmax(pl->p[i].value, fmax(pl->p[i].worse, pl->p[i].better)));
	}
	gap = 0.05 * (hi > lo ? hi - lo : fabs(hi) + 1e-9);
	/* The y axis is the figure: the colour bar would repeat it, and its
	 * room holds the lines' labels. */
	fprintf(f, "unset colorbox\nset rmargin %d\n", r.margin);
	for (int k = 0; k < r.n; k++) {
		int i = r.order[k], above = k ? r.order[k - 1] : -1;

		y[i] = above >= 0 && y[above] - r.v[i] < gap ? y[above] - gap : r.v[i];
		fprintf(f,
			"set arrow from graph 0, first %.6g to graph 1, first %.6g nohead dt 2 "
			"lw 1.5 lc rgb '#555555' back\n",
			r.v[i], r.v[i]);
		fputs("set label ", f);
		gp_str(f, r.text[i]);
		fprintf(f, " at graph 1, first %.6g left offset 0.5,0 tc rgb '#333333'\n", y[i]);
	}
}

/* Two nodes: the figure against the share of the node other than the
 * source, which with two nodes fixes the vector. */
static void share_figure(const struct tt_plot *pl, FILE *f)
{
	int other = pl->nnodes == 2 && pl->nodes[0] == pl->source ? 1 : 0;
	int c = pl->nnodes + 1;
	char x[32], y[32], xl[96];

	snprintf(x, sizeof(x), "%d", other + 1);
	snprintf(y, sizeof(y), "%d", c);
	snprintf(xl, sizeof(xl), "share of pages on %s", pl->node_name[other]);
	fputs("set xlabel ", f);
	gp_str(f, xl);
	fputs("\nset ylabel ", f);
	gp_str(f, pl->fig->plot_unit);
	fputs("\nset grid\nset key below left Left reverse\nset xrange [-0.02:1.02]\n", f);
	palette(pl, f);
	reference_lines(pl, f);
	fprintf(f, "plot $data using %s:%d:%d:%d:%d with yerrorbars pt 7 ps 1.1 lc palette title ",
		x, c, c + 1, c + 2, c);
	gp_str(f, trials_key(pl));
	plot_marks(pl, f, x, y, true);
	fputs("\n", f);
}

static void ternary_grid(const struct tt_plot *pl, FILE *f)
{
	const double h = sqrt(3) / 2;
	/* The corners' positions: nodes[0], nodes[1], nodes[2]. */
	const double cx[3] = { 0, 1, 0.5 }, cy[3] = { 0, 0, h };

	fputs("unset border\nunset xtics\nunset ytics\nset size ratio -1\n"
	      "set xrange [-0.2:1.2]\nset yrange [-0.16:0.95]\n",
	      f);
	for (int c = 0; c < 3; c++) {
		int a = (c + 1) % 3, b = (c + 2) % 3;

		fprintf(f,
			"set arrow from %.4f,%.4f to %.4f,%.4f nohead lw 1.5 lc rgb 'black' back\n",
			cx[a], cy[a], cx[b], cy[b]);
		/* Lines of equal share of node c, every 20%: from the edge
		 * c-a to the edge c-b. */
		for (int g = 1; g < 5; g++) {
			double s = g / 5.0;

			fprintf(f,
				"set arrow from %.4f,%.4f to %.4f,%.4f nohead dt 3 lc rgb "
				"'#aaaaaa' back\n",
				s * cx[c] + (1 - s) * cx[a], s * cy[c] + (1 - s) * cy[a],
				s * cx[c] + (1 - s) * cx[b], s * cy[c] + (1 - s) * cy[b]);
		}
		/* The node and its kind on two lines, the bottom corners'
		 * below them and turned inwards: beside the corners they ran
		 * off the image's left edge and into the colour bar
		 * (issue 44). */
		fputs("set label ", f);
		{
			char t[64];

			snprintf(t, sizeof(t), "node %d: 100%%", pl->nodes[c]);
			gp_lines(f, t, pl->node_kind[c]);
		}
		fprintf(f, " at %.4f,%.4f %s offset %s\n", cx[c], cy[c],
			c == 0	 ? "left"
			: c == 1 ? "right"
				 : "center",
			c == 0	 ? "-1,-1.2"
			: c == 1 ? "1,-1.2"
				 : "0,1.8");
	}
	fputs("set label 'dotted: every 20% of a node''s share' at graph 0, graph 0.98 left "
	      "tc rgb '#555555'\n",
	      f);
}

static void ternary_figure(const struct tt_plot *pl, FILE *f)
{
	/* Node 0's corner at (0,0), node 1's at (1,0), node 2's at the apex:
	 * a trial's point is its shares' weighted sum of the corners. */
	static const char x[] = "($2 + $3/2)", y[] = "($3*sqrt(3)/2)";

	ternary_grid(pl, f);
	fputs("set key below left Left reverse\n", f);
	palette(pl, f);
	fprintf(f,
		"plot $data using %s:%s:%d with points pt 7 ps 1.3 lc palette title 'trials, "
		"coloured by their %s (no interpolation: each dot is a trial)'",
		x, y, pl->nnodes + 1, pl->mean_ci ? "mean" : "median");
	plot_marks(pl, f, x, y, true);
	fputs("\n", f);
}

/* Four nodes and more: a panel per pair of nodes, their two shares (the
 * rest on the others), in a grid above the key and the colour bar; placed
 * by hand, as gnuplot's layout gives a key panel no more room than the
 * others. */
static void pairs_figure(const struct tt_plot *pl, FILE *f)
{
	int npairs = pl->nnodes * (pl->nnodes - 1) / 2, cols = 1, rows, panel = 0;
	double w, h;

	while (cols * cols < npairs)
		cols++;
	rows = (npairs + cols - 1) / cols;
	w = 1.0 / cols;
	h = 0.68 / rows;
	title(pl, f, "set multiplot title",
	      pl->action[0] ? pl->action : "no recommendation recorded");
	palette(pl, f);
	fputs("unset colorbox\nset xrange [0:1]\nset yrange [0:1]\nset xtics 0.5\nset ytics 0.5\n"
	      "set grid\nset key off\nset arrow 1 from 0,1 to 1,0 nohead lc rgb '#888888' back\n",
	      f);
	for (int i = 0; i < pl->nnodes; i++)
		for (int j = i + 1; j < pl->nnodes; j++, panel++) {
			char x[16], y[16], t[96];

			snprintf(x, sizeof(x), "%d", i + 1);
			snprintf(y, sizeof(y), "%d", j + 1);
			fprintf(f, "set origin %.4f,%.4f\nset size %.4f,%.4f\n", (panel % cols) * w,
				0.27 + (rows - 1 - panel / cols) * h, w, h);
			/* The node's kind on a line of its own: whole, it was
			 * wider than a panel and cut by the next one or the
			 * image's edge. */
			snprintf(t, sizeof(t), "share of node %d", pl->nodes[i]);
			fputs("set xlabel ", f);
			gp_lines(f, t, pl->node_kind[i]);
			snprintf(t, sizeof(t), "share of node %d", pl->nodes[j]);
			fputs(" offset 0,0.5\nset ylabel ", f);
			gp_lines(f, t, pl->node_kind[j]);
			fprintf(f,
				" offset 1,0\nplot $data using %s:%s:%d with points pt 7 ps 0.8 lc "
				"palette notitle",
				x, y, pl->nnodes + 1);
			plot_marks(pl, f, x, y, false);
			fputs("\n", f);
		}
	/* The key: the marks' labels and the colour bar, below the grid. */
	fputs("set origin 0,0\nset size 1,0.27\nunset border\nunset xtics\nunset ytics\n"
	      "unset xlabel\nunset ylabel\nunset grid\nunset arrow\n"
	      "set colorbox horizontal user origin 0.62,0.13 size 0.33,0.025\nset cblabel ",
	      f);
	{
		char t[96];

		snprintf(t, sizeof(t), "%s, %s (brighter is better)", pl->fig->plot_unit,
			 pl->mean_ci ? "mean" : "median");
		gp_str(f, t);
	}
	fprintf(f,
		"\nset key at screen 0.02,0.25 left top Left reverse\n"
		"plot 2 with points pt 7 lc palette cb 0 title 'trials, coloured by their %s'",
		pl->mean_ci ? "mean" : "median");
	for (int m = 0; m < TT_MARKS; m++)
		if (pl->mark[m].point >= 0) {
			fprintf(f, ", 2 with points pt %d ps 2 lw 2 lc rgb 'black' title ",
				mark_pt[m]);
			gp_str(f, pl->mark[m].label);
		}
	fputs("\nunset multiplot\n", f);
}

/* Every trial in the order the winner is named in (search_points), with
 * the baselines as reference lines: how far the winner is from what the
 * machine already does. */
static void rank_figure(const struct tt_plot *pl, FILE *f)
{
	int c = pl->nnodes + 1;
	char x[16], y[16], xl[96];

	snprintf(xl, sizeof(xl), "trials: %sthe rest by %s, %s first",
		 pl->mark[pl->reco].point >= 0 ? "the recommendation, then " : "",
		 pl->mean_ci ? "mean" : "median", pl->lower_better ? "lowest" : "highest");
	fputs("set xlabel ", f);
	gp_str(f, xl);
	fputs("\nset ylabel ", f);
	gp_str(f, pl->fig->plot_unit);
	fputs("\nset grid\nset key below left Left reverse\n", f);
	palette(pl, f);
	reference_lines(pl, f);
	snprintf(x, sizeof(x), "%d", c + 3);
	snprintf(y, sizeof(y), "%d", c);
	fprintf(f, "plot $data using %d:%d:%d:%d:%d with yerrorbars pt 7 ps 1.1 lc palette title ",
		c + 3, c, c + 1, c + 2, c);
	gp_str(f, trials_key(pl));
	plot_marks(pl, f, x, y, true);
	fputs("\n", f);
}

static void loaded_figure(const struct tt_plot *pl, FILE *f)
{
	static const char *const colours[] = { "#440154", "#21918c", "#e0a500",
					       "#3b528b", "#5ec962", "#7a0177" };

	fputs("set xlabel 'bandwidth, GB/s (all threads)'\nset ylabel 'loaded latency, ns'\n"
	      "set grid\nset key top left Left reverse\n",
	      f);
	fputs("plot", f);
	for (int r = 0; r < pl->nruns; r++) {
		char t[200];
		const char *w = "";

		for (int i = 0; i < pl->n; i++)
			if (pl->p[i].run == r) {
				w = pl->p[i].weights;
				break;
			}
		snprintf(t, sizeof(t), "%srun %jd: weights %s",
			 json_is_true(json_object_get(pl->runs[r], "simulated")) ? "SIMULATED "
										 : "",
			 (intmax_t)tt_plot_run_id(pl->runs[r]), w);
		fprintf(f,
			"%s $data using ($1 == %jd ? $2 : 1/0):3 with linespoints pt %d ps 1.2 lw "
			"2 "
			"lc rgb '%s' title ",
			r ? ", \\\n " : "", (intmax_t)tt_plot_run_id(pl->runs[r]), 5 + 2 * (r % 4),
			colours[r % 6]);
		gp_str(f, t);
	}
	fputs("\n", f);
}

/* One of the matrix's two heat maps: a cell per CPU node and memory
 * node, its figure written in it; cells are placed by index, so nodes
 * need not be contiguous. */
static void matrix_panel(const struct tt_plot *pl, FILE *f, int col, const char *what,
			 bool lower_better)
{
	int cpus[64], mems[64], ncpu = 0, nmem = 0;
	double lo = INFINITY, hi = -INFINITY;

	for (int i = 0; i < pl->n; i++) {
		double v = col == 3 ? pl->p[i].bw_gb_s : pl->p[i].lat_ns;
		int k;

		if (isfinite(v)) {
			lo = fmin(lo, v);
			hi = fmax(hi, v);
		}
		for (k = 0; k < ncpu && cpus[k] != pl->p[i].cpu; k++)
			;
		if (k == ncpu && ncpu < 64)
			cpus[ncpu++] = pl->p[i].cpu;
		for (k = 0; k < nmem && mems[k] != pl->p[i].mem; k++)
			;
		if (k == nmem && nmem < 64)
			mems[nmem++] = pl->p[i].mem;
	}
	if (!(hi > lo)) {
		lo -= fabs(lo) * 0.01 + 1e-9;
		hi += fabs(hi) * 0.01 + 1e-9;
	}
	fputs(viridis, f);
	if (lower_better)
		fputs("set palette negative\n", f);
	fprintf(f, "set cbrange [%.9g:%.9g]\nset title ", lo, hi);
	gp_str(f, what);
	fprintf(f,
		"\nset xlabel 'memory node'\nset ylabel 'CPU node'\nset xrange [-0.5:%d.5]\n"
		"set yrange [%d.5:-0.5]\nset xtics (",
		nmem - 1, ncpu - 1);
	for (int k = 0; k < nmem; k++)
		fprintf(f, "%s'%d' %d", k ? ", " : "", mems[k], k);
	fputs(")\nset ytics (", f);
	for (int k = 0; k < ncpu; k++)
		fprintf(f, "%s'%d' %d", k ? ", " : "", cpus[k], k);
	fputs(")\nunset key\nset size ratio -1\n", f);
	/* Index of a node among the axes' nodes. */
	fputs("xi(n) = ", f);
	for (int k = 0; k < nmem; k++)
		fprintf(f, "n == %d ? %d : ", mems[k], k);
	fputs("1/0\nyi(n) = ", f);
	for (int k = 0; k < ncpu; k++)
		fprintf(f, "n == %d ? %d : ", cpus[k], k);
	/* Text dark on the bright end of the palette, white on the dark. */
	fprintf(f,
		"1/0\nink(v) = ((v - %.9g) / %.9g %s 0.6) ? 0 : 0xffffff\n"
		"plot $data using (xi($2)):(yi($1)):(0.5):(0.5):%d with boxxyerror fs solid "
		"lc palette, \\\n"
		"  $data using (xi($2)):(yi($1)):(sprintf('%s', column(%d))):(ink(column(%d))) "
		"with labels tc rgb variable font ',11'\n",
		lo, hi - lo, lower_better ? "<" : ">", col, col == 3 ? "%.1f" : "%.0f", col, col);
}

static void matrix_figure(const struct tt_plot *pl, FILE *f)
{
	title(pl, f, "set multiplot layout 1,2 title",
	      "bandwidth and idle latency from each CPU node to each memory node");
	matrix_panel(pl, f, 3, "bandwidth, GB/s (best pass)", false);
	matrix_panel(pl, f, 4, "idle latency, ns (median)", true);
	fputs("unset multiplot\n", f);
}

int tt_plot_write_script(const struct tt_plot *pl, const char *prefix, FILE *f)
{
	static const char *const terms[] = { "png", "svg" };
	char size[32];

	fputs("# tiertune plot: the data inline, then each figure as PNG and SVG\n", f);
	datablocks(pl, f);
	for (int t = 0; t < 2; t++) {
		if (pl->kind == TT_PLOT_MATRIX) {
			output(f, prefix, "", terms[t], "1100,520");
			matrix_figure(pl, f);
			continue;
		}
		if (pl->kind == TT_PLOT_LOADED) {
			output(f, prefix, "", terms[t], "900,600");
			title(pl, f, "set title",
			      "loaded latency against bandwidth, one point per delay");
			loaded_figure(pl, f);
			continue;
		}
		ref_size(pl, 900, 750, size, sizeof(size));
		output(f, prefix, "", terms[t],
		       pl->nnodes > 3	 ? "1100,1100"
		       : pl->nnodes <= 2 ? size
					 : "900,750");
		if (pl->nnodes <= 3)
			title(pl, f, "set title",
			      pl->action[0] ? pl->action : "no recommendation recorded");
		if (pl->nnodes <= 2)
			share_figure(pl, f);
		else if (pl->nnodes == 3)
			ternary_figure(pl, f);
		else
			pairs_figure(pl, f);
		ref_size(pl, 900, 650, size, sizeof(size));
		output(f, prefix, "-rank", terms[t], size);
		title(pl, f, "set title",
		      pl->action[0] ? pl->action : "no recommendation recorded");
		rank_figure(pl, f);
	}
	return ferror(f) ? tt_err(TT_EFAIL, "writing the gnuplot script failed") : 0;
}
