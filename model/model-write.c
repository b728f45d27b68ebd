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
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* An auto report holds every trial: some hundreds of KiB at most. */
#define REPORT_MAX_BYTES (64u << 20)

/* The loaded-latency shape of the shipped models (model/machines/): MLC
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

/* A report's whole number (a node, a thread count) as an int, -1 when it is
 * none or beyond an int: a cast would wrap 2^32 to node 0 and take another
 * node's figures for it. */
static int int_field(json_t *v)
{
	json_int_t i = json_is_integer(v) ? json_integer_value(v) : -1;

	return i >= 0 && i <= INT_MAX ? (int)i : -1;
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
		int node = int_field(nv);
		const struct tt_node *nd = node >= 0 ? tt_topo_node(t, node) : NULL;
		struct wnode *w = NULL;

		if (!json_is_integer(nv) || !json_is_string(from))
			return tt_err(TT_EINPUT,
				      "auto report '%s': profile.nodes[%zu] has no node or from",
				      name, i);
		if (!nd || !nd->has_memory)
			return tt_err(TT_EINPUT,
				      "auto report '%s' profiles node %" JSON_INTEGER_FORMAT
				      ", which the machine captured %s",
				      name, json_integer_value(nv),
				      nd ? "has no memory on" : "lacks");
		for (int k = 0; k < nwn; k++)
			if (wn[k].nd == nd)
				w = &wn[k];
		if (!w || strcmp(json_string_value(from), "measured") != 0)
			continue;
		/* Two figures for one node: which is the machine's is not ours
		 * to guess, and the second would silently replace the first. */
		if (w->measured)
			return tt_err(TT_EINPUT,
				      "auto report '%s' profiles node %d twice: a report lists "
				      "each node once",
				      name, node);
		w->prof_bw = positive(e, "bw_bytes_s");
		/* A latency the profile refused (under any memory's: a cache's,
		 * or an emulator's loads) is null: node_figures takes HMAT's. */
		w->prof_lat = positive(e, "lat_ns");
		if (!w->prof_bw || (!w->prof_lat && !json_is_null(json_object_get(e, "lat_ns"))))
			return tt_err(
				TT_EINPUT,
				"auto report '%s': node %d is measured but lacks its bandwidth "
				"or latency",
				name, node);
		/* A model's own bounds (model.c): beyond them no machine measured
		 * it, and the peaks derived from it would not be finite. */
		if (w->prof_bw > 1e14 || w->prof_lat > 1e6)
			return tt_err(
				TT_EINPUT,
				"auto report '%s': node %d's measured %g bytes/s and %g ns are "
				"beyond any memory (at most 1e14 bytes/s, 1e6 ns)",
				name, node, w->prof_bw, w->prof_lat);
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
		w->read_from = "measured";
		w->write_from = ratio_from[0] == 'h' ? "hmat" : "assumed";
		if (w->prof_lat) {
			w->idle_lat = w->prof_lat;
			w->idle_from = "measured";
			return 0;
		}
		if (!h)
			return tt_err(TT_EINPUT,
				      "node %d: auto report '%s' refused its measured idle latency "
				      "and the machine captured has no HMAT figures for it: no "
				      "latency to model it by",
				      w->nd->id, name);
		w->idle_lat = (double)h->read_lat_ns;
		w->idle_from = "hmat";
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
				    json_pack("{s:f,s:o,s:s,s:i}", "bw_bytes_s", w->prof_bw,
					      "lat_ns",
					      w->prof_lat ? json_real(w->prof_lat) : json_null(),
					      "kernel", kernel, "threads", threads));
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

/* One report: the source it measured from, and each memory node's
 * figures from there. */
struct wsrc {
	const char *name; /* the report's path */
	json_t *rep;
	int src, threads;
	const char *kernel;
	struct tt_mix mix;
	struct wnode wn[TT_MODEL_MAX_NODES];
	int nwn, nmeasured, nhmat;
	double misses; /* lines in flight per thread */
};

/* A report of a real auto run from one source: anything else names the
 * report and says what it is instead. */
static int check_kind(const char *name, json_t *rep)
{
	json_t *v;
	int rc;

	if (!json_is_object(rep) || !json_is_integer(json_object_get(rep, "schema_version")))
		return tt_err(TT_EINPUT, "'%s' is not a report of tiertune auto --json", name);
	if (json_is_true(json_object_get(rep, "all_sources"))) {
		rc = tt_err(TT_EINPUT,
			    "auto report '%s' is an --all-sources summary, which holds no profile",
			    name);
		tt_err_hint("write the model from each source's report: tiertune auto "
			    "--source-node N --json > FILE, one --model-from FILE each");
		return rc;
	}
	v = json_object_get(rep, "kind");
	if (!json_is_string(v) || strcmp(json_string_value(v), "auto") != 0)
		return tt_err(TT_EINPUT, "'%s' is not a report of tiertune auto --json (kind %s)",
			      name, json_is_string(v) ? json_string_value(v) : "missing");
	if (!json_is_false(json_object_get(rep, "simulated"))) {
		v = json_object_get(rep, "model");
		return tt_err(
			TT_EINPUT,
			"auto report '%s' is a simulated run (model '%s'): it measured nothing",
			name, json_is_string(v) ? json_string_value(v) : "?");
	}
	return 0;
}

/* The report was measured on the machine captured, from a node with CPUs. */
static int check_machine(const struct wsrc *s, const char *name, const struct tt_topo *t)
{
	json_t *v;
	char fp[17];
	int rc;

	v = json_object_get(s->rep, "fingerprint");
	tt_topo_fingerprint(t, fp);
	if (!json_is_string(v)) {
		rc = tt_err(TT_EINPUT,
			    "auto report '%s' names no machine fingerprint (written by an older "
			    "tiertune)",
			    name);
		tt_err_hint("run tiertune auto --json again");
		return rc;
	}
	if (strcmp(json_string_value(v), fp) != 0)
		return tt_err(TT_EINPUT,
			      "auto report '%s' was measured on other hardware (fingerprint %s), "
			      "not the machine captured (%s)",
			      name, json_string_value(v), fp);
	if (!tt_topo_node(t, s->src) || !tt_topo_node(t, s->src)->has_cpu)
		return tt_err(
			TT_EINPUT,
			"auto report '%s': source node %d has no CPUs on the machine captured",
			name, s->src);
	return 0;
}

/* The report name read and checked against t, every memory node's figures
 * from its source: TT_EINPUT naming the report (model-write.h). */
static int read_source(struct wsrc *s, const char *name, const struct tt_topo *t)
{
	json_t *v, *prof;
	int rc;

	memset(s, 0, sizeof(*s));
	s->name = name;
	s->misses = TT_MODEL_WRITE_MISSES;
	if ((rc = load_report(name, &s->rep)) < 0)
		return rc;
	if ((rc = check_kind(name, s->rep)) < 0)
		return rc;
	v = json_object_get(s->rep, "source_node");
	s->src = int_field(v);
	v = json_object_get(s->rep, "threads");
	s->threads = int_field(v);
	v = json_object_get(s->rep, "kernel");
	s->kernel = json_is_string(v) ? json_string_value(v) : NULL;
	if (!s->kernel || s->threads <= 0 || s->src < 0)
		return tt_err(TT_EINPUT,
			      "auto report '%s' names no mix kernel, thread count or source node "
			      "(app mode's program is no mix a model can replay)",
			      name);
	if ((rc = tt_mix_from_kernel(s->kernel, &s->mix)) < 0) {
		tt_err_prefix("auto report '%s'", name);
		return rc;
	}
	for (int i = 0; i < t->nnodes; i++) {
		if (!t->nodes[i].has_memory)
			continue;
		if (s->nwn == TT_MODEL_MAX_NODES)
			return tt_err(
				TT_EINPUT,
				"the machine captured has more than %d memory nodes, a model's "
				"most",
				TT_MODEL_MAX_NODES);
		s->wn[s->nwn++] = (struct wnode){ .nd = &t->nodes[i], .hmat = -1 };
	}
	prof = json_object_get(s->rep, "profile");
	if ((rc = profile_nodes(name, prof, t, s->wn, s->nwn, &s->nmeasured)) < 0)
		return rc;
	if (!s->nmeasured) {
		v = json_object_get(prof, "skipped");
		rc = tt_err(
			TT_EINPUT,
			"auto report '%s' has no measured profile (%s): nothing measured to model",
			name, json_is_string(v) ? json_string_value(v) : "none");
		tt_err_hint("run auto without --no-profile, with a budget that holds the profile");
		return rc;
	}
	if ((rc = check_machine(s, name, t)) < 0)
		return rc;
	for (int k = 0; k < s->nwn; k++) {
		if ((rc = node_figures(name, &s->wn[k], s->src, &s->mix)) < 0)
			return rc;
		s->nhmat += !s->wn[k].measured;
		if (s->wn[k].measured)
			s->misses = fmax(s->misses, misses_needed(&s->wn[k], &s->mix, s->threads));
	}
	/* Rounded up, with room for the bisection's last bit. */
	if (s->misses > TT_MODEL_WRITE_MISSES)
		s->misses = ceil(s->misses * 1.001 * 100) / 100;
	return 0;
}

static json_t *source_json(const struct wsrc *s)
{
	json_t *nodes = json_array();

	for (int k = 0; k < s->nwn; k++)
		json_array_append_new(nodes, node_json(&s->wn[k], s->kernel, s->threads));
	return json_pack("{s:i,s:i,s:f,s:{s:s,s:s},s:o}", "node", s->src, "threads", s->threads,
			 "outstanding_misses_per_thread", s->misses, "figure_from", "threads",
			 "measured", "outstanding_misses_per_thread", "assumed", "nodes", nodes);
}

/* What one source's figures are from, in words. */
static void source_words(char *buf, size_t size, const struct wsrc *s,
			 const struct tt_model_write_opts *o)
{
	json_t *host = json_object_get(s->rep, "host"),
	       *rel = json_object_get(s->rep, "kernel_release");
	char raised[160] = "";

	if (s->misses > TT_MODEL_WRITE_MISSES)
		snprintf(raised, sizeof(raised),
			 ", raised to %g so that every measured bandwidth is reachable at the "
			 "curve's saturated latency",
			 s->misses);
	snprintf(buf, size,
		 " Source node %d: from %s (host %s, kernel %s), mix %s with %d threads; %d node%s "
		 "measured, %d from the capture's HMAT figures; outstanding misses per thread "
		 "%g%s.",
		 s->src, o->hostname ? "an auto run's report" : s->name,
		 o->hostname		? o->hostname
		 : json_is_string(host) ? json_string_value(host)
					: "?",
		 json_is_string(rel) ? json_string_value(rel) : "?", s->kernel, s->threads,
		 s->nmeasured, s->nmeasured == 1 ? "" : "s", s->nhmat, TT_MODEL_WRITE_MISSES,
		 raised);
}

static json_t *source_note(const struct wsrc *s, int n, const struct tt_model_write_opts *o,
			   const char *fp)
{
	char words[TT_MODEL_MAX_SOURCES][1024], all[sizeof(words)];
	size_t len = 0;

	all[0] = '\0';
	for (int i = 0; i < n; i++) {
		source_words(words[i], sizeof(words[i]), &s[i], o);
		len += (size_t)snprintf(all + len, sizeof(all) - len, "%s", words[i]);
	}
	return json_sprintf(
		"Written by %s from %d auto run report%s measured on the machine with fingerprint "
		"%s. Measured: each profiled node's bandwidth and idle latency from the source "
		"(read and write peaks set so that the model gives the measured bandwidth for the "
		"run's mix and thread count on the node alone, split by HMAT's write/read ratio, "
		"else an assumed %g); HMAT: a node the profile did not measure takes the "
		"capture's figures (the access class whose initiators hold the source, else the "
		"best initiator's, which overstates). Assumed: loaded-latency curves, the shape "
		"of MLC --loaded_latency sweeps (flat to about half of peak, doubling near "
		"90-95%%) scaled to each node's idle latency, as the shipped models take them, "
		"and the outstanding misses per thread.%s Each node's figure_from says where "
		"each figure came from. Every output of this model is simulated.",
		o->by, n, n == 1 ? "" : "s", fp, TT_MODEL_WRITE_RATIO, all);
}

/* The text read back as a model, and each measured node alone giving the
 * profile's bandwidth: the file says what was measured. */
static int check_written(const char *text, const struct wsrc *s, int n)
{
	struct tt_model *m = malloc(sizeof(*m));
	int rc = m ? tt_model_parse(m, text, "model.json") : tt_err(TT_EFAIL, "out of memory");

	for (int i = 0; i < n && rc == 0; i++)
		for (int k = 0; k < s[i].nwn && rc == 0; k++) {
			struct tt_model_result r;
			struct tt_weights w;

			if (!s[i].wn[k].measured)
				continue;
			tt_weights_clear(&w);
			tt_weights_put(&w, s[i].wn[k].nd->id, 1);
			rc = tt_model_eval(m, s[i].src, &s[i].mix, s[i].threads, &w, &r);
			if (rc == 0 && fabs(r.bw_bytes_s / s[i].wn[k].prof_bw - 1) > 1e-9)
				rc = tt_err(
					TT_EFAIL,
					"the model of auto report '%s' gives node %d %g bytes/s, "
					"not the %g measured",
					s[i].name, s[i].wn[k].nd->id, r.bw_bytes_s,
					s[i].wn[k].prof_bw);
		}
	if (rc < 0)
		tt_err_prefix("model written from auto report '%s'", s[0].name);
	free(m);
	return rc;
}

int tt_model_write(char **text, const char *const *reports, int nreports, const struct tt_topo *t,
		   const struct tt_model_write_opts *o, int *sources)
{
	struct wsrc *s = calloc(TT_MODEL_MAX_SOURCES, sizeof(*s));
	json_t *doc = NULL, *srcs = json_array();
	char fp[17];
	int rc = 0, n = 0;

	*text = NULL;
	if (!s || !srcs) {
		rc = tt_err(TT_EFAIL, "out of memory writing a model");
		goto out;
	}
	if (nreports < 1 || nreports > TT_MODEL_MAX_SOURCES) {
		rc = tt_err(TT_EINPUT, "a model is written from 1 to %d auto reports, not %d",
			    TT_MODEL_MAX_SOURCES, nreports);
		goto out;
	}
	for (n = 0; n < nreports; n++) {
		if ((rc = read_source(&s[n], reports[n], t)) < 0) {
			n++;
			goto out;
		}
		for (int j = 0; j < n; j++)
			if (s[j].src == s[n].src) {
				rc = tt_err(
					TT_EINPUT,
					"auto reports '%s' and '%s' are both from source node %d: "
					"one report a source",
					s[j].name, s[n].name, s[n].src);
				n++;
				goto out;
			}
		json_array_append_new(srcs, source_json(&s[n]));
		sources[n] = s[n].src;
	}
	tt_topo_fingerprint(t, fp);
	doc = json_pack("{s:i,s:s,s:b,s:o,s:s,s:i,s:O}", "schema_version", TT_MODEL_SCHEMA_VERSION,
			"name", o->name, "simulated", 1, "source", source_note(s, n, o, fp),
			"machine_sysfs", o->machine_sysfs, "line_bytes", 64, "sources", srcs);
	*text = doc ? json_dumps(doc, JSON_INDENT(1) | JSON_REAL_PRECISION(17)) : NULL;
	if (!*text) {
		rc = tt_err(TT_EFAIL, "out of memory writing the model of '%s'", reports[0]);
		goto out;
	}
	rc = check_written(*text, s, n);
out:
	if (rc < 0) {
		free(*text);
		*text = NULL;
	}
	for (int i = 0; s && i < n; i++)
		json_decref(s[i].rep);
	free(s);
	json_decref(srcs);
	json_decref(doc);
	return rc;
}
