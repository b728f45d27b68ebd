// SPDX-License-Identifier: GPL-3.0-or-later
/* The performance model: load, check, evaluate, add noise (model.h). */
#include "model.h"
#include "model-path.h"
#include "../measure/profile.h"

#include "../bench/kernels.h"
#include "../core/error.h"
#include "../core/topo.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The plausible range of each number a model holds: a figure beyond it is
 * a typing slip (1e308 for 1e11) or a unit mix-up (GB/s for bytes/s), and
 * taken at face value it gives every trial 0 GB/s or an infinity. The
 * bounds are generous: 1 MB/s to 100 TB/s a node (HBM3e on one socket is
 * about 8 TB/s), latencies up to 1 ms (memory over a fabric switch is a few
 * microseconds), up to 10000 lines in flight a thread (a core has tens). */
static const struct field_range {
	const char *key;
	double lo, hi; /* inclusive */
	const char *unit;
} field_ranges[] = {
	{ "read_bw_bytes_s", 1e6, 1e14, "bytes/s" },
	{ "write_bw_bytes_s", 1e6, 1e14, "bytes/s" },
	{ "idle_lat_ns", 1, 1e6, "ns" },
	{ "mm1_service_ns", 0, 1e6, "ns" },
	{ "outstanding_misses_per_thread", 0.01, 1e4, "lines" },
	{ "line_bytes", 8, 4096, "bytes" },
};

static const struct field_range *range_of(const char *key)
{
	for (size_t i = 0; i < sizeof(field_ranges) / sizeof(field_ranges[0]); i++)
		if (strcmp(field_ranges[i].key, key) == 0)
			return &field_ranges[i];
	return NULL;
}

/* Reads a number field; required fields missing are an error, optional
 * ones keep *out. Negative values are refused: no figure here can be; and
 * one outside its field's plausible range (field_ranges), named with its
 * value. */
static int num_field(const char *file, json_t *obj, const char *where, const char *key,
		     bool required, double *out)
{
	json_t *v = json_object_get(obj, key);
	const struct field_range *r = range_of(key);

	if (!v) {
		if (required)
			return tt_err(TT_EINPUT, "model '%s': %s.%s is missing", file, where, key);
		return 0;
	}
	if (!json_is_number(v))
		return tt_err(TT_EINPUT, "model '%s': %s.%s is not a number", file, where, key);
	*out = json_number_value(v);
	if (!isfinite(*out))
		return tt_err(TT_EINPUT, "model '%s': %s.%s is not finite", file, where, key);
	if (*out < 0)
		return tt_err(TT_EINPUT, "model '%s': %s.%s is negative", file, where, key);
	/* Zero has its own message where a field must be above it. */
	if (r && *out != 0 && (*out < r->lo || *out > r->hi))
		return tt_err(TT_EINPUT, "model '%s': %s.%s '%g' is out of range (%g-%g %s)", file,
			      where, key, *out, r->lo, r->hi, r->unit);
	return 0;
}

static int int_field(const char *file, json_t *obj, const char *where, const char *key,
		     bool required, long lo, long hi, int *out)
{
	double d = *out;
	int rc = num_field(file, obj, where, key, required, &d);

	if (rc < 0)
		return rc;
	if (d != floor(d) || d < lo || d > hi)
		return tt_err(TT_EINPUT, "model '%s': %s.%s '%g' is not an integer in %ld..%ld",
			      file, where, key, d, lo, hi);
	*out = (int)d;
	return 0;
}

static int parse_curve(const char *file, json_t *arr, const char *where, struct tt_model_node *n)
{
	size_t i;
	json_t *pt;

	if (!json_is_array(arr))
		return tt_err(TT_EINPUT, "model '%s': %s.loaded_lat_ns is not an array", file,
			      where);
	if (json_array_size(arr) > TT_MODEL_MAX_CURVE)
		return tt_err(TT_EINPUT, "model '%s': %s.loaded_lat_ns has more than %d points",
			      file, where, TT_MODEL_MAX_CURVE);
	json_array_foreach (arr, i, pt) {
		double u, l;

		if (!json_is_array(pt) || json_array_size(pt) != 2 ||
		    !json_is_number(json_array_get(pt, 0)) ||
		    !json_is_number(json_array_get(pt, 1)))
			return tt_err(TT_EINPUT,
				      "model '%s': %s.loaded_lat_ns[%zu] is not [utilisation, ns]",
				      file, where, i);
		u = json_number_value(json_array_get(pt, 0));
		l = json_number_value(json_array_get(pt, 1));
		if (!(u >= 0 && u <= 1) || (i > 0 && u <= n->curve_util[i - 1]))
			return tt_err(TT_EINPUT,
				      "model '%s': %s.loaded_lat_ns[%zu] utilisation '%g' is not "
				      "ascending in 0..1",
				      file, where, i, u);
		if (!(l >= n->idle_lat_ns) || !isfinite(l) || (i > 0 && l < n->curve_lat_ns[i - 1]))
			return tt_err(TT_EINPUT,
				      "model '%s': %s.loaded_lat_ns[%zu] latency '%g' is below the "
				      "idle latency or the previous point",
				      file, where, i, l);
		/* Queues at saturation multiply the idle latency by tens, not
		 * by more than idle_lat_ns' own bound allows. */
		if (l > range_of("idle_lat_ns")->hi * 10)
			return tt_err(
				TT_EINPUT,
				"model '%s': %s.loaded_lat_ns[%zu] latency '%g' is out of range "
				"(at most %g ns)",
				file, where, i, l, range_of("idle_lat_ns")->hi * 10);
		n->curve_util[i] = u;
		n->curve_lat_ns[i] = l;
	}
	n->ncurve = (int)json_array_size(arr);
	return 0;
}

static int parse_node(const char *file, json_t *o, const char *where, struct tt_model_node *n)
{
	json_t *curve, *cpus;
	int rc;

	if (!json_is_object(o))
		return tt_err(TT_EINPUT, "model '%s': %s is not an object", file, where);
	n->node = -1;
	if ((rc = int_field(file, o, where, "node", true, 0, TT_MAX_NODES - 1, &n->node)) < 0 ||
	    (rc = num_field(file, o, where, "read_bw_bytes_s", true, &n->read_bw_bytes_s)) < 0 ||
	    (rc = num_field(file, o, where, "write_bw_bytes_s", true, &n->write_bw_bytes_s)) < 0 ||
	    (rc = num_field(file, o, where, "idle_lat_ns", true, &n->idle_lat_ns)) < 0 ||
	    (rc = num_field(file, o, where, "mm1_service_ns", false, &n->mm1_service_ns)) < 0)
		return rc;
	n->cpus = -1;
	cpus = json_object_get(o, "cpus");
	if (cpus && !json_is_boolean(cpus))
		return tt_err(TT_EINPUT, "model '%s': %s.cpus is not true or false", file, where);
	if (cpus)
		n->cpus = json_is_true(cpus);
	if (n->read_bw_bytes_s == 0 || n->write_bw_bytes_s == 0 || n->idle_lat_ns == 0)
		return tt_err(TT_EINPUT,
			      "model '%s': %s: bandwidths and idle latency must be above zero",
			      file, where);
	curve = json_object_get(o, "loaded_lat_ns");
	if (curve && (rc = parse_curve(file, curve, where, n)) < 0)
		return rc;
	return 0;
}

static int parse_source(const char *file, json_t *o, const char *where, struct tt_model_source *s)
{
	char sub[96];
	json_t *nodes, *e;
	size_t i;
	int rc;

	if (!json_is_object(o))
		return tt_err(TT_EINPUT, "model '%s': %s is not an object", file, where);
	s->node = -1;
	if ((rc = int_field(file, o, where, "node", true, 0, TT_MAX_NODES - 1, &s->node)) < 0 ||
	    (rc = int_field(file, o, where, "threads", true, 1, 1 << 20, &s->threads)) < 0 ||
	    (rc = num_field(file, o, where, "outstanding_misses_per_thread", true,
			    &s->outstanding_misses)) < 0)
		return rc;
	if (s->outstanding_misses == 0)
		return tt_err(TT_EINPUT,
			      "model '%s': %s.outstanding_misses_per_thread must be above zero",
			      file, where);
	nodes = json_object_get(o, "nodes");
	if (!json_is_array(nodes) || json_array_size(nodes) == 0)
		return tt_err(TT_EINPUT, "model '%s': %s.nodes is missing or empty", file, where);
	if (json_array_size(nodes) > TT_MODEL_MAX_NODES)
		return tt_err(TT_EINPUT, "model '%s': %s.nodes has more than %d nodes", file, where,
			      TT_MODEL_MAX_NODES);
	json_array_foreach (nodes, i, e) {
		snprintf(sub, sizeof(sub), "%s.nodes[%zu]", where, i);
		if ((rc = parse_node(file, e, sub, &s->nodes[i])) < 0)
			return rc;
		for (size_t j = 0; j < i; j++)
			if (s->nodes[j].node == s->nodes[i].node)
				return tt_err(TT_EINPUT, "model '%s': %s: node %d appears twice",
					      file, sub, s->nodes[i].node);
	}
	s->nnodes = (int)json_array_size(nodes);
	return 0;
}

static const struct tt_model_node *find_node(const struct tt_model_source *s, int node)
{
	for (int i = 0; i < s->nnodes; i++)
		if (s->nodes[i].node == node)
			return &s->nodes[i];
	return NULL;
}

int tt_model_parse(struct tt_model *m, const char *json, const char *name)
{
	json_error_t jerr;
	json_t *root = json_loads(json, 0, &jerr), *v, *srcs, *e;
	char where[64];
	size_t i;
	int rc = 0;

	memset(m, 0, sizeof(*m));
	snprintf(m->path, sizeof(m->path), "%s", name);
	if (!root)
		return tt_err(TT_EINPUT, "model '%s': broken JSON at line %d column %d: %s", name,
			      jerr.line, jerr.column, jerr.text);
	if (!json_is_object(root)) {
		rc = tt_err(TT_EINPUT, "model '%s': the document is not an object", name);
		goto out;
	}
	/* A version this loader does not know may mean fields it would read
	 * wrongly or not at all: refused, not guessed at. */
	v = json_object_get(root, "schema_version");
	if (!json_is_integer(v) || json_integer_value(v) != TT_MODEL_SCHEMA_VERSION) {
		if (json_is_integer(v))
			rc = tt_err(TT_EINPUT,
				    "model '%s': schema_version %lld is not one this tiertune "
				    "reads (%d)",
				    name, (long long)json_integer_value(v),
				    TT_MODEL_SCHEMA_VERSION);
		else
			rc = tt_err(TT_EINPUT,
				    "model '%s': schema_version is missing or not an integer "
				    "(want %d)",
				    name, TT_MODEL_SCHEMA_VERSION);
		goto out;
	}
	v = json_object_get(root, "simulated");
	if (v && !json_is_true(v)) {
		rc = tt_err(TT_EINPUT,
			    "model '%s': simulated must be true (a model measures nothing)", name);
		goto out;
	}
	v = json_object_get(root, "name");
	snprintf(m->name, sizeof(m->name), "%s", json_is_string(v) ? json_string_value(v) : name);
	v = json_object_get(root, "source");
	if (!json_is_string(v)) {
		rc = tt_err(TT_EINPUT,
			    "model '%s': source (where the figures come from) is missing", name);
		goto out;
	}
	snprintf(m->source_note, sizeof(m->source_note), "%s", json_string_value(v));
	v = json_object_get(root, "machine_sysfs");
	if (v && (!json_is_string(v) || !*json_string_value(v) ||
		  strlen(json_string_value(v)) >= sizeof(m->machine_sysfs))) {
		rc = tt_err(TT_EINPUT,
			    "model '%s': machine_sysfs must be the path of the modelled "
			    "machine's sysfs tree",
			    name);
		goto out;
	}
	if (v)
		snprintf(m->machine_sysfs, sizeof(m->machine_sysfs), "%s", json_string_value(v));
	m->line_bytes = 64;
	if ((rc = num_field(name, root, "model", "line_bytes", false, &m->line_bytes)) < 0)
		goto out;
	if (m->line_bytes == 0) {
		rc = tt_err(TT_EINPUT, "model '%s': line_bytes must be above zero", name);
		goto out;
	}
	srcs = json_object_get(root, "sources");
	if (!json_is_array(srcs) || json_array_size(srcs) == 0) {
		rc = tt_err(TT_EINPUT, "model '%s': sources is missing or empty", name);
		goto out;
	}
	if (json_array_size(srcs) > TT_MODEL_MAX_SOURCES) {
		rc = tt_err(TT_EINPUT, "model '%s': more than %d sources", name,
			    TT_MODEL_MAX_SOURCES);
		goto out;
	}
	json_array_foreach (srcs, i, e) {
		snprintf(where, sizeof(where), "sources[%zu]", i);
		if ((rc = parse_source(name, e, where, &m->src[i])) < 0)
			goto out;
		for (size_t j = 0; j < i; j++)
			if (m->src[j].node == m->src[i].node) {
				rc = tt_err(TT_EINPUT,
					    "model '%s': %s: source node %d appears twice", name,
					    where, m->src[i].node);
				goto out;
			}
	}
	m->nsources = (int)json_array_size(srcs);
	/* Every source sees the same memory: a node one source describes and
	 * another lacks is a hole in the file, not a node out of reach. */
	for (int a = 0; a < m->nsources; a++)
		for (int b = 0; b < m->nsources; b++)
			for (int k = 0; k < m->src[a].nnodes; k++)
				if (!find_node(&m->src[b], m->src[a].nodes[k].node)) {
					rc = tt_err(TT_EINPUT,
						    "model '%s': sources[%d].nodes: node %d is "
						    "missing (sources[%d] has it)",
						    name, b, m->src[a].nodes[k].node, a);
					goto out;
				}
out:
	json_decref(root);
	return rc;
}

/* A model is at most this big: the shipped ones are a few KiB. */
#define MODEL_MAX_BYTES (1 << 20)

/* The whole file, NUL-terminated, in *buf (malloc'd). Opened without
 * blocking and checked to be a regular file before a byte is read: a FIFO
 * (or a device) named as a model fails at once instead of waiting for a
 * writer for ever. A link to a model is followed: models are shared that
 * way, and its tree is found beside the file itself (tt_model_load). */
static int read_model(const char *path, char **buf)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), rc = 0;
	struct stat st;
	ssize_t got = 0;
	size_t len = 0;

	*buf = NULL;
	/* The file is the user's input: one that cannot be read is bad input,
	 * not a capability the machine lacks. */
	if (fd < 0)
		return tt_err_sys(TT_EINPUT, errno, "cannot open model '%s'", path);
	if (fstat(fd, &st) < 0) {
		rc = tt_err_sys(TT_EINPUT, errno, "cannot read model '%s'", path);
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		rc = tt_err(TT_EINPUT, "model '%s' is not a file (a JSON model file)", path);
		goto out;
	}
	if (st.st_size > MODEL_MAX_BYTES) {
		rc = tt_err(TT_EINPUT, "model '%s' is larger than 1 MiB", path);
		goto out;
	}
	/* One byte more than the limit: a file that grew since fstat is
	 * caught by its length, not read without end. */
	*buf = malloc(MODEL_MAX_BYTES + 2);
	if (!*buf) {
		rc = tt_err(TT_EFAIL, "out of memory reading model '%s'", path);
		goto out;
	}
	while (len <= MODEL_MAX_BYTES &&
	       (got = read(fd, *buf + len, MODEL_MAX_BYTES + 1 - len)) > 0)
		len += (size_t)got;
	if (got < 0)
		rc = tt_err_sys(TT_EINPUT, errno, "cannot read model '%s'", path);
	else if (len > MODEL_MAX_BYTES)
		rc = tt_err(TT_EINPUT, "model '%s' is larger than 1 MiB", path);
	else
		(*buf)[len] = '\0';
out:
	close(fd);
	if (rc < 0) {
		free(*buf);
		*buf = NULL;
	}
	return rc;
}

int tt_model_load(struct tt_model *m, const char *name)
{
	char path[4096], *buf = NULL;
	int rc = tt_model_find(name, path, sizeof(path));

	if (rc == 0)
		rc = read_model(path, &buf);
	if (rc < 0)
		return rc;
	rc = tt_model_parse(m, buf, path);
	/* A relative tree is the model file's neighbour, wherever it is run
	 * from: the shipped models name their fixture trees that way. */
	if (rc == 0 && m->machine_sysfs[0] && m->machine_sysfs[0] != '/') {
		/* Beside the file itself, not beside a symbolic link to it. */
		char *file = realpath(path, NULL);
		const char *base = file ? file : path, *slash = strrchr(base, '/');
		char full[sizeof(m->machine_sysfs)];
		int need = slash ? snprintf(full, sizeof(full), "%.*s/%s", (int)(slash - base),
					    base, m->machine_sysfs)
				 : 0;

		free(file);
		if (need >= (int)sizeof(full)) {
			rc = tt_err(TT_EINPUT, "model '%s': machine_sysfs is too long", path);
			goto out;
		}
		if (slash)
			memcpy(m->machine_sysfs, full, sizeof(full));
	}
	/* Messages and suggested commands name it without "models/../..". */
	char *real = rc == 0 && m->machine_sysfs[0] ? realpath(m->machine_sysfs, NULL) : NULL;

	if (real && strlen(real) < sizeof(m->machine_sysfs))
		memcpy(m->machine_sysfs, real, strlen(real) + 1);
	free(real);
out:
	free(buf);
	return rc;
}

const struct tt_model_source *tt_model_source(const struct tt_model *m, int src)
{
	for (int i = 0; i < m->nsources; i++)
		if (m->src[i].node == src)
			return &m->src[i];
	return NULL;
}

int tt_model_check_machine(const struct tt_model *m, int src, const struct tt_topo *t,
			   const int *nodes, int n)
{
	const struct tt_model_source *s;

	for (int i = 0; i < m->nsources; i++) {
		const struct tt_node *tn = tt_topo_node(t, m->src[i].node);

		if (!tn || !tn->has_cpu)
			return tt_err(TT_EINPUT,
				      "model '%s' runs threads on node %d, which this machine %s",
				      m->path, m->src[i].node, tn ? "has no CPUs on" : "lacks");
		for (int k = 0; k < m->src[i].nnodes; k++) {
			const struct tt_model_node *mn = &m->src[i].nodes[k];

			tn = tt_topo_node(t, mn->node);
			if (!tn || !tn->has_memory)
				return tt_err(TT_EINPUT,
					      "model '%s' describes memory node %d, which this "
					      "machine %s",
					      m->path, mn->node, tn ? "has no memory on" : "lacks");
			if (mn->cpus >= 0 && mn->cpus != tn->has_cpu)
				return tt_err(TT_EINPUT,
					      "model '%s': node %d is %s in the model, but this "
					      "machine's node %d %s",
					      m->path, mn->node,
					      mn->cpus ? "a CPU node" : "CPU-less", mn->node,
					      tn->has_cpu ? "has CPUs" : "has none");
		}
	}
	s = tt_model_source(m, src);
	if (!s)
		return tt_err(TT_EINPUT, "model '%s' has no source node %d", m->path, src);
	for (int i = 0; i < n; i++)
		if (!find_node(s, nodes[i]))
			return tt_err(TT_EINPUT,
				      "model '%s' lacks memory node %d from source node %d, a node "
				      "of this machine the search uses",
				      m->path, nodes[i], src);
	return 0;
}

int tt_mix_from_kernel(const char *kernel, struct tt_mix *mix)
{
	const struct tt_kernel *k = tt_kernel_find(kernel);

	if (!k || k->kind != &tt_kind_bandwidth)
		return tt_err(TT_EINPUT, "unknown mix '%s' (a bench bandwidth kernel)", kernel);
	memset(mix, 0, sizeof(*mix));
	snprintf(mix->name, sizeof(mix->name), "%s", k->name);
	mix->read_bytes = k->read_bytes;
	mix->write_bytes = k->write_bytes;
	mix->counted_bytes = (double)k->read_bytes + k->write_bytes;
	/* STREAM counts the source's loads and stores; the controller also
	 * reads each stored line first (kernels.h), except non-temporal ones. */
	if (strcmp(k->counting, "STREAM") == 0 && !strstr(k->name, "-nt"))
		mix->read_bytes += k->write_bytes;
	return 0;
}

static double loaded_lat(const struct tt_model_node *n, double u)
{
	if (n->ncurve > 0) {
		if (u <= n->curve_util[0])
			return n->curve_lat_ns[0] > n->idle_lat_ns
				       ? n->idle_lat_ns + (n->curve_lat_ns[0] - n->idle_lat_ns) *
								  (n->curve_util[0] > 0
									   ? u / n->curve_util[0]
									   : 1)
				       : n->idle_lat_ns;
		for (int i = 1; i < n->ncurve; i++)
			if (u <= n->curve_util[i]) {
				double f = (u - n->curve_util[i - 1]) /
					   (n->curve_util[i] - n->curve_util[i - 1]);

				return n->curve_lat_ns[i - 1] +
				       f * (n->curve_lat_ns[i] - n->curve_lat_ns[i - 1]);
			}
		return n->curve_lat_ns[n->ncurve - 1];
	}
	if (n->mm1_service_ns > 0) {
		double uc = u < 0.99 ? u : 0.99;

		return n->idle_lat_ns + n->mm1_service_ns * uc / (1 - uc);
	}
	return n->idle_lat_ns;
}

/* Utilisation and loaded latency of every node at element rate e. */
static void at_rate(const struct tt_model_source *s, struct tt_model_result *r, const double *cost,
		    double e)
{
	r->mean_lat_ns = 0;
	for (int i = 0; i < r->nnodes; i++) {
		r->util[i] = e * cost[i];
		r->lat_ns[i] = loaded_lat(find_node(s, r->node[i]), r->util[i]);
		r->mean_lat_ns += r->share[i] * r->lat_ns[i];
	}
}

int tt_model_eval(const struct tt_model *m, int src, const struct tt_mix *mix, int threads,
		  const struct tt_weights *w, struct tt_model_result *r)
{
	const struct tt_model_source *s = tt_model_source(m, src);
	const struct tt_model_node *nd[TT_MODEL_MAX_NODES];
	double cost[TT_MODEL_MAX_NODES], total = 0, worst = 0, lines, inflight, lo, hi;
	int node, n = 0;

	if (!s)
		return tt_err(TT_EINPUT, "model '%s' has no source node %d", m->path, src);
	memset(r, 0, sizeof(*r));
	tt_nodemask_for_each (node, &w->set) {
		const struct tt_model_node *mn = find_node(s, node);

		if (!mn)
			return tt_err(TT_EINPUT, "model '%s' has no node %d from source node %d",
				      m->path, node, src);
		if (n == TT_MODEL_MAX_NODES)
			return tt_err(TT_EINPUT, "more than %d weighted nodes", TT_MODEL_MAX_NODES);
		nd[n] = mn;
		r->node[n] = node;
		r->share[n] = w->w[node];
		total += w->w[node];
		n++;
	}
	if (!(total > 0))
		return tt_err(TT_EINPUT, "no node has a positive weight");
	r->nnodes = n;
	for (int i = 0; i < n; i++) {
		r->share[i] /= total;
		/* Seconds node i is busy per element. */
		cost[i] = r->share[i] * (mix->read_bytes / nd[i]->read_bw_bytes_s +
					 mix->write_bytes / nd[i]->write_bw_bytes_s);
		if (cost[i] > worst)
			worst = cost[i];
	}
	lines = (mix->read_bytes + mix->write_bytes) / m->line_bytes;
	inflight = (double)(threads > 0 ? threads : s->threads) * s->outstanding_misses;
	lo = 0;
	hi = worst > 0 ? 1 / worst : 1e30;
	/* Lines in flight at rate E: E * lines * mean loaded latency, rising
	 * with E; the rate is the largest that the threads can sustain. */
	for (int it = 0; it < 200; it++) {
		double e = it == 0 ? hi : (lo + hi) / 2, lat = 0;

		for (int i = 0; i < n; i++)
			lat += r->share[i] * loaded_lat(nd[i], e * cost[i]) * 1e-9;
		if (e * lines * lat <= inflight) {
			if (it == 0) {
				lo = hi;
				break;
			}
			lo = e;
		} else {
			r->concurrency_bound = true;
			hi = e;
		}
		if (hi - lo <= hi * 1e-12)
			break;
	}
	r->elems_s = lo;
	r->bw_bytes_s = lo * mix->counted_bytes;
	at_rate(s, r, cost, lo);
	return 0;
}

/* Source s's largest element rate under Little's law and node capacity,
 * the other sources keeping busy[] of each node: as tt_model_eval's
 * bisection, latencies read at the node's whole utilisation. */
static double machine_rate(const struct tt_model *m, const struct tt_model_source *s,
			   const struct tt_mix *mix, const double *share, const double *cost,
			   const double *busy, const int *node, int n)
{
	double lines = (mix->read_bytes + mix->write_bytes) / m->line_bytes;
	double inflight = s->threads * s->outstanding_misses, lo = 0, hi = 1e30;

	for (int i = 0; i < n; i++)
		if (cost[i] > 0)
			hi = fmin(hi, fmax(0, 1 - busy[i]) / cost[i]);
	for (int it = 0; it < 200 && hi - lo > hi * 1e-12; it++) {
		double e = it == 0 ? hi : (lo + hi) / 2, lat = 0;

		for (int i = 0; i < n; i++)
			lat += share[i] *
			       loaded_lat(find_node(s, node[i]), fmin(1, busy[i] + e * cost[i])) *
			       1e-9;
		if (e * lines * lat <= inflight) {
			lo = e;
			if (it == 0)
				break;
		} else {
			hi = e;
		}
	}
	return lo;
}

int tt_model_eval_machine(const struct tt_model *m, const struct tt_mix *mix,
			  const struct tt_weights *w, struct tt_model_machine *r)
{
	double share[TT_MODEL_MAX_NODES], cost[TT_MODEL_MAX_SOURCES][TT_MODEL_MAX_NODES];
	double e[TT_MODEL_MAX_SOURCES] = { 0 }, total = 0;
	int node, n = 0, rc;

	memset(r, 0, sizeof(*r));
	tt_nodemask_for_each (node, &w->set) {
		if (n == TT_MODEL_MAX_NODES)
			return tt_err(TT_EINPUT, "more than %d weighted nodes", TT_MODEL_MAX_NODES);
		r->node[n] = node;
		share[n] = w->w[node];
		total += w->w[node];
		n++;
	}
	if (!(total > 0))
		return tt_err(TT_EINPUT, "no node has a positive weight");
	r->nnodes = n;
	r->n = m->nsources;
	for (int i = 0; i < n; i++)
		share[i] /= total;
	for (int s = 0; s < m->nsources; s++) {
		struct tt_model_result alone;

		if ((rc = tt_model_eval(m, m->src[s].node, mix, 0, w, &alone)) < 0)
			return rc;
		r->src[s].node = m->src[s].node;
		r->src[s].alone_bytes_s = alone.bw_bytes_s;
		for (int i = 0; i < n; i++) {
			const struct tt_model_node *mn = find_node(&m->src[s], r->node[i]);

			cost[s][i] = share[i] * (mix->read_bytes / mn->read_bw_bytes_s +
						 mix->write_bytes / mn->write_bw_bytes_s);
		}
	}
	/* Every source at once: each its rate at the others' utilisation,
	 * damped (Jacobi, half a step) so that sources alike end alike. */
	for (int it = 0; it < 400; it++) {
		double next[TT_MODEL_MAX_SOURCES], moved = 0;

		for (int s = 0; s < m->nsources; s++) {
			double busy[TT_MODEL_MAX_NODES];

			for (int i = 0; i < n; i++) {
				busy[i] = 0;
				for (int t = 0; t < m->nsources; t++)
					if (t != s)
						busy[i] += e[t] * cost[t][i];
			}
			next[s] =
				machine_rate(m, &m->src[s], mix, share, cost[s], busy, r->node, n);
		}
		for (int s = 0; s < m->nsources; s++) {
			double v = it == 0 ? next[s] / m->nsources : (e[s] + next[s]) / 2;

			moved = fmax(moved, fabs(v - e[s]) / fmax(v, 1e-30));
			e[s] = v;
		}
		if (it > 0 && moved < 1e-9)
			break;
	}
	/* A node the sources still overfill is shared by demand. */
	for (int pass = 0; pass < m->nsources * n + 1; pass++) {
		int top = -1;
		double most = 1 + 1e-9;

		for (int i = 0; i < n; i++) {
			double u = 0;

			for (int s = 0; s < m->nsources; s++)
				u += e[s] * cost[s][i];
			if (u > most)
				most = u, top = i;
		}
		if (top < 0)
			break;
		for (int s = 0; s < m->nsources; s++)
			if (cost[s][top] > 0)
				e[s] /= most;
	}
	for (int s = 0; s < m->nsources; s++) {
		r->src[s].bw_bytes_s = e[s] * mix->counted_bytes;
		r->total_bytes_s += r->src[s].bw_bytes_s;
		for (int i = 0; i < n; i++)
			r->util[i] += e[s] * cost[s][i];
	}
	return 0;
}

int tt_model_eval_at(const struct tt_model *m, int src, const struct tt_mix *mix, int threads,
		     const struct tt_weights *w, double traffic_bytes_s, struct tt_model_result *r)
{
	double cost[TT_MODEL_MAX_NODES], e, peak;
	int rc;

	if (!(traffic_bytes_s > 0) || !isfinite(traffic_bytes_s))
		return tt_err(TT_EINPUT, "traffic '%g' bytes/s is not a positive number",
			      traffic_bytes_s);
	if ((rc = tt_model_eval(m, src, mix, threads, w, r)) < 0)
		return rc;
	peak = r->elems_s;
	r->peak_bytes_s = r->bw_bytes_s;
	e = traffic_bytes_s / mix->counted_bytes;
	for (int i = 0; i < r->nnodes; i++)
		cost[i] = peak > 0 ? r->util[i] / peak : 0;
	r->overloaded = e > peak;
	if (!r->overloaded) {
		r->elems_s = e;
		r->bw_bytes_s = traffic_bytes_s;
		at_rate(tt_model_source(m, src), r, cost, e);
	} else {
		r->mean_lat_ns *= e / peak;
	}
	return 0;
}

int tt_model_profile(const struct tt_model *m, int src, const int *nodes, int n, double *bw_bytes_s)
{
	const struct tt_model_source *s = tt_model_source(m, src);

	if (!s)
		return tt_err(TT_EINPUT, "model '%s' has no source node %d", m->path, src);
	for (int i = 0; i < n; i++) {
		const struct tt_model_node *mn = find_node(s, nodes[i]);

		if (!mn)
			return tt_err(TT_EINPUT, "model '%s' has no node %d from source node %d",
				      m->path, nodes[i], src);
		bw_bytes_s[i] = fmin(mn->read_bw_bytes_s, mn->write_bw_bytes_s);
	}
	return 0;
}

int tt_profile_model(struct tt_profile *p, const struct tt_model *m, int src, const int *nodes,
		     int n)
{
	const struct tt_model_source *s = tt_model_source(m, src);
	double bw[TT_SEARCH_MAX_NODES];
	int rc;

	tt_profile_init(p, src, nodes, n);
	if ((rc = tt_model_profile(m, src, nodes, p->n, bw)) < 0)
		return rc;
	for (int k = 0; k < p->n; k++) {
		p->nodes[k].bw_bytes_s = bw[k];
		p->nodes[k].from = "model";
		for (int i = 0; i < s->nnodes; i++)
			if (s->nodes[i].node == nodes[k])
				p->nodes[k].lat_ns = s->nodes[i].idle_lat_ns;
	}
	return 0;
}

int tt_model_sim_init(struct tt_model_sim *s, const struct tt_model *m, int src, const char *mix,
		      int threads, double noise_sigma, uint64_t seed)
{
	int rc;

	memset(s, 0, sizeof(*s));
	if (!tt_model_source(m, src))
		return tt_err(TT_EINPUT, "model '%s' has no source node %d", m->path, src);
	if ((rc = tt_mix_from_kernel(mix, &s->mix)) < 0)
		return rc;
	if (threads < 0)
		return tt_err(TT_EINPUT, "thread count '%d' is negative", threads);
	/* At most 0.2: with z clamped to +-4 a measurement stays positive. */
	if (!(noise_sigma >= 0 && noise_sigma <= 0.2))
		return tt_err(TT_EINPUT, "noise sigma '%g' out of range (0-0.2)", noise_sigma);
	s->m = m;
	s->src = src;
	s->threads = threads;
	s->noise_sigma = noise_sigma;
	s->simulated = true;
	tt_rng_seed(s->rng, seed);
	return 0;
}

/* 1 + sigma * z, z standard normal clamped to +-4. */
static double noise(struct tt_model_sim *s)
{
	double z = s->noise_sigma > 0 ? tt_rng_normal(s->rng) : 0;

	z = z > 4 ? 4 : z < -4 ? -4 : z;
	return 1 + s->noise_sigma * z;
}

int tt_model_measure(void *ctx, const struct tt_weights *w, double *score)
{
	struct tt_model_sim *s = ctx;
	struct tt_model_result r;
	int rc = tt_model_eval(s->m, s->src, &s->mix, s->threads, w, &r);

	if (rc < 0)
		return rc;
	s->calls++;
	*score = r.bw_bytes_s * noise(s);
	return 0;
}

int tt_model_chase(struct tt_model_sim *s, int node, double *lat_ns)
{
	const struct tt_model_source *src = tt_model_source(s->m, s->src);

	for (int i = 0; src && i < src->nnodes; i++)
		if (src->nodes[i].node == node) {
			*lat_ns = src->nodes[i].idle_lat_ns * noise(s);
			return 0;
		}
	return tt_err(TT_EINPUT, "the model has no node %d from source %d", node, s->src);
}

int tt_model_sample(void *ctx, const struct tt_weights *w, struct tt_sample *out)
{
	struct tt_model_sim *s = ctx;
	struct tt_model_result r;
	int rc = s->traffic_bytes_s > 0 ? tt_model_eval_at(s->m, s->src, &s->mix, s->threads, w,
							   s->traffic_bytes_s, &r)
					: tt_model_eval(s->m, s->src, &s->mix, s->threads, w, &r);

	if (rc < 0)
		return rc;
	s->calls++;
	out->lat_ns = r.mean_lat_ns * noise(s);
	out->overloaded = r.overloaded;
	out->capacity_bytes_s = r.peak_bytes_s;
	out->score = s->traffic_bytes_s > 0 ? 1e9 / out->lat_ns : r.bw_bytes_s * noise(s);
	return 0;
}

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

void tt_rng_seed(uint64_t s[4], uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t tt_rng_next(uint64_t s[4])
{
	uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

double tt_rng_normal(uint64_t s[4])
{
	/* Box-Muller on two uniforms in (0, 1]: 53 bits each. */
	double u1 = ((double)(tt_rng_next(s) >> 11) + 1) * 0x1.0p-53;
	double u2 = (double)(tt_rng_next(s) >> 11) * 0x1.0p-53;

	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}
