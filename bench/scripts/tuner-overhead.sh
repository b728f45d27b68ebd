#!/usr/bin/env bash
# What does a real trial of the tuner cost beyond the kernel passes it
# measures? Runs TRIALS of auto's measurement (the mix kernel through the
# trial layer, exact placement, as cli/cmd-auto.c's real trials) on this
# machine, every page on the source's own node (a one-node machine has no
# other placement, and auto refuses it), and prints each trial's wall time
# beside its timed passes, its placement and the rest, and the overhead
# (1 - passes / trial). The target (issue 14): under 2%.
#
#	bench/scripts/tuner-overhead.sh [TRIALS [KERNEL [BYTES [REPEAT]]]]
#
# Defaults: 5 trials of triad, STREAM's size rule, 5 passes (auto's). Run
# it on an otherwise quiet machine.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-build}
make -C "$top" --no-print-directory -s BUILD="$build" "$build/tests/perf-tuner-overhead" >&2
"$top/$build/tests/perf-tuner-overhead" "$@"
