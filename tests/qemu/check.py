#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks the serial log of the QEMU guest (guest.sh's marked blocks) and
prints TAP. A guest that crashed or timed out fails with the log's tail.

    check.py SERIAL_LOG CASES TIERTUNE FIXTURE_ROOT
"""
import base64
import glob
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

from guestlog import block, blocks, finish, jblock, load, skip, tap

log_path, cases_path, tiertune, fixture = sys.argv[1:5]
log = load(log_path)
cases = [line.split() for line in open(cases_path) if line.strip()]

rc, out = block("uname")
tap(rc == 0 and out.startswith("6.12."), "guest kernel is 6.12: %s" % out.strip(), out)

# topo in the guest, and the fixture written for it, agree.
rc, topo = jblock("topo")
tap(rc == 0 and topo is not None, "tiertune topo --json in the guest", block("topo")[1])
if topo:
    nodes = {x["id"]: x for x in topo["nodes"]}
    tap(sorted(nodes) == [0, 1, 2] and [nodes[i]["cpus"] for i in (0, 1, 2)] == [[0, 1], [2, 3], []],
        "three nodes: CPUs 0-1, 2-3 and none", json.dumps(topo["nodes"])[:2000])
    tiers = {t["id"]: t["nodes"] for t in topo["tiers"]}
    tap(tiers == {4: [0, 1], 72: [2]}, "tiers 4 (nodes 0-1) and 72 (node 2): %s" % tiers)
    hm = nodes[2].get("hmat_access0") or {}
    tap(hm.get("read_bw_bytes_s") == 5120 * 10**6 and hm.get("read_lat_ns") == 400,
        "HMAT figures of node 2 (5120 MB/s, 400 ns)", json.dumps(nodes[2])[:2000])
    up = [i for i in topo["weight_interfaces"] if i["name"] == "upstream"]
    tap(up and up[0]["available"] and up[0]["weights"] == {"0": 1, "1": 1, "2": 1}
        and up[0].get("auto") is None,
        "upstream interface, weights 1, no auto file on 6.12", json.dumps(up)[:2000])
    fx = json.loads(subprocess.run([tiertune, "--sysfs-root", fixture, "topo", "--json"],
                                   capture_output=True, text=True).stdout)

    def shape(t):
        return ([(x["id"], x["cpus"], x["tier"], x["distance"], x.get("hmat_access0"),
                  x.get("hmat_access1")) for x in t["nodes"]], t["tiers"])
    tap(shape(fx) == shape(topo), "the qemu-3node-hmat fixture matches this guest",
        "fixture: %s\nguest:   %s" % (shape(fx), shape(topo)))

    # Demotion targets: the kernel's boot log against topo's computation.
    rc, out = block("demotion")
    kernel = {}
    for line in out.splitlines():
        m = re.search(r"Demotion targets for Node (\d+): (null|preferred: ([\d,-]*), fallback: ([\d,-]*))", line)
        if m:
            kernel[int(m.group(1))] = None if m.group(2) == "null" else (m.group(3), m.group(4))
    def fmt(nodes_):
        return ",".join(map(str, nodes_))
    ours = {x["id"]: (None if not x["demotion"]["preferred"] else
                      (fmt(x["demotion"]["preferred"]), fmt(x["demotion"]["allowed"])))
            for x in topo["nodes"] if x["has_memory"]}
    tap(kernel and kernel == ours, "demotion targets: topo computes what the kernel printed (%s)" % kernel,
        "kernel: %s\ntopo:   %s\n%s" % (kernel, ours, out[-500:]))

# Kernel fidelity: kernel placement == simulate == exact, page for page.
bad = []
for i, (node_list, weights, pages, offset) in enumerate(cases, 1):
    krc, kout = block("kernel-%d" % i)
    erc, eout = block("exact-%d" % i)
    src, sim = jblock("simulate-%d" % i)

    def parse(out):
        start = re.search(r"^start_index (\d+)$", out, re.M)
        got = re.search(r"^nodes (.*)$", out, re.M)
        return (int(start.group(1)) if start else None,
                [int(x) for x in got.group(1).split()] if got else None)
    kstart, kmap = parse(kout)
    estart, emap = parse(eout)
    smap = sim["page_nodes"] if sim else None
    why = None
    if krc or erc or src or kmap is None or emap is None or smap is None:
        why = "a command failed: kernel rc %d, exact rc %d, simulate rc %d\n%s\n%s" % (
            krc, erc, src, kout[-500:], eout[-500:])
    elif kstart != estart:
        why = "the two buffers are at different addresses (%s, %s)" % (kstart, estart)
    elif len(kmap) != int(pages):
        why = "%d pages mapped, %s asked" % (len(kmap), pages)
    elif kmap != smap:
        at = next(j for j in range(len(kmap)) if kmap[j] != smap[j])
        why = "kernel and simulate differ first at page %d: %s vs %s" % (at, kmap[at:at + 8],
                                                                         smap[at:at + 8])
    elif kmap != emap:
        at = next(j for j in range(len(kmap)) if kmap[j] != emap[j])
        why = "kernel and exact differ first at page %d" % at
    if why:
        bad.append("case %d (%s %s %s pages, offset %s): %s" % (i, node_list, weights, pages,
                                                               offset, why))
tap(not bad and len(cases) >= 50,
    "%d weight vectors (random, and 3 with over 16384 runs): kernel placement == simulate == "
    "exact, page for page" % len(cases),
    "\n".join(bad[:10]))

# apply and restore on the guest's real sysfs.
rc, before = block("weights-before")
rc_a, out_a = block("apply")
tap(rc_a == 0 and block("weights-applied")[1].split() == ["5", "4", "2"],
    "apply writes and reads back on a real kernel", out_a + block("weights-applied")[1])
tap("apply.journal" not in block("journal-after-apply")[1], "journal removed after apply",
    block("journal-after-apply")[1])
rc_r, out_r = block("restore")
tap(rc_r == 0 and block("weights-restored")[1].split() == before.split(),
    "restore puts the weights back", out_r + block("weights-restored")[1])
listing = block("auto-mode")[1].split()
tap("auto" not in listing and "__auto_type" not in listing and "note:" not in out_a,
    "6.12 has no auto mode file, and apply says nothing of it", " ".join(listing) + out_a)

# Every kernel runs on the 3-node guest with weights, placement verified.
bench = sorted(k for k in blocks if k.startswith("bench-"))
problems = []
for name in bench:
    rc, j = jblock(name)
    if rc or not j:
        problems.append("%s: rc %d %s" % (name, rc, block(name)[1][-300:]))
    elif j.get("isa") != "sse2":
        problems.append("%s: kernel loops %s on a CPU without AVX" % (name, j.get("isa")))
    elif not j["validated"] or j["verification"]["misplaced"] or j["verification"]["unknown"]:
        problems.append("%s: validated %s misplaced %s" % (name, j["validated"],
                                                         j["verification"]["misplaced"]))
tap(len(bench) >= 15 and not problems,
    "%d bench runs (every kernel, weights 3:2:1 over 3 nodes, and kernel placement; SSE2 "
    "loops chosen on this AVX-less CPU)" % len(bench),
    "\n".join(problems))
# --- tiertop (issue 15): the process panel on three nodes, and the per-node
# demotion and promotion counters of the 6.12 kernel.
if "tiertop-json" not in blocks:
    skip("tiertop is not built (no ncursesw): its guest blocks did not run")
else:
    rc, held = block("tiertop-held")
    pid = int(block("tiertop-pid")[1].strip() or -1)
    trc, frame = jblock("tiertop-json")
    start = re.search(r"^start_index (\d+)$", held, re.M)
    got = re.search(r"^nodes (.*)$", held, re.M)
    kcount = {}
    for x in (got.group(1).split() if got else []):
        kcount[int(x)] = kcount.get(int(x), 0) + 1
    scount = {}
    if start:
        sim = json.loads(subprocess.run(
            [tiertune, "--sysfs-root", fixture, "simulate", "--nodes", "0-2", "--weights", "0:5,1:3,2:2", "--pages",
             "10007", "--start-index", start.group(1), "--json"],
            capture_output=True, text=True).stdout or "null")
        for x in (sim or {}).get("page_nodes", []):
            scount[x] = scount.get(x, 0) + 1
    procs = [p for p in ((frame or {}).get("processes") or []) if p["pid"] == pid]
    p = procs[0] if procs else {}
    tap(trc == 0 and p.get("command") == "pagemap"
        and p.get("policy") == "weighted interleave:0-2",
        "tiertop lists the process holding a weighted-interleave buffer, policy and nodes",
        "%s\n%s" % (json.dumps(procs)[:1500], block("tiertop-json")[1][-1500:]))
    pages = {x["node"]: x["pages"] for x in p.get("nodes", [])}
    tap(sum(kcount.values()) == 10007 and kcount == scount and pages == kcount,
        "tiertop's pages per node are the kernel's placement and tiertune simulate's: %s" % pages,
        "tiertop %s\nkernel  %s\nsimulate %s" % (pages, kcount, scount))
    want = {x["node"]: x["want_share"] for x in p.get("nodes", [])}
    share = {x["node"]: x["share"] for x in p.get("nodes", [])}
    tap(want == {0: 0.5, 1: 0.3, 2: 0.2}
        and all(abs(share[k] - want[k]) <= 10.0 / 10007 for k in want),
        "weights 5:3:2: the shares tiertop wants, and the shares held (within 10 pages)",
        "want %s share %s" % (want, share))
    dem = (frame or {}).get("demotion_targets") or []
    tap(len(dem) == 3 and all(isinstance(d["demoted_pages_s"], float)
                              and isinstance(d["promoted_pages_s"], float) for d in dem)
        and [d["preferred"] for d in dem] == [[2], [2], []],
        "6.12 counts demotions and promotions per node (nodeN/vmstat): rates, not n/a, "
        "along the targets", json.dumps(dem))
    text = block("tiertop-text")[1]
    tap(re.search(r"^ +%d pagemap +weighted interleave:0-2 +0 +%d " % (pid, pages.get(0, -1)),
                  text, re.M) is not None,
        "the text frame shows it too", text[-2500:])

# ---- tiertune run (issue 23): pages in the weights' proportion, CPUs on
# node 0; weights sysfs does not hold refused, --apply writes them. ----
def run_pages(out, pages):
    m = re.search(r"^nodes((?: -?\d+)+)$", out, re.M)
    got = [int(x) for x in m.group(1).split()] if m else []
    return {k: got.count(k) for k in set(got)}, len(got) == pages


def in_proportion(counts, weights, pages):
    # The kernel's weighted interleave gives each node its weight's share,
    # off by less than one round (a weight's pages) where the run ends.
    total = sum(weights.values())
    return sum(counts.values()) == pages and all(
        abs(counts.get(k, 0) - pages * w / total) <= w for k, w in weights.items())


rc, out = block("run-place")
counts, whole = run_pages(out, 10007)
cpus = re.search(r"^cpus (\S+)$", out, re.M)
node0 = block("run-node0-cpus")[1].strip()
tap(rc == 0 and whole and in_proportion(counts, {0: 5, 1: 3, 2: 2}, 10007),
    "tiertune run --nodes 0-2 --source-node 0: 10007 pages at 5:3:2 (%s)" % sorted(counts.items()),
    out[-1500:])
tap(cpus is not None and cpus.group(1) == node0,
    "tiertune run: the program's CPUs are node 0's (%s, node 0: %s)" % (cpus and cpus.group(1), node0),
    out[-600:])
rc, out = block("run-refused")
tap(rc == 3 and "sysfs does not hold these weights" in out
    and block("run-weights-refused")[1].split() == ["5", "3", "2"],
    "tiertune run --weights other than sysfs holds: exit 3, nothing written", out)
rc, out = block("run-apply")
counts, whole = run_pages(out, 7001)
tap(rc == 0 and whole and in_proportion(counts, {0: 4, 1: 2, 2: 1}, 7001)
    and block("run-weights-applied")[1].split() == ["5", "3", "2"],
    "tiertune run --apply: 7001 pages at 4:2:1 (%s), then 5:3:2 back" % sorted(counts.items()),
    out[-1500:])
rc, out = block("unit-other")
tap(rc == 2 and "hardware fingerprint 0123456789abcdef" in out
    and block("unit-other-weights")[1].split() == ["1", "1", "1"],
    "the unit's command with another machine's profile: exit 2, nothing written", out)
rc, out = block("unit-apply")
tap(rc == 0 and block("unit-weights")[1].split() == ["6", "2", "1"],
    "the unit's command applies this machine's profile on the real sysfs", out)

# ---- auto under the kernel's policy (issue 14) ----
def node_list(nodes):
    """A node set as the kernel prints it (%*pbl): 0-2, 0,2."""
    nodes, out, i = sorted(nodes), [], 0
    while i < len(nodes):
        j = i
        while j + 1 < len(nodes) and nodes[j + 1] == nodes[j] + 1:
            j += 1
        out.append(str(nodes[i]) if i == j else "%d-%d" % (nodes[i], nodes[j]))
        i = j + 1
    return ",".join(out)


before = block("auto-weights-before")[1].split()
rc, j = jblock("auto-kernel")
tap(rc == 0 and j and j["placement"] == "kernel" and j["measurements"] > 0 and j["discarded"] == []
    and j["recommendation"]["weights"],
    "auto --placement kernel completes on the 3-node guest, every trial's pages verified against its candidate's weights (%s measurements, best %s)"
    % (j and j["measurements"], j and j["best"]["weights"]), block("auto-kernel")[1][-1500:])
after = block("auto-weights-after-kernel")[1].split()
tap(len(before) == 3 and after == before, "the weights are back after auto --placement kernel: %s"
    % after, "before %s after %s" % (before, after))

rc, j = jblock("auto-app")
tap(rc == 0 and j and j["placement"] == "kernel" and j["app"]["argv"] == ["/tmp/app.sh"]
    and j["best"]["time_mean_s"] > 0,
    "app mode completes on the 3-node guest (%s runs, best %s)"
    % (j and j["measurements"], j and j["best"]["weights"]), block("auto-app")[1][-1500:])
runs = [line.split() for line in block("auto-app-runs")[1].splitlines() if line.strip()]
if j:
    old = dict(enumerate(int(x) for x in before)) if len(before) == 3 else {}
    # Each candidate as the program must see it: its nodes' weights in
    # sysfs (the others as before), its nodes in the policy.
    want = set()
    for t in j["trials"]:
        w = dict((int(a), b) for a, b in t["weights"].items())
        want.add((":".join(str(w.get(k, old.get(k))) for k in (0, 1, 2)),
                  "weighted interleave:" + node_list(w)))
    bad = [r for r in runs if len(r) != 4 or (r[0], r[1] + " " + r[2]) not in want
           or r[3] != "0-1"]
    tap(runs and len(runs) == j["measurements"] and not bad,
        "%d app runs, one per measurement, each under MPOL_WEIGHTED_INTERLEAVE over its "
        "candidate's nodes with the candidate's weights in sysfs, on node 0's CPUs" % len(runs),
        "want %s\nbad %s" % (want, bad[:5]))
rc, shown = jblock("auto-app-show")
tap(rc == 0 and j and shown and shown["objective"] == "app:wall-time"
    and shown["command"].endswith("-- /tmp/app.sh")
    and len(shown["trials"]) == j["ntrials"]
    and all(0 < t["time_best_s"] <= t["time_median_s"] <= t["time_max_s"]
            and t["bw_best_bytes_s"] is None and t["placement"] == "kernel"
            for t in shown["trials"])
    and shown["recommendations"][0]["weights"] == j["recommendation"]["weights"]
    and all(t["judged"] in ("valid", "descheduled") and 0 <= t["cpu_share"] <= 1
            and t["descheduled"] == (t["judged"] == "descheduled") for t in shown["trials"]),
    "app mode's run is recorded: objective app:wall-time, each trial's wall times in seconds, "
    "whether its program ran (judged %s), the recommendation (run %s)"
    % (shown and sorted(set(t["judged"] for t in shown["trials"])), j and j["run"]),
    block("auto-app-show")[1][-1500:])
after = block("auto-weights-after-app")[1].split()
tap(len(before) == 3 and after == before, "the weights are back after app mode: %s" % after,
    "before %s after %s" % (before, after))
rc, j = jblock("auto-app-move")
err = block("auto-app-move-err")[1]
runs = block("auto-app-move-runs")[1].strip()
tap(rc == 0 and j and j["discarded"] == [{"weights": {"0": 1, "1": 1, "2": 1},
                                          "why": "node 1's weight was 1, 9 by the trial's end"}]
    and runs == str(j["measurements"] + 1)
    and "trial 0:1,1:1,2:1 discarded, measuring again" in err,
    "app mode: a trial whose weights a program changed on the real kernel is discarded, said, "
    "and measured again (%s runs)" % runs, block("auto-app-move")[1][-1500:] + err[-800:])
after = block("auto-weights-after-move")[1].split()
tap(len(before) == 3 and after == before, "the weights are back after the discarded trial: %s"
    % after, "before %s after %s" % (before, after))
tap("apply.journal" not in block("auto-journal")[1], "no journal left by any of the three",
    block("auto-journal")[1])

# ---- auto with latency (issue 14): real loaded-latency trials ----
def lat_trials(j):
    return (j.get("trials") or []) + (j.get("baselines") or [])


def within_bound(j, bound):
    """What the report must keep: every trial's latency measured, feasible
    exactly when within the bound, and the recommendation a feasible one."""
    trials = lat_trials(j)
    bad = [t for t in trials if not (t.get("lat_mean_ns") or 0) > 0
           or t.get("feasible") != (t["lat_mean_ns"] <= bound)]
    reco = j["recommendation"]["weights"]
    feasible = [t for t in trials if t.get("feasible") and t["weights"] == reco]
    return trials and not bad and feasible and j["best"]["feasible"] \
        and j["best"]["lat_mean_ns"] <= bound, bad[:3]


rc, j = jblock("auto-maxlat-loose")
ok, bad = within_bound(j, 1e6) if rc == 0 and j else (False, None)
tap(ok and j["placement"] == "exact" and j["max_lat_ns"] == 1e6
    and j["nfeasible"] == j["ntrials"] and j["best"]["bw_mean_bytes_s"] > 0,
    "auto --max-latency 1000000 completes on the 3-node guest: loaded latency measured in "
    "every trial (%s to %s ns), all feasible, best %s at %s GB/s"
    % (j and min(t["lat_mean_ns"] for t in lat_trials(j)),
       j and max(t["lat_mean_ns"] for t in lat_trials(j)), j and j["best"]["weights"],
       j and round(j["best"]["bw_mean_bytes_s"] / 1e9, 2)),
    "%s\n%s" % (bad, block("auto-maxlat-loose")[1][-1500:]))
bound = block("auto-maxlat-bound")[1].strip()
rc, out = block("auto-maxlat-median")
err = block("auto-maxlat-median-err")[1]
try:
    j = json.loads(out) if rc == 0 else None
except ValueError:
    j = None
if rc == 0 and j and bound.isdigit():
    ok, bad = within_bound(j, float(bound))
    tap(ok and j["max_lat_ns"] == float(bound),
        "auto --max-latency %s (the first run's median): %d of %d trials feasible, the "
        "recommendation %s one of them (%s ns)" % (bound, j["nfeasible"], j["ntrials"],
                                                   j["recommendation"]["weights"],
                                                   round(j["best"]["lat_mean_ns"])),
        "%s\n%s" % (bad, out[-1500:]))
else:
    # Noise can put every trial of this run over the first run's median:
    # then it must say so, as the impossible bound below does.
    tap(rc == 1 and bound.isdigit()
        and "no weights met the latency bound of %s ns" % bound in err,
        "auto --max-latency %s (the first run's median): no trial within it this time, "
        "said (exit 1)" % bound, out[-1000:] + err[-1000:])
rc, out = block("auto-maxlat-impossible")
err = block("auto-maxlat-impossible-err")[1]
m = re.search(r"no weights met the latency bound of 1 ns in (\d+) trials; the least loaded "
              r"latency was (\d+) ns, with weights ([\d:,]+)", err)
tap(rc == 1 and m and int(m.group(1)) > 0 and int(m.group(2)) > 1 and '"recommendation"' not in out,
    "auto --max-latency 1: exit 1, nothing recommended, naming the least-latency weights (%s at "
    "%s ns)" % (m and m.group(3), m and m.group(2)), out[-800:] + err[-1200:])
rate = block("auto-latency-rate")[1].strip()
try:
    rate_bytes_s = float(rate) * 1e9
except ValueError:
    rate_bytes_s = None
rc, j = jblock("auto-latency")
trials = lat_trials(j) if j else []
tap(rc == 0 and j and j["objective"] == "latency" and rate_bytes_s
    and abs(j["traffic_bytes_s"] - rate_bytes_s) <= 1e-9 * rate_bytes_s
    and trials and all((t.get("lat_mean_ns") or 0) > 0 and t.get("bw_mean_bytes_s") is None
                       for t in trials)
    and j["best"]["lat_mean_ns"] > 0 and j["recommendation"]["weights"],
    "auto --objective latency --traffic-rate %s (a quarter of the least bandwidth measured "
    "flat out before) completes on the 3-node guest: best %s at %s ns"
    % (rate, j and j["best"]["weights"], j and round(j["best"]["lat_mean_ns"])),
    block("auto-latency")[1][-1500:] + block("auto-latency-err")[1][-800:])
tap("apply.journal" not in block("auto-latency-journal")[1],
    "no journal after the latency runs (exact placement writes no weights)",
    block("auto-latency-journal")[1])

# ---- tiertune capture (issue 23): the guest's capture read on the host as
# the guest (topo, hwloc), and a model written in the guest from real auto
# runs' measured profiles (sources 0 and 1), which auto --model completes
# here, SIMULATED. ----
profiles = {}
for src, name in ((0, "capture-auto"), (1, "capture-auto1")):
    rc, rep = jblock(name)
    profiles[src] = [p for p in (rep or {}).get("profile", {}).get("nodes", [])
                     if p["from"] == "measured"]
    tap(rc == 0 and rep and rep["simulated"] is False and rep["source_node"] == src
        and len(profiles[src]) == 3,
        "a real auto run from node %d in the guest measures its profile: %s" % (src, ", ".join(
            # A latency the profile refused (under any memory's: TCG's
            # emulated loads can be) is null in the report.
            "node %d %.2f GB/s %s" % (p["node"], p["bw_bytes_s"] / 1e9,
                                      "%.0f ns" % p["lat_ns"] if p.get("lat_ns") else "latency refused")
            for p in profiles[src])), block(name)[1][-1500:])
rc, out = block("capture")
tap(rc == 0 and "/tmp/capture/model.json" in out, "tiertune capture --model-from in the guest",
    out)
cap = tempfile.mkdtemp(prefix="tiertune-qemu-capture.")
try:
    tarfile.open(fileobj=io.BytesIO(base64.b64decode(block("capture-tree")[1]))).extractall(cap)
    unpacked = os.path.isfile(os.path.join(cap, "model.json"))
except (ValueError, tarfile.TarError) as e:
    unpacked = False
    out = str(e)
tap(unpacked, "the capture, with model.json, copied out of the guest (base64 tar.gz)", out)


def topo_cmp(j):
    j = dict(j or {})
    j.pop("sysfs_root", None)
    j["nodes"] = [{k: v for k, v in x.items() if k != "mem_free_bytes"} for x in j.get("nodes", [])]
    return json.dumps(j, sort_keys=True)


rc, live = jblock("capture-live")
p = subprocess.run([tiertune, "--sysfs-root", cap, "topo", "--json"], capture_output=True, text=True)
try:
    host_view = json.loads(p.stdout)
except ValueError:
    host_view = None
tap(rc == 0 and live and host_view and topo_cmp(host_view) == topo_cmp(live),
    "topo --json of the capture on the host is the guest's live topo --json (but for the root "
    "and free memory)", "capture: %s\nlive:    %s\n%s" % (topo_cmp(host_view)[:1200],
                                                            topo_cmp(live)[:1200], p.stderr))
lstopo = shutil.which("lstopo-no-graphics")
if lstopo:
    env = dict(os.environ, HWLOC_FSROOT=cap)
    p = subprocess.run([lstopo, "--no-io", "--of", "console"], capture_output=True, text=True,
                       env=env)
    counts = {k: len(re.findall(r"\b%s L#\d+" % k, p.stdout)) for k in ("NUMANode", "PU")}
    tap(p.returncode == 0 and not p.stderr and counts == {"NUMANode": 3, "PU": 4},
        "HWLOC_FSROOT=capture lstopo: exit 0, the guest's 3 NUMA nodes and 4 PUs (%s)" % counts,
        p.stdout[-1000:] + p.stderr)
else:
    skip("no lstopo-no-graphics on the host (Debian package hwloc)")
model_path = os.path.join(cap, "model.json")
tt_abs = os.path.abspath(tiertune)  # run from / below: the model finds its tree wherever it runs
try:
    model = json.load(open(model_path))
    msrc = {s["node"]: {x["node"]: x for x in s["nodes"]} for s in model["sources"]}
except (OSError, ValueError, KeyError, IndexError, TypeError):
    model, msrc = None, {}


def labelled(mnodes, p):
    n = mnodes.get(p["node"], {})
    # A latency the profile refused (null: under any memory's, as TCG's
    # loads can be) is HMAT's in the model, and labelled so.
    lat_ok = (n.get("idle_lat_ns") == p["lat_ns"] and n["figure_from"]["idle_lat_ns"] == "measured"
              if p.get("lat_ns") is not None else
              (n.get("idle_lat_ns") or 0) > 0 and n["figure_from"]["idle_lat_ns"] == "hmat")
    return (lat_ok and n["profile"]["bw_bytes_s"] == p["bw_bytes_s"]
            and n["figure_from"]["read_bw_bytes_s"] == "measured"
            and n["figure_from"]["loaded_lat_ns"] == "assumed")


tap(model and model["simulated"] is True and sorted(msrc) == [0, 1]
    and all(profiles[s] and all(labelled(msrc[s], p) for p in profiles[s]) for s in (0, 1)),
    "the model's figures are the guest's measured profiles from sources 0 and 1, labelled "
    "measured (a refused latency HMAT's; the curve assumed), simulated", json.dumps(model)[:2000])
for src in (0, 1):
    p = subprocess.run([tt_abs, "auto", "--source-node", str(src), "--model", model_path,
                        "--noise", "0", "--budget", "40", "--no-record", "--json"],
                       capture_output=True, text=True, cwd="/")
    try:
        aj = json.loads(p.stdout)
    except ValueError:
        aj = None
    local = [b["bw_mean_bytes_s"] for b in (aj or {}).get("baselines", []) if b["name"] == "local"]
    bw = [q["bw_bytes_s"] for q in profiles[src] if q["node"] == src]
    tap(p.returncode == 0 and aj and aj["simulated"] is True and local and bw
        and abs(local[0] / bw[0] - 1) < 1e-9,
        "auto --source-node %d --model on the host completes on the guest's model, simulated, "
        "node %d alone at the measured %s GB/s" % (src, src, bw and round(bw[0] / 1e9, 3)),
        p.stdout[-1500:] + p.stderr[-800:])
p = subprocess.run([tt_abs, "auto", "--source-node", "0", "--model", model_path, "--budget", "40",
                    "--no-record"], capture_output=True, text=True, cwd="/")
tap(p.returncode == 0 and p.stdout.startswith("SIMULATED: every figure comes from model")
    and "SIMULATED recommendation" in p.stdout,
    "auto --model's text says SIMULATED", p.stdout[-1500:] + p.stderr[-800:])
shutil.rmtree(cap, ignore_errors=True)

# Further suites: each tests/qemu/check-NAME.py reads the blocks of its
# guest-NAME.sh (guest.sh runs it last) with this module's names (tap, skip,
# block, jblock, tiertune, fixture...), after the checks above.
for path in sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), "check-*.py"))):
    exec(compile(open(path).read(), path, "exec"))
finish()
