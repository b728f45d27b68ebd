#!/usr/bin/env bash
# How close does the tuner's search get to the best weights, and on how many
# trials? On every shipped model (tuner/models/), for the mixes triad, reads
# and 1r1w (1:1), and SEEDS noise seeds (sigma SIGMA, default 3%), the search
# runs on the model with a budget of 10% of the exhaustive grid's vectors
# (weights 0..32, reduced). Printed beside each other: the grid's size, the
# search's median and worst trials used (baselines and final comparison
# included), its median and worst gap to the grid's noise-free optimum; the
# Caption-style hill climb (tuner/s-hillclimb.c) on the same budget; and the
# kernel's auto-mode formula from the model's bandwidths. Everything here is
# simulated: a model, not a machine. The target (issue 14): every gap within
# 1%, at most 10% of the grid's trials.
#
#	bench/scripts/tuner-quality.sh [SEEDS] [SIGMA]
set -euo pipefail
seeds=${1:-20}
sigma=${2:-0.03}
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-build}
make -C "$top" --no-print-directory -s BUILD="$build" "$build/tests/perf-tuner-quality" >&2
"$top/$build/tests/perf-tuner-quality" "$top/tuner/models" "$seeds" "$sigma"
