# tiertune: one non-recursive Makefile.
#   make             build tiertune (build/tiertune)
#   make check       unit + CLI tests (no root, no second node), "N passed, N failed"
#   make check-asan  the same under ASan + UBSan (build-asan/)
#   make demo        topo and simulate on this machine and on fixtures
#   make deps        install the Debian packages in packages.debian
#   make fuzz        run each parser's libFuzzer target for FUZZ_SECONDS
#   make check-qemu  tests on a 3-node kernel under QEMU (tests/qemu/README.md)
#   make perf        benchmarks of our own code (figures, not tests)
#   make install     PREFIX=/usr/local DESTDIR=

# No built-in rules: make would otherwise try to rebuild an included .d file
# by linking a "<name>.d.o" that the kernel-loop pattern rule would match.
MAKEFLAGS += --no-builtin-rules
SHELL     := /bin/bash
CC        ?= cc
BUILD     ?= build
PREFIX    ?= /usr/local
VERSION   := $(shell git describe --always --dirty 2>/dev/null || echo 0.1.0)
FUZZ_SECONDS ?= 60

PKGS      := numa jansson sqlite3 ncursesw papi
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
# likwid and libpfm4 ship no .pc file.
EXTRA_LIBS := -llikwid -lpfm

WARN      := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wformat=2 -Wno-format-nonliteral
CFLAGS    ?= -O2 -g
ALL_CFLAGS := -std=gnu11 $(WARN) $(CFLAGS) $(PKG_CFLAGS) -DTT_VERSION='"$(VERSION)"' -MMD -MP
LDLIBS    := $(PKG_LIBS) $(EXTRA_LIBS) -lpthread -lm

CORE_SRC  := core/error.c core/bitmap.c core/parse.c core/sysfs.c core/fixture-kernel.c \
             core/topo.c core/weights.c core/interleave.c core/wi.c core/wi-upstream.c \
             core/wi-rfc.c
CORE_SRC  += core/mpol.c core/proc.c core/apply.c core/journal.c core/recommend.c core/state.c
BENCH_SRC := bench/place.c bench/kernels.c bench/run.c bench/latency.c
DB_SRC    := db/db.c db/schema.c
COLL_SRC  := collectors/collectors.c collectors/sampler.c collectors/pmu.c \
             collectors/c-numastat.c collectors/c-uncore.c collectors/c-pfm.c \
             collectors/c-papi.c collectors/c-likwid.c collectors/c-resctrl.c \
             collectors/c-model.c collectors/collect.c
CLI_SRC   := cli/tiertune.c cli/cli.c cli/cmd-topo.c cli/cmd-simulate.c cli/cmd-bench.c cli/cmd-runs.c cli/cmd-db.c cli/cmd-apply.c cli/cmd-export.c cli/recos.c cli/cmd-collectors.c
UNIT_SRC  := $(wildcard tests/unit/test-*.c)
FUZZ_SRC  := $(wildcard tests/fuzz/fuzz-*.c)

CORE_OBJ  := $(CORE_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ   := $(CLI_SRC:%.c=$(BUILD)/%.o)
# The kernel loops, once per instruction set (bench/k-loops.h picks one at
# run time): x86-64 gets SSE2, AVX2 and AVX-512 copies, other machines one.
X86       := $(if $(findstring x86_64,$(shell $(CC) -dumpmachine)),1)
KLOOPS    := base $(if $(X86),avx2 avx512)
BENCH_OBJ := $(BENCH_SRC:%.c=$(BUILD)/%.o) $(KLOOPS:%=$(BUILD)/bench/k-stream-%.o)
DB_OBJ    := $(DB_SRC:%.c=$(BUILD)/%.o)
COLL_OBJ  := $(COLL_SRC:%.c=$(BUILD)/%.o)
UNIT_BIN  := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
LIBTT     := $(BUILD)/libtiertune.a
TIERTUNE  := $(BUILD)/tiertune

.PHONY: all check check-asan check-qemu demo deps fuzz install clean unit-bins perf
all: $(TIERTUNE)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

# Kernel loops only: -O3, and per copy its instruction set. A copy loop must
# stay a loop of ordinary stores: as a memcpy call it would switch to
# non-temporal stores above glibc's size threshold and measure a different
# kernel (copy-nt) depending on --size. gcc turns loops into calls unless told
# not to; clang does unless memcpy is not a builtin.
NO_IDIOMS := $(shell $(CC) -Werror -fno-tree-loop-distribute-patterns -E -x c /dev/null \
		>/dev/null 2>&1 && echo -fno-tree-loop-distribute-patterns)
KERNEL_CFLAGS := -O3 -fno-builtin $(NO_IDIOMS)
ISA_base   :=
ISA_avx2   := -mavx2 -mfma
ISA_avx512 := -mavx512f -mavx2 -mfma -mprefer-vector-width=512
NAME_base  := $(if $(X86),sse2,generic)
$(BUILD)/bench/k-stream-%.o: bench/k-stream.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(KERNEL_CFLAGS) $(ISA_$*) -DKLOOPS=tt_kloops_$* \
		-DKLOOPS_ISA='"$(or $(NAME_$*),$*)"' -c $< -o $@
$(BUILD)/bench/kernels.o: ALL_CFLAGS += $(if $(X86),-DTT_KLOOPS_X86)

$(LIBTT): $(CORE_OBJ) $(BENCH_OBJ) $(DB_OBJ) $(COLL_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(TIERTUNE): $(CLI_OBJ) $(LIBTT)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJ) $(LIBTT) $(LDLIBS)

$(BUILD)/tests/test-%: tests/unit/test-%.c $(LIBTT)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(shell pkg-config --cflags cmocka) $(LDFLAGS) -o $@ $< $(LIBTT) \
		$(shell pkg-config --libs cmocka) $(LDLIBS)

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
check-qemu: $(TIERTUNE) $(BUILD)/tests/qemu-pagemap
	tests/qemu/run.sh $(BUILD)

perf: $(PERF_BIN)
	@for p in $(PERF_BIN); do echo "== $$p"; $$p || exit 1; done

check: $(TIERTUNE) $(UNIT_BIN)
	@tests/run.sh $(BUILD)

ASAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
check-asan:
	@$(MAKE) --no-print-directory BUILD=build-asan CFLAGS="$(ASAN_FLAGS)" \
		LDFLAGS="-fsanitize=address,undefined" check

demo: $(TIERTUNE)
	@tests/demo.sh $(BUILD)

deps:
	@missing=""; for p in $$(grep -v '^#' packages.debian); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' \
			|| missing="$$missing $$p"; done; \
	if [ -z "$$missing" ]; then echo "deps: all installed"; exit 0; fi; \
	sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; \
	echo "deps: installing$$missing"; \
	$$sudo apt-get update -qq && \
	DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $$missing

FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=build-fuzz/%)
# The profile reader lives in cli/ and reads runs from db/.
build-fuzz/fuzz-profile: tests/fuzz/fuzz-profile.c $(CORE_SRC) cli/recos.c db/db.c db/schema.c
	@mkdir -p build-fuzz
	clang -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined $(PKG_CFLAGS) -o $@ $^ -lm \
		-ljansson -lsqlite3
build-fuzz/fuzz-%: tests/fuzz/fuzz-%.c $(CORE_SRC) collectors/pmu.c
	@mkdir -p build-fuzz
	clang -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined $(PKG_CFLAGS) -o $@ $^ -lm

fuzz: $(FUZZ_BIN)
	@for f in $(FUZZ_BIN); do \
		mkdir -p build-fuzz/corpus-$${f##*/}; \
		echo "fuzz: $$f for $(FUZZ_SECONDS)s"; \
		$$f -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 build-fuzz/corpus-$${f##*/} \
			tests/fuzz/seeds 2>&1 | grep -E 'stat::number_of_executed_units|ERROR|crash' ; \
		test $${PIPESTATUS[0]} -eq 0 || exit 1; \
	done

install: $(TIERTUNE)
	install -D -m 0755 $(TIERTUNE) $(DESTDIR)$(PREFIX)/bin/tiertune
	install -D -m 0644 docs/tiertune.1 $(DESTDIR)$(PREFIX)/share/man/man1/tiertune.1

clean:
	rm -rf build build-asan build-fuzz

-include $(CORE_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(BENCH_OBJ:.o=.d) $(DB_OBJ:.o=.d) $(COLL_OBJ:.o=.d)
