// SPDX-License-Identifier: GPL-3.0-or-later
/* What sampling costs: every collector that works on this machine, plus
 * resctrl and the model read from fixture trees (this VM has neither; their
 * cost is file reads and arithmetic, the same on a fixture), read at 10 Hz
 * for SECONDS (default 10) on the sampler's thread, whose CPU time is then
 * printed as a share of one core, in total and per tick. The target:
 * six collectors under 0.5% of a core. Prints figures; not a test.
 *
 *	make perf  (or build/tests/perf-sampler-cost [SECONDS])
 */
#include "../../collectors/sampler.h"
#include "../../core/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 10;
	struct tt_sysfs sfs;
	struct tt_topo t;
	struct tt_collect_ctx ctx = { .sfs = &sfs, .topo = &t, .source_node = -1 };
	char list[512] = "", why[1024];
	struct tt_source **src;
	struct tt_sampler *s;
	int n, metrics = 0;

	if (tt_sysfs_init(&sfs, "/") < 0 || tt_topo_load(&t, &sfs) < 0)
		goto fail;
	for (const struct tt_collector *const *c = tt_collectors; *c; c++)
		if ((*c)->probe(&ctx, why, sizeof(why)) == 0)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 list[0] ? "," : "", (*c)->name);
	if (tt_collectors_open(&ctx, list, &src, &n) < 0)
		goto fail;
	/* resctrl on the SPR fixture, the model on the QEMU guest's. */
	struct tt_sysfs fs_spr, fs_qemu;
	struct tt_topo t_spr, t_qemu;
	struct tt_weights w;
	char root[1024];
	const char *top = getenv("TT_TOP") ? getenv("TT_TOP") : ".";
	struct tt_source **all = realloc(src, (size_t)(n + 2) * sizeof(*all));

	if (!all)
		goto fail;
	src = all;
	snprintf(root, sizeof(root), "%s/tests/fixtures/sysfs/spr-ddr5-2cxl", top);
	tt_weights_parse("0:3,1:1,2:1", &w);
	if (tt_sysfs_init(&fs_spr, root) == 0 && tt_topo_load(&t_spr, &fs_spr) == 0) {
		struct tt_collect_ctx c2 = { .sfs = &fs_spr, .topo = &t_spr, .source_node = -1 };

		if (tt_c_resctrl.open(&c2, &src[n]) == 0) {
			n++;
			strcat(list, ",resctrl (fixture)");
		}
	}
	snprintf(root, sizeof(root), "%s/tests/fixtures/sysfs/qemu-3node-hmat", top);
	if (tt_sysfs_init(&fs_qemu, root) == 0 && tt_topo_load(&t_qemu, &fs_qemu) == 0) {
		struct tt_collect_ctx c3 = {
			.sfs = &fs_qemu, .topo = &t_qemu, .source_node = -1, .weights = &w
		};

		if (tt_c_model.open(&c3, &src[n]) == 0) {
			n++;
			strcat(list, ",model (fixture)");
		}
	}
	if (tt_sampler_start(&s, src, n, 0.1, 1 << 16) < 0)
		goto fail;
	for (int i = 0; i < n; i++)
		metrics += src[i]->nmetrics;
	struct timespec ts = { (time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9) };
	nanosleep(&ts, NULL);
	tt_sampler_stop(s);
	double cpu = tt_sampler_cpu_s(s);
	uint64_t ticks = tt_sampler_ticks(s);
	printf("collectors sampled: %s (%d; %d metrics)\n", list, n, metrics);
	printf("sampled at 10 Hz for %.1f s: %ju ticks, sampler thread CPU %.4f s = %.3f%% of one "
	       "core, %.1f us per tick\n",
	       seconds, (uintmax_t)ticks, cpu, 100 * cpu / seconds,
	       ticks ? cpu * 1e6 / (double)ticks : 0);
	tt_sampler_free(s);
	tt_collectors_close(src, n);
	tt_topo_release(&t);
	return 0;
fail:
	fprintf(stderr, "perf-sampler-cost: %s\n", tt_err_msg());
	return 1;
}
