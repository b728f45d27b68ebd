// SPDX-License-Identifier: GPL-3.0-or-later
/* tt_recipe_parse: a per-socket recipe read back from a store made
 * elsewhere. What it accepts holds only what its fields hold (digits and
 * the list and weight separators: nothing a shell or a terminal reads as
 * more), and goes back to JSON and parses to the same. */
#include "../../db/recipe.h"
#include "fuzz.h"

#include <assert.h>
#include <string.h>

static void plain(const char *s, const char *allowed)
{
	assert(strspn(s, allowed) == strlen(s));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tt_recipe a, b;
	char *s = fuzz_string(data, size), *text;

	if (!s)
		return 0;
	if (tt_recipe_parse(s, &a) == 0) {
		plain(a.weights, "0123456789:,");
		plain(a.nodes, "0123456789-,");
		plain(a.cpus, "0123456789-,");
		assert(a.nothers >= 0 && a.nothers <= TT_RECIPE_MAX_OTHERS);
		for (int i = 0; i < a.nothers; i++)
			plain(a.other[i].mems, "0123456789-,");
		text = tt_recipe_json(&a);
		assert(text);
		assert(tt_recipe_parse(text, &b) == 0);
		assert(memcmp(&a, &b, sizeof(a)) == 0);
		free(text);
	}
	free(s);
	return 0;
}
