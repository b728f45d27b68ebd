/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Where a model named on the command line is: `--model spr-ddr5-2cxl`
 * works from a source checkout and from an installed copy alike.
 *
 *	char path[4096];
 *	if (tt_model_find("spr-ddr5-2cxl", path, sizeof(path)) < 0) ...
 *	tt_model_load(&m, path);
 */
#ifndef TT_MODEL_PATH_H
#define TT_MODEL_PATH_H

#include <stddef.h>

/* The data folder of an installed copy (the Makefile sets it from PREFIX:
 * $(PREFIX)/share/tiertune); its models are in models/, the machine trees
 * they name in machines/. */
#ifndef TT_DATADIR
#define TT_DATADIR "/usr/local/share/tiertune"
#endif

/* The data folder: $TIERTUNE_DATADIR (a relocated install, the tests), else
 * TT_DATADIR. */
const char *tt_datadir(void);
/* arg as given when it names a file (any path, or a name in the working
 * directory); else, for a bare name (no '/'), NAME or NAME.json in the
 * model/machines/ of the source tree the running binary was built in (its
 * folder's parent: build/tiertune, wherever it is run from), then in
 * TT_DATADIR/models/. TT_EINPUT naming arg and every place looked in when
 * none holds it. */
int tt_model_find(const char *arg, char *out, size_t size);
/* Calls fn with the name (no .json) of every model tt_model_find finds by
 * name, in the places it looks, in their order (a name twice when both hold
 * it): shell completion offers them. */
void tt_model_names(void (*fn)(const char *name, void *ctx), void *ctx);

#endif
