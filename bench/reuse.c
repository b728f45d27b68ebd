// SPDX-License-Identifier: GPL-3.0-or-later
/* A context's arrays kept from one run to the next (run.h): built for a
 * kernel and placement, moved page by page to another placement, and
 * verified whole after a build or by a spot check after a reuse. */
#define _GNU_SOURCE
#include "harness.h"

#include "../core/error.h"
#include "../core/mpol.h"
#include "../core/parse.h"
#include "../core/test-hooks.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

/* Pages per array whose node a reused run asks again: enough to catch a
 * page the kernel moved (reclaim, NUMA balancing), few enough to cost
 * microseconds. */
#define SPOT_PAGES 64

int tt_bench_ctx_new(struct tt_bench_ctx **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : tt_err(TT_EFAIL, "out of memory");
}

void tt_bench_ctx_drop(struct tt_bench_ctx *c)
{
	tt_bench_bufs_unmap(&c->b);
	for (int i = 0; i < TT_K_MAX_ARRAYS; i++) {
		free(c->node[i]);
		c->node[i] = NULL;
	}
	c->kernel = NULL;
	c->runs = 0;
	c->settled = false;
}

void tt_bench_ctx_free(struct tt_bench_ctx *c)
{
	if (!c)
		return;
	tt_bench_ctx_drop(c);
	free(c);
}

/* The arrays hold the values this kernel's passes leave (another kernel
 * would start from the wrong ones), and are split over these CPUs. */
bool tt_bench_ctx_fits(const struct tt_bench_ctx *c, const struct tt_bench_opts *o,
		       const struct tt_bench_result *r, size_t bytes)
{
	return c->kernel == o->kernel && c->b.n == o->kernel->arrays && c->b.bytes == bytes &&
	       c->threads == r->threads &&
	       memcmp(c->cpus, r->cpus, (size_t)r->threads * sizeof(*r->cpus)) == 0 &&
	       o->place.mode == TT_PLACE_EXACT && c->thp == o->place.thp &&
	       c->huge_shift == o->place.huge_shift;
}

int tt_bench_ctx_build(struct tt_bench_ctx *c, const struct tt_bench_opts *o,
		       const struct tt_bench_result *r, size_t bytes)
{
	int rc;

	tt_bench_ctx_drop(c);
	rc = tt_bench_bufs_map(o, &c->b, o->kernel->arrays, bytes, &c->method);
	for (int i = 0; i < c->b.n && rc == 0; i++)
		if (!(c->node[i] = malloc(c->b.span[i] / PAGE_BYTES * sizeof(int))))
			rc = tt_err(TT_EFAIL, "out of memory");
	if (rc < 0)
		return rc;
	c->kernel = o->kernel;
	c->threads = r->threads;
	memcpy(c->cpus, r->cpus, sizeof(c->cpus));
	c->thp = o->place.thp;
	c->huge_shift = o->place.huge_shift;
	return 0;
}

/* Every page the placement wants elsewhere than it is goes there; the
 * kernel's answer for each is its node from now on. */
int tt_bench_ctx_move(struct tt_bench_ctx *c, const struct tt_placement *p, uint64_t *moved)
{
	size_t n = 0, k = 0;
	void **addrs = NULL;
	int *nodes = NULL, *status = NULL, rc = 0;
	struct {
		int arr;
		size_t pg;
	} *at = NULL;

	for (int i = 0; i < c->b.n; i++)
		for (size_t pg = 0; pg < c->b.span[i] / PAGE_BYTES; pg++) {
			int want = tt_place_expected(p, (uintptr_t)c->b.pg[i] + pg * PAGE_BYTES);

			n += want >= 0 && c->node[i][pg] != want;
		}
	*moved = n;
	if (!n)
		return 0;
	addrs = malloc(n * sizeof(*addrs));
	nodes = malloc(n * sizeof(*nodes));
	status = malloc(n * sizeof(*status));
	at = malloc(n * sizeof(*at));
	if (!addrs || !nodes || !status || !at) {
		rc = tt_err(TT_EFAIL, "out of memory for %zu pages to move", n);
		goto out;
	}
	for (int i = 0; i < c->b.n; i++)
		for (size_t pg = 0; pg < c->b.span[i] / PAGE_BYTES; pg++) {
			char *a = c->b.pg[i] + pg * PAGE_BYTES;
			int want = tt_place_expected(p, (uintptr_t)a);

			if (want < 0 || c->node[i][pg] == want)
				continue;
			addrs[k] = a;
			nodes[k] = want;
			at[k].arr = i;
			at[k++].pg = pg;
		}
	/* The VMAs keep the policy of the first placement: it governs only
	 * pages faulted in later, and every page is present. */
	rc = tt_move_pages(addrs, nodes, status, n);
	for (size_t j = 0; j < n && rc == 0; j++) {
		c->node[at[j].arr][at[j].pg] = status[j];
		k -= status[j] == nodes[j];
	}
	/* A full node fails its pages one by one (-ENOMEM), not the call. */
	for (size_t j = 0; j < n && rc == 0 && k; j++)
		if (status[j] != nodes[j])
			rc = tt_err(TT_EFAIL,
				    "%zu of %zu pages did not move to their node (the first, for "
				    "node %d: %s)",
				    k, n, nodes[j],
				    status[j] < 0 ? strerror(-status[j]) : "left on another node");
out:
	free(addrs);
	free(nodes);
	free(status);
	free(at);
	return rc;
}

/* Asks again where a sample of the pages are (a different sample each
 * run), and keeps what the kernel says; *changed counts the pages it says
 * are elsewhere than the context thought. */
static int ctx_spot_check(struct tt_bench_ctx *c, uint64_t *changed)
{
	void *addrs[SPOT_PAGES];
	int status[SPOT_PAGES], rc = 0;

	for (int i = 0; i < c->b.n && rc == 0; i++) {
		size_t pages = c->b.span[i] / PAGE_BYTES;
		size_t step = pages / SPOT_PAGES ? pages / SPOT_PAGES : 1;
		size_t n = pages < SPOT_PAGES ? pages : SPOT_PAGES,
		       off = (size_t)c->runs * 7919 % step;

		for (size_t j = 0; j < n; j++)
			addrs[j] = c->b.pg[i] + (j * step + off) * PAGE_BYTES;
		rc = tt_move_pages_query(addrs, status, n);
		for (size_t j = 0; j < n && rc == 0; j++) {
			int *node = &c->node[i][j * step + off];

			*changed += *node != status[j];
			*node = status[j];
		}
	}
	return rc;
}

/* The place report of every page, from the nodes the context knows. */
static int ctx_tally(const struct tt_bench_ctx *c, const struct tt_placement *p,
		     struct tt_place_report *r)
{
	for (int i = 0; i < c->b.n; i++) {
		size_t pages = c->b.span[i] / PAGE_BYTES;
		struct tt_place_report rep = { .pages = pages };

		tt_place_tally(p, (uintptr_t)c->b.pg[i], c->node[i], pages, 1, &rep);
		tt_bench_report_add(r, &rep);
		int rc = tt_place_judge(p, &rep);

		if (rc < 0)
			return rc;
	}
	return 0;
}

/* After a fresh build: the node of every page; after a reuse: a spot
 * check, and the last report again when nothing moved or changed. */
int tt_bench_ctx_verify(struct tt_bench_ctx *c, const struct tt_placement *p, bool fresh,
			struct tt_place_report *r)
{
	uint64_t changed = 0;
	int rc = 0;

	for (int i = 0; i < c->b.n && fresh && rc == 0; i++)
		rc = tt_place_query(c->b.pg[i], c->b.span[i], 1, c->node[i]);
	if (rc == 0 && !fresh)
		rc = ctx_spot_check(c, &changed);
	if (rc < 0)
		return rc;
	if (!fresh && !changed && c->settled && tt_place_same(&c->place, p)) {
		*r = c->rep;
		return 0;
	}
	return ctx_tally(c, p, r);
}
