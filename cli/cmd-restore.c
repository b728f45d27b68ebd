// SPDX-License-Identifier: GPL-3.0-or-later
/* tiertune restore: put back what the last apply replaced (from the
 * durable undo history), what a leftover journal holds, weight 1
 * everywhere, or the kernel's auto mode; through apply's transaction. */
#include "cli.h"

#include "../writer/apply.h"
#include "../core/state.h"
#include "../writer/writer.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* restore with no mode: a journal left by a crash first; when there is
 * none, or it belonged to a change that had finished, undo the last apply. */
static int restore_journal(struct tt_cli *cli, const char *state, const char *journal, bool dry_run,
			   bool explicit, bool *then_last)
{
	struct tt_recovery rec;
	int rc;

	*then_last = false;
	if (dry_run)
		return cli_usage("--dry-run does not go with a journal (read it: it is text)");
	rc = tt_apply_recover(state, journal, &cli->sfs, &rec);
	if (rc < 0)
		return cli_fail(rc);
	if (rec.committed && explicit) {
		/* A file the user named is theirs: put back from, never removed. */
		printf("journal '%s' belonged to a change that had finished: %s ('tiertune "
		       "restore --last' undoes that change)\n",
		       journal ? journal : "",
		       access(journal, F_OK) == 0 ? "nothing put back" : "removed");
		return 0;
	}
	if (rec.committed) {
		*then_last = true;
		return 0;
	}
	if (rec.aside[0])
		cli_warn("set the journal aside as '%s', kept for you to read: %s", rec.aside,
			 rec.aside_why);
	if (cli->json)
		return cli_print_json(json_pack("{s:s,s:s,s:i}", "action", "restore-journal",
						"journal", journal, "restored", rec.restored));
	printf("put back %d value%s from journal '%s'\n", rec.restored,
	       rec.restored == 1 ? "" : "s", journal);
	return 0;
}

enum restore_what { RESTORE_LAST = 1, RESTORE_JOURNAL, RESTORE_DEFAULTS, RESTORE_AUTO };

int cmd_restore(struct tt_cli *cli, int argc, char **argv)
{
	const char *journal = NULL, *interface = NULL;
	bool last = false, defaults = false, auto_mode = false, dry_run = false, force = false,
	     then_last;
	char ifaces[256];
	struct cli_opt opts[] = {
		CLI_FLAG("last", &last,
			 "undo the last apply of this root (the default when no journal is left); "
			 "refused if its files changed since, unless --force"),
		CLI_STRING("journal", &journal, "FILE", "put back what a journal holds"),
		CLI_FLAG("defaults", &defaults, "weight 1 everywhere"),
		CLI_FLAG("auto", &auto_mode, "the kernel's auto mode (upstream, Linux 6.16+)"),
		CLI_STRING("interface", &interface, cli_interfaces(ifaces, sizeof(ifaces), NULL),
			   "the kernel interface (default: the one this kernel has)"),
		CLI_FLAG("dry-run", &dry_run, "show the plan, write nothing"),
		CLI_FLAG("force", &force, "with --last: undo even where the files changed since"),
		CLI_END,
	};
	static const struct tt_opt_rule rules[] = {
		{ .kind = TT_OPT_AT_MOST_ONE,
		  .terms = { "last", "journal", "defaults", "auto" },
		  .message = "restore takes one of --last, --journal, --defaults, --auto" },
		{ .kind = TT_OPT_EXCLUDES,
		  .terms = { "force", "journal", "defaults", "auto" },
		  .message = "--force goes only with --last (or no mode)" },
		{ .kind = TT_OPT_RULE_END },
	};
	int nargs, rc = cli_parse_rules(cli, cli_find_command("restore"), opts, rules, argc, argv,
					&nargs);
	int what = last	       ? RESTORE_LAST
		   : journal   ? RESTORE_JOURNAL
		   : defaults  ? RESTORE_DEFAULTS
		   : auto_mode ? RESTORE_AUTO
			       : 0;
	char state[4096], left[4300];

	if (rc >= 0)
		return rc;
	if ((rc = cli_setup(cli)))
		return rc;
	if ((rc = tt_state_dir(TT_DIR_STATE, state, sizeof(state))) < 0)
		return cli_fail(rc);
	if (!what && tt_apply_leftover(state, left, sizeof(left)) == 1) {
		rc = restore_journal(cli, state, left, dry_run, false, &then_last);
		if (rc || !then_last)
			return rc;
		printf("the interrupted change had finished; undoing it\n");
	}
	if (!what)
		what = RESTORE_LAST;
	if (what == RESTORE_JOURNAL)
		return restore_journal(cli, state, journal, dry_run, true, &then_last);
	struct tt_writer_req rq = {
		.kind = TT_WRITER_RESTORE,
		.from = what == RESTORE_LAST	   ? TT_WRITER_LAST
			: what == RESTORE_DEFAULTS ? TT_WRITER_DEFAULTS
						   : TT_WRITER_AUTO_ON,
		.source = -1,
		.force = force,
		.dry_run = dry_run,
	};
	struct tt_topo t;

	rc = cli_load_topo(cli, &t);
	if (rc)
		return rc;
	rq.topo = &t;
	/* --last undoes on the interface its apply used (the history says
	 * which: tt_apply_plan_last), whichever this kernel lists first. */
	if (what != RESTORE_LAST || interface)
		rc = cli_pick_interface(cli, interface, &rq.be);
	if (rc == 0)
		rc = cli_write(cli, &rq);
	tt_topo_release(&t);
	return rc < 0 ? cli_fail(rc) : rc;
}
