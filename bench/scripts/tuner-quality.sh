#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# How close does the tuner's search get to the best weights at the budgets
# users run it with? On every shipped model (model/machines/) and the models of
# issue 22's harder machines (5 and 8 nodes with CXL devices of unequal
# speed, a second socket tuned for CXL behind the first, few threads, a
# write-asymmetric tier, HBM with DDR and CXL), at auto's default budgets
# (60 measurements for a real run, its profile included; 200 on a model) and
# at 10% of the weight grid, at 1%, 3%, 5% and 10% noise: the median and
# worst gap of the run's final weights to the grid's noise-free optimum and
# the runs over 1%, beside the Caption-style hill climb on the same budget
# and the kernel's auto-mode formula (runs more than 1% below it, runs below
# the interval of their gain over it); and how often the final comparison's
# verdicts (better / within noise) agree with the noise-free truth, in all
# and by baseline. Every shipped model is run from every CPU node of its
# machine too (every node, triad). Each run goes through the session
# `tiertune auto --model` runs (tt_auto_init .. tt_auto_search, on the
# fixture the model describes), so the figures are of what auto does;
# tests/perf/tuner-quality.c says more. Everything here
# is simulated: models, not machines. Seeds per row default to 20 so that
# the whole table runs in a few minutes on 2 shared cores; more seeds narrow
# each row's figures (SEEDS=60 takes three times as long).
#
#	bench/scripts/tuner-quality.sh [SEEDS [NOISES [BUDGETS]]] [-- OPTIONS]
#
# NOISES: relative sigmas, comma-separated (default 0.01,0.03,0.05,0.10);
# BUDGETS: 60, 200, any count, "grid" (default 60,200,grid). OPTIONS go to
# build/tests/perf-tuner-quality: -S STRATEGY (the search to measure; default
# auto's), -c CASE (cases whose name holds CASE), -f SEED (the first seed, 1000
# by default: another is a second sample), -v (list every run over
# 1%), -g (check the descent's grid optimum against the enumeration).
set -euo pipefail
seeds=${1:-20}
noises=${2:-0.01,0.03,0.05,0.10}
budgets=${3:-60,200,grid}
shift $(($# < 3 ? $# : 3))
[ "${1:-}" = "--" ] && shift
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-build}
make -C "$top" --no-print-directory -s BUILD="$build" "$build/tests/perf-tuner-quality" >&2
exec "$top/$build/tests/perf-tuner-quality" -m "$top/model/machines" -F "$top/tests/fixtures/sysfs" \
	-s "$seeds" -n "$noises" \
	-b "$budgets" "$@"
