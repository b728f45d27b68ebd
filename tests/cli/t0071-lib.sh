#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# libtiertune as an application meets it (issue 47 item 1): installed by
# make install's script into a DESTDIR, the example built with nothing but
# `pkg-config --cflags --libs tiertune` and run: a probe of this machine's
# memory nodes within its budget, and on a model the weights `tiertune
# auto` finds for the same model and budget. The library exports its
# public calls alone, under its soname; `tiertune probe` gives the same
# figures; its bad input is exit 2 naming it; and abidiff holds the
# library to lib/tiertune.abi, failing on a planted change.
. "$(dirname "$0")/lib.sh"

so=$TT_BUILD/libtiertune.so.1
inst=$WORK/inst
prefix=/usr/local

# The install make install runs (mk/install.sh), into a DESTDIR.
run env DESTDIR="$inst" PREFIX=$prefix BINDIR=$prefix/bin MANDIR=$prefix/share/man/man1 \
	DOCDIR=$prefix/share/doc/tiertune COMPDIR=$prefix/share/bash-completion/completions \
	DATADIR=$prefix/share/tiertune UNITDIR=$prefix/lib/systemd/system \
	UDEVDIR=$prefix/lib/udev/rules.d LIBDIR=$prefix/lib INCDIR=$prefix/include \
	MAN3DIR=$prefix/share/man/man3 TIERTUNE="$TT" LIBSO="$(readlink -f "$so")" \
	SONAME=libtiertune.so.1 VERSION=1.0-test sh -c "cd '$TT_TOP' && mk/install.sh install"
lib=$inst$prefix/lib
is "installed: the library, its soname and development links, header, pkg-config file, man pages" \
	"$rc:$(readlink "$lib/libtiertune.so"):$(readlink "$lib/libtiertune.so.1"):$(ls "$inst$prefix/include"):$(ls "$inst$prefix/share/man/man3" | paste -sd,)" \
	"0:libtiertune.so.1:libtiertune.so.1.0.0:tiertune.h:tiertune_open.3,tiertune_probe_run.3,tiertune_recommend.3,tiertune_set_policy.3"
is "the library's soname" "$(readelf -d "$so" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')" "libtiertune.so.1"
is "it exports the public calls only, under TIERTUNE_1.0 (no tt_ name leaks)" \
	"$(nm -D --defined-only "$so" | awk '$2 != "A" {print $3}' | grep -vc '^tiertune_[a-z_]*@@TIERTUNE_1\.0$')" "0"
is "every call the header declares is exported" \
	"$(grep -oE '^[a-z].* \**(tiertune_[a-z_]+)\(' "$TT_TOP/lib/tiertune.h" | grep -oE 'tiertune_[a-z_]+\($' | tr -d '(' | sort | paste -sd' ')" \
	"$(nm -D --defined-only "$so" | awk '$2 == "T" {sub(/@.*/, "", $3); print $3}' | sort | paste -sd' ')"

if ! command -v pkg-config >/dev/null || ! command -v cc >/dev/null; then
	skip "no pkg-config or cc: the example is not built"
else
	export PKG_CONFIG_PATH=$lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$inst
	# Outside the source tree: nothing but what pkg-config says finds the header.
	cp "$TT_TOP/lib/example.c" "$WORK/app.c"
	# A library built under the sanitizers (make check-asan) needs their
	# runtime first in the program that loads it: the application is built
	# with them, as one linking such a library would be.
	san=
	if nm -D --undefined-only "$so" | grep -q '__asan_init'; then
		san="-fsanitize=address,undefined"
	fi
	run sh -c "cc $san -o '$WORK/app' '$WORK/app.c' \$(pkg-config --cflags --libs tiertune)"
	is "the example builds with pkg-config --cflags --libs tiertune alone" "$rc:$(cat "$WORK/err")" "0:"
	app() { LD_LIBRARY_PATH=$lib TIERTUNE_DATADIR=$inst$prefix/share/tiertune "$WORK/app" "$@"; }

	# This machine: every memory node probed from this thread's node.
	run "$TT" topo --json
	mem=$(json '",".join(str(n["id"]) for n in j["nodes"] if n["mem_total_bytes"] > 0)' <"$WORK/out")
	run app --budget 1000
	got=$(sed -n 's/^node \([0-9]*\): .*/\1/p' "$WORK/out" | paste -sd,)
	took=$(sed -n 's/.*nodes, \([0-9]*\) ms of 1000$/\1/p' "$WORK/out")
	is "the example probes every memory node of this machine ($mem) and sets its policy" \
		"$rc:$got:$(grep -c '^policy: weighted interleave over' "$WORK/out")" "0:$mem:1"
	# The rule begins no node that the time so far says would pass the
	# budget; one slower than those before it (a loaded host descheduling
	# it) can still overrun, by up to its own length: so at most twice.
	tap "$([ -n "$took" ] && [ "$took" -le 2000 ] && echo 0 || echo 1)" \
		"the probe keeps to its budget's rule: ${took:-?} ms of 1000 (at most 2000)"
	# Every figure judged in bench's words.
	is "each node's figures are judged (bench's words)" \
		"$(grep '^node ' "$WORK/out" | grep -cvE ', (valid|((NOT VALIDATED|cache-resident|below 4x rule|too short|descheduled|unstable)(, )?)+)$')" "0"

	# The model by name and by file and tree: auto's weights at the same budget.
	for args in "--model spr-ddr5-2cxl --trials 60|--model spr-ddr5-2cxl --budget 60" \
		"--model spr-ddr5-2cxl --budget 300|--model spr-ddr5-2cxl --budget 0.3s" \
		"--model $TT_TOP/model/machines/spr-ddr5-4cxl.json --sysfs-root $FIX/spr-ddr5-4cxl --trials 80|--model $TT_TOP/model/machines/spr-ddr5-4cxl.json --budget 80"; do
		mine=${args%|*} theirs=${args#*|}
		root=$(sed -n 's/.*--sysfs-root \([^ ]*\).*/\1/p' <<<"$mine")
		# shellcheck disable=SC2086 # one word per option
		run app $mine
		w=$(sed -n 's/^weights: //p' "$WORK/out")
		# shellcheck disable=SC2086
		run "$TT" ${root:+--sysfs-root "$root"} auto --source-node 0 $theirs --no-record --json
		a=$(json '",".join(k + ":" + str(v) for k, v in sorted(j["best"]["weights"].items(), key=lambda kv: int(kv[0])))' <"$WORK/out")
		is "the library's weights on ${mine#--model } are auto's at ${theirs##*--budget }" "$w" "$a"
	done

	# tiertune probe is the same calls.
	run app --model spr-ddr5-2cxl --trials 10
	lib_rows=$(sed -n 's/^node \([0-9]*\): \([0-9.]*\) GB\/s, \([0-9]*\) ns idle, \(.*\)/\1 \2 \3 \4/p' "$WORK/out")
	run "$TT" probe --model "$TT_TOP/model/machines/spr-ddr5-2cxl.json" --json
	is "tiertune probe --model gives the library's figures" \
		"$(json '"\n".join("%d %.2f %.0f %s" % (n["node"], n["bw_bytes_s"] / 1e9, n["idle_lat_ns"], n["judged"]) for n in j["nodes"])' <"$WORK/out")" \
		"$lib_rows"
fi

# tiertune probe on this machine: every memory node, in its JSON.
run "$TT" probe --budget 200 --json
is "tiertune probe: exit 0, every memory node of this machine" \
	"$rc:$(json '",".join(str(n["node"]) for n in j["nodes"])' <"$WORK/out")" "0:${mem:-0}"
is "its JSON fits docs/json.md's probe document" \
	"$(python3 "$TT_TOP/tests/cli/json-vocabulary.py" "$TT_TOP/docs/json.md" probe <"$WORK/out" 2>&1 | head -3)" ""
run "$TT" probe --model spr-ddr5-2cxl --json
is "on a model too" "$rc:$(python3 "$TT_TOP/tests/cli/json-vocabulary.py" "$TT_TOP/docs/json.md" probe <"$WORK/out" 2>&1 | head -3)" "0:"
fx=$(copy_fixture spr-ddr5-2cxl)
expect_bad_input 2 "node 9" "$fx" "$TT" --sysfs-root "$fx" probe --model spr-ddr5-2cxl --nodes 0,9
expect_bad_input 2 "'0'" "$fx" "$TT" --sysfs-root "$fx" probe --model spr-ddr5-2cxl --budget 0
expect_bad_input 2 "source node 1" "$fx" "$TT" --sysfs-root "$fx" probe --model spr-ddr5-2cxl --source-node 1
expect_bad_input 2 "$fx" "$fx" "$TT" --sysfs-root "$fx" probe

# The ABI: the library against its description, and a planted change found.
if ! command -v abidiff >/dev/null; then
	skip "no abidiff (Debian package abigail-tools): the ABI is not checked"
else
	run abidiff --headers-dir2 "$TT_TOP/lib" "$TT_TOP/lib/tiertune.abi" "$so"
	is "abidiff: the library's ABI is lib/tiertune.abi's (else: make abi-update, and the version)" \
		"$rc:$(grep -v '^$' "$WORK/out" | grep -vc 'changes summary: 0 Removed, 0 Changed.*, 0 Added')" "0:0"
	# The planted change: the budgets of tiertune_probe_run and
	# tiertune_recommend doubles, the
	# library linked again from its other objects.
	mkdir -p "$WORK/src"
	for d in core bench measure model tuner writer db collectors view; do ln -s "$TT_TOP/$d" "$WORK/src/$d"; done
	cp -R "$TT_TOP/lib" "$WORK/src/lib"
	sed -i 's/unsigned int budget_ms/double budget_ms/' "$WORK/src/lib/tiertune.h" "$WORK/src/lib/tiertune.c"
	others=
	for o in "$TT_BUILD"/pic/*/*.o; do [[ $o == */pic/lib/* ]] || others="$others $o"; done
	# shellcheck disable=SC2086 # one word per object
	run sh -c "cc -std=gnu11 -g -O2 -fPIC -fvisibility=hidden -c '$WORK/src/lib/tiertune.c' -o '$WORK/t.o' &&
		cc -shared -Wl,-soname,libtiertune.so.1 -Wl,--version-script='$TT_TOP/lib/tiertune.map' \
		-o '$WORK/libtiertune.so.1' '$WORK/t.o' $others \$(sed -n 's/^PKG_LIBS *:*= *//p' '$TT_BUILD/config.mk') -lpthread -lm"
	is "the planted change builds" "$rc:$(head -3 "$WORK/err")" "0:"
	run abidiff --headers-dir2 "$WORK/src/lib" "$TT_TOP/lib/tiertune.abi" "$WORK/libtiertune.so.1"
	is "abidiff fails on it, naming the calls" \
		"$([ "$rc" -ne 0 ] && echo failed):$(grep -c "^  \[C\] 'function int tiertune_\(probe_run\|recommend\)(" "$WORK/out")" "failed:2"
fi

done_testing
