#include "kernels.h"

#include <string.h>

const struct tt_kernel *const tt_kernels[] = {
	&tt_k_copy, &tt_k_scale, &tt_k_add, &tt_k_triad, &tt_k_copy_nt, &tt_k_triad_nt,
	&tt_k_reads, &tt_k_3r1w, &tt_k_2r1w, &tt_k_1r1w, &tt_k_nt_writes, &tt_k_3r1w_nt,
	&tt_k_latency, &tt_k_loaded_latency, NULL,
};

const struct tt_kernel *tt_kernel_find(const char *name)
{
	for (const struct tt_kernel *const *k = tt_kernels; *k; k++)
		if (strcmp((*k)->name, name) == 0)
			return *k;
	return NULL;
}

void tt_kernel_init(double *const arr[TT_K_MAX_ARRAYS], size_t lo, size_t hi)
{
	static const double init[TT_K_MAX_ARRAYS] = {1.0, 2.0, 0.5, 0.0};

	for (int k = 0; k < TT_K_MAX_ARRAYS; k++)
		if (arr[k])
			for (size_t i = lo; i < hi; i++)
				arr[k][i] = init[k];
}
