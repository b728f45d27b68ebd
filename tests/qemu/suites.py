#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The checks of the suites named in TT_QEMU_SUITES alone (suites.sh ran
their guest-NAME.sh): each check-NAME.py, in the names check.py gives it.
A suite named but not there fails.

    suites.py SERIAL_LOG TIERTUNE FIXTURE_ROOT SUITES
"""
import os
import sys

from guestlog import block, finish, jblock, load, skip, tap  # noqa: F401 (the hooks' names)

log_path, tiertune, fixture, suites = sys.argv[1:5]
log = load(log_path)
rc, out = block("uname")
tap(rc == 0 and out.startswith("6.12."), "guest kernel is 6.12: %s" % out.strip(), out)
here = os.path.dirname(os.path.abspath(__file__))
for name in suites.split(","):
    path = os.path.join(here, "check-%s.py" % name)
    rc, out = block("suite-" + name)
    if not tap(rc == 0 and os.path.exists(path),
               "suite %s: guest-%s.sh ran in the guest and check-%s.py is here" % (name, name, name),
               out):
        continue
    exec(compile(open(path).read(), path, "exec"))
finish()
