# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by run.sh and systemd.sh: the QEMU machines the suites boot.
#
# qemu_tcg QEMU_ARGS...: QEMU under TT_QEMU_TIMEOUT on the CPU every suite's
# guest runs: qemu64 without cmpxchg16b (QEMU 7.2's default model
# double-faults the 6.12 guest about one boot in three), which has no AVX
# (the kernels' run-time fallback is tested there), on single-threaded TCG.
# QEMU 7.2's multi-threaded TCG (Debian 12's) races with the guest kernel's
# own code patching: another vCPU runs a patch's int3 after the patch is
# done, "Oops: int3" and a panic at boot, 3 boots in 210 here, none in 360
# single-threaded (QEMU 8.1 fixed the race upstream).
qemu_tcg() {
	timeout "${TT_QEMU_TIMEOUT:-480}" qemu-system-x86_64 -machine q35,hmat=on -accel tcg,thread=single \
		-cpu qemu64,-cx16 "$@"
}

# hmat INITIATOR TARGET LATENCY_NS BANDWIDTH: one HMAT memory entry.
hmat() { echo "-numa hmat-lb,initiator=$1,target=$2,hierarchy=memory,data-type=access-latency,latency=$3" \
	"-numa hmat-lb,initiator=$1,target=$2,hierarchy=memory,data-type=access-bandwidth,bandwidth=$4"; }

# boot_hotadd KERNEL INITRD SERIAL_FILE QMP_SOCKET APPEND [QEMU_ARGS...]:
# the auto-mode kernel's machine, two sockets (nodes 0 and 1, two CPUs each)
# each with a CPU-less node: node 2 behind node 0 with 1 GiB at boot, node 3
# behind node 1 with none until qmp-hotadd.py adds a 1 GiB DIMM into it
# (ACPI memory hotplug: slots and maxmem) when the guest prints @@TT-HOTADD
# on its first serial port (SERIAL_FILE). The bandwidths differ (20, 20, 8
# and 4 GiB/s) so that the kernel's auto weights differ at each step:
# 13:13:5 at boot, 6:6:2:1 once node 3 has memory. The guest's memory is
# onlined movable (memhp_default_state), so that a test can offline it again.
# Runs QEMU (qemu_tcg) and the QMP side beside it (its log: SERIAL_FILE.qmp);
# returns QEMU's exit status. HOTADD_WATCH names another file to watch for
# @@TT-HOTADD (a second serial port the QEMU_ARGS add).
boot_hotadd() {
	local kernel=$1 initrd=$2 serial=$3 qmp=$4 append=$5 pid rc
	shift 5
	rm -f "$serial" "$qmp"
	# shellcheck disable=SC2046
	qemu_tcg -smp 4 -m 5G,slots=2,maxmem=7G -net none -display none -monitor none -no-reboot \
		-serial "file:$serial" -qmp "unix:$qmp,server=on,wait=off" \
		-object memory-backend-ram,size=2G,id=m0 -object memory-backend-ram,size=2G,id=m1 \
		-object memory-backend-ram,size=1G,id=m2 \
		-numa node,nodeid=0,cpus=0-1,memdev=m0 -numa node,nodeid=1,cpus=2-3,memdev=m1 \
		-numa node,nodeid=2,memdev=m2,initiator=0 -numa node,nodeid=3,initiator=1 \
		$(hmat 0 0 100 20G) $(hmat 1 1 100 20G) $(hmat 0 2 300 8G) $(hmat 1 3 500 4G) \
		-kernel "$kernel" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 init_on_alloc=0 memhp_default_state=online_movable $append" \
		"$@" </dev/null >"$serial.qemu" 2>&1 &
	pid=$!
	python3 "$(dirname "${BASH_SOURCE[0]}")/qmp-hotadd.py" "$qmp" "${HOTADD_WATCH:-$serial}" 3 $((1 << 30)) \
		"${TT_QEMU_TIMEOUT:-480}" >"$serial.qmp" 2>&1
	wait $pid
	rc=$?
	cat "$serial.qemu" >>"$serial.qmp"
	return $rc
}
