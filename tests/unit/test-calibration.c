// SPDX-License-Identifier: GPL-3.0-or-later
/* The performance model against published measurements: every case of
 * calibration-cases.h within its tolerance on the model of its machine
 * (docs/models.md gives each residual and why each tolerance). A case
 * marked as contradicting another (a table at odds with itself, or a second
 * reading of one source) need only hold with one of the two: no model can
 * meet both. */
#include "test.h"

#include "calibration-cases.h"

#include <math.h>
#include <stdlib.h>

static double residual_of(const struct calib_case *c)
{
	char path[2048];
	struct tt_model m;
	uint32_t a[CALIB_MAX_NODES];
	double g = 0;

	snprintf(path, sizeof(path), "%s/%s", getenv("TT_TOP") ? getenv("TT_TOP") : ".", c->model);
	assert_int_equal(tt_model_load(&m, path), 0);
	assert_true(c->nnodes <= m.src[0].nnodes);
	assert_int_equal(calib_gain(c, &m, c->nnodes, c->threads, false, a, &g), 0);
	return 100 * (g - c->published);
}

static const struct calib_case *find_case(const char *id)
{
	for (size_t i = 0; i < CALIB_NCASES; i++)
		if (strcmp(calib_cases[i].id, id) == 0)
			return &calib_cases[i];
	return NULL;
}

static void test_cases(void **state)
{
	int nfail = 0;

	(void)state;
	for (size_t i = 0; i < CALIB_NCASES; i++) {
		const struct calib_case *c = &calib_cases[i], *o;
		double r = residual_of(c);

		if (fabs(r) <= c->tol)
			continue;
		/* Off, but its twin holds: the table (or the reading) that
		 * contradicts it is what the model follows. */
		o = c->other ? find_case(c->other) : NULL;
		if (o && fabs(residual_of(o)) <= o->tol)
			continue;
		print_error("case %s: model off by %+.1f points (tolerance %.0f)\n", c->id, r,
			    c->tol);
		nfail++;
	}
	assert_int_equal(nfail, 0);
}

/* The table itself: ids unique, every twin named exists and names it back,
 * the published figures are gains (above -100%). */
static void test_table(void **state)
{
	(void)state;
	assert_true(CALIB_NCASES >= CALIB_NISSUE);
	for (size_t i = 0; i < CALIB_NCASES; i++) {
		const struct calib_case *c = &calib_cases[i], *o;

		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(calib_cases[j].id, c->id);
		assert_true(c->published > -1);
		assert_true(c->tol > 0);
		if (c->other) {
			o = find_case(c->other);
			assert_non_null(o);
			assert_non_null(o->other);
			assert_string_equal(o->other, c->id);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_cases),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
