// SPDX-License-Identifier: GPL-3.0-or-later
/* An application that calibrates for itself with libtiertune: it probes
 * the memory nodes from its own node, asks for the weights tiertune's
 * search recommends from that probe, and interleaves its own memory over
 * them. Built against the installed library only:
 *
 *	cc -o example example.c $(pkg-config --cflags --libs tiertune)
 *	./example [--budget MS] [--trials N] [--model NAME] [--sysfs-root DIR]
 *
 * --model (and --sysfs-root) probe and search on a performance model, as
 * `tiertune auto --model` does; the policy is then not set (it is this
 * machine's). Prints one line a node and the weights; exit 0, or 1 with
 * the library's message. */
#include <tiertune.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *what)
{
	fprintf(stderr, "example: %s: %s\n", what, tiertune_error());
	if (tiertune_error_hint()[0])
		fprintf(stderr, "hint: %s\n", tiertune_error_hint());
	return 1;
}

int main(int argc, char **argv)
{
	const char *model = NULL, *root = NULL;
	unsigned int budget_ms = 300, trials = 0, weights[64], cur[64], judged;
	int nodes[64], n, rc;
	tiertune_probe *p;
	tiertune *tt;

	for (int i = 1; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "--budget") == 0)
			budget_ms = (unsigned int)strtoul(argv[i + 1], NULL, 10);
		else if (strcmp(argv[i], "--trials") == 0)
			trials = (unsigned int)strtoul(argv[i + 1], NULL, 10);
		else if (strcmp(argv[i], "--model") == 0)
			model = argv[i + 1];
		else if (strcmp(argv[i], "--sysfs-root") == 0)
			root = argv[i + 1];
	}
	rc = model ? tiertune_open_model(&tt, model, root) : tiertune_open(&tt, root);
	if (rc < 0)
		return fail("open");
	/* From node 0 on a model (its machine's first CPU node here). */
	if (tiertune_probe_run(tt, model ? 0 : -1, NULL, 0, budget_ms, &p) < 0)
		return fail("probe");
	n = tiertune_probe_count(p);
	printf("libtiertune %s: probe from node %d, %d nodes, %.0f ms of %u\n", tiertune_version(),
	       tiertune_probe_source(p), n, tiertune_probe_elapsed_ms(p), budget_ms);
	for (int i = 0; i < n && i < 64; i++) {
		double bw, lat;
		char text[128];

		tiertune_probe_result(p, i, &nodes[i], &bw, &lat, &judged);
		tiertune_judged_text(judged, text, sizeof(text));
		printf("node %d: %.2f GB/s, %.0f ns idle, %s\n", nodes[i], bw / 1e9, lat, text);
	}
	if (n < 2) {
		/* Nothing to interleave: the weights are the one node's. */
		weights[0] = 1;
		printf("weights: %d:1 (one memory node)\n", nodes[0]);
	} else if (tiertune_recommend(tt, p, trials, trials ? 0 : budget_ms, weights) < 0) {
		return fail("recommend");
	} else {
		/* A node the search gave no weight is left out of the policy. */
		int k = 0;

		printf("weights:");
		for (int i = 0; i < n; i++) {
			if (!weights[i])
				continue;
			printf("%s%d:%u", k ? "," : " ", nodes[i], weights[i]);
			nodes[k] = nodes[i];
			weights[k++] = weights[i];
		}
		printf("\n");
		n = k;
	}
	if (!model) {
		if (tiertune_weights(tt, -1, nodes, cur, n) == 0)
			for (int i = 0; i < n; i++)
				if (cur[i] != weights[i])
					printf("the kernel holds %u for node %d: 'tiertune apply "
					       "--weights' writes the recommendation\n",
					       cur[i], nodes[i]);
		if (tiertune_set_policy(tt, nodes, n) < 0)
			return fail("policy");
		printf("policy: weighted interleave over %d nodes\n", n);
	}
	tiertune_probe_free(p);
	tiertune_close(tt);
	return 0;
}
