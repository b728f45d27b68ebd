#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# STYLE.md's complexity limit (pmccabe's cyclomatic figure, first column, at
# most 30) on the folders issue 34 split to it: bench/, collectors/ and
# tiertop's tui/top.c. Other folders have functions over it still; each is
# added here once split.
. "$(dirname "$0")/lib.sh"

if ! command -v pmccabe >/dev/null; then
	skip "no pmccabe here (mk/packages/check.debian installs it)"
	done_testing
	exit 0
fi
cd "$TT_TOP" || exit 1
files=(bench/*.c collectors/*.c tui/top.c)
is "every function of bench/, collectors/ and tui/top.c at most 30 (pmccabe)" \
	"$(pmccabe "${files[@]}" | awk '$1 > 30 {print $1, $NF}' | sort -nr | tr '\n' ';')" ""
done_testing
