// SPDX-License-Identifier: GPL-3.0-or-later
#define _GNU_SOURCE /* flock */
#include "apply.h"

#include "../core/error.h"
#include "../core/fixture-kernel.h"
#include "journal.h"
#include "../core/parse.h"
#include "../core/proc.h"
#include "../core/state.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define JOURNAL "apply.journal"
#define LOCK "apply.lock"
#define HISTORY "apply.history"

/* Journal temp files (journal.c: JOURNAL.XXXXXX) of a process killed
 * before its rename: with the lock held, no one else is writing one. */
static void remove_stale_temps(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)))
		if (strncmp(de->d_name, JOURNAL ".", sizeof(JOURNAL)) == 0 &&
		    strlen(de->d_name) == sizeof(JOURNAL) + 6)
			unlinkat(dirfd(d), de->d_name, 0);
	closedir(d);
}

/* Held for the whole transaction (and recovery), so that two applies or
 * restores cannot interleave their writes or journals. Always in the state
 * folder, whichever journal a restore reads. The temp files a store cut
 * short by a kill leaves (the state folder's; a fixture root's, its
 * emulated kernel stores) are removed only here, with the lock held: one
 * removed at start-up, unlocked, was the store in flight of another
 * tiertune holding the lock, whose rename then failed ("writing '.../auto':
 * No such file or directory", 1 of 6 runs of t0047's eight applies). */
/* The pid the lock's holder wrote into it, when that process still runs
 * and is a tiertune or tiertop (the text outlives its writer, and the lock
 * may be held by another program, flock(1) say): "" otherwise. */
static void lock_holder(int fd, char *buf, size_t size)
{
	char comm[64] = "", path[64];
	ssize_t n = pread(fd, buf, size - 1, 0);
	FILE *f;

	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	if (!buf[0] || strspn(buf, "0123456789") != strlen(buf)) {
		buf[0] = '\0';
		return;
	}
	snprintf(path, sizeof(path), "/proc/%s/comm", buf);
	if ((f = fopen(path, "re"))) {
		if (!fgets(comm, sizeof(comm), f))
			comm[0] = '\0';
		fclose(f);
	}
	if (strncmp(comm, "tiertune", 8) && strncmp(comm, "tiertop", 7) &&
	    strncmp(comm, "top-edit", 8))
		buf[0] = '\0';
}

static int lock_state(const char *dir, const struct tt_sysfs *sfs, int *fd)
{
	char path[4200], holder[32] = "";
	int waited_ms = 0, wait_ms, rc = tt_apply_lock_wait_ms(&wait_ms);

	if (rc == 0)
		rc = tt_state_prepare(dir);
	if (rc < 0)
		return rc;
	snprintf(path, sizeof(path), "%s/" LOCK, dir);
	*fd = tt_open_regular(path, O_RDWR | O_CREAT, 0600, "lock");
	if (*fd < 0)
		return *fd;
	tt_apply_lock_waited_ms = 0;
	tt_apply_lock_holder[0] = '\0';
	/* Waited for, up to a bound: another apply is a few milliseconds
	 * (12 boot and hotplug runs started at once: 4 exited 1 without
	 * waiting), a restore or tiertop's edit as short; auto --apply holds
	 * it for its whole search, which the unit waits out
	 * (TIERTUNE_LOCK_WAIT). Polled, not a blocking flock: signals are
	 * blocked around transactions, and a bound needs no alarm. */
	while (flock(*fd, LOCK_EX | LOCK_NB) < 0) {
		int err = errno;

		if (err == EINTR)
			continue;
		if (err == EWOULDBLOCK && !waited_ms)
			lock_holder(*fd, tt_apply_lock_holder, sizeof(tt_apply_lock_holder));
		if (err != EWOULDBLOCK || waited_ms >= wait_ms) {
			if (err != EWOULDBLOCK) {
				rc = tt_err_sys(TT_EFAIL, err, "cannot lock '%s'", path);
			} else {
				lock_holder(*fd, holder, sizeof(holder));
				rc = tt_err(TT_EFAIL,
					    "another tiertune is writing weights (lock '%s' is "
					    "held%s%s; waited %d s)",
					    path, holder[0] ? " by pid " : "", holder,
					    waited_ms / 1000);
				tt_err_hint("TIERTUNE_LOCK_WAIT=SECONDS waits longer (now %d)",
					    wait_ms / 1000);
			}
			close(*fd);
			*fd = -1;
			return rc;
		}
		usleep(50 * 1000);
		waited_ms += 50;
	}
	tt_apply_lock_waited_ms = waited_ms;
	/* Who holds it, for a waiter's message (best effort: the lock is the
	 * flock, not the text). */
	if (ftruncate(*fd, 0) == 0) {
		int n = snprintf(holder, sizeof(holder), "%d\n", (int)getpid());

		if (pwrite(*fd, holder, (size_t)n, 0) < 0)
			(void)0;
	}
	remove_stale_temps(dir);
	if (!sfs->live)
		tt_fixture_recover(sfs);
	return 0;
}

char tt_apply_lock_holder[32];
int tt_apply_lock_waited_ms;

int tt_apply_lock_wait_ms(int *ms)
{
	const char *env = getenv("TIERTUNE_LOCK_WAIT");
	uint64_t v;

	*ms = TT_APPLY_LOCK_WAIT_S * 1000;
	if (!env || !*env)
		return 0;
	/* Not silently the default: "5m" or "-1" meant something else, and
	 * the boot unit's 1800 mistyped would give up after 30 s. */
	if (tt_parse_u64(env, 0, 24 * 3600, &v) != 0)
		return tt_err(TT_EINPUT,
			      "TIERTUNE_LOCK_WAIT '%s' is not a number of seconds (0-86400)", env);
	*ms = (int)v * 1000;
	return 0;
}

/* The only writer: only the weight interfaces' own files are ever written,
 * whatever a journal, the history or a profile names. */
static int write_one(const struct tt_sysfs *s, const struct tt_write *w, const char *value)
{
	char now[64];
	int rc = tt_wi_weight_file(w->file, NULL)
			 ? tt_sysfs_write(s, value, "%s", w->file)
			 : tt_err(TT_EINPUT,
				  "refusing to write '%s': not an interleave weight file", w->file);

	if (rc < 0)
		return rc;
	rc = tt_apply_write_current(s, w, now, sizeof(now));
	if (rc < 0)
		return rc;
	if (strcmp(now, value) != 0)
		return tt_err(TT_EFAIL, "wrote '%s' to '%s%s' and read back '%s'", value, s->root,
			      w->file, now);
	return 0;
}

/* Puts old values back in reverse order, then side effects. Returns the
 * first failure, having tried every value. */
static int put_back(const struct tt_sysfs *s, struct tt_write *w, int n, struct tt_write *implied,
		    int nimplied, int *restored)
{
	int first = 0;

	*restored = 0;
	for (int i = n - 1; i >= 0; i--) {
		char now[64];
		int rc = tt_apply_write_current(s, &w[i], now, sizeof(now));

		if (rc == 0 && strcmp(now, w[i].old) == 0)
			continue;
		rc = write_one(s, &w[i], w[i].old);
		if (rc < 0 && !first)
			first = rc;
		else if (rc == 0)
			(*restored)++;
	}
	/* The mode last: turning auto back on recomputes the weights the node
	 * writes above just set. */
	for (int i = 0; i < nimplied; i++) {
		char now[64];
		int rc = tt_apply_write_current(s, &implied[i], now, sizeof(now));

		if (rc == 0 && strcmp(now, implied[i].old) == 0)
			continue;
		rc = write_one(s, &implied[i], implied[i].old);
		if (rc < 0 && !first)
			first = rc;
		else if (rc == 0)
			(*restored)++;
	}
	return first;
}

/* The journal's transaction committed when the history's newest record
 * for its root is that transaction's (same txn: one process, tiertop say,
 * commits many): the values the journal holds are not to be put back, the
 * record undoes it. 1 committed, 0 not, < 0 when the history cannot be
 * read: then nobody can tell, and replaying a committed change's journal
 * would undo it behind the history's back (its record then names values
 * the files no longer hold, and restore --last refuses until --force). */
static int committed(const char *state_dir, const struct tt_journal *j)
{
	char path[4200];
	struct tt_journal h;
	int rc, same;

	snprintf(path, sizeof(path), "%s/" HISTORY, state_dir);
	rc = tt_history_last(path, j->root, NULL, &h, NULL);
	if (rc <= 0)
		return rc;
	same = tt_journal_same_txn(&h, j);
	tt_journal_release(&h);
	return same;
}

/* A journal that can no longer be put back as it is, moved out of the
 * way under a name of its own (apply.journal.aside-TIME-PID, which
 * remove_stale_temps leaves alone) and kept for the operator: left where
 * it was, every later apply (the boot unit's too) would stop at it, and
 * no command could clear it. */
static int set_aside(const char *journal, struct tt_recovery *rec, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int set_aside(const char *journal, struct tt_recovery *rec, const char *fmt, ...)
{
	va_list ap;

	snprintf(rec->aside, sizeof(rec->aside), "%s.aside-%lld-%d", journal, (long long)time(NULL),
		 (int)getpid());
	va_start(ap, fmt);
	vsnprintf(rec->aside_why, sizeof(rec->aside_why), fmt, ap);
	va_end(ap);
	if (rename(journal, rec->aside) < 0) {
		int err = errno;

		rec->aside[0] = '\0';
		return tt_err_sys(TT_EFAIL, err, "cannot set journal '%s' aside (%s)", journal,
				  rec->aside_why);
	}
	return tt_journal_sync_dir(journal);
}

/* The boot of the kernel behind the root: the live one's, or a fixture's
 * emulated proc/sys/kernel/random/boot_id ("" when it has none: a copy
 * that does not reboot). */
static void root_boot_id(const struct tt_sysfs *s, char *buf, size_t size)
{
	if (tt_sysfs_read(s, buf, size, "/proc/sys/kernel/random/boot_id") < 0)
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

/* A write whose file is gone from the root (its node offline or removed
 * since: a CXL card pulled, memory not onlined again after a reboot). */
static bool file_gone(const struct tt_sysfs *s, const struct tt_write *w)
{
	char path[4200];

	return tt_sysfs_path(s, path, sizeof(path), "%s", w->file) == 0 && access(path, F_OK) < 0 &&
	       errno == ENOENT;
}

/* own: the journal is the state folder's, removed once done with; a file
 * the user named (restore --journal FILE) is theirs and stays. */
static int recover_locked(const char *state_dir, const char *journal, bool own,
			  const struct tt_sysfs *s, struct tt_recovery *rec)
{
	struct tt_journal j;
	char msg[1024], boot[64], gone[256] = "";
	int rc, n = 0, ngone = 0;
	size_t len = 0;

	memset(rec, 0, sizeof(*rec));
	rc = tt_journal_read(journal, &j);
	if (rc < 0)
		return rc;
	/* A journal is put back on the root it was written for, and only when
	 * that is the root this command was given: never the live /sys from a
	 * command aimed at a copy, nor the other way round. */
	if (strcmp(j.root, s->abs) != 0) {
		tt_err(TT_EINPUT, "journal '%s' holds values of sysfs root '%s', not of '%s'",
		       journal, j.root, s->abs);
		tt_err_hint("to put them back there: tiertune --sysfs-root '%s' restore", j.root);
		tt_journal_release(&j);
		return TT_EINPUT;
	}
	rc = committed(state_dir, &j);
	if (rc < 0) {
		tt_journal_release(&j);
		tt_err_prefix("cannot tell whether journal '%s' belongs to a change that had "
			      "finished (it is kept, nothing put back)",
			      journal);
		return rc;
	}
	if (rc) {
		tt_journal_release(&j);
		rec->committed = true;
		return own ? tt_journal_remove(journal) : 0;
	}
	/* Written under another boot of the kernel: that kernel's weights
	 * died with it (the weight files are memory, reset at boot), and its
	 * old values are not this kernel's to be given back. */
	root_boot_id(s, boot, sizeof(boot));
	if (own && boot[0] && strcmp(j.boot_id, "-") && strcmp(j.boot_id, boot)) {
		tt_journal_release(&j);
		return set_aside(journal, rec,
				 "written under boot %.36s, not this boot %.36s: the weights "
				 "it would put back were reset when that kernel stopped",
				 j.boot_id, boot);
	}
	/* Files gone since (their node offline): the others are put back, the
	 * journal set aside naming them, so that the next apply goes on. */
	for (int i = 0; i < j.n; i++) {
		if (own && file_gone(s, &j.w[i])) {
			ngone++;
			if (len < sizeof(gone))
				len += (size_t)snprintf(gone + len, sizeof(gone) - len, "%s%s",
							len ? " " : "", j.w[i].file);
			continue;
		}
		j.w[n++] = j.w[i];
	}
	rc = put_back(s, j.w, n, j.implied, j.nimplied, &rec->restored);
	tt_journal_release(&j);
	if (rc < 0) {
		snprintf(msg, sizeof(msg), "%s", tt_err_msg());
		return tt_err(rc, "restoring from journal '%s' failed, which is kept: %s", journal,
			      msg);
	}
	if (ngone)
		return set_aside(journal, rec,
				 "%d of its files are gone (%s): their nodes are not online; the "
				 "others were put back",
				 ngone, gone);
	return own ? tt_journal_remove(journal) : 0;
}

int tt_apply_set_aside(const char *state_dir, const struct tt_sysfs *sfs, const char *why,
		       struct tt_recovery *rec)
{
	char path[4200];
	struct tt_journal j;
	int fd, rc;

	memset(rec, 0, sizeof(*rec));
	snprintf(path, sizeof(path), "%s/" JOURNAL, state_dir);
	rc = lock_state(state_dir, sfs, &fd);
	if (rc < 0)
		return rc;
	/* Another root's journal is not this command's to move: it still
	 * puts that root back. */
	if (tt_journal_read(path, &j) == 0) {
		tt_journal_release(&j);
		if (strcmp(j.root, sfs->abs) != 0) {
			close(fd);
			return tt_err(TT_EINPUT, "journal '%s' is another root's ('%s')", path,
				      j.root);
		}
	}
	rc = access(path, F_OK) == 0 ? set_aside(path, rec, "%s", why) : 0;
	close(fd);
	return rc;
}

int tt_apply_leftover(const char *state_dir, char *path, size_t size)
{
	struct tt_journal j;
	char boot[64];
	bool alive;

	snprintf(path, size, "%s/" JOURNAL, state_dir);
	if (access(path, F_OK) < 0)
		return 0;
	/* An unreadable journal (or a link in its place) is reported as left
	 * over: recovery will say what is wrong with it. */
	if (tt_journal_read(path, &j) < 0)
		return 1;
	tt_proc_boot_id(boot, sizeof(boot));
	alive = strcmp(j.boot_id, boot) == 0 && tt_proc_alive(j.pid, j.starttime);
	tt_journal_release(&j);
	return alive ? 0 : 1;
}

int tt_apply_recover(const char *state_dir, const char *journal, const struct tt_sysfs *sfs,
		     struct tt_recovery *rec)
{
	char path[4200];
	int fd, rc;

	struct stat a, b;
	bool own;

	memset(rec, 0, sizeof(*rec));
	snprintf(path, sizeof(path), "%s/" JOURNAL, state_dir);
	own = !journal || (lstat(journal, &a) == 0 && lstat(path, &b) == 0 &&
			   a.st_dev == b.st_dev && a.st_ino == b.st_ino);
	if (!journal)
		journal = path;
	rc = lock_state(state_dir, sfs, &fd);
	if (rc < 0)
		return rc;
	rc = recover_locked(state_dir, journal, own, sfs, rec);
	close(fd);
	return rc;
}

int tt_apply_plan_last(struct tt_apply_plan *p, const char *state_dir, bool verify, long long *when)
{
	struct tt_journal j;
	char path[4200], what[4300];
	int rc;

	snprintf(path, sizeof(path), "%s/" HISTORY, state_dir);
	rc = tt_history_undoable(path, p->sfs->abs, &j, &p->history_damaged);
	if (rc < 0)
		return rc;
	if (rc == 0)
		return tt_err(TT_EINPUT,
			      "no apply on sysfs root '%s' in history '%s' left to undo (each "
			      "restore --last undoes one, newest first)",
			      p->sfs->abs, path);
	p->undo = true;
	*when = j.when;
	/* Checked before anything: restore --last writes these values. */
	snprintf(what, sizeof(what), "the change to undo in history '%s'", path);
	rc = tt_journal_check_values(&j, what);
	if (rc < 0)
		goto out;
	if (!p->be && !(p->be = tt_wi_find(j.interface))) {
		rc = tt_err(TT_EINPUT,
			    "the last apply on '%s' used interface '%s', which this tiertune "
			    "does not have",
			    p->sfs->abs, j.interface);
		goto out;
	}
	if (strcmp(j.interface, p->be->name)) {
		rc = tt_err(TT_EINPUT, "the last apply on '%s' used the %s interface, not %s",
			    p->sfs->abs, j.interface, p->be->name);
		tt_err_hint("restore --last without --interface undoes it on %s", j.interface);
		goto out;
	}
	/* Verifying needs every write in the plan, even one whose file already
	 * holds the old value: that file has changed since the apply. */
	p->write_unchanged = verify;
	/* Newest write undone first, then the mode: turning auto back on
	 * recomputes the node weights, so it must come after them. */
	for (int i = j.n - 1; i >= 0 && rc >= 0; i--) {
		int before = p->n;

		/* A weight file gone since (its node has no memory now: the
		 * kernel removes nodeN with the node's last memory, 7.2 raised
		 * "cannot read .../node3"): nothing to put back there, and the
		 * file the kernel makes when memory returns starts at its
		 * default. Left out and said; the rest is undone. */
		if (file_gone(p->sfs, &j.w[i])) {
			size_t len = strlen(p->gone_files);

			p->gone++;
			snprintf(p->gone_files + len, sizeof(p->gone_files) - len, "%s%s",
				 len ? " " : "", j.w[i].file);
			continue;
		}
		rc = tt_apply_plan_add(p, j.w[i].kind, j.w[i].src, j.w[i].old, "%s", j.w[i].file);
		if (rc == 0 && verify && p->n > before)
			snprintf(p->w[p->n - 1].expect, sizeof(p->w[0].expect), "%s", j.w[i].value);
	}
	for (int i = 0; i < j.nimplied && rc >= 0; i++) {
		int before = p->n;

		if (strcmp(j.implied[i].old, j.implied[i].value) == 0)
			continue;
		rc = tt_apply_plan_add(p, TT_WRITE_PLAIN, -1, j.implied[i].old, "%s",
				       j.implied[i].file);
		if (rc == 0 && verify && p->n > before)
			snprintf(p->w[p->n - 1].expect, sizeof(p->w[0].expect), "%s",
				 j.implied[i].value);
	}
out:
	tt_journal_release(&j);
	return rc < 0 ? rc : 0;
}

/* The weight in a value as a file holds it: "7" or "src:7". */
static const char *weight_part(const char *v)
{
	const char *c = strchr(v, ':');

	return c ? c + 1 : v;
}

int tt_apply_tiers_reset(const struct tt_wi_backend *be, const struct tt_sysfs *s,
			 const char *state_dir, struct tt_weights *tiers)
{
	static const char pre[] = TT_WI_TIER_DIR "/memory_tier";
	struct tt_apply_plan p;
	struct tt_weights reset, bad;
	long long when;
	int id, n = 0;

	tt_weights_clear(tiers);
	tt_weights_clear(&reset);
	tt_weights_clear(&bad);
	if (be->key != TT_WI_BY_TIER)
		return 0;
	tt_apply_plan_init(&p, be, s);
	/* Errors here only mean there is nothing to compare with. */
	if (tt_apply_plan_last(&p, state_dir, true, &when) < 0) {
		tt_apply_plan_release(&p);
		return 0;
	}
	for (int i = 0; i < p.n; i++) {
		const struct tt_write *w = &p.w[i];
		enum tt_write_kind kind;

		/* The backend says which files are its weights: every interface
		 * keyed by tier names them memory_tierN/interleave_weight. */
		if (!w->expect[0] || !be->weight_file(w->file, &kind) ||
		    strncmp(w->file, pre, sizeof(pre) - 1))
			continue;
		id = atoi(w->file + sizeof(pre) - 1);
		/* Reset: it reads 1 where the apply wrote something else. A
		 * value neither written nor 1 is a change by someone else. */
		if (strcmp(weight_part(w->old), "1") == 0 &&
		    strcmp(weight_part(w->expect), "1") != 0)
			tt_weights_put(&reset, id, 1);
		else if (strcmp(w->old, w->expect) != 0)
			tt_weights_put(&bad, id, 1);
	}
	tt_apply_plan_release(&p);
	tt_weights_for_each(id, &reset) if (!tt_weights_has(&bad, id) &&
					    tt_weights_put(tiers, id, 1) == 0) n++;
	return n;
}

/* After a failure (rc, message set): the old values back. */
static int rollback(struct tt_apply_plan *p, int upto, const char *journal, int rc, bool *back_ok)
{
	char msg[1024], why[1024];
	int restored, back;

	snprintf(msg, sizeof(msg), "%s", tt_err_msg());
	back = put_back(p->sfs, p->w, upto, p->implied, p->nimplied, &restored);
	*back_ok = back == 0;
	if (back < 0) {
		snprintf(why, sizeof(why), "%s", tt_err_msg());
		rc = tt_err(rc,
			    "%s; putting the old values back failed too: %s; they are kept in '%s'",
			    msg, why, journal);
		tt_err_hint("run 'tiertune restore --journal %s' once the cause is fixed", journal);
		return rc;
	}
	/* The old values are back, so the journal would only write them again;
	 * still, one left behind is said. */
	if (tt_journal_remove(journal) < 0) {
		snprintf(why, sizeof(why), "%s", tt_err_msg());
		return tt_err(rc, "%s; every value written before it was put back (%d), but %s",
			      msg, restored, why);
	}
	return tt_err(rc, "%s; every value written before it was put back (%d)", msg, restored);
}

/* The first steps of a transaction, with the lock held. A journal here
 * belongs to a process that died holding the lock: its old values come
 * first. The plan was made from the half-changed state (callers recover
 * before planning; this is the race where another tiertune died in
 * between), so stop there. A committed one changes nothing and is only
 * removed. Then values may have changed since the plan was made: the old
 * values, and the mode a rollback must bring back, are what the files hold
 * now. */
static int start_locked(struct tt_apply_plan *p, const char *state_dir, const char *journal,
			int *recovered)
{
	struct tt_recovery rec;
	int rc;

	if (access(journal, F_OK) == 0 || errno != ENOENT) {
		rc = recover_locked(state_dir, journal, true, p->sfs, &rec);
		*recovered = rec.restored;
		if (rc == 0 && !rec.committed)
			rc = tt_err(TT_EFAIL,
				    "an interrupted tiertune's journal was put back (%d "
				    "values) after this change was planned; run it again",
				    rec.restored);
		if (rc < 0)
			return rc;
	}
	for (int i = 0; i < p->n; i++) {
		rc = tt_apply_write_current(p->sfs, &p->w[i], p->w[i].old, sizeof(p->w[i].old));
		if (rc < 0)
			return rc;
		p->w[i].done = false;
		/* Known once the others are written; the journal needs a value. */
		if (p->w[i].side)
			memcpy(p->w[i].value, p->w[i].old, sizeof(p->w[i].value));
	}
	for (int i = 0; i < p->nimplied; i++) {
		rc = tt_apply_write_current(p->sfs, &p->implied[i], p->implied[i].old,
					    sizeof(p->implied[i].old));
		if (rc < 0)
			return rc;
	}
	return 0;
}

int tt_apply_run(struct tt_apply_plan *p, const char *state_dir, const char *kind,
		 struct tt_apply_result *res)
{
	char journal[4200], history[4200];
	sigset_t stop, was;
	int fd, rc;

	memset(res, 0, sizeof(*res));
	rc = lock_state(state_dir, p->sfs, &fd);
	if (rc < 0)
		return rc;
	/* A few writes, well under a millisecond: Ctrl-C, a TERM from a
	 * service manager or a closed terminal waits for the transaction to
	 * end (committed or rolled back) instead of leaving half the weights
	 * and a journal. Only SIGKILL and a crash still need the journal. */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	sigaddset(&stop, SIGQUIT);
	pthread_sigmask(SIG_BLOCK, &stop, &was);
	snprintf(journal, sizeof(journal), "%s/" JOURNAL, state_dir);
	snprintf(history, sizeof(history), "%s/" HISTORY, state_dir);
	rc = tt_journal_new_txn(p);
	if (rc == 0)
		rc = start_locked(p, state_dir, journal, &res->recovered);
	if (rc == 0)
		rc = tt_apply_verify(p);
	/* Before anything is written: a history that restore --last could not
	 * read (a link, a FIFO, unreadable) would take this change's undo
	 * with it once committed. */
	if (rc == 0)
		rc = tt_history_check(history);
	if (rc == 0)
		rc = tt_journal_write(journal, p);
	if (rc < 0)
		goto out;
	for (int i = 0; i < p->n; i++) {
		if (p->w[i].side)
			continue;
		rc = write_one(p->sfs, &p->w[i], p->w[i].value);
		if (rc < 0) {
			rc = rollback(p, i + 1, journal, rc, &res->restored);
			goto out;
		}
		p->w[i].done = true;
		res->written++;
	}
	/* What the kernel set, for the record (side writes come first, so a
	 * rollback from here puts them back too). */
	for (int i = 0; i < p->n; i++) {
		if (!p->w[i].side)
			continue;
		rc = tt_apply_write_current(p->sfs, &p->w[i], p->w[i].value, sizeof(p->w[i].value));
		if (rc < 0) {
			rc = rollback(p, p->n, journal, rc, &res->restored);
			res->written = 0;
			goto out;
		}
	}
	for (int i = 0; i < p->nimplied; i++) {
		char now[64];

		if (strcmp(p->implied[i].old, p->implied[i].value) &&
		    tt_apply_write_current(p->sfs, &p->implied[i], now, sizeof(now)) == 0 &&
		    strcmp(now, p->implied[i].value) == 0)
			res->auto_turned_off = true;
	}
	for (int i = 0; i < p->n; i++)
		if (!p->w[i].side && tt_apply_write_current(p->sfs, &p->w[i], p->w[i].after,
							    sizeof(p->w[i].after)) < 0)
			p->w[i].after[0] = '\0';
	/* The commit point: from here on the record, not the journal, undoes
	 * this. Without a durable record nothing could undo it after the
	 * journal goes, so a history that cannot be written undoes it now. */
	rc = tt_history_append(history, p, p->undo ? "undo" : kind);
	if (rc < 0) {
		rc = rollback(p, p->n, journal, rc, &res->restored);
		res->written = 0;
		goto out;
	}
	/* A journal that stays is harmless now: recovery finds its record. */
	res->journal_kept = tt_journal_remove(journal) < 0;
out:
	close(fd);
	pthread_sigmask(SIG_SETMASK, &was, NULL);
	return rc;
}

int tt_apply_recover_leftover(const char *state_dir, const struct tt_sysfs *sfs,
			      struct tt_recovery *rec)
{
	char path[4200];

	memset(rec, 0, sizeof(*rec));
	if (tt_apply_leftover(state_dir, path, sizeof(path)) != 1)
		return 0;
	return tt_apply_recover(state_dir, path, sfs, rec);
}

int tt_apply_hold(struct tt_apply_plan *p, const char *state_dir, struct tt_apply_hold *h)
{
	int recovered, rc;

	memset(h, 0, sizeof(*h));
	h->p = p;
	h->fd = -1;
	rc = lock_state(state_dir, p->sfs, &h->fd);
	if (rc < 0)
		return rc;
	snprintf(h->journal, sizeof(h->journal), "%s/" JOURNAL, state_dir);
	rc = tt_journal_new_txn(p);
	if (rc == 0)
		rc = start_locked(p, state_dir, h->journal, &recovered);
	if (rc < 0)
		goto fail;
	/* Nothing to write (the weights are already these): no journal, but
	 * the lock is still held so that no apply lands mid-trial. */
	if (!p->n)
		return 0;
	rc = tt_journal_write(h->journal, p);
	if (rc < 0)
		goto fail;
	for (int i = 0; i < p->n; i++) {
		bool back_ok;

		if (p->w[i].side)
			continue;
		rc = write_one(p->sfs, &p->w[i], p->w[i].value);
		if (rc < 0) {
			rc = rollback(p, i + 1, h->journal, rc, &back_ok);
			goto fail;
		}
		p->w[i].done = true;
	}
	return 0;
fail:
	close(h->fd);
	h->fd = -1;
	return rc;
}

int tt_apply_unhold(struct tt_apply_hold *h, int *restored)
{
	struct tt_apply_plan *p = h->p;
	char msg[1024];
	int rc = 0;

	*restored = 0;
	if (h->fd < 0)
		return 0;
	if (p->n) {
		rc = put_back(p->sfs, p->w, p->n, p->implied, p->nimplied, restored);
		if (rc < 0) {
			snprintf(msg, sizeof(msg), "%s", tt_err_msg());
			rc = tt_err(rc,
				    "putting the weights back failed: %s; journal '%s' keeps them",
				    msg, h->journal);
			tt_err_hint("run 'tiertune restore' once the cause is fixed");
		} else {
			rc = tt_journal_remove(h->journal);
		}
	}
	close(h->fd);
	h->fd = -1;
	return rc;
}
