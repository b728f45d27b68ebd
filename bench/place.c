// SPDX-License-Identifier: GPL-3.0-or-later
#include "place.h"

#include "../core/error.h"
#include "../core/mpol.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PAGE ((size_t)1 << TT_PAGE_SHIFT)

/* mbind() per run makes one VMA per run, and vm.max_map_count defaults to
 * 65530: past this many runs, place by first touch under a task policy. */
#define MAX_MBIND_RUNS 16384

const char *const tt_place_mode_names[] = { "exact", "kernel", "interleave", "bind", "local" };

int tt_place_mode_parse(const char *s, enum tt_place_mode *out)
{
	for (int i = 0; i <= TT_PLACE_LOCAL; i++)
		if (strcmp(s, tt_place_mode_names[i]) == 0) {
			*out = (enum tt_place_mode)i;
			return 0;
		}
	return tt_err(TT_EINPUT, "placement '%s' is not exact, kernel, interleave, bind or local",
		      s);
}

int tt_place_init(struct tt_placement *p, enum tt_place_mode mode, const struct tt_nodemask *nodes,
		  const struct tt_weights *weights, int source_node)
{
	struct tt_weights ones;

	memset(p, 0, sizeof(*p));
	p->mode = mode;
	p->nodes = *nodes;
	p->local_node = source_node;
	p->tolerance = 0.01;
	if (mode == TT_PLACE_BIND && tt_nodemask_weight(nodes) != 1)
		return tt_err(TT_EINPUT, "bind placement takes exactly one node");
	tt_weights_clear(&ones);
	/* Classic interleave is the same walk with every weight 1. */
	return tt_il_order_nodes(&p->order, nodes,
				 mode == TT_PLACE_EXACT || mode == TT_PLACE_KERNEL ? weights
										   : &ones);
}

int tt_place_unit_shift(const struct tt_placement *p)
{
	return p->huge_shift ? p->huge_shift : p->thp ? TT_THP_SHIFT : TT_PAGE_SHIFT;
}

static uint64_t il_index(const struct tt_placement *p, uintptr_t addr)
{
	return (uint64_t)addr >> tt_place_unit_shift(p);
}

int tt_place_expected(const struct tt_placement *p, uintptr_t addr)
{
	switch (p->mode) {
	case TT_PLACE_BIND:
		return p->order.node[0];
	case TT_PLACE_LOCAL:
		return p->local_node;
	default:
		return tt_il_vma_node(&p->order, il_index(p, addr));
	}
}

bool tt_place_same(const struct tt_placement *a, const struct tt_placement *b)
{
	const struct tt_il_order *x = &a->order, *y = &b->order;

	if (a->mode != b->mode || a->thp != b->thp || a->huge_shift != b->huge_shift)
		return false;
	switch (a->mode) {
	case TT_PLACE_LOCAL:
		return a->local_node == b->local_node;
	case TT_PLACE_BIND:
		return x->node[0] == y->node[0];
	default:
		break;
	}
	if (x->n != y->n || (x->n > 1 && x->total != y->total))
		return false;
	for (int i = 0; i < x->n; i++)
		if (x->node[i] != y->node[i] || (x->n > 1 && x->weight[i] != y->weight[i]))
			return false;
	return true;
}

/* Walks [addr, addr+len) in runs of consecutive pages bound for one node. */
struct run_iter {
	const struct tt_placement *p;
	uintptr_t at, end;
};

static int next_run(struct run_iter *it, uintptr_t *start, size_t *len, int *node)
{
	const struct tt_il_order *o = &it->p->order;
	size_t unit = (size_t)1 << tt_place_unit_shift(it->p);

	if (it->at >= it->end)
		return 0;
	*start = it->at;
	*node = tt_place_expected(it->p, it->at);
	/* One node (or bind/local): the whole range is one run. Otherwise
	 * neighbouring slots belong to different nodes, wrap included. */
	if (it->p->mode == TT_PLACE_BIND || it->p->mode == TT_PLACE_LOCAL || o->n == 1) {
		it->at = it->end;
	} else {
		/* Units left in this node's slot range of the cycle. */
		uint64_t t = il_index(it->p, it->at) % o->total, left = 0;

		for (int i = 0; i < o->n; i++) {
			if (t < o->weight[i]) {
				left = o->weight[i] - t;
				break;
			}
			t -= o->weight[i];
		}
		uintptr_t next = (it->at & ~(uintptr_t)(unit - 1)) + left * unit;
		it->at = next < it->end ? next : it->end;
	}
	*len = it->at - *start;
	return 1;
}

void tt_place_plan(const struct tt_placement *p, uintptr_t addr, size_t len, uint64_t *per_node)
{
	struct run_iter it = { p, addr, addr + len };
	uintptr_t s;
	size_t l;
	int node;

	while (next_run(&it, &s, &l, &node))
		per_node[node] += l / PAGE;
}

struct touch_job {
	const struct tt_placement *p;
	char *buf;
	size_t len;
	int first, step; /* this thread's nodes: order index first, first+step, ... */
	int rc;
	char err[256];
};

/* Faults in, under a task MPOL_BIND to each of its nodes in turn, the pages
 * bound for that node. A thread's policy is its own, so threads share the
 * nodes between them. */
static void *touch_nodes(void *arg)
{
	struct touch_job *j = arg;
	const struct tt_il_order *o = &j->p->order;

	for (int k = j->first; k < o->n && j->rc == 0; k += j->step) {
		struct tt_nodemask one = { 0 };
		struct run_iter it = { j->p, (uintptr_t)j->buf, (uintptr_t)j->buf + j->len };
		uintptr_t s;
		size_t l;
		int node;

		tt_bit_set(one.bits, (unsigned int)o->node[k]);
		if (syscall(SYS_set_mempolicy, MPOL_BIND, one.bits, TT_MAX_NODES + 1) < 0) {
			j->rc = tt_err_sys(TT_EFAIL, errno, "set_mempolicy(MPOL_BIND, node %d)",
					   o->node[k]);
			break;
		}
		while (next_run(&it, &s, &l, &node)) {
			if (node != o->node[k])
				continue;
			for (size_t off = 0; off < l; off += PAGE)
				((volatile char *)s)[off] = 0;
		}
	}
	syscall(SYS_set_mempolicy, MPOL_DEFAULT, NULL, 0);
	if (j->rc)
		snprintf(j->err, sizeof(j->err), "%s", tt_err_msg());
	return NULL;
}

static int exact_by_touch(const struct tt_placement *p, char *buf, size_t len)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int nt = (int)(ncpu < 1 ? 1 : ncpu);
	struct touch_job jobs[64];
	pthread_t tid[64];
	int rc = 0;

	if (nt > p->order.n)
		nt = p->order.n;
	if (nt > 64)
		nt = 64;
	for (int i = 0; i < nt; i++) {
		jobs[i] = (struct touch_job){
			.p = p, .buf = buf, .len = len, .first = i, .step = nt
		};
		if (pthread_create(&tid[i], NULL, touch_nodes, &jobs[i]) != 0) {
			touch_nodes(&jobs[i]);
			tid[i] = 0;
		}
	}
	for (int i = 0; i < nt; i++) {
		if (tid[i])
			pthread_join(tid[i], NULL);
		if (jobs[i].rc && !rc)
			rc = tt_err(jobs[i].rc, "%s", jobs[i].err);
	}
	return rc;
}

int tt_place_apply(const struct tt_placement *p, void *buf, size_t len, const char **method)
{
	struct run_iter it = { p, (uintptr_t)buf, (uintptr_t)buf + len };
	uintptr_t s;
	size_t l, runs = 0;
	int node, rc;

	/* THP off unless asked: one THP is one interleave slot, which would
	 * make a weight count 2 MiB folios. A hugetlbfs mapping has its page
	 * size already. */
	if (!p->huge_shift && madvise(buf, len, p->thp ? MADV_HUGEPAGE : MADV_NOHUGEPAGE) < 0 &&
	    errno != EINVAL)
		return tt_err_sys(TT_EFAIL, errno, "madvise of the benchmark buffer");
	*method = tt_place_mode_names[p->mode];
	switch (p->mode) {
	case TT_PLACE_KERNEL:
		return tt_mbind(buf, len, MPOL_WEIGHTED_INTERLEAVE, &p->nodes);
	case TT_PLACE_INTERLEAVE:
		return tt_mbind(buf, len, MPOL_INTERLEAVE, &p->nodes);
	case TT_PLACE_BIND:
		return tt_mbind(buf, len, MPOL_BIND, &p->nodes);
	case TT_PLACE_LOCAL:
		return tt_mbind(buf, len, MPOL_LOCAL, NULL);
	case TT_PLACE_EXACT:
		break;
	}
	while (next_run(&it, &s, &l, &node) && runs <= MAX_MBIND_RUNS)
		runs++;
	if (runs > MAX_MBIND_RUNS) {
		*method = "exact: first touch under a per-node task MPOL_BIND";
		return exact_by_touch(p, buf, len);
	}
	*method = "exact: mbind(MPOL_BIND) per run";
	it.at = (uintptr_t)buf;
	while (next_run(&it, &s, &l, &node)) {
		struct tt_nodemask one = { 0 };

		tt_bit_set(one.bits, (unsigned int)node);
		rc = tt_mbind((void *)s, l, MPOL_BIND, &one);
		if (rc < 0)
			return rc;
	}
	return 0;
}

void tt_place_tally(const struct tt_placement *p, uintptr_t base, const int *status, size_t n,
		    size_t stride_pages, struct tt_place_report *r)
{
	for (size_t i = 0; i < n; i++) {
		int want = tt_place_expected(p, base + i * stride_pages * PAGE);

		r->checked++;
		if (want >= 0)
			r->want[want]++;
		if (status[i] < 0 || status[i] >= TT_MAX_NODES) {
			r->unknown++;
			continue;
		}
		r->got[status[i]]++;
		if (want >= 0 && status[i] != want)
			r->misplaced++;
	}
}

int tt_place_judge(const struct tt_placement *p, const struct tt_place_report *r)
{
	if (r->unknown)
		return tt_err(TT_EFAIL, "%ju of %ju checked pages have no node (not touched?)",
			      (uintmax_t)r->unknown, (uintmax_t)r->checked);
	if (p->mode == TT_PLACE_EXACT || p->mode == TT_PLACE_BIND || p->mode == TT_PLACE_LOCAL) {
		if (r->misplaced)
			return tt_err(TT_EFAIL,
				      "%ju of %ju checked pages are not on their node "
				      "(%s placement)",
				      (uintmax_t)r->misplaced, (uintmax_t)r->checked,
				      tt_place_mode_names[p->mode]);
		return 0;
	}
	for (int node = 0; node < TT_MAX_NODES; node++) {
		double dev;

		if (!r->want[node] && !r->got[node])
			continue;
		dev = fabs((double)r->got[node] - (double)r->want[node]) / (double)r->checked;
		if (dev > p->tolerance)
			return tt_err(TT_EFAIL,
				      "node %d holds %ju pages where %ju were expected (%.2f%% "
				      "off, tolerance %.2f%%): did a node fill up and fall "
				      "back?",
				      node, (uintmax_t)r->got[node], (uintmax_t)r->want[node],
				      100 * dev, 100 * p->tolerance);
	}
	return 0;
}

int tt_place_query(void *buf, size_t len, size_t stride_pages, int *status)
{
	size_t pages = len / PAGE, n = (pages + stride_pages - 1) / stride_pages;
	void **addrs = malloc(n * sizeof(*addrs));
	int rc;

	if (!addrs)
		return tt_err(TT_EFAIL, "out of memory for %zu page addresses", n);
	for (size_t i = 0; i < n; i++)
		addrs[i] = (char *)buf + i * stride_pages * PAGE;
	rc = tt_move_pages_query(addrs, status, n);
	free(addrs);
	return rc;
}

int tt_place_verify(const struct tt_placement *p, void *buf, size_t len, uint64_t max_checked,
		    struct tt_place_report *r)
{
	size_t pages = len / PAGE, stride = 1, n;
	int *status, rc;

	memset(r, 0, sizeof(*r));
	r->pages = pages;
	if (max_checked && pages > max_checked)
		stride = (pages + max_checked - 1) / max_checked;
	n = (pages + stride - 1) / stride;
	status = malloc(n * sizeof(*status));
	if (!status)
		return tt_err(TT_EFAIL, "out of memory for %zu page addresses", n);
	rc = tt_place_query(buf, len, stride, status);
	if (rc == 0) {
		tt_place_tally(p, (uintptr_t)buf, status, n, stride, r);
		rc = tt_place_judge(p, r);
	}
	free(status);
	return rc;
}
