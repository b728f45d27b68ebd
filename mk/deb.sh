#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# make deb: the Debian package (debian/) built from the files git tracks, as
# they are in the work tree, in a copy outside it (dpkg-buildpackage writes
# its results beside the source folder), then lintian on them. The .debs, their
# .buildinfo and .changes and lintian's report land in OUT (build-deb-out/).
#
#	mk/deb.sh [OUT]      exit 1 when the build fails or lintian reports an
#	                     error or a warning
set -eu
# Each step says what it does and, done, how long it took: a package build
# runs for minutes, and a person waiting should see where it is.
step_t0=
step() { # what: ends the step before, starts this one
	[ -z "$step_t0" ] || echo "deb: done in $(($(date +%s) - step_t0)) s"
	step_t0=$(date +%s)
	[ -z "${1:-}" ] || echo "deb: $1"
}
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
step "copying the files git tracks"
# One tar reading the list: xargs would split a long one over several tars,
# whose concatenated archives the reader stops at the first end of
# (the rest lost to SIGPIPE, the copy silently short).
(cd "$top" && git ls-files -z | tar -cf - --no-recursion --null -T -) | tar -xf - -C "$work/tiertune"
[ "$(cd "$work/tiertune" && find . -type f -o -type l | wc -l)" -ge "$(cd "$top" && git ls-files | wc -l)" ] || {
	echo "mk/deb.sh: the copy of the tracked files is short" >&2
	exit 1
}
# The version of this commit (mk/version.sh), the binaries' and the
# package's: VERSION in the copy (which has no git), and a changelog entry
# dated with the commit, so that apt upgrades from one build to the next.
version=$("$top/mk/version.sh" "$top")
commit=$(git -C "$top" rev-parse HEAD)
echo "$version" >"$work/tiertune/VERSION"
maint=$(sed -n '1,/^ -- / s/^ -- \(.*>\)  .*/\1/p' "$top/debian/changelog" | head -1)
{
	printf 'tiertune (%s) unstable; urgency=medium\n\n' "$version"
	# The changes on their own line: lintian warns past 80 columns
	# (debian-changelog-line-too-long), and a warning fails the build.
	printf '  * Built from commit %s%s.\n\n' "$commit" "$(case $version in *.dirty) printf ',\n    with changes to it' ;; esac)"
	printf ' -- %s  %s\n\n' "$maint" "$(date -R -u -d "@$(git -C "$top" log -1 --format=%ct)")"
	cat "$top/debian/changelog"
} >"$work/tiertune/debian/changelog"
step "building the package $version (dpkg-buildpackage; log: $out/build.log)"
# -Jauto: one job per CPU, as make alone (dh's make runs as a sub-make).
(cd "$work/tiertune" && dpkg-buildpackage -us -uc -b -Jauto) >"$out/build.log" 2>&1 || {
	tail -n 30 "$out/build.log" >&2
	echo "mk/deb.sh: dpkg-buildpackage failed (whole log: $out/build.log)" >&2
	exit 1
}
# The binary packages: tiertune, libtiertune1 and libtiertune-dev
# (debian/control), with the build's .buildinfo and .changes.
rm -f "$out"/tiertune_* "$out"/libtiertune*
mv "$work"/tiertune_* "$work"/libtiertune* "$out/"
debs=$(ls "$out"/*.deb)
# --fail-on: lintian's exit status says whether an error or a warning was found.
step "lintian on $(printf '%s ' $debs)"
rc=0
# shellcheck disable=SC2086 # one word per package
lintian --fail-on error,warning --info --display-info $debs >"$out/lintian.txt" 2>&1 || rc=$?
step
cat "$out/lintian.txt"
for deb in $debs; do echo "package: $deb"; done
echo "lintian: $(grep -c '^E:' "$out/lintian.txt") errors, $(grep -c '^W:' "$out/lintian.txt") warnings"
exit $rc
