// SPDX-License-Identifier: GPL-3.0-or-later
/* The refusals before any move (the process, its owner, our capabilities,
 * the kernel's own check), and what DAMON offers instead. */
#include "rebalance.h"

#include "../core/error.h"
#include "../core/parse.h"

#include <errno.h>
#include <limits.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* "Uid:\treal\teffective\tsaved\tfs": the first three, how many parsed. */
static int uids(const char *s, unsigned int *uid)
{
	int n = 0;

	while (n < 3) {
		char *end;
		unsigned long v;

		s += strspn(s, " \t");
		if (*s < '0' || *s > '9')
			break;
		errno = 0;
		v = strtoul(s, &end, 10);
		if (errno || v > UINT_MAX || (*end && *end != ' ' && *end != '\t'))
			break;
		uid[n++] = (unsigned int)v;
		s = end;
	}
	return n;
}

int tt_rb_status_read(FILE *f, struct tt_rb_status *st)
{
	char *line = NULL;
	size_t cap = 0;

	memset(st, 0, sizeof(*st));
	while (getline(&line, &cap, f) > 0) {
		tt_chomp(line);
		if (strncmp(line, "Name:", 5) == 0)
			snprintf(st->comm, sizeof(st->comm), "%s",
				 line + 5 + strspn(line + 5, " \t"));
		else if (strncmp(line, "Uid:", 4) == 0)
			st->nuid = uids(line + 4, st->uid);
		else if (strncmp(line, "VmSize:", 7) == 0)
			st->vm = true;
		else if (strncmp(line, "Kthread:", 8) == 0) {
			st->kthread = strcmp(line + 8 + strspn(line + 8, " \t"), "1") == 0;
			st->has_kthread = true;
		} else if (strncmp(line, "State:", 6) == 0) {
			char c = line[6 + strspn(line + 6, " \t")];

			st->zombie = c == 'Z' || c == 'X';
		} else if (strncmp(line, "Mems_allowed_list:", 18) == 0)
			st->has_mems = tt_parse_list(line + 18 + strspn(line + 18, " \t"),
						     st->mems.bits, TT_MAX_NODES) == 0 &&
				       tt_nodemask_weight(&st->mems);
	}
	free(line);
	return ferror(f) ? TT_EUNAVAIL : 0;
}

/* Our effective capabilities (capget: no file to read). */
static void our_caps(bool *ptrace, bool *nice)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];

	*ptrace = *nice = false;
	if (syscall(SYS_capget, &h, d) < 0)
		return;
	*ptrace = d[0].effective & (1u << CAP_SYS_PTRACE);
	*nice = d[0].effective & (1u << CAP_SYS_NICE);
}

/* The live process pinned (p->ref), in a pid namespace whose pids are
 * ours. In a pid namespace whose /proc is another's (the host's, mounted
 * before unshare), /proc/PID is one process and move_pages(PID) the process
 * of that number here: nothing read would be of what moves. */
static int rb_pin(pid_t pid, const char *path, struct tt_rb_proc *p)
{
	pid_t self;

	if (!tt_proc_ns_ours(&self)) {
		tt_err(TT_EUNAVAIL,
		       "'/proc' is not of this pid namespace (/proc/self is pid %d, this process "
		       "is pid %d): its process %d is not the one move_pages would reach",
		       (int)self, (int)getpid(), (int)pid);
		tt_err_hint("mount a /proc of this namespace (unshare --pid --fork --mount-proc)");
		return TT_EUNAVAIL;
	}
	if (tt_proc_ref_open(pid, &p->ref) < 0)
		return tt_err(TT_EINPUT, "no process %d ('%s' does not exist)", (int)pid, path);
	return 0;
}

/* A weighted node outside the process's cpuset (Mems_allowed_list):
 * move_pages refuses to put a page there (mm/migrate.c do_pages_move:
 * EACCES for the whole call once it meets such a node), so the plan
 * could never be met. */
static int rb_mems_check(pid_t pid, const char *comm, const struct tt_rb_status *st,
			 const struct tt_weights *w)
{
	char allowed[1024];
	int id;

	if (!st->has_mems)
		return 0;
	tt_bit_format_list(st->mems.bits, TT_MAX_NODES, allowed, sizeof(allowed));
	tt_nodemask_for_each (id, &w->set)
		if (!tt_nodemask_test(&st->mems, id)) {
			tt_err(TT_EINPUT,
			       "node %d is not one process %d ('%s') may use: its cpuset allows "
			       "nodes %s (Mems_allowed_list), and the kernel moves no page "
			       "elsewhere (EACCES)",
			       id, (int)pid, comm, allowed);
			tt_err_hint("weights over nodes %s, or the node added to its cgroup's "
				    "cpuset.mems",
				    allowed);
			return TT_EINPUT;
		}
	return 0;
}

/* The kernel's own check, with nothing moved: move_pages of no pages
 * runs find_mm_struct (ptrace_may_access with PTRACE_MODE_READ_REALCREDS
 * since Linux 4.13, commit 197e7e521384: the same user or CAP_SYS_PTRACE)
 * and returns. */
static int kernel_check(pid_t pid, const struct tt_rb_proc *p)
{
	long r = tt_rb_move_pages(pid, 0, NULL, NULL, NULL, 0);

	if (r == -ESRCH)
		return tt_err(TT_EINPUT, "no process %d", (int)pid);
	if (r == -EINVAL)
		return tt_err(TT_EINPUT, "process %d ('%s') has no memory of its own to move",
			      (int)pid, p->comm);
	if (r == -EPERM || r == -EACCES) {
		tt_err(TT_EUNAVAIL,
		       "not permitted to move the pages of process %d ('%s', uid %u): the kernel "
		       "refused (%s)",
		       (int)pid, p->comm, p->uid, strerror((int)-r));
		/* Root refused has CAP_SYS_PTRACE in its own namespace: what
		 * is left is a namespace or a security module. */
		if (geteuid() == 0)
			tt_err_hint("move_pages needs CAP_SYS_PTRACE over the process: as root "
				    "here, it is refused by a security module (Yama's "
				    "kernel.yama.ptrace_scope 3, SELinux, AppArmor) or because "
				    "the process is outside this user namespace");
		else
			tt_err_hint("move_pages needs the process's own user or CAP_SYS_PTRACE "
				    "(and CAP_SYS_NICE to move pages it shares); run as root or "
				    "as uid %u",
				    p->uid);
		return TT_EUNAVAIL;
	}
	if (r < 0)
		return tt_err_sys(r == -ENOSYS ? TT_EUNAVAIL : TT_EFAIL, (int)-r,
				  "move_pages of process %d", (int)pid);
	return 0;
}

int tt_rb_check(const struct tt_sysfs *s, pid_t pid, const struct tt_weights *w,
		const struct tt_topo *t, bool move_all, struct tt_rb_proc *p)
{
	char path[PATH_MAX], nodes[1024];
	struct tt_rb_status st;
	int id, rc;
	FILE *f;

	memset(p, 0, sizeof(*p));
	p->ref = (struct tt_proc_ref){ .pid = pid, .pidfd = -1, .starttime = -1 };
	tt_bit_format_list(t->mem_nodes.bits, TT_MAX_NODES, nodes, sizeof(nodes));
	tt_nodemask_for_each (id, &w->set)
		if (!tt_nodemask_test(&t->mem_nodes, id)) {
			tt_err(TT_EINPUT, "node %d is not an online memory node", id);
			tt_err_hint("the memory nodes of this machine are %s", nodes);
			return TT_EINPUT;
		}
	if (pid <= 0)
		return tt_err(TT_EINPUT, "pid '%d' is not a process id", (int)pid);
	if (tt_sysfs_path(s, path, sizeof(path), "/proc/%d/status", (int)pid) < 0)
		return TT_EINPUT;
	/* Bound first, then read: every status line below, and every later
	 * query and move, is of the process pinned (a pid reused between a
	 * read and the pin would have had another's status checked). */
	if (s->live) {
		rc = rb_pin(pid, path, p);
		if (rc < 0)
			return rc;
	}
	if (!(f = fopen(path, "re"))) {
		if (errno == ENOENT)
			return tt_err(TT_EINPUT, "no process %d ('%s' does not exist)", (int)pid,
				      path);
		return tt_err_sys(TT_EUNAVAIL, errno, "cannot read '%s'", path);
	}
	rc = tt_rb_status_read(f, &st);
	fclose(f);
	if (rc < 0)
		return tt_err(TT_EUNAVAIL, "cannot read '%s'", path);
	if (s->live && !tt_proc_ref_alive(&p->ref))
		return tt_err(TT_EINPUT, "no process %d (it exited while '%s' was read)", (int)pid,
			      path);
	snprintf(p->comm, sizeof(p->comm), "%s", st.comm);
	p->uid = st.uid[0];
	/* A zombie has no mm either (exit_mm ran): it had memory, now gone,
	 * and was called a kernel thread. */
	if (st.zombie && !st.kthread)
		return tt_err(TT_EINPUT,
			      "process %d ('%s') has exited (a zombie its parent has not reaped): "
			      "it has no memory left to move",
			      (int)pid, p->comm);
	/* A kernel thread has no mm: Kthread: 1 since Linux 6.0, before it only
	 * no Vm* lines. A process caught exiting has none either once exit_mm
	 * ran, before it is a zombie: with Kthread: 0 it is that, and was
	 * called a kernel thread (under QEMU, killed 0.5 s into a move). */
	p->kernel_thread = st.has_kthread ? st.kthread : !st.vm;
	if (!p->kernel_thread && !st.vm)
		return tt_err(TT_EINPUT,
			      "process %d ('%s') is exiting (its memory is already gone): nothing "
			      "moved",
			      (int)pid, p->comm);
	if (p->kernel_thread)
		return tt_err(TT_EINPUT,
			      "process %d ('%s') is a kernel thread: it has no user memory to "
			      "move",
			      (int)pid, p->comm);
	rc = rb_mems_check(pid, p->comm, &st, w);
	if (rc < 0)
		return rc;
	p->same_user = st.nuid == 3 && st.uid[0] == getuid() && st.uid[1] == getuid() &&
		       st.uid[2] == getuid();
	our_caps(&p->cap_ptrace, &p->cap_nice);
	if (move_all && !p->cap_nice)
		return tt_err(TT_EUNAVAIL,
			      "moving pages shared with other processes (MPOL_MF_MOVE_ALL) needs "
			      "CAP_SYS_NICE");
	if (!s->live)
		return 0; /* a fixture's process: its figures only, nothing to move */
	return kernel_check(pid, p);
}

void tt_rb_damon(const struct tt_sysfs *s, const char *release, char *buf, size_t size)
{
	unsigned int major = 0, minor = 0;

	buf[0] = '\0';
	if (!tt_sysfs_exists(s, "/sys/kernel/mm/damon/admin"))
		return;
	if (release)
		sscanf(release, "%u.%u", &major, &minor);
	/* The dests directory (schemes/<N>/dests/nr_dests, dests/<D>/id and
	 * weight) came with mm/damon/sysfs-schemes.c commit 2cd0bf85a203
	 * (July 2025, for Linux 6.17). */
	if (major > 6 || (major == 6 && minor >= 17))
		snprintf(buf, size,
			 "DAMON is here and may offer weighted migration (a migrate_hot or "
			 "migrate_cold scheme's dests/N/id and weight; export --format shares "
			 "gives the weights): it moves regions by access, continuously; "
			 "rebalance moves this process's pages once, all to the shares");
	else
		snprintf(buf, size,
			 "DAMON is here but not its weighted migration (a scheme's dests, Linux "
			 "6.17+)");
}

void tt_rb_proc_release(struct tt_rb_proc *p)
{
	tt_proc_ref_close(&p->ref);
}
