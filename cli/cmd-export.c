/* tiertune export: recommended weights in the forms operators deploy them
 * with. Written to a temp file and renamed, so a reader never sees half. */
#include "cli.h"

#include "../core/apply.h"
#include "../core/parse.h"
#include "../core/wi.h"
#include "../db/db.h"
#include "recos.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TIER_DIR "/sys/devices/virtual/memory_tiering"

struct export
{
	struct tt_cli *cli;
	const struct tt_topo *t;
	struct tt_recos rs; /* as recommended */
	bool upstream, rfc; /* interfaces to write for */
	int source;	    /* -1: all */
	json_t *run;	    /* csv: the run with its trials */
};

/* One comment line in every format: the host name comes from a database
 * that may have been merged from anywhere, so it is escaped (a newline in
 * it would otherwise start a command in the shell export). */
static const char *header(const struct export *e)
{
	static char buf[1200];
	char host[1024];

	if (e->rs.run_id)
		snprintf(buf, sizeof(buf), "tiertune recommendation from run %jd on %s",
			 (intmax_t)e->rs.run_id, tt_str_escape(e->rs.hostname, host, sizeof(host)));
	else
		snprintf(buf, sizeof(buf), "tiertune weights given on the command line");
	return buf;
}

/* The interface-specific list of writes: upstream one global vector,
 * RFC "src:w" per tier per source. fn gets (file, value, first write to
 * this file). */
typedef void (*write_fn)(FILE *f, const char *file, const char *value, bool first);

static int each_write(const struct export *e, const char *interface, FILE *f, write_fn fn)
{
	struct tt_recos rs = e->rs;
	char file[256], value[32];
	int node, rc = tt_recos_convert(&rs, e->t, interface);

	if (rc < 0)
		return rc;
	if (strcmp(interface, "upstream") == 0) {
		struct tt_weights w;

		rc = tt_recos_upstream(&rs, e->source, &w);
		if (rc < 0)
			return rc;
		tt_nodemask_for_each (node, &w.set) {
			snprintf(file, sizeof(file), TT_WI_UPSTREAM_DIR "/node%d", node);
			snprintf(value, sizeof(value), "%u", w.w[node]);
			fn(f, file, value, true);
		}
		return 0;
	}
	bool seen[TT_MAX_NODES] = { false };
	int used = 0;

	for (int i = 0; i < rs.n; i++) {
		const struct tt_reco *r = &rs.r[i];
		int tier;

		if (e->source >= 0 && r->source_node != e->source)
			continue;
		used++;
		tt_nodemask_for_each (tier, &r->w.set) {
			snprintf(file, sizeof(file), TIER_DIR "/memory_tier%d/interleave_weight",
				 tier);
			snprintf(value, sizeof(value), "%d:%u", r->source_node, r->w.w[tier]);
			fn(f, file, value, !seen[tier]);
			seen[tier] = true;
		}
	}
	return used ? 0 : tt_err(TT_EINPUT, "no recommendation for source node %d", e->source);
}

static void shell_line(FILE *f, const char *file, const char *value, bool first)
{
	(void)first;
	fprintf(f, "echo %s > \"$root%s\"\n", value, file);
}

static int shell(const struct export *e, FILE *f)
{
	int rc = 0;

	fprintf(f,
		"#!/bin/sh\n# %s\n# Run as root; an optional argument is a root folder to write "
		"under instead of /.\nset -e\nroot=${1:-}\n",
		header(e));
	if (e->upstream) {
		char state[16] = "";
		struct tt_wi_state st;

		fprintf(f,
			"\n# upstream weighted interleave (Linux 6.9+)\n[ -d \"$root%s\" ] || { "
			"echo "
			"\"no %s\" >&2; exit 1; }\n",
			TT_WI_UPSTREAM_DIR, TT_WI_UPSTREAM_DIR);
		rc = each_write(e, "upstream", f, shell_line);
		/* The kernel turns auto mode off on the first node write; saying
		 * so in the script keeps it exact on any root. */
		tt_wi_state_init(&st);
		if (rc == 0 && tt_wi_upstream.read(&e->cli->sfs, e->t, &st) == 0 &&
		    st.auto_mode >= 0)
			snprintf(state, sizeof(state), "%s", st.auto_file);
		tt_wi_state_release(&st);
		if (rc == 0 && state[0])
			fprintf(f, "echo false > \"$root%s/%s\"   # what the node writes did\n",
				TT_WI_UPSTREAM_DIR, state);
	}
	if (rc == 0 && e->rfc) {
		fprintf(f,
			"\n# per-tier interleave weights (the memory-tier RFC), one source a "
			"write\n"
			"[ -d \"$root%s\" ] || { echo \"no %s\" >&2; exit 1; }\n",
			TIER_DIR, TIER_DIR);
		rc = each_write(e, "rfc", f, shell_line);
	}
	return rc;
}

static void tmpfiles_line(FILE *f, const char *file, const char *value, bool first)
{
	/* One line per path unless appended with w+: systemd-tmpfiles skips
	 * duplicate paths. */
	fprintf(f, "%-3s %s - - - - %s\n", first ? "w" : "w+", file, value);
}

static int tmpfiles(const struct export *e, FILE *f)
{
	int rc = 0;

	fprintf(f, "# %s\n# /etc/tmpfiles.d/tiertune.conf: sets the weights at every boot\n",
		header(e));
	fprintf(f, "#Type Path%*s Mode User Group Age Argument\n", 50, "");
	if (e->upstream)
		rc = each_write(e, "upstream", f, tmpfiles_line);
	if (rc == 0 && e->rfc)
		rc = each_write(e, "rfc", f, tmpfiles_line);
	return rc;
}

static int numactl(const struct export *e, FILE *f)
{
	struct tt_recos rs = e->rs;
	struct tt_weights w;
	char nodes[256], weights[1024];
	int rc = tt_recos_convert(&rs, e->t, "upstream");

	if (rc == 0)
		rc = tt_recos_upstream(&rs, e->source, &w);
	if (rc < 0)
		return rc;
	tt_bit_format_list(w.set.bits, TT_MAX_NODES, nodes, sizeof(nodes));
	tt_weights_format(&w, weights, sizeof(weights));
	fprintf(f,
		"# %s\n# needs numactl 2.0.19+ and these weights in sysfs (tiertune apply "
		"--weights %s):\n",
		header(e), weights);
	int node;
	tt_nodemask_for_each (node, &w.set)
		fprintf(f, "#   %s/node%d = %u\n", TT_WI_UPSTREAM_DIR, node, w.w[node]);
	if (e->source >= 0)
		fprintf(f, "numactl --cpunodebind=%d --weighted-interleave=%s -- \"$@\"\n",
			e->source, nodes);
	else
		fprintf(f, "numactl --weighted-interleave=%s -- \"$@\"\n", nodes);
	return 0;
}

/* node_exporter's textfile collector: recommended and current weights,
 * and the gain the recommendation was measured at. */
static int prometheus(const struct export *e, FILE *f)
{
	struct tt_wi_state st;
	int node;

	fprintf(f, "# HELP tiertune_weight_recommended Interleave weight tiertune recommends.\n"
		   "# TYPE tiertune_weight_recommended gauge\n");
	for (int i = 0; i < e->rs.n; i++) {
		const struct tt_reco *r = &e->rs.r[i];

		if (e->source >= 0 && r->source_node >= 0 && r->source_node != e->source)
			continue;
		tt_nodemask_for_each (node, &r->w.set)
			fprintf(f,
				"tiertune_weight_recommended{interface=\"%s\",source_node=\"%d\",%"
				"s=\"%d\"} %u\n",
				r->interface, r->source_node,
				strcmp(r->interface, "rfc") ? "node" : "tier", node, r->w.w[node]);
	}
	fprintf(f, "# HELP tiertune_gain_ratio Measured gain of the recommendation over its "
		   "baseline (0.12 = +12%%).\n# TYPE tiertune_gain_ratio gauge\n");
	for (int i = 0; i < e->rs.n; i++)
		if (!isnan(e->rs.r[i].gain))
			fprintf(f, "tiertune_gain_ratio{source_node=\"%d\"} %g\n",
				e->rs.r[i].source_node, e->rs.r[i].gain);
	tt_wi_state_init(&st);
	if (tt_wi_upstream.read(&e->cli->sfs, e->t, &st) == 0) {
		fprintf(f, "# HELP tiertune_weight_current Interleave weight in sysfs now.\n"
			   "# TYPE tiertune_weight_current gauge\n");
		tt_nodemask_for_each (node, &st.node.set)
			fprintf(f,
				"tiertune_weight_current{interface=\"upstream\",node=\"%d\"} %u\n",
				node, st.node.w[node]);
		if (st.auto_mode >= 0)
			fprintf(f,
				"# HELP tiertune_auto_mode 1 when the kernel sets weights itself.\n"
				"# TYPE tiertune_auto_mode gauge\ntiertune_auto_mode %d\n",
				st.auto_mode);
	}
	tt_wi_state_release(&st);
	return 0;
}

static int csv(const struct export *e, FILE *f)
{
	if (!e->run)
		return tt_err(TT_EINPUT, "csv exports a run's trials: give --run RUN or --latest");
	cli_trials_csv(e->run, f);
	return 0;
}

static int profile(const struct export *e, FILE *f)
{
	json_t *j = recos_profile_json(&e->rs, e->t);
	int rc = j && json_dumpf(j, f, JSON_INDENT(2) | JSON_SORT_KEYS) == 0 ? 0 : -1;

	json_decref(j);
	if (rc < 0)
		return tt_err(TT_EFAIL, "cannot write the profile");
	fputc('\n', f);
	return 0;
}

/* Every format refuses what apply would refuse: the same check
 * (tt_wi_check) of the weights as each interface would get them. */
static int check_recos(const struct export *e)
{
	struct tt_recos rs;
	struct tt_weights w;
	int rc = tt_topo_check_source(e->t, e->source);

	if (rc == 0 && e->upstream) {
		rs = e->rs;
		rc = tt_recos_convert(&rs, e->t, "upstream");
		if (rc == 0)
			rc = tt_recos_upstream(&rs, e->source, &w);
		if (rc == 0)
			rc = tt_wi_check(&tt_wi_upstream, &e->cli->sfs, e->t, -1, &w);
	}
	if (rc == 0 && e->rfc) {
		rs = e->rs;
		rc = tt_recos_convert(&rs, e->t, "rfc");
		for (int i = 0; rc == 0 && i < rs.n; i++)
			if (e->source < 0 || rs.r[i].source_node == e->source)
				rc = tt_wi_check(&tt_wi_rfc, &e->cli->sfs, e->t,
						 rs.r[i].source_node, &rs.r[i].w);
	}
	return rc;
}

static const struct {
	const char *name;
	int (*write)(const struct export *e, FILE *f);
} formats[] = {
	{ "shell", shell },	{ "json", profile },	      { "tmpfiles", tmpfiles },
	{ "numactl", numactl }, { "prometheus", prometheus }, { "csv", csv },
};

struct emit_ctx {
	const struct export *e;
	int (*write)(const struct export *, FILE *);
};

static int emit_write(void *ctx, FILE *f)
{
	const struct emit_ctx *c = ctx;

	return c->write(c->e, f);
}

static int emit(const struct export *e, int (*write)(const struct export *, FILE *),
		const char *out)
{
	struct emit_ctx c = { e, write };

	return out ? cli_write_file(out, emit_write, &c) : write(e, stdout);
}

int cmd_export(struct tt_cli *cli, int argc, char **argv)
{
	const char *format = NULL, *out = NULL, *weights = NULL, *tier_weights = NULL,
		   *interface = NULL;
	struct export e = { .cli = cli, .source = -1 };
	uint64_t run = 0;
	int64_t source = -1;
	bool latest = false, all = false;
	struct cli_opt opts[] = {
		CLI_U64("run", &run, "RUN", "the recommendation recorded with run RUN", 1,
			INT64_MAX),
		CLI_FLAG("latest", &latest, "the newest run's recommendation"),
		CLI_STRING(
			"weights", &weights, "N:W,...|auto",
			"these per-node weights, or 'auto': the kernel's auto-mode formula on the "
			"HMAT figures"),
		CLI_STRING("tier-weights", &tier_weights, "TIER:W,...", "these per-tier weights"),
		CLI_SOURCE_NODE(&source, "the source node whose recommendation to export"),
		CLI_FLAG("all-sources", &all, "every source node's recommendation"),
		CLI_STRING("format", &format, "FMT",
			   "shell, json (a profile for identical hosts), tmpfiles, numactl, "
			   "prometheus, or csv (the run's trials)",
			   .required = true),
		CLI_STRING(
			"output", &out, "FILE",
			"write to FILE (through a temporary file and rename) instead of standard "
			"output",
			.short_name = 'o'),
		CLI_STRING("interface", &interface, "upstream|rfc|both",
			   "the interface to export for (default: the one this kernel has)"),
		CLI_END,
	};
	int nargs, rc = cli_parse(cli, cli_find_command("export"), opts, argc, argv, &nargs),
		   fmt = -1;
	struct tt_topo t;

	if (rc >= 0)
		return rc;
	if (opts[0].seen + latest + !!weights + !!tier_weights != 1)
		return cli_usage(
			"export needs exactly one of --run, --latest, --weights, --tier-weights");
	e.source = (int)source;
	if (all && e.source >= 0)
		return cli_usage("--source-node and --all-sources do not go together");
	for (size_t i = 0; format && i < sizeof(formats) / sizeof(*formats); i++)
		if (strcmp(format, formats[i].name) == 0)
			fmt = (int)i;
	if (fmt < 0)
		return cli_usage(
			"--format '%s' is not shell, json, tmpfiles, numactl, prometheus or csv",
			format ? format : "");
	rc = cli_load_topo(cli, &t);
	if (rc)
		return rc;
	e.t = &t;
	if (interface && strcmp(interface, "both") == 0) {
		e.upstream = e.rfc = true;
	} else {
		const struct tt_wi_backend *be;

		rc = cli_pick_interface(cli, interface, &be);
		if (rc < 0)
			goto fail;
		e.upstream = be == &tt_wi_upstream;
		e.rfc = be == &tt_wi_rfc;
	}
	if (weights || tier_weights) {
		char buf[1024];
		const char *w = cli_weights_arg(cli, &t, weights, buf, sizeof(buf), &rc);

		if (rc == 0)
			rc = recos_from_args(w, tier_weights, e.source, &e.rs);
	} else {
		struct tt_db *db;

		rc = cli_open_db(cli, TT_DB_READONLY, &db);
		if (rc) {
			tt_topo_release(&t);
			return rc;
		}
		rc = latest ? recos_latest(db, &e.rs) : recos_from_run(db, (int64_t)run, &e.rs);
		if (rc == 0 && fmt == 5)
			rc = tt_db_run_get(db, e.rs.run_id, &e.run);
		tt_db_close(db);
	}
	if (rc == 0 && formats[fmt].write != csv)
		rc = check_recos(&e);
	if (rc == 0)
		rc = emit(&e, formats[fmt].write, out);
	json_decref(e.run);
	if (rc < 0)
		goto fail;
	tt_topo_release(&t);
	return 0;
fail:
	tt_topo_release(&t);
	return cli_fail(rc);
}
