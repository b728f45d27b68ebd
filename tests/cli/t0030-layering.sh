#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The layering STYLE.md states, checked on the sources and the built
# objects so it cannot erode silently: a folder includes from and calls
# into only itself and the folders below it (core <- bench, capture,
# collectors, db <- measure, writer <- model, view <- tuner <- cli, tui);
# curses only in tui/screen.c; sqlite3.h only in db/; no command file
# (cli/cmd-*.c) includes or calls another's; no circle of calls between
# files (a plug-in table and its plug-ins aside).
# Known violations being removed are listed in ALLOW with the issue that
# removes them; an allowed violation that is gone fails too, so the list
# shrinks with the fixes.
. "$(dirname "$0")/lib.sh"

# TT_LAYERING_ROOT: another tree to check (the self-test below).
cd "${TT_LAYERING_ROOT:-$TT_TOP}" || exit 1

# folder level: a folder may use its own files and those of lower levels.
# A new folder is one line.
LEVELS="
core 0
bench 1
capture 1
collectors 1
db 1
measure 2
migrate 2
writer 2
model 3
view 3
tuner 4
cli 5
tui 5
"

# header file-glob...: the only files that may include the header
HEADERS="
curses.h tui/screen.c
ncurses.h tui/screen.c
ncursesw/curses.h tui/screen.c
term.h tui/screen.c
sqlite3.h db/*
"

# Known violations still to remove, one per line as reported, with the
# issue that removes them (none: writer/ removed the commands' calls into
# cmd-apply.c).
ALLOW="
"

level() { awk -v f="$1" '$1 == f {print $2}' <<<"$LEVELS"; }
folders=$(awk 'NF {print $1}' <<<"$LEVELS")
sources=$(for f in $folders; do ls "$f"/*.[ch] 2>/dev/null; done)
found="$WORK/found"
: >"$found"

# 0. every folder of product sources has a level: one the table leaves out
# would be checked by nothing here.
for d in */; do
	d=${d%/}
	[ "$d" != tests ] && compgen -G "$d/*.c" >/dev/null && [ -z "$(level "$d")" ] &&
		echo "folder $d/: not in the level table" >>"$found"
done

# 1. includes between folders: "../X/..." from folder F needs X == F or a
# lower level.
for f in $folders; do
	[ -d "$f" ] || continue
	lf=$(level "$f")
	grep -Ho '^#include "\.\./[a-z-]*/[^"]*"' "$f"/*.[ch] 2>/dev/null |
		while IFS=: read -r file inc; do
			to=${inc#*../}
			to=${to%%/*}
			lt=$(level "$to")
			if [ -z "$lt" ]; then
				echo "include $file -> $to/: a folder the level table does not know"
			elif [ "$to" != "$f" ] && [ "$lt" -ge "$lf" ]; then
				echo "include $file -> ${inc#\#include }: $to/ is not below $f/"
			fi
		done >>"$found"
done

# 2. headers only their owners include.
while read -r hdr owners; do
	[ -n "$hdr" ] || continue
	# shellcheck disable=SC2086 # one word per file
	for file in $(grep -lE "^#include <$hdr>" $sources); do
		ok=0
		for o in $owners; do
			# shellcheck disable=SC2053
			[[ $file == $o ]] && ok=1
		done
		[ $ok = 1 ] || echo "include $file -> <$hdr>: only $owners may include it" >>"$found"
	done
done <<<"$HEADERS"

# 3. a command file includes no other command's file.
for file in cli/cmd-*.c; do
	grep -Ho '^#include "cmd-[^"]*"' "$file" | while IFS=: read -r _ inc; do
		echo "include $file -> ${inc#\#include }: a command file includes another's"
	done >>"$found"
done

# 5 (with 4's calls). bench, run and capture stand below the search
# (issue 36): a measurement, a launch or a capture includes and calls
# nothing of tuner/.
NO_TUNER="cli/cmd-bench.c cli/cmd-run.c cli/cmd-capture.c"
for file in $NO_TUNER; do
	grep -Ho '^#include "\.\./tuner/[^"]*"' "$file" | while IFS=: read -r _ inc; do
		echo "include $file -> ${inc#\#include }: it needs no search"
	done >>"$found"
done

# 4. calls, from the built objects: a symbol an object uses is defined in
# its own folder or below, and a command file uses no other command's.
if [ -d "$TT_BUILD/core" ]; then
	for f in $folders; do
		# An object whose source is gone (a file moved) is stale, not code.
		for o in "$TT_BUILD/$f"/*.o; do
			[ -e "$f/$(basename "$o" .o).c" ] && nm -g --defined-only "$o" | awk -v src="$f/$(basename "$o" .o).c" '$2 ~ /[TDBR]/ {print $3, src, $2}'
		done
	done | sort -u >"$WORK/defs-typed"
	awk '{print $1, $2}' "$WORK/defs-typed" >"$WORK/defs"
	for f in $folders; do
		lf=$(level "$f")
		for o in "$TT_BUILD/$f"/*.o; do
			src="$f/$(basename "$o" .o).c"
			[ -e "$o" ] && [ -e "$src" ] || continue
			nm -u "$o" | awk '{print $2}' | sort -u | join - "$WORK/defs" |
				while read -r sym def; do
					to=${def%%/*}
					lt=$(level "$to")
					[ "$to" = "$f" ] && [ "$def" != "$src" ] && echo "$src $def $sym" >>"$WORK/edges"
					if [ "$to" != "$f" ] && [ "$lt" -ge "$lf" ]; then
						echo "call $src -> $def ($sym): $to/ is not below $f/"
					elif [[ $src == cli/cmd-* && $def == cli/cmd-* && $def != "$src" ]]; then
						echo "call $src -> $def ($sym)"
					elif [[ " $NO_TUNER " == *" $src "* && $def == tuner/* ]]; then
						echo "call $src -> $def ($sym): it needs no search"
					fi
				done
		done
	done >>"$found"
	calls=1
else
	skip "no built objects in $TT_BUILD: the call rules are not checked"
	calls=0
fi

sort -u "$found" -o "$found"
allowed() { awk -F': issue' 'NF {print $1}' <<<"$ALLOW" | sed 's/ *$//' | grep -qxF -- "$1"; }
new=$(while read -r v; do
	[ -n "$v" ] && ! allowed "$v" && echo "$v"
done <"$found")
is "layering: no include or call against STYLE.md's rules (beyond the allowlist)" "$new" ""
if [ $calls = 1 ]; then
	gone=$(awk -F': issue' 'NF {print $1}' <<<"$ALLOW" | sed 's/ *$//' | while read -r a; do
		grep -qxF -- "$a" "$found" || echo "$a"
	done)
	is "layering: every allowed violation still exists (remove fixed ones from ALLOW)" "$gone" ""
fi

# 6. no circle between files: within a folder a file's calls go one way
# (issue 36: tuner/auto.c and auto-doc.c called each other; issue 46:
# bench/latency.c, run.c and llc.c, core/apply.c, journal.c and
# wi-common.c). A plug-in table and its plug-ins call each other by
# design (the table names them, they use its helpers, as git.c and
# builtin/*.c), and a plug-in may hand over to another through its
# descriptor (s-shares runs s-fitted on two nodes, s-fitted s-shares under
# a bound): so the tables below are left out of the drawing, and so is a
# use of a descriptor a table lists (a descriptor is data, not a call).
# Every other file of every folder is checked. A new plug-in table is a
# line here. circles EDGES: the files of each circle in "from to" lines,
# sorted, one line.
TABLES="
bench/kernels.c the kernels
bench/kinds.c the kernels' kinds
collectors/collectors.c the collectors
core/wi.c the weight backends
tuner/strategies.c the search strategies
cli/tiertune.c the commands
"
circles() { tsort "$1" 2>&1 >/dev/null | grep -v 'input contains a loop' | sed 's/^tsort: //' | sort | paste -sd' '; }
# circle_edges EDGES DATA: EDGES ("from to symbol") less those from or to
# a table and those whose symbol is a descriptor a table lists (a data
# symbol of the table's folder, in DATA's "symbol file type" lines, that
# the table's object uses), as "from to" lines.
circle_edges() {
	local tables desc=$WORK/descriptors
	tables=$(awk 'NF {print $1}' <<<"$TABLES")
	: >"$desc"
	for t in $tables; do
		[ -e "$TT_BUILD/${t%.c}.o" ] || continue
		nm -u "$TT_BUILD/${t%.c}.o" | awk '{print $2}' | sort -u |
			join - <(awk '$3 ~ /[DR]/' "$2" | sort) | awk -v d="${t%%/*}/" 'index($2, d) == 1 {print $1}' >>"$desc"
	done
	awk -v tables=" $(paste -sd' ' <<<"$tables") " 'NR == FNR {d[$1] = 1; next}
		!(index(tables, " " $1 " ") || index(tables, " " $2 " ") || ($3 in d)) {print $1, $2}' "$desc" "$1" | sort -u
}
printf 'a.c b.c\nb.c a.c\nb.c c.c\n' >"$WORK/loop"
is "layering: the circle check finds one" "$(circles "$WORK/loop")" "a.c b.c"
if [ $calls = 1 ]; then
	touch "$WORK/edges"
	circle_edges "$WORK/edges" "$WORK/defs-typed" >"$WORK/file-edges"
	is "layering: no circle between files (plug-in tables aside)" "$(circles "$WORK/file-edges")" ""
	# The exemption is no wider than the tables: a helper file that
	# called back into one of a table's plug-ins would be a circle.
	printf 'core/wi.c core/wi-rfc.c tt_wi_rfc\ncore/wi-rfc.c core/wi-common.c tt_wi_tier_form\ncore/wi-common.c core/wi-rfc.c tt_wi_rfc_helper\n' >"$WORK/toy-edges"
	is "layering: a circle beside a table is still found" "$(circles <(circle_edges "$WORK/toy-edges" "$WORK/defs-typed"))" "core/wi-common.c core/wi-rfc.c"
fi

# The check finds what it should: run on a copy of the sources with an
# upward include in core/, curses in tui/frame.c, sqlite3.h in tuner/ and a
# command including another's file (sources only: no objects).
if [ -z "${TT_LAYERING_ROOT:-}" ]; then
	for f in $folders; do mkdir -p "$WORK/src/$f" && cp "$f"/*.[ch] "$WORK/src/$f/"; done
	echo '#include "../tuner/auto.h"' >>"$WORK/src/core/weights.c"
	echo '#include <curses.h>' >>"$WORK/src/tui/frame.c"
	echo '#include <sqlite3.h>' >>"$WORK/src/tuner/report.c"
	echo '#include "cmd-apply.h"' >>"$WORK/src/cli/cmd-auto.c"
	TT_LAYERING_ROOT="$WORK/src" TT_BUILD="$WORK/none" bash "$0" >"$WORK/self" 2>&1
	is "layering: the check catches an upward include, curses outside screen.c, sqlite3.h outside db/, a command including another" \
		"$(grep -oE '^# (got: +)?include [^:]*' "$WORK/self" | sed -E 's/^# (got: +)?//' | sort | paste -sd';')" \
		"include cli/cmd-auto.c -> \"cmd-apply.h\";include core/weights.c -> \"../tuner/auto.h\";include tui/frame.c -> <curses.h>;include tuner/report.c -> <sqlite3.h>"
fi

done_testing
