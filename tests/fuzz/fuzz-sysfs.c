// SPDX-License-Identifier: GPL-3.0-or-later
/* The sysfs readers on arbitrary file contents: the input becomes one file of
 * a minimal fixture tree (first byte picks which), then topology and both
 * weight interfaces are loaded from it. */
#define _GNU_SOURCE /* nftw */
#include "../../core/topo.h"
#include "../../core/wi.h"
#include "fuzz.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const files[] = {
	"sys/devices/system/node/online",
	"sys/devices/system/node/has_cpu",
	"sys/devices/system/node/node0/cpulist",
	"sys/devices/system/node/node0/meminfo",
	"sys/devices/system/node/node0/distance",
	"sys/devices/system/node/node0/access1/initiators/read_bandwidth",
	"sys/devices/virtual/memory_tiering/memory_tier4/nodelist",
	"sys/devices/virtual/memory_tiering/memory_tier4/interleave_weight",
	"sys/kernel/mm/mempolicy/weighted_interleave/node0",
	"sys/kernel/mm/mempolicy/weighted_interleave/auto",
};
static const char *const defaults[] = {
	"0\n",	"0\n",	  "0-1\n", "Node 0 MemTotal: 100 kB\nNode 0 MemFree: 50 kB\n",
	"10\n", "1000\n", "0\n",   "0:1\n",
	"1\n",	"true\n",
};
static char root[4096];

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* libFuzzer ends with exit(): the tree goes with the process. */
static void remove_root(void)
{
	nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void put(const char *rel, const char *data, size_t len)
{
	char path[sizeof(root) + 128];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	/* mkdir -p of the file's folder, one component at a time. */
	for (char *slash = strchr(path + strlen(root) + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(path, 0755) != 0 && errno != EEXIST)
			abort();
		*slash = '/';
	}
	FILE *f = fopen(path, "w");
	if (!f)
		abort();
	fwrite(data, 1, len, f);
	fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const size_t nfiles = sizeof(files) / sizeof(files[0]);
	struct tt_sysfs s;
	struct tt_topo t;

	if (size < 1)
		return 0;
	if (!root[0]) {
		const char *tmp = getenv("TMPDIR");

		snprintf(root, sizeof(root), "%s/tt-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(root))
			abort();
		atexit(remove_root);
		put("sys/devices/system/node/has_memory", "0\n", 2);
		put("sys/devices/system/node/node0/access1/initiators/write_bandwidth", "1000\n",
		    5);
		put("proc/sys/kernel/osrelease", "6.16.0\n", 7);
	}
	for (size_t i = 0; i < nfiles; i++)
		put(files[i], defaults[i], strlen(defaults[i]));
	put(files[data[0] % nfiles], (const char *)data + 1, size - 1);
	if (tt_sysfs_init(&s, root) == 0 && tt_topo_load(&t, &s) == 0) {
		for (const struct tt_wi_backend *const *b = tt_wi_backends; *b; b++) {
			struct tt_wi_state st;
			char why[256];

			tt_wi_state_init(&st);
			if ((*b)->detect(&s, why, sizeof(why)) == 0)
				(*b)->read(&s, &t, &st);
			tt_wi_state_release(&st);
		}
		tt_topo_release(&t);
	}
	return 0;
}
