// SPDX-License-Identifier: GPL-3.0-or-later
/* Test helper for the QEMU guest: places a fresh buffer (kernel: the
 * kernel's MPOL_WEIGHTED_INTERLEAVE with the sysfs weights; exact: our
 * MPOL_BIND emulation with --weights), touches it, and prints where every
 * page landed, as move_pages reports it, with the interleave index of the
 * first page so `tiertune simulate --start-index` can model the same pages.
 *
 *	pagemap --mode kernel|exact|bind --nodes 0,2 [--weights 0:3,2:1] --pages N --offset K
 *		[--hold] [--thp]   (--thp: transparent huge pages, MADV_HUGEPAGE)
 *		[--hugetlb]        (private MAP_HUGETLB, 2 MiB pages: N a multiple of 512)
 *	pagemap --mode task --pages N     (no policy of its own: the task's, as
 *	                                   tiertune run sets it before exec)
 *
 * Output: "start_index I" then "nodes n n n ...", one per page. With --hold
 * it then prints "held" and keeps the buffer until killed, for tiertop's
 * process panel to find; on SIGUSR1 it queries and prints the nodes again,
 * then "requeried" (tiertune rebalance's check). */
#include "../../bench/place.h"
#include "../../core/error.h"
#include "../../core/mpol.h"
#include "../../core/parse.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PAGE 4096UL

static volatile sig_atomic_t requery;

static void on_usr1(int sig)
{
	(void)sig;
	requery = 1;
}
#define HUGE (2UL << 20)

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mode", required_argument, NULL, 'm' },
		{ "nodes", required_argument, NULL, 'n' },
		{ "weights", required_argument, NULL, 'w' },
		{ "pages", required_argument, NULL, 'p' },
		{ "offset", required_argument, NULL, 'o' },
		{ "hold", no_argument, NULL, 'h' },
		{ "thp", no_argument, NULL, 't' },
		{ "hugetlb", no_argument, NULL, 'H' },
		{ NULL, 0, NULL, 0 },
	};
	enum tt_place_mode mode = TT_PLACE_KERNEL;
	struct tt_nodemask nodes = { 0 };
	struct tt_weights w;
	struct tt_placement pl;
	uint64_t pages = 0, offset = 0;
	const char *method;
	int c, hold = 0, task = 0, thp = 0, hugetlb = 0;

	tt_weights_clear(&w);
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		int bad = 0;

		switch (c) {
		case 'm':
			task = strcmp(optarg, "task") == 0;
			bad = !task && tt_place_mode_parse(optarg, &mode) < 0;
			break;
		case 'n':
			bad = tt_parse_list(optarg, nodes.bits, TT_MAX_NODES) != 0;
			break;
		case 'w':
			bad = tt_weights_parse(optarg, &w) < 0;
			break;
		case 'p':
			bad = tt_parse_u64(optarg, 1, 1 << 24, &pages) != 0;
			break;
		case 'o':
			bad = tt_parse_u64(optarg, 0, 511, &offset) != 0;
			break;
		case 'h':
			hold = 1;
			break;
		case 't':
			thp = 1;
			break;
		case 'H':
			hugetlb = 1;
			break;
		default:
			bad = 1;
		}
		if (bad) {
			fprintf(stderr, "pagemap: bad option (%s)\n", tt_err_msg());
			return 2;
		}
	}
	if (!pages || (!task && tt_place_init(&pl, mode, &nodes, &w, 0) < 0)) {
		fprintf(stderr, "pagemap: %s\n", pages ? tt_err_msg() : "--pages needed");
		return 2;
	}
	/* A 2 MiB-aligned base plus offset pages: the start index is chosen,
	 * not left to where mmap happens to put things. */
	size_t len = pages * PAGE;
	/* --hugetlb: the kernel's pool, 2 MiB pages at a 2 MiB-aligned address
	 * (tiertune rebalance reads them from smaps' Private_Hugetlb). */
	if (hugetlb && (offset || pages % 512)) {
		fprintf(stderr, "pagemap: --hugetlb takes --offset 0 and pages in 512s\n");
		return 2;
	}
	char *region =
		mmap(NULL, hugetlb ? len : len + offset * PAGE + HUGE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | (hugetlb ? MAP_HUGETLB : MAP_NORESERVE), -1, 0);
	if (region == MAP_FAILED) {
		perror("pagemap: mmap");
		return 1;
	}
	char *buf = (char *)(((uintptr_t)region + HUGE - 1) & ~(HUGE - 1)) + offset * PAGE;
	/* Under the task's policy too, THP off as tt_place_apply has it: one
	 * transparent huge page is one interleave slot, and the check is of
	 * the kernel's order page by page. */
	if (task && madvise(buf, len, MADV_NOHUGEPAGE) < 0 && errno != EINVAL) {
		perror("pagemap: madvise");
		return 1;
	}
	/* --thp: 2 MiB folios (tiertune rebalance moves them whole). */
	pl.thp = thp;
	pl.huge_shift = hugetlb ? 21 : 0;
	if (!task && tt_place_apply(&pl, buf, len, &method) < 0) {
		fprintf(stderr, "pagemap: %s\n", tt_err_msg());
		return 1;
	}
	for (size_t i = 0; i < len; i += PAGE)
		buf[i] = 1;
	void **addr = malloc(pages * sizeof(*addr));
	int *status = malloc(pages * sizeof(*status));
	if (!addr || !status)
		return 1;
	for (size_t i = 0; i < pages; i++)
		addr[i] = buf + i * PAGE;
	if (tt_move_pages_query(addr, status, pages) < 0) {
		fprintf(stderr, "pagemap: %s\n", tt_err_msg());
		return 1;
	}
	printf("start_index %ju\nnodes", (uintmax_t)((uintptr_t)buf / PAGE));
	for (size_t i = 0; i < pages; i++)
		printf(" %d", status[i]);
	printf("\n");
	if (hold) {
		/* SIGUSR1: where the pages are now, queried again (after
		 * tiertune rebalance moved them), as another "nodes" line. */
		signal(SIGUSR1, on_usr1);
		printf("held\n");
		fflush(stdout);
		for (;;) {
			pause();
			if (!requery)
				continue;
			requery = 0;
			if (tt_move_pages_query(addr, status, pages) < 0)
				return 1;
			printf("nodes");
			for (size_t i = 0; i < pages; i++)
				printf(" %d", status[i]);
			printf("\nrequeried\n");
			fflush(stdout);
		}
	}
	return 0;
}
