#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# make check-qemu: tiertune on a real 3-node kernel. Boots Debian's 6.12
# cloud kernel under QEMU (TCG) with an initramfs of static busybox, our
# binaries and the libraries ldd lists for them, runs guest.sh inside, and
# checks its output on the host (check.py). TAP output; a machine without
# QEMU skips with the reason (fails, under CI=true).
#
#	tests/qemu/run.sh [BUILD]      TT_QEMU_SEED, TT_QEMU_CASES, TT_QEMU_TIMEOUT
set -u
build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
# Outside CI a machine that cannot run the suite skips it, saying why; in CI
# (CI=true) that is a failure: a green CI must mean the suite ran.
skip() {
	if [ "${CI:-}" = true ]; then
		printf '1..1\nnot ok 1 - the QEMU suite cannot run: %s\n' "$*"
		echo "0 passed, 1 failed"
		exit 1
	fi
	echo "1..0 # SKIP $*"
	exit 0
}

# make deps installs these (packages.debian).
need=()
command -v qemu-system-x86_64 >/dev/null || need+=(qemu-system-x86)
[ -x /bin/busybox ] && ! ldd /bin/busybox >/dev/null 2>&1 || need+=(busybox-static)
command -v cpio >/dev/null || need+=(cpio)
[ ${#need[@]} -eq 0 ] || skip "QEMU test needs ${need[*]} (make deps installs them)"
kernel=$("$here/fetch-kernel.sh" 2>"$build/qemu-fetch.err") ||
	skip "no 6.12 cloud kernel: $(cat "$build/qemu-fetch.err")"

work=$(mktemp -d "${TMPDIR:-/tmp}/tiertune-qemu.XXXXXX")
trap 'rm -rf "$work"' EXIT
root=$work/root
mkdir -p "$root/bin"
cp /bin/busybox "$root/bin/busybox"
cp "$build/tiertune" "$root/bin/tiertune"
cp "$build/tests/qemu-pagemap" "$root/bin/pagemap"
# tiertop, when built (ncursesw): guest.sh checks its process panel.
[ ! -x "$build/tiertop" ] || cp "$build/tiertop" "$root/bin/tiertop"
# Shared libraries at the paths the dynamic linker will look in.
for bin in "$root"/bin/tiertune "$root"/bin/pagemap "$root"/bin/tiertop; do
	[ -e "$bin" ] || continue
	ldd "$bin" | awk '/=> \// {print $3} /^\t\/.*ld-linux/ {print $1}'
done | sort -u | while read -r lib; do
	cp --parents -L "$lib" "$root"
done
cp "$here/init" "$root/init"
cp "$here/guest.sh" "$root/guest.sh"
cp "$here/guest-rebalance.sh" "$root/guest-rebalance.sh"
chmod +x "$root/init"
seed=${TT_QEMU_SEED:-$(date +%s)}
python3 - "$seed" "${TT_QEMU_CASES:-60}" >"$root/cases.txt" <<'PY'
import random, sys
rng = random.Random(int(sys.argv[1]))
for _ in range(int(sys.argv[2])):
    nodes = sorted(rng.sample([0, 1, 2], rng.choice([2, 3])))
    print(",".join(map(str, nodes)), ",".join("%d:%d" % (n, rng.randint(1, 255)) for n in nodes),
          rng.randint(1, 4000), rng.randint(0, 511))
# Small weights over many pages: more than 16384 runs, where exact placement
# switches from mbind per run to first touch under per-node bind policies.
print("0,1,2 0:1,1:1,2:1 40000 7")
print("0,2 0:2,2:1 60000 100")
print("1,2 1:3,2:2 50000 0")
PY
cp "$root/cases.txt" "$work/cases.txt"
(cd "$root" && find . | cpio -o -H newc 2>/dev/null | gzip -1) >"$work/initrd.gz"

# Three nodes: 0 and 1 with two CPUs each, 2 memory-only behind initiator 0,
# slower in HMAT so that it lands in its own tier (see
# tests/fixtures/sysfs/qemu-3node-hmat/SOURCE). qemu64 without cmpxchg16b:
# QEMU 7.2's default model double-faults this guest about one boot in three.
hmat() { echo "-numa hmat-lb,initiator=$1,target=$2,hierarchy=memory,data-type=access-latency,latency=$3" \
	"-numa hmat-lb,initiator=$1,target=$2,hierarchy=memory,data-type=access-bandwidth,bandwidth=$4"; }
start=$(date +%s.%N)
# shellcheck disable=SC2046
timeout "${TT_QEMU_TIMEOUT:-480}" qemu-system-x86_64 -machine q35,hmat=on -cpu qemu64,-cx16 \
	-smp 4 -m 6G -net none -nographic -no-reboot \
	-object memory-backend-ram,size=2G,id=m0 -object memory-backend-ram,size=2G,id=m1 \
	-object memory-backend-ram,size=2G,id=m2 \
	-numa node,nodeid=0,cpus=0-1,memdev=m0 -numa node,nodeid=1,cpus=2-3,memdev=m1 \
	-numa node,nodeid=2,memdev=m2,initiator=0 \
	$(hmat 0 0 100 20G) $(hmat 1 1 100 20G) $(hmat 0 2 400 5G) \
	-kernel "$kernel" -initrd "$work/initrd.gz" \
	-append "console=ttyS0 panic=-1 init_on_alloc=0 quiet" </dev/null 2>&1 |
	tr -d '\r' >"$work/serial.log"
qemu_rc=${PIPESTATUS[0]}
elapsed=$(python3 -c "import time; print('%.1f' % (time.time() - $start))")
echo "# QEMU exit $qemu_rc after $elapsed s (kernel $(basename "$kernel"), seed $seed)"
cp "$work/serial.log" "$build/qemu-serial.log"
python3 "$here/check.py" "$work/serial.log" "$work/cases.txt" "$build/tiertune" \
	"$top/tests/fixtures/sysfs/qemu-3node-hmat"
