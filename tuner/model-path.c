// SPDX-License-Identifier: GPL-3.0-or-later
/* Model names to files (model-path.h). */
#include "model-path.h"

#include "../core/error.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

const char *tt_datadir(void)
{
	const char *env = getenv("TIERTUNE_DATADIR");

	return env && *env ? env : TT_DATADIR;
}

int tt_model_find(const char *arg, char *out, size_t size)
{
	/* A checkout's models first: a developer running from the source tree
	 * gets the models of that tree, not those of an older install. */
	const char *datadir = tt_datadir();
	bool json = strlen(arg) > 5 && strcmp(arg + strlen(arg) - 5, ".json") == 0;

	if (snprintf(out, size, "%s", arg) >= (int)size)
		return tt_err(TT_EINPUT, "model '%.64s...' is too long a name", arg);
	/* A path, or a name that is a file here, is the user's: tt_model_load
	 * says what is wrong with it. */
	if (strchr(arg, '/') || is_file(arg) || !*arg)
		return 0;
	for (int i = 0; i < 2; i++) {
		int n = snprintf(out, size, "%s%s/%s%s", i ? datadir : "tuner/models",
				 i ? "/models" : "", arg, json ? "" : ".json");

		if (n > 0 && n < (int)size && is_file(out))
			return 0;
	}
	snprintf(out, size, "%s", arg);
	tt_err(TT_EINPUT,
	       "no model '%s': not a file here, nor %s%s in ./tuner/models/ or %s/models/", arg,
	       arg, json ? "" : ".json", datadir);
	tt_err_hint("a model is a file (--model FILE.json) or the name of one in ./tuner/models/ "
		    "or %s/models/ (ls %s/models)",
		    datadir, datadir);
	return TT_EINPUT;
}
