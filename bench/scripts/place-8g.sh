#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Placement + first touch + verification of one 8 GiB buffer in exact mode
# (the reads kernel has one array), RUNS times: every page checked, then a
# 100,000-page sample. Placement (mmap + mbind) and verification (move_pages)
# are the "under 1 s"; first touch, which the kernel's page faults
# dominate (and on a VM whose host backs memory lazily, the host's too), is
# printed beside them.
#
#	bench/scripts/place-8g.sh [RUNS] [SIZE]
set -euo pipefail
runs=${1:-3}
size=${2:-8G}
tt=${TT:-$(dirname "$0")/../../build/tiertune}
[ -x "$tt" ] || { echo "build tiertune first (make)" >&2; exit 3; }
printf '%4s %-12s %9s %9s %9s %9s %9s %14s\n' run verification checked pages policy_s touch_s verify_s "policy+verify s"
for i in $(seq 1 "$runs"); do
	for v in 0 100000; do
		"$tt" bench --kernel reads --size "$size" --repeat 1 --verify-max "$v" --json |
			python3 -c 'import json,sys; j=json.load(sys.stdin); v=j["verification"]; print("%4d %-12s %9d %9d %9.3f %9.3f %9.3f %14.3f" % ('"$i"', "all" if '"$v"' == 0 else "sampled", v["checked"], v["pages"], v["policy_s"], v["touch_s"], v["verify_s"], v["policy_s"] + v["verify_s"]))'
	done
done
