#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# make deps: installs the packages of the lists named (packages.debian, and
# mk/packages/GOAL.debian for the goals named with it, or a goal's own list
# when it runs alone) that are not installed, with apt-get as root (or
# through sudo). Without either it says exactly what to run as root, and
# fails: a build would only fail later, less clearly.
#
#	mk/deps.sh [LIST...]            (default packages.debian)
#	mk/deps.sh --missing [LIST...]  print the missing packages, install nothing
set -eu
only_missing=
[ "${1:-}" != --missing ] || { only_missing=1; shift; }
[ $# -gt 0 ] || set -- packages.debian
# One package a line; '#' starts a comment anywhere on a line. A package
# in two lists is installed once.
pkgs=$(sed 's/#.*//' "$@" | tr -s ' \t' '\n\n' | sed '/^$/d' | sort -u)
if ! command -v dpkg-query >/dev/null 2>&1; then
	[ -z "$only_missing" ] || { echo $pkgs; exit 0; }
	echo "deps: error: no dpkg-query: this is not a Debian system; install the equivalents of:" $pkgs >&2
	exit 3
fi
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing="$missing $p"
done
if [ -n "$only_missing" ]; then
	echo $missing
	exit 0
fi
if [ -z "$missing" ]; then
	echo "deps: all $(echo $pkgs | wc -w) packages of $* are installed"
	exit 0
fi
install="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" -eq 0 ]; then
	echo "deps: installing$missing (for $*)"
	sh -c "$install"
elif command -v sudo >/dev/null 2>&1; then
	echo "deps: installing$missing (for $*, through sudo)"
	sudo sh -c "$install" || {
		echo "deps: error: sudo failed; as root, run:" >&2
		echo "    $install" >&2
		exit 3
	}
else
	echo "deps: error: missing$missing (for $*); installing them needs root, and there is no sudo; as root, run:" >&2
	echo "    $install" >&2
	exit 3
fi
