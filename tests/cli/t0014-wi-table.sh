#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The weight-interface table is true (core/wi.h): no C file outside the
# backends names an interface in code (tests/cli/wi-names.py), and the
# command line takes the interface names from the table. A backend added
# with the recipe goes through plan, apply, restore and export in
# tests/unit/test-wi-table.c.
. "$(dirname "$0")/lib.sh"

names() { python3 "$TT_TOP/tests/cli/wi-names.py" "$@"; }
is "no interface named outside core/wi-*.c and the table" "$(names "$TT_TOP" 2>&1 | head -5)" ""

# The checker catches what it is for: a branch on a name, a symbol, a
# hand-kept list, a backend missing from the table.
mkdir -p "$WORK/t/core" "$WORK/t/cli"
cp "$TT_TOP"/core/wi.c "$TT_TOP"/core/wi-*.c "$WORK/t/core/"
cat >"$WORK/t/cli/bad.c" <<'C'
/* a comment may say upstream and "rfc" */
static const char *help = "the rfc interface, or upstream";
int f(const char *n) { return strcmp(n, "rfc") == 0 || be == &tt_wi_upstream; }
static const char *arg = "upstream|rfc";
C
printf 'const struct tt_wi_backend tt_wi_extra = { .name = "extra" };\n' >"$WORK/t/core/wi-extra.c"
is "the checker names each planted problem" "$(names "$WORK/t")" \
	"core/wi.c: the table does not list extra (core/wi-extra.c)
cli/bad.c:3: names backend symbol tt_wi_upstream
cli/bad.c:3: names an interface in code: \"rfc\"
cli/bad.c:4: names an interface in code: \"upstream|rfc\""

# Help and errors list the table's names, in its order.
table=$(grep -oE '^	&tt_wi_[a-z0-9_]+' "$TT_TOP/core/wi.c" | sed 's/.*tt_wi_//' | paste -sd'|')
for c in apply restore simulate; do
	run "$TT" "$c" --help
	grep -qF -- "--interface $table" "$WORK/out"
	tap $? "$c --help: --interface $table, from the table"
done
run "$TT" export --help
grep -qF -- "--interface $table|both" "$WORK/out"
tap $? "export --help: --interface $table|both"
root=$(copy_fixture spr-ddr5-2cxl)
expect_bad_input 2 "interface 'nope' is not one of ${table//|/, }" "$root" \
	"$TT" --sysfs-root "$root" apply --weights 0:1 --interface nope
expect_bad_input 2 "--interface 'nope' is not one of ${table//|/, }" "$root" \
	"$TT" --sysfs-root "$root" simulate --nodes 0 --pages 1 --interface nope
done_testing
