#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# How far the performance model (tuner/model.h, the shipped models) is from
# published measurements: each point a ratio of two placements (a gain over
# DRAM alone or over 1:1 interleave) as published and as the model gives it,
# and the residual in points. tests/perf/model-calibration.c names each
# source and how its mix is modelled. Simulated figures beside published ones.
#
#	bench/scripts/model-calibration.sh
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-build}
make -C "$top" --no-print-directory -s BUILD="$build" "$build/tests/perf-model-calibration" >&2
exec "$top/$build/tests/perf-model-calibration" -m "$top/tuner/models"
