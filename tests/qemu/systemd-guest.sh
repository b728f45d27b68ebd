#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs inside systemd.sh's Debian guest (real systemd and udev, the package
# installed) as tt-qemu-test.service, after multi-user.target; its blocks
# (lib.sh) go to the second serial port, read by systemd-check.py.
#	tt.phase=tune: the host tuned: node 3 hot-added, then a profile of the
#	    whole machine exported (systemd.sh puts it in the next root).
#	tt.phase=fleet: a host of the same hardware booting with that profile
#	    and tiertune-apply.service enabled, node 3 not there yet: what the
#	    unit did at boot, then the hot-add and what the udev rule and the
#	    unit did then.
exec >/dev/ttyS1 2>&1
. /tt/lib.sh
NODE=/sys/devices/system/node
phase=$(sed -n 's/.*tt\.phase=\([a-z]*\).*/\1/p' /proc/cmdline)
wi() {
	for f in "$WI"/*; do echo "${f##*/} $(cat "$f")"; done
}
unit() { # what systemd says of the apply unit, and its journal this boot
	systemctl show -p ActiveState -p Result -p ExecMainStatus -p NRestarts tiertune-apply.service
	echo "system $(systemctl is-system-running)"
	echo "failed units: $(systemctl list-units --failed --no-legend --plain | cut -d' ' -f1 | paste -sd' ')"
	journalctl -b --no-pager -o short-monotonic -u tiertune-apply.service -u tiertune-hotplug.service
}
hotadd() { # asks the host for the DIMM, waits for node 3's weight file
	echo "@@TT-HOTADD"
	i=0
	while [ $i -lt 240 ] && ! [ -e "$WI/node3" ]; do
		sleep 0.5
		i=$((i + 1))
	done
	udevadm settle --timeout=60
	echo "waited $i half-seconds"
}

# The fleet boot's hot-add onlined block by block, 1 s apart, as a large
# device onlines over seconds (daxctl online-memory, or the kernel's own
# onlining of 2048 blocks): the guest boots with memhp_default_state=offline
# (systemd.sh) and onlines node 3's blocks here. One apply must come of it.
hotadd_stepwise() {
	echo "@@TT-HOTADD"
	i=0
	while [ $i -lt 240 ] && ! ls -d $NODE/node3/memory[0-9]* >/dev/null 2>&1; do
		sleep 0.5
		i=$((i + 1))
	done
	udevadm settle --timeout=60
	for b in $NODE/node3/memory[0-9]*; do
		[ "$(cat "$b/state")" = online ] && continue
		echo online_movable >"$b/state" && echo "${b##*/} online at $(cut -d' ' -f1 /proc/uptime) s"
		sleep 1
	done
	udevadm settle --timeout=60
	echo "waited $i half-seconds for the blocks"
}

echo
block uname uname -r
block installed sh -c 'dpkg-query -W tiertune; ls /lib/systemd/system/tiertune-* /lib/udev/rules.d/85-tiertune.rules'
case $phase in
tune)
	block boot-sysfs wi
	block hotadd hotadd
	block hotadd-sysfs wi
	block profile tiertune export --weights 0:7,1:5,2:3,3:2 --format json
	;;
fleet)
	block boot-unit unit
	# The order: the apply unit against basic.target, after which the
	# ordinary services (the workloads) start.
	block boot-order journalctl -b --no-pager -o short-monotonic -u basic.target -u tiertune-apply.service
	block boot-sysfs wi
	block hotadd hotadd_stepwise
	# The udev rule starts the unit (through tiertune-hotplug.service where
	# the package has it): wait until it has applied and no tiertune unit
	# has a job left (this test's own unit's job runs until it ends).
	end=$(($(date +%s) + 180))
	while [ "$(date +%s)" -lt $end ]; do
		[ "$(cat "$WI/node3")" = 2 ] && ! systemctl list-jobs --no-legend | grep -q tiertune- && break
		sleep 1
	done
	block hotadd-sysfs wi
	block hotadd-unit unit
	block udev-online cat /run/tt-memory-online
	block history sh -c 'ls -l /var/lib/tiertune; TIERTUNE_STATE_DIR=/var/lib/tiertune tiertune restore --last --dry-run'
	;;
esac
echo "@@TT-DONE rc=0"
systemctl --no-block poweroff || systemctl poweroff --force
