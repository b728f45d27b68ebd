// SPDX-License-Identifier: GPL-3.0-or-later
/* Upstream weighted interleave (Linux 6.9+), Documentation/ABI/testing/
 * sysfs-kernel-mm-mempolicy-weighted-interleave. */
#include "wi.h"

#include "plan.h"
#include "error.h"
#include "fixture-kernel.h"
#include "parse.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#define WI_DIR "/sys/kernel/mm/mempolicy/weighted_interleave"

extern const struct tt_wi_backend tt_wi_upstream;

static int up_detect(const struct tt_sysfs *s, char *why, size_t size)
{
	if (tt_sysfs_exists(s, WI_DIR))
		return 0;
	snprintf(why, size, "no %s (needs Linux 6.9+ with CONFIG_NUMA)", WI_DIR);
	return TT_EUNAVAIL;
}

static int up_read(const struct tt_sysfs *s, const struct tt_topo *t, struct tt_wi_state *st)
{
	static const char *const mode_files[] = { "auto", "__auto_type" };
	char **names = NULL, buf[32];
	int rc;

	(void)t;
	rc = tt_sysfs_list(s, &names, WI_DIR);
	if (rc < 0)
		return rc;
	for (char **p = names; *p; p++) {
		uint64_t node, w;

		if (strncmp(*p, "node", 4) != 0)
			continue;
		if (tt_parse_u64(*p + 4, 0, TT_MAX_NODES - 1, &node)) {
			rc = tt_err(TT_EINPUT, "unexpected file '%s' in '%s%s'", *p, s->root,
				    WI_DIR);
			goto out;
		}
		/* 6.9-6.15 read 0 after a reset to the system default. */
		rc = tt_sysfs_read_u64(s, &w, 0, 255, WI_DIR "/%s", *p);
		if (rc < 0)
			goto out;
		tt_weights_put(&st->node, (int)node, (uint32_t)w);
	}
	/* Kernels 6.16-6.18 built with the "auto" macro name the file
	 * __auto_type (fixed upstream by naming the attribute explicitly). */
	for (size_t i = 0; i < sizeof(mode_files) / sizeof(mode_files[0]); i++) {
		rc = tt_sysfs_read(s, buf, sizeof(buf), WI_DIR "/%s", mode_files[i]);
		if (rc == TT_EUNAVAIL)
			continue;
		if (rc < 0)
			goto out;
		if (strcmp(buf, "true") && strcmp(buf, "false")) {
			rc = tt_err(TT_EINPUT, "mode '%s' in '%s%s/%s' is neither true nor false",
				    buf, s->root, WI_DIR, mode_files[i]);
			goto out;
		}
		st->auto_mode = strcmp(buf, "true") == 0;
		snprintf(st->auto_file, sizeof(st->auto_file), "%s", mode_files[i]);
		break;
	}
	rc = 0;
out:
	tt_sysfs_free_names(names);
	return rc;
}

static int up_validate(const struct tt_topo *t, const struct tt_wi_state *cur,
		       const struct tt_wi_state *want)
{
	int node, rc;

	tt_nodemask_for_each (node, &want->node.set) {
		if (!tt_nodemask_test(&cur->node.set, node)) {
			rc = tt_topo_check_nodes(t, &want->node.set, "weights");
			if (rc < 0)
				return rc;
			return tt_err(TT_EINPUT,
				      "node %d has no %s/node%d (a node without memory?)", node,
				      WI_DIR, node);
		}
	}
	if (want->auto_mode == 1 && cur->auto_mode < 0)
		return tt_err(TT_EUNAVAIL, "this kernel has no auto mode (needs Linux 6.16+)");
	return tt_weights_check_range(&want->node, tt_wi_upstream.min_weight,
				      tt_wi_upstream.max_weight);
}

static int up_write(const struct tt_sysfs *s, const struct tt_wi_state *want)
{
	char buf[16];
	int node, rc;

	tt_nodemask_for_each (node, &want->node.set) {
		/* Never 0: 6.16+ rejects it and 6.9-6.15 read it as "reset". */
		if (want->node.w[node] == 0)
			return tt_err(TT_EINPUT, "weight '0' for node %d out of range (1-255)",
				      node);
		snprintf(buf, sizeof(buf), "%u", want->node.w[node]);
		rc = tt_sysfs_write(s, buf, WI_DIR "/node%d", node);
		if (rc < 0)
			return rc;
	}
	if (want->auto_mode >= 0 && want->auto_file[0]) {
		rc = tt_sysfs_write(s, want->auto_mode ? "1" : "0", WI_DIR "/%s", want->auto_file);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static bool up_weight_file(const char *rel, enum tt_write_kind *kind)
{
	static const char up[] = WI_DIR "/";
	const char *p;

	if (strncmp(rel, up, sizeof(up) - 1))
		return false;
	p = rel + sizeof(up) - 1;
	*kind = TT_WRITE_PLAIN;
	if (strcmp(p, "auto") == 0 || strcmp(p, "__auto_type") == 0)
		return true;
	return strncmp(p, "node", 4) == 0 && (p = tt_wi_id_prefix(p + 4)) && !*p;
}

static int up_writes(const struct tt_sysfs *s, const struct tt_topo *t, int src,
		     const struct tt_weights *w, tt_wi_write_fn fn, void *ctx)
{
	char file[64];
	struct tt_wi_state st;
	int rc = tt_wi_writes_each(w, src, TT_WRITE_PLAIN, WI_DIR "/node%d", fn, ctx);

	if (rc < 0)
		return rc;
	/* Any nodeN write turns auto mode off (mm/mempolicy.c node_store). */
	tt_wi_state_init(&st);
	if (s && up_read(s, t, &st) == 0 && st.auto_mode >= 0) {
		snprintf(file, sizeof(file), WI_DIR "/%s", st.auto_file);
		rc = fn(ctx, TT_WRITE_PLAIN, -1, file, "false", true);
	}
	tt_wi_state_release(&st);
	return rc;
}

static int up_plan(struct tt_apply_plan *p, const struct tt_topo *t, int src,
		   const struct tt_weights *w)
{
	struct tt_weights probe;
	struct tt_wi_state cur;
	int rc;

	tt_wi_state_init(&cur);
	rc = tt_wi_check(&tt_wi_upstream, p->sfs, t, src, w);
	if (rc == 0)
		rc = up_read(p->sfs, t, &cur);
	if (rc < 0)
		goto out;
	/* With auto mode on, writing a node's weight, even the one it holds,
	 * pins the weights: the kernel turns auto off (node_store). */
	p->write_unchanged = cur.auto_mode == 1;
	/* The mode file comes as implied even when auto is off now:
	 * tt_apply_run reads it again under the lock, and what it holds then
	 * is what a rollback puts back. */
	rc = tt_apply_plan_writes(p, t, src, w);
	if (rc < 0)
		goto out;
	if (!p->n) {
		p->nimplied = 0;
	} else if (cur.auto_mode == 1 && tt_weights_auto_topo(t, &probe) == TT_EUNAVAIL) {
		/* No bandwidth data: the kernel refuses to turn auto back on. */
		p->auto_lost = true;
		p->nimplied = 0;
	}
out:
	tt_wi_state_release(&cur);
	return rc;
}

static int up_plan_auto(struct tt_apply_plan *p, bool on)
{
	struct tt_wi_state cur;
	int rc;

	tt_wi_state_init(&cur);
	rc = up_read(p->sfs, NULL, &cur);
	if (rc == 0 && cur.auto_mode < 0)
		rc = tt_err(TT_EUNAVAIL,
			    "this kernel has no auto mode file in %s (needs Linux 6.16+)", WI_DIR);
	if (rc == 0)
		rc = tt_apply_plan_add(p, TT_WRITE_PLAIN, -1, on ? "true" : "false", WI_DIR "/%s",
				       cur.auto_file);
	tt_wi_state_release(&cur);
	return rc;
}

/* Weight 1 for every node with memory, as apply would want them: a
 * missing nodeN file is refused, not skipped. */
static void up_defaults(const struct tt_topo *t, int src, struct tt_weights *out)
{
	(void)src;
	tt_weights_clear(out);
	for (int i = 0; i < t->nnodes; i++)
		if (t->nodes[i].has_memory)
			tt_weights_put(out, t->nodes[i].id, 1);
}

static void up_current(const struct tt_wi_state *st, const struct tt_topo *t, int src,
		       struct tt_weights *out)
{
	(void)t;
	(void)src;
	*out = st->node;
}

static int up_order(struct tt_il_order *o, const struct tt_nodemask *mask, const struct tt_topo *t,
		    const struct tt_weights *w)
{
	(void)t;
	return tt_il_order_nodes(o, mask, w);
}

static const char *auto_file(const struct tt_sysfs *s)
{
	if (tt_sysfs_exists(s, WI_DIR "/auto"))
		return "auto";
	if (tt_sysfs_exists(s, WI_DIR "/__auto_type"))
		return "__auto_type";
	return NULL;
}

static int up_store_node_weight(const struct tt_sysfs *s, const char *path, const char *rel,
				const char *value)
{
	const char *af = auto_file(s);
	char buf[16], ap[PATH_MAX];
	unsigned int w;
	int rc;

	/* 6.16+ (the kernels with an auto file) reject 0 and ""; 6.9-6.15
	 * store 0 as "system default". */
	if (tt_kstrtou8(value, &w) < 0 && !(!af && (value[0] == '\0' || strcmp(value, "\n") == 0)))
		return tt_fixture_rejected(path, value, EINVAL);
	if (value[0] == '\0' || strcmp(value, "\n") == 0)
		w = 0;
	if (af && w == 0)
		return tt_fixture_rejected(path, value, EINVAL);
	snprintf(buf, sizeof(buf), "%u\n", w);
	rc = tt_fixture_replace(s, rel, buf);
	if (rc < 0 || !af)
		return rc;
	snprintf(ap, sizeof(ap), WI_DIR "/%s", af);
	return tt_fixture_replace(s, ap, "false\n");
}

static int up_store_auto(const struct tt_sysfs *s, const char *path, const char *rel,
			 const char *value)
{
	struct tt_topo t;
	struct tt_weights w;
	int on, rc, node;

	if (tt_kstrtobool(value, &on) < 0)
		return tt_fixture_rejected(path, value, EINVAL);
	if (!on)
		return tt_fixture_replace(s, rel, "false\n");
	rc = tt_topo_load(&t, s);
	if (rc < 0)
		return rc;
	rc = tt_weights_auto_topo(&t, &w);
	tt_topo_release(&t);
	/* No HMAT/CDAT bandwidth ever reported: weighted_interleave_auto_store
	 * returns -ENODEV. */
	if (rc == TT_EUNAVAIL)
		return tt_fixture_rejected(path, value, ENODEV);
	tt_nodemask_for_each (node, &w.set) {
		char p[PATH_MAX], buf[16];

		if (!tt_sysfs_exists(s, WI_DIR "/node%d", node))
			continue;
		snprintf(buf, sizeof(buf), "%u\n", w.w[node]);
		snprintf(p, sizeof(p), WI_DIR "/node%d", node);
		if ((rc = tt_fixture_replace(s, p, buf)) < 0)
			return rc;
	}
	return tt_fixture_replace(s, rel, "true\n");
}

/* What the kernel's node_store and auto_store leave behind, for fixture
 * trees (core/fixture-kernel.h). */
static int up_fixture_store(const struct tt_sysfs *s, const char *path, const char *rel,
			    const char *value)
{
	const char *base = strrchr(rel, '/') + 1;

	if (strcmp(base, "auto") == 0 || strcmp(base, "__auto_type") == 0)
		return up_store_auto(s, path, rel, value);
	return up_store_node_weight(s, path, rel, value);
}

const struct tt_wi_backend tt_wi_upstream = {
	.name = "upstream",
	.summary = "global per-node weights, MPOL_WEIGHTED_INTERLEAVE (Linux 6.9+)",
	.dir = WI_DIR,
	.unit = "node",
	.key = TT_WI_BY_NODE,
	.min_weight = 1,
	.max_weight = 255,
	.per_source = false,
	.detect = up_detect,
	.read = up_read,
	.validate = up_validate,
	.write = up_write,
	.weight_file = up_weight_file,
	.fixture_store = up_fixture_store,
	.writes = up_writes,
	.plan = up_plan,
	.plan_auto = up_plan_auto,
	.defaults = up_defaults,
	.current = up_current,
	.order = up_order,
};
