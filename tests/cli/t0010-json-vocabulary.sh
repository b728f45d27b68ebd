#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Every command's JSON against docs/json.md: each field documented, of its
# documented type, schema_version at the top; and the vocabulary itself
# consistent (one type and unit per name, the unit in the name). topo and
# simulate read fixtures; bench runs for real with small sizes.
. "$(dirname "$0")/lib.sh"

DOC="$TT_TOP/docs/json.md"
vocab() { python3 "$TT_TOP/tests/cli/json-vocabulary.py" "$DOC" "$@"; }
# fits DOC DESCRIPTION cmd...: the command exits 0 and its JSON fits DOC.
fits() {
	local doc=$1 desc=$2
	shift 2
	run "$@"
	is "$desc: exit 0, fits '$doc'" "$rc:$(vocab "$doc" <"$WORK/out" 2>&1 | head -5)" "0:"
}

is "docs/json.md: one type and unit per name, units in the names" "$(vocab --doc 2>&1 | head -5)" ""
is "the checker refuses an undocumented field" \
	"$(echo '{"schema_version": 1, "bogus": 1}' | vocab topo)" "bogus: not in the vocabulary"
is "the checker refuses a flag written as 0/1" \
	"$(echo '{"schema_version": 1, "validated": 1}' | vocab bench)" "validated: is integer, documented boolean"
printf '## doc: a\n\n| `n.weights` | object | | |\n\n## doc: b\n\n| `weights` | string | | |\n' >"$WORK/two.md"
is "the checker refuses a name with two types (no exceptions)" \
	"$(python3 "$TT_TOP/tests/cli/json-vocabulary.py" "$WORK/two.md" --doc)" \
	"b: weights is string - here but object - in a"
is "the checker refuses a document without schema_version" \
	"$(echo '{"kernels": []}' | vocab bench-list)" "no integer schema_version at the top"

for fx in "$FIX"/*/; do
	fx=${fx%/}
	fits topo "topo on fixture ${fx##*/}" "$TT" --sysfs-root "$fx" topo --json
done
fits topo "topo on this machine" "$TT" topo --json
fits simulate "simulate (upstream)" "$TT" --sysfs-root "$FIX/qemu-3node-hmat" simulate --nodes 0-2 \
	--weights 0:3,1:2,2:1 --pages 12 --json
fits simulate "simulate (rfc)" "$TT" --sysfs-root "$FIX/rfc-4node" simulate --interface rfc \
	--source-node 0 --nodes 0,2 --pages 8 --json
fits collectors "collectors" "$TT" collectors --json

# apply and restore: run, dry run, nothing to write; a journal put back;
# the exported profile.
ax=$(copy_fixture spr-ddr5-2cxl)
fits apply "apply --dry-run" "$TT" --sysfs-root "$ax" apply --weights 0:5,1:2,2:2 --dry-run --json
fits apply "apply" "$TT" --sysfs-root "$ax" apply --weights 0:5,1:2,2:2 --json
fits apply "apply with nothing to write" "$TT" --sysfs-root "$ax" apply --weights 0:5 --json
fits apply "restore --last" "$TT" --sysfs-root "$ax" restore --last --json
TIERTUNE_TEST_FIXTURE_FAULT=kill:2 run "$TT_BUILD/tests/tiertune-test" --sysfs-root "$ax" apply --weights 0:7,1:2,2:2
fits restore-journal "restore --journal" "$TT" --sysfs-root "$ax" restore --journal \
	"$TIERTUNE_STATE_DIR/apply.journal" --json
fits apply "restore --defaults" "$TT" --sysfs-root "$ax" restore --defaults --json
fits export "export --format json" "$TT" --sysfs-root "$ax" export --weights 0:5,1:2 --format json
is "export: no source node is null, not -1" \
	"$(json "[r['source_node'] for r in j['recommendations']]" <"$WORK/out")" "[None]"

# tiertop's frames: every fixture, and this machine with its live collectors
# and process scan (a second frame, so rates are figures, not initializing).
if [ -x "$TT_BUILD/tiertop" ]; then
	for fx in "$FIX"/*/; do
		fx=${fx%/}
		fits tiertop "tiertop on fixture ${fx##*/}" "$TT_BUILD/tiertop" --sysfs-root "$fx" \
			--once --json
	done
	run "$TT_BUILD/tiertop" --batch -n 2 -d 0.2 --json
	tail -n 1 "$WORK/out" >"$WORK/frame2"
	is "tiertop on this machine, second frame: fits 'tiertop'" \
		"$rc:$(vocab tiertop <"$WORK/frame2" 2>&1 | head -5)" "0:"
else
	skip "tiertop is not built (no ncursesw: Debian package libncurses-dev)"
fi

export TIERTUNE_DB="$WORK/v.db"
B=("$TT" bench --size 4M --repeat 2 --json)
fits bench-list "bench --list" "$TT" bench --list --json
fits bench "bench triad, recorded, with numastat" "${B[@]}" --kernel triad --record --collect numastat
fits bench "bench latency, recorded" "${B[@]}" --kernel latency --record
bench_best=$(json 'j["lat_best_ns"]' <"$WORK/out")
latency_run=$(json 'j["run"]' <"$WORK/out")
fits bench "bench loaded-latency" "${B[@]}" --kernel loaded-latency --delays 0,200 --point-ms 30
fits bench "bench modelled on a fixture" "${B[@]}" --sysfs-root "$FIX/qemu-3node-hmat" \
	--kernel copy --nodes 0 --weights 0:1 --collect model
# A measured phase of over two sampling intervals (loaded latency runs for
# its --point-ms, however fast the machine) gives the model collector
# figures: collect.note and collect.bw_unavailable are then absent, not null.
fits bench "bench with a collector's bandwidth (a 400 ms phase)" "${B[@]}" \
	--sysfs-root "$FIX/qemu-3node-hmat" --kernel loaded-latency --delays 0 --point-ms 400 \
	--nodes 0 --weights 0:1 --collect model
is "bench: the model's bandwidth, no note, no bw_unavailable" \
	"$(json '(j["collect"]["bw_source"], "note" in j["collect"], "bw_unavailable" in j["collect"])' <"$WORK/out")" \
	"('model', False, False)"
fits bench-matrix "bench --matrix" "${B[@]}" --matrix
fits runs "runs" "$TT" runs --json
# "Best" is one thing: the best pass bench reported is the run's best.
is "runs: a latency run's best is bench's best pass" \
	"$(json "[r['lat_best_ns'] for r in j['runs'] if r['id'] == $latency_run]" <"$WORK/out")" "[$bench_best]"
fits show "show of a bandwidth run with samples" "$TT" show 1 --json
fits show "show of a latency run" "$TT" show "$latency_run" --json
fits db-check "db check" "$TT" db check --json
fits db-migrate "db migrate" "$TT" db migrate --json
other="$WORK/other.db"
run "${B[@]}" --kernel copy --record --db "$other"
fits db-merge "db merge" "$TT" db merge "$other" --json
done_testing
