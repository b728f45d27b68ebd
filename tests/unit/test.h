/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Common includes for the cmocka unit tests (cmocka needs these first). */
#ifndef TT_TEST_H
#define TT_TEST_H
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#endif
