/* bench/place.c: the plan follows the core order model for several weight
 * vectors, masks and start addresses; verification logic on fake status
 * arrays (misplaced pages found, counts conserved). */
#include "test.h"

#include "../../bench/place.h"
#include "../../core/error.h"
#include "../../core/parse.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static struct tt_placement p;
static struct tt_place_report r;

static void setup(enum tt_place_mode mode, const char *mask, const char *weights)
{
	struct tt_nodemask m;
	struct tt_weights w;

	assert_int_equal(tt_parse_list(mask, m.bits, TT_MAX_NODES), 0);
	assert_int_equal(tt_weights_parse(weights, &w), 0);
	assert_int_equal(tt_place_init(&p, mode, &m, &w, 0), 0);
}

static void test_plan_matches_model(void **state)
{
	static const struct {
		const char *mask, *weights;
		uintptr_t base;
		size_t pages;
	} v[] = {
		{ "0-2", "0:3,1:1,2:2", 0x7f0000003000, 1000 },
		{ "0,2", "0:5,2:2", 0x7f1234567000, 777 },
		{ "0-3", "0:255,1:1,2:17,3:2", 0x10000, 5000 },
		{ "1", "1:9", 0x7fff00000000, 100 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		uint64_t plan[TT_MAX_NODES] = { 0 }, model[TT_MAX_NODES] = { 0 };

		setup(TT_PLACE_EXACT, v[i].mask, v[i].weights);
		tt_place_plan(&p, v[i].base, v[i].pages << TT_PAGE_SHIFT, plan);
		for (size_t k = 0; k < v[i].pages; k++) {
			int node = tt_il_vma_node(&p.order, (v[i].base >> TT_PAGE_SHIFT) + k);

			assert_int_equal(tt_place_expected(&p, v[i].base + (k << TT_PAGE_SHIFT)),
					 node);
			model[node]++;
		}
		assert_memory_equal(plan, model, sizeof(plan));
	}
}

static void test_thp_units(void **state)
{
	(void)state;
	setup(TT_PLACE_EXACT, "0,1", "0:1,1:1");
	p.thp = true;
	/* 4 KiB pages within one 2 MiB folio share a node; the next folio flips. */
	assert_int_equal(tt_place_expected(&p, 0x200000), tt_place_expected(&p, 0x3ff000));
	assert_true(tt_place_expected(&p, 0x200000) != tt_place_expected(&p, 0x400000));
}

static void test_modes(void **state)
{
	struct tt_nodemask m;
	struct tt_weights w;

	(void)state;
	setup(TT_PLACE_INTERLEAVE, "0-1", "0:7"); /* weights ignored: 1:1 */
	assert_int_equal(tt_place_expected(&p, 0), 0);
	assert_int_equal(tt_place_expected(&p, 0x1000), 1);
	setup(TT_PLACE_BIND, "1", "1:1");
	assert_int_equal(tt_place_expected(&p, 0x5000), 1);
	assert_int_equal(tt_parse_list("0-1", m.bits, TT_MAX_NODES), 0);
	tt_weights_clear(&w);
	assert_int_equal(tt_place_init(&p, TT_PLACE_BIND, &m, &w, 0), TT_EINPUT);
	enum tt_place_mode mode;
	assert_int_equal(tt_place_mode_parse("kernel", &mode), 0);
	assert_int_equal(mode, TT_PLACE_KERNEL);
	assert_int_equal(tt_place_mode_parse("sideways", &mode), TT_EINPUT);
}

static void test_tally_and_judge(void **state)
{
	const uintptr_t base = 0x7f0000002000; /* page index 34091302914, 0 mod 6 */
	int status[600];

	(void)state;
	setup(TT_PLACE_EXACT, "0-2", "0:3,1:1,2:2");
	for (int i = 0; i < 600; i++)
		status[i] = "000122"[i % 6] - '0';
	memset(&r, 0, sizeof(r));
	tt_place_tally(&p, base, status, 600, 1, &r);
	assert_int_equal(r.checked, 600);
	assert_int_equal(r.misplaced, 0);
	assert_true(r.got[0] == 300 && r.got[1] == 100 && r.got[2] == 200);
	assert_int_equal(tt_place_judge(&p, &r), 0);
	/* Two pages on the wrong node and one not present. */
	status[3] = 0;
	status[10] = 0;
	status[11] = -ENOENT;
	memset(&r, 0, sizeof(r));
	tt_place_tally(&p, base, status, 600, 1, &r);
	assert_int_equal(r.misplaced, 2);
	assert_int_equal(r.unknown, 1);
	/* Conservation: every checked page is counted once. */
	assert_int_equal(r.got[0] + r.got[1] + r.got[2] + r.unknown, r.checked);
	assert_int_equal(r.want[0] + r.want[1] + r.want[2], r.checked);
	assert_int_equal(tt_place_judge(&p, &r), TT_EFAIL);
	status[11] = 2;
	memset(&r, 0, sizeof(r));
	tt_place_tally(&p, base, status, 600, 1, &r);
	assert_int_equal(tt_place_judge(&p, &r), TT_EFAIL);
	assert_non_null(strstr(tt_err_msg(), "2 of 600 checked pages are not on their node"));
	/* Kernel placement tolerates a small share deviation, not a fallback. */
	p.mode = TT_PLACE_KERNEL;
	assert_int_equal(tt_place_judge(&p, &r), 0);
	for (int i = 0; i < 600; i++)
		status[i] = i % 6 == 3 ? 0 : "000122"[i % 6] - '0'; /* node 1 full */
	memset(&r, 0, sizeof(r));
	tt_place_tally(&p, base, status, 600, 1, &r);
	assert_int_equal(tt_place_judge(&p, &r), TT_EFAIL);
	assert_non_null(strstr(tt_err_msg(), "node 0 holds 400 pages where 300 were expected"));
	/* Sampling: every 3rd page of the buffer. */
	p.mode = TT_PLACE_EXACT;
	for (int i = 0; i < 200; i++)
		status[i] = "000122"[(i * 3) % 6] - '0';
	memset(&r, 0, sizeof(r));
	tt_place_tally(&p, base, status, 200, 3, &r);
	assert_int_equal(r.misplaced, 0);
	assert_int_equal(r.checked, 200);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_matches_model),
		cmocka_unit_test(test_thp_units),
		cmocka_unit_test(test_modes),
		cmocka_unit_test(test_tally_and_judge),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
