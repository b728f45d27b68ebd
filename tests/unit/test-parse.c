// SPDX-License-Identifier: GPL-3.0-or-later
/* core/parse.c and core/bitmap.c: strict parsers, as tables. */
#include "test.h"

#include "../../core/bitmap.h"
#include "../../core/parse.h"

#include <errno.h>
#include <string.h>

static void test_u64(void **state)
{
	static const struct {
		const char *in;
		uint64_t min, max;
		int rc;
		uint64_t want;
	} v[] = {
		{ "0", 0, 10, 0, 0 },
		{ "10", 0, 10, 0, 10 },
		{ "11", 0, 10, -ERANGE, 0 },
		{ "18446744073709551615", 0, UINT64_MAX, 0, UINT64_MAX },
		{ "18446744073709551616", 0, UINT64_MAX, -ERANGE, 0 },
		{ "-1", 0, 10, -EINVAL, 0 },
		{ "+1", 0, 10, -EINVAL, 0 },
		{ " 1", 0, 10, -EINVAL, 0 },
		{ "1 ", 0, 10, -EINVAL, 0 },
		{ "1x", 0, 10, -EINVAL, 0 },
		{ "", 0, 10, -EINVAL, 0 },
		{ "0x10", 0, 100, -EINVAL, 0 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		uint64_t out = 12345;

		assert_int_equal(tt_parse_u64(v[i].in, v[i].min, v[i].max, &out), v[i].rc);
		if (v[i].rc == 0)
			assert_true(out == v[i].want);
	}
}

static void test_size(void **state)
{
	static const struct {
		const char *in;
		int rc;
		uint64_t want;
	} v[] = {
		{ "4096", 0, 4096 },
		{ "4K", 0, 4096 },
		{ "256M", 0, 256u << 20 },
		{ "8GiB", 0, UINT64_C(8) << 30 },
		{ "2T", 0, UINT64_C(2) << 40 },
		{ "64m", 0, UINT64_C(64) << 20 },
		{ "64mib", 0, UINT64_C(64) << 20 },
		{ "4k", 0, 4096 },
		{ "1.5G", 0, UINT64_C(3) << 29 },
		{ "0.5k", -ERANGE, 0 }, /* 512: below min 2048 */
		{ "2.25K", 0, 2304 },
		{ "1.1K", -EDOM, 0 }, /* 1126.4 bytes */
		{ "1.K", -EINVAL, 0 },
		{ "1.0000000001G", -EINVAL, 0 }, /* more than 9 digits of fraction */
		{ "16383P", -EINVAL, 0 },
		{ "4Mi", -EINVAL, 0 },
		{ "4MB", -EINVAL, 0 },
		{ "M", -EINVAL, 0 },
		{ "17179869184G", -ERANGE, 0 }, /* 2^64: overflows */
		{ "1K", -ERANGE, 0 },		/* below min 2048 */
	};
	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		uint64_t out = 12345;

		assert_int_equal(tt_parse_size(v[i].in, 2048, UINT64_MAX, &out), v[i].rc);
		if (v[i].rc == 0)
			assert_true(out == v[i].want);
	}
}

static void test_list(void **state)
{
	static const struct {
		const char *in;
		int rc;
		const char *canon; /* formatted back */
	} v[] = {
		{ "", 0, "" },
		{ "0", 0, "0" },
		{ "0-3,8", 0, "0-3,8" },
		{ "8,0-3", 0, "0-3,8" },
		{ "1,2,3", 0, "1-3" },
		{ "1023", 0, "1023" },
		{ "1024", -ERANGE, NULL },
		{ "3-1", -EINVAL, NULL },
		{ "1,", -EINVAL, NULL },
		{ ",1", -EINVAL, NULL },
		{ "1--2", -EINVAL, NULL },
		{ "a", -EINVAL, NULL },
		{ "1 2", -EINVAL, NULL },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct tt_nodemask m;
		char buf[64];

		assert_int_equal(tt_parse_list(v[i].in, m.bits, TT_MAX_NODES), v[i].rc);
		if (v[i].rc)
			continue;
		assert_true(tt_bit_format_list(m.bits, TT_MAX_NODES, buf, sizeof(buf)) >= 0);
		assert_string_equal(buf, v[i].canon);
	}
}

static void test_cpumap(void **state)
{
	uint64_t bits[TT_MAX_CPUS / 64];
	char buf[64];

	(void)state;
	assert_int_equal(tt_parse_cpumap("3", bits, TT_MAX_CPUS), 0);
	tt_bit_format_list(bits, TT_MAX_CPUS, buf, sizeof(buf));
	assert_string_equal(buf, "0-1");
	assert_int_equal(tt_parse_cpumap("00000001,0000000f", bits, TT_MAX_CPUS), 0);
	tt_bit_format_list(bits, TT_MAX_CPUS, buf, sizeof(buf));
	assert_string_equal(buf, "0-3,32");
	assert_int_equal(tt_parse_cpumap("ffffffff,00000000,00000000", bits, TT_MAX_CPUS), 0);
	assert_int_equal(tt_bit_count(bits, TT_MAX_CPUS), 32);
	assert_true(tt_bit_test(bits, 64) && tt_bit_test(bits, 95) && !tt_bit_test(bits, 63));
	assert_int_equal(tt_parse_cpumap("", bits, TT_MAX_CPUS), -EINVAL);
	assert_int_equal(tt_parse_cpumap("1,", bits, TT_MAX_CPUS), -EINVAL);
	assert_int_equal(tt_parse_cpumap("g", bits, TT_MAX_CPUS), -EINVAL);
	assert_int_equal(tt_parse_cpumap("123456789", bits, TT_MAX_CPUS), -EINVAL);
	assert_int_equal(tt_parse_cpumap("1,00000000,00000000", bits, 64), -ERANGE);
}

struct kv_seen {
	uint64_t total, free, hit;
	int lines;
};

static int kv_cb(const char *key, uint64_t value, void *ctx)
{
	struct kv_seen *s = ctx;

	s->lines++;
	if (strcmp(key, "MemTotal") == 0)
		s->total = value;
	if (strcmp(key, "MemFree") == 0)
		s->free = value;
	if (strcmp(key, "numa_hit") == 0)
		s->hit = value;
	return 0;
}

static void test_kv(void **state)
{
	struct kv_seen s = { 0 };

	(void)state;
	assert_int_equal(tt_parse_kv("Node 0 MemTotal:       4155128 kB\n"
				     "Node 0 MemFree:        3996696 kB\n"
				     "Node 0 HugePages_Total:     0\n",
				     kv_cb, &s),
			 0);
	assert_int_equal(s.lines, 3);
	assert_true(s.total == 4155128ULL * 1024 && s.free == 3996696ULL * 1024);
	memset(&s, 0, sizeof(s));
	assert_int_equal(tt_parse_kv("numa_hit 123\nnuma_miss 0\n\n", kv_cb, &s), 0);
	assert_true(s.hit == 123 && s.lines == 2);
	assert_int_equal(tt_parse_kv("numa_hit x\n", kv_cb, &s), -EINVAL);
	assert_int_equal(tt_parse_kv("numa_hit 1 MB\n", kv_cb, &s), -EINVAL);
	assert_int_equal(tt_parse_kv("lonely\n", kv_cb, &s), -EINVAL);
	assert_int_equal(tt_parse_kv("Node x MemTotal: 1 kB\n", kv_cb, &s), -EINVAL);
	assert_int_equal(tt_parse_kv("big 18446744073709551615 kB\n", kv_cb, &s), -ERANGE);
}

static void test_format_list_small_buffer(void **state)
{
	struct tt_nodemask m;
	char buf[4];

	(void)state;
	assert_int_equal(tt_parse_list("0-3,8,100", m.bits, TT_MAX_NODES), 0);
	assert_true(tt_bit_format_list(m.bits, TT_MAX_NODES, buf, sizeof(buf)) < 0);
	assert_int_equal(tt_bit_next(m.bits, TT_MAX_NODES, 9), 100);
	assert_int_equal(tt_bit_next(m.bits, TT_MAX_NODES, 101), TT_MAX_NODES);
}

/* One line stays one line; everything printable passes as it is. */
static void test_escape(void **state)
{
	static const struct {
		const char *in, *out;
	} v[] = {
		{ "spr-cxl-07.lab", "spr-cxl-07.lab" },
		{ "a\nb", "a\\nb" },
		{ "tab\there\r", "tab\\there\\r" },
		{ "esc\x1b[2J", "esc\\x1b[2J" },
		{ "back\\slash", "back\\\\slash" },
		{ "del\x7f", "del\\x7f" },
		{ "csi\xc2\x9b"
		  "0m",
		  "csi\\x9b0m" },
		{ "caf\xc3\xa9", "caf\xc3\xa9" },
		{ "raw\x9b"
		  "2J",
		  "raw\\x9b2J" },
		{ "cut\xc3", "cut\\xc3" },
		{ "over\xc0\xaf", "over\\xc0\\xaf" },
		{ "sur\xed\xa0\x80", "sur\\xed\\xa0\\x80" },
		{ "\xe2\x82\xac \xf0\x9f\x98\x80", "\xe2\x82\xac \xf0\x9f\x98\x80" },
		{ "\xff\xfe", "\\xff\\xfe" },
		{ "$(touch x); `y`", "$(touch x); `y`" },
	};
	char buf[64], small[6];

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		assert_string_equal(tt_str_escape(v[i].in, buf, sizeof(buf)), v[i].out);
	/* Cut before an escape that does not fit, never inside it. */
	assert_string_equal(tt_str_escape("abcd\n", small, sizeof(small)), "abcd");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_u64),    cmocka_unit_test(test_size),
		cmocka_unit_test(test_list),   cmocka_unit_test(test_cpumap),
		cmocka_unit_test(test_kv),     cmocka_unit_test(test_format_list_small_buffer),
		cmocka_unit_test(test_escape),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
