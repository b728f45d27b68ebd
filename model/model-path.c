// SPDX-License-Identifier: GPL-3.0-or-later
/* Model names to files (model-path.h). */
#include "model-path.h"

#include "../core/error.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* The models of the source tree this binary was built in, wherever it is
 * run from: a binary in BUILD/ of a checkout (build/tiertune,
 * build-asan/tiertune) has them in BUILD/../model/machines/. Empty for an
 * installed binary (no model/machines/ beside its folder). */
static void tree_models(char *dir, size_t size)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;
	struct stat st;

	dir[0] = '\0';
	if (n <= 0)
		return;
	exe[n] = '\0';
	for (int up = 0; up < 2 && (slash = strrchr(exe, '/')); up++)
		*slash = '\0'; /* the binary's name, then its folder */
	if (snprintf(dir, size, "%s/model/machines", exe) >= (int)size || stat(dir, &st) != 0 ||
	    !S_ISDIR(st.st_mode))
		dir[0] = '\0';
}

int tt_model_find(const char *arg, char *out, size_t size)
{
	/* A checkout's models first: a developer running the tree's binary
	 * gets the models of that tree, not those of an older install. */
	const char *datadir = tt_datadir();
	bool json = strlen(arg) > 5 && strcmp(arg + strlen(arg) - 5, ".json") == 0;
	char tree[4096];

	if (snprintf(out, size, "%s", arg) >= (int)size)
		return tt_err(TT_EINPUT, "model '%.64s...' is too long a name", arg);
	/* A path, or a name that is a file here, is the user's: tt_model_load
	 * says what is wrong with it. */
	if (strchr(arg, '/') || is_file(arg) || !*arg)
		return 0;
	tree_models(tree, sizeof(tree));
	for (int i = 0; i < 2; i++) {
		int n = snprintf(out, size, "%s%s/%s%s", i ? datadir : tree, i ? "/models" : "",
				 arg, json ? "" : ".json");

		if ((i || tree[0]) && n > 0 && n < (int)size && is_file(out))
			return 0;
	}
	snprintf(out, size, "%s", arg);
	tt_err(TT_EINPUT, "no model '%s': not a file here, nor %s%s in %s%s%s/models/", arg, arg,
	       json ? "" : ".json", tree, tree[0] ? "/ or " : "", datadir);
	tt_err_hint("a model is a file (--model FILE.json) or the name of one in %s%s%s/models/ "
		    "(ls %s/models)",
		    tree, tree[0] ? "/ or " : "", datadir, datadir);
	return TT_EINPUT;
}

void tt_model_names(void (*fn)(const char *name, void *ctx), void *ctx)
{
	char dirs[2][4096];

	tree_models(dirs[0], sizeof(dirs[0]));
	snprintf(dirs[1], sizeof(dirs[1]), "%s/models", tt_datadir());
	for (int i = 0; i < 2; i++) {
		DIR *d = dirs[i][0] ? opendir(dirs[i]) : NULL;
		struct dirent *e;

		while (d && (e = readdir(d))) {
			size_t n = strlen(e->d_name);
			char name[256];

			if (n > 5 && n < sizeof(name) && !strcmp(e->d_name + n - 5, ".json")) {
				snprintf(name, sizeof(name), "%.*s", (int)(n - 5), e->d_name);
				fn(name, ctx);
			}
		}
		if (d)
			closedir(d);
	}
}
