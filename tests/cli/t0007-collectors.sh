#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tiertune collectors and bench --collect: on this machine numastat and pfm
# (software events) measure for real and the rest say why they cannot; on
# fixtures the PMUs are found and encoded; garbled PMU files are named.
. "$(dirname "$0")/lib.sh"

# What this machine offers, read first; each collector must say what holds here.
ES=/sys/bus/event_source/devices
has_dev() { compgen -G "$ES/$1" >/dev/null; }
core_pmu=no uncore=no
has_dev cpu || has_dev cpu_core || has_dev cpu_atom || has_dev 'armv8*' && core_pmu=yes
has_dev 'uncore_imc*' || has_dev 'amd_umc*' || has_dev 'cxl_pmu*' && uncore=yes
resctrl=no
grep -q ' /sys/fs/resctrl resctrl ' /proc/mounts && resctrl=yes
N0=$(local_node)

run "$TT" collectors --json
is "collectors --json exits 0" "$rc" 0
avail() { json "{c['name']: c['available'] for c in j['collectors']}['$1']" <"$WORK/out"; }
reason() { json "{c['name']: c.get('reason') or c.get('note') or '' for c in j['collectors']}['$1']" <"$WORK/out"; }
is "numastat works where nodes have a numastat file" "$(avail numastat)" \
	"$(compgen -G '/sys/devices/system/node/node*/numastat' >/dev/null && echo True || echo False)"
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
if [ "$(id -u)" -eq 0 ] || [ "$paranoid" -le 2 ]; then
	is "pfm works here (software events at least)" "$(avail pfm)" True
else
	is "pfm: perf_event_paranoid $paranoid bars a user, and it says why" \
		"$(avail pfm):$([ -n "$(reason pfm)" ] && echo why)" "False:why"
fi
if [ $core_pmu = yes ]; then
	is "pfm: a core PMU is here, hardware events are not called missing" \
		"$(reason pfm | grep -c 'no hardware PMU here')" 0
else
	is "pfm says the hardware events cannot be counted without a core PMU" \
		"$(reason pfm | grep -c 'cycles: no hardware PMU here')" 1
fi
if [ $uncore = yes ]; then
	is "perf-uncore: memory PMUs are here, not called missing" \
		"$(reason perf-uncore | grep -c '^no uncore_imc, amd_umc or cxl_pmu PMU')" 0
else
	is "perf-uncore: no uncore PMU, said plainly" "$(avail perf-uncore):$(reason perf-uncore)" \
		"False:no uncore_imc, amd_umc or cxl_pmu PMU in /sys/bus/event_source/devices"
fi
if [ $resctrl = yes ]; then
	is "resctrl: mounted here, not called unmounted" "$(reason resctrl | grep -c 'is not mounted')" 0
else
	is "resctrl: not mounted, said so" "$(avail resctrl):$(reason resctrl | grep -c '^/sys/fs/resctrl is not mounted')" "False:1"
fi
for c in likwid papi; do
	is "$c: available, or says why not" \
		"$(json "[c['available'] or bool(c.get('reason')) for c in j['collectors'] if c['name'] == '$c']" <"$WORK/out")" "[True]"
done
is "model: simulated, and nothing to model without weights" \
	"$(json "[(c['available'], c['simulated']) for c in j['collectors'] if c['name'] == 'model'][0]" <"$WORK/out")" "(False, True)"
is "numastat's metrics, per node, with units" \
	"$(json "[(m['name'], m['unit'], m['node']) for c in j['collectors'] if c['name'] == 'numastat' for m in c['metrics']][:2]" <"$WORK/out")" \
	"[('numa_hit', 'pages/s', $N0), ('numa_miss', 'pages/s', $N0)]"
run "$TT" collectors
is "human listing names every collector" "$rc:$(grep -cE '^(numastat|perf-uncore|pfm|papi|likwid|resctrl|model) ' "$WORK/out")" "0:7"

run "$TT" --sysfs-root "$FIX/spr-ddr5-2cxl" collectors --json
is "SPR fixture: 8 IMC boxes and 2 CXL devices found and encoded, counting needs the live PMUs" \
	"$(reason perf-uncore | cut -c1-50)" "10 memory boxes found and their events encoded, bu"

root=$(copy_fixture spr-ddr5-2cxl)
echo 'event=0x05,umask=bogus' >"$root/sys/bus/event_source/devices/uncore_imc_2/events/cas_count_read"
expect_bad_input 2 "PMU uncore_imc_2 event 'event=0x05,umask=bogus': term 'umask' has value 'bogus'" "$root" \
	"$TT" --sysfs-root "$root" collectors
root=$(copy_fixture spr-ddr5-2cxl)
echo 'config:0-7:9' >"$root/sys/bus/event_source/devices/cxl_pmu_mem1.0/format/gid"
expect_bad_input 2 "cxl_pmu_mem1.0/format/gid' holds 'config:0-7:9'" "$root" "$TT" --sysfs-root "$root" collectors

# Not root, perf_event_paranoid 2: pfm counts this process's user space.
if can_drop && [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -eq 2 ]; then
	run "${NOBODY[@]}" "$(nobody_tt)" collectors --json
	is "as nobody: pfm works, counting user space only, and says so" \
		"$(avail pfm):$(reason pfm | grep -c 'user space of this process only (perf_event_paranoid is')" "True:1"
else
	skip "needs root and setpriv to drop to nobody, and perf_event_paranoid 2 (it is $(cat /proc/sys/kernel/perf_event_paranoid))"
fi

# Passes enough for about a second of timed window, whatever this machine's
# speed (a fixed count made a window of under two 0.1 s samples on a fast
# or idle host, and failed there): a short run measures one pass first.
# Load only makes passes slower, and the window longer.
passes_for() { # seconds bench-args...: passes of the kernel that take that long
	local want=$1 s
	shift
	s=$("$TT" bench "$@" --repeat 3 --json | json 'j["pass_median_s"]')
	python3 -c 'import math, sys; print(min(100000, max(3, math.ceil(float(sys.argv[1]) / float(sys.argv[2])))))' "$want" "$s"
}
run "$TT" bench --kernel triad --size 128M --repeat "$(passes_for 1 --kernel triad --size 128M)" \
	--collect numastat,pfm --json
is "bench --collect exits 0" "$rc" 0
is "collected over the measured passes, numastat and pfm rates measured" \
	"$(json '(j["collect"]["window_s"] > 0.2, all(m["ok_readings"] > 0 for m in j["collect"]["metrics"]), [(m["metric"], m["mean"] > 0 if m["metric"] == "cpu_clock" else m["mean"] >= 0) for m in j["collect"]["metrics"] if m["metric"] in ("cpu_clock", "page_faults")])' <"$WORK/out")" \
	"(True, True, [('cpu_clock', True), ('page_faults', True)])"
if [ $uncore = no ]; then
	is "per-node traffic: unavailable here, said why; the benchmark's own split is given" \
		"$(json '(j["collect"]["bw_source"], j["collect"]["bw_unavailable"][:11], [n["benchmark_share_bytes_s"] > 0 for n in j["collect"]["per_node"]])' <"$WORK/out")" \
		"(None, 'perf-uncore', [True])"
	expect_bad_input 3 "collector perf-uncore is unavailable: no uncore_imc" - "$TT" bench --kernel copy --size 4M --collect perf-uncore --record
else
	skip "this host has memory PMUs: per-node traffic is measured, not unavailable"
	skip "this host has memory PMUs: perf-uncore is not unavailable for want of one"
fi
expect_bad_input 2 "unknown collector 'nosuch'" - "$TT" bench --kernel copy --size 4M --collect numastat,nosuch --record
expect_bad_input 2 "collector 'pfm' is listed twice" - "$TT" bench --kernel copy --size 4M --collect pfm,pfm --record
run "$TT" bench --kernel copy --size 64M --repeat "$(passes_for 1 --kernel copy --size 64M)" \
	--collect numastat --record --db "$WORK/c.db"
# Every numastat metric the collector lists (per node, and the system's), in the window.
want=$("$TT" collectors --json | json "len([m for c in j['collectors'] if c['name'] == 'numastat' for m in c['metrics']])")
is "--record stores the window's samples with the trial, every metric" \
	"$rc:$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) >= 2 * count(distinct metric || coalesce(node, -1)), count(distinct metric || coalesce(node, -1)) from samples where trial_id is not null").fetchone())' "$WORK/c.db")" \
	"0:(1, $want)"
# The model collector on a fixture with HMAT (the buffers are real, on node
# 0 here): every figure it gives is marked simulated, in output and database.
run "$TT" --sysfs-root "$FIX/qemu-3node-hmat" bench --kernel triad --nodes 0 --weights 0:1 --size 64M \
	--repeat 100 --collect model --record --db "$WORK/m.db" --json
is "model: per-node figure from HMAT, marked simulated" \
	"$rc:$(json '(j["collect"]["bw_source"], j["collect"]["bw_simulated"], all(m["simulated"] for m in j["collect"]["metrics"]), [n["collected_bytes_s"] for n in j["collect"]["per_node"]])' <"$WORK/out")" \
	"0:('model', True, True, [20480000000.0])"
is "model samples are stored as simulated" \
	"$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) > 0, min(simulated) from samples where collector = \"model\"").fetchone())' "$WORK/m.db")" "(1, 1)"
run "$TT" --sysfs-root "$FIX/qemu-3node-hmat" bench --kernel triad --nodes 0 --weights 0:1 --size 64M \
	--repeat 100 --collect model
is "human output says SIMULATED" "$rc:$(grep -c 'SIMULATED' "$WORK/out")" "0:1"
# On this machine, after a recorded matrix: the model takes the bandwidth
# measured from the source (HMAT's figure is each node's best initiator's,
# an overstatement from another socket) and its metrics say so.
run "$TT" bench --matrix --size 4M --repeat 2 --record --db "$WORK/mx.db"
mrun=$("$TT" runs --db "$WORK/mx.db" --json | json 'j["runs"][0]["id"]')
mbw=$("$TT" show "$mrun" --db "$WORK/mx.db" --json |
	json "[t['bw_best_bytes_s'] for t in j['trials'] if t['mix'].endswith(' from CPU node $N0') and t['nodes'][0]['node'] == $N0][0]")
run "$TT" bench --kernel triad --source-node "$N0" --nodes "$N0" --weights "$N0:1" --size 64M \
	--repeat 100 --collect model --db "$WORK/mx.db" --json
is "model after a matrix run: the source's measured figure, said so in each metric" \
	"$rc:$(json "[(m['metric'], m['source']) for m in j['collect']['metrics'] if m['collector'] == 'model'], [abs((n['collected_bytes_s'] or 0) / $mbw - 1) < 1e-9 for n in j['collect']['per_node']]" <"$WORK/out")" \
	"0:[('model_bw', 'simulated: measured from node $N0'), ('model_total_bw', 'simulated: measured figures')] [True]"
run "$TT" bench --kernel triad --source-node "$N0" --nodes "$N0" --weights "$N0:1" --size 4M --repeat 2 \
	--collect model --db "$WORK/mx.db"
grep -q "^model collector: bandwidth measured from node $N0 by matrix run $mrun" "$WORK/out"
tap $? "model after a matrix run: the text says whose figures it takes"
done_testing
