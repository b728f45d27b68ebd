// SPDX-License-Identifier: GPL-3.0-or-later
/* tt_journal_read: any file is a journal or an error, never a crash; what
 * it accepts only names files under /sys and has a root and an owner. */
#include "../../core/error.h"
#include "../../writer/journal.h"
#include "fuzz.h"

#include <assert.h>
#include <stdio.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[] = "/tmp/fuzz-journal-XXXXXX";
	struct tt_journal j;

	if (fuzz_file(data, size, path) < 0)
		return 0;
	if (tt_journal_read(path, &j) == 0) {
		assert(j.root[0] == '/' && j.pid > 0 && (j.n || j.nimplied));
		for (int i = 0; i < j.n; i++)
			assert(strncmp(j.w[i].file, "/sys/", 5) == 0 &&
			       !strstr(j.w[i].file, "/../"));
		tt_journal_release(&j);
	}
	unlink(path);
	return 0;
}
