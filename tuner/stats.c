/* Student's t and intervals on a mean (stats.h). */
#include "stats.h"

#include <math.h>

double tt_t975(int dof)
{
	/* Two-sided 95% quantiles of Student's t (any statistics table). */
	static const double t[] = { 0,	   12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365,
				    2.306, 2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
				    2.120, 2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069,
				    2.064, 2.060,  2.056, 2.052, 2.048, 2.045, 2.042 };

	if (dof < 1)
		return INFINITY;
	if (dof <= 30)
		return t[dof];
	return dof <= 60 ? 2.000 : dof <= 120 ? 1.980 : 1.960;
}

void tt_mean_ci(const double *x, int n, double *mean, double *half)
{
	double m = 0, ss = 0;

	for (int i = 0; i < n; i++)
		m += x[i];
	m = n > 0 ? m / n : NAN;
	for (int i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	*mean = m;
	*half = n >= 2 ? tt_t975(n - 1) * sqrt(ss / (n - 1) / n) : INFINITY;
}
