#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Prints the Debian archive mirror this system's apt uses, from any of its
# sources files: deb822 (*.sources, "URIs:") and one-line (*.list, "deb URI
# suite"), in sources.list, sources.list.d/ or wherever Dir::Etc points.
# The QEMU suite (its kernel) and check-fresh (its root) fetch from it.
# Exit 3, with the files read, when none names a Debian archive.
set -u
etc=$(apt-config shell E Dir::Etc 2>/dev/null | sed -n "s/^E='\(.*\)'$/\1/p")
etc=/${etc:-etc/apt}
etc=${etc%/}
list=$(apt-config shell L Dir::Etc::sourcelist 2>/dev/null | sed -n "s/^L='\(.*\)'$/\1/p")
parts=$(apt-config shell P Dir::Etc::sourceparts 2>/dev/null | sed -n "s/^P='\(.*\)'$/\1/p")
case ${list:=sources.list} in /*) ;; *) list=$etc/$list ;; esac
case ${parts:=sources.list.d} in /*) ;; *) parts=$etc/$parts ;; esac
files=("$list" "$parts"/*.list "$parts"/*.sources)
read=()
for f in "${files[@]}"; do
	[ -r "$f" ] || continue
	read+=("$f")
	# The main archive: a URI ending in /debian, not debian-security.
	m=$(awk '/^[[:space:]]*#/ {next}
		/^URIs:/ {for (i = 2; i <= NF; i++) if ($i ~ /^https?:\/\/.*\/debian\/?$/) {print $i; exit}}
		/^deb[[:space:]]/ {for (i = 2; i <= NF; i++) if ($i ~ /^https?:\/\/.*\/debian\/?$/) {print $i; exit}}' "$f")
	if [ -n "$m" ]; then
		echo "${m%/}"
		exit 0
	fi
done
echo "no Debian archive (a URI ending in /debian) in the apt sources: ${read[*]:-none readable}" >&2
exit 3
