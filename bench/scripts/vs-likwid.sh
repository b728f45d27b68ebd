#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tiertune bench against likwid-bench, each kernel against its like-for-like
# peer, at each thread count, in alternating runs; prints every pair, the
# median ratio of pairs, and the CPU model beside each ratio, so that a loop
# that falls behind on one CPU family is seen.
#
#	bench/scripts/vs-likwid.sh [-p PAIRS] [-t 'THREADS ...'] [-k 'KERNEL ...']
#	                           [-s ARRAY_MIB] [-n PASSES]
#
# defaults: 5 pairs, threads '1 N' (N: the CPUs), every kernel below,
# 512 MiB an array, 20 timed passes.
#
# Like for like:
# - Sizes: every array (stream) ARRAY_MIB MiB in both: tiertune --size is
#   per array; likwid-bench's -w size is the total over its streams, given
#   in bytes (its "MB" is 10^6 bytes; from 2 GiB on, in its kB).
# - Pages: 4 KiB in both (tiertune's default for bandwidth kernels;
#   likwid-bench's posix_memalign buffers are not madvised for THP).
# - The statistic: likwid-bench's MByte/s is its data volume over all its
#   -i iterations divided by the time of all of them, timed as one span by
#   the slowest thread (bench/likwid-bench.c, bench/src/bench.c): a mean
#   rate over the passes, no warm-up excluded (its buffers were written
#   once when allocated). tiertune's like figure is bw_mean_bytes_s, the
#   bytes of its PASSES timed passes over their total time (its warm-up pass
#   excluded); that is the ratio judged. tiertune's median pass, what its
#   text headlines, is printed beside it as a second ratio.
# - Bytes: both count the loads and stores in the code, except where the
#   pair says otherwise (tiertune's 1r1w counts MLC's RFO read; likwid's
#   store_avx does not): a ratio is of elements per second.
# - Peers: the same arithmetic and stream count. likwid's stream_* is
#   a = b*s + c, our triad (3 streams); its triad_* is a = b*c + d, 4 streams,
#   the peer of 3r1w-nt (d = a + b + c), not of triad.
# - Order: the two alternate which runs first, pair by pair, so a host
#   whose speed drifts weighs on both alike; the load average is printed
#   with each pair.
set -euo pipefail

pairs=5 threads_list="1 $(nproc)" array_mib=512 passes=20 only=""
while getopts "p:t:k:s:n:h" opt; do
	case $opt in
	p) pairs=$OPTARG ;;
	t) threads_list=$OPTARG ;;
	k) only=$OPTARG ;;
	s) array_mib=$OPTARG ;;
	n) passes=$OPTARG ;;
	*) sed -n '/^#\tbench/,/^# 512/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
	esac
done
tt=${TT:-$(dirname "$0")/../../build/tiertune}
command -v likwid-bench >/dev/null || { echo "likwid-bench not installed (apt-get install likwid)" >&2; exit 3; }
[ -x "$tt" ] || { echo "build tiertune first (make)" >&2; exit 3; }

# tiertune kernel, streams, likwid-bench test, bytes an element each counts
peers=(
	"triad 3 stream_avx 24 24"
	"triad-nt 3 stream_mem_avx 24 24"
	"copy 2 copy_avx 16 16"
	"copy-nt 2 copy_mem_avx 16 16"
	"reads 1 sum_avx 8 8"
	"nt-writes 1 store_mem_avx 8 8"
	"1r1w 1 store_avx 16 8"
	"3r1w-nt 4 triad_mem_avx 32 32"
)

cpu=$(awk -F': ' '/^model name/ {m=$2} /^cpu family/ {f=$2} /^model\t/ {n=$2}
	END {printf "%s (family %s, model %s)", m, f, n}' /proc/cpuinfo)
load() { cut -d' ' -f1-3 /proc/loadavg; }
median() { sort -n | awk '{v[NR]=$1} END {printf "%.3f", (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

ours() { # kernel threads -> "mean median" MB/s, or fails unless validated
	"$tt" bench --kernel "$1" --threads "$2" --size "${array_mib}M" --repeat "$passes" \
		--verify-max 4096 --json | python3 -c '
import json, sys
j = json.load(sys.stdin)
if not j["validated"]:
    sys.exit("tiertune: %s output not validated" % j["kernel"])
print("%.0f %.0f %s" % (j["bw_mean_bytes_s"] / 1e6, j["bw_median_bytes_s"] / 1e6, j["isa"]))'
}
theirs() { # test streams threads -> MB/s over the run
	local total=$(($2 * array_mib * 1048576)) size
	# likwid-bench reads the number as an int: from 2 GiB on, in its kB
	# (10^3 bytes), under a millionth short of the bytes.
	if ((total < 2147483648)); then size=${total}B; else size=$((total / 1000))kB; fi
	likwid-bench -t "$1" -w "S0:$size:$3" -i "$passes" 2>/dev/null | awk '/^MByte\/s:/ {print int($2)}'
}

printf 'cpu: %s\ndate: %s\nload at start: %s\nlikwid-bench: %s\n' "$cpu" "$(date -u '+%F %H:%M UTC')" \
	"$(load)" "$(likwid-bench -h 2>&1 | sed -n 's/.*Version *//p' | head -1)"
printf 'arrays: %d MiB each, %d timed passes, %d alternating pairs\n\n' "$array_mib" "$passes" "$pairs"
summary=()
for peer in "${peers[@]}"; do
	read -r k streams test tb lb <<<"$peer"
	[ -z "$only" ] || [[ " $only " == *" $k "* ]] || continue
	for th in $threads_list; do
		means=() meds=()
		printf '%s vs %s, %d thread(s)\n%4s %10s %10s %10s %7s %7s  %s\n' "$k" "$test" "$th" pair \
			"tt mean" "tt median" likwid mean/lk med/lk load
		for i in $(seq 1 "$pairs"); do
			a='' b=''
			if ((i % 2)); then
				read -r a m isa < <(ours "$k" "$th") || true; b=$(theirs "$test" "$streams" "$th")
			else
				b=$(theirs "$test" "$streams" "$th"); read -r a m isa < <(ours "$k" "$th") || true
			fi
			if [ -z "$a" ] || [ -z "$b" ]; then
				echo "pair $i of $k vs $test: a run failed (tiertune '$a', likwid-bench '$b')" >&2
				exit 1
			fi
			r=$(python3 -c "print('%.3f' % (($a / $tb) / ($b / $lb)))")
			q=$(python3 -c "print('%.3f' % (($m / $tb) / ($b / $lb)))")
			means+=("$r") meds+=("$q")
			printf '%4d %10d %10d %10d %7s %7s  %s\n' "$i" "$a" "$m" "$b" "$r" "$q" "$(load)"
		done
		rm=$(printf '%s\n' "${means[@]}" | median) qm=$(printf '%s\n' "${meds[@]}" | median)
		printf '%s / %s, %d thread(s), %s loops: median ratio %s (mean to mean), %s (median pass to mean)\n\n' \
			"$k" "$test" "$th" "$isa" "$rm" "$qm"
		summary+=("| $cpu | $k vs $test | $th | ${means[*]} | $rm | $qm |")
	done
done
printf 'load at end: %s\n\n' "$(load)"
printf '| CPU | tiertune vs likwid-bench | threads | mean/likwid, each pair | median | median pass/likwid |\n'
printf '| --- | --- | --- | --- | --- | --- |\n'
printf '%s\n' "${summary[@]}"
