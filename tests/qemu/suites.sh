# SPDX-License-Identifier: GPL-3.0-or-later
# Runs inside the 6.12 guest in place of guest.sh when run.sh is given
# TT_QEMU_SUITES=NAME[,NAME...] (tt.suites= on the kernel command line): only
# those guest-NAME.sh suites, each as guest.sh runs it, so that one suite is
# checked in minutes while working on it. suites.py checks their blocks.
. /lib.sh

echo # the console's first line carries escape codes
block uname uname -r
suites=
for arg in $(cat /proc/cmdline); do
	case $arg in tt.suites=*) suites=${arg#tt.suites=} ;; esac
done
for name in $(echo "$suites" | tr ',' ' '); do
	block "suite-$name" test -e "/guest-$name.sh"
	run_hook "/guest-$name.sh"
done
