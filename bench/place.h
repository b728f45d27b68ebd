/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The placement engine: put a buffer's pages on nodes before first touch,
 * then check where every page landed.
 *
 *	struct tt_placement p;
 *	tt_place_init(&p, TT_PLACE_EXACT, &nodes, &weights, src);
 *	buf = mmap(...); tt_place_apply(&p, buf, len);
 *	... first touch (writes) ...
 *	tt_place_verify(&p, buf, len, 0, &report);
 *
 * Modes: exact emulates the kernel's weighted interleave in userspace with
 * MPOL_BIND (needs no root, changes no global setting); kernel uses
 * MPOL_WEIGHTED_INTERLEAVE and whatever sysfs holds; interleave is the
 * classic 1:1 policy; bind puts everything on one node; local leaves the
 * kernel's default, first touch on the source node.
 */
#ifndef TT_PLACE_H
#define TT_PLACE_H

#include "../core/interleave.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum tt_place_mode {
	TT_PLACE_EXACT,
	TT_PLACE_KERNEL,
	TT_PLACE_INTERLEAVE,
	TT_PLACE_BIND,
	TT_PLACE_LOCAL
};

struct tt_placement {
	enum tt_place_mode mode;
	struct tt_nodemask nodes; /* the policy's nodes (bind: one node) */
	struct tt_il_order order; /* expected order for exact, kernel, interleave */
	int local_node;		  /* expected node for local (the source node) */
	bool thp;		  /* interleave by 2 MiB folio, not by 4 KiB page */
	/* hugetlbfs pages of 1 << huge_shift bytes (21: 2 MiB, 30: 1 GiB),
	 * from the pool reserved in /sys/kernel/mm/hugepages; 0: none. The
	 * interleave slot is then one such page. */
	int huge_shift;
	double tolerance; /* kernel/interleave: allowed share deviation per node */
};

struct tt_place_report {
	uint64_t pages;		     /* 4 KiB pages in the buffer */
	uint64_t checked;	     /* pages whose node was asked */
	uint64_t misplaced;	     /* asked pages not on their expected node */
	uint64_t unknown;	     /* pages move_pages could not place (not present, zero page) */
	uint64_t want[TT_MAX_NODES]; /* expected pages per node among those checked */
	uint64_t got[TT_MAX_NODES];  /* pages found per node */
};

extern const char *const tt_place_mode_names[]; /* indexed by mode */
int tt_place_mode_parse(const char *s, enum tt_place_mode *out);

/* weights: for exact and kernel (the sysfs weights the kernel will use);
 * ignored otherwise. */
int tt_place_init(struct tt_placement *p, enum tt_place_mode mode, const struct tt_nodemask *nodes,
		  const struct tt_weights *weights, int source_node);
/* Node expected for the page at addr, or -1 when any node is fine. */
int tt_place_expected(const struct tt_placement *p, uintptr_t addr);
/* log2 of the placement's interleave slot: the hugetlbfs page, the THP,
 * or the base page. */
int tt_place_unit_shift(const struct tt_placement *p);
/* Whether a and b expect the same node for every page (one node weighs
 * the same whatever its weight). */
bool tt_place_same(const struct tt_placement *a, const struct tt_placement *b);
/* Pages each node will receive for a buffer [addr, addr+len). */
void tt_place_plan(const struct tt_placement *p, uintptr_t addr, size_t len, uint64_t *per_node);

/* Sets the policy on a fresh mapping; exact placement of many runs also
 * touches the pages (see place.c). *method says how it was done. */
int tt_place_apply(const struct tt_placement *p, void *buf, size_t len, const char **method);

/* Pure: counts status[] (node or -errno of page i*stride of the buffer at
 * base) into r against the expected order. */
void tt_place_tally(const struct tt_placement *p, uintptr_t base, const int *status, size_t n,
		    size_t stride_pages, struct tt_place_report *r);
/* Asks the kernel where the pages are (all of them, or every k-th page when
 * the buffer has more than max_checked pages; 0 = all) and judges: exact and
 * bind tolerate no misplaced page, kernel and interleave a share deviation
 * up to p->tolerance. TT_EFAIL with the numbers when it fails. */
/* Asks the kernel the node of every stride_pages-th page of the buffer:
 * status[i] for page i*stride_pages (a node, or -errno). */
int tt_place_query(void *buf, size_t len, size_t stride_pages, int *status);
int tt_place_verify(const struct tt_placement *p, void *buf, size_t len, uint64_t max_checked,
		    struct tt_place_report *r);
int tt_place_judge(const struct tt_placement *p, const struct tt_place_report *r);

#endif
