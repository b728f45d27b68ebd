// SPDX-License-Identifier: GPL-3.0-or-later
/* A scripted collector for tiertop's tests: its values come from a file,
 * one line per sample, so a test can make figures change between frames,
 * start as initializing and go stale. It is linked only into the test
 * build's tiertop (build/tests/tiertop-script), never into tiertop, which
 * offers it through the test hooks (test-hooks.c); the file is named by
 * TIERTUNE_TEST_COLLECTOR_SCRIPT. It is flagged simulated like the model.
 *
 *	# comment
 *	metrics read_bytes@0 write_bytes@0 mem_used@0:gauge pgdemote_kswapd
 *	1000 500 4096 0        one sample; counters are cumulative
 *	2000 - 4096 8          '-': that metric is not read this time (stale)
 *	error                  the whole source does not answer (stale)
 * After the last line the source stops answering. */
#include "../../tui/tui.h"

#include "../../core/error.h"
#include "../../core/parse.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SCRIPT_ENV "TIERTUNE_TEST_COLLECTOR_SCRIPT"

extern const struct tt_collector tt_c_script;

/* It stands in for perf-uncore and numastat alike, so a test drives every
 * column: their meanings, copied at probe time (before any frame asks). */
static struct tt_metric_meaning meanings[24];

static void take_meanings(void)
{
	const struct tt_collector *from[] = { &tt_c_uncore, &tt_c_numastat };
	size_t n = 0;

	for (size_t i = 0; i < 2; i++)
		for (const struct tt_metric_meaning *m = from[i]->meanings;
		     m->metric && n + 1 < sizeof(meanings) / sizeof(*meanings); m++)
			meanings[n++] = *m;
}

struct priv {
	char **lines;
	int n, next;
};

static int probe(const struct tt_collect_ctx *ctx, char *why, size_t size)
{
	const char *path = getenv(SCRIPT_ENV);
	FILE *f;

	(void)ctx;
	take_meanings();
	if (!path || !*path) {
		snprintf(why, size, "a test hook: %s is not set", SCRIPT_ENV);
		return TT_EUNAVAIL;
	}
	if (!(f = fopen(path, "re"))) {
		snprintf(why, size, "cannot read '%s' (%s)", path, SCRIPT_ENV);
		return TT_EUNAVAIL;
	}
	fclose(f);
	return 0;
}

static void release(struct priv *p)
{
	for (int i = 0; p && i < p->n; i++)
		free(p->lines[i]);
	if (p)
		free(p->lines);
	free(p);
}

static int open_script(const struct tt_collect_ctx *ctx, struct tt_source **out)
{
	const char *path = getenv(SCRIPT_ENV);
	struct priv *p = calloc(1, sizeof(*p));
	struct tt_source *s = tt_source_new(&tt_c_script, 16);
	char *line = NULL, *save, *tok;
	size_t lcap = 0;
	int cap = 16, rc = 0, lcount = 0;
	FILE *f = NULL;

	(void)ctx;
	if (!p || !s || !path || !(f = fopen(path, "re"))) {
		rc = tt_err(TT_EUNAVAIL, "cannot read the collector script '%s'", path ? path : "");
		goto out;
	}
	while (rc == 0 && getline(&line, &lcap, f) > 0) {
		tt_chomp(line);
		lcount++;
		if (!line[0] || line[0] == '#')
			continue;
		if (strncmp(line, "metrics ", 8) == 0) {
			for (tok = strtok_r(line + 8, " ", &save); tok && rc == 0;
			     tok = strtok_r(NULL, " ", &save)) {
				char name[64];
				char *at = strchr(tok, '@'), *kind = strchr(tok, ':');
				uint64_t node = 0;
				size_t nlen = strcspn(tok, "@:");

				if (kind)
					*kind++ = '\0';
				if (at && tt_parse_u64(at + 1, 0, TT_MAX_NODES - 1, &node) < 0)
					rc = tt_err(TT_EINPUT, "%s line %d: bad node in '%s'", path,
						    lcount, tok);
				if (nlen >= sizeof(name) || (kind && strcmp(kind, "gauge")))
					rc = tt_err(TT_EINPUT, "%s line %d: bad metric '%s'", path,
						    lcount, tok);
				if (rc)
					break;
				snprintf(name, sizeof(name), "%.*s", (int)nlen, tok);
				if (!tt_source_add(s, &cap, name, kind ? "bytes" : "per s",
						   kind ? TT_GAUGE : TT_COUNTER,
						   at ? (int)node : -1, "script"))
					rc = tt_err(TT_EFAIL, "out of memory");
			}
			continue;
		}
		char **nl = realloc(p->lines, (size_t)(p->n + 1) * sizeof(*nl));

		if (!nl || !(nl[p->n] = strdup(line))) {
			if (nl)
				p->lines = nl;
			rc = tt_err(TT_EFAIL, "out of memory");
			break;
		}
		p->lines = nl;
		p->n++;
	}
	if (rc == 0 && !s->nmetrics)
		rc = tt_err(TT_EINPUT, "%s: no 'metrics' line", path);
out:
	free(line);
	if (f)
		fclose(f);
	if (rc < 0) {
		release(p);
		tt_source_free(s);
		return rc;
	}
	s->priv = p;
	*out = s;
	return 0;
}

static int sample(struct tt_source *s, double *v)
{
	struct priv *p = s->priv;
	char *save, *tok, *line;
	int m = 0;

	if (p->next >= p->n)
		return tt_err(TT_EFAIL, "the collector script has ended");
	line = p->lines[p->next++];
	if (strcmp(line, "error") == 0)
		return tt_err(TT_EFAIL, "the collector script says this sample fails");
	char copy[4096];

	snprintf(copy, sizeof(copy), "%s", line);
	for (int i = 0; i < s->nmetrics; i++)
		v[i] = NAN;
	for (tok = strtok_r(copy, " ", &save); tok && m < s->nmetrics;
	     tok = strtok_r(NULL, " ", &save), m++) {
		uint64_t x;

		if (strcmp(tok, "-") && tt_parse_u64(tok, 0, UINT64_C(1) << 60, &x) == 0)
			v[m] = (double)x;
	}
	return 0;
}

static void close_script(struct tt_source *s)
{
	if (s)
		release(s->priv);
	tt_source_free(s);
}

const struct tt_collector tt_c_script = {
	.name = "script",
	.summary = "SIMULATED: values from a test script (" SCRIPT_ENV ")",
	.flags = TT_C_SIMULATED,
	.gives = "whatever the script's metrics line names",
	.meanings = meanings,
	.simulated_as = "the test script",
	.probe = probe,
	.open = open_script,
	.sample = sample,
	.close = close_script,
};
