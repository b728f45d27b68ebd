# SPDX-License-Identifier: GPL-3.0-or-later
# Runs inside the QEMU guest on a kernel with the weighted-interleave auto
# mode (6.16+), booted by run.sh as two sockets each with a CPU-less node:
# nodes 0 and 1 with two CPUs each, node 2 (memory at boot) behind node 0,
# node 3 behind node 1 with no memory until the host hot-adds a DIMM over
# QMP (when this script prints @@TT-HOTADD). auto-check.py holds the blocks
# (lib.sh) to the kernel's own auto weights.
. /lib.sh
NODE=/sys/devices/system/node

# Every file of the weights folder, "NAME VALUE": the auto mode's file
# (auto, or __auto_type on kernels built with the macro) and each nodeN.
wi() {
	for f in "$WI"/*; do echo "${f##*/} $(cat "$f")"; done
}
# Node 3's memory blocks and their state, "memoryN STATE".
blocks3() {
	for m in "$NODE"/node3/memory[0-9]*; do
		[ -e "$m/state" ] && echo "${m##*/} $(cat "$m/state")"
	done
}
# snap NAME: the weights in sysfs, tiertune's view of them (topo) and its
# auto-mode formula on the HMAT figures it reads, at this point.
snap() {
	block "$1-sysfs" wi
	block "$1-nodes" sh -c "echo online \$(cat $NODE/online); echo has_memory \$(cat $NODE/has_memory)"
	block "$1-topo" tiertune topo --json
	block "$1-formula" tiertune export --weights auto --format json
}

echo # the console's first line carries escape codes
block uname uname -r
snap boot

# apply, restore --auto and apply --weights auto against the kernel's own
# auto weights (the boot ones, from HMAT).
block apply tiertune apply --weights 0:5,1:4,2:2
block apply-sysfs wi
block restore-auto tiertune restore --auto --json
block restore-auto-sysfs wi
block apply-auto tiertune apply --weights auto
block apply-auto-sysfs wi
block restore-auto2 tiertune restore --auto --json
block restore-auto2-sysfs wi

# The host hot-adds a 1 GiB DIMM into node 3 (CPU-less, empty at boot); the
# kernel onlines it (memhp_default_state=online_movable), registers node 3's
# HMAT figures and recomputes every auto weight.
echo "@@TT-HOTADD"
i=0
while [ $i -lt 600 ] && ! { [ -e "$WI/node3" ] && grep -q 'Node 3 MemTotal: *[1-9]' "$NODE/node3/meminfo" 2>/dev/null &&
	! blocks3 | grep -qv ' online$'; }; do
	sleep 0.5
	i=$((i + 1))
done
block hotadd-waited echo "$i half-seconds"
block hotadd-blocks blocks3
snap hotadd

# The unit's command (tiertune-apply.service) around node 3's memory: a
# profile of this machine, all four nodes; with node 3's memory offline
# (node 3 online, no memory: the state a hot-add is in before its blocks
# are onlined) it waits, writing nothing; with it online again it applies.
tiertune export --weights 0:7,1:5,2:3,3:2 --format json -o /tmp/profile.json >/tmp/export.out 2>&1
block unit-profile sh -c 'cat /tmp/export.out; cat /tmp/profile.json'
for m in "$NODE"/node3/memory[0-9]*; do echo offline >"$m/state"; done
block offline-blocks blocks3
snap offline
block unit-wait tiertune apply --profile /tmp/profile.json
block unit-wait-sysfs wi
for m in "$NODE"/node3/memory[0-9]*; do echo online_movable >"$m/state"; done
block online-blocks blocks3
block unit-apply tiertune apply --profile /tmp/profile.json
block unit-apply-sysfs wi
block unit-topo tiertune topo --json
# And back to the kernel's auto weights, now over four nodes.
block unit-restore-auto tiertune restore --auto --json
snap end
block journal ls /tmp/state
