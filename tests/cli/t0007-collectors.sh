#!/usr/bin/env bash
# tiertune collectors and bench --collect: on this machine numastat and pfm
# (software events) measure for real and the rest say why they cannot; on
# fixtures the PMUs are found and encoded; garbled PMU files are named.
. "$(dirname "$0")/lib.sh"

run "$TT" collectors --json
is "collectors --json exits 0" "$rc" 0
avail() { json "{c['name']: c['available'] for c in j}['$1']" <"$WORK/out"; }
reason() { json "{c['name']: c.get('reason') or c.get('note') or '' for c in j}['$1']" <"$WORK/out"; }
is "numastat works here" "$(avail numastat)" True
is "pfm works here (software events)" "$(avail pfm)" True
is "pfm says the hardware events cannot be counted in this VM" "$(reason pfm | grep -c 'cycles: no hardware PMU here')" 1
is "perf-uncore: no uncore PMU, said plainly" "$(avail perf-uncore):$(reason perf-uncore)" \
	"False:no uncore_imc, amd_umc or cxl_pmu PMU in /sys/bus/event_source/devices"
is "resctrl: not mounted" "$(avail resctrl):$(reason resctrl | grep -c '^/sys/fs/resctrl is not mounted')" "False:1"
is "likwid: why, not a crash" "$(avail likwid):$(reason likwid | grep -c 'msr\|setuid')" "False:1"
is "papi: why, not a crash" "$(avail papi):$( [ -n "$(reason papi)" ] && echo reason)" "False:reason"
is "model: simulated, and nothing to model without weights" \
	"$(json "[(c['available'], c['simulated']) for c in j if c['name'] == 'model'][0]" <"$WORK/out")" "(False, True)"
is "numastat's metrics, per node, with units" \
	"$(json "[(m['name'], m['unit'], m['node']) for c in j if c['name'] == 'numastat' for m in c['metrics']][:2]" <"$WORK/out")" \
	"[('numa_hit', 'pages/s', 0), ('numa_miss', 'pages/s', 0)]"
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
nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$WORK" TIERTUNE_DB="$WORK/nobody.db")
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null && "${nobody[@]}" test -x "$TT" &&
	[ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 2 ]; then
	chmod 777 "$WORK"
	run "${nobody[@]}" "$TT" collectors --json
	is "as nobody: pfm works, counting user space only, and says so" \
		"$(avail pfm):$(reason pfm | grep -c 'user space of this process only (perf_event_paranoid is')" "True:1"
else
	echo "ok $((n += 1)) # SKIP needs root, setpriv, paranoid >= 2 and a tiertune nobody can run"
fi

# bench --collect: long enough for a few 0.1 s samples inside the timed passes.
run "$TT" bench --kernel triad --size 128M --repeat 30 --collect numastat,pfm --json
is "bench --collect exits 0" "$rc" 0
is "collected over the measured passes, numastat and pfm rates measured" \
	"$(json '(j["collect"]["window_s"] > 0.2, all(m["ok"] > 0 for m in j["collect"]["metrics"]), [m["mean"] > 1e8 for m in j["collect"]["metrics"] if m["metric"] == "cpu_clock"])' <"$WORK/out")" \
	"(True, True, [True])"
# First touch faults ~500k pages/s here; what is left is other processes'.
is "next to no page faults in the timed passes (placement and first touch are outside the window)" \
	"$(json '[m["mean"] < 1000 for m in j["collect"]["metrics"] if m["metric"] == "page_faults"]' <"$WORK/out")" "[True]"
is "per-node traffic: unavailable here, said why; the benchmark's own split is given" \
	"$(json '(j["collect"]["bw_source"], j["collect"]["bw_unavailable"][:11], [n["benchmark_share_bytes_s"] > 0 for n in j["collect"]["per_node"]])' <"$WORK/out")" \
	"(None, 'perf-uncore', [True])"
root=$(copy_fixture vm-1node)
expect_bad_input 2 "unknown collector 'nosuch'" "$root" "$TT" bench --kernel copy --size 4M --collect numastat,nosuch
expect_bad_input 3 "collector perf-uncore is unavailable: no uncore_imc" "$root" "$TT" bench --kernel copy --size 4M --collect perf-uncore
expect_bad_input 2 "collector 'pfm' is listed twice" "$root" "$TT" bench --kernel copy --size 4M --collect pfm,pfm
run "$TT" bench --kernel copy --size 64M --repeat 150 --collect numastat --record --db "$WORK/c.db"
n_samples=$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*), count(distinct metric) from samples where trial_id is not null").fetchone())' "$WORK/c.db")
is "--record stores the window's samples with the trial" "$rc:$(python3 -c "print($n_samples[0] > 12 and $n_samples[1] == 12)")" "0:True"
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
done_testing
