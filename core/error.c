// SPDX-License-Identifier: GPL-3.0-or-later
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define TT_ERR_MAX 1024

static _Thread_local char err_msg[TT_ERR_MAX];
static _Thread_local char err_hint[TT_ERR_MAX];

int tt_err(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err_msg, sizeof(err_msg), fmt, ap);
	va_end(ap);
	err_hint[0] = '\0';
	return code;
}

int tt_err_sys(int code, int errnum, const char *fmt, ...)
{
	va_list ap;
	size_t len;

	va_start(ap, fmt);
	vsnprintf(err_msg, sizeof(err_msg), fmt, ap);
	va_end(ap);
	len = strlen(err_msg);
	snprintf(err_msg + len, sizeof(err_msg) - len, ": %s", strerror(errnum));
	err_hint[0] = '\0';
	return code;
}

void tt_err_hint(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err_hint, sizeof(err_hint), fmt, ap);
	va_end(ap);
}

void tt_err_prefix(const char *fmt, ...)
{
	char old[TT_ERR_MAX];
	va_list ap;
	size_t len;

	memcpy(old, err_msg, sizeof(old));
	va_start(ap, fmt);
	vsnprintf(err_msg, sizeof(err_msg), fmt, ap);
	va_end(ap);
	/* Concatenated by hand: the old message is cut where it no longer
	 * fits, which snprintf would do too, with a truncation warning. */
	len = strlen(err_msg);
	if (len + 3 < sizeof(err_msg)) {
		size_t olen = strnlen(old, sizeof(err_msg) - len - 3);

		memcpy(err_msg + len, ": ", 2);
		memcpy(err_msg + len + 2, old, olen);
		err_msg[len + 2 + olen] = '\0';
	}
}

const char *tt_err_msg(void)
{
	return err_msg[0] ? err_msg : "unknown error";
}

const char *tt_err_hint_msg(void)
{
	return err_hint;
}

int tt_err_exit_code(int status)
{
	switch (status) {
	case TT_OK:
		return 0;
	case TT_EINPUT:
		return 2;
	case TT_EUNAVAIL:
		return 3;
	default:
		return 1;
	}
}
