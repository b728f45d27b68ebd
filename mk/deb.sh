#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# make deb: the Debian package (debian/) built from the files git tracks, as
# they are in the work tree, in a copy outside it (dpkg-buildpackage writes
# its results beside the source folder), then lintian on it. The .deb, its
# .buildinfo and .changes and lintian's report land in OUT (build-deb-out/).
#
#	mk/deb.sh [OUT]      exit 1 when the build fails or lintian reports an
#	                     error or a warning
set -eu
out=$(mkdir -p "${1:-build-deb-out}" && cd "${1:-build-deb-out}" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
for tool in dpkg-buildpackage dh lintian git; do
	command -v $tool >/dev/null || {
		echo "mk/deb.sh: no $tool (Debian packages dpkg-dev, debhelper, lintian, git)" >&2
		exit 3
	}
done
work=$(mktemp -d "${TMPDIR:-/tmp}/tiertune-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/tiertune"
# One tar reading the list: xargs would split a long one over several tars,
# whose concatenated archives the reader stops at the first end of
# (the rest lost to SIGPIPE, the copy silently short).
(cd "$top" && git ls-files -z | tar -cf - --no-recursion --null -T -) | tar -xf - -C "$work/tiertune"
[ "$(cd "$work/tiertune" && find . -type f -o -type l | wc -l)" -ge "$(cd "$top" && git ls-files | wc -l)" ] || {
	echo "mk/deb.sh: the copy of the tracked files is short" >&2
	exit 1
}
(cd "$work/tiertune" && dpkg-buildpackage -us -uc -b) >"$out/build.log" 2>&1 || {
	tail -n 30 "$out/build.log" >&2
	echo "mk/deb.sh: dpkg-buildpackage failed (whole log: $out/build.log)" >&2
	exit 1
}
rm -f "$out"/tiertune_*
mv "$work"/tiertune_* "$out/"
deb=$(ls "$out"/tiertune_*.deb)
# --fail-on: lintian's exit status says whether an error or a warning was found.
rc=0
lintian --fail-on error,warning --info --display-info "$deb" >"$out/lintian.txt" 2>&1 || rc=$?
cat "$out/lintian.txt"
echo "package: $deb"
echo "lintian: $(grep -c '^E:' "$out/lintian.txt") errors, $(grep -c '^W:' "$out/lintian.txt") warnings"
exit $rc
