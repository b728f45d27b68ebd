#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# STYLE.md's complexity limit (pmccabe's cyclomatic figure, first column, at
# most 30) on every function of the product (issue 36: 16 were over it at
# a9db891, the worst 64): every folder of C sources but tests/.
. "$(dirname "$0")/lib.sh"

if ! command -v pmccabe >/dev/null; then
	skip "no pmccabe here (mk/packages/check.debian installs it)"
	done_testing
	exit 0
fi
cd "$TT_TOP" || exit 1
files=()
for d in */; do
	[ "$d" != tests/ ] && compgen -G "$d*.c" >/dev/null && files+=("$d"*.c)
done
is "every function of the product at most 30 (pmccabe)" \
	"$(pmccabe "${files[@]}" | awk '$1 > 30 {print $1, $NF}' | sort -nr | tr '\n' ';')" ""
done_testing
