/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Shared pieces of the tiertune commands: the command table, the options
 * every command takes, error reporting and exit codes, JSON output. Only
 * cli/ prints; everything it calls returns a status and a message.
 */
#ifndef TT_CLI_H
#define TT_CLI_H

#include "options.h"

#include "../core/bitmap.h"
#include "../core/error.h"
#include "../core/sysfs.h"
#include "../core/version.h"
#include "../db/json.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct tt_cmd;
struct tt_db;
struct tt_topo;

struct tt_cli {
	const char *sysfs_root;	  /* --sysfs-root, default "/" */
	bool sysfs_root_given;	  /* --sysfs-root was given, before or after the command */
	const char *db_path;	  /* --db, NULL: tt_db_default_path() */
	bool json;		  /* --json */
	struct tt_sysfs sfs;	  /* opened by cli_open_root() */
	char cmdline[4096];	  /* the whole command line, for the run record */
	int dashdash;		  /* positional arguments before "--" (cli_parse); -1: no "--" */
	const struct tt_cmd *cmd; /* the command running (run_builtin) */
	struct tt_topo *topo;	  /* its topology, opened by cli_setup (CLI_TOPO) */
	struct tt_db *db;	  /* its database, opened by cli_setup (CLI_DB) */
};

/* What a command needs opened before its work, declared in its descriptor
 * (as git's RUN_SETUP | NEED_WORK_TREE). The command's own --sysfs-root and
 * --db may follow its name, so the opening waits for its options: the
 * command calls cli_setup once they are parsed and checked (a usage error
 * comes before a missing root or database, as it always has), cli_setup
 * opens what the descriptor declares, and run_builtin (tiertune.c) closes
 * it after the command returns. A need that depends on an option (bench's
 * --record, export's --run, restore's topology after a journal) is opened
 * where the option asks for it. */
enum cli_need {
	CLI_ROOT = 1 << 0,	      /* --sysfs-root opened: cli->sfs */
	CLI_TOPO = 1 << 1 | CLI_ROOT, /* and its topology loaded: cli->topo */
	CLI_DB = 1 << 2,	      /* the results database, read-only: cli->db */
	/* Not warned of a journal a killed tiertune left: restore puts it
	 * back itself and says so; help reads nothing of the machine. */
	CLI_RECOVERS = 1 << 3,
	CLI_NO_MACHINE = 1 << 4,
};

struct tt_cmd {
	const char *name;
	int (*run)(struct tt_cli *cli, int argc, char **argv);
	unsigned int needs;  /* enum cli_need: what cli_setup opens for it */
	const char *args;    /* positional arguments in the usage line ("RUN"), or NULL */
	const char *summary; /* what it does: its first sentence is the overview's line */
	bool json;	     /* prints JSON with --json (docs/json.md); else --json is refused */
};

/* NULL-terminated. To add a command: 1. write cli/cmd-<name>.c with its
 * run function, which declares its options in a struct cli_opt table,
 * calls cli_parse, checks what the table cannot, then calls cli_setup and
 * works on cli->topo, cli->db (the Makefile builds every file in cli/);
 * 2. declare it here; 3. add its descriptor to tt_commands in tiertune.c
 * (name, run, needs, args, summary, json); 4. describe it in docs/tiertune.1
 * (t0013 holds the man page to every option and choice). */
extern const struct tt_cmd tt_commands[];

int cmd_topo(struct tt_cli *cli, int argc, char **argv);
int cmd_simulate(struct tt_cli *cli, int argc, char **argv);
int cmd_bench(struct tt_cli *cli, int argc, char **argv);
int cmd_auto(struct tt_cli *cli, int argc, char **argv);
int cmd_sweep(struct tt_cli *cli, int argc, char **argv);
int cmd_plot(struct tt_cli *cli, int argc, char **argv);
int cmd_runs(struct tt_cli *cli, int argc, char **argv);
int cmd_show(struct tt_cli *cli, int argc, char **argv);
int cmd_db(struct tt_cli *cli, int argc, char **argv);
int cmd_apply(struct tt_cli *cli, int argc, char **argv);
int cmd_restore(struct tt_cli *cli, int argc, char **argv);
int cmd_export(struct tt_cli *cli, int argc, char **argv);
int cmd_run(struct tt_cli *cli, int argc, char **argv);
int cmd_capture(struct tt_cli *cli, int argc, char **argv);
int cmd_collectors(struct tt_cli *cli, int argc, char **argv);
int cmd_help(struct tt_cli *cli, int argc, char **argv);
int cmd_rebalance(struct tt_cli *cli, int argc, char **argv);
int cmd_probe(struct tt_cli *cli, int argc, char **argv);

/* The release and commit this binary was built from (tiertune --version). */
extern const char cli_version[];

/* The overview: every command with the first sentence of its summary. */
void cli_overview(FILE *f);

const struct tt_cmd *cli_find_command(const char *name);

/* Opens what the running command's descriptor needs (enum cli_need) that
 * is not open yet; returns 0 or an exit code (the error printed: the same
 * as cli_load_topo's and cli_open_db's). cli_release closes it all. */
int cli_setup(struct tt_cli *cli);
void cli_release(struct tt_cli *cli);

/* Opens --sysfs-root; returns 0 or an exit code. */
int cli_open_root(struct tt_cli *cli);
struct tt_topo;
/* Opens --sysfs-root and loads its topology; returns 0 or an exit code
 * (the error printed). */
int cli_load_topo(struct tt_cli *cli, struct tt_topo *t);
/* The same into cli->topo, once (cli_release frees it): what a command's
 * descriptor asks with CLI_TOPO, or its own check before the options'. */
int cli_topo(struct tt_cli *cli);
/* export's format names, one a line (shell completion). */
void cli_export_formats(FILE *f);

struct tt_weights;
/* Weights 'auto': the kernel's auto-mode formula on the root's HMAT access1
 * bandwidth (TT_EUNAVAIL, said so, without it). */
int cli_weights_auto(struct tt_cli *cli, const struct tt_topo *t, struct tt_weights *w);
/* A --weights or --tier-weights argument as typed weights, read once here
 * and carried typed to the write: "auto" where the option takes it,
 * cli_weights_auto's; else the text's (TT_EINPUT naming the option). */
enum cli_weights_kind {
	CLI_NODE_WEIGHTS,	  /* --weights N:W,... */
	CLI_NODE_WEIGHTS_OR_AUTO, /* --weights N:W,...|auto (apply, export, rebalance) */
	CLI_TIER_WEIGHTS,	  /* --tier-weights TIER:W,... */
};
int cli_weights_read(struct tt_cli *cli, const struct tt_topo *t, const char *arg,
		     enum cli_weights_kind kind, struct tt_weights *w);

struct tt_wi_backend;
/* --interface NAME, or the first weight interface of the table this
 * kernel has (tt_wi_pick); a library status, not an exit code. */
int cli_pick_interface(struct tt_cli *cli, const char *name, const struct tt_wi_backend **be);
/* --interface's argument for help: the table's names joined by '|', then
 * extra (NULL: nothing), in buf. */
const char *cli_interfaces(char *buf, size_t size, const char *extra);

/* The weights a command is to bring about: --weights (node weights), a
 * profile, or run RUN's recommendation (checked against this machine unless
 * force), merged into node weights for be (node-keyed), and the source
 * node they were tuned for (-1: none said). tiertune run and rebalance. */
struct cli_target {
	const char *weights, *profile;
	int64_t run, source; /* run > 0: that run; source -1: not given */
	bool force;
	bool weights_auto; /* --weights auto: the kernel's formula (rebalance) */
};
int cli_target_weights(struct tt_cli *cli, const struct cli_target *a, const struct tt_topo *t,
		       const struct tt_wi_backend *be, struct tt_weights *w, int *src);

/* tiertune rebalance's work (cmd-rebalance.c), which tiertune run
 * --rebalance-after does on the program it launched: the shares of w for
 * process pid, a dry run unless move. Returns an exit code (printed). */
struct cli_rebalance_opts {
	bool move, move_all, no_record;
	double tolerance_pct; /* percentage points of the total per node */
	double rate_mib_s;    /* 0: no limit */
	uint32_t batch;	      /* pages (units) per move_pages call */
	int rounds;
	int order; /* enum tt_rb_order */
};
int cli_rebalance(struct tt_cli *cli, const struct tt_topo *t, int pid, const struct tt_weights *w,
		  const struct cli_rebalance_opts *o);

/* rebalance --damon (rebalance-damon.c): the shares kept by DAMON. */
struct cli_damon_opts {
	bool keep;	/* leave it running after the first report */
	double seconds; /* report for this long, then remove it; <= 0: until a signal */
	double every;	/* seconds between reports */
};
int cli_rebalance_damon(struct tt_cli *cli, const struct tt_weights *w,
			const struct cli_damon_opts *o);
/* --damon-stop: removes the set a --damon-keep left, and nothing else. */
int cli_rebalance_damon_stop(struct tt_cli *cli);

struct tt_db;
/* Opens --db (or the default path) with tt_db_open() flags; warns when
 * runs were found interrupted. Returns 0 or an exit code (error printed). */
int cli_open_db(struct tt_cli *cli, unsigned int flags, struct tt_db **db);
/* The same returning a library status, for callers that report it. */
int cli_db(struct tt_cli *cli, unsigned int flags, struct tt_db **db);

struct tt_writer_req;
/* The one write path's CLI side (write-out.c): the CLI's hooks in rq
 * (its warnings, the database) and rq->sfs; cli_write runs rq through
 * the writer and prints the result as text or JSON (a library status).
 * cli_recover_first puts back a journal left by a killed tiertune, saying
 * so (auto's trials, before they hold weights). */
void cli_write_hooks(struct tt_cli *cli, struct tt_writer_req *rq);
int cli_write(struct tt_cli *cli, struct tt_writer_req *rq);
/* The same, the result kept for the caller (run --apply's held change,
 * tt_writer_unhold); release it either way. */
struct tt_writer_result;
int cli_write_keep(struct tt_cli *cli, struct tt_writer_req *rq, struct tt_writer_result *res);
int cli_recover_first(struct tt_cli *cli);

/* What this host's launchers take (launchers.c), asked of them when a
 * recipe or an export is printed: whether numactl has
 * --weighted-interleave (2.0.19+; why not, in why: none in PATH, or its
 * version); whether systemd takes NUMAPolicy=weighted-interleave (1, 0,
 * or -1 when there is no systemd-analyze to ask; its version line in
 * version, "" without). */
bool cli_numactl_weighted(char *why, size_t size);
int cli_systemd_weighted(char *version, size_t size);

/* prefix and msg as one line on stderr, msg's control characters
 * escaped; wrapped between words at a terminal (cli_term_width). */
void cli_say(const char *prefix, const char *msg);
/* Prints "tiertune: error: <message>" (and a hint line) to stderr and
 * returns the exit code for status. */
int cli_fail(int status);
/* A usage error: prints the message and returns 2. */
int cli_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* An option's number: "option '--pages' value 'x' is not a number (1-...)". */
int cli_number(const char *opt, const char *arg, uint64_t min, uint64_t max, uint64_t *out);

/* a as a shell takes it back: as is when plain, else in single quotes. */
void cli_shell_quote(FILE *f, const char *a);
/* The options before the command that a follow-up command must repeat to
 * mean the same database and root ("--db 'my db' --sysfs-root DIR "), "" for
 * the defaults; printed hints start "tiertune <this>COMMAND". */
int cli_global_options(const struct tt_cli *cli, char *buf, size_t size);
/* A database time (Unix seconds) as local "YYYY-mm-dd HH:MM:SS", "-" for none. */
void cli_when(double t, char *buf, size_t size);
/* A string field of a database row, "-" when null or absent. */
const char *cli_str(json_t *row, const char *key);

/* Writes out through write(ctx, f) on a temp file beside it, renamed into
 * place when whole (a reader never sees half); a library status. A symbolic
 * link is followed (the link stays); a device, FIFO or terminal is written
 * in place, never replaced by a regular file. */
int cli_write_file(const char *out, int (*write)(void *ctx, FILE *f), void *ctx);
/* The same for a file another user reads (a Prometheus textfile): 0644
 * whatever the umask, and a symbolic link at out replaced, not followed. */
int cli_write_textfile(const char *out, int (*write)(void *ctx, FILE *f), void *ctx);

/* Prints and frees a JSON document (an object), "schema_version" first;
 * returns 0 or an exit code. */
int cli_print_json(json_t *root);

#endif
