# SPDX-License-Identifier: GPL-3.0-or-later
# tiertune: one non-recursive Makefile.
#   make             build tiertune (build/tiertune) and, with ncursesw, tiertop
#   make deps        install what building and running need (packages.debian,
#                    mk/deps.sh); with other goals, what they need too
#                    (mk/packages/GOAL.debian), which each goal alone installs
#   make demo        the toolkit end to end (tests/demo.sh); changes nothing here
#   make check       unit + CLI tests (no root, no second node), "N passed, N failed"
#   make check-asan  the same under ASan + UBSan (build-asan/)
#   make check-qemu  tests on a 3-node 6.12 kernel and a 4-node auto-mode kernel with a
#                    memory hot-add, under QEMU (tests/qemu/README.md)
#   make check-systemd  the package's unit and udev rule in a Debian guest with systemd,
#                    around a hot-add (slow; not in check or check-qemu)
#   make check-fresh README's commands in a fresh Debian 12 root (tests/fresh/)
#   make fuzz        run each parser's libFuzzer target for FUZZ_SECONDS
#   make perf        benchmarks of our own code (figures, not tests)
#   make install     PREFIX=/usr/local DESTDIR= (make uninstall: the same set)
#   make deb         the Debian package and lintian on it (build-deb-out/)
#   make spdx-check  every source file opens with its SPDX license line (make spdx adds it)
# Goals may be combined: `make deps demo` installs first, then probes and builds.
# The build runs one job per CPU unless -jN says otherwise (-j1: serial).

# No built-in rules: make would otherwise try to rebuild an included .d file
# by linking a "<name>.d.o" that the kernel-loop pattern rule would match.
MAKEFLAGS += --no-builtin-rules
# Parallel by default: make 4.3 shows no -j while it reads this file, but a
# -j on the command line wins over this one, and a sub-make shares its
# parent's job slots.
ifeq ($(MAKELEVEL),0)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 1)
endif
SHELL     := /bin/bash
BUILD     ?= build
PREFIX    ?= /usr/local
# Installed data (models, the machine trees they name, docs); the binary
# looks for models by name there (model/model-path.h), so it is built in.
DATADIR   := $(PREFIX)/share/tiertune
FUZZ_SECONDS ?= 60
.DEFAULT_GOAL := all

# What this machine has (compiler, libraries, instruction sets) is probed by
# mk/configure.sh into $(BUILD)/config.mk, never while make parses this file:
# `make deps demo` must see what deps installed. These goals need no probe.
CONFIG    := $(BUILD)/config.mk
NO_CONFIG_GOALS := deps clean check-fresh check-systemd format format-check uninstall deb spdx spdx-check
ifneq ($(filter-out $(NO_CONFIG_GOALS),$(or $(MAKECMDGOALS),all)),)
include $(CONFIG)
endif
# What a goal needs beyond packages.debian (building and running), its own
# list: `make deps GOAL` installs both, GOAL alone its own (mk/deps.sh
# installs only what is missing; without root it names the command).
PKGS_check       := mk/packages/check.debian
PKGS_check-asan  := $(PKGS_check)
PKGS_check-qemu  := mk/packages/qemu.debian
PKGS_fuzz        := mk/packages/fuzz.debian
PKGS_format      := mk/packages/format.debian
PKGS_format-check := $(PKGS_format)
PKGS_deb         := mk/packages/deb.debian
PKGS_check-fresh := mk/packages/fresh.debian $(PKGS_deb)
GOAL_PKGS := $(sort $(foreach g,$(MAKECMDGOALS),$(PKGS_$(g))))
DEPS_LISTS := $(if $(filter deps,$(MAKECMDGOALS)),packages.debian) $(GOAL_PKGS)
# Goals that install their own packages in their recipe (no probe) wait for
# deps when it is a goal too: one apt at a time.
DEPS_GOAL := $(if $(filter deps,$(MAKECMDGOALS)),| deps)
# With deps among the goals, or a goal whose packages are missing, the probe
# waits for them (the unit tests need cmocka, fuzz clang): remaking config.mk
# installs first, once (make then re-reads this file with MAKE_RESTARTS set,
# and nothing is forced again). A changed CC, WITHOUT or package set re-probes.
DEPS_FIRST   := $(if $(MAKE_RESTARTS),,$(if $(or $(filter deps,$(MAKECMDGOALS)),$(if $(GOAL_PKGS),$(shell mk/deps.sh --missing $(GOAL_PKGS)))),FORCE))
streq = $(and $(findstring |$(1)|,|$(2)|),$(findstring |$(2)|,|$(1)|))
CONFIG_STALE := $(if $(CONFIG_CC),$(if $(call streq,$(CC) $(WITHOUT),$(CONFIG_CC) $(CONFIG_WITHOUT)),,FORCE))
$(CONFIG): mk/configure.sh $(wildcard /var/lib/dpkg/status) $(DEPS_FIRST) $(CONFIG_STALE)
	$(if $(DEPS_FIRST),@mk/deps.sh $(DEPS_LISTS))
	@mkdir -p $(@D)
	@WITHOUT='$(WITHOUT)' mk/configure.sh '$(CC)' >$@.tmp && mv -f $@.tmp $@
FORCE:

WARN      := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wformat=2 -Wno-format-nonliteral
CFLAGS    ?= -O2 -g
ALL_CFLAGS := -std=gnu11 $(WARN) $(CPPFLAGS) $(CFLAGS) $(PKG_CFLAGS) -MMD -MP
LDLIBS    := $(PKG_LIBS) -lpthread -lm

# Sources by folder: a new file in a folder is built without a Makefile edit.
# bench/k-stream.c is built once per instruction set (below).
CORE_SRC  := $(wildcard core/*.c)
BENCH_SRC := $(filter-out bench/k-stream.c,$(wildcard bench/*.c))
DB_SRC    := $(wildcard db/*.c)
CAPTURE_SRC := $(wildcard capture/*.c)
MIGRATE_SRC := $(wildcard migrate/*.c)
COLL_SRC  := $(wildcard collectors/*.c)
MEASURE_SRC := $(wildcard measure/*.c)
MODEL_SRC := $(wildcard model/*.c)
TUNER_SRC := $(wildcard tuner/*.c)
VIEW_SRC  := $(wildcard view/*.c)
WRITER_SRC := $(wildcard writer/*.c)
API_SRC   := $(filter-out lib/example.c,$(wildcard lib/*.c))
CLI_SRC   := $(wildcard cli/*.c)
UNIT_SRC  := $(wildcard tests/unit/test-*.c)
FUZZ_SRC  := $(wildcard tests/fuzz/fuzz-*.c)

CORE_OBJ  := $(CORE_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ   := $(CLI_SRC:%.c=$(BUILD)/%.o)
# The kernel loops, once per instruction set (bench/k-loops.h picks one at
# run time): x86-64 gets SSE2, AVX2 and AVX-512 copies, other machines one.
KLOOPS    := base $(if $(X86),avx2 avx512)
BENCH_OBJ := $(BENCH_SRC:%.c=$(BUILD)/%.o) $(KLOOPS:%=$(BUILD)/bench/k-stream-%.o)
DB_OBJ    := $(DB_SRC:%.c=$(BUILD)/%.o)
CAPTURE_OBJ := $(CAPTURE_SRC:%.c=$(BUILD)/%.o)
MIGRATE_OBJ := $(MIGRATE_SRC:%.c=$(BUILD)/%.o)
COLL_OBJ  := $(COLL_SRC:%.c=$(BUILD)/%.o)
MEASURE_OBJ := $(MEASURE_SRC:%.c=$(BUILD)/%.o)
MODEL_OBJ := $(MODEL_SRC:%.c=$(BUILD)/%.o)
TUNER_OBJ := $(TUNER_SRC:%.c=$(BUILD)/%.o)
VIEW_OBJ  := $(VIEW_SRC:%.c=$(BUILD)/%.o)
WRITER_OBJ := $(WRITER_SRC:%.c=$(BUILD)/%.o)
API_OBJ   := $(API_SRC:%.c=$(BUILD)/%.o)
LIB_OBJ   := $(CORE_OBJ) $(BENCH_OBJ) $(DB_OBJ) $(COLL_OBJ) $(MEASURE_OBJ) $(MODEL_OBJ) \
	$(TUNER_OBJ) $(VIEW_OBJ) $(WRITER_OBJ) $(CAPTURE_OBJ) $(MIGRATE_OBJ) $(API_OBJ)
UNIT_BIN  := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
FUZZ_BIN  := $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/tests/%)
LIBTT     := $(BUILD)/libtiertune.a
TIERTUNE  := $(BUILD)/tiertune

# Kernel loops only: -O3, and per copy its instruction set. A copy loop must
# stay a loop of ordinary stores: as a memcpy call it would switch to
# non-temporal stores above glibc's size threshold and measure a different
# kernel (copy-nt) depending on --size. gcc turns loops into calls unless told
# not to (NO_IDIOMS, from configure.sh); clang does unless memcpy is not a builtin.
KERNEL_CFLAGS := -O3 -fno-builtin $(NO_IDIOMS)
ISA_base   :=
ISA_avx2   := -mavx2 -mfma
ISA_avx512 := -mavx512f -mavx2 -mfma -mprefer-vector-width=512
NAME_base  := $(if $(X86),sse2,generic)

# Objects depend on the flags they were built with: a stamp rewritten only
# when they change, so a changed probe, CC or CFLAGS rebuilds everything and
# an unchanged one rebuilds nothing. The version has its own stamp, read by
# cli/tiertune.c alone, so a commit does not rebuild the library; cmocka's
# flags too, read by the unit tests alone: `make deps check` after `make
# deps demo` installs cmocka, the probe then finds it, and with its flags in
# FLAGS the whole tree was rebuilt for the tests' packages (issue 44).
FLAGS     := $(DATADIR) $(CC) $(ALL_CFLAGS) $(KERNEL_CFLAGS) $(X86) $(LDFLAGS) $(LDLIBS) $(NCURSES_LIBS)
FLAGS_STAMP := $(BUILD)/flags.stamp
CMOCKA_STAMP := $(BUILD)/cmocka.stamp
# The release (VERSION), and the commit it was built from when there is one:
# mk/version.sh, which the Debian package's version comes from too.
VERSION   := $(shell mk/version.sh)
VERSION_STAMP := $(BUILD)/version.stamp
ifdef CONFIG_CC
stamp = $(if $(call streq,$(file <$(1)),$(2)),,$(shell mkdir -p $(dir $(1)))$(file >$(1),$(2)))
$(call stamp,$(FLAGS_STAMP),$(FLAGS))
$(call stamp,$(CMOCKA_STAMP),$(CMOCKA_CFLAGS) $(CMOCKA_LIBS))
$(call stamp,$(VERSION_STAMP),$(VERSION))
endif

.PHONY: all check check-asan check-qemu check-systemd check-fresh demo deps fuzz fuzz-bins format format-check install uninstall deb spdx spdx-check clean unit-bins perf FORCE
all: $(TIERTUNE)

$(BUILD)/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/bench/k-stream-%.o: bench/k-stream.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(KERNEL_CFLAGS) $(ISA_$*) -DKLOOPS=tt_kloops_$* \
		-DKLOOPS_ISA='"$(or $(NAME_$*),$*)"' -c $< -o $@
$(BUILD)/bench/kernels.o $(BUILD)/pic/bench/kernels.o: ALL_CFLAGS += $(if $(X86),-DTT_KLOOPS_X86)
$(BUILD)/cli/tiertune.o $(API_OBJ) $(API_OBJ:$(BUILD)/%=$(BUILD)/pic/%): ALL_CFLAGS += -DTT_VERSION='"$(VERSION)"'
$(BUILD)/model/model-path.o $(BUILD)/pic/model/model-path.o: ALL_CFLAGS += -DTT_DATADIR='"$(DATADIR)"'
$(BUILD)/cli/tiertune.o $(API_OBJ) $(API_OBJ:$(BUILD)/%=$(BUILD)/pic/%): $(VERSION_STAMP)

$(LIBTT): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(TIERTUNE): $(CLI_OBJ) $(LIBTT)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJ) $(LIBTT) $(LDLIBS)

# The shared library applications link (lib/README.md): the same objects
# built again position-independent (a second set, so that the CLI's stay
# as they were), every symbol hidden but the public calls of
# lib/tiertune.h, which lib/tiertune.map lists under their version node.
# Its soname's number is TIERTUNE_ABI; the file carries ABI.MINOR.0.
ABI_MAJOR := $(shell sed -n 's/^\#define TIERTUNE_ABI \([0-9]*\)$$/\1/p' lib/tiertune.h)
ABI_MINOR := $(shell sed -n 's/^\#define TIERTUNE_ABI_MINOR \([0-9]*\)$$/\1/p' lib/tiertune.h)
SONAME    := libtiertune.so.$(ABI_MAJOR)
LIBSO     := $(BUILD)/$(SONAME).$(ABI_MINOR).0
PIC_OBJ   := $(LIB_OBJ:$(BUILD)/%=$(BUILD)/pic/%)
PIC_CFLAGS := -fPIC -fvisibility=hidden
all: $(LIBSO)
$(BUILD)/pic/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(PIC_CFLAGS) -c $< -o $@
$(BUILD)/pic/bench/k-stream-%.o: bench/k-stream.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(PIC_CFLAGS) $(KERNEL_CFLAGS) $(ISA_$*) -DKLOOPS=tt_kloops_$* \
		-DKLOOPS_ISA='"$(or $(NAME_$*),$*)"' -c $< -o $@
$(LIBSO): $(PIC_OBJ) lib/tiertune.map
	$(CC) $(CFLAGS) $(LDFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,--version-script=lib/tiertune.map \
		-Wl,-z,defs -o $@ $(PIC_OBJ) $(LDLIBS)
	ln -sf $(notdir $@) $(BUILD)/$(SONAME)
	ln -sf $(SONAME) $(BUILD)/libtiertune.so
# The library's ABI as abigail-tools' abidw describes it, kept in the tree
# (lib/tiertune.abi): tests/cli/t0071 compares the built library with it
# (abidiff), so an interface change without this update fails make check.
# The libraries it needs are left out: they follow what configure.sh found.
ABIDW_FLAGS := --exported-interfaces-only --no-corpus-path --no-comp-dir-path --no-show-locs \
	--headers-dir lib --drop-private-types
.PHONY: abi-update
abi-update: $(LIBSO)
	abidw $(ABIDW_FLAGS) $(BUILD)/$(SONAME) | sed '/<elf-needed>/,/<\/elf-needed>/d' >lib/tiertune.abi

# tiertop (tui/), built only when configure.sh found ncursesw. Its frame
# model, text/JSON output and process scan include no curses: their unit
# tests (tests/unit/test-tui*.c) link them without the screen.
TUI_SRC   := $(wildcard tui/*.c)
TUI_OBJ   := $(TUI_SRC:%.c=$(BUILD)/%.o)
TUI_MODEL := $(filter-out $(BUILD)/tui/tiertop.o $(BUILD)/tui/screen.o,$(TUI_OBJ))
TIERTOP   := $(if $(NCURSES_LIBS),$(BUILD)/tiertop)
all: $(TIERTOP)
$(BUILD)/tui/screen.o: ALL_CFLAGS += $(NCURSES_CFLAGS)
$(BUILD)/tui/tiertop.o: ALL_CFLAGS += -DTT_VERSION='"$(VERSION)"'
$(BUILD)/tui/tiertop.o: $(VERSION_STAMP)
$(BUILD)/tiertop: $(TUI_OBJ) $(LIBTT)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(TUI_OBJ) $(LIBTT) $(NCURSES_LIBS) $(LDLIBS)
# The test-only front ends: tiertune and tiertop with the test seams filled
# (tests/helper/test-hooks.c, core/test-hooks.h; tiertop's scripted
# collector, tests/helper/c-script.c). The shipped binaries have none.
TEST_HOOKS := $(BUILD)/tests/helper/test-hooks.o $(BUILD)/tests/helper/c-script.o
TIERTOP_SCRIPT := $(if $(NCURSES_LIBS),$(BUILD)/tests/tiertop-script)
$(BUILD)/tests/tiertop-script: $(TUI_OBJ) $(TEST_HOOKS) $(LIBTT)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(TUI_OBJ) $(TEST_HOOKS) $(LIBTT) $(NCURSES_LIBS) $(LDLIBS)
$(BUILD)/tests/tiertune-test: $(CLI_OBJ) $(TEST_HOOKS) $(LIBTT)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJ) $(TEST_HOOKS) $(LIBTT) $(LDLIBS)
$(BUILD)/tests/test-tui%: tests/unit/test-tui%.c $(TUI_MODEL) $(LIBTT) $(CMOCKA_STAMP)
	$(if $(CMOCKA_LIBS),,$(error no cmocka for the unit tests (Debian package libcmocka-dev); run 'make deps'))
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CMOCKA_CFLAGS) $(LDFLAGS) -o $@ $< $(TUI_MODEL) $(LIBTT) $(CMOCKA_LIBS) $(LDLIBS)

# A unit test of a cli/ file (test-cli-<file>.c) links that file: auto's
# report renderer, whose text and JSON of one document are compared; and
# launchers.c, which the recipe it prints asks of this host's numactl.
# The report renderer is three files (auto-display.c's cells, its text in
# auto-text.c, its JSON in auto-json.c): TEST_CLI_WITH_<file> names the rest.
TEST_CLI_WITH_auto-display := $(BUILD)/cli/auto-text.o $(BUILD)/cli/auto-json.o
.SECONDEXPANSION:
$(BUILD)/tests/test-cli-%: tests/unit/test-cli-%.c $(BUILD)/cli/%.o $$(TEST_CLI_WITH_$$*) $(BUILD)/cli/launchers.o $(LIBTT) $(CMOCKA_STAMP)
	$(if $(CMOCKA_LIBS),,$(error no cmocka for the unit tests (Debian package libcmocka-dev); run 'make deps'))
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CMOCKA_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/cli/$*.o $(TEST_CLI_WITH_$*) $(BUILD)/cli/launchers.o $(LIBTT) $(CMOCKA_LIBS) $(LDLIBS)

# The unit tests need cmocka (configure.sh records it; only tests demand it).
$(BUILD)/tests/test-%: tests/unit/test-%.c $(LIBTT) $(CMOCKA_STAMP)
	$(if $(CMOCKA_LIBS),,$(error no cmocka for the unit tests (Debian package libcmocka-dev); run 'make deps'))
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CMOCKA_CFLAGS) $(LDFLAGS) -o $@ $< $(LIBTT) $(CMOCKA_LIBS) $(LDLIBS)

# The auto-mode rule swapped at link time for a stricter one
# (tests/unit/strict-auto-rule.c in place of writer/auto-rule.c): the
# writer's unit test (tiertop's edit linked in) and a tiertune built with it
# (t0006) show that every front end follows the one rule.
STRICT_RULE := $(BUILD)/tests/strict-auto-rule.o
$(STRICT_RULE): tests/unit/strict-auto-rule.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@
$(BUILD)/tests/tiertune-strict-auto: $(CLI_OBJ) $(STRICT_RULE) $(LIBTT)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJ) $(STRICT_RULE) $(LIBTT) $(LDLIBS)
$(BUILD)/tests/test-writer: tests/unit/test-writer.c $(STRICT_RULE) $(TUI_MODEL) $(LIBTT) $(CMOCKA_STAMP)
	$(if $(CMOCKA_LIBS),,$(error no cmocka for the unit tests (Debian package libcmocka-dev); run 'make deps'))
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CMOCKA_CFLAGS) $(LDFLAGS) -o $@ $< $(STRICT_RULE) $(TUI_MODEL) $(LIBTT) $(CMOCKA_LIBS) $(LDLIBS)
# tiertop's w and u without a terminal (tui/top.c itself), for the kill and
# fault sweeps (tests/cli/kill.sh).
$(BUILD)/tests/top-edit: tests/unit/top-edit.c $(TUI_MODEL) $(LIBTT)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(TUI_MODEL) $(LIBTT) $(LDLIBS)

# The tests' fault shim (tests/helper/fault-shim.c, LD_PRELOAD): built
# without the sanitizers, which must come first in the preload list.
$(BUILD)/tests/fault-shim.so: tests/helper/fault-shim.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 $(WARN) -O2 -fPIC -shared -o $@ $< -ldl

unit-bins: $(UNIT_BIN)

# Benchmarks of our own code (not tests): tests/perf/<name>.c -> build/tests/perf-<name>.
PERF_BIN := $(patsubst tests/perf/%.c,$(BUILD)/tests/perf-%,$(wildcard tests/perf/*.c))
$(BUILD)/tests/perf-%: tests/perf/%.c $(LIBTT)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(LIBTT) $(LDLIBS)
# The QEMU guest's page-map helper, and the guest tests (tests/qemu/README.md).
$(BUILD)/tests/qemu-pagemap: tests/qemu/pagemap.c $(LIBTT)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(LIBTT) $(LDLIBS)
# The guest CPU (qemu64) has no AVX: the kernels' run-time choice of
# instruction set is tested there too.
check-qemu: $(TIERTUNE) $(TIERTOP) $(BUILD)/tests/qemu-pagemap
	tests/qemu/run.sh $(BUILD)
# The package (make deb) installed in a Debian guest with systemd and udev.
check-systemd: deb
	tests/qemu/systemd.sh build-deb-out

perf: $(PERF_BIN)
	@for p in $(PERF_BIN); do echo "== $$p"; $$p || exit 1; done

# tests/run.sh is told which unit binaries to expect: a missing one fails.
# The benchmarks are built (not run) too, so that none of them rots unseen.
check: $(TIERTUNE) $(LIBSO) $(TIERTOP) $(TIERTOP_SCRIPT) $(BUILD)/tests/tiertune-test $(UNIT_BIN) $(FUZZ_BIN) $(PERF_BIN) \
	$(BUILD)/tests/tiertune-strict-auto $(BUILD)/tests/top-edit $(BUILD)/tests/fault-shim.so
	@tests/run.sh $(BUILD) $(UNIT_BIN:$(BUILD)/tests/%=%) $(FUZZ_BIN:$(BUILD)/tests/%=%)

ASAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
check-asan:
	@$(MAKE) --no-print-directory BUILD=build-asan CFLAGS="$(ASAN_FLAGS)" \
		LDFLAGS="-fsanitize=address,undefined" check

# README's two commands in a fresh Debian 12 root, as root and as a user.
check-fresh: $(DEPS_GOAL)
	@mk/deps.sh $(PKGS_check-fresh)
	tests/fresh/run.sh

demo: $(TIERTUNE)
	@tests/demo.sh $(BUILD)

deps:
	$(if $(MAKE_RESTARTS),@:,@mk/deps.sh $(DEPS_LISTS))
# Goals named together run one after the other, in the order given (the
# build under each is parallel): `make deps check check-qemu` must not
# interleave two suites' output or load the machine under a benchmark.
SERIAL_GOALS := $(filter demo check check-asan check-qemu check-fresh fuzz perf install deb \
	format-check spdx-check,$(MAKECMDGOALS))
serial_chain = $(if $(word 2,$(1)),$(eval $(word 2,$(1)): | $(word 1,$(1)))$(call serial_chain,$(wordlist 2,$(words $(1)),$(1))))
$(call serial_chain,$(SERIAL_GOALS))

# The fuzz targets (tests/fuzz/fuzz-NAME.c) link the library archive, as the
# unit tests do, so no target lists the sources it needs.
# `make check` builds each with this compiler and tests/fuzz/replay.c as its
# main and runs it on the seeds; `make fuzz` builds them again in build-fuzz/
# with clang's libFuzzer (the whole library instrumented) and fuzzes.
FUZZ_REPLAY := $(if $(FUZZING),,$(BUILD)/tests/fuzz/replay.o)
$(BUILD)/tests/fuzz-%: $(BUILD)/tests/fuzz/fuzz-%.o $(FUZZ_REPLAY) $(LIBTT)
	$(CC) $(CFLAGS) $(LDFLAGS) $(if $(FUZZING),-fsanitize=fuzzer) -o $@ $^ $(LDLIBS)
fuzz-bins: $(FUZZ_BIN)
.SECONDARY: $(FUZZ_SRC:%.c=$(BUILD)/%.o) $(BUILD)/tests/fuzz/replay.o

FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer-no-link,address,undefined
fuzz:
	$(if $(CLANG_FUZZER),,$(error clang cannot link -fsanitize=fuzzer (Debian packages clang, libclang-rt-14-dev); run 'make deps'))
	@$(MAKE) --no-print-directory BUILD=build-fuzz CC=clang FUZZING=1 CFLAGS="$(FUZZ_FLAGS)" \
		LDFLAGS="-fsanitize=address,undefined" fuzz-bins
	@tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_BIN:$(BUILD)/%=build-fuzz/%)

# Kernel style (.clang-format); CI fails on a file that does not follow it.
FORMAT_SRC := $(shell git ls-files '*.c' '*.h' 2>/dev/null)
format: $(DEPS_GOAL)
	@mk/deps.sh $(PKGS_format)
	clang-format -i $(FORMAT_SRC)
format-check: $(DEPS_GOAL)
	@mk/deps.sh $(PKGS_format)
	@bad=; for f in $(FORMAT_SRC); do clang-format --dry-run -Werror $$f >/dev/null 2>&1 || \
		bad="$$bad $$f"; done; \
	if [ -n "$$bad" ]; then echo "format-check: not in .clang-format's style:$$bad"; \
		echo "hint: make format"; exit 1; fi; echo "format-check: $(words $(FORMAT_SRC)) files ok"

# What is installed, and where: mk/install.sh (one list for both goals).
# Debian's packaging (debian/rules) sets PREFIX=/usr and the systemd and
# udev folders of its release.
INSTALL_DIRS := BINDIR=$(PREFIX)/bin MANDIR=$(PREFIX)/share/man/man1 \
	DOCDIR=$(PREFIX)/share/doc/tiertune COMPDIR=$(PREFIX)/share/bash-completion/completions \
	DATADIR=$(DATADIR) UNITDIR=$(or $(UNITDIR),$(PREFIX)/lib/systemd/system) \
	UDEVDIR=$(or $(UDEVDIR),$(PREFIX)/lib/udev/rules.d) DESTDIR=$(DESTDIR) \
	LIBDIR=$(or $(LIBDIR),$(PREFIX)/lib) INCDIR=$(PREFIX)/include MAN3DIR=$(PREFIX)/share/man/man3 \
	PREFIX=$(PREFIX)
install: $(TIERTUNE) $(TIERTOP) $(LIBSO)
	@$(INSTALL_DIRS) TIERTUNE=$(TIERTUNE) TIERTOP=$(TIERTOP) LIBSO=$(LIBSO) SONAME=$(SONAME) \
		VERSION=$(VERSION) mk/install.sh install
uninstall:
	@$(INSTALL_DIRS) mk/install.sh uninstall
# The Debian package of what git tracks, and lintian on it (mk/deb.sh).
deb: $(DEPS_GOAL)
	@mk/deps.sh $(PKGS_deb)
	mk/deb.sh build-deb-out
# The license line of every source file (mk/spdx.sh); CI runs the check.
spdx:
	@mk/spdx.sh add
spdx-check:
	@mk/spdx.sh check

clean:
	rm -rf build build-asan build-fuzz build-min build-clang build-deb build-deb-out

-include $(LIB_OBJ:.o=.d) $(PIC_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TUI_OBJ:.o=.d) $(TEST_HOOKS:.o=.d) $(wildcard $(BUILD)/tests/fuzz/*.d)
