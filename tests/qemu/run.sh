#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# make check-qemu: tiertune on real multi-node kernels. Boots Debian's 6.12
# cloud kernel under QEMU (TCG) with an initramfs of static busybox, our
# binaries and the libraries ldd lists for them, runs guest.sh inside, and
# checks its output on the host (check.py); then a kernel with the
# weighted-interleave auto mode (6.16+) on a 4-node layout of its own, with a
# DIMM hot-added over QMP while auto.sh runs (auto-check.py). One TAP
# stream; a machine without QEMU skips with the reason (fails, under
# CI=true).
#
#	tests/qemu/run.sh [BUILD]      TT_QEMU_SEED, TT_QEMU_CASES, TT_QEMU_TIMEOUT
set -u
# The checkers import guestlog.py: no __pycache__ in the source tree.
export PYTHONDONTWRITEBYTECODE=1
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
kernel=$("$here/fetch-kernel.sh" 6.12 2>"$build/qemu-fetch.err") ||
	skip "no 6.12 cloud kernel: $(cat "$build/qemu-fetch.err")"
kernel_auto=$("$here/fetch-kernel.sh" auto 2>"$build/qemu-fetch-auto.err") || kernel_auto=

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
cp "$here/init" "$here/lib.sh" "$here/guest.sh" "$here/suites.sh" "$here/auto.sh" "$root/"
# Further suites (guest.sh runs each; check.py runs its check-NAME.py).
for hook in "$here"/guest-*.sh; do
	[ ! -e "$hook" ] || cp "$hook" "$root/"
done
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
# tests/fixtures/sysfs/qemu-3node-hmat/SOURCE). The guest CPU and TCG's
# threading: qemu_tcg (layout.sh).
. "$here/layout.sh"

# The auto-mode kernel on layout.sh's 4-node machine, auto.sh inside.
boot_auto() {
	if [ -z "$kernel_auto" ]; then
		if [ "${CI:-}" = true ]; then
			echo "not ok 1 - no auto-mode kernel (6.16+): $(cat "$build/qemu-fetch-auto.err")"
		else
			echo "ok 1 # SKIP no auto-mode kernel (6.16+): $(cat "$build/qemu-fetch-auto.err")"
		fi
		return
	fi
	local start rc elapsed
	start=$(date +%s.%N)
	boot_hotadd "$kernel_auto" "$work/initrd.gz" "$work/serial-auto.raw" "$work/qmp.sock" \
		"quiet tt.script=auto.sh"
	rc=$?
	elapsed=$(python3 -c "import time; print('%.1f' % (time.time() - $start))")
	echo "# QEMU exit $rc after $elapsed s (kernel $(basename "$kernel_auto"), auto mode, hot-add)"
	tr -d '\r' <"$work/serial-auto.raw" >"$build/qemu-serial-auto.log"
	cat "$work/serial-auto.raw.qmp" >>"$build/qemu-serial-auto.log"
	checker auto-check.py python3 "$here/auto-check.py" "$build/qemu-serial-auto.log" \
		"$build/tiertune"
}
# Runs one checker and passes its TAP on; a checker that stops early (a
# crash: its plan missing or short of its tests) is a failed test of its
# own, or the checks it never reached would pass unseen.
checker() { # name command...
	local name=$1 out rc plan ran
	shift
	out=$("$@" 2>&1)
	rc=$?
	printf '%s\n' "$out"
	plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\).*/\1/p' <<<"$out" | tail -n 1)
	ran=$(grep -cE '^(not )?ok [0-9]+' <<<"$out")
	if [ -z "$plan" ] || [ "$plan" != "$ran" ]; then
		echo "not ok 0 - $name stopped early (exit $rc, plan '${plan:-none}', $ran tests ran)"
	fi
}
# Renumbers the TAP of both checkers into one stream with one plan; exit 1
# when any test failed (a TODO, TAP's known failure, does not count).
tap_join() {
	awk '/^(not )?ok [0-9]+/ {
		n++
		if (sub(/^ok [0-9]+/, "ok " n) == 0) sub(/^not ok [0-9]+/, "not ok " n)
		if ($0 ~ /^not ok/ && $0 !~ /# TODO/) f++
		print
		next
	}
	/^1\.\.[0-9]+/ { next }
	{ print }
	END { print "1.." n; exit f > 0 }'
}

# TT_QEMU_SUITES=NAME[,NAME...]: the 6.12 guest runs those guest-NAME.sh
# suites alone (suites.sh), checked by their check-NAME.py (suites.py).
suites=${TT_QEMU_SUITES:-}
case $suites in *[!a-z0-9,-]*) skip "TT_QEMU_SUITES '$suites' is not a list of suite names" ;; esac
boot_612() {
	local start qemu_rc elapsed script=
	start=$(date +%s.%N)
	[ -z "$suites" ] || script="tt.script=suites.sh tt.suites=$suites"
	# shellcheck disable=SC2046
	qemu_tcg -smp 4 -m 6G -net none -nographic -no-reboot \
		-object memory-backend-ram,size=2G,id=m0 -object memory-backend-ram,size=2G,id=m1 \
		-object memory-backend-ram,size=2G,id=m2 \
		-numa node,nodeid=0,cpus=0-1,memdev=m0 -numa node,nodeid=1,cpus=2-3,memdev=m1 \
		-numa node,nodeid=2,memdev=m2,initiator=0 \
		$(hmat 0 0 100 20G) $(hmat 1 1 100 20G) $(hmat 0 2 400 5G) \
		-kernel "$kernel" -initrd "$work/initrd.gz" \
		-append "console=ttyS0 panic=-1 init_on_alloc=0 quiet $script" </dev/null 2>&1 |
		tr -d '\r' >"$work/serial.log"
	qemu_rc=${PIPESTATUS[0]}
	elapsed=$(python3 -c "import time; print('%.1f' % (time.time() - $start))")
	echo "# QEMU exit $qemu_rc after $elapsed s (kernel $(basename "$kernel"), seed $seed)"
	cp "$work/serial.log" "$build/qemu-serial.log"
	if [ -n "$suites" ]; then
		checker suites.py python3 "$here/suites.py" "$work/serial.log" "$build/tiertune" \
			"$top/tests/fixtures/sysfs/qemu-3node-hmat" "$suites"
		return
	fi
	checker check.py python3 "$here/check.py" "$work/serial.log" "$work/cases.txt" \
		"$build/tiertune" "$top/tests/fixtures/sysfs/qemu-3node-hmat"
}

# TT_QEMU_KERNELS: which boots (default both; "6.12" or "auto" alone while
# working on one of them); suites (TT_QEMU_SUITES) are the 6.12 guest's.
kernels=${TT_QEMU_KERNELS:-6.12 auto}
[ -z "$suites" ] || kernels=6.12
{
	case " $kernels " in *" 6.12 "*) boot_612 ;; esac
	case " $kernels " in *" auto "*) boot_auto ;; esac
} | tap_join
