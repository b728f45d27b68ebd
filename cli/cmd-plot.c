// SPDX-License-Identifier: GPL-3.0-or-later
/* tiertune plot: recorded runs drawn to answer "how much better than what
 * I have" (view/plot.h draws the script): an auto or sweep run's trials on
 * the simplex of their shares with the winner and the baselines marked, and
 * ranked against the baselines; bench loaded-latency runs as curves, a
 * bench --matrix run as a heat map. The data table and the gnuplot script
 * always; PNG and SVG when gnuplot is there. */
#include "cli.h"
#include "../view/run-figures.h"

#include "../core/parse.h"
#include "../db/db.h"
#include "../view/plot.h"

#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

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

/* A file gnuplot drew, copied into its place. */
static int copy_from(void *ctx, FILE *f)
{
	char buf[65536];
	size_t n;
	FILE *in = ctx;

	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, f) != n)
			return tt_err_sys(TT_EFAIL, errno, "cannot write an image");
	return ferror(in) ? tt_err_sys(TT_EFAIL, errno, "cannot read an image gnuplot drew") : 0;
}

static int write_data(void *ctx, FILE *f)
{
	return tt_plot_write_data(ctx, f);
}

struct script {
	const struct tt_plot *pl;
	const char *prefix;
};

static int write_script(void *ctx, FILE *f)
{
	const struct script *s = ctx;

	return tt_plot_write_script(s->pl, s->prefix, f);
}

/* gnuplot opens its 'set output' names itself, O_CREAT|O_TRUNC through
 * any link: a link planted at PREFIX.png made root's PNG overwrite its
 * target. So it draws into a private folder (mkdtemp, 0700), from a copy
 * of the script naming images there, and each image is then put in place
 * by cli_write_file, with the checks .dat and .gp have (a new file made
 * O_EXCL beside the name and renamed; a link planted in a sticky folder
 * refused). 0 drawn, 1 no gnuplot, else a status. */
static int draw_private(const struct tt_plot *pl, const char *prefix)
{
	const char *t = getenv("TMPDIR"), *const * fig;
	static const char *const terms[] = { "png", "svg" };
	char dir[4200], priv[4300], script[4400], from[4500], to[4500];
	int rc;

	if ((size_t)snprintf(dir, sizeof(dir), "%s/tiertune-plot.XXXXXX", t && *t ? t : "/tmp") >=
		    sizeof(dir) ||
	    !mkdtemp(dir))
		return tt_err_sys(TT_EFAIL, errno, "cannot make a private folder '%s'", dir);
	snprintf(priv, sizeof(priv), "%s/img", dir);
	snprintf(script, sizeof(script), "%s/plot.gp", dir);
	rc = cli_write_file(script, write_script, &(struct script){ .pl = pl, .prefix = priv });
	if (rc == 0)
		rc = draw(script);
	for (fig = tt_plot_figures(pl); rc == 0 && *fig; fig++)
		for (size_t k = 0; rc == 0 && k < sizeof(terms) / sizeof(terms[0]); k++) {
			FILE *in;

			snprintf(from, sizeof(from), "%s%s.%s", priv, *fig, terms[k]);
			snprintf(to, sizeof(to), "%s%s.%s", prefix, *fig, terms[k]);
			if (!(in = fopen(from, "rb"))) {
				rc = tt_err_sys(TT_EFAIL, errno, "gnuplot drew no '%s'", from);
				break;
			}
			rc = cli_write_file(to, copy_from, in);
			fclose(in);
		}
	for (fig = tt_plot_figures(pl); *fig; fig++)
		for (size_t k = 0; k < sizeof(terms) / sizeof(terms[0]); k++) {
			snprintf(from, sizeof(from), "%s%s.%s", priv, *fig, terms[k]);
			unlink(from);
		}
	unlink(script);
	rmdir(dir);
	return rc;
}

static int plot(struct tt_cli *cli, const int64_t *ids, int nids, const char *prefix)
{
	json_t *runs[TT_PLOT_MAX_RUNS] = { NULL };
	struct tt_plot *pl = NULL;
	char def[64], data[4200], script[4200];
	const char *sim, *const *fig;
	struct tt_db *db;
	int rc = cli_setup(cli);

	if (rc)
		return rc;
	db = cli->db;
	for (int i = 0; rc == 0 && i < nids; i++) {
		rc = tt_db_run_get(db, ids[i], &runs[i]);
		if (rc == 0)
			rc = tt_run_measurements(db, runs[i]);
	}
	if (rc == 0)
		rc = tt_plot_new(&pl, runs, nids);
	if (rc < 0)
		goto out;
	if (!prefix) {
		snprintf(def, sizeof(def), "tiertune-run-%jd", (intmax_t)ids[0]);
		prefix = def;
	}
	snprintf(data, sizeof(data), "%s.dat", prefix);
	snprintf(script, sizeof(script), "%s.gp", prefix);
	rc = cli_write_file(data, write_data, pl);
	if (rc == 0)
		rc = cli_write_file(script, write_script,
				    &(struct script){ .pl = pl, .prefix = prefix });
	if (rc == 0)
		rc = draw_private(pl, prefix);
	if (rc < 0)
		goto out;
	sim = tt_plot_simulated(pl) ? "SIMULATED run: " : "";
	printf("%swrote %s (%d points) and %s: %s\n", sim, data, tt_plot_points(pl), script,
	       tt_plot_view(pl));
	for (int m = 0; m < TT_MARKS; m++) {
		const char *label, *w = tt_plot_mark(pl, (enum tt_plot_mark)m, &label);

		if (w)
			printf("%smarked %s\n", sim, label);
	}
	if (tt_plot_kind(pl) == TT_PLOT_SEARCH && !tt_plot_mark(pl, TT_MARK_AUTO, NULL))
		printf("not marked: the kernel's auto mode (the run recorded no auto-mode "
		       "baseline)\n");
	for (fig = tt_plot_figures(pl); *fig; fig++)
		if (rc == 1)
			printf("gnuplot is not installed (not found in PATH), so nothing was "
			       "drawn; with it, 'gnuplot %s' draws %s%s.png and .svg\n",
			       script, prefix, *fig);
		else
			printf("drew %s%s.png and %s%s.svg\n", prefix, *fig, prefix, *fig);
	rc = 0;
out:
	tt_plot_free(pl);
	for (int i = 0; i < nids; i++)
		json_decref(runs[i]);
	return rc < 0 ? cli_fail(rc) : 0;
}

int cmd_plot(struct tt_cli *cli, int argc, char **argv)
{
	const char *prefix = NULL;
	struct cli_opt opts[] = {
		CLI_STRING("output", &prefix, "PREFIX",
			   "write PREFIX.dat, PREFIX.gp, PREFIX.png and PREFIX.svg (and "
			   "PREFIX-rank.png and .svg for an auto or sweep run; default "
			   "tiertune-run-RUN in the current folder)",
			   .short_name = 'o'),
		CLI_END,
	};
	int nargs, rc = cli_parse(cli, cli_find_command("plot"), opts, argc, argv, &nargs);
	int64_t ids[TT_PLOT_MAX_RUNS];

	if (rc >= 0)
		return rc;
	if (nargs < 1 || nargs > TT_PLOT_MAX_RUNS)
		return cli_usage("plot takes a run id, or up to %d loaded-latency bench runs to "
				 "overlay (see 'tiertune runs')",
				 TT_PLOT_MAX_RUNS);
	for (int i = 0; i < nargs; i++) {
		uint64_t id;

		if (tt_parse_u64(argv[i], 1, INT64_MAX, &id) != 0)
			return cli_usage("run '%s' is not a run id (see 'tiertune runs')", argv[i]);
		ids[i] = (int64_t)id;
	}
	/* An empty one would write hidden .png, .svg and .dat files here. */
	if (prefix && (!*prefix || prefix[strlen(prefix) - 1] == '/'))
		return cli_usage("--output '%s' names no file (want a path prefix such as "
				 "plots/run12)",
				 prefix);
	/* A prefix that is a device, folder or FIFO is a place, not a name:
	 * '-o /dev/null' wrote /dev/null.png, .svg, .dat and .gp into /dev. */
	struct stat st;
	if (prefix && stat(prefix, &st) == 0 && !S_ISREG(st.st_mode))
		return cli_usage("--output '%s' is %s, not a path prefix (want one such as "
				 "plots/run12; the files are PREFIX.png, .svg, .dat)",
				 prefix, S_ISDIR(st.st_mode) ? "a folder" : "a device or FIFO");
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
	return plot(cli, ids, nargs, prefix);
}
