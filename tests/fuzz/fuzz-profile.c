// SPDX-License-Identifier: GPL-3.0-or-later
/* tt_recos_from_profile: any file is a profile or an error naming it, never a
 * crash; what it accepts has 1..64 recommendations of a known interface. */
#include "../../writer/recos.h"
#include "../../core/error.h"
#include "fuzz.h"

#include <assert.h>
#include <stdio.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[] = "/tmp/fuzz-profile-XXXXXX";
	int fd = mkstemp(path);
	struct tt_recos rs;

	if (fd < 0)
		return 0;
	if (write(fd, data, size) == (ssize_t)size) {
		if (tt_recos_from_profile(path, &rs) == 0) {
			assert(rs.n >= 1 && rs.n <= TT_RECO_MAX);
			for (int i = 0; i < rs.n; i++)
				assert(!strcmp(rs.r[i].interface, "upstream") ||
				       !strcmp(rs.r[i].interface, "rfc"));
		} else {
			assert(strstr(tt_err_msg(), path));
		}
	}
	close(fd);
	unlink(path);
	return 0;
}
