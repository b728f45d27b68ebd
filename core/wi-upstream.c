/* Upstream weighted interleave (Linux 6.9+), Documentation/ABI/testing/
 * sysfs-kernel-mm-mempolicy-weighted-interleave. */
#include "wi.h"

#include "error.h"
#include "parse.h"

#include <stdio.h>
#include <string.h>

static int up_detect(const struct tt_sysfs *s, char *why, size_t size)
{
	if (tt_sysfs_exists(s, TT_WI_UPSTREAM_DIR))
		return 0;
	snprintf(why, size, "no %s (needs Linux 6.9+ with CONFIG_NUMA)", TT_WI_UPSTREAM_DIR);
	return TT_EUNAVAIL;
}

static int up_read(const struct tt_sysfs *s, const struct tt_topo *t, struct tt_wi_state *st)
{
	static const char *const mode_files[] = { "auto", "__auto_type" };
	char **names = NULL, buf[32];
	int rc;

	(void)t;
	rc = tt_sysfs_list(s, &names, TT_WI_UPSTREAM_DIR);
	if (rc < 0)
		return rc;
	for (char **p = names; *p; p++) {
		uint64_t node, w;

		if (strncmp(*p, "node", 4) != 0)
			continue;
		if (tt_parse_u64(*p + 4, 0, TT_MAX_NODES - 1, &node)) {
			rc = tt_err(TT_EINPUT, "unexpected file '%s' in '%s%s'", *p, s->root,
				    TT_WI_UPSTREAM_DIR);
			goto out;
		}
		/* 6.9-6.15 read 0 after a reset to the system default. */
		rc = tt_sysfs_read_u64(s, &w, 0, 255, TT_WI_UPSTREAM_DIR "/%s", *p);
		if (rc < 0)
			goto out;
		tt_weights_put(&st->node, (int)node, (uint32_t)w);
	}
	/* Kernels 6.16-6.18 built with the "auto" macro name the file
	 * __auto_type (fixed upstream by naming the attribute explicitly). */
	for (size_t i = 0; i < sizeof(mode_files) / sizeof(mode_files[0]); i++) {
		rc = tt_sysfs_read(s, buf, sizeof(buf), TT_WI_UPSTREAM_DIR "/%s", mode_files[i]);
		if (rc == TT_EUNAVAIL)
			continue;
		if (rc < 0)
			goto out;
		if (strcmp(buf, "true") && strcmp(buf, "false")) {
			rc = tt_err(TT_EINPUT, "mode '%s' in '%s%s/%s' is neither true nor false",
				    buf, s->root, TT_WI_UPSTREAM_DIR, mode_files[i]);
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
				      TT_WI_UPSTREAM_DIR, node);
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
		rc = tt_sysfs_write(s, buf, TT_WI_UPSTREAM_DIR "/node%d", node);
		if (rc < 0)
			return rc;
	}
	if (want->auto_mode >= 0 && want->auto_file[0]) {
		rc = tt_sysfs_write(s, want->auto_mode ? "1" : "0", TT_WI_UPSTREAM_DIR "/%s",
				    want->auto_file);
		if (rc < 0)
			return rc;
	}
	return 0;
}

const struct tt_wi_backend tt_wi_upstream = {
	.name = "upstream",
	.summary = "global per-node weights, MPOL_WEIGHTED_INTERLEAVE (Linux 6.9+)",
	.min_weight = 1,
	.max_weight = 255,
	.unit = "node",
	.per_source = false,
	.detect = up_detect,
	.read = up_read,
	.validate = up_validate,
	.write = up_write,
};
