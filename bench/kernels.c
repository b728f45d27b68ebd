#include "kernels.h"

#include <string.h>

const struct tt_kernel *const tt_kernels[] = {
	&tt_k_copy, &tt_k_scale, &tt_k_add, &tt_k_triad, &tt_k_copy_nt, &tt_k_triad_nt, NULL,
};

const struct tt_kernel *tt_kernel_find(const char *name)
{
	for (const struct tt_kernel *const *k = tt_kernels; *k; k++)
		if (strcmp((*k)->name, name) == 0)
			return *k;
	return NULL;
}

void tt_kernel_init(double *a, double *b, double *c, size_t lo, size_t hi)
{
	for (size_t i = lo; i < hi; i++) {
		if (a)
			a[i] = 1.0;
		if (b)
			b[i] = 2.0;
		if (c)
			c[i] = 0.5;
	}
}
