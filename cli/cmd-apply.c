// SPDX-License-Identifier: GPL-3.0-or-later
/* tiertune apply: write weights typed, recorded with a run or in a
 * profile, through the one write path (writer/writer.h), which records
 * what changed in the database through the CLI's hooks (write-out.c). */
#include "cli.h"

#include "../writer/writer.h"

#include <stdio.h>
#include <string.h>

struct apply_args {
	const char *weights, *tier_weights, *profile, *interface;
	int64_t run, source;
	bool force, all_sources, dry_run;
};

static int apply(struct tt_cli *cli, const struct apply_args *a)
{
	struct tt_writer_req rq = {
		.kind = TT_WRITER_APPLY,
		.from = a->weights || a->tier_weights ? TT_WRITER_WEIGHTS
			: a->profile		      ? TT_WRITER_PROFILE
						      : TT_WRITER_RUN,
		.run_id = a->run,
		.profile = a->profile,
		.source = (int)a->source,
		.all_sources = a->all_sources,
		.force = a->force,
		.dry_run = a->dry_run,
	};
	struct tt_topo *t;
	struct tt_weights w, tw;
	int rc = cli_setup(cli);

	if (rc)
		return rc;
	t = cli->topo;
	rq.topo = t;
	rc = cli_pick_interface(cli, a->interface, &rq.be);
	/* --weights auto: the kernel's formula on this machine's HMAT figures. */
	if (rc == 0 && a->weights &&
	    (rc = cli_weights_read(cli, t, a->weights, CLI_NODE_WEIGHTS_OR_AUTO, &w)) == 0)
		rq.weights = &w;
	if (rc == 0 && a->tier_weights &&
	    (rc = cli_weights_read(cli, t, a->tier_weights, CLI_TIER_WEIGHTS, &tw)) == 0)
		rq.tier_weights = &tw;
	if (rc == 0)
		rc = cli_write(cli, &rq);
	return rc < 0 ? cli_fail(rc) : rc;
}

int cmd_apply(struct tt_cli *cli, int argc, char **argv)
{
	struct apply_args a = { .source = -1, .run = -1 };
	char ifaces[256];
	struct cli_opt opts[] = {
		CLI_STRING(
			"weights", &a.weights, "N:W,...|auto",
			"per-node weights (upstream 1-255; RFC: per node, turned into tier "
			"weights for --source-node), or 'auto' for the kernel's auto-mode formula "
			"on the HMAT figures (for kernels without auto mode)"),
		CLI_STRING(
			"tier-weights", &a.tier_weights, "TIER:W,...",
			"per-tier weights: RFC 0-100 for --source-node; upstream, split over the "
			"tier's nodes"),
		CLI_I64("run", &a.run, "RUN", "the recommendation recorded with run RUN", 1,
			INT64_MAX),
		CLI_STRING("profile", &a.profile, "FILE",
			   "a profile from 'export --format json' (its hardware fingerprint must "
			   "match this host's unless --force)"),
		CLI_FLAG("force", &a.force, "apply a profile or run from other hardware"),
		CLI_SOURCE_NODE(&a.source,
				"the source node whose recommendation to apply (RFC: whose "
				"tier weights to write)"),
		CLI_FLAG("all-sources", &a.all_sources,
			 "every source node's recommendation (upstream: merged, refused where they "
			 "disagree)"),
		CLI_STRING("interface", &a.interface, cli_interfaces(ifaces, sizeof(ifaces), NULL),
			   "the kernel interface to write (default: the one this kernel has)"),
		CLI_FLAG("dry-run", &a.dry_run,
			 "show the plan (old -> new per file), write nothing"),
		CLI_END,
	};
	static const struct tt_opt_rule rules[] = {
		{ .kind = TT_OPT_ONE_OF,
		  .terms = { "weights", "tier-weights", "run", "profile" },
		  .message = "apply needs exactly one of --weights, --tier-weights, --run, "
			     "--profile" },
		{ .kind = TT_OPT_EXCLUDES, .terms = { "source-node", "all-sources" } },
		{ .kind = TT_OPT_RULE_END },
	};
	int nargs, rc = cli_parse_rules(cli, cli_find_command("apply"), opts, rules, argc, argv,
					&nargs);

	if (rc >= 0)
		return rc;
	return apply(cli, &a);
}
