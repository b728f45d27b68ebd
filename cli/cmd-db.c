// SPDX-License-Identifier: GPL-3.0-or-later
/* tiertune db check | migrate | merge FILE...: look after the database itself. */
#include "cli.h"

#include "../db/db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check(struct tt_cli *cli, struct tt_db *db)
{
	char problem[1024];
	int version, rc = tt_db_check(db, &version, problem, sizeof(problem));

	if (rc < 0)
		return cli_fail(rc);
	if (cli->json) {
		rc = cli_print_json(json_pack("{s:s,s:i,s:i,s:b,s:s?}", "path", tt_db_path(db),
					      "db_schema_version", version, "db_schema_supported",
					      TT_DB_SCHEMA_VERSION, "ok", !problem[0], "problem",
					      problem[0] ? problem : NULL));
		return rc ? rc : problem[0] ? 1 : 0;
	}
	if (problem[0]) {
		fprintf(stderr, "tiertune: error: database '%s' failed its check: %s\n",
			tt_db_path(db), problem);
		return 1;
	}
	printf("database '%s': schema version %d, integrity ok, foreign keys ok\n", tt_db_path(db),
	       version);
	return 0;
}

/* Opening it for writing has brought it to this build's schema. */
static int migrated(struct tt_cli *cli, struct tt_db *db)
{
	if (cli->json)
		return cli_print_json(json_pack("{s:s,s:i}", "path", tt_db_path(db),
						"db_schema_version", TT_DB_SCHEMA_VERSION));
	printf("database '%s': schema version %d\n", tt_db_path(db), TT_DB_SCHEMA_VERSION);
	return 0;
}

static int merge(struct tt_cli *cli, struct tt_db *db, int n, char **files)
{
	struct tt_db_merge_stats *stats = calloc((size_t)n, sizeof(*stats));
	json_t *out = cli->json ? json_array() : NULL;
	int rc;

	if (!stats)
		return cli_fail(tt_err(TT_EFAIL, "out of memory"));
	rc = tt_db_merge(db, files, n, stats);
	if (rc < 0) {
		free(stats);
		json_decref(out);
		return cli_fail(rc);
	}
	for (int i = 0; i < n; i++) {
		const struct tt_db_merge_stats *st = &stats[i];

		if (out)
			json_array_append_new(
				out,
				json_pack("{s:s,s:i,s:i,s:i,s:I,s:I,s:I}", "file", files[i],
					  "hosts_added", st->hosts_added, "runs_added",
					  st->runs_added, "runs_already_present", st->runs_skipped,
					  "trials_added", (json_int_t)st->trials_added,
					  "samples_added", (json_int_t)st->samples_added,
					  "applies_added", (json_int_t)st->applies_added));
		else
			printf("%s: %d host%s, %d run%s added (%d already present), %jd trials, "
			       "%jd "
			       "samples, %jd apply-log rows\n",
			       files[i], st->hosts_added, st->hosts_added == 1 ? "" : "s",
			       st->runs_added, st->runs_added == 1 ? "" : "s", st->runs_skipped,
			       (intmax_t)st->trials_added, (intmax_t)st->samples_added,
			       (intmax_t)st->applies_added);
	}
	free(stats);
	return out ? cli_print_json(json_pack("{s:o}", "merged", out)) : 0;
}

int cmd_db(struct tt_cli *cli, int argc, char **argv)
{
	struct cli_opt opts[] = { CLI_END };
	struct tt_db *db;
	const char *what;
	int nargs, rc = cli_parse(cli, cli_find_command("db"), opts, argc, argv, &nargs);

	if (rc >= 0)
		return rc;
	if (nargs == 0)
		return cli_usage("db needs 'check', 'migrate' or 'merge FILE...'");
	what = argv[0];
	if (strcmp(what, "check") == 0 || strcmp(what, "migrate") == 0) {
		if (nargs > 1)
			return cli_usage("db %s takes no argument, got '%s'", what, argv[1]);
	} else if (strcmp(what, "merge") == 0) {
		if (nargs < 2)
			return cli_usage("db merge needs at least one database file");
	} else {
		return cli_usage("unknown db action '%s' (check, migrate, merge)", what);
	}
	rc = cli_open_db(cli, what[0] == 'c' ? TT_DB_READONLY : 0, &db);
	if (rc)
		return rc;
	rc = what[0] == 'c'   ? check(cli, db)
	     : what[1] == 'i' ? migrated(cli, db)
			      : merge(cli, db, nargs - 1, argv + 1);
	tt_db_close(db);
	return rc;
}
