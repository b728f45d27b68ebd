// SPDX-License-Identifier: GPL-3.0-or-later
#include "recos.h"

#include "../core/error.h"
#include "../core/parse.h"
#include "../migrate/rebalance.h"
#include "../core/state.h"
#include "../core/version.h"
#include "../db/json.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PROFILE_FORMAT "tiertune-profile"

/* A weights object ({"0": 5, "2": 1}, as every document has them) as the
 * text tt_recos_add takes. */
static int weights_text(json_t *w, const char *where, char *text, size_t size)
{
	const char *key;
	size_t len = 0;
	json_t *v;

	text[0] = '\0';
	if (!json_is_object(w))
		return tt_err(TT_EINPUT, "%s: its weights are not an object", where);
	json_object_foreach (w, key, v) {
		if (!json_is_integer(v) || json_integer_value(v) < 0) {
			char *shown = json_dumps(v, JSON_ENCODE_ANY);

			tt_err(TT_EINPUT, "%s: the weight of id '%s', %s, is not a whole number",
			       where, key, shown ? shown : "?");
			free(shown);
			return TT_EINPUT;
		}
		len += (size_t)snprintf(text + len, size - len, "%s%s:%" JSON_INTEGER_FORMAT,
					len ? "," : "", key, json_integer_value(v));
		if (len >= size)
			return tt_err(TT_EINPUT, "%s: too many weights", where);
	}
	return 0;
}

/* A profile's weights_keyed_by (schema 2) says what its ids are: they must
 * be what its interface takes, or tier ids would be read as node ids. */
static int check_keyed_by(json_t *rec, const char *where)
{
	const char *iface = json_string_value(json_object_get(rec, "interface")) ?: "",
		   *keyed = json_string_value(json_object_get(rec, "weights_keyed_by"));
	const struct tt_wi_backend *be = tt_wi_find(iface);
	char names[256];

	if (!be)
		return tt_err(TT_EINPUT, "%s: interface '%s' is not one of %s", where, iface,
			      tt_wi_names(", ", names, sizeof(names)));
	if (json_object_get(rec, "weights_keyed_by") && (!keyed || strcmp(keyed, be->unit)))
		return tt_err(TT_EINPUT,
			      "%s: weights_keyed_by '%s' does not match the %s interface, whose "
			      "weights are by %s",
			      where, keyed ? keyed : "(not a string)", be->name, be->unit);
	return 0;
}

/* The gain's baseline as a record or profile names it (bounded text). */
static void set_baseline(struct tt_reco *r, const json_t *b)
{
	snprintf(r->baseline, sizeof(r->baseline), "%s",
		 json_is_string(b) ? json_string_value(b) : "");
}

static int from_run_json(json_t *run, struct tt_recos *rs)
{
	json_t *rec;
	size_t i;
	char where[64];

	memset(rs, 0, sizeof(*rs));
	rs->run_id = json_integer_value(json_object_get(run, "id"));
	snprintf(rs->run_uuid, sizeof(rs->run_uuid), "%s",
		 json_string_value(json_object_get(run, "uuid")) ?: "");
	snprintf(rs->objective, sizeof(rs->objective), "%s",
		 json_string_value(json_object_get(run, "objective")) ?: "");
	snprintf(rs->hostname, sizeof(rs->hostname), "%s",
		 json_string_value(json_object_get(run, "host")) ?: "");
	snprintf(rs->fingerprint, sizeof(rs->fingerprint), "%s",
		 json_string_value(json_object_get(run, "fingerprint")) ?: "");
	snprintf(rs->cpu_model, sizeof(rs->cpu_model), "%s",
		 json_string_value(json_object_get(run, "cpu_model")) ?: "");
	snprintf(rs->kernel_release, sizeof(rs->kernel_release), "%s",
		 json_string_value(json_object_get(run, "kernel_release")) ?: "");
	rs->simulated = json_is_true(json_object_get(run, "simulated"));
	snprintf(where, sizeof(where), "run %jd", (intmax_t)rs->run_id);
	json_array_foreach (json_object_get(run, "recommendations"), i, rec) {
		json_t *gain = json_object_get(rec, "gain");
		const char *action = json_string_value(json_object_get(rec, "action"));
		char text[4096];
		int rc;

		/* Not weights: what the run says to do instead (apply says it). */
		if (action && strcmp(action, "apply") != 0) {
			if (rs->nactions == TT_RECO_MAX)
				return tt_err(TT_EINPUT, "%s: more than %d recommendations", where,
					      TT_RECO_MAX);
			rs->actions[rs->nactions].source_node =
				(int)json_integer_value(json_object_get(rec, "source_node"));
			snprintf(rs->actions[rs->nactions++].action, sizeof(rs->actions[0].action),
				 "%s", action);
			continue;
		}
		json_t *w = json_object_get(rec, "weights"),
		       *stored = json_object_get(rec, "weights_text");

		/* The stored text, when it is no weights (tt_db_run_get keeps
		 * it as weights_text): named, never applied (the front end
		 * escapes what it prints). */
		if (json_is_null(w) && json_is_string(stored)) {
			tt_err(TT_EINPUT,
			       "%s: its recommendation for source node %" JSON_INTEGER_FORMAT
			       " holds weights '%.200s', which are not NODE:WEIGHT,...: nothing "
			       "written",
			       where, json_integer_value(json_object_get(rec, "source_node")),
			       json_string_value(stored));
			tt_err_hint("the database is damaged, or a merged one holds text no "
				    "tiertune wrote; 'tiertune show %jd' shows the run",
				    (intmax_t)rs->run_id);
			return TT_EINPUT;
		}
		rc = weights_text(w, where, text, sizeof(text));
		if (rc == 0)
			rc = tt_recos_add(
				rs, (int)json_integer_value(json_object_get(rec, "source_node")),
				json_string_value(json_object_get(rec, "interface")) ?: "", text,
				json_is_number(gain) ? json_number_value(gain) : NAN, where);
		if (rc < 0)
			return rc;
		set_baseline(&rs->r[rs->n - 1], json_object_get(rec, "baseline"));
	}
	return 0;
}

const char *tt_recos_action_says(const char *action)
{
	if (strcmp(action, "keep_auto") == 0)
		return "keeping the kernel's auto mode";
	if (strcmp(action, "bind_local") == 0)
		return "binding to local memory";
	if (strcmp(action, "keep_now") == 0)
		return "keeping the weights set now";
	if (strcmp(action, "per_source") == 0)
		return "no global weights (its best weights cost another CPU node beyond the "
		       "noise: a per-socket launch instead)";
	return action;
}

int tt_recos_from_run(struct tt_db *db, int64_t run_id, struct tt_recos *out)
{
	json_t *run;
	int rc = tt_db_run_get(db, run_id, &run);

	if (rc < 0)
		return rc;
	rc = from_run_json(run, out);
	if (rc == 0 && out->n == 0 && out->nactions == 0)
		rc = tt_err(TT_EINPUT, "run %jd has no recommendation (see 'tiertune show %jd')",
			    (intmax_t)run_id, (intmax_t)run_id);
	json_decref(run);
	return rc;
}

struct latest {
	struct tt_db *db;
	struct tt_recos *out;
	int found;
};

static int try_run(json_t *row, void *ctx)
{
	struct latest *l = ctx;
	json_t *run;

	if (tt_db_run_get(l->db, json_integer_value(json_object_get(row, "id")), &run) < 0)
		return -1;
	if (json_array_size(json_object_get(run, "recommendations"))) {
		l->found = from_run_json(run, l->out) == 0 ? 1 : -1;
		json_decref(run);
		return 1;
	}
	json_decref(run);
	return 0;
}

int tt_recos_latest(struct tt_db *db, const struct tt_topo *t, struct tt_recos *out)
{
	struct latest l = { db, out, 0 };
	char fp[17];
	int rc = 0;

	/* A merged database holds other hosts' runs, often newer: this
	 * hardware's newest first, whichever host ran it (identical hardware
	 * takes the same weights); another's only when there is none, and
	 * then the fingerprint check names it. */
	if (t) {
		tt_topo_fingerprint(t, fp);
		rc = tt_db_runs(db, fp, 0, try_run, &l);
	}
	if (rc >= 0 && !l.found)
		rc = tt_db_runs(db, NULL, 0, try_run, &l);

	if (rc < 0 || l.found < 0)
		return rc < 0 ? rc : TT_EINPUT;
	if (!l.found)
		return tt_err(TT_EINPUT, "no run in database '%s' has a recommendation yet",
			      tt_db_path(db));
	return 0;
}

/* A profile is a few kilobytes (one recommendation per source node);
 * past this it is no profile, and reading it would only hold up the boot
 * unit and the metrics timer that reads it every minute. */
#define PROFILE_MAX (4 << 20)

/* The whole file, NUL-terminated, in large reads: jansson's json_loadfd
 * reads one byte per read(2) (1,049,277 calls for 1 MiB). */
static int read_capped(int fd, const char *path, char **out, size_t *len)
{
	struct stat st;
	char *buf;
	size_t have = 0;

	*out = NULL;
	if (fstat(fd, &st) < 0)
		return tt_err_sys(TT_EFAIL, errno, "cannot read profile '%s'", path);
	if (st.st_size > PROFILE_MAX)
		return tt_err(TT_EINPUT,
			      "profile '%s' is %jd bytes, more than a profile holds (%d)", path,
			      (intmax_t)st.st_size, PROFILE_MAX);
	if (!(buf = malloc((size_t)st.st_size + 1)))
		return tt_err(TT_EFAIL, "out of memory");
	/* Up to the cap, whatever fstat said: a file growing meanwhile is
	 * cut at the cap and then refused, not read without end. */
	for (;;) {
		ssize_t n;

		if (have == (size_t)st.st_size) {
			char probe;

			n = read(fd, &probe, 1);
			if (n == 0)
				break;
			if (n > 0 || errno != EINTR) {
				free(buf);
				return n > 0 ? tt_err(TT_EINPUT, "profile '%s' grew while read",
						      path)
					     : tt_err_sys(TT_EFAIL, errno,
							  "cannot read profile '%s'", path);
			}
			continue;
		}
		n = read(fd, buf + have, (size_t)st.st_size - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = errno;

			free(buf);
			return tt_err_sys(TT_EFAIL, err, "cannot read profile '%s'", path);
		}
		if (n == 0)
			break;
		have += (size_t)n;
	}
	buf[have] = '\0';
	*out = buf;
	*len = have;
	return 0;
}

/* A recommendation that is an action, not weights: "keep_auto" alone (a
 * fleet persisting a run's verdict that the kernel's auto mode stays on;
 * apply --profile turns it on). 1 when rec is one, 0 when it holds
 * weights, or an error. */
static int profile_action(struct tt_recos *rs, const json_t *rec, json_int_t src, const char *where)
{
	const char *a = json_string_value(json_object_get(rec, "action"));

	if (!json_object_get(rec, "action") || (a && strcmp(a, "apply") == 0))
		return 0;
	if (!a || strcmp(a, "keep_auto") != 0)
		return tt_err(TT_EINPUT, "%s: action is not \"apply\" or \"keep_auto\"", where);
	if (src < -1 || src >= TT_MAX_NODES)
		return tt_err(TT_EINPUT, "%s: source_node out of range (-1-%d)", where,
			      TT_MAX_NODES - 1);
	if (rs->nactions == TT_RECO_MAX)
		return tt_err(TT_EINPUT, "%s: more than %d recommendations", where, TT_RECO_MAX);
	rs->actions[rs->nactions].source_node = (int)src;
	snprintf(rs->actions[rs->nactions++].action, sizeof(rs->actions[0].action), "%s", a);
	return 1;
}

/* The profile at path as JSON (*j), read without blocking. */
static int profile_load(const char *path, json_t **j)
{
	json_error_t e;
	char *raw;
	size_t len = 0;
	/* Not blocking, a regular file: apply --profile FIFO would hang. */
	int rc, fd = tt_open_regular(path, O_RDONLY, 0, "profile");

	if (fd < 0)
		return fd;
	rc = read_capped(fd, path, &raw, &len);
	close(fd);
	if (rc < 0)
		return rc;
	*j = json_loadb(raw, len, JSON_REJECT_DUPLICATES, &e);
	free(raw);
	if (!*j)
		return tt_err(TT_EINPUT, "profile '%s' is not JSON: %s (line %d)", path, e.text,
			      e.line);
	return 0;
}

/* The profile's format, machine, simulated flag, objective and run. */
static int profile_head(json_t *j, const char *path, struct tt_recos *rs)
{
	/* Profiles of 0.2.0 said "version": 1 and "host"; they still apply. */
	bool v1 = json_integer_value(json_object_get(j, "version")) == 1;
	json_t *host = json_object_get(j, v1 ? "host" : "machine"), *sim;

	if (!json_is_object(j) ||
	    strcmp(json_string_value(json_object_get(j, "format")) ?: "", PROFILE_FORMAT) ||
	    (!v1 &&
	     json_integer_value(json_object_get(j, "schema_version")) != TT_JSON_SCHEMA_VERSION) ||
	    !json_is_object(host) || !json_is_array(json_object_get(j, "recommendations")))
		return tt_err(TT_EINPUT,
			      "profile '%s' is not a tiertune profile (schema_version %d, or "
			      "version 1)",
			      path, TT_JSON_SCHEMA_VERSION);
	snprintf(rs->hostname, sizeof(rs->hostname), "%s",
		 json_string_value(json_object_get(host, "hostname")) ?: "");
	snprintf(rs->fingerprint, sizeof(rs->fingerprint), "%s",
		 json_string_value(json_object_get(host, "fingerprint")) ?: "");
	snprintf(rs->cpu_model, sizeof(rs->cpu_model), "%s",
		 json_string_value(json_object_get(host, "cpu_model")) ?: "");
	snprintf(rs->kernel_release, sizeof(rs->kernel_release), "%s",
		 json_string_value(json_object_get(host, "kernel_release")) ?: "");
	/* A boolean, as every document writes it: "yes" was read as false,
	 * and a model's weights applied without the SIMULATED warning. */
	sim = json_object_get(j, "simulated");
	if (sim && !json_is_boolean(sim)) {
		char *shown = json_dumps(sim, JSON_ENCODE_ANY);
		int rc = tt_err(TT_EINPUT, "profile '%s': simulated is %.64s, not true or false",
				path, shown ? shown : "?");

		free(shown);
		return rc;
	}
	rs->simulated = json_is_true(sim);
	snprintf(rs->objective, sizeof(rs->objective), "%s",
		 json_string_value(json_object_get(j, "objective")) ?: "");
	snprintf(rs->run_uuid, sizeof(rs->run_uuid), "%s",
		 json_string_value(json_object_get(j, v1 ? "run" : "run_uuid")) ?: "");
	return 0;
}

/* Recommendation rec of the profile (where names it): an action without
 * weights, or weights for a source node; 0 or a negative status. */
static int profile_reco(struct tt_recos *rs, json_t *rec, const char *where)
{
	json_t *w = json_object_get(rec, "weights"), *src = json_object_get(rec, "source_node"),
	       *gain = json_object_get(rec, "gain");
	char text[4096];
	/* No source node: null, or -1 as version 1 wrote it. */
	json_int_t id = json_is_null(src) ? -1 : json_integer_value(src);
	int rc;

	if ((rc = profile_action(rs, rec, id, where)) != 0)
		return rc < 0 ? rc : 0;
	if (!json_is_object(w) || !(json_is_integer(src) || json_is_null(src)))
		return tt_err(TT_EINPUT, "%s: needs source_node and a weights object", where);
	/* Checked as the 64-bit number it is: a cast would make 2**40 node 0. */
	if (id < -1 || id >= TT_MAX_NODES)
		return tt_err(TT_EINPUT,
			      "%s: source_node '%" JSON_INTEGER_FORMAT "' out of range "
			      "(-1-%d)",
			      where, id, TT_MAX_NODES - 1);
	if ((rc = weights_text(w, where, text, sizeof(text))) < 0 ||
	    (rc = check_keyed_by(rec, where)) < 0)
		return rc;
	rc = tt_recos_add(rs, (int)id, json_string_value(json_object_get(rec, "interface")) ?: "",
			  text, json_is_number(gain) ? json_number_value(gain) : NAN, where);
	if (rc >= 0)
		set_baseline(&rs->r[rs->n - 1], json_object_get(rec, "gain_over"));
	return rc < 0 ? rc : 0;
}

int tt_recos_from_profile(const char *path, struct tt_recos *rs)
{
	json_t *j = NULL, *rec;
	char where[4200];
	size_t i;
	int rc;

	memset(rs, 0, sizeof(*rs));
	if ((rc = profile_load(path, &j)) < 0)
		return rc;
	if ((rc = profile_head(j, path, rs)) < 0)
		goto out;
	json_array_foreach (json_object_get(j, "recommendations"), i, rec) {
		snprintf(where, sizeof(where), "profile '%s', recommendation %zu", path, i + 1);
		if ((rc = profile_reco(rs, rec, where)) < 0)
			goto out;
	}
	if (!rs->n && !rs->nactions)
		rc = tt_err(TT_EINPUT, "profile '%s' holds no recommendation", path);
out:
	json_decref(j);
	return rc;
}

json_t *tt_recos_profile_json(const struct tt_recos *rs, const struct tt_topo *t)
{
	char fp[17];
	json_t *recs = json_array();
	/* The machine the weights were found on: a run's or a profile's own,
	 * the root's only for weights given on the command line. */
	bool own = rs->fingerprint[0] != '\0';

	/* Each recommendation's per-node shares of a policy's pages (its
	 * weights as node weights: a tier's split over its nodes), the goals
	 * DAMON's weighted dests and its node_eligible_mem_bp goal take. */
	struct tt_recos *by_node = malloc(sizeof(*by_node));
	const struct tt_wi_backend *nbe = tt_wi_for_key(TT_WI_BY_NODE);
	bool shares = by_node && nbe;

	if (shares) {
		*by_node = *rs;
		shares = tt_recos_convert(by_node, t, nbe) == 0;
	}
	tt_topo_fingerprint(t, fp);
	for (int i = 0; i < rs->n; i++) {
		const struct tt_reco *r = &rs->r[i];
		json_t *w = tt_json_weights(&r->w), *o;
		uint32_t bp[TT_MAX_NODES];

		const struct tt_wi_backend *be = tt_wi_find(r->interface);

		o = json_pack("{s:o,s:s,s:o,s:s,s:o}", "source_node",
			      r->source_node >= 0 ? json_integer(r->source_node) : json_null(),
			      "interface", r->interface, "weights", w, "weights_keyed_by",
			      be ? be->unit : "node", "gain", tt_json_real(r->gain));
		/* The gain's baseline, as the run's report and record name it. */
		if (r->baseline[0])
			json_object_set_new(o, "gain_over", json_string(r->baseline));
		if (shares && tt_rb_shares_bp(&by_node->r[i].w, bp) == 0) {
			json_t *sb = json_object();
			char key[16];
			int id;

			tt_nodemask_for_each (id, &by_node->r[i].w.set) {
				snprintf(key, sizeof(key), "%d", id);
				json_object_set_new(sb, key, json_integer(bp[id]));
			}
			json_object_set_new(o, "shares_bp", sb);
		}
		json_array_append_new(recs, o);
	}
	/* keep_auto: the profile turns the kernel's auto mode on where it is
	 * applied (bind_local is no setting a profile could hold). */
	for (int i = 0; i < rs->nactions; i++)
		if (strcmp(rs->actions[i].action, "keep_auto") == 0)
			json_array_append_new(
				recs, json_pack("{s:o,s:s,s:s,s:n}", "source_node",
						rs->actions[i].source_node >= 0
							? json_integer(rs->actions[i].source_node)
							: json_null(),
						"interface", "upstream", "action", "keep_auto",
						"weights"));
	free(by_node);
	return json_pack("{s:i,s:s,s:{s:s,s:s,s:s,s:s},s:b,s:s?,s:s?,s:o}", "schema_version",
			 TT_JSON_SCHEMA_VERSION, "format", PROFILE_FORMAT, "machine", "hostname",
			 own ? rs->hostname : t->hostname, "fingerprint",
			 own ? rs->fingerprint : fp, "cpu_model",
			 own ? rs->cpu_model : t->cpu_model, "kernel_release",
			 own ? rs->kernel_release : t->kernel_release, "simulated", rs->simulated,
			 "run_uuid", rs->run_uuid[0] ? rs->run_uuid : NULL, "objective",
			 rs->objective[0] ? rs->objective : NULL, "recommendations", recs);
}

bool tt_recos_other_hw(const struct tt_recos *rs, const struct tt_topo *t)
{
	char fp[17];

	tt_topo_fingerprint(t, fp);
	return rs->fingerprint[0] && strcmp(fp, rs->fingerprint) != 0;
}

int tt_recos_check_machine(const struct tt_recos *rs, const struct tt_topo *t, bool force,
			   const char *what)
{
	char fp[17], host[512];

	if (!tt_recos_other_hw(rs, t) || force)
		return 0;
	tt_topo_fingerprint(t, fp);
	tt_err(TT_EINPUT, "%s is from host '%s' with hardware fingerprint %s; this root's is %s",
	       what, tt_str_escape(rs->hostname, host, sizeof(host)), rs->fingerprint, fp);
	tt_err_hint("weights found on other hardware seldom fit; identical hardware has the same "
		    "fingerprint; --force uses them anyway");
	return TT_EINPUT;
}

int tt_recos_from_args(const struct tt_weights *weights, const struct tt_weights *tier_weights,
		       int src, const struct tt_wi_backend *to, struct tt_recos *rs)
{
	enum tt_wi_key key = weights ? TT_WI_BY_NODE : TT_WI_BY_TIER;
	/* Tier weights for an rfcv1 kernel are its own, not the v2 RFC's,
	 * which would ask for a source node the kernel has no use for. */
	const struct tt_wi_backend *be = to && to->key == key ? to : tt_wi_for_key(key);

	memset(rs, 0, sizeof(*rs));
	if (!be)
		return tt_err(TT_EINPUT, "no weight interface takes %s weights",
			      weights ? "node" : "tier");
	if (be->per_source && src < 0)
		return tt_err(TT_EINPUT, "%s weights are per source node: give --source-node N",
			      be->unit);
	return tt_recos_add_weights(rs, src, be->name, weights ? weights : tier_weights, NAN,
				    weights ? "--weights" : "--tier-weights");
}
