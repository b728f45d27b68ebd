#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Does collecting disturb the measurement? tiertune bench with and without
# --collect (every collector that works here), alternating which runs first,
# over PAIRS pairs; prints each pair and the median ratio (with / without;
# the issue's target is within noise, <= 1%).
#
#	bench/scripts/collect-overhead.sh [PAIRS] [KERNEL] [SIZE]
set -euo pipefail
pairs=${1:-5}
kernel=${2:-triad}
size=${3:-512M}
tt=${TT:-$(dirname "$0")/../../build/tiertune}
[ -x "$tt" ] || { echo "build tiertune first (make)" >&2; exit 3; }
list=$("$tt" collectors --json | python3 -c 'import json,sys; print(",".join(c["name"] for c in json.load(sys.stdin) if c["available"]))')
bw() { "$tt" bench --kernel "$kernel" --size "$size" --repeat 20 "$@" --json |
	python3 -c 'import json,sys; print("%.0f" % (json.load(sys.stdin)["bw_median_bytes_s"] / 1e6))'; }
printf 'collectors: %s\n%4s %14s %14s %7s\n' "$list" pair "without MB/s" "with MB/s" ratio
ratios=()
for i in $(seq 1 "$pairs"); do
	if ((i % 2)); then a=$(bw); b=$(bw --collect "$list"); else b=$(bw --collect "$list"); a=$(bw); fi
	r=$(python3 -c "print('%.4f' % ($b / $a))")
	ratios+=("$r")
	printf '%4d %14d %14d %7s\n' "$i" "$a" "$b" "$r"
done
printf 'median ratio (with / without, median bandwidth of 20 passes each): %s over %d pairs\n' \
	"$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}')" "$pairs"
