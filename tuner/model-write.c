// SPDX-License-Identifier: GPL-3.0-or-later
/* A model of the user's own machine from an auto report and the machine's
 * tree (model-write.h). */
#include "model-write.h"

#include "../core/error.h"
#include "../core/state.h"
#include "model.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* An auto report holds every trial: some hundreds of KiB at most. */
#define REPORT_MAX_BYTES (64u << 20)

/* The loaded-latency shape of the shipped models (tuner/models/): MLC
 * --loaded_latency sweeps, flat to about half of peak and doubling near
 * 90-95%, as multiples of the idle latency; DRAM beside the CPUs climbs
 * further at saturation than memory behind a link (the CXL and PMem
 * nodes' curves there). */
static const double shape_util[] = { 0, 0.5, 0.7, 0.8, 0.9, 0.95, 1.0 };
static const double shape_cpu[] = { 1, 1.08, 1.2, 1.35, 1.75, 2.3, 3.6 };
static const double shape_far[] = { 1, 1.06, 1.15, 1.28, 1.55, 1.9, 2.6 };
#define SHAPE_N (sizeof(shape_util) / sizeof(shape_util[0]))

struct wnode {
	const struct tt_node *nd;
	double read_bw, write_bw, idle_lat; /* bytes/s, bytes/s, ns */
	const char *read_from, *write_from, *idle_from;
	bool measured;
	double prof_bw, prof_lat; /* the profile's own figures, bytes/s and ns */
	int hmat;		  /* the HMAT access class taken, -1 none */
	bool hmat_other;	  /* its initiators do not hold the source */
};

static int load_report(const char *path, json_t **out)
{
	int fd = tt_open_regular(path, O_RDONLY, 0, "auto report"), rc = 0;
	json_error_t jerr;
	struct stat st;

	*out = NULL;
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0)
		rc = tt_err_sys(TT_EINPUT, errno, "cannot read auto report '%s'", path);
	else if ((unsigned long long)st.st_size > REPORT_MAX_BYTES)
		rc = tt_err(TT_EINPUT, "auto report '%s' is larger than %u MiB", path,
			    REPORT_MAX_BYTES >> 20);
	else if (!(*out = json_loadfd(fd, 0, &jerr)))
		rc = tt_err(TT_EINPUT, "auto report '%s': broken JSON at line %d column %d: %s",
			    path, jerr.line, jerr.column, jerr.text);
	close(fd);
	return rc;
}

/* The access class whose figures describe node nd seen from src: the one
 * whose initiators hold src (access1, the CPU initiators, first); else
 * access1 (or access0) from its best initiator, which overstates. */
static int hmat_class(const struct tt_node *nd, int src, bool *other)
{
	*other = false;
	for (int c = 1; c >= 0; c--)
		if (nd->access[c].present && nd->access[c].read_bw_mb_s &&
		    nd->access[c].read_lat_ns && tt_nodemask_test(&nd->access[c].initiators, src))
			return c;
	*other = true;
	for (int c = 1; c >= 0; c--)
		if (nd->access[c].present && nd->access[c].read_bw_mb_s &&
		    nd->access[c].read_lat_ns)
			return c;
	return -1;
}

/* A positive finite number at key of o, or 0. */
static double positive(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	double d = json_is_number(v) ? json_number_value(v) : 0;

	return isfinite(d) && d > 0 ? d : 0;
}

/* The report's profile onto the machine's memory nodes: the measured
 * figures, TT_EINPUT for a node the machine lacks. */
static int profile_nodes(const char *name, json_t *prof, const struct tt_topo *t, struct wnode *wn,
			 int nwn, int *nmeasured)
{
	json_t *nodes = json_object_get(prof, "nodes"), *e;
	size_t i;

	*nmeasured = 0;
	if (!json_is_array(nodes))
		return tt_err(TT_EINPUT, "auto report '%s' has no profile.nodes", name);
	json_array_foreach (nodes, i, e) {
		json_t *nv = json_object_get(e, "node"), *from = json_object_get(e, "from");
		int node = json_is_integer(nv) ? (int)json_integer_value(nv) : -1;
		const struct tt_node *nd = json_is_integer(nv) ? tt_topo_node(t, node) : NULL;
		struct wnode *w = NULL;

		if (!json_is_integer(nv) || !json_is_string(from))
			return tt_err(TT_EINPUT,
				      "auto report '%s': profile.nodes[%zu] has no node or from",
				      name, i);
		if (!nd || !nd->has_memory)
			return tt_err(TT_EINPUT,
				      "auto report '%s' profiles node %d, which the machine "
				      "captured %s",
				      name, node, nd ? "has no memory on" : "lacks");
		for (int k = 0; k < nwn; k++)
			if (wn[k].nd == nd)
				w = &wn[k];
		if (!w || strcmp(json_string_value(from), "measured") != 0)
			continue;
		w->prof_bw = positive(e, "bw_bytes_s");
		w->prof_lat = positive(e, "lat_ns");
		if (!w->prof_bw || !w->prof_lat)
			return tt_err(
				TT_EINPUT,
				"auto report '%s': node %d is measured but lacks its bandwidth "
				"or latency",
				name, node);
		w->measured = true;
		++*nmeasured;
	}
	return 0;
}

/* Each memory node's figures: measured, else HMAT's; ratio and shape
 * assumed where nothing says. */
static int node_figures(const char *name, struct wnode *w, int src, const struct tt_mix *mix)
{
	const struct tt_hmat *h;
	double ratio = TT_MODEL_WRITE_RATIO;
	const char *ratio_from = "assumed";

	w->hmat = hmat_class(w->nd, src, &w->hmat_other);
	h = w->hmat >= 0 ? &w->nd->access[w->hmat] : NULL;
	if (h && h->write_bw_mb_s) {
		ratio = (double)h->write_bw_mb_s / (double)h->read_bw_mb_s;
		ratio_from = "hmat";
	}
	if (w->measured) {
		/* The mix's element rate on the node alone is the measured
		 * bandwidth over its counted bytes; the peaks that give that rate
		 * bandwidth-bound: 1 / E = R / read + W / (ratio * read). */
		double e = w->prof_bw / mix->counted_bytes;

		w->read_bw = e * (mix->read_bytes + mix->write_bytes / ratio);
		w->write_bw = ratio * w->read_bw;
		w->idle_lat = w->prof_lat;
		w->read_from = "measured";
		w->write_from = ratio_from[0] == 'h' ? "hmat" : "assumed";
		w->idle_from = "measured";
		return 0;
	}
	if (!h)
		return tt_err(TT_EINPUT,
			      "node %d: auto report '%s' did not measure it and the machine "
			      "captured has no HMAT figures for it: nothing to model it by",
			      w->nd->id, name);
	w->read_bw = (double)h->read_bw_mb_s * 1e6; /* the ABI's MB/s */
	w->write_bw = h->write_bw_mb_s ? (double)h->write_bw_mb_s * 1e6 : ratio * w->read_bw;
	w->idle_lat = (double)h->read_lat_ns;
	w->read_from = w->idle_from = "hmat";
	w->write_from = h->write_bw_mb_s ? "hmat" : "assumed";
	return 0;
}

static json_t *curve(const struct wnode *w)
{
	const double *f = w->nd->has_cpu ? shape_cpu : shape_far;
	json_t *c = json_array();

	for (size_t i = 0; i < SHAPE_N; i++)
		json_array_append_new(c, json_pack("[f,f]", shape_util[i], w->idle_lat * f[i]));
	return c;
}

static json_t *node_json(const struct wnode *w, const char *kernel, int threads)
{
	json_t *o = json_pack("{s:i,s:b,s:f,s:f,s:f,s:o}", "node", w->nd->id, "cpus",
			      w->nd->has_cpu, "read_bw_bytes_s", w->read_bw, "write_bw_bytes_s",
			      w->write_bw, "idle_lat_ns", w->idle_lat, "loaded_lat_ns", curve(w));

	json_object_set_new(o, "figure_from",
			    json_pack("{s:s,s:s,s:s,s:s}", "read_bw_bytes_s", w->read_from,
				      "write_bw_bytes_s", w->write_from, "idle_lat_ns",
				      w->idle_from, "loaded_lat_ns", "assumed"));
	if (w->measured)
		json_object_set_new(o, "profile",
				    json_pack("{s:f,s:f,s:s,s:i}", "bw_bytes_s", w->prof_bw,
					      "lat_ns", w->prof_lat, "kernel", kernel, "threads",
					      threads));
	if (w->hmat >= 0)
		json_object_set_new(o, "hmat",
				    json_pack("{s:s,s:b}", "access_class",
					      w->hmat ? "access1" : "access0",
					      "initiators_hold_source", !w->hmat_other));
	return o;
}

/* Lines in flight a thread needs for node w's measured bandwidth at the
 * assumed curve's saturated latency (model.h's Little's law). */
static double misses_needed(const struct wnode *w, const struct tt_mix *mix, int threads)
{
	const double *f = w->nd->has_cpu ? shape_cpu : shape_far;
	double e = w->prof_bw / mix->counted_bytes;

	return e * (mix->read_bytes + mix->write_bytes) / 64 * w->idle_lat * f[SHAPE_N - 1] * 1e-9 /
	       threads;
}

static json_t *source_note(const char *name, json_t *rep, const struct tt_model_write_opts *o,
			   int src, const char *kernel, int threads, int nmeasured, int nhmat,
			   double misses)
{
	json_t *host = json_object_get(rep, "host"), *fp = json_object_get(rep, "fingerprint"),
	       *rel = json_object_get(rep, "kernel_release");
	char raised[160] = "";

	if (misses > TT_MODEL_WRITE_MISSES)
		snprintf(raised, sizeof(raised),
			 ", raised to %g so that every measured bandwidth is reachable at the "
			 "curve's saturated latency",
			 misses);
	return json_sprintf(
		"Written by %s from %s (host %s, fingerprint %s, kernel %s): source node %d, mix "
		"%s with %d threads. %d node%s measured (the profile's bandwidth and idle latency "
		"from the source: read and write peaks set so that the model gives the measured "
		"bandwidth for that mix and thread count on the node alone, split by HMAT's "
		"write/read ratio, else an assumed %g), %d from the capture's HMAT figures (the "
		"access class whose initiators hold the source, else the best initiator's, which "
		"overstates). Assumed: loaded-latency curves, the shape of MLC --loaded_latency "
		"sweeps (flat to about half of peak, doubling near 90-95%%) scaled to each node's "
		"idle latency, as the shipped models take them; outstanding misses per thread "
		"%g%s. Each node's figure_from says where each figure came from. Every output "
		"of this model is simulated.",
		o->by, o->hostname ? "an auto run's report" : name,
		o->hostname	       ? o->hostname
		: json_is_string(host) ? json_string_value(host)
				       : "?",
		json_string_value(fp), json_is_string(rel) ? json_string_value(rel) : "?", src,
		kernel, threads, nmeasured, nmeasured == 1 ? "" : "s", TT_MODEL_WRITE_RATIO, nhmat,
		TT_MODEL_WRITE_MISSES, raised);
}

/* The text read back as a model, and each measured node alone giving the
 * profile's bandwidth: the file says what was measured. */
static int check_written(const char *text, const char *name, int src, const struct tt_mix *mix,
			 int threads, const struct wnode *wn, int nwn)
{
	struct tt_model *m = malloc(sizeof(*m));
	int rc = m ? tt_model_parse(m, text, "model.json") : tt_err(TT_EFAIL, "out of memory");

	for (int k = 0; k < nwn && rc == 0; k++) {
		struct tt_model_result r;
		struct tt_weights w;

		if (!wn[k].measured)
			continue;
		tt_weights_clear(&w);
		tt_weights_put(&w, wn[k].nd->id, 1);
		rc = tt_model_eval(m, src, mix, threads, &w, &r);
		if (rc == 0 && fabs(r.bw_bytes_s / wn[k].prof_bw - 1) > 1e-9)
			rc = tt_err(TT_EFAIL,
				    "the model of auto report '%s' gives node %d %g bytes/s, not "
				    "the %g measured",
				    name, wn[k].nd->id, r.bw_bytes_s, wn[k].prof_bw);
	}
	if (rc < 0)
		tt_err_prefix("model written from auto report '%s'", name);
	free(m);
	return rc;
}

int tt_model_write(char **text, const char *name, const struct tt_topo *t,
		   const struct tt_model_write_opts *o, int *source)
{
	json_t *rep = NULL, *v, *prof, *doc = NULL, *nodes;
	struct wnode wn[TT_MODEL_MAX_NODES];
	int rc, src, threads, nwn = 0, nmeasured = 0, nhmat = 0;
	const char *kernel;
	struct tt_mix mix;
	double misses = TT_MODEL_WRITE_MISSES;
	char fp[17];

	*text = NULL;
	if ((rc = load_report(name, &rep)) < 0)
		return rc;
	rc = TT_EINPUT;
	if (!json_is_object(rep) || !json_is_integer(json_object_get(rep, "schema_version"))) {
		tt_err(rc, "'%s' is not a report of tiertune auto --json", name);
		goto out;
	}
	if (json_is_true(json_object_get(rep, "all_sources"))) {
		tt_err(rc, "auto report '%s' is an --all-sources summary, which holds no profile",
		       name);
		tt_err_hint("write the model from one source's report: tiertune auto --source-node "
			    "N --json > FILE");
		goto out;
	}
	v = json_object_get(rep, "kind");
	if (!json_is_string(v) || strcmp(json_string_value(v), "auto") != 0) {
		tt_err(rc, "'%s' is not a report of tiertune auto --json (kind %s)", name,
		       json_is_string(v) ? json_string_value(v) : "missing");
		goto out;
	}
	if (!json_is_false(json_object_get(rep, "simulated"))) {
		v = json_object_get(rep, "model");
		tt_err(rc, "auto report '%s' is a simulated run (model '%s'): it measured nothing",
		       name, json_is_string(v) ? json_string_value(v) : "?");
		goto out;
	}
	v = json_object_get(rep, "source_node");
	src = json_is_integer(v) ? (int)json_integer_value(v) : -1;
	v = json_object_get(rep, "threads");
	threads = json_is_integer(v) ? (int)json_integer_value(v) : 0;
	v = json_object_get(rep, "kernel");
	kernel = json_is_string(v) ? json_string_value(v) : NULL;
	if (!kernel || threads <= 0 || src < 0) {
		tt_err(rc,
		       "auto report '%s' names no mix kernel, thread count or source node (app "
		       "mode's program is no mix a model can replay)",
		       name);
		goto out;
	}
	if ((rc = tt_mix_from_kernel(kernel, &mix)) < 0) {
		tt_err_prefix("auto report '%s'", name);
		goto out;
	}
	for (int i = 0; i < t->nnodes; i++) {
		if (!t->nodes[i].has_memory)
			continue;
		if (nwn == TT_MODEL_MAX_NODES) {
			tt_err(rc,
			       "the machine captured has more than %d memory nodes, a model's most",
			       TT_MODEL_MAX_NODES);
			goto out;
		}
		wn[nwn++] = (struct wnode){ .nd = &t->nodes[i], .hmat = -1 };
	}
	prof = json_object_get(rep, "profile");
	if ((rc = profile_nodes(name, prof, t, wn, nwn, &nmeasured)) < 0)
		goto out;
	rc = TT_EINPUT;
	if (!nmeasured) {
		v = json_object_get(prof, "skipped");
		tt_err(rc,
		       "auto report '%s' has no measured profile (%s): nothing measured to model",
		       name, json_is_string(v) ? json_string_value(v) : "none");
		tt_err_hint("run auto without --no-profile, with a budget that holds the profile");
		goto out;
	}
	v = json_object_get(rep, "fingerprint");
	tt_topo_fingerprint(t, fp);
	if (!json_is_string(v)) {
		tt_err(rc,
		       "auto report '%s' names no machine fingerprint (written by an older "
		       "tiertune)",
		       name);
		tt_err_hint("run tiertune auto --json again");
		goto out;
	}
	if (strcmp(json_string_value(v), fp) != 0) {
		tt_err(rc,
		       "auto report '%s' was measured on other hardware (fingerprint %s), not "
		       "the machine captured (%s)",
		       name, json_string_value(v), fp);
		goto out;
	}
	if (!tt_topo_node(t, src) || !tt_topo_node(t, src)->has_cpu) {
		tt_err(rc, "auto report '%s': source node %d has no CPUs on the machine captured",
		       name, src);
		goto out;
	}
	for (int k = 0; k < nwn; k++) {
		if ((rc = node_figures(name, &wn[k], src, &mix)) < 0)
			goto out;
		nhmat += !wn[k].measured;
		if (wn[k].measured)
			misses = fmax(misses, misses_needed(&wn[k], &mix, threads));
	}
	/* Rounded up, with room for the bisection's last bit. */
	if (misses > TT_MODEL_WRITE_MISSES)
		misses = ceil(misses * 1.001 * 100) / 100;
	nodes = json_array();
	for (int k = 0; k < nwn; k++)
		json_array_append_new(nodes, node_json(&wn[k], kernel, threads));
	doc = json_pack(
		"{s:i,s:s,s:b,s:o,s:s,s:i,s:[{s:i,s:i,s:f,s:{s:s,s:s},s:o}]}", "schema_version",
		TT_MODEL_SCHEMA_VERSION, "name", o->name, "simulated", 1, "source",
		source_note(name, rep, o, src, kernel, threads, nmeasured, nhmat, misses),
		"machine_sysfs", o->machine_sysfs, "line_bytes", 64, "sources", "node", src,
		"threads", threads, "outstanding_misses_per_thread", misses, "figure_from",
		"threads", "measured", "outstanding_misses_per_thread", "assumed", "nodes", nodes);
	*text = doc ? json_dumps(doc, JSON_INDENT(1) | JSON_REAL_PRECISION(17)) : NULL;
	if (!*text) {
		rc = tt_err(TT_EFAIL, "out of memory writing the model of '%s'", name);
		goto out;
	}
	rc = check_written(*text, name, src, &mix, threads, wn, nwn);
	*source = src;
out:
	if (rc < 0) {
		free(*text);
		*text = NULL;
	}
	json_decref(doc);
	json_decref(rep);
	return rc;
}
