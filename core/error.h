/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Error state for library code: functions return 0 (or a count) on success
 * and a negative tt_status on failure, with a message recorded here. Library
 * code never prints; cli/ and tui/ print tt_err_msg() and map the status to
 * an exit code with tt_err_exit_code().
 *
 *	if (tt_topo_load(&topo, &sfs) < 0)
 *		fprintf(stderr, "tiertune: error: %s\n", tt_err_msg());
 *
 * The state is thread-local, so a sampler thread cannot clobber the message
 * of the thread that is reporting.
 */
#ifndef TT_ERROR_H
#define TT_ERROR_H

enum tt_status {
	TT_OK = 0,
	TT_EFAIL = -1,	  /* runtime failure: exit 1 */
	TT_EINPUT = -2,	  /* bad input from the user or a garbled file: exit 2 */
	TT_EUNAVAIL = -3, /* feature, file, counter or permission missing: exit 3 */
};

/* Records a message and returns code, so callers can `return tt_err(...)`. */
int tt_err(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Like tt_err() with ": strerror(errnum)" appended. */
int tt_err_sys(int code, int errnum, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Adds a hint line to the current error; cleared by the next tt_err(). */
void tt_err_hint(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prefixes context to the current message: "reading fixture: <old message>". */
void tt_err_prefix(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

const char *tt_err_msg(void);
const char *tt_err_hint_msg(void); /* "" when there is no hint */
int tt_err_exit_code(int status);

#endif
