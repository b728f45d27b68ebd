#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Odd input an adversarial tester found, each refused (exit 2, the input
# named, nothing written) or handled as documented.
. "$(dirname "$0")/lib.sh"

export TIERTUNE_DB="$WORK/adv.db"
M="$TT_TOP/tuner/models"

# --max-latency below 1 ns: no memory's loaded latency is under a
# nanosecond, and the bound was shown rounded ('within 0 ns') while a search
# ran to fail. Refused before anything runs.
fx=$(copy_fixture spr-ddr5-4cxl)
B=("$TT" --sysfs-root "$fx" auto --source-node 0 --model "$M/spr-ddr5-4cxl.json" --budget 20)
expect_bad_input 2 "option '--max-latency' value '1e-300' out of range (1-1000000)" "$fx" \
	"${B[@]}" --max-latency 1e-300
expect_bad_input 2 "option '--max-latency' value '0.4' out of range (1-1000000)" "$fx" \
	"${B[@]}" --max-latency 0.4
run "${B[@]}" --max-latency 1 --no-record
is "--max-latency 1: accepted, nothing within it (exit 1), the bound shown as given" \
	"$rc:$(grep -c 'latency bound of 1 ns' "$WORK/err")" "1:1"
done_testing
