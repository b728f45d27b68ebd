#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# make check-systemd: the installed package's apply unit and udev rule on a
# Debian guest with real systemd and udev, around a memory hot-add, on the
# auto-mode kernel and layout.sh's machine (slow: not in make check or
# check-qemu). A Debian 12 root (mmdebstrap: minbase, systemd, udev and the
# package's dependencies; cached for a week) with the package built by
# `make deb` installed by dpkg, booted as the initramfs, twice:
#   tune   node 3 hot-added, a profile of the whole machine exported;
#   fleet  that profile in /etc/tiertune/profile.json and the unit enabled,
#          booted with node 3 absent, then node 3 hot-added over QMP.
# systemd-guest.sh runs inside (tt-qemu-test.service), systemd-check.py
# checks. TAP output; a machine that cannot run it fails, saying why.
#
#	tests/qemu/systemd.sh [DEB_DIR]     TT_QEMU_CACHE, TT_QEMU_TIMEOUT, TT_SYSTEMD_REBUILD=1
set -u
# The checkers import guestlog.py: no __pycache__ in the source tree.
export PYTHONDONTWRITEBYTECODE=1
debdir=${1:-build-deb-out}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cannot() {
	printf '1..1\nnot ok 1 - check-systemd cannot run: %s\n' "$*"
	exit 1
}
[ "$(id -u)" -eq 0 ] || cannot "it needs root (mmdebstrap, chroot); run it as root"
for tool in qemu-system-x86_64 mmdebstrap cpio chroot dpkg-deb; do
	command -v $tool >/dev/null || cannot "no $tool (make deps installs it)"
done
deb=$(ls "$debdir"/tiertune_*.deb 2>/dev/null | tail -1)
[ -n "$deb" ] || cannot "no tiertune_*.deb in $debdir (make deb builds it)"
cache=${TT_QEMU_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tiertune-qemu}
mkdir -p "$cache"
kernel=$("$here/fetch-kernel.sh" auto 2>"$cache/fetch-auto.err") ||
	cannot "no auto-mode kernel: $(cat "$cache/fetch-auto.err")"

# The root: its packages are the package's dependencies (the first of each
# alternative), so that dpkg installs the package offline.
deps=$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/ //g' | grep . | sort -u | paste -sd,)
tarball=$cache/bookworm-systemd-$(echo "$deps" | md5sum | cut -c1-8).tar
if [ -n "${TT_SYSTEMD_REBUILD:-}" ] || [ -z "$(find "$tarball" -mtime -7 2>/dev/null)" ]; then
	mirror=$("$top/tests/debian-mirror.sh") || cannot "no Debian mirror for the root"
	mmdebstrap --variant=minbase --format=tar --include="systemd-sysv,udev,$deps" bookworm "$tarball.tmp" \
		"$mirror" >"$cache/mmdebstrap-systemd.log" 2>&1 ||
		cannot "mmdebstrap failed (see $cache/mmdebstrap-systemd.log)"
	mv -f "$tarball.tmp" "$tarball"
fi
work=$(mktemp -d /var/tmp/tiertune-systemd.XXXXXX)
trap 'rm -rf --one-file-system "$work"' EXIT
root=$work/root
mkdir "$root"
tar -xf "$tarball" -C "$root" || cannot "cannot unpack $tarball"
cp "$deb" "$root/tmp/tiertune.deb"
chroot "$root" dpkg -i /tmp/tiertune.deb >"$work/dpkg.log" 2>&1 || cannot "dpkg -i failed: $(tail -5 "$work/dpkg.log")"
rm "$root/tmp/tiertune.deb"
mkdir -p "$root/tt"
cp "$here/lib.sh" "$here/systemd-guest.sh" "$root/tt/"
cat >"$root/etc/systemd/system/tt-qemu-test.service" <<'EOF'
[Unit]
Description=tiertune's QEMU test (tests/qemu/systemd-guest.sh)
After=multi-user.target
[Service]
Type=oneshot
ExecStart=/bin/sh /tt/systemd-guest.sh
[Install]
WantedBy=multi-user.target
EOF
chroot "$root" systemctl enable tt-qemu-test.service >/dev/null 2>&1 || cannot "cannot enable the test unit"
# The udev events the package's rule sees, counted beside it (the debounce:
# the blocks of one hot-add, each its own event, give one apply).
mkdir -p "$root/etc/udev/rules.d"
echo 'SUBSYSTEM=="memory", ACTION=="online", RUN+="/bin/sh -c '"'"'echo %k >>/run/tt-memory-online'"'"'"' \
	>"$root/etc/udev/rules.d/99-tt-count.rules"
# No login prompt on the console; systemd as the initramfs' /init.
chroot "$root" systemctl mask serial-getty@ttyS0.service getty@tty1.service >/dev/null 2>&1
echo tiertune-guest >"$root/etc/hostname"
ln -sf /lib/systemd/systemd "$root/init"

. "$here/layout.sh"
boot() { # phase [kernel args]: the initramfs of the root as it is now, booted
	local start rc
	(cd "$root" && find . | cpio -o -H newc 2>/dev/null | gzip -1) >"$work/initrd-$1.gz"
	start=$(date +%s.%N)
	HOTADD_WATCH=$work/tests-$1.raw boot_hotadd "$kernel" "$work/initrd-$1.gz" "$work/console-$1.raw" \
		"$work/qmp-$1.sock" "tt.phase=$1 systemd.show_status=0 loglevel=4 ${2:-}" -serial "file:$work/tests-$1.raw"
	rc=$?
	echo "# QEMU exit $rc after $(python3 -c "import time; print('%.1f' % (time.time() - $start))") s" \
		"($1 boot, kernel $(basename "$kernel"))"
	tr -d '\r' <"$work/tests-$1.raw" >"$debdir/systemd-$1.log"
	cat "$work/console-$1.raw.qmp" >>"$debdir/systemd-$1.log"
	tr -d '\r' <"$work/console-$1.raw" >"$debdir/systemd-$1-console.log"
}
boot tune
# The tuned host's profile, for the fleet host.
mkdir -p "$root/etc/tiertune"
sed -n '/^@@TT-BEGIN profile$/,/^@@TT-END profile rc=0$/p' "$debdir/systemd-tune.log" | sed '1d;$d' \
	>"$root/etc/tiertune/profile.json"
chroot "$root" systemctl enable tiertune-apply.service >"$work/enable.log" 2>&1 ||
	cannot "systemctl enable tiertune-apply.service failed: $(cat "$work/enable.log")"
# Hot-added memory left offline: systemd-guest.sh onlines it block by block.
boot fleet memhp_default_state=offline
python3 "$here/systemd-check.py" "$debdir/systemd-tune.log" "$debdir/systemd-fleet.log" \
	"$root/etc/tiertune/profile.json"
