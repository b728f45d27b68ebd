#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The version of this tree, the one string the binaries (--version) and the
# Debian package carry: VERSION, then, in a git clone, +gitN.gHASH with N
# the commits to HEAD, so that each commit's package sorts after the one
# before it (dpkg --compare-versions: 0.2.0 < 0.2.0+git467.g... <
# 0.2.0+git468.g...) and apt upgrades a fleet from build to build; .dirty
# when the work tree differs from HEAD. Outside git (the package's source
# copy, mk/deb.sh) VERSION already holds the whole string.
#
#	mk/version.sh [TOP]
set -eu
top=${1:-$(cd "$(dirname "$0")/.." && pwd)}
v=$(cat "$top/VERSION")
# This tree's own clone only: a copy under another repository's folder is
# not that repository's commit.
if [ "$(git -C "$top" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$top" && pwd -P)" ]; then
	v="$v+git$(git -C "$top" rev-list --count HEAD).g$(git -C "$top" rev-parse --short HEAD)"
	git -C "$top" diff --quiet HEAD 2>/dev/null || v="$v.dirty"
fi
echo "$v"
