// SPDX-License-Identifier: GPL-3.0-or-later
/* The undo history's reader (tt_history_undoable, tt_history_last): any
 * file is records, damaged records skipped, or an error, never a crash; a
 * record it returns is whole, for the root asked, and names only files
 * under /sys. */
#include "../../core/error.h"
#include "../../writer/journal.h"
#include "fuzz.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void check(const struct tt_journal *j)
{
	assert(strcmp(j->root, "/") == 0 && (j->n || j->nimplied) && j->kind[0]);
	for (int i = 0; i < j->n; i++)
		assert(strncmp(j->w[i].file, "/sys/", 5) == 0 && !strstr(j->w[i].file, "/../"));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[] = "/tmp/fuzz-history-XXXXXX";
	int damaged = -1;
	struct tt_journal j;

	if (fuzz_file(data, size, path) < 0)
		return 0;
	if (tt_history_undoable(path, "/", &j, &damaged) == 1) {
		check(&j);
		tt_journal_release(&j);
	}
	assert(damaged >= 0);
	if (tt_history_last(path, "/", NULL, &j, NULL) == 1) {
		check(&j);
		tt_journal_release(&j);
	}
	unlink(path);
	return 0;
}
