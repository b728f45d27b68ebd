/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Which process is this, and is that one still alive? A pid alone is not an
 * identity (pids are reused), so the pair (pid, start time since boot) is,
 * with the boot id telling boots apart. Used by the apply journal and the
 * database to find work left by a process that is gone.
 */
#ifndef TT_PROC_H
#define TT_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Field 22 of /proc/PID/stat, clock ticks since boot; -1 when no such pid. */
long long tt_proc_starttime(pid_t pid);
/* /proc/sys/kernel/random/boot_id, "" when unreadable. */
void tt_proc_boot_id(char *buf, size_t size);
/* The process (pid, starttime) of this boot still runs. */
bool tt_proc_alive(pid_t pid, long long starttime);

#endif
