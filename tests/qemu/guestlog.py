# SPDX-License-Identifier: GPL-3.0-or-later
"""What the host's checks of a QEMU guest share (check.py, auto-check.py and
the check-NAME.py hooks): the blocks of the serial log (lib.sh's markers)
and TAP output.

    from guestlog import tap, skip, finish, load, block, jblock, blocks
"""
import json
import re
import sys

n = 0
failed = 0
blocks = {}


def tap(ok, desc, diag=""):
    """One test; a failure prints the last 25 lines of its diagnosis."""
    global n, failed
    n += 1
    print(("ok %d - %s" if ok else "not ok %d - %s") % (n, desc))
    if not ok:
        failed += 1
        for line in str(diag).splitlines()[-25:]:
            print("# " + line)
    return bool(ok)


def skip(why):
    global n
    n += 1
    print("ok %d # SKIP %s" % (n, why))


def finish():
    print("1..%d" % n)
    sys.exit(1 if failed else 0)


# The lines that name a guest kernel's failure: a tail alone is the CPUs'
# interleaved backtraces, not what went wrong.
FAULT = re.compile(r"\] (Oops|BUG|Kernel panic|general protection|double fault|"
                   r"WARNING|RIP:|watchdog|rcu: INFO)")


def crash_report(log):
    """What a guest that never finished printed: the kernel's first fault
    lines (at most 8), then the log's last lines."""
    lines = log.splitlines()
    faults = [line for line in lines if FAULT.search(line)][:8]
    head = ["the kernel's fault lines:"] + faults + ["last lines:"] if faults else []
    return "\n".join(head + lines[-(24 - len(head)):])


def load(path, what="the guest"):
    """Reads the serial log's blocks; the first test is that the guest ran
    its script to the end and powered off (else crash_report, and stop).
    The blocks of an earlier load are forgotten."""
    log = open(path, errors="replace").read()
    blocks.clear()
    for m in re.finditer(r"^@@TT-BEGIN (\S+)\n(.*?)^@@TT-END \1 rc=(\d+)$", log, re.S | re.M):
        blocks[m.group(1)] = (int(m.group(3)), m.group(2))
    done = re.search(r"^@@TT-DONE rc=(\d+)$", log, re.M)
    tap(done is not None, "%s ran every test and powered off" % what, crash_report(log))
    if not done:
        finish()
    return log


def block(name):
    """(exit status, output) of a block; -1 and a note when it is missing."""
    return blocks.get(name, (-1, "(no output: block %s missing)" % name))


def jblock(name):
    rc, out = block(name)
    try:
        return rc, json.loads(out)
    except ValueError:
        return rc, None
