// SPDX-License-Identifier: GPL-3.0-or-later
/* tt_objective_parse: text it accepts formats back to text that parses
 * to the same objective, and formatting that again gives the same bytes
 * (parse(format(x)) == x); text it refuses leaves no objective and says
 * so. */
#include "../../core/error.h"
#include "../../core/objective.h"
#include "fuzz.h"

#include <assert.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size), text[TT_OBJECTIVE_TEXT_MAX],
	     again[TT_OBJECTIVE_TEXT_MAX];
	struct tt_objective o, back;

	if (!s)
		return 0;
	if (tt_objective_parse(s, &o) == 0) {
		assert(o.kind != TT_OBJ_NONE);
		assert(tt_objective_format(&o, text, sizeof(text)) == 0);
		assert(tt_objective_parse(text, &back) == 0);
		assert(tt_objective_equal(&o, &back));
		assert(tt_objective_format(&back, again, sizeof(again)) == 0);
		assert(strcmp(text, again) == 0);
		/* Only a rate may be written another way ("10.0GB/s"). */
		if (!strchr(s, '@'))
			assert(strcmp(s, text) == 0);
	} else {
		assert(o.kind == TT_OBJ_NONE);
		assert(strstr(tt_err_msg(), "is not one tiertune records"));
	}
	free(s);
	return 0;
}
