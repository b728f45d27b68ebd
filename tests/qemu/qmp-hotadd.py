#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The host's side of a memory hot-add: waits until the guest prints
@@TT-HOTADD on its serial console, then over QEMU's QMP socket adds a RAM
backend and a pc-dimm on it in the given node (ACPI memory hotplug: the
guest's kernel adds the DIMM's blocks to that node). Prints each command
and QEMU's answer; exit 1 when the guest ended first or QEMU refused.

    qmp-hotadd.py SOCKET SERIAL_FILE NODE SIZE_BYTES [TIMEOUT_S]
"""
import json
import os
import socket
import sys
import time

sock_path, serial, node, size = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
deadline = time.time() + (float(sys.argv[5]) if len(sys.argv) > 5 else 600)


def seen(marker):
    try:
        with open(serial, "rb") as f:
            return marker in f.read()
    except OSError:
        return False


while not seen(b"@@TT-HOTADD"):
    if seen(b"@@TT-DONE") or time.time() > deadline:
        print("qmp-hotadd: the guest never asked for the hot-add")
        sys.exit(1)
    time.sleep(0.5)

s = socket.socket(socket.AF_UNIX)
s.connect(sock_path)
f = s.makefile("rw")


def reply():
    """The next answer, skipping QMP's asynchronous events."""
    while True:
        line = f.readline()
        if not line:
            raise EOFError("QMP socket closed")
        msg = json.loads(line)
        if "event" not in msg:
            return msg


def execute(cmd, **args):
    req = {"execute": cmd}
    if args:
        req["arguments"] = args
    f.write(json.dumps(req) + "\n")
    f.flush()
    ans = reply()
    print("qmp-hotadd: %s -> %s" % (json.dumps(req), json.dumps(ans)))
    if "error" in ans:
        sys.exit(1)


print("qmp-hotadd: greeting %s" % json.dumps(reply())[:200])
execute("qmp_capabilities")
execute("object-add", **{"qom-type": "memory-backend-ram", "id": "hot%d" % node, "size": size})
execute("device_add", driver="pc-dimm", id="dimm%d" % node, memdev="hot%d" % node, node=node)
sys.stdout.flush()
os._exit(0)
