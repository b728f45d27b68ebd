// SPDX-License-Identifier: GPL-3.0-or-later
/* How an interval is shown (interval.h). */
#include "interval.h"

#include <math.h>

bool tt_ci_positive(double *lo, double *hi)
{
	if (*lo > 0 && *hi >= *lo && isfinite(*hi))
		return true;
	*lo = *hi = NAN;
	return false;
}

static double inverse_change(double g)
{
	return g > -1 ? 1 / (1 + g) - 1 : NAN;
}

void tt_inverse_change(double g, double lo, double hi, double *c, double *clo, double *chi)
{
	*c = inverse_change(g);
	*clo = inverse_change(hi);
	*chi = inverse_change(lo);
}
