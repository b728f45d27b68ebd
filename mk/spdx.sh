#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# make spdx-check / make spdx: every source file git tracks opens with its
# license as an SPDX line (GPL-3.0-or-later, ../LICENSE: the binary links
# likwid, GPL-3+), on its first line or, after a #! line, its second. The
# kernel's forms (Documentation/process/license-rules.rst): "//" in a .c,
# "/* */" in a .h, "#" in scripts, makefiles and systemd and udev files,
# '.\"' in a manual page (as the man-pages project does).
# Data (fixtures, fuzz seeds, models), documents and the license files are
# not source and carry none.
#
#	mk/spdx.sh check    exit 1 naming each file without its line
#	mk/spdx.sh add      adds the line where it is missing (then: check)
set -eu
mode=${1:?check or add}
id="SPDX-License-Identifier: GPL-3.0-or-later"
cd "$(dirname "$0")/.."

# The source files, one a line: C, shell, Python, bash completions, the
# makefiles, CI and the guest's init, systemd units and the udev rule, the
# manual pages.
sources() {
	git ls-files | grep -vE '^tests/(fixtures|fuzz/seeds)/' |
		grep -E '\.(c|h|sh|py|bash|in|timer|rules|1|3)$|(^|/)(Makefile|rules|run|init)$' |
		grep -vE '^debian/(source|copyright|changelog|control)' |
		while read -r f; do [ -f "$f" ] && echo "$f"; done
}
line_for() { # file: the SPDX line in that file's comment syntax
	case $1 in
	*.c) echo "// $id" ;;
	*.h) echo "/* $id */" ;;
	*.1 | *.3) printf '.\\" %s\n' "$id" ;;
	*) echo "# $id" ;;
	esac
}
# 0 when the line is where it belongs (first, or second after #!).
has_line() { # file
	want=$(line_for "$1")
	first=$(sed -n 1p "$1")
	case $first in
	"#!"*) [ "$(sed -n 2p "$1")" = "$want" ] ;;
	*) [ "$first" = "$want" ] ;;
	esac
}

case $mode in
check)
	bad=0 n=0
	for f in $(sources); do
		n=$((n + 1))
		has_line "$f" || { echo "$f: no '$(line_for "$f")' on its first line (after any #!)"; bad=$((bad + 1)); }
	done
	if [ $bad -gt 0 ]; then
		echo "spdx-check: $bad of $n source files without their SPDX line" >&2
		echo "hint: make spdx" >&2
		exit 1
	fi
	echo "spdx-check: $n source files ok"
	;;
add)
	n=0
	for f in $(sources); do
		has_line "$f" && continue
		want=$(line_for "$f")
		# The file's mode is kept: written through a temporary copy.
		tmp=$(mktemp "$f.spdx.XXXXXX")
		case $(sed -n 1p "$f") in
		"#!"*) { sed -n 1p "$f" && echo "$want" && sed 1d "$f"; } >"$tmp" ;;
		*) { echo "$want" && cat "$f"; } >"$tmp" ;;
		esac
		cat "$tmp" >"$f"
		rm -f "$tmp"
		n=$((n + 1))
	done
	echo "spdx: the line added to $n files"
	;;
*)
	echo "mk/spdx.sh: '$mode' is neither check nor add" >&2
	exit 2
	;;
esac
