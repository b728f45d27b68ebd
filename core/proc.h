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

/* A process named for calls that take a pid (move_pages(2)), so that a pid
 * reused meanwhile is not taken for it: its start time, and a pidfd
 * (pidfd_open, Linux 5.3) where the kernel has one, which says ESRCH once
 * the process is reaped, when its pid may go to another. A call by pid
 * between two checks that both find it alive reached it: a pid is not
 * reused before its process is reaped. */
struct tt_proc_ref {
	pid_t pid;
	int pidfd;	     /* -1: none (before Linux 5.3), the start time alone */
	long long starttime; /* field 22 of /proc/PID/stat, clock ticks since boot */
};
/* 0, or -1 when there is no process pid (ref->pidfd -1 then). */
int tt_proc_ref_open(pid_t pid, struct tt_proc_ref *ref);
/* The process ref names has not been reaped (a zombie still counts). */
bool tt_proc_ref_alive(const struct tt_proc_ref *ref);
void tt_proc_ref_close(struct tt_proc_ref *ref);
/* The process has its memory still: false once it is exiting (its mm gone:
 * no Vm lines in /proc/PID/status; move_pages says EINVAL then, before the
 * ESRCH of a reaped one) or gone. */
bool tt_proc_has_mm(pid_t pid);
/* /proc is this pid namespace's (/proc/self is getpid()): else a pid read
 * under /proc and the same pid given to a system call name two processes. */
bool tt_proc_ns_ours(pid_t *proc_self);

#endif
