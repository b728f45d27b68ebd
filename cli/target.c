// SPDX-License-Identifier: GPL-3.0-or-later
/* The weights a command is to bring about (cli.h: cli_target_weights), for
 * tiertune run and rebalance. */
#include "cli.h"

#include "../core/topo.h"
#include "../core/wi.h"
#include "../db/db.h"
#include "../writer/recos.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

int cli_target_weights(struct tt_cli *cli, const struct cli_target *a, const struct tt_topo *t,
		       const struct tt_wi_backend *be, struct tt_weights *w, int *src)
{
	struct tt_recos rs;
	char what[4200] = "--weights";
	int rc;

	memset(&rs, 0, sizeof(rs));
	if (a->weights) {
		struct tt_weights typed;

		rc = cli_weights_read(cli, t, a->weights,
				      a->weights_auto ? CLI_NODE_WEIGHTS_OR_AUTO : CLI_NODE_WEIGHTS,
				      &typed);
		if (rc == 0)
			rc = tt_recos_from_args(&typed, NULL, (int)a->source, NULL, &rs);
	} else if (a->profile) {
		snprintf(what, sizeof(what), "profile '%s'", a->profile);
		rc = tt_recos_from_profile(a->profile, &rs);
	} else {
		struct tt_db *db;

		snprintf(what, sizeof(what), "run %jd", (intmax_t)a->run);
		rc = cli_db(cli, TT_DB_READONLY, &db);
		if (rc == 0) {
			rc = tt_recos_from_run(db, a->run, &rs);
			tt_db_close(db);
		}
		if (rc == 0 && !rs.n && rs.nactions)
			return tt_err(TT_EINPUT,
				      "run %jd recommends %s for source node %d: no weights to run "
				      "under",
				      (intmax_t)a->run, tt_recos_action_says(rs.actions[0].action),
				      rs.actions[0].source_node);
	}
	if (rc == 0 && !a->weights)
		rc = tt_recos_check_present(&rs, t, what);
	if (rc == 0 && !a->weights)
		rc = tt_recos_check_machine(&rs, t, a->force, what);
	if (rc == 0)
		rc = tt_recos_convert(&rs, t, be);
	if (rc == 0)
		rc = tt_recos_merged(&rs, be, (int)a->source, w);
	*src = (int)a->source;
	/* The source the recommendation was found for, when it names one. */
	for (int i = 0; rc == 0 && *src < 0 && i < rs.n; i++)
		if (rs.r[i].source_node >= 0 && (rs.n == 1 || a->source < 0))
			*src = rs.r[i].source_node;
	return rc;
}
