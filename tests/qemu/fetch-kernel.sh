#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Prints the path of a Debian bookworm-backports 6.12 cloud kernel image
# (linux-image-6.12.*-cloud-amd64-unsigned: CONFIG_NUMA, ACPI_HMAT,
# HMEM_REPORTING, MIGRATION and memory tiers built in), fetched once into
# the cache folder with a private apt configuration: its own sources list
# (the mirror taken from the system's own sources by tests/debian-mirror.sh),
# lists and archives, so the system's apt setup is never touched. Only boot/
# is extracted.
set -euo pipefail
cache=${TT_QEMU_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tiertune-qemu}
mkdir -p "$cache"
if k=$(ls "$cache"/boot/vmlinuz-6.12.*-cloud-amd64 2>/dev/null | sort -V | tail -1) && [ -n "$k" ]; then
	echo "$k"
	exit 0
fi
mirror=$("$(dirname "$0")/../debian-mirror.sh") || exit 3
apt="$cache/apt"
mkdir -p "$apt/lists/partial" "$apt/archives/partial" "$apt/etc/sources.list.d" "$apt/etc/preferences.d"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror bookworm-backports main" \
	>"$apt/etc/sources.list"
opts=(-o "Dir::Etc::SourceList=$apt/etc/sources.list" -o "Dir::Etc::SourceParts=$apt/etc/sources.list.d"
	-o "Dir::Etc::Preferences=$apt/etc/preferences" -o "Dir::Etc::PreferencesParts=$apt/etc/preferences.d"
	-o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt" -o "Dir::Cache::Archives=$apt/archives"
	-o "Debug::NoLocking=1" -o "APT::Sandbox::User=root")
apt-get -q "${opts[@]}" update >"$cache/apt-update.log" 2>&1 ||
	{ echo "apt-get update of bookworm-backports failed (see $cache/apt-update.log)" >&2; exit 3; }
pkg=$(apt-cache "${opts[@]}" pkgnames linux-image-6.12 | grep -E '^linux-image-6\.12\.[^ ]*-cloud-amd64-unsigned$' |
	sort -V | tail -1)
[ -n "$pkg" ] || { echo "no linux-image-6.12.*-cloud-amd64-unsigned in bookworm-backports" >&2; exit 3; }
(cd "$apt/archives" && apt-get -q "${opts[@]}" download "$pkg" >"$cache/apt-download.log" 2>&1) ||
	{ echo "apt-get download $pkg failed (see $cache/apt-download.log)" >&2; exit 3; }
deb=$(ls "$apt/archives/${pkg}"_*.deb | tail -1)
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$cache" --wildcards './boot/*'
ls "$cache"/boot/vmlinuz-6.12.*-cloud-amd64 | sort -V | tail -1
