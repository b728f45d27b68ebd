// SPDX-License-Identifier: GPL-3.0-or-later
/* tiertop's edits without a terminal, for the kill and fault sweeps
 * (tests/cli/kill.sh) and t0008: top-edit ROOT ACTION... runs each action
 * in turn, in one process as one tiertop session does, through tui/top.c's
 * own tt_top_write_weight ('w N:W') and tt_top_undo ('u'), as the screen
 * calls them. Prints each message line; exit 1 at the first failure (its
 * message on stderr), 2 for bad usage. */
#include "../../core/error.h"
#include "../../core/root.h"
#include "../../tui/tui.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	struct tt_top top;
	char why[256];
	int rc;

	if (argc < 3)
		return fprintf(stderr, "usage: top-edit ROOT (w N:W | u)...\n"), 2;
	memset(&top, 0, sizeof(top));
	top.interval_s = 1;
	top.source_node = -1;
	tt_wi_state_init(&top.wi);
	rc = tt_root_open(&top.sfs, argv[1]);
	if (rc == 0)
		rc = tt_topo_load(&top.topo, &top.sfs);
	if (rc == 0)
		rc = tt_wi_first(&top.sfs, &top.be, why, sizeof(why));
	if (rc == 0)
		rc = top.be->read(&top.sfs, &top.topo, &top.wi);
	for (int i = 0; i < top.topo.nnodes && top.source_node < 0; i++)
		if (top.topo.nodes[i].has_cpu)
			top.source_node = top.topo.nodes[i].id;
	for (int i = 2; i < argc && rc == 0; i++) {
		if (strcmp(argv[i], "u") == 0) {
			rc = tt_top_undo(&top);
		} else if (strcmp(argv[i], "w") == 0 && i + 1 < argc) {
			rc = tt_top_write_weight(&top, argv[++i]);
		} else {
			fprintf(stderr, "top-edit: unknown action '%s'\n", argv[i]);
			return 2;
		}
		if (rc == 0)
			printf("%s\n", top.message);
	}
	if (rc < 0)
		fprintf(stderr, "top-edit: %s\n", tt_err_msg());
	tt_wi_state_release(&top.wi);
	if (top.topo.nnodes)
		tt_topo_release(&top.topo);
	return rc < 0;
}
