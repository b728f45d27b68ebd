#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# How far the performance model (model/model.h) is from published
# measurements: every calibration case of tests/unit/calibration-cases.h
# (each a ratio of two placements, a gain over DRAM alone or over 1:1
# interleave) as published, on the models before calibration (the shipped
# spr-ddr5-2cxl of f039f4f, taken from git) and after (the case models named
# in the table), the residuals and their root mean square. docs/models.md
# says why each case, model figure and tolerance is what it is. Simulated
# figures beside published ones.
#
#	bench/scripts/model-calibration.sh [BEFORE-COMMIT]
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-build}
before=${1:-f039f4f}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$top" show "$before:model/machines/spr-ddr5-2cxl.json" >"$tmp/spr-ddr5-2cxl.json"
make -C "$top" --no-print-directory -s BUILD="$build" "$build/tests/perf-model-calibration" >&2
"$top/$build/tests/perf-model-calibration" -t "$top" -b "$tmp"
