#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# cli/ prints no unit, scale or figure name of its own (issue 46): every
# figure shown goes through core/figure.c's table and view/, as show's and
# the export's do, so that bench, auto and rebalance print a figure as the
# readers of the record print it. cli-figures.py reads the list from the
# table itself (units, JSON names) beside the scales and gain formats, and
# names each line of cli/ that has one, as t0030 does for includes.
# Files still to convert are listed in ALLOW; an allowed file with nothing
# left fails too, so that the list shrinks with the fixes.
. "$(dirname "$0")/lib.sh"

# TT_FIGURES_ROOT: another tree to check.
root=${TT_FIGURES_ROOT:-$TT_TOP}
scan() { python3 "$TT_TOP/tests/cli/cli-figures.py" "$@"; }

# Files allowed their own units for now, one a line, with why (none:
# auto's and show's went through view/ with the rest, issue 46).
ALLOW="
"
allowed() { awk -v f="$1" '$1 == f { found = 1 } END { exit !found }' <<<"$ALLOW"; }

run scan "$root"
is "the scan ran" "$rc:$(cat "$WORK/err")" "0:"
cp "$WORK/out" "$WORK/found"
own=$(while IFS= read -r l; do allowed "${l%%:*}" || echo "$l"; done <"$WORK/found")
is "cli/ prints no unit, scale or figure name of its own (the figure table's, through view/)" \
	"$own" ""
gone=$(awk 'NF {print $1}' <<<"$ALLOW" | while read -r f; do
	grep -q "^$f:" "$WORK/found" || echo "$f"
done)
is "every allowed file still has its own (else leave it out of ALLOW)" "$gone" ""

# The scan itself finds what it is for, and no more: a planted file with
# each kind of finding, beside an option's help and a usage error that
# name their unit, a comment, and an epsilon.
cat >"$WORK/planted.c" <<'C'
/* GB/s in a comment: 1e9 / x */
static void f(double bw, double ns, double g)
{
	printf("%.2f GB/s\n", bw / 1e9);
	printf("%.1f ns\n", 1e9 / bw);
	printf("%+.1f%%\n", 100 * g);
	json_pack("{s:f}", "bw_best_bytes_s", bw);
	printf("%.1f MiB\n", (double)(1 << 20));
	CLI_DOUBLE("rate", &r, "MIB_S", "at most MIB_S MiB per second", 1e-6, 1 << 20);
	if (ns < 1e-9)
		return cli_usage("'--rate' value %g MiB/s below 0.1", ns);
}
C
run scan "$TT_TOP" "$WORK/planted.c"
is "the scan names each planted unit, scale, gain and figure name, and nothing exempt" \
	"$(sed 's/^[^:]*:\([0-9]*\): \([a-z ]*\).*/\1 \2/' "$WORK/out" | sort -n | tr '\n' ',')" \
	"4 scale ,4 unit ,5 scale ,5 unit ,6 gain format ,7 figure name ,8 scale ,8 unit ,"
done_testing
