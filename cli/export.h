/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tiertune export's shared parts, internal to cli/: what an export is made
 * from (struct export, filled by cmd-export.c), the comment line every
 * format opens with, and the interface's writes for a recommendation. The
 * formats too long to sit in cmd-export.c have files of their own:
 * export-launch.c (numactl, a systemd drop-in), export-prom.c (the
 * metrics textfile). */
#ifndef TT_CLI_EXPORT_H
#define TT_CLI_EXPORT_H

#include "cli.h"

#include "../writer/recos.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

struct export
{
	struct tt_cli *cli;
	const struct tt_topo *t;
	struct tt_recos rs; /* as recommended */
	int nbe;
	const struct tt_wi_backend *be[8]; /* interfaces to write for, in table order */
	int source;			   /* -1: all */
	json_t *run;			   /* csv: the run with its trials */
	const char *profile;		   /* --profile FILE, or NULL */
	const char *profile_error;	   /* prometheus: why the profile is bad, or NULL */
	char **command;			   /* systemd: the service's command after "--" */
	int ncommand;
};

/* One comment line in every format (the host and run, or the profile,
 * escaped). */
const char *cli_export_header(const struct export *e);
/* A format's line for one write: first is the first write to this file
 * (a per-source interface writes a file once per source). */
typedef void (*write_fn)(FILE *f, const struct tt_wi_backend *be, const char *file,
			 const char *value, bool first, bool implied);
/* The interface's writes for the recommendations (its backend's writes
 * hook): one merged vector for an interface that is not per source, a
 * vector per source otherwise, each through fn. */
int cli_export_each_write(const struct export *e, const struct tt_wi_backend *be, FILE *f,
			  write_fn fn);

/* One vector's writes on be, as it would write them (no sysfs read: the
 * numactl line's comment), each through fn. */
int cli_export_writes(const struct tt_wi_backend *be, const struct tt_topo *t,
		      const struct tt_weights *w, FILE *f, write_fn fn);
/* A command for a unit's ExecStart= (export ... -- COMMAND ARGS): refused
 * (TT_EINPUT naming the word) when a word holds a control character. */
int cli_export_command_ok(char **words, int n);

/* The formats with files of their own: each writes its text to f. */
int cli_export_numactl(const struct export *e, FILE *f);
int cli_export_systemd(const struct export *e, FILE *f);
int cli_export_prometheus(const struct export *e, FILE *f);

#endif
