#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tiertune bench on this machine, for real: every kernel runs, validates and
# verifies placement on the first node with CPUs and memory; bad input is
# refused. Figures are checked for sense, never for speed (not a benchmark).
. "$(dirname "$0")/lib.sh"
N0=$(local_node)

# Small arrays keep the suite fast; the figures are not checked (not a benchmark).
B=("$TT" bench --size 4M --repeat 3 --json)
for k in $("$TT" bench --list --json | json '" ".join(k["name"] for k in j["kernels"] if k["kernel_kind"] != "loaded-latency")'); do
	run "${B[@]}" --kernel "$k" --nodes $N0 --weights $N0:1
	is "bench $k exits 0" "$rc" 0
	is "bench $k validates, 100% on node $N0, nothing misplaced" \
		"$(json '(j["validated"], j["verification"]["misplaced"], j["verification"]["unknown"], [(p["node"], p["achieved_share"]) for p in j["verification"]["per_node"]], j["verification"]["checked"] == j["verification"]["pages"])' <"$WORK/out")" \
		"(True, 0, 0, [($N0, 1.0)], True)"
done
run "${B[@]}" --kernel latency --nodes $N0 --weights $N0:1
is "latency: ns per load measured, over the whole 4 MiB chain" \
	"$(json '(j["lat_best_ns"] > 0, j["lat_best_ns"] <= j["lat_median_ns"] <= j["lat_max_ns"], j["elements"] * 64 == j["array_bytes"], j["loads_per_pass"] >= j["elements"], j["threads"])' <"$WORK/out")" \
	"(True, True, True, True, 1)"
run "${B[@]}" --kernel loaded-latency --delays 0,2000 --point-ms 100 --nodes $N0 --weights $N0:1
is "loaded latency exits 0" "$rc" 0
is "loaded latency: one point per delay, each with its latency and bandwidth" \
	"$(json '([p["delay_spins"] for p in j["points"]], all(p["lat_mean_ns"] > 0 and p["bw_bytes_s"] > 0 for p in j["points"]), j["validated"], j["traffic"])' <"$WORK/out")" \
	"([0, 2000], True, True, 'reads')"
run "${B[@]}" --kernel loaded-latency --traffic 2r1w --delays 50 --point-ms 50
is "loaded latency with another traffic kernel" "$rc:$(json 'j["traffic"], len(j["points"])' <"$WORK/out")" "0:2r1w 1"
# The mean over the timed passes (what likwid-bench and STREAM's average
# report): all bytes over all the time, so between the worst and the best
# pass, and the mean pass's time gives it back.
run "$TT" bench --kernel triad --size 16M --repeat 5 --json
is "bench --json: bw_mean_bytes_s between the worst and best pass, pass_mean_s its time" \
	"$rc:$(json 'j["bw_min_bytes_s"] <= j["bw_mean_bytes_s"] <= j["bw_best_bytes_s"], abs(j["bw_mean_bytes_s"] * j["pass_mean_s"] / (3 * 8 * j["elements"]) - 1) < 1e-9, j["pass_best_s"] <= j["pass_mean_s"] <= j["pass_max_s"]' <"$WORK/out")" \
	"0:True True True"
run "$TT" bench --matrix --size 4M --repeat 2 --json
want=$(for c in $(node_list /sys/devices/system/node/has_cpu); do
	for m in $(node_list /sys/devices/system/node/has_memory); do printf '(%d, %d, True, True), ' "$c" "$m"; done
done)
is "matrix: every CPU node to every memory node, bandwidth and latency measured" \
	"$rc:$(json '[(m["cpu_node"], m["mem_node"], m["bw_best_bytes_s"] > 0, m["lat_median_ns"] > 0) for m in j["matrix"]], j["kernel"]' <"$WORK/out")" \
	"0:[${want%, }] reads"
# Kernel loops for every instruction set this CPU has validate the same.
best=$("$TT" bench --kernel triad --size 4M --repeat 2 --json | json 'j["isa"]')
for isa in sse2 avx2 avx512; do
	TIERTUNE_KERNEL_ISA=$isa run "${B[@]}" --kernel triad-nt
	if [ "$rc" = 3 ]; then
		skip "this CPU lacks $isa (best: $best)"
		continue
	fi
	is "kernel loops for $isa run and validate" "$rc:$(json '(j["isa"], j["validated"])' <"$WORK/out")" "0:('$isa', True)"
done
# Arrays the last-level cache can hold measure the cache: said in text,
# JSON and the database. The machine's cache is read first (getconf asks
# the C library, which asks CPUID; sysfs first where it has cpu*/cache).
llc=$(python3 -c 'import glob, os
best, seen, total = 0, set(), 0
for d in sorted(glob.glob("/sys/devices/system/cpu/cpu[0-9]*/cache/index*")):
    r = lambda f: open(os.path.join(d, f)).read().strip()
    try:
        lvl, typ, size, shared = int(r("level")), r("type"), r("size"), r("shared_cpu_list")
    except OSError:
        continue
    if typ == "Instruction" or lvl < best:
        continue
    if lvl > best:
        best, seen, total = lvl, set(), 0
    if shared not in seen:
        seen.add(shared)
        total += int(size.rstrip("KMG")) << {"K": 10, "M": 20, "G": 30}.get(size[-1], 0)
print(total)')
if [ "$llc" = 0 ]; then
	pkgs=$(cat /sys/devices/system/cpu/cpu[0-9]*/topology/physical_package_id 2>/dev/null | sort -u | wc -l)
	for v in LEVEL4_CACHE_SIZE LEVEL3_CACHE_SIZE LEVEL2_CACHE_SIZE; do
		c=$(getconf $v 2>/dev/null || echo 0)
		[ "${c:-0}" -gt 0 ] 2>/dev/null && { llc=$((c * (pkgs > 0 ? pkgs : 1))); break; }
	done
fi
if [ "${llc:-0}" -gt 0 ]; then
	run "$TT" bench --kernel triad --size 8M --repeat 1 --json --record --db "$WORK/cache.db"
	resident=$([ $((3 * (8 << 20))) -le "$llc" ] && echo True || echo False)
	is "8 MiB arrays against a last-level cache of $llc bytes: cache-resident said in JSON" 		"$rc:$(json '(j["llc_bytes"], j["cache_resident"])' <"$WORK/out")" "0:($llc, $resident)"
	is "... and in the database" 		"$(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT llc_bytes, cache_resident FROM trials").fetchall())' "$WORK/cache.db")" 		"[($llc, $([ "$resident" = True ] && echo 1 || echo 0))]"
	run "$TT" bench --kernel triad --size 8M --repeat 1
	is "... and in the text" "$(grep -c '^cache-resident: the 24.0 MiB a pass touches fit in the last-level' "$WORK/out")" \
		"$([ "$resident" = True ] && echo 1 || echo 0)"
else
	skip "no last-level cache in sysfs or from getconf here: nothing to hold arrays to"
	skip "no last-level cache: no database flag to check"
	skip "no last-level cache: no text to check"
fi
TIERTUNE_KERNEL_ISA=mmx run "$TT" bench --kernel triad --size 4M
is "an instruction set this build does not have is refused by name" "$rc:$(grep -c "TIERTUNE_KERNEL_ISA 'mmx'" "$WORK/err")" "2:1"
run "$TT" bench --list
is "kernel list names MLC's traffic type" "$(grep -c -- '-W2' "$WORK/out")" 1

for pl in exact interleave bind local; do
	run "${B[@]}" --kernel copy --placement "$pl" --nodes $N0
	is "placement $pl on node $N0" "$rc:$(json 'j["verification"]["misplaced"]' <"$WORK/out" 2>/dev/null)" "0:0"
done
run "${B[@]}" --kernel triad --verify-max 1000
is "sampled verification checks at most 1000 of the pages" "$(json '0 < j["verification"]["checked"] <= 1000 < j["verification"]["pages"]' <"$WORK/out")" True
is "bench output says it was not simulated" "$(json 'j["simulated"]' <"$WORK/out")" False
if [ -d /sys/kernel/mm/mempolicy/weighted_interleave ]; then
	run "${B[@]}" --kernel copy --placement kernel --nodes $N0
	is "kernel placement (MPOL_WEIGHTED_INTERLEAVE) on node $N0" "$rc:$(json 'j["verification"]["misplaced"]' <"$WORK/out" 2>/dev/null)" "0:0"
else
	skip "no weighted interleave in this kernel"
fi
run "$TT" bench --kernel triad --size 4194304 --repeat 3
grep -q '^checked: the output, every element as the kernel computes it$' "$WORK/out"
is "human output: what was checked" $? 0

# bench runs on the live machine only: its bad input must leave the
# databases (checked by expect_bad_input) as they were.
offline=$(($(node_list /sys/devices/system/node/possible | tail -1) + 1))
mem_kib=$(awk '/^MemTotal:/ {print $2}' /proc/meminfo)
expect_bad_input 2 "unknown kernel 'stream9'" - "$TT" bench --kernel stream9
expect_bad_input 2 "'--threads' value '0'" - "$TT" bench --kernel copy --threads 0
expect_bad_input 2 "'--size' value '0'" - "$TT" bench --kernel copy --size 0
expect_bad_input 2 "--nodes: node $offline is not online" - "$TT" bench --kernel copy --nodes $N0,$offline
expect_bad_input 2 "give node $offline, which is not in --nodes" - "$TT" bench --kernel copy --nodes $N0 --weights $offline:2
expect_bad_input 2 "option '--placement' value 'sideways' is not one of: exact, kernel, interleave, bind, local" - "$TT" bench --kernel copy --placement sideways
expect_bad_input 2 "'--size' value '4Q' is not a size; give a number of bytes, or one with K, M, G or T" - "$TT" bench --kernel copy --size 4Q
expect_bad_input 2 "'--size' value '64MB' is not a size" - "$TT" bench --kernel copy --size 64MB
expect_bad_input 2 "'--size' value '1.1K' is not a size in whole bytes" - "$TT" bench --kernel copy --size 1.1K
expect_bad_input 2 "--delays and --point-ms go with --kernel loaded-latency" - "$TT" bench --kernel triad --delays 0,10
expect_bad_input 2 "'--delays' value 'x'" - "$TT" bench --kernel loaded-latency --delays 0,x
expect_bad_input 2 "--traffic 'latency' is not a bandwidth kernel" - "$TT" bench --kernel loaded-latency --traffic latency
expect_bad_input 2 "needs at least 2 threads" - "$TT" bench --kernel loaded-latency --threads 1 --size 4M
expect_bad_input 2 "takes no --nodes" - "$TT" bench --matrix --nodes $N0
expect_bad_input 2 "unknown kernel 'stream9'" - "$TT" bench --kernel stream9 --record --db "$WORK/bad.db"
# Four times all of this machine's memory: more than any node has free.
expect_bad_input 3 "free and the buffers need" - "$TT" bench --kernel copy --nodes $N0 --size $((mem_kib * 4))K --record
# --- working sets from the real last-level cache (STREAM's rule: 4x it)
# The default arrays run to gigabytes where the LLC is hundreds of MB: the
# header, printed before they are placed, says the size; a signal then stops
# the run (exit 130, saying what it stopped) without waiting for it.
# header_then_stop OUT ERR ARGS...: the header, then SIGINT; sets rc.
# The signal goes only once the header is out: sent on a deadline instead,
# on a busy host it could land before the run has begun. A run that ends
# by itself first (refused: exit 3 where the host has less memory free
# than the default arrays need) is waited for and its status kept; one
# that prints no header in TT_HEADER_WAIT seconds (default 120) is
# stopped, and rc says so (124). Its command and stderr are where `is`
# prints them on a mismatch.
header_then_stop() {
	local out=$1 err=$2 pid i
	shift 2
	printf '%s\n' "$*" >"$WORK/cmd"
	"$@" >"$out" 2>"$err" &
	pid=$!
	for i in $(seq $((${TT_HEADER_WAIT:-120} * 10))); do
		grep -q '^last-level cache' "$out" && break
		kill -0 $pid 2>/dev/null || break
		sleep 0.1
	done
	if grep -q '^last-level cache' "$out"; then
		kill -INT $pid
		wait $pid
		rc=$?
	elif kill -0 $pid 2>/dev/null; then
		kill -INT $pid
		wait $pid
		rc=124
		echo "no header in ${TT_HEADER_WAIT:-120} s" >>"$err"
	else
		wait $pid
		rc=$?
	fi
	cp "$err" "$WORK/err"
}
# refused_for_memory ERR: the run was refused because this host has less
# memory free now than the default arrays need (on a loaded host), saying so.
refused_for_memory() { [ "$rc" = 3 ] && grep -q 'free and the buffers need' "$1"; }
# mib_of LINE-EREGEX FILE: the first "N MiB" on the first line it starts
mib_of() { grep -m1 -E "^$1" "$2" | grep -oE '[0-9.]+ MiB' | head -1 | cut -d' ' -f1; }
l3=$(getconf LEVEL3_CACHE_SIZE 2>/dev/null || echo 0)
[ -n "$l3" ] || l3=0
for k in triad latency; do
	header_then_stop "$WORK/hdr" "$WORK/hdr.err" "$TT" bench --kernel "$k" --nodes $N0 --weights $N0:1
	arr=$(mib_of '(arrays|buffers) of' "$WORK/hdr") llc=$(mib_of 'last-level cache:' "$WORK/hdr")
	if refused_for_memory "$WORK/hdr.err"; then
		skip "bench $k: this host has less memory free than the default arrays need now: $(head -1 "$WORK/hdr.err")"
		continue
	fi
	is "bench $k: the header before the run, a signal stops it and says what it stopped" \
		"$rc:$(grep -c '^tiertune: stopped: kernel '"$k"' stopped by signal 2' "$WORK/hdr.err")" "130:1"
	[ -n "$llc" ] || [ "$l3" -le 0 ] || llc=$(python3 -c "print($l3 / 2**20)")
	if [ -z "$llc" ]; then
		skip "this host reports no last-level cache (sysfs, sysconf, CPUID, hwloc): $(sed -n 3p "$WORK/hdr")"
		continue
	fi
	is "bench $k: default $arr MiB is at least 4x the last-level cache of $llc MiB (STREAM's rule)" \
		"$(python3 -c "print($arr >= max(4 * $llc, 8) - 0.05)")" True
	if [ ! -d /sys/devices/system/cpu/cpu0/cache ] && [ "$l3" -gt 0 ]; then
		is "bench $k: no cpu*/cache here: the LLC is sysconf's L3 ($l3 bytes), the arrays 4x it" \
			"$(grep -c "^last-level cache: .*from sysconf/CPUID" "$WORK/hdr"):$(python3 -c "print($arr * 2**20 >= 4 * $l3 - 0.05 * 2**20)")" "1:True"
	fi
done
# A root without cpu*/cache (Xeon Max, a modelled run): the same rule,
# on this machine's cache (the buffers are this machine's).
header_then_stop "$WORK/hdr" "$WORK/hdr.err" "$TT" --sysfs-root "$FIX/xeon-max-hbm-flat" bench --kernel triad --collect model --weights 0:1
arr=$(mib_of 'arrays of' "$WORK/hdr") llc=$(mib_of 'last-level cache:' "$WORK/hdr")
[ -n "$llc" ] || [ "$l3" -le 0 ] || llc=$(python3 -c "print($l3 / 2**20)")
if refused_for_memory "$WORK/hdr.err"; then
	skip "a root without cpu*/cache: this host has less memory free than the default arrays need now: $(head -1 "$WORK/hdr.err")"
elif [ -n "$llc" ]; then
	is "a root without cpu*/cache: simulated, default $arr MiB >= 4x this machine's LLC of $llc MiB, not from sysfs" \
		"$rc:$(grep -c '^simulated' "$WORK/hdr"):$(grep -c 'last-level cache: .*sysfs' "$WORK/hdr"):$(python3 -c "print($arr >= max(4 * $llc, 8) - 0.05)")" "130:1:0:True"
else
	skip "this host reports no last-level cache"
fi
# Forced under 4x the LLC, the matrix too (the same rule; bench's single
# runs are checked above).
llc_b=$("$TT" bench --kernel triad --size 4K --repeat 1 --json | json 'j.get("llc_bytes") or 0')
if [ "$llc_b" -gt $((6 << 20)) ]; then
	run "$TT" bench --matrix --size 8M --repeat 2 --json
	is "forced 8 MiB matrix: cache_resident too (the same rule)" "$rc:$(json '(j["cache_resident"], j["llc_bytes"])' <"$WORK/out")" "0:(True, $llc_b)"
else
	skip "this host's last-level cache ($llc_b bytes) is too small to make 8 MiB arrays cache-resident"
fi
done_testing
