/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The store of every root but "/" (core/root.c): DAMON's admin files as
 * the kernel's DAMON sysfs leaves them (fixture-damon.c), every other file
 * through the fixture kernel's weight rules (fixture-kernel.h), each store
 * counted once against the transaction tests' fault spec.
 */
#ifndef TT_FIXTURE_DAMON_H
#define TT_FIXTURE_DAMON_H

#include "sysfs.h"

extern const struct tt_sysfs_store tt_fixture_damon;

#endif
