/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the kernel's sysfs store handlers would leave behind, for fixture
 * trees. A fixture is a tree of regular files: writing "0:85" to an RFC
 * interleave_weight file must update one source's entry, writing a nodeN
 * weight must turn the auto file to false, and the kernel's rejections
 * (weight 0 on 6.16+, auto without bandwidth data) must fail the same way, or
 * tests of apply and restore would pass against behaviour no kernel has.
 * core/root.c makes it the store of every root but "/"; the backends'
 * own rules (wi-<name>.c) use the helpers below.
 */
#ifndef TT_FIXTURE_KERNEL_H
#define TT_FIXTURE_KERNEL_H

#include "sysfs.h"

#include <stdint.h>

/* The weight files' store of every root but "/" (behind fixture-damon.h's,
 * which core/root.c gives them): each backend's store rules (struct
 * tt_wi_backend.fixture_store), or the value as written. */
extern const struct tt_sysfs_store tt_fixture_kernel;
/* Removes the temp files of stores cut short by a kill (a kernel has none
 * to show), in every backend's folder; the write lock's holder calls it
 * (writer/apply.c), never a command that does not hold it. */
void tt_fixture_recover(const struct tt_sysfs *s);
/* Memory hot-added to node (its first, as a CXL region onlined through
 * dax/kmem), which the kernel puts in tier: the node is added to
 * has_memory and the tier's nodelist, and the weights change as the
 * kernel's set_node_memory_tier changes them, for the backend the tree
 * has (its fixture_node_joined: the RFCs put the tier's weights back to 1).
 * For tests; the tier must exist. */
int tt_fixture_node_online(const struct tt_sysfs *s, int node, int tier);
/* The transaction tests' fault spec (core/root.c hands it over), or NULL. */
void tt_fixture_fault(const char *spec);
/* One store counted against the fault spec (every store of a fixture
 * root, once): a refusal to return, or 0 (value possibly garbled). */
int tt_fixture_fault_step(const char *path, const char **value);

/* For backends' fixture_store. Like a kernel store, a file changes all at
 * once or not at all (temp file and rename), so a process killed mid-store
 * leaves no half-written file; rel is the live path. */
int tt_fixture_replace(const struct tt_sysfs *s, const char *rel, const char *content);
/* The store's refusal, as the kernel's errno (EINVAL, ENODEV). */
int tt_fixture_rejected(const char *path, const char *value, int errnum);
/* The kernel's kstrto* (lib/kstrtox.c) on a value of at most max, in base
 * (0: from the prefix): 0, -EINVAL, or -ERANGE past max or 64 bits. */
int tt_kstrtoull(const char *s, unsigned int base, uint64_t max, uint64_t *out);
/* kstrtou8(buf, 0, ...): 0, -EINVAL or -ERANGE; and kstrtobool: 0 or
 * -EINVAL. */
int tt_kstrtou8(const char *value, unsigned int *out);
int tt_kstrtobool(const char *v, int *out);

#endif
