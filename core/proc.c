// SPDX-License-Identifier: GPL-3.0-or-later
#include "proc.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434 /* the same number on every architecture */
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif

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

int tt_proc_ref_open(pid_t pid, struct tt_proc_ref *ref)
{
	long long again;

	ref->pid = pid;
	ref->pidfd = -1;
	ref->starttime = pid > 0 ? tt_proc_starttime(pid) : -1;
	if (ref->starttime < 0)
		return -1;
	ref->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	/* The start time read again once the pidfd holds the process: the
	 * same, so the pidfd is of the process first read, not of one that
	 * took its pid between the two. */
	again = tt_proc_starttime(pid);
	if (again != ref->starttime) {
		tt_proc_ref_close(ref);
		ref->starttime = -1;
		return -1;
	}
	return 0;
}

bool tt_proc_ref_alive(const struct tt_proc_ref *ref)
{
	/* Signal 0 checks only; EPERM says it is there and not ours to
	 * signal. */
	if (ref->pidfd >= 0 && syscall(SYS_pidfd_send_signal, ref->pidfd, 0, NULL, 0) < 0 &&
	    errno == ESRCH)
		return false;
	return tt_proc_alive(ref->pid, ref->starttime);
}

void tt_proc_ref_close(struct tt_proc_ref *ref)
{
	if (ref->pidfd >= 0)
		close(ref->pidfd);
	ref->pidfd = -1;
}

bool tt_proc_has_mm(pid_t pid)
{
	char path[64], line[256];
	bool vm = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (!(f = fopen(path, "re")))
		return false;
	while (!vm && fgets(line, sizeof(line), f))
		vm = strncmp(line, "VmSize:", 7) == 0;
	fclose(f);
	return vm;
}

bool tt_proc_ns_ours(pid_t *proc_self)
{
	char buf[32];
	ssize_t n = readlink("/proc/self", buf, sizeof(buf) - 1);
	long v;
	char *end;

	*proc_self = 0;
	if (n <= 0)
		return false;
	buf[n] = '\0';
	errno = 0;
	v = strtol(buf, &end, 10);
	if (errno || *end || v <= 0 || v > INT_MAX)
		return false;
	*proc_self = (pid_t)v;
	return *proc_self == getpid();
}
