/* Shared by the libFuzzer targets: a NUL-terminated copy of the input. */
#ifndef TT_FUZZ_H
#define TT_FUZZ_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s) {
		memcpy(s, data, size);
		s[size] = '\0';
	}
	return s;
}
#endif
