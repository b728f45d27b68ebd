// SPDX-License-Identifier: GPL-3.0-or-later
/* collectors/: PMU format and event encoding on fixture trees of real PMUs
 * (SPR IMC, GNR IMC, Genoa UMC, CXL CPMU), box-to-node mapping, scale and
 * unit; the counting step (rates, wraparound, init, stale); the sampler
 * against a scripted fake source; numastat and pfm for real on this
 * machine, pfm's software counters against a known load. */
#include "test.h"

#include "../../collectors/collect.h"
#include "../../collectors/pmu.h"
#include "../../core/error.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *fixture(const char *name)
{
	static char buf[1024];

	snprintf(buf, sizeof(buf), "%s/tests/fixtures/%s",
		 getenv("TT_TOP") ? getenv("TT_TOP") : ".", name);
	return buf;
}

static void test_format(void **state)
{
	static const struct {
		const char *in;
		int rc, word, nranges, lo0, hi0;
	} v[] = {
		{ "config:0-7", 0, 0, 1, 0, 7 },	{ "config:18", 0, 0, 1, 18, 18 },
		{ "config1:0-3,8-11", 0, 1, 2, 0, 3 },	{ "config2:0-15", 0, 2, 1, 0, 15 },
		{ "config:48-63", 0, 0, 1, 48, 63 },	{ "conf:0-7", -EINVAL, 0, 0, 0, 0 },
		{ "config3:0", -EINVAL, 0, 0, 0, 0 },	{ "config:8-7", -EINVAL, 0, 0, 0, 0 },
		{ "config:0-64", -EINVAL, 0, 0, 0, 0 }, { "config:", -EINVAL, 0, 0, 0, 0 },
		{ "config:1,", -EINVAL, 0, 0, 0, 0 },	{ "config 0-7", -EINVAL, 0, 0, 0, 0 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(*v); i++) {
		struct tt_pmu_format f;

		assert_int_equal(tt_pmu_parse_format(v[i].in, &f), v[i].rc);
		if (v[i].rc)
			continue;
		assert_int_equal(f.word, v[i].word);
		assert_int_equal(f.nranges, v[i].nranges);
		assert_int_equal(f.r[0].lo, v[i].lo0);
		assert_int_equal(f.r[0].hi, v[i].hi0);
	}
}

static void test_put(void **state)
{
	struct tt_pmu_format f;
	uint64_t c[3] = { 0 };
	(void)state;

	/* A split field: low 4 bits at 0-3, the next 4 at 8-11. */
	assert_int_equal(tt_pmu_parse_format("config1:0-3,8-11", &f), 0);
	assert_int_equal(tt_pmu_put(&f, 0xab, c), 0);
	assert_true(c[1] == 0xa0b && c[0] == 0 && c[2] == 0);
	assert_int_equal(tt_pmu_put(&f, 0x100, c), -ERANGE);
	assert_int_equal(tt_pmu_parse_format("config:63", &f), 0);
	c[0] = 0;
	assert_int_equal(tt_pmu_put(&f, 1, c), 0);
	assert_true(c[0] == UINT64_C(1) << 63);
	assert_int_equal(tt_pmu_parse_format("config:0-63", &f), 0);
	c[0] = 0;
	assert_int_equal(tt_pmu_put(&f, UINT64_MAX, c), 0);
	assert_true(c[0] == UINT64_MAX);
}

static void load_topo(const char *name, struct tt_sysfs *s, struct tt_topo *t)
{
	assert_int_equal(tt_sysfs_init(s, fixture(name)), 0);
	assert_int_equal(tt_topo_load(t, s), 0);
}

static void test_events_spr_cxl(void **state)
{
	struct tt_sysfs s;
	struct tt_topo t;
	struct tt_pmu_event ev;
	(void)state;

	load_topo("sysfs/spr-ddr5-2cxl", &s, &t);
	assert_int_equal(tt_pmu_event_load(&s, &t, "uncore_imc_3", "cas_count_read", NULL, 64, &ev),
			 0);
	assert_true(ev.config[0] == 0xcf05 && ev.config[1] == 0 && ev.config[2] == 0);
	assert_int_equal(ev.type, 32 + 3);
	assert_string_equal(ev.unit, "MiB");
	/* 6.103515625e-5 MiB is exactly one 64-byte line. */
	assert_true(ev.bytes == 64.0);
	assert_int_equal(ev.cpu, 0);
	assert_int_equal(ev.node, 0);
	assert_int_equal(
		tt_pmu_event_load(&s, &t, "uncore_imc_0", "cas_count_write", NULL, 64, &ev), 0);
	assert_true(ev.config[0] == 0xf005);
	/* CXL: config given whole; the device's memory is node 1 and 2. */
	assert_int_equal(
		tt_pmu_event_load(&s, &t, "cxl_pmu_mem0.0", "m2s_req_memrd", NULL, 64, &ev), 0);
	assert_true(ev.config[0] == UINT64_C(0x1e98002000000002));
	assert_true(ev.bytes == 64.0);
	assert_int_equal(ev.node, 1);
	assert_int_equal(
		tt_pmu_event_load(&s, &t, "cxl_pmu_mem1.0", "m2s_rwd_memwr", NULL, 64, &ev), 0);
	assert_true(ev.config[0] == UINT64_C(0x1e98002100000002));
	assert_int_equal(ev.node, 2);
	/* The same event spelled through the format files. */
	uint64_t c[3];
	assert_int_equal(tt_pmu_encode(&s, "cxl_pmu_mem0.0", "vid=0x1e98,gid=0x20,mask=0x2", c), 0);
	assert_true(c[0] == UINT64_C(0x1e98002000000002));
	assert_int_equal(tt_pmu_encode(&s, "cxl_pmu_mem0.0", "threshold=3,edge", c), 0);
	assert_true(c[0] == 0 && c[1] == (3 | (1u << 17)));
	tt_topo_release(&t);
}

static void test_events_genoa(void **state)
{
	struct tt_sysfs s;
	struct tt_topo t;
	struct tt_pmu_event ev;
	(void)state;

	load_topo("sysfs/2s-genoa-cxl", &s, &t);
	assert_int_equal(tt_pmu_event_load(&s, &t, "amd_umc_0", "umc_cas_cmd.rd",
					   "event=0x0a,rdwrmask=1", 64, &ev),
			 0);
	assert_true(ev.config[0] == 0x10a);
	assert_true(ev.bytes == 64.0); /* no unit: a CAS command is a 64 B line */
	assert_int_equal(ev.node, 0);
	assert_int_equal(tt_pmu_event_load(&s, &t, "amd_umc_3", "umc_cas_cmd.wr",
					   "event=0x0a,rdwrmask=2", 64, &ev),
			 0);
	assert_true(ev.config[0] == 0x20a);
	assert_int_equal(ev.cpu, 48);
	assert_int_equal(ev.node, 1);
	/* rdwrmask is two bits wide. */
	assert_int_equal(
		tt_pmu_event_load(&s, &t, "amd_umc_0", "x", "event=0x0a,rdwrmask=4", 64, &ev),
		TT_EINPUT);
	assert_non_null(strstr(tt_err_msg(), "rdwrmask=0x4 does not fit 'config:8-9'"));
	tt_topo_release(&t);
}

static void test_events_gnr(void **state)
{
	struct tt_sysfs s;
	struct tt_node nodes[2] = { { .id = 0, .ncpus = 1, .has_memory = true },
				    { .id = 1, .ncpus = 1, .has_memory = true } };
	int cpu0 = 0, cpu1 = 128;
	struct tt_topo t = { .nnodes = 2, .nodes = nodes };
	struct tt_pmu_event ev;
	(void)state;

	nodes[0].cpus = &cpu0;
	nodes[1].cpus = &cpu1;
	assert_int_equal(tt_sysfs_init(&s, fixture("pmu/gnr-imc")), 0);
	assert_false(tt_sysfs_exists(&s, "/sys/bus/event_source/devices/uncore_imc_0/events/"
					 "cas_count_read"));
	assert_int_equal(
		tt_pmu_event_load(&s, &t, "uncore_imc_1", "cas_count_read_sch1", NULL, 64, &ev), 0);
	assert_true(ev.config[0] == 0xcf06);
	assert_int_equal(ev.node, 1);
	assert_int_equal(
		tt_pmu_event_load(&s, &t, "uncore_imc_0", "cas_count_write_sch0", NULL, 64, &ev),
		0);
	assert_true(ev.config[0] == 0xf005 && ev.bytes == 64.0 && ev.node == 0);
}

static char tmp[256];

static void put(const char *rel, const char *text)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmp, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* A private copy of a fixture in tmp (the tests write to it), opened as s. */
static void copy_fixture(const char *name, const char *prefix, struct tt_sysfs *s)
{
	char cmd[1600];

	snprintf(tmp, sizeof(tmp), "%s/%s-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
		 prefix);
	assert_non_null(mkdtemp(tmp));
	snprintf(cmd, sizeof(cmd), "cp -a '%s/.' '%s'", fixture(name), tmp);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(tt_sysfs_init(s, tmp), 0);
}

static void test_garbled(void **state)
{
	char cmd[1600];
	struct tt_sysfs s;
	struct tt_topo t;
	struct tt_pmu_event ev;
	(void)state;

	copy_fixture("sysfs/spr-ddr5-2cxl", "tt-pmu", &s);
	assert_int_equal(tt_topo_load(&t, &s), 0);
	put("sys/bus/event_source/devices/uncore_imc_0/events/cas_count_read",
	    "event=zz,umask=0xcf\n");
	assert_int_equal(tt_pmu_event_load(&s, &t, "uncore_imc_0", "cas_count_read", NULL, 64, &ev),
			 TT_EINPUT);
	assert_non_null(strstr(tt_err_msg(), "PMU uncore_imc_0"));
	assert_non_null(strstr(tt_err_msg(), "'zz'"));
	put("sys/bus/event_source/devices/uncore_imc_1/format/umask", "config:eight\n");
	assert_int_equal(tt_pmu_event_load(&s, &t, "uncore_imc_1", "cas_count_read", NULL, 64, &ev),
			 TT_EINPUT);
	assert_non_null(strstr(tt_err_msg(), "uncore_imc_1/format/umask' holds 'config:eight'"));
	put("sys/bus/event_source/devices/uncore_imc_2/events/cas_count_read",
	    "event=0x05,colour=2\n");
	assert_int_equal(tt_pmu_event_load(&s, &t, "uncore_imc_2", "cas_count_read", NULL, 64, &ev),
			 TT_EINPUT);
	assert_non_null(strstr(tt_err_msg(), "term 'colour' has no format file"));
	put("sys/bus/event_source/devices/uncore_imc_3/events/cas_count_read.scale", "a lot\n");
	assert_int_equal(tt_pmu_event_load(&s, &t, "uncore_imc_3", "cas_count_read", NULL, 64, &ev),
			 TT_EINPUT);
	assert_non_null(strstr(tt_err_msg(), "cas_count_read.scale' holds 'a lot'"));
	/* The collector reports it the same way, as bad input. */
	char why[512];
	struct tt_collect_ctx ctx = { .sfs = &s, .topo = &t, .source_node = -1 };
	assert_int_equal(tt_c_uncore.probe(&ctx, why, sizeof(why)), TT_EINPUT);
	assert_non_null(strstr(why, "uncore_imc_0"));
	tt_topo_release(&t);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	assert_int_equal(system(cmd), 0);
}

static void test_count_step(void **state)
{
	struct tt_metric g = { .kind = TT_GAUGE, .scale = 2 },
			 c = { .kind = TT_COUNTER, .scale = 64 },
			 w = { .kind = TT_COUNTER, .scale = 1, .bits = 48 };
	struct tt_count cg = { 0 }, cc = { 0 }, cw = { 0 };
	double v;
	(void)state;

	assert_int_equal(tt_count_step(&g, &cg, 10, 1.0, &v), TT_S_OK);
	assert_true(v == 20);
	assert_int_equal(tt_count_step(&c, &cc, 1000, 1.0, &v), TT_S_INIT);
	assert_int_equal(tt_count_step(&c, &cc, 1500, 1.5, &v), TT_S_OK);
	assert_true(v == 500 * 64 / 0.5);
	/* A source that stops answering: stale, the last value kept. */
	assert_int_equal(tt_count_step(&c, &cc, NAN, 2.0, &v), TT_S_STALE);
	assert_true(v == 500 * 64 / 0.5);
	assert_int_equal(tt_count_step(&c, &cc, 2500, 2.5, &v), TT_S_OK);
	assert_true(v == 1000 * 64 / 1.0);
	/* A 64-bit counter going back was reset: start over. */
	assert_int_equal(tt_count_step(&c, &cc, 10, 3.0, &v), TT_S_INIT);
	/* A 48-bit counter wraps. */
	double top = ldexp(1.0, 48);
	assert_int_equal(tt_count_step(&w, &cw, top - 100, 1.0, &v), TT_S_INIT);
	assert_int_equal(tt_count_step(&w, &cw, 50, 2.0, &v), TT_S_OK);
	assert_true(v == 150);
	/* Same timestamp: no rate to give. */
	assert_int_equal(tt_count_step(&w, &cw, 60, 2.0, &v), TT_S_INIT);
}

/* A source whose counter climbs 1000 a read for 6 reads, then stops
 * answering. */
static int fake_calls;

static int fake_sample(struct tt_source *s, double *v)
{
	(void)s;
	if (++fake_calls > 6)
		return TT_EFAIL;
	v[0] = 1000.0 * fake_calls;
	v[1] = 7;
	return 0;
}

static const struct tt_collector fake = { .name = "fake", .sample = fake_sample };

/* Waits for the sampler's thread, 10 s at most: a sampler that stopped
 * ticking fails the test instead of hanging the suite. */
static void wait_ticks(struct tt_sampler *s, uint64_t ticks)
{
	for (int waited_ms = 0; tt_sampler_ticks(s) < ticks; waited_ms += 2) {
		if (waited_ms >= 10000)
			fail_msg("sampler made %ju of %ju ticks in 10 s",
				 (uintmax_t)tt_sampler_ticks(s), (uintmax_t)ticks);
		usleep(2000);
	}
}

static void test_sampler(void **state)
{
	struct tt_source *src = tt_source_new(&fake, 2);
	int cap = 2;
	struct tt_sampler *s;
	struct tt_reading r[64];
	uint64_t seq = 0, lost = 0;
	size_t n;
	(void)state;

	assert_non_null(src);
	tt_source_add(src, &cap, "ops", "ops/s", TT_COUNTER, 0, "fake");
	tt_source_add(src, &cap, "level", "x", TT_GAUGE, -1, "fake");
	assert_int_equal(tt_sampler_start(&s, &src, 1, 0.005, 12), 0);
	wait_ticks(s, 10);
	tt_sampler_stop(s);
	/* 10+ ticks x 2 metrics into 12 slots: the oldest are lost. */
	n = tt_sampler_read(s, &seq, r, 64, &lost);
	assert_int_equal(n, 12);
	assert_true(lost >= 8);
	assert_true(lost + n == seq);
	tt_sampler_free(s);
	/* Again with room for everything, to check each state. */
	fake_calls = 0;
	seq = 0;
	lost = 0;
	assert_int_equal(tt_sampler_start(&s, &src, 1, 0.005, 64), 0);
	wait_ticks(s, 9);
	tt_sampler_stop(s);
	n = tt_sampler_read(s, &seq, r, 64, &lost);
	assert_int_equal(lost, 0);
	assert_true(n >= 18);
	assert_int_equal(r[0].state, TT_S_INIT); /* ops: first read */
	assert_int_equal(r[1].state, TT_S_OK);	 /* level: a gauge */
	assert_true(r[1].value == 7);
	for (size_t i = 2; i < 12; i += 2) {
		assert_int_equal(r[i].state, TT_S_OK);
		/* 1000 per interval, whatever the interval was. */
		assert_true(fabs(r[i].value * (r[i].t_s - r[i].since_s) - 1000) < 1e-6);
		assert_true(r[i].since_s == r[i - 2].t_s);
	}
	for (size_t i = 12; i < n; i++)
		assert_int_equal(r[i].state, TT_S_STALE); /* it stopped answering */
	tt_sampler_free(s);
	tt_source_free(src);
}

/* resctrl on a fixture: domain to node, byte counters, "Unavailable". */
static void test_resctrl(void **state)
{
	char cmd[1600];
	struct tt_sysfs s;
	struct tt_topo t;
	struct tt_source *src;
	char why[512];
	double v[4];
	(void)state;

	copy_fixture("sysfs/spr-ddr5-2cxl", "tt-rdt", &s);
	assert_int_equal(tt_topo_load(&t, &s), 0);
	struct tt_collect_ctx ctx = { .sfs = &s, .topo = &t, .source_node = -1 };
	assert_int_equal(tt_c_resctrl.probe(&ctx, why, sizeof(why)), 0);
	assert_int_equal(tt_c_resctrl.open(&ctx, &src), 0);
	assert_int_equal(src->nmetrics, 2);
	assert_string_equal(src->metrics[0].name, "mbm_total_bytes");
	assert_int_equal(src->metrics[0].node, 0);
	assert_int_equal(src->metrics[0].kind, TT_COUNTER);
	assert_int_equal(tt_c_resctrl.sample(src, v), 0);
	assert_true(v[0] == 81234567890.0 && v[1] == 70123456789.0);
	put("sys/fs/resctrl/mon_data/mon_L3_00/mbm_total_bytes", "Unavailable\n");
	assert_int_equal(tt_c_resctrl.sample(src, v), 0);
	assert_true(isnan(v[0]) && v[1] == 70123456789.0);
	tt_c_resctrl.close(src);
	tt_topo_release(&t);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	assert_int_equal(system(cmd), 0);
}

/* The index of metric name on node in src, -1 when it has none. */
static int metric_at(const struct tt_source *src, const char *name, int node)
{
	for (int i = 0; i < src->nmetrics; i++)
		if (src->metrics[i].node == node && strcmp(src->metrics[i].name, name) == 0)
			return i;
	return -1;
}

/* numastat on fixtures: demotion and promotion per node from nodeN/vmstat
 * (6.12: every pgdemote_* but the proactive one; 6.6: none per node, the
 * machine-wide ones in /proc/vmstat only), and their rates. */
static void test_numastat_vmstat(void **state)
{
	char cmd[1600];
	struct tt_sysfs s;
	struct tt_topo t;
	struct tt_source *src;
	struct tt_count c = { 0 };
	char why[512];
	double v1[128], v2[128], rate;
	int k, d, pr, g;
	(void)state;

	copy_fixture("sysfs/2s-genoa-cxl", "tt-vmstat", &s);
	assert_int_equal(tt_topo_load(&t, &s), 0);
	struct tt_collect_ctx ctx = { .sfs = &s, .topo = &t, .source_node = -1 };
	/* No numastat file in this fixture: vmstat is enough to run. */
	assert_int_equal(tt_c_numastat.probe(&ctx, why, sizeof(why)), 0);
	assert_int_equal(tt_c_numastat.open(&ctx, &src), 0);
	assert_true(src->nmetrics <= 128);
	k = metric_at(src, "pgdemote_kswapd", 0);
	d = metric_at(src, "pgdemote_proactive", 0);
	pr = metric_at(src, "pgpromote_success", 2);
	g = metric_at(src, "pgdemote_kswapd", -1);
	assert_true(k >= 0 && d >= 0 && pr >= 0 && g >= 0);
	assert_string_equal(src->metrics[k].source, "node0/vmstat");
	assert_int_equal(src->metrics[k].kind, TT_COUNTER);
	assert_int_equal(tt_c_numastat.sample(src, v1), 0);
	assert_true(v1[k] == 2811904 && v1[pr] == 0 && v1[g] == 2811904 + 1835008);
	assert_true(isnan(v1[d]));			       /* 6.12 has no pgdemote_proactive */
	assert_true(isnan(v1[metric_at(src, "numa_hit", 0)])); /* nor a numastat file here */
	/* 1000 more pages demoted from node 0 in half a second: 2000 pages/s. */
	assert_int_equal(tt_count_step(&src->metrics[k], &c, v1[k], 10, &rate), TT_S_INIT);
	snprintf(cmd, sizeof(cmd),
		 "sed -i 's/^pgdemote_kswapd .*/pgdemote_kswapd 2812904/' "
		 "'%s/sys/devices/system/node/node0/vmstat'",
		 tmp);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(tt_c_numastat.sample(src, v2), 0);
	assert_true(v2[k] == 2812904);
	assert_int_equal(tt_count_step(&src->metrics[k], &c, v2[k], 10.5, &rate), TT_S_OK);
	assert_true(fabs(rate - 2000) < 1e-9);
	/* A node whose vmstat goes away: its values are absent, not 0. */
	snprintf(cmd, sizeof(cmd), "rm '%s/sys/devices/system/node/node0/vmstat'", tmp);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(tt_c_numastat.sample(src, v2), 0);
	assert_true(isnan(v2[k]) && v2[metric_at(src, "pgdemote_kswapd", 1)] == 1835008);
	tt_c_numastat.close(src);
	tt_topo_release(&t);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	assert_int_equal(system(cmd), 0);

	/* Linux 6.6: promotions per node, demotions machine-wide only. */
	assert_int_equal(tt_sysfs_init(&s, fixture("sysfs/rfc-4node")), 0);
	assert_int_equal(tt_topo_load(&t, &s), 0);
	ctx.topo = &t;
	assert_int_equal(tt_c_numastat.open(&ctx, &src), 0);
	assert_int_equal(tt_c_numastat.sample(src, v1), 0);
	assert_true(isnan(v1[metric_at(src, "pgdemote_kswapd", 0)]));
	assert_true(v1[metric_at(src, "pgpromote_success", 0)] == 20480);
	assert_true(v1[metric_at(src, "pgdemote_kswapd", -1)] == 1310720);
	tt_c_numastat.close(src);
	tt_topo_release(&t);
}

/* numastat and pfm measure for real on this machine. */
static void test_live(void **state)
{
	struct tt_sysfs s;
	struct tt_topo t;
	struct tt_collect_ctx ctx = { .sfs = &s, .topo = &t, .source_node = -1 };
	struct tt_source *src;
	char why[512];
	double v1[64], v2[64];
	(void)state;

	assert_int_equal(tt_sysfs_init(&s, "/"), 0);
	assert_int_equal(tt_topo_load(&t, &s), 0);
	assert_int_equal(tt_c_numastat.probe(&ctx, why, sizeof(why)), 0);
	assert_int_equal(tt_c_numastat.open(&ctx, &src), 0);
	assert_true(src->nmetrics >= 12);
	assert_int_equal(tt_c_numastat.sample(src, v1), 0);
	/* 16k new pages on this node (volatile: the compiler must not drop
	 * the stores). */
	volatile char *p =
		mmap(NULL, 64 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(p != MAP_FAILED);
	for (size_t i = 0; i < (64 << 20); i += 4096)
		p[i] = 1;
	assert_int_equal(tt_c_numastat.sample(src, v2), 0);
	munmap((void *)p, 64 << 20);
	assert_string_equal(src->metrics[0].name, "numa_hit");
	assert_true(v2[0] - v1[0] >= 16000);
	assert_true(v2[6] > 0); /* mem_free */
	tt_c_numastat.close(src);

	assert_int_equal(tt_c_pfm.probe(&ctx, why, sizeof(why)), 0);
	assert_int_equal(tt_c_pfm.open(&ctx, &src), 0);
	int clock = -1;
	for (int i = 0; i < src->nmetrics; i++)
		if (strcmp(src->metrics[i].name, "cpu_clock") == 0)
			clock = i;
	assert_true(clock >= 0);
	assert_int_equal(tt_c_pfm.sample(src, v1), 0);
	struct timespec ts = { 0, 50000000 };
	nanosleep(&ts, NULL);
	assert_int_equal(tt_c_pfm.sample(src, v2), 0);
	assert_true(v2[clock] > v1[clock]);
	tt_c_pfm.close(src);
	tt_topo_release(&t);
}

/* A figure of /proc (the kernel's own count): "ctxt" in /proc/stat,
 * "pgfault" in /proc/vmstat. */
static double proc_count(const char *file, const char *key)
{
	char line[256];
	double v = -1;
	size_t n = strlen(key);
	FILE *f = fopen(file, "r");

	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, key, n) == 0 && line[n] == ' ')
			v = strtod(line + n + 1, NULL);
	fclose(f);
	return v;
}

#define PINGS 2000
#define PAGES 4096

/* A known load: PINGS round trips over two pipes with a child (each side
 * blocks once a trip: at least 2 switches a trip) and PAGES fresh 4 KiB
 * pages touched (one fault each: no huge page may serve them). */
static void known_load(void)
{
	int ab[2], ba[2];
	char c = 0;

	assert_int_equal(pipe(ab), 0);
	assert_int_equal(pipe(ba), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		for (int i = 0; i < PINGS; i++)
			if (read(ab[0], &c, 1) != 1 || write(ba[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	for (int i = 0; i < PINGS; i++) {
		assert_int_equal(write(ab[1], &c, 1), 1);
		assert_int_equal(read(ba[0], &c, 1), 1);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	for (int i = 0; i < 2; i++) {
		close(ab[i]);
		close(ba[i]);
	}
	volatile char *p = mmap(NULL, (size_t)PAGES * 4096, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(p != MAP_FAILED);
	madvise((void *)p, (size_t)PAGES * 4096, MADV_NOHUGEPAGE);
	for (size_t i = 0; i < (size_t)PAGES * 4096; i += 4096)
		p[i] = 1;
	munmap((void *)p, (size_t)PAGES * 4096);
}

static int metric(const struct tt_source *src, const char *name)
{
	for (int i = 0; i < src->nmetrics; i++)
		if (strcmp(src->metrics[i].name, name) == 0)
			return i;
	return -1;
}

/* pfm's software counters count (issue 34: context_switches, page_faults
 * and cpu_migrations read 0/s while /proc/stat counted 4965 switches/s and
 * cpu_clock of the same group counted). Against a known load, and, counting
 * every CPU (root or perf_event_paranoid <= 0), against the kernel's own
 * counts over the same interval: within 10% plus 500 events for what
 * happens between the reads of the two (a loaded host switches some
 * thousands of times a second). Per process (a user at paranoid 2):
 * context switches are counted in kernel mode only, so they are not offered
 * and the probe says so; page faults are this process's. */
static void test_pfm_counts(void **state)
{
	struct tt_sysfs s;
	struct tt_topo t;
	struct tt_collect_ctx ctx = { .sfs = &s, .topo = &t, .source_node = -1 };
	struct tt_source *src;
	char why[512];
	double v1[64], v2[64];
	(void)state;

	assert_int_equal(tt_sysfs_init(&s, "/"), 0);
	assert_int_equal(tt_topo_load(&t, &s), 0);
	if (tt_c_pfm.unbuilt || tt_c_pfm.probe(&ctx, why, sizeof(why)) < 0) {
		print_message("skip: pfm cannot count here: %s\n",
			      tt_c_pfm.unbuilt ? tt_c_pfm.unbuilt : why);
		tt_topo_release(&t);
		skip();
	}
	assert_int_equal(tt_c_pfm.open(&ctx, &src), 0);
	int cs = metric(src, "context_switches"), pf = metric(src, "page_faults");
	bool every_cpu = strcmp(src->metrics[0].source, "source-node CPUs") == 0;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int counted = 0;

	for (int i = 0; i < t.nnodes; i++)
		counted += t.nodes[i].ncpus;
	every_cpu = every_cpu && counted == ncpu;
	assert_true(pf >= 0);
	if (every_cpu)
		assert_true(cs >= 0);
	else if (cs < 0)
		assert_non_null(strstr(why, "context_switches: counted in kernel mode only"));

	assert_int_equal(tt_c_pfm.sample(src, v1), 0);
	double ctxt1 = proc_count("/proc/stat", "ctxt"),
	       fault1 = proc_count("/proc/vmstat", "pgfault");
	known_load();
	double ctxt2 = proc_count("/proc/stat", "ctxt"),
	       fault2 = proc_count("/proc/vmstat", "pgfault");
	assert_int_equal(tt_c_pfm.sample(src, v2), 0);

	double faults = v2[pf] - v1[pf], kfaults = fault2 - fault1;
	print_message("pfm %s: %.0f page faults (kernel: %.0f), %.0f switches (kernel: %.0f)\n",
		      every_cpu ? "every CPU" : "this process", faults, kfaults,
		      cs >= 0 ? v2[cs] - v1[cs] : -1, ctxt2 - ctxt1);
	assert_true(faults >= PAGES);
	if (cs >= 0)
		assert_true(v2[cs] - v1[cs] >= 2 * PINGS);
	if (every_cpu) {
		double sw = v2[cs] - v1[cs], ksw = ctxt2 - ctxt1;

		assert_true(fabs(faults - kfaults) <= 0.1 * kfaults + 500);
		assert_true(fabs(sw - ksw) <= 0.1 * ksw + 500);
	} else {
		/* This process's faults only: the touched pages and little
		 * else. */
		assert_true(faults <= 1.1 * PAGES + 500);
	}
	tt_c_pfm.close(src);
	tt_topo_release(&t);
}

/* The model collector's figures: measured from the source where the
 * context has them, else HMAT's (best initiator), each metric saying
 * which; without either it cannot run, and says why. */
static void model_run(const char *fx, int src, const char *weights, const double *measured,
		      double *v, struct tt_source **out, char *why, size_t size, int *probe)
{
	struct tt_sysfs s;
	struct tt_topo t;
	struct tt_weights w;
	struct tt_collect_ctx ctx = { .sfs = &s,
				      .topo = &t,
				      .source_node = src,
				      .weights = &w,
				      .measured_bw_bytes_s = measured };

	assert_int_equal(tt_sysfs_init(&s, fixture(fx)), 0);
	assert_int_equal(tt_topo_load(&t, &s), 0);
	assert_int_equal(tt_weights_parse(weights, &w), 0);
	*probe = tt_c_model.probe(&ctx, why, size);
	*out = NULL;
	if (*probe == 0) {
		assert_int_equal(tt_c_model.open(&ctx, out), 0);
		assert_int_equal(tt_c_model.sample(*out, v), 0);
	}
	tt_topo_release(&t);
}

static void test_model_figures(void **state)
{
	double measured[TT_MAX_NODES] = { 0 }, v[8];
	struct tt_source *src;
	char why[256];
	int probe;

	(void)state;
	/* HMAT alone: node 0 307200 MB/s, node 2 36000 MB/s (access1); at
	 * half the traffic each, node 2 saturates first at 72 GB/s in all. */
	model_run("sysfs/spr-ddr5-2cxl", 0, "0:1,2:1", NULL, v, &src, why, sizeof(why), &probe);
	assert_int_equal(probe, 0);
	assert_int_equal(src->nmetrics, 3);
	assert_true(fabs(v[2] - 72e9) < 1 && fabs(v[0] - 36e9) < 1 && fabs(v[1] - 36e9) < 1);
	assert_string_equal(src->metrics[1].source, "simulated: HMAT best initiator");
	assert_string_equal(src->metrics[2].source, "simulated: HMAT best initiator");
	tt_c_model.close(src);
	/* Measured from the source: those figures, said so. */
	measured[0] = 200e9;
	measured[2] = 20e9;
	model_run("sysfs/spr-ddr5-2cxl", 0, "0:1,2:1", measured, v, &src, why, sizeof(why), &probe);
	assert_int_equal(probe, 0);
	assert_true(fabs(v[2] - 40e9) < 1);
	assert_int_equal(src->metrics[0].node, 0);
	assert_string_equal(src->metrics[0].source, "simulated: measured from node 0");
	assert_string_equal(src->metrics[2].source, "simulated: measured figures");
	tt_c_model.close(src);
	/* Node 0 not measured: HMAT's figure for it, the rest measured. */
	measured[0] = 0;
	model_run("sysfs/spr-ddr5-2cxl", 0, "0:3,2:1", measured, v, &src, why, sizeof(why), &probe);
	assert_int_equal(probe, 0);
	/* min(307.2 GB/s / 0.75, 20 GB/s / 0.25) = 80 GB/s. */
	assert_true(fabs(v[2] - 80e9) < 1);
	assert_string_equal(src->metrics[0].source, "simulated: HMAT best initiator");
	assert_string_equal(src->metrics[1].source, "simulated: measured from node 0");
	assert_string_equal(src->metrics[2].source, "simulated: measured and HMAT figures");
	tt_c_model.close(src);
	/* Two sockets without HMAT, from node 1: nothing to model, then the
	 * figures measured from node 1 (its own DRAM fast, node 0's remote). */
	model_run("sysfs/2s-genoa-cxl", 1, "0:1,1:1", NULL, v, &src, why, sizeof(why), &probe);
	assert_int_equal(probe, TT_EUNAVAIL);
	assert_non_null(strstr(why, "node 0 has no bandwidth figure"));
	assert_non_null(strstr(why, "from node 1"));
	memset(measured, 0, sizeof(measured));
	measured[0] = 190e9;
	measured[1] = 460.8e9;
	model_run("sysfs/2s-genoa-cxl", 1, "0:1,1:1", measured, v, &src, why, sizeof(why), &probe);
	assert_int_equal(probe, 0);
	assert_true(fabs(v[2] - 380e9) < 1 && fabs(v[0] - 190e9) < 1);
	assert_string_equal(src->metrics[1].source, "simulated: measured from node 1");
	tt_c_model.close(src);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format),	       cmocka_unit_test(test_put),
		cmocka_unit_test(test_events_spr_cxl), cmocka_unit_test(test_events_genoa),
		cmocka_unit_test(test_events_gnr),     cmocka_unit_test(test_garbled),
		cmocka_unit_test(test_count_step),     cmocka_unit_test(test_sampler),
		cmocka_unit_test(test_resctrl),	       cmocka_unit_test(test_numastat_vmstat),
		cmocka_unit_test(test_live),	       cmocka_unit_test(test_pfm_counts),
		cmocka_unit_test(test_model_figures),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
