// SPDX-License-Identifier: GPL-3.0-or-later
#include "proc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long long tt_proc_starttime(pid_t pid)
{
	char path[64], line[1024], *p, *save = NULL;
	long long start = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	/* "pid (comm) state ...": comm may hold spaces and parentheses, so
	 * count fields from the last ')', which is field 2's end. */
	if (fgets(line, sizeof(line), f) && (p = strrchr(line, ')'))) {
		int field = 2;

		for (char *tok = strtok_r(p + 1, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
			if (++field == 22) {
				start = strtoll(tok, NULL, 10);
				break;
			}
	}
	fclose(f);
	return start;
}

void tt_proc_boot_id(char *buf, size_t size)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");

	buf[0] = '\0';
	if (!f)
		return;
	if (fgets(buf, (int)size, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

bool tt_proc_alive(pid_t pid, long long starttime)
{
	return pid > 0 && starttime >= 0 && tt_proc_starttime(pid) == starttime;
}
