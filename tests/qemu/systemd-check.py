#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks systemd.sh's two boots (systemd-guest.sh's blocks) and prints TAP:
the installed package's unit and udev rule on a Debian guest with systemd,
around a DIMM hot-added into node 3.

    systemd-check.py TUNE_LOG FLEET_LOG PROFILE
"""
import json
import re
import sys

from guestlog import block, finish, jblock, load, tap

tune_log, fleet_log, profile_path = sys.argv[1:4]


def sysfs(name):
    """A wi block: (auto mode True/False/None, {node: weight})."""
    mode, w = None, {}
    for line in block(name)[1].splitlines():
        f = line.split()
        if len(f) == 2 and f[0] in ("auto", "__auto_type"):
            mode = {"true": True, "false": False}.get(f[1])
        elif len(f) == 2 and re.match(r"node\d+$", f[0]) and f[1].isdigit():
            w[int(f[0][4:])] = int(f[1])
    return mode, w


def runs(journal):
    """The apply unit's runs in a journal: the lines systemd logs as it
    starts it."""
    return len(re.findall(r"Start(?:ing|ed) tiertune-apply\.service|Starting Apply the interleave", journal))


# The tuned host: the package installed, node 3 hot-added, a profile.
log = load(tune_log, "the tune boot (systemd)")
rc, out = block("installed")
tap(rc == 0 and re.search(r"^tiertune\t", out, re.M) and "tiertune-apply.service" in out
    and "85-tiertune.rules" in out,
    "the package (make deb) installed by dpkg in a Debian root with systemd and udev: %s"
    % (out.splitlines() or ["?"])[0].replace("\t", " "), out)
boot_mode, boot = sysfs("boot-sysfs")
hot_mode, hot = sysfs("hotadd-sysfs")
tap(rc == 0 and boot_mode is True and sorted(boot) == [0, 1, 2] and sorted(hot) == [0, 1, 2, 3],
    "tune boot: auto weights %s at boot, %s once node 3's DIMM is hot-added" % (boot, hot),
    block("boot-sysfs")[1] + block("hotadd")[1] + block("hotadd-sysfs")[1] + log[-1500:])
try:
    profile = json.load(open(profile_path))
    pw = {int(k): v for k, v in profile["recommendations"][0]["weights"].items()}
except (OSError, ValueError, KeyError, IndexError, TypeError):
    profile, pw = None, None
tap(pw == {0: 7, 1: 5, 2: 3, 3: 2}, "the tuned host's profile, for the fleet: %s" % pw,
    block("profile")[1][-1500:])

# The fleet host: the unit enabled with that profile, booted without node 3.
log = load(fleet_log, "the fleet boot (systemd)")
rc, unit_boot = block("boot-unit")
mode, w = sysfs("boot-sysfs")
state = dict(re.findall(r"^(ActiveState|Result|ExecMainStatus)=(\S*)$", unit_boot, re.M))
tap(mode is True and w == boot and runs(unit_boot) >= 1 and "node 3" in unit_boot,
    "fleet boot, node 3 absent: the unit ran at boot, wrote nothing (auto mode on, %s) and its "
    "journal names node 3 (unit %s, exit %s)"
    % (w, state.get("Result"), state.get("ExecMainStatus")), unit_boot[-2500:] + block("boot-sysfs")[1])
failed = re.search(r"^failed units: (.*)$", unit_boot, re.M)
# The wait for node 3 (exit 3) is no failure: the unit's result is success
# with status 3, and no unit failed (the host is not "degraded").
tap(state.get("Result") == "success" and state.get("ExecMainStatus") == "3"
    and failed is not None and failed.group(1).strip() == ""
    and "tiertune-apply.service: Failed" not in unit_boot,
    "fleet boot: the wait for node 3 (exit 3) is no unit failure (result %s, status %s, "
    "failed units: '%s')" % (state.get("Result"), state.get("ExecMainStatus"),
                             failed.group(1).strip() if failed else "?"), unit_boot[-2500:])
# Before the workloads: the apply finished before basic.target was reached
# (ordinary services start after it).
rc, order = block("boot-order")
done_at = re.search(r"^\[\s*([\d.]+)\] .*(?:Finished|Failed to start) tiertune-apply\.service", order, re.M)
basic_at = re.search(r"^\[\s*([\d.]+)\] .*Reached target basic\.target", order, re.M)
tap(done_at is not None and basic_at is not None
    and float(done_at.group(1)) <= float(basic_at.group(1)),
    "fleet boot: the unit's run ended (%s s) before basic.target (%s s), before the workloads"
    % (done_at and done_at.group(1), basic_at and basic_at.group(1)), order[-2500:])
rc, unit_hot = block("hotadd-unit")
mode, w = sysfs("hotadd-sysfs")
state = dict(re.findall(r"^(ActiveState|Result|ExecMainStatus)=(\S*)$", unit_hot, re.M))
after = runs(unit_hot) - runs(unit_boot)
tap(mode is False and w == pw and state.get("Result") == "success" and after >= 1
    and "values written and read back" in unit_hot,
    "node 3 hot-added over QMP: udev's rule ran the unit (%d runs), which applied the profile "
    "(%s, auto mode off)" % (after, w), unit_hot[-3000:] + block("hotadd-sysfs")[1] + log[-800:])
# The debounce: the hot-add's memory blocks, each its own udev event (counted
# by a rule of the test's own beside the package's), gave one start of
# tiertune-hotplug.service and one apply. Without it, 8 applies for 1 GiB.
rc, events = block("udev-online")
blocks_on = len(re.findall(r"^memory\d+$", events, re.M))
hotplug = len(re.findall(r"Starting (?:tiertune-hotplug\.service|Apply /etc/tiertune/profile\.json once)",
                         unit_hot))
tap(rc == 0 and blocks_on >= 2 and hotplug == 1 and after == 1,
    "the debounce: %d memory blocks onlined (%d udev events) gave %d hotplug run and %d apply"
    % (blocks_on, blocks_on, hotplug, after), events + unit_hot[-3000:])
rc, out = block("history")
tap(rc == 0 and "apply.history" in out, "the unit's apply is in /var/lib/tiertune's undo history",
    out)
finish()
