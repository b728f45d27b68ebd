#!/usr/bin/env bash
# Placement + first touch + verification of one 8 GiB buffer in exact mode
# (the reads kernel has one array), RUNS times: every page checked, then a
# 100,000-page sample. The target is under 1 s; first touch alone
# is part of the figure, and on a VM whose host backs memory lazily the
# first run also pays for that.
#
#	bench/scripts/place-8g.sh [RUNS] [SIZE]
set -euo pipefail
runs=${1:-3}
size=${2:-8G}
tt=${TT:-$(dirname "$0")/../../build/tiertune}
[ -x "$tt" ] || { echo "build tiertune first (make)" >&2; exit 3; }
printf '%4s %-14s %10s %12s %10s\n' run verification checked pages seconds
for i in $(seq 1 "$runs"); do
	for v in 0 100000; do
		"$tt" bench --kernel reads --size "$size" --repeat 1 --verify-max "$v" --json |
			python3 -c 'import json,sys; j=json.load(sys.stdin); v=j["verification"]; print("%4d %-14s %10d %12d %10.3f" % ('"$i"', "all" if '"$v"' == 0 else "sampled", v["checked"], v["pages"], v["place_s"]))'
	done
done
