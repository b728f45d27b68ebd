# Written by mk/configure.sh for 'cc' (x86_64-linux-gnu); make re-runs it.
CONFIG_CC := cc
CONFIG_WITHOUT := papi likwid pfm
X86 := 1
NO_IDIOMS := -fno-tree-loop-distribute-patterns
PKG_CFLAGS := 
PKG_LIBS := -ljansson -lsqlite3 
CMOCKA_CFLAGS := 
CMOCKA_LIBS := -lcmocka 
CLANG_FUZZER := 1
BUILT_WITH :=
BUILT_WITHOUT := papi likwid pfm
