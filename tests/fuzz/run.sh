#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# make fuzz: runs each libFuzzer target on its corpus (build-fuzz/corpus-NAME,
# kept between runs) and the shared seeds for SECONDS, then checks that it
# left nothing behind in its own temporary folder. Fails on a crash, a leak
# or a leftover; prints the executions per target.
#
#	tests/fuzz/run.sh SECONDS TARGET...
set -u
secs=$1
shift
rc=0
for f in "$@"; do
	name=${f##*/}
	corpus=build-fuzz/corpus-$name
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/tiertune-fuzz.XXXXXX")
	mkdir -p "$corpus"
	# A crashing input is kept in build-fuzz/ (crash-NAME-HASH), not in the
	# current folder, and its assertion is printed with the error.
	TMPDIR=$tmp "$f" -max_total_time="$secs" -print_final_stats=1 \
		-artifact_prefix="build-fuzz/crash-$name-" "$corpus" tests/fuzz/seeds \
		>"$tmp.log" 2>&1
	frc=$?
	execs=$(awk '/stat::number_of_executed_units/ {print $2}' "$tmp.log")
	left=$(ls -A "$tmp")
	if [ $frc -ne 0 ]; then
		echo "fuzz: $name FAILED (exit $frc):"
		grep -E 'ERROR|SUMMARY|Assertion|runtime error|crash|leak' "$tmp.log" | head -20 | sed 's/^/    /'
		rc=1
	elif [ -n "$left" ]; then
		echo "fuzz: $name left files behind in its TMPDIR: $left"
		rc=1
	else
		echo "fuzz: $name ${secs}s, ${execs:-?} executions, ok"
	fi
	rm -rf "$tmp" "$tmp.log"
done
exit $rc
