#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# make deps: installs the packages of packages.debian that are not installed,
# with apt-get as root (or through sudo). Without either it says exactly what
# to run as root, and fails: a build would only fail later, less clearly.
set -eu
list=${1:-packages.debian}
# One package a line; '#' starts a comment anywhere on a line.
pkgs=$(sed 's/#.*//' "$list" | tr -s ' \t' '\n\n' | sed '/^$/d')
if ! command -v dpkg-query >/dev/null 2>&1; then
	echo "deps: error: no dpkg-query: this is not a Debian system; install the equivalents of:" $pkgs >&2
	exit 3
fi
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing="$missing $p"
done
if [ -z "$missing" ]; then
	echo "deps: all $(echo $pkgs | wc -w) packages of $list are installed"
	exit 0
fi
install="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" -eq 0 ]; then
	echo "deps: installing$missing"
	sh -c "$install"
elif command -v sudo >/dev/null 2>&1; then
	echo "deps: installing$missing (through sudo)"
	sudo sh -c "$install" || {
		echo "deps: error: sudo failed; as root, run:" >&2
		echo "    $install" >&2
		exit 3
	}
else
	echo "deps: error: missing$missing; installing them needs root, and there is no sudo; as root, run:" >&2
	echo "    $install" >&2
	exit 3
fi
