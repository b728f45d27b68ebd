// SPDX-License-Identifier: GPL-3.0-or-later
/* The fuzz targets' inputs replayed without libFuzzer, so `make check` builds
 * every target with the ordinary compiler and runs it on the shared seeds and
 * a few edge inputs (empty, one byte, no terminating newline) on any host:
 * a target that no longer links, or an input that now crashes it, fails the
 * tests where a developer sees it, not only in CI's clang fuzzing step.
 *
 *	fuzz-NAME [FILE...]    (no FILE: every file in $TT_TOP/tests/fuzz/seeds)
 *
 * TAP output: one test per input. A crash or a failed assertion in the target
 * ends the run early, which tests/run.sh reports against the plan. */
#define _GNU_SOURCE
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int read_all(const char *path, uint8_t **data, size_t *size)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 4096, n = 0;
	uint8_t *buf = malloc(cap);

	if (!f || !buf) {
		if (f)
			fclose(f);
		free(buf);
		return -1;
	}
	for (;;) {
		n += fread(buf + n, 1, cap - n, f);
		if (n < cap)
			break;
		uint8_t *more = realloc(buf, cap *= 2);
		if (!more) {
			free(buf);
			fclose(f);
			return -1;
		}
		buf = more;
	}
	if (ferror(f)) {
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	*data = buf;
	*size = n;
	return 0;
}

static char **paths;
static int npaths;

static int collect(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	char **more;

	(void)st;
	if (type != FTW_F || path[ftw->base] == '.')
		return 0;
	more = realloc(paths, (npaths + 1) * sizeof(*paths));
	if (!more || !(more[npaths] = strdup(path)))
		return -1;
	paths = more;
	npaths++;
	return 0;
}

static int by_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
	static const char *const edges[] = { "", "0", "\n", "0:1,1:1", "-1" };
	const int nedges = (int)(sizeof(edges) / sizeof(edges[0]));
	const char *top = getenv("TT_TOP");
	char dir[4096];
	int n = 0, rc = 0;

	if (argc > 1) {
		paths = argv + 1;
		npaths = argc - 1;
	} else {
		/* libFuzzer reads a corpus folder recursively; so does this. */
		snprintf(dir, sizeof(dir), "%s/tests/fuzz/seeds", top ? top : ".");
		if (nftw(dir, collect, 16, FTW_PHYS) != 0 || npaths == 0) {
			printf("1..1\nnot ok 1 - cannot read the seeds in %s (set TT_TOP)\n", dir);
			return 1;
		}
		qsort(paths, npaths, sizeof(*paths), by_path);
	}
	printf("1..%d\n", nedges + npaths);
	for (int i = 0; i < nedges; i++) {
		fflush(stdout); /* what passed is on record if the next input crashes */
		LLVMFuzzerTestOneInput((const uint8_t *)edges[i], strlen(edges[i]));
		printf("ok %d - edge input \"%s\" (%zu bytes)\n", ++n,
		       edges[i][0] == '\n' ? "\\n" : edges[i], strlen(edges[i]));
	}
	for (int i = 0; i < npaths; i++) {
		uint8_t *data;
		size_t size;

		fflush(stdout);
		if (read_all(paths[i], &data, &size) < 0) {
			printf("not ok %d - cannot read %s\n", ++n, paths[i]);
			rc = 1;
			continue;
		}
		LLVMFuzzerTestOneInput(data, size);
		free(data);
		printf("ok %d - %s (%zu bytes)\n", ++n, paths[i], size);
	}
	if (argc == 1) {
		for (int i = 0; i < npaths; i++)
			free(paths[i]);
		free(paths);
	}
	return rc;
}
