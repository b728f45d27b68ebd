#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# What does a real measurement of the tuner cost beyond the kernel passes it
# times? Runs auto's sequence of measurements (the mix kernel through the
# trial layer, exact placement, as tuner/auto.c's real_measure): VECTORS
# distinct weight vectors over this machine's memory nodes, each measured
# twice in a row, then once more each in turn (a confirmation round). Twice
# in one go: before, a fresh trial per measurement (map, place, first
# touch, verify, unmap); after, one bench context reused by all of them
# (bench/run.h: only the pages whose node changes move). Prints each
# measurement's wall time beside its timed passes and the overhead
# (1 - passes / measurement); target (issue 14) under 2%. On one memory
# node no page can move: it says so, and estimates what moves would cost on
# two nodes from the move_pages call and copy costs measured here.
#
#	bench/scripts/tuner-overhead.sh [VECTORS [KERNEL [BYTES [REPEAT]]]]
#
# Defaults: 4 vectors (12 measurements) of triad, STREAM's size rule, 5
# passes (auto's). Run it on an otherwise quiet machine.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-build}
make -C "$top" --no-print-directory -s BUILD="$build" "$build/tests/perf-tuner-overhead" >&2
"$top/$build/tests/perf-tuner-overhead" "$@"
