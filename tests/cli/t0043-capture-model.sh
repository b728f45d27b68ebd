#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tiertune capture --model-from: a model of the captured machine from real
# auto runs' measured profiles. The reports are ones the QEMU guest wrote
# (tests/fixtures/reports/qemu-3node-hmat.auto*.json: auto --source-node 0,
# and 1, triad, 2 threads, the profiles measured on the booted guest, whose
# tree is the qemu-3node-hmat fixture, the same fingerprint). The model's figures are
# the profile's, each labelled; auto --model completes on it, SIMULATED, and
# gives node 0 alone the bandwidth measured; bad reports write nothing.
. "$(dirname "$0")/lib.sh"

REP="$TT_TOP/tests/fixtures/reports/qemu-3node-hmat.auto.json"
root=$(copy_fixture qemu-3node-hmat)
export TIERTUNE_DB="$WORK/tiertune.db"

# Each node: its figures and their labels, one line, as the test reads them
# (bandwidths in bytes/s to the byte's thousandth, latencies to 1e-10 ns).
model_nodes() { # model.json
	python3 - "$1" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
s = m["sources"][0]
print("simulated=%s sysfs=%s src=%d threads=%d/%s misses=%g/%s" % (
    m["simulated"], m["machine_sysfs"], s["node"], s["threads"], s["figure_from"]["threads"],
    s["outstanding_misses_per_thread"], s["figure_from"]["outstanding_misses_per_thread"]))
for n in s["nodes"]:
    f = n["figure_from"]
    p = n.get("profile") or {}
    print("%d cpus=%s read=%.3f/%s write=%.3f/%s idle=%.10f/%s curve=%s profile=%s,%s" % (
        n["node"], n["cpus"], n["read_bw_bytes_s"], f["read_bw_bytes_s"], n["write_bw_bytes_s"],
        f["write_bw_bytes_s"], n["idle_lat_ns"], f["idle_lat_ns"], f["loaded_lat_ns"],
        p.get("bw_bytes_s"), p.get("lat_ns")))
PY
}

run "$TT" --sysfs-root "$root" capture -o "$WORK/cap" --model-from "$REP"
is "capture --model-from: exit 0, the model named with the command that runs it" \
	"$rc:$(grep -c "^a SIMULATED model of it from '$REP' ($WORK/cap/model.json): tiertune auto --source-node 0 --model $WORK/cap/model.json\$" "$WORK/out")" "0:1"
# Triad counts 24 bytes an element and the controllers see 32 (16 read, 8
# written, 8 read for ownership); HMAT gives these nodes write = read, so
# read = write = measured * 32 / 24. The latencies are the profile's.
is "the model's figures: the profile's measured ones, each labelled; node 2 CPU-less" \
	"$(model_nodes "$WORK/cap/model.json")" \
	"simulated=True sysfs=. src=0 threads=2/measured misses=20/assumed
0 cpus=True read=774189999.663/measured write=774189999.663/hmat idle=23.7765502930/measured curve=assumed profile=580642499.7473841,23.7765502929645
1 cpus=True read=1095616428.301/measured write=1095616428.301/hmat idle=18.2756042480/measured curve=assumed profile=821712321.2258521,18.27560424804038
2 cpus=False read=928164109.827/measured write=928164109.827/hmat idle=35.6299743652/measured curve=assumed profile=696123082.3702956,35.62997436524465"
is "the profile's figures are the report's, bit for bit" \
	"$(python3 - "$REP" "$WORK/cap/model.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
m = json.load(open(sys.argv[2]))
nodes = {n["node"]: n for n in m["sources"][0]["nodes"]}
for p in r["profile"]["nodes"]:
    n = nodes[p["node"]]
    print(p["node"], n["profile"]["bw_bytes_s"] == p["bw_bytes_s"],
          n["idle_lat_ns"] == p["lat_ns"] == n["profile"]["lat_ns"])
PY
)" "0 True True
1 True True
2 True True"
is "the loaded-latency curve: the assumed shape scaled to node 0's idle latency" \
	"$(json '" ".join("%g:%.4f" % (u, l / j["sources"][0]["nodes"][0]["idle_lat_ns"]) for u, l in j["sources"][0]["nodes"][0]["loaded_lat_ns"])' <"$WORK/cap/model.json")" \
	"0:1.0000 0.5:1.0800 0.7:1.2000 0.8:1.3500 0.9:1.7500 0.95:2.3000 1:3.6000"
is "its source note says what was measured, what came from HMAT and what is assumed" \
	"$(json '"3 nodes measured" in j["source"] and "0 from the capture" in j["source"] and "Assumed: loaded-latency curves" in j["source"] and "simulated" in j["source"]' <"$WORK/cap/model.json")" True
is "the capture beside it is the machine" \
	"$(out "$TT" --sysfs-root "$WORK/cap" topo | grep -v '^sysfs root')" \
	"$("$TT" --sysfs-root "$root" topo | grep -v '^sysfs root')"

# The model runs anywhere: the tree is found beside it.
run sh -c "cd / && '$TT' auto --source-node 0 --model '$WORK/cap/model.json' --noise 0 --budget 60 --no-record"
is "auto --model on it: exit 0, SIMULATED, its topology the capture" \
	"$rc:$(head -1 "$WORK/out")" \
	"0:SIMULATED: every figure comes from model '$WORK/cap/model.json', not a measurement; the topology is '$WORK/cap'"
is "every figure it shows is labelled SIMULATED" \
	"$(grep -cE '^(SIMULATED profile|SIMULATED figures|SIMULATED recommendation)' "$WORK/out")" 3
run "$TT" auto --source-node 0 --model "$WORK/cap/model.json" --noise 0 --budget 60 --no-record --json
is "auto --model --json: simulated, the profile the model's, node 0 alone the bandwidth measured" \
	"$rc:$(json 'j["simulated"], [(p["node"], p["from"], round(p["lat_ns"], 6)) for p in j["profile"]["nodes"]], [round(b["bw_mean_bytes_s"], 3) for b in j["baselines"] if b["name"] == "local"]' <"$WORK/out")" \
	"0:True [(0, 'model', 23.77655), (1, 'model', 18.275604), (2, 'model', 35.629974)] [580642499.747]"

# A node the profile did not measure: the capture's HMAT figures (node 2's
# access1, initiator node 0, the source: 5120 MB/s, 400 ns).
python3 - "$REP" >"$WORK/part.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["profile"]["nodes"][2]["from"] = "hmat"
print(json.dumps(r))
PY
run "$TT" --sysfs-root "$root" capture -o "$WORK/part" --model-from "$WORK/part.json"
is "a node the profile lacks: HMAT's figures, labelled hmat" \
	"$rc:$(model_nodes "$WORK/part/model.json" | sed -n 4p):$(json '"2 nodes measured" in j["source"] and "1 from the capture" in j["source"]' <"$WORK/part/model.json")" \
	"0:2 cpus=False read=5120000000.000/hmat write=5120000000.000/hmat idle=400.0000000000/hmat curve=assumed profile=None,None:True"

# A latency the profile refused (null: under any memory's, as TCG's loads
# can be) with its bandwidth measured: the bandwidth measured, the idle
# latency HMAT's, each labelled so (a model was refused on 4534348).
python3 - "$REP" >"$WORK/nolat.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["profile"]["nodes"][2]["lat_ns"] = None
print(json.dumps(r))
PY
run "$TT" --sysfs-root "$root" capture -o "$WORK/nolat" --model-from "$WORK/nolat.json"
is "a refused latency: the measured bandwidth, HMAT's idle latency, labelled" \
	"$rc:$(model_nodes "$WORK/nolat/model.json" | sed -n 4p | sed -E 's/read=[0-9.]+/read=X/; s/write=[0-9.]+/write=X/; s/,[0-9.]+$/,B/; s/profile=[0-9.]+/profile=B/')" \
	"0:2 cpus=False read=X/measured write=X/hmat idle=400.0000000000/hmat curve=assumed profile=B,None"

# Two reports, from source nodes 0 and 1 (the guest's second run): a
# model with both sources, each node alone from each at what it measured.
REP1="$TT_TOP/tests/fixtures/reports/qemu-3node-hmat.auto-source1.json"
run "$TT" --sysfs-root "$root" capture -o "$WORK/two" --model-from "$REP" --model-from "$REP1"
is "two reports: exit 0, both named" \
	"$rc:$(grep -c "^a SIMULATED model of it from '$REP', '$REP1' ($WORK/two/model.json)" "$WORK/out")" "0:1"
is "two reports: sources 0 and 1, each node measured from each, the profiles' figures" \
	"$(python3 - "$REP" "$REP1" "$WORK/two/model.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[3]))
for path in sys.argv[1:3]:
    r = json.load(open(path))
    s = [x for x in m["sources"] if x["node"] == r["source_node"]][0]
    nodes = {n["node"]: n for n in s["nodes"]}
    print(s["node"], s["threads"], all(
        nodes[p["node"]]["profile"]["bw_bytes_s"] == p["bw_bytes_s"]
        and nodes[p["node"]]["idle_lat_ns"] == p["lat_ns"]
        and nodes[p["node"]]["figure_from"]["read_bw_bytes_s"] == "measured"
        for p in r["profile"]["nodes"]))
PY
)" "0 2 True
1 2 True"
run "$TT" auto --source-node 1 --model "$WORK/two/model.json" --noise 0 --budget 60 --no-record --json
is "auto --source-node 1 on it: simulated, node 1 alone at the 0.833 GB/s measured from node 1" \
	"$rc:$(json 'j["simulated"], [round(b["bw_mean_bytes_s"], 3) for b in j["baselines"] if b["name"] == "local"]' <"$WORK/out")" \
	"0:True [833060146.661]"

# An archive, the host name anonymised: model.json at its top, named
# 'anonymous', its note naming neither the host nor the report's path.
run "$TT" --sysfs-root "$root" capture -o "$WORK/cap.tar.gz" --anonymize --model-from "$REP"
mkdir "$WORK/un" && tar -xzf "$WORK/cap.tar.gz" -C "$WORK/un"
is "a .tar.gz with the model: exit 0, model.json at its top, anonymous" \
	"$rc:$(tar -tzf "$WORK/cap.tar.gz" | grep -c '^\./model\.json$'):$(json 'j["name"]' <"$WORK/un/model.json"):$(grep -cE 'tiertune-guest|\(none\)|fixtures|reports' "$WORK/un/model.json")" \
	"0:1:anonymous:0"
run "$TT" auto --source-node 0 --model "$WORK/un/model.json" --noise 0 --budget 30 --no-record --json
is "auto --model on the unpacked archive: exit 0, simulated" "$rc:$(json 'j["simulated"]' <"$WORK/out")" "0:True"

# Bad reports: exit 2, the report named, nothing written (no folder, no
# temporary beside it), the fixture and database unchanged.
bad() { # name text report [root]
	local r=${4:-$root}
	expect_bad_input 2 "$2" "$r" "$TT" --sysfs-root "$r" capture -o "$WORK/bad-$1" --model-from "$3"
	is "$1: nothing written" "$(ls -d "$WORK"/bad-"$1"* 2>/dev/null)" ""
}
sed 's/"fingerprint": "f699bb0892b9dc3a"/"fingerprint": "0123456789abcdef"/' "$REP" >"$WORK/other.json"
bad other "auto report '$WORK/other.json' was measured on other hardware (fingerprint 0123456789abcdef), not the machine captured (f699bb0892b9dc3a)" "$WORK/other.json"
"$TT" auto --source-node 0 --model "$WORK/cap/model.json" --budget 30 --no-record --json >"$WORK/sim.json" 2>/dev/null
bad simulated "auto report '$WORK/sim.json' is a simulated run (model '$WORK/cap/model.json'): it measured nothing" "$WORK/sim.json"
python3 - "$REP" >"$WORK/none.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["profile"]["skipped"] = "--no-profile"
for p in r["profile"]["nodes"]:
    p["from"] = "hmat"
print(json.dumps(r))
PY
bad unmeasured "auto report '$WORK/none.json' has no measured profile (--no-profile): nothing measured to model" "$WORK/none.json"
python3 - "$REP" >"$WORK/huge.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["profile"]["nodes"][0]["bw_bytes_s"] = 1e300
print(json.dumps(r))
PY
bad huge "auto report '$WORK/huge.json': node 0's measured 1e+300 bytes/s and 23.7766 ns are beyond any memory" "$WORK/huge.json"
vm=$(copy_fixture vm-1node)
bad lacking "auto report '$REP' profiles node 1, which the machine captured lacks" "$REP" "$vm"
json 'json.dumps({k: v for k, v in j.items() if k != "fingerprint"})' <"$REP" >"$WORK/old.json"
bad old "auto report '$WORK/old.json' names no machine fingerprint" "$WORK/old.json"
bad not-report "'$WORK/cap/model.json' is not a report of tiertune auto --json" "$WORK/cap/model.json"
printf '{"schema_version": 2, "kind": "auto", "all_sources": true}\n' >"$WORK/all.json"
bad all-sources "auto report '$WORK/all.json' is an --all-sources summary, which holds no profile" "$WORK/all.json"
bad missing "cannot read auto report '$WORK/nope.json'" "$WORK/nope.json"
expect_bad_input 2 "auto reports '$REP' and '$REP' are both from source node 0: one report a source" \
	"$root" "$TT" --sysfs-root "$root" capture -o "$WORK/bad-twice" --model-from "$REP" --model-from "$REP"
is "twice: nothing written" "$(ls -d "$WORK"/bad-twice* 2>/dev/null)" ""
expect_bad_input 2 "auto report '$WORK/other.json' was measured on other hardware" \
	"$root" "$TT" --sysfs-root "$root" capture -o "$WORK/bad-second" --model-from "$REP" --model-from "$WORK/other.json"
is "a bad second report: nothing written" "$(ls -d "$WORK"/bad-second* 2>/dev/null)" ""
printf '{"schema_version": 2, "kind": ' >"$WORK/broken.json"
bad broken "auto report '$WORK/broken.json': broken JSON" "$WORK/broken.json"

done_testing
