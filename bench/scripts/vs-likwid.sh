#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# STREAM triad and copy: tiertune bench against likwid-bench, like for like:
# the same total working set, thread count and number of timed passes
# (likwid-bench -i N, tiertune --repeat N), and the same statistic.
# likwid-bench reports one rate per run, its data volume over the run's whole
# time: a mean over its iterations. tiertune's like figure is
# bw_mean_bytes_s, the bytes of all timed passes over their total time (its
# untimed warm-up pass excluded); its best pass, which STREAM reports, is
# printed beside it for reference and is not compared. Runs alternate which
# goes first, over PAIRS pairs; printed: every pair and the median ratio
# (tiertune mean / likwid-bench mean; >= 1.0 means tiertune is at least as
# fast).
#
#	bench/scripts/vs-likwid.sh [PAIRS] [TOTAL_MIB] [THREADS] [PASSES]
#
# Byte counting: both count the loads and stores in the code (no RFO).
# triad_avx is a = b + c*d: 4 streams against our 3, and an RFO on 1 of 4
# streams rather than 1 of 3, so at the same DRAM traffic it reports
# 1.33/1.25 = 6.7% more. Its like-for-like peer is stream_avx (a = b*s + c);
# the non-temporal variants are compared with likwid's _mem_ kernels. The
# total working set is the same in every pair, split over the streams each
# kernel has.
set -euo pipefail
pairs=${1:-5}
total_mib=${2:-1536}
threads=${3:-$(nproc)}
passes=${4:-10}
tt=${TT:-$(dirname "$0")/../../build/tiertune}
command -v likwid-bench >/dev/null || { echo "likwid-bench not installed (apt-get install likwid)" >&2; exit 3; }
[ -x "$tt" ] || { echo "build tiertune first (make)" >&2; exit 3; }

ours() { # kernel arrays -> "mean best" in MB/s over $passes timed passes
	"$tt" bench --kernel "$1" --threads "$threads" --size $((total_mib / $2))M --repeat "$passes" \
		--json | python3 -c 'import json,sys; j=json.load(sys.stdin); print("%.0f %.0f" % (j["bw_mean_bytes_s"] / 1e6, j["bw_best_bytes_s"] / 1e6))'
}
theirs() { # likwid test -> MB/s: the run's data volume over its time, a mean
	likwid-bench -t "$1" -w "S0:${total_mib}MB:$threads" -i "$passes" 2>/dev/null |
		awk '/^MByte\/s:/ {print int($2)}'
}

for pair in "triad 3 triad_avx" "triad-nt 3 triad_avx" "triad 3 stream_avx" "triad-nt 3 stream_mem_avx" \
	"copy 2 copy_avx" "copy-nt 2 copy_mem_avx"; do
	set -- $pair
	ratios=()
	printf '%s against %s (means over %d passes)\n%6s %15s %15s %15s %7s\n' "$1" "$3" "$passes" pair \
		"tiertune mean" "likwid mean" "(tiertune best)" ratio
	for i in $(seq 1 "$pairs"); do
		if ((i % 2)); then read -r a best < <(ours "$1" "$2"); b=$(theirs "$3"); else
			b=$(theirs "$3"); read -r a best < <(ours "$1" "$2"); fi
		r=$(python3 -c "print('%.3f' % ($a / $b))")
		ratios+=("$r")
		printf '%6d %15d %15d %15s %7s\n' "$i" "$a" "$b" "($best)" "$r"
	done
	printf '%s / %s: median ratio of means %s over %d pairs (%d MiB total, %d threads, %d passes)\n\n' \
		"$1" "$3" \
		"$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}')" \
		"$pairs" "$total_mib" "$threads" "$passes"
done
