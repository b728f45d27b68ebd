// SPDX-License-Identifier: GPL-3.0-or-later
/* tt_model_write: any file is an auto report or an error naming it, never a
 * crash; what it accepts reads back as a simulated model of the machine,
 * every node labelled. The machine is the qemu-3node-hmat fixture (under
 * $TT_TOP, else the working folder), whose fingerprint the seed report
 * (seeds/model-write/auto-report-qemu-3node-hmat.json) carries. */
#include "../../core/error.h"
#include "../../core/topo.h"
#include "../../model/model-write.h"
#include "../../model/model.h"
#include "fuzz.h"

#include <assert.h>
#include <stdio.h>

static struct tt_topo *machine(void)
{
	static struct tt_topo t;
	static struct tt_sysfs s;
	static int loaded;
	const char *top = getenv("TT_TOP");
	char root[4096];

	if (!loaded) {
		snprintf(root, sizeof(root), "%s/tests/fixtures/sysfs/qemu-3node-hmat",
			 top && *top ? top : ".");
		assert(tt_sysfs_init(&s, root) == 0 && tt_topo_load(&t, &s) == 0);
		loaded = 1;
	}
	return &t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct tt_model_write_opts o = { .name = "fuzz", .machine_sysfs = ".", .by = "fuzz" };
	char path[] = "/tmp/fuzz-model-write-XXXXXX", *text = NULL;
	const char *reports[] = { path };
	struct tt_topo *t = machine();
	int src = -1;

	if (fuzz_file(data, size, path) < 0)
		return 0;
	if (tt_model_write(&text, reports, 1, t, &o, &src) == 0) {
		struct tt_model *m = malloc(sizeof(*m));

		assert(text && m && tt_model_parse(m, text, "fuzz") == 0);
		assert(m->nsources == 1 && m->src[0].node == src);
		assert(strstr(text, "\"simulated\": true") && strstr(text, "\"figure_from\""));
		free(m);
		free(text);
	} else {
		assert(!text && strstr(tt_err_msg(), path));
	}
	unlink(path);
	return 0;
}
