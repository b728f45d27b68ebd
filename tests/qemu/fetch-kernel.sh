#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Prints the path of a Debian cloud kernel image, fetched once into the cache
# folder with a private apt configuration: its own sources list (the mirror
# taken from the system's own sources by tests/debian-mirror.sh), lists and
# archives, so the system's apt setup is never touched. Only the image (and
# its config) is extracted.
#
#	fetch-kernel.sh [6.12|auto]
#
# 6.12 (the default): bookworm-backports' linux-image-6.12.*-cloud-amd64-
# unsigned (CONFIG_NUMA, ACPI_HMAT, HMEM_REPORTING, MIGRATION and memory
# tiers built in). auto: the newest cloud kernel of trixie-backports that has
# the weighted-interleave auto mode (6.16 or later), also with ACPI memory
# hotplug built in. From 7.1 on Debian ships the image in linux-binary-VER
# (linux-image-VER is an empty package that depends on it): the package that
# holds boot/vmlinuz-* or usr/lib/modules/*/vmlinuz is the one unpacked.
# TT_QEMU_AUTO_KERNEL=VERSION (e.g. 6.16.12) picks another of trixie-
# backports' cloud kernels (>= 6.16) instead of the newest.
set -euo pipefail
which=${1:-6.12}
cache=${TT_QEMU_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tiertune-qemu}
mkdir -p "$cache/boot"
case $which in
6.12)
	suite=bookworm-backports apt="$cache/apt" want='6\.12\.[^ ]*' ;;
auto)
	suite=trixie-backports apt="$cache/apt-$suite" want=${TT_QEMU_AUTO_KERNEL:-'[0-9][^ ]*'}
	want=${want//./\\.}'\+deb[0-9]+' ;;
*)
	echo "usage: fetch-kernel.sh [6.12|auto]" >&2
	exit 2 ;;
esac
# The cached image of this kind, newest first: 6.12.*, or any >= 6.16.
cached() {
	ls "$cache"/boot/vmlinuz-*-cloud-amd64 2>/dev/null | sort -V | while read -r k; do
		v=${k##*/vmlinuz-}
		case $which in
		6.12) [[ $v == 6.12.* ]] ;;
		*) [[ $v =~ ^${want}-cloud-amd64$ ]] &&
			[ "$(printf '%s\n' 6.16 "${v%%[+-]*}" | sort -V | head -1)" = 6.16 ] ;;
		esac && echo "$k"
	done | tail -1
}
k=$(cached || true)
if [ -n "$k" ]; then
	echo "$k"
	exit 0
fi
mirror=$("$(dirname "$0")/../debian-mirror.sh") || exit 3
mkdir -p "$apt/lists/partial" "$apt/archives/partial" "$apt/etc/sources.list.d" "$apt/etc/preferences.d"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main" \
	>"$apt/etc/sources.list"
opts=(-o "Dir::Etc::SourceList=$apt/etc/sources.list" -o "Dir::Etc::SourceParts=$apt/etc/sources.list.d"
	-o "Dir::Etc::Preferences=$apt/etc/preferences" -o "Dir::Etc::PreferencesParts=$apt/etc/preferences.d"
	-o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt" -o "Dir::Cache::Archives=$apt/archives"
	-o "Debug::NoLocking=1" -o "APT::Sandbox::User=root")
apt-get -q "${opts[@]}" update >"$cache/apt-update.log" 2>&1 ||
	{ echo "apt-get update of $suite failed (see $cache/apt-update.log)" >&2; exit 3; }
if [ "$which" = 6.12 ]; then
	pkg=$(apt-cache "${opts[@]}" pkgnames linux-image-6.12 | grep -E "^linux-image-${want}-cloud-amd64-unsigned$" |
		sort -V | tail -1)
else
	# Versions apt can install from the suite (pkgnames lists names other
	# packages only mention too), 6.16 or later.
	pkg=$(apt-cache "${opts[@]}" pkgnames linux-image- | grep -E "^linux-image-${want}-cloud-amd64$" | sort -V |
		while read -r p; do
			v=${p#linux-image-}
			[ "$(printf '%s\n' 6.16 "${v%%[+-]*}" | sort -V | head -1)" = 6.16 ] || continue
			c=$(apt-cache "${opts[@]}" policy "$p" | sed -n 's/^ *Candidate: \([0-9]\)/\1/p')
			[ -z "$c" ] || echo "$p"
		done | tail -1)
fi
[ -n "$pkg" ] || { echo "no ${want//\\/}-cloud-amd64 kernel image in $suite" >&2; exit 3; }
# The image's package, and for the split packaging (7.1+) the linux-binary
# and linux-base ones it depends on (the image, and its config).
pkgs=("$pkg")
for dep in $(apt-cache "${opts[@]}" depends "$pkg" | sed -n 's/^ *Depends: \(linux-\(binary\|base\)-[^ ]*\)$/\1/p'); do
	pkgs+=("$dep")
done
(cd "$apt/archives" && apt-get -q "${opts[@]}" download "${pkgs[@]}" >"$cache/apt-download.log" 2>&1) ||
	{ echo "apt-get download ${pkgs[*]} failed (see $cache/apt-download.log)" >&2; exit 3; }
ver=${pkg#linux-image-}
ver=${ver%-unsigned}
tmp=$(mktemp -d "$cache/unpack.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for p in "${pkgs[@]}"; do
	deb=$(ls "$apt/archives/${p}"_*.deb | tail -1)
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" --wildcards './boot/*' "./usr/lib/modules/$ver/*" 2>/dev/null ||
		true
done
for f in vmlinuz config System.map; do
	src=$tmp/boot/$f-$ver
	[ -e "$src" ] || src=$tmp/usr/lib/modules/$ver/$f
	[ ! -e "$src" ] || mv "$src" "$cache/boot/$f-$ver"
done
[ -e "$cache/boot/vmlinuz-$ver" ] || { echo "no vmlinuz in ${pkgs[*]}" >&2; exit 3; }
echo "$cache/boot/vmlinuz-$ver"
