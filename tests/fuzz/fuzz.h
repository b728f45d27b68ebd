/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared by the libFuzzer targets: a NUL-terminated copy of the input, or
 * the input as a file for the parsers that read one. */
#ifndef TT_FUZZ_H
#define TT_FUZZ_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s) {
		memcpy(s, data, size);
		s[size] = '\0';
	}
	return s;
}

/* The input written whole to path, a mkstemp template ("/tmp/x-XXXXXX"):
 * 0, or -1 (nothing left behind) when it cannot be. */
static inline int fuzz_file(const uint8_t *data, size_t size, char *path)
{
	int fd = mkstemp(path);

	if (fd < 0)
		return -1;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		unlink(path);
		return -1;
	}
	close(fd);
	return 0;
}
#endif
