/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Where tiertune keeps its own files: the state folder (apply lock, journal,
 * undo history) and the data folder (the results database). One function
 * resolves both and one prepares them, so every command creates them the
 * same way (0700) and refuses one that another user could tamper with.
 *
 *	char dir[4096];
 *	tt_state_dir(TT_DIR_STATE, dir, sizeof(dir));
 *	tt_state_prepare(dir);   (before creating anything in it)
 */
#ifndef TT_STATE_H
#define TT_STATE_H

#include <stddef.h>

enum tt_dir_kind {
	TT_DIR_STATE, /* $TIERTUNE_STATE_DIR, /var/lib/tiertune, $XDG_STATE_HOME/tiertune */
	TT_DIR_DATA,  /* /var/lib/tiertune, $XDG_DATA_HOME/tiertune, ~/.local/share/tiertune */
};

/* The folder's path (not created). TT_EINPUT when nothing names one. */
int tt_state_dir(enum tt_dir_kind kind, char *buf, size_t size);
/* Creates the missing folders of dir with mode 0700, then checks dir itself:
 * a real folder (not a symlink), owned by this user, writable by no one
 * else. TT_EINPUT naming it otherwise: the journal and history in it
 * decide what a root process writes to sysfs. */
int tt_state_prepare(const char *dir);
/* Creates the missing folders of dir with mode 0700, checking nothing (a
 * database path the user gave may live in /tmp). */
int tt_state_mkdirs(const char *dir);

/* Opens path (flags: O_RDONLY, or O_WRONLY | O_APPEND | O_CREAT with
 * mode) for what ("history", "journal", "profile"), never through a
 * symlink and without blocking: O_NONBLOCK for the open itself, so a FIFO
 * planted in its place fails at once instead of hanging (with signals
 * blocked, for ever), then a regular file or TT_EINPUT naming it. The fd
 * is blocking again for the caller; a missing file is TT_EINPUT with
 * errno ENOENT kept. */
int tt_open_regular(const char *path, int flags, unsigned int mode, const char *what);

#endif
