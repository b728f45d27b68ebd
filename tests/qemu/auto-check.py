#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks the serial log of the auto-mode guest (auto.sh) and prints TAP:
tiertune against the kernel's own auto weights, before and after a DIMM
hot-added over QMP into the CPU-less node 3, and the unit's command around
that node's memory.

    auto-check.py SERIAL_LOG TIERTUNE
"""
import json
import re
import sys

from guestlog import block, finish, jblock, load, tap

log_path, tiertune = sys.argv[1:3]
log = load(log_path)


def sysfs(name):
    """A wi block: the auto mode ("auto", or "__auto_type" on kernels built
    with the macro) as True/False/None, and {node: weight}."""
    rc, out = block(name)
    mode, w = None, {}
    for line in out.splitlines():
        f = line.split()
        if len(f) != 2:
            continue
        if f[0] in ("auto", "__auto_type"):
            mode = {"true": True, "false": False}.get(f[1])
        elif re.match(r"node\d+$", f[0]) and f[1].isdigit():
            w[int(f[0][4:])] = int(f[1])
    return mode, w


def formula(name):
    """tiertune's auto-mode formula (export --weights auto) at that point."""
    rc, j = jblock(name)
    try:
        return {int(k): v for k, v in j["recommendations"][0]["weights"].items()}
    except (TypeError, KeyError, IndexError, ValueError):
        return None


def topo_view(name):
    """What tiertune topo says the upstream interface holds: (auto, weights)."""
    rc, j = jblock(name)
    up = [i for i in (j or {}).get("weight_interfaces", []) if i["name"] == "upstream"]
    if rc or not up:
        return None, None
    return up[0].get("auto"), {int(k): v for k, v in (up[0].get("weights") or {}).items()}


def reported(name):
    """What restore --json says it wrote: (auto, {node: weight})."""
    rc, j = jblock(name)
    mode, w = None, {}
    for x in (j or {}).get("writes", []):
        m = re.search(r"/(node(\d+)|auto|__auto_type)$", x["file"])
        if m and m.group(2):
            w[int(m.group(2))] = int(x["new"])
        elif m:
            mode = {"true": True, "false": False}.get(x["new"])
    return rc, mode, w


rc, out = block("uname")
release = out.strip()
major = tuple(int(x) for x in re.findall(r"\d+", release)[:2])
boot_mode, boot = sysfs("boot-sysfs")
tap(rc == 0 and major >= (6, 16) and boot_mode is True,
    "guest kernel %s has the auto mode, on at boot" % release, out + block("boot-sysfs")[1])

# At boot: the kernel's auto weights (from HMAT, nodes 0-2) are tiertune's
# formula, and topo reports them as they are.
f = formula("boot-formula")
tap(boot and sorted(boot) == [0, 1, 2] and f == boot,
    "boot: the kernel's auto weights %s are tiertune's --weights auto %s" % (boot, f),
    block("boot-sysfs")[1] + block("boot-formula")[1])
mode, w = topo_view("boot-topo")
tap(mode is True and w == boot, "boot: topo reports auto mode on and weights %s" % w,
    block("boot-topo")[1][-2000:])

# apply turns auto off; restore --auto turns it on, and the kernel puts its
# own weights back, which restore reports.
rc, out = block("apply")
mode, w = sysfs("apply-sysfs")
tap(rc == 0 and mode is False and w == {0: 5, 1: 4, 2: 2},
    "apply --weights 0:5,1:4,2:2: written, auto mode off (%s)" % w, out + block("apply-sysfs")[1])
for name, after in (("restore-auto", "restore-auto-sysfs"), ("restore-auto2", "restore-auto2-sysfs")):
    rc, rmode, rw = reported(name)
    mode, w = sysfs(after)
    tap(rc == 0 and mode is True and w == boot and rmode is True and rw == w,
        "restore --auto (%s): auto mode on, the kernel's weights %s back, and reported so (%s)"
        % (name, w, rw), block(name)[1][-1500:] + block(after)[1])
rc, out = block("apply-auto")
mode, w = sysfs("apply-auto-sysfs")
tap(rc == 0 and mode is False and w == boot,
    "apply --weights auto writes what the kernel's auto mode computed (%s), auto mode off" % w,
    out + block("apply-auto-sysfs")[1])

# The hot-add over QMP: node 3 gets memory, its weight file appears, and the
# kernel recomputes every weight from the four nodes' bandwidths.
qmp = re.findall(r'^qmp-hotadd: (\{"execute": "(?:object-add|device_add)".*) -> (.*)$', log, re.M)
hblocks = block("hotadd-blocks")[1].split()
tap(len(qmp) == 2 and all(r == '{"return": {}}' for _, r in qmp) and hblocks
    and all(s == "online" for s in hblocks[1::2])
    and "has_memory 0-3" in block("hotadd-nodes")[1],
    "a 1 GiB DIMM hot-added over QMP into CPU-less node 3: %d blocks online, has_memory 0-3"
    % (len(hblocks) // 2), "\n".join("%s -> %s" % x for x in qmp) + "\n" + block("hotadd-blocks")[1]
    + block("hotadd-nodes")[1] + log[-1500:])
hot_mode, hot = sysfs("hotadd-sysfs")
f = formula("hotadd-formula")
tap(hot_mode is True and sorted(hot) == [0, 1, 2, 3] and f == hot,
    "after the hot-add: the kernel's auto weights %s are tiertune's --weights auto %s" % (hot, f),
    block("hotadd-sysfs")[1] + block("hotadd-formula")[1])
tap(boot and hot and any(hot.get(k) != v for k, v in boot.items()),
    "the kernel recomputed the weights of the nodes it had (%s at boot, %s now)"
    % (boot, {k: hot.get(k) for k in boot}), "boot %s\nafter %s" % (boot, hot))
mode, w = topo_view("hotadd-topo")
rc, j = jblock("hotadd-topo")
n3 = [x for x in (j or {}).get("nodes", []) if x["id"] == 3]
n3 = n3[0] if n3 else {}
tier01 = {x["id"]: x["tier"] for x in (j or {}).get("nodes", [])}
hm = n3.get("hmat_access1") or {}
tap(mode is True and w == hot and n3.get("has_memory") and n3.get("cpus") == []
    and hm.get("read_bw_bytes_s") == 4096 * 10**6 and hm.get("read_lat_ns") == 500
    and n3.get("tier") not in (tier01.get(0), None),
    "after the hot-add: topo reports auto mode on, weights %s, and node 3 with memory, no CPU, "
    "its HMAT figures (4096 MB/s, 500 ns) and a tier of its own (%s)" % (w, n3.get("tier")),
    json.dumps(n3)[:1500] + "\n" + str((mode, w)))

# The unit's command around node 3's memory: offline, it waits and writes
# nothing; online again, it applies; restore --auto gives the kernel's four
# weights back.
rc, p = jblock("unit-profile")
pw = None
try:
    pw = {int(k): v for k, v in p["recommendations"][0]["weights"].items()}
except (TypeError, KeyError, IndexError, ValueError):
    pass
tap(pw == {0: 7, 1: 5, 2: 3, 3: 2}, "a profile of the machine with node 3's memory: %s" % pw,
    block("unit-profile")[1][-1500:])
off_mode, off = sysfs("offline-sysfs")
rc, out = block("unit-wait")
mode, w = sysfs("unit-wait-sysfs")
offline = block("offline-blocks")[1].split()
tap(offline and all(s == "offline" for s in offline[1::2])
    and "online 0-3" in block("offline-nodes")[1] and "has_memory 0-2" in block("offline-nodes")[1]
    and rc == 3 and "node 3" in out and mode is True and w == off,
    "node 3 online without memory: the unit's command waits (exit 3, names node 3), writes "
    "nothing, auto mode stays on (exit %d)" % rc,
    out + block("offline-nodes")[1] + block("unit-wait-sysfs")[1])
rc, out = block("unit-apply")
mode, w = sysfs("unit-apply-sysfs")
tmode, tw = topo_view("unit-topo")
tap(rc == 0 and "online" in block("online-blocks")[1] and mode is False and w == pw
    and tmode is False and tw == w,
    "node 3's memory online again: the unit's command applies the profile (%s), auto mode off, "
    "topo reports it" % w, out + block("unit-apply-sysfs")[1])
rc, rmode, rw = reported("unit-restore-auto")
end_mode, end = sysfs("end-sysfs")
f = formula("end-formula")
tmode, tw = topo_view("end-topo")
tap(rc == 0 and end_mode is True and end == hot and f == end and rmode is True and rw == end
    and tmode is True and tw == end,
    "restore --auto on four nodes: the kernel's weights %s back, tiertune's formula, restore's "
    "report and topo all say so" % end,
    block("unit-restore-auto")[1][-1500:] + block("end-sysfs")[1] + str((f, rw, tw)))
tap("apply.journal" not in block("journal")[1], "no journal left", block("journal")[1])
finish()
