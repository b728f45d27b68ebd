// SPDX-License-Identifier: GPL-3.0-or-later
/* tt_plot (view/plot.h): any run document, or array of them (what
 * tt_db_run_get gives, from a database another host's merge may have
 * written), is a plot or an error, never a crash; and the script it writes
 * carries nothing gnuplot would run. Outside its single-quoted strings
 * there is no backquote (command substitution), no '@' (macro), no line
 * starting with '!' (shell), no system(), eval, load or call; the one
 * double-quoted string is our "\n"; no control character but the newline;
 * every datablock holds only numbers, words we wrote and '#' lines, and
 * ends where we end it. */
#define _GNU_SOURCE
#include "../../core/error.h"
#include "../../view/plot.h"
#include "fuzz.h"

#include <assert.h>
#include <stdio.h>

/* The script's invariants, line by line. */
static void check_script(const char *s, size_t n)
{
	bool in_block = false;
	const char *end = s + n;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t len = nl ? (size_t)(nl - s) : (size_t)(end - s);
		bool quoted = false;

		assert(nl); /* every line ends */
		for (size_t i = 0; i < len; i++)
			assert((unsigned char)s[i] >= 0x20 && s[i] != 0x7f);
		if (in_block) {
			if (len == 3 && !memcmp(s, "EOD", 3)) {
				in_block = false;
			} else {
				/* A row: '#' and our escaped text, or numbers and
				 * words (weights, marks) that do not end it. */
				assert(len > 0 && (s[0] == '#' || s[0] == '-' ||
						   (s[0] >= '0' && s[0] <= '9') || s[0] == 'n' ||
						   s[0] == 'i' || s[0] == 'N' || s[0] == 'I'));
			}
			s += len + 1;
			continue;
		}
		assert(s[0] != '!');
		if (len >= 2 && s[0] == '$' && memmem(s, len, " << EOD", 7))
			in_block = true;
		for (size_t i = 0; i < len; i++) {
			if (s[i] == '\'') {
				if (quoted && i + 1 < len && s[i + 1] == '\'')
					i++;
				else
					quoted = !quoted;
				continue;
			}
			if (quoted)
				continue;
			assert(s[i] != '`' && s[i] != '@');
			/* gnuplot's ways to run or read commands. */
			for (const char *const *w = (const char *const[]){ "system", "eval", "load",
									   "call", NULL };
			     *w; w++)
				assert(strncmp(s + i, *w, strlen(*w)));
			if (s[i] == '"') {
				assert(i + 3 < len && !memcmp(s + i, "\"\\n\"", 4));
				i += 3;
			}
		}
		assert(!quoted); /* no string left open at the line's end */
		s += len + 1;
	}
	assert(!in_block);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *doc = json_loadb((const char *)data, size, JSON_DECODE_ANY, NULL);
	json_t *runs[TT_PLOT_MAX_RUNS];
	struct tt_plot *pl;
	int n = 0;

	if (!doc)
		return 0;
	if (json_is_array(doc)) {
		size_t i;
		json_t *r;

		json_array_foreach (doc, i, r)
			if (n < TT_PLOT_MAX_RUNS)
				runs[n++] = r;
	} else {
		runs[n++] = doc;
	}
	if (tt_plot_new(&pl, runs, n) == 0) {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		assert(f);
		assert(tt_plot_points(pl) > 0);
		assert(tt_plot_write_script(pl, "/tmp/it's a plot", f) == 0);
		fclose(f);
		check_script(buf, len);
		free(buf);
		/* The table alone: whole lines, no control character. */
		f = open_memstream(&buf, &len);
		assert(f);
		assert(tt_plot_write_data(pl, f) == 0);
		fclose(f);
		assert(len > 0 && buf[len - 1] == '\n');
		for (size_t i = 0; i < len; i++)
			assert(buf[i] == '\n' || ((unsigned char)buf[i] >= 0x20 && buf[i] != 0x7f));
		free(buf);
		tt_plot_free(pl);
	} else {
		assert(*tt_err_msg());
	}
	json_decref(doc);
	return 0;
}
