#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Prints build/config.mk for the compiler given as $1 (and WITHOUT, a list
# of optional libraries to leave out): what the Makefile
# needs to know about this machine, each probe run now rather than when make
# parses the Makefile (before `make deps` could install anything). A missing
# tool or library is an error naming its Debian package; nothing is written.
set -eu
cc=${1:-cc}
fail() {
	echo "configure: error: $1" >&2
	echo "hint: run 'make deps' (or install the package named above as root)" >&2
	exit 1
}
command -v "${cc%% *}" >/dev/null 2>&1 || fail "no C compiler '$cc' (Debian package build-essential, or clang)"
command -v pkg-config >/dev/null 2>&1 || fail "no pkg-config (Debian package pkg-config)"

# Libraries with a .pc file: name, Debian package.
pc_flags() {
	pkg-config --exists "$1" 2>/dev/null || fail "no library '$1' for pkg-config (Debian package $2)"
	cflags="$cflags $(pkg-config --cflags "$1")"
	libs="$libs $(pkg-config --libs "$1")"
}
cflags= libs= built= unbuilt=
pc_flags jansson libjansson-dev
pc_flags sqlite3 libsqlite3-dev

# The collectors' libraries are optional: without one, its collector says
# "built without X" (collectors/c-<name>.c). WITHOUT="papi likwid pfm hwloc"
# leaves them out even when present. name, test program's include, flags.
optional() { # name header pkg-config-name-or-library
	local name=$1 header=$2 lib=$3 c= l=
	case " ${WITHOUT:-} " in *" $name "*) unbuilt="$unbuilt $name"; return ;; esac
	if pkg-config --exists "$lib" 2>/dev/null; then
		c=$(pkg-config --cflags "$lib") l=$(pkg-config --libs "$lib")
	else
		l=-l$lib
	fi
	if printf '#include <%s>\nint main(void) { return 0; }\n' "$header" |
		$cc $c -x c - -o /dev/null $l >/dev/null 2>&1; then
		cflags="$cflags $c -DTT_HAVE_$(echo "$name" | tr a-z A-Z)"
		libs="$libs $l"
		built="$built $name"
	else
		unbuilt="$unbuilt $name"
	fi
}
optional papi papi.h papi
optional likwid likwid.h likwid
optional pfm perfmon/pfmlib_perf_event.h pfm
# hwloc: the last-level cache where sysfs, sysconf and CPUID say nothing
# (bench/llc.c); without it that search ends one step earlier.
optional hwloc hwloc.h hwloc

# tiertop (tui/) is optional: built when ncursesw is here (WITHOUT=ncurses
# leaves it out), otherwise `make` builds tiertune alone.
ncurses_cflags= ncurses_libs=
case " ${WITHOUT:-} " in *" ncurses "*) ;; *)
	if pkg-config --exists ncursesw 2>/dev/null; then
		c=$(pkg-config --cflags ncursesw) l=$(pkg-config --libs ncursesw)
		printf '#include <curses.h>\nint main(void) { return initscr() == 0; }\n' |
			$cc $c -x c - -o /dev/null $l >/dev/null 2>&1 && ncurses_cflags=$c ncurses_libs=$l
	fi ;;
esac

# The build itself must work: a compiler with no libc headers fails here.
printf '#include <stdio.h>\nint main(void) { return 0; }\n' | $cc -std=gnu11 -x c - -o /dev/null 2>/dev/null ||
	fail "'$cc' cannot build a C program (Debian package build-essential)"

# cmocka only for the unit tests: recorded, demanded by the test rules.
cmocka_cflags= cmocka_libs=
if pkg-config --exists cmocka 2>/dev/null; then
	cmocka_cflags=$(pkg-config --cflags cmocka)
	cmocka_libs=$(pkg-config --libs cmocka)
fi

machine=$($cc -dumpmachine)
x86=
case $machine in x86_64-*) x86=1 ;; esac
# A copy loop must stay a loop of stores (see KERNEL_CFLAGS in the Makefile):
# gcc needs -fno-tree-loop-distribute-patterns for that, clang does not know it.
no_idioms=
$cc -Werror -fno-tree-loop-distribute-patterns -E -x c /dev/null >/dev/null 2>&1 &&
	no_idioms=-fno-tree-loop-distribute-patterns
clang_fuzzer=
command -v clang >/dev/null 2>&1 &&
	printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; return (int)n & 0; }\n' |
	clang -fsanitize=fuzzer -x c - -o /dev/null >/dev/null 2>&1 && clang_fuzzer=1

cat <<MK
# Written by mk/configure.sh for '$cc' ($machine); make re-runs it.
CONFIG_CC := $cc
CONFIG_WITHOUT := ${WITHOUT:-}
X86 := $x86
NO_IDIOMS := $no_idioms
PKG_CFLAGS :=$(echo "$cflags" | tr -s ' ')
PKG_LIBS :=$(echo "$libs" | tr -s ' ')
CMOCKA_CFLAGS := $cmocka_cflags
CMOCKA_LIBS := $cmocka_libs
CLANG_FUZZER := $clang_fuzzer
NCURSES_CFLAGS := $ncurses_cflags
NCURSES_LIBS := $ncurses_libs
BUILT_WITH :=$built
BUILT_WITHOUT :=$unbuilt
MK
