// SPDX-License-Identifier: GPL-3.0-or-later
/* tiertune plot: an auto or sweep run's score against the share of its
 * pages on the nodes other than the source's (the slow tier when the
 * source's node is the fast one), as a data file and a gnuplot script, drawn
 * to PNG and SVG when gnuplot is there. A run over three or more nodes also
 * gets a heat map of the score over the shares of two nodes: the two with
 * the largest shares in its best trial (with three nodes, those two shares
 * fix the third, so the map covers every trial). */
#include "cli.h"

#include "../core/parse.h"
#include "../db/db.h"

#include <errno.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

extern char **environ;

/* What a run's score is, by its objective: the trial columns a point
 * takes, and how they are shown. lo and hi are the worse and the better
 * end whichever way the figure goes. */
struct figure {
	const char *objective; /* the run's objective starts with this; NULL: any */
	const char *median, *lo, *hi;
	double scale; /* column to shown unit */
	const char *unit, *label, *what;
};

static const struct figure figures[] = {
	{ "app:wall-time", "time_median_s", "time_max_s", "time_best_s", 1, "s",
	  "wall time, s (median, bars best..max)", "a wall time" },
	{ "app:metric", "metric_median", "metric_worst", "metric_best", 1, "metric",
	  "the program's metric (median, bars worst..best)", "a metric" },
	{ "latency", "lat_median_ns", "lat_max_ns", "lat_best_ns", 1, "ns",
	  "loaded latency, ns (median, bars best..max)", "a latency" },
	{ NULL, "bw_median_bytes_s", "bw_min_bytes_s", "bw_best_bytes_s", 1e-9, "GB/s",
	  "GB/s (median, bars min..best)", "a bandwidth" },
};

struct point {
	double remote;		    /* fraction of pages off the source node */
	double median, lo, hi;	    /* the figure's unit */
	double share[TT_MAX_NODES]; /* requested, by node */
	char weights[96];
};

struct plot {
	json_t *run;
	int64_t id;
	int source;
	bool simulated;
	const char *prefix;
	int n;
	struct point *p;
	int nnodes;  /* distinct nodes over the trials */
	int heat[2]; /* the heat map's two nodes; -1: no heat map */
	const struct figure *fig;
};

static int by_share(const void *a, const void *b)
{
	const struct point *x = a, *y = b;

	return (x->remote > y->remote) - (x->remote < y->remote);
}

/* The heat map's nodes: with three or more nodes in the run, the two with
 * the largest shares in its best trial (ties to the lower node). */
static void heat_nodes(struct plot *pl)
{
	const struct point *best = &pl->p[0];
	bool seen[TT_MAX_NODES] = { false };

	pl->nnodes = 0;
	pl->heat[0] = pl->heat[1] = -1;
	/* Higher is better for bandwidth and the metrics that say so; wall
	 * time and latency, lower. */
	bool lower = strcmp(pl->fig->unit, "s") == 0 || strcmp(pl->fig->unit, "ns") == 0 ||
		     (strcmp(pl->fig->unit, "metric") == 0 &&
		      !strstr(cli_str(pl->run, "objective"), "higher-is-better"));

	for (int i = 0; i < pl->n; i++) {
		if (lower ? pl->p[i].median < best->median : pl->p[i].median > best->median)
			best = &pl->p[i];
		for (int node = 0; node < TT_MAX_NODES; node++)
			if (pl->p[i].share[node] > 0 && !seen[node]) {
				seen[node] = true;
				pl->nnodes++;
			}
	}
	if (pl->nnodes < 3)
		return;
	for (int k = 0; k < 2; k++)
		for (int node = 0; node < TT_MAX_NODES; node++)
			if (seen[node] && node != pl->heat[0] &&
			    (pl->heat[k] < 0 || best->share[node] > best->share[pl->heat[k]]))
				pl->heat[k] = node;
}

/* One point per trial that has a bandwidth, its remote share from the
 * requested shares (what the weights ask for; a trial's achieved shares
 * are in 'show'). */
static int points(struct plot *pl)
{
	json_t *trials = json_object_get(pl->run, "trials"), *t;
	size_t i;

	for (pl->fig = figures; pl->fig->objective; pl->fig++)
		if (strncmp(cli_str(pl->run, "objective"), pl->fig->objective,
			    strlen(pl->fig->objective)) == 0)
			break;
	pl->p = calloc(json_array_size(trials) + 1, sizeof(*pl->p));
	if (!pl->p)
		return tt_err(TT_EFAIL, "out of memory");
	json_array_foreach (trials, i, t) {
		json_t *nodes = json_object_get(t, "nodes"), *nd;
		struct point *p = &pl->p[pl->n];
		size_t k;
		int len = 0;

		if (!json_is_number(json_object_get(t, pl->fig->median)))
			continue;
		p->median = json_number_value(json_object_get(t, pl->fig->median)) * pl->fig->scale;
		p->lo = json_number_value(json_object_get(t, pl->fig->lo)) * pl->fig->scale;
		p->hi = json_number_value(json_object_get(t, pl->fig->hi)) * pl->fig->scale;
		json_array_foreach (nodes, k, nd) {
			int node = (int)json_integer_value(json_object_get(nd, "node"));

			if (node >= 0 && node < TT_MAX_NODES)
				p->share[node] =
					json_number_value(json_object_get(nd, "requested_share"));
			if (node != pl->source)
				p->remote +=
					json_number_value(json_object_get(nd, "requested_share"));
			if (len < (int)sizeof(p->weights))
				len += snprintf(p->weights + len, sizeof(p->weights) - (size_t)len,
						"%s%d:%jd", k ? "," : "", node,
						(intmax_t)json_integer_value(
							json_object_get(nd, "weight")));
		}
		pl->n++;
	}
	qsort(pl->p, (size_t)pl->n, sizeof(*pl->p), by_share);
	if (!pl->n)
		return tt_err(TT_EINPUT, "run %jd has no trial with %s to plot", (intmax_t)pl->id,
			      pl->fig->what);
	heat_nodes(pl);
	return 0;
}

static int write_data(void *ctx, FILE *f)
{
	const struct plot *pl = ctx;

	fprintf(f, "# tiertune run %jd (%s), source node %d%s\n", (intmax_t)pl->id,
		cli_str(pl->run, "kind"), pl->source,
		pl->simulated ? ": SIMULATED, every figure from a model" : "");
	fprintf(f, "# remote_share  median  worse  better  weights   (figures in %s)\n",
		pl->fig->unit);
	for (int i = 0; i < pl->n; i++)
		fprintf(f, "%.6f %.6g %.6g %.6g %s\n", pl->p[i].remote, pl->p[i].median,
			pl->p[i].lo, pl->p[i].hi, pl->p[i].weights);
	return 0;
}

/* The heat map's data: the two nodes' shares, the median, the weights. */
static int write_heat(void *ctx, FILE *f)
{
	const struct plot *pl = ctx;

	fprintf(f, "# tiertune run %jd (%s), source node %d%s\n", (intmax_t)pl->id,
		cli_str(pl->run, "kind"), pl->source,
		pl->simulated ? ": SIMULATED, every figure from a model" : "");
	fprintf(f, "# share_node%d  share_node%d  median  weights   (figures in %s)\n", pl->heat[0],
		pl->heat[1], pl->fig->unit);
	for (int i = 0; i < pl->n; i++)
		fprintf(f, "%.6f %.6f %.6g %s\n", pl->p[i].share[pl->heat[0]],
			pl->p[i].share[pl->heat[1]], pl->p[i].median, pl->p[i].weights);
	return 0;
}

/* s as a gnuplot string literal. Everything in the script that is not our
 * own text (a run's objective and kind, which db merge brings from other
 * hosts; the output prefix) goes through here. In single quotes gnuplot
 * expands neither backquotes (`cmd` runs cmd in double quotes and bare
 * words) nor @macros, nor backslash escapes; '' is the one escape, for a
 * quote. A control character would end the command (a newline) or the
 * line: it becomes '?'. Checked with gnuplot 5.4. */
static const char *gp_str(const char *s, char *buf, size_t size)
{
	size_t k = 0;

	if (size < 3)
		return "''";
	buf[k++] = '\'';
	for (; *s && k + 3 < size; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\'')
			buf[k++] = '\'';
		buf[k++] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	buf[k++] = '\'';
	buf[k] = '\0';
	return buf;
}

/* A file name the script names: the prefix and its suffix, quoted. */
static const char *gp_file(const struct plot *pl, const char *suffix, char *buf, size_t size)
{
	char name[4200];

	snprintf(name, sizeof(name), "%s%s", pl->prefix, suffix);
	return gp_str(name, buf, size);
}

/* The title: what was run, from which node; simulated said first. */
static const char *gp_title(const struct plot *pl, const char *extra, char *buf, size_t size)
{
	char t[1024];

	snprintf(t, sizeof(t), "%srun %jd (%s): %s from node %d%s",
		 pl->simulated ? "SIMULATED " : "", (intmax_t)pl->id, cli_str(pl->run, "kind"),
		 cli_str(pl->run, "objective"), pl->source, extra);
	return gp_str(t, buf, size);
}

static int write_script(void *ctx, FILE *f)
{
	const struct plot *pl = ctx;
	static const char *const term[][2] = { { "pngcairo size 900,600", "png" },
					       { "svg size 900,600", "svg" } };
	char q[8500], q2[8500], sfx[16];

	for (int i = 0; i < 2; i++) {
		snprintf(sfx, sizeof(sfx), ".%s", term[i][1]);
		fprintf(f, "set terminal %s\nset output %s\n", term[i][0],
			gp_file(pl, sfx, q, sizeof(q)));
		fprintf(f, "set title %s noenhanced\n", gp_title(pl, "", q, sizeof(q)));
		fprintf(f, "set xlabel 'share of pages on nodes other than %d'\n", pl->source);
		fprintf(f, "set ylabel %s\nset grid\nset key off\n",
			gp_str(pl->fig->label, q, sizeof(q)));
		fprintf(f, "plot %s using 1:2:3:4 with yerrorbars pt 7\n",
			gp_file(pl, ".dat", q, sizeof(q)));
	}
	if (pl->heat[0] < 0)
		return 0;
	/* The trials are scattered over the simplex: gnuplot grids them
	 * (dgrid3d, inverse-distance weights) for pm3d, and the measured
	 * points are drawn on top. */
	for (int i = 0; i < 2; i++) {
		char extra[64];

		snprintf(sfx, sizeof(sfx), "-heat.%s", term[i][1]);
		snprintf(extra, sizeof(extra), ", median %s", pl->fig->unit);
		fprintf(f, "reset\nset terminal %s\nset output %s\n", term[i][0],
			gp_file(pl, sfx, q, sizeof(q)));
		fprintf(f, "set title %s noenhanced\n", gp_title(pl, extra, q, sizeof(q)));
		fprintf(f,
			"set xlabel 'share of pages on node %d'\nset ylabel 'share of pages "
			"on node %d'\n",
			pl->heat[0], pl->heat[1]);
		fprintf(f, "set xrange [0:1]\nset yrange [0:1]\nset view map\nset key off\n"
			   "set palette rgb 33,13,10\n");
		fprintf(f, "set cblabel %s\n", gp_str(pl->fig->unit, q, sizeof(q)));
		gp_file(pl, "-heat.dat", q2, sizeof(q2));
		fprintf(f,
			"set table $grid\nset dgrid3d 41,41 qnorm 2\n"
			"splot %s using 1:2:3\nunset table\nunset dgrid3d\n",
			q2);
		/* Two shares can sum to at most 1: the grid beyond is not a trial. */
		fprintf(f,
			"splot $grid using 1:2:($1 + $2 <= 1.0001 ? $3 : 1/0) with pm3d, "
			"%s using 1:2:3 with points pt 7 ps 0.6 lc rgb 'black'\n",
			q2);
	}
	return 0;
}

/* gnuplot on the script: 0 drawn, 1 not there (ENOENT), else a status. */
static int draw(const char *script)
{
	char *argv[] = { "gnuplot", (char *)script, NULL };
	pid_t pid;
	int st, rc = posix_spawnp(&pid, "gnuplot", NULL, NULL, argv, environ);

	if (rc == ENOENT)
		return 1;
	if (rc)
		return tt_err_sys(TT_EFAIL, rc, "cannot run gnuplot");
	if (waitpid(pid, &st, 0) < 0)
		return tt_err_sys(TT_EFAIL, errno, "waiting for gnuplot");
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		return tt_err(TT_EFAIL, "gnuplot '%s' failed (exit %d)", script,
			      WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	return 0;
}

static int plot(struct tt_cli *cli, int64_t id, const char *prefix)
{
	struct plot pl = { .id = id, .prefix = prefix };
	char def[64], data[4200], script[4200], heat[4200];
	struct tt_db *db;
	const char *kind;
	int rc = cli_db(cli, TT_DB_READONLY, &db);

	if (rc < 0)
		return cli_fail(rc);
	rc = tt_db_run_get(db, id, &pl.run);
	tt_db_close(db);
	if (rc < 0)
		return cli_fail(rc);
	kind = cli_str(pl.run, "kind");
	if (strcmp(kind, "auto") && strcmp(kind, "sweep")) {
		rc = tt_err(TT_EINPUT, "run %jd is a '%s' run: plot draws auto and sweep runs",
			    (intmax_t)id, kind);
		goto out;
	}
	pl.source = (int)json_integer_value(json_object_get(pl.run, "source_node"));
	pl.simulated = json_is_true(json_object_get(pl.run, "simulated"));
	if (!prefix) {
		snprintf(def, sizeof(def), "tiertune-run-%jd", (intmax_t)id);
		pl.prefix = def;
	}
	snprintf(data, sizeof(data), "%s.dat", pl.prefix);
	snprintf(script, sizeof(script), "%s.gp", pl.prefix);
	snprintf(heat, sizeof(heat), "%s-heat.dat", pl.prefix);
	rc = points(&pl);
	if (rc == 0)
		rc = cli_write_file(data, write_data, &pl);
	if (rc == 0 && pl.heat[0] >= 0)
		rc = cli_write_file(heat, write_heat, &pl);
	if (rc == 0)
		rc = cli_write_file(script, write_script, &pl);
	if (rc == 0)
		rc = draw(script);
	if (rc < 0)
		goto out;
	printf("%swrote %s (%d points) and %s\n", pl.simulated ? "SIMULATED run: " : "", data, pl.n,
	       script);
	if (pl.heat[0] >= 0)
		printf("%swrote %s: a heat map over the shares of nodes %d and %d (%d nodes in "
		       "the run)\n",
		       pl.simulated ? "SIMULATED run: " : "", heat, pl.heat[0], pl.heat[1],
		       pl.nnodes);
	if (rc == 1)
		printf("gnuplot is not installed (not found in PATH), so nothing was drawn; with "
		       "it, "
		       "'gnuplot %s' draws %s.png and %s.svg%s\n",
		       script, pl.prefix, pl.prefix, pl.heat[0] >= 0 ? " and the heat map" : "");
	else if (pl.heat[0] >= 0)
		printf("drew %s.png and %s.svg, and the heat map %s-heat.png and %s-heat.svg\n",
		       pl.prefix, pl.prefix, pl.prefix, pl.prefix);
	else
		printf("drew %s.png and %s.svg\n", pl.prefix, pl.prefix);
	rc = 0;
out:
	free(pl.p);
	json_decref(pl.run);
	return rc < 0 ? cli_fail(rc) : 0;
}

int cmd_plot(struct tt_cli *cli, int argc, char **argv)
{
	const char *prefix = NULL;
	struct cli_opt opts[] = {
		CLI_STRING("output", &prefix, "PREFIX",
			   "write PREFIX.dat, PREFIX.gp, PREFIX.png and PREFIX.svg (default "
			   "tiertune-run-RUN in the current folder)",
			   .short_name = 'o'),
		CLI_END,
	};
	int nargs, rc = cli_parse(cli, cli_find_command("plot"), opts, argc, argv, &nargs);
	uint64_t id;

	if (rc >= 0)
		return rc;
	if (nargs != 1)
		return cli_usage("plot takes one run id (see 'tiertune runs')");
	if (tt_parse_u64(argv[0], 1, INT64_MAX, &id) != 0)
		return cli_usage("run '%s' is not a run id (see 'tiertune runs')", argv[0]);
	/* An empty one would write hidden .png, .svg and .dat files here. */
	if (prefix && (!*prefix || prefix[strlen(prefix) - 1] == '/'))
		return cli_usage("--output '%s' names no file (want a path prefix such as "
				 "plots/run12)",
				 prefix);
	/* gnuplot reads a file name that starts with '|' (set output) or '<'
	 * (plot) as a shell command to run: a prefix is a plain path. A
	 * control character cannot stand in the script's quotes. */
	if (prefix && (prefix[0] == '|' || prefix[0] == '<'))
		return cli_usage("--output '%s' starts with '%c', which gnuplot would run as a "
				 "command; name a path such as './%s'",
				 prefix, prefix[0], prefix);
	for (const char *c = prefix; c && *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			return cli_usage("--output has a control character (byte 0x%02x), which "
					 "gnuplot's script cannot hold",
					 (unsigned char)*c);
	return plot(cli, (int64_t)id, prefix);
}
