/* tuner/stats.c: Student's t quantile and the interval on a mean. */
#include "test.h"

#include "../../tuner/stats.h"

#include <math.h>

static void test_intervals(void **state)
{
	static const double x[] = { 1, 2, 3 };
	double mean, half;

	(void)state;
	tt_mean_ci(x, 3, &mean, &half);
	assert_true(mean == 2 && fabs(half - 4.303 / sqrt(3)) < 1e-9);
	tt_mean_ci(x, 1, &mean, &half);
	assert_true(mean == 1 && isinf(half));
	assert_true(tt_t975(1) == 12.706 && tt_t975(30) == 2.042 && tt_t975(1000) == 1.960);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intervals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
