#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# make check-fresh: README's two commands in a fresh Debian 12 root, as root
# and as a user (tests/fresh/README.md). TAP output, then "N passed, N failed".
#
#	tests/fresh/run.sh      TT_FRESH_CACHE, TT_FRESH_REBUILD=1, TT_FRESH_KEEP=1
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
n=0 failed=0
tap() { # status description [log]
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else
		failed=$((failed + 1))
		echo "not ok $n - $2"
		# The step's failing checks with what they printed, then its last
		# lines: a long step's tail (check-qemu's last guest) need not hold
		# them, and a root the run removes cannot be read afterwards.
		[ -z "${3:-}" ] || {
			awk '/^ok / { k = 0 } /^(not ok |FAIL)/ { k = 8 } k > 0 { print; k-- }' "$3" | head -n 60
			echo "(its last lines:)"
			tail -n 15 "$3"
		} | sed 's/^/# /'
	fi
}
finish() {
	echo "1..$n"
	echo "$((n - failed)) passed, $failed failed"
	exit $((failed > 0))
}
# Progress, as TAP comments, as each step starts and ends: the whole check
# runs for twenty minutes and more, and a person should see where it is.
t_start=$(date +%s) # the namespace's shell below counts from it too
say() { echo "# $(printf '%5d' $(($(date +%s) - t_start))) s: $*"; }
cannot() { # a reason this machine cannot run the check: a failure, never a skip
	tap 1 "check-fresh cannot run: $*"
	finish
}

[ "$(id -u)" -eq 0 ] || cannot "it needs root (chroot, mounts); run it as root"
for tool in mmdebstrap unshare chroot git; do
	command -v $tool >/dev/null || cannot "no $tool (make deps installs it)"
done

# README's commands for a fresh machine, read from README.md itself: the
# indented `make ...` lines of the section "On a fresh machine".
mapfile -t cmds < <(awk '/^## / {on = /^## On a fresh machine/} on && /^    make / {sub(/^    /, ""); print}' \
	"$top/README.md")
[ ${#cmds[@]} -eq 2 ] || cannot "README.md's fresh-machine section shows ${#cmds[@]} make commands, not 2"
main_cmd=${cmds[0]} test_cmd=${cmds[1]}

# The root: cached for a week, made anew on demand.
cache=${TT_FRESH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tiertune-fresh}
tarball=$cache/bookworm-minbase.tar
mkdir -p "$cache"
if [ -n "${TT_FRESH_REBUILD:-}" ] || [ -z "$(find "$tarball" -mtime -7 2>/dev/null)" ]; then
	mirror=$("$top/tests/debian-mirror.sh") || cannot "no Debian mirror for the root"
	say "making a minimal Debian 12 root with mmdebstrap from $mirror (a few minutes; cached in $cache for a week)"
	mmdebstrap --variant=minbase --format=tar --include=git,make,ca-certificates bookworm "$tarball.tmp" "$mirror" \
		>"$cache/mmdebstrap.log" 2>&1 || cannot "mmdebstrap failed (see $cache/mmdebstrap.log)"
	mv -f "$tarball.tmp" "$tarball"
fi

work=$(mktemp -d /var/tmp/tiertune-fresh.XXXXXX)
# The work root is removed after the namespace that held its mounts is
# gone; --one-file-system in case one outlived it.
cleanup() { [ -n "${TT_FRESH_KEEP:-}" ] || rm -rf --one-file-system "$work"; }
trap cleanup EXIT
root=$work/root
mkdir "$root"
say "unpacking the root into $root"
tar -xf "$tarball" -C "$root" || cannot "cannot unpack $tarball"
cp /etc/resolv.conf "$root/etc/resolv.conf"
# The commit under test, as a bundle anyone in the root can clone.
commit=$(git -C "$top" rev-parse HEAD)
git -C "$top" bundle create "$root/srv/tiertune.bundle" HEAD >/dev/null 2>&1 ||
	cannot "cannot bundle $commit"
chmod 644 "$root/srv/tiertune.bundle"
[ -z "$(git -C "$top" status --porcelain --untracked-files=no)" ] ||
	echo "# the work tree has uncommitted changes: this checks commit $commit, not them"
# The Debian package, built here (mk/deb.sh: from what git tracks, lintian
# clean), installed in the fresh root with apt before anything else is.
say "building the Debian package (mk/deb.sh; log: $work/deb.log)"
"$top/mk/deb.sh" "$work/deb" >"$work/deb.log" 2>&1
deb_rc=$?
say "package: $(sed -n 's/^package: //p' "$work/deb.log" | head -1) (mk/deb.sh exit $deb_rc)"
deb=$(ls "$work"/deb/tiertune_*.deb 2>/dev/null | head -1)
[ -z "$deb" ] || cp "$deb" "$root/srv/tiertune.deb"

# Which kernel loops this CPU should get (bench/k-loops.h's choice).
flags=$(grep -m1 '^flags' /proc/cpuinfo)
want_isa=sse2
[[ " $flags " == *" avx2 "* && " $flags " == *" fma "* ]] && want_isa=avx2
[[ " $flags " == *" avx512f "* ]] && want_isa=avx512
[ "$(uname -m)" = x86_64 ] || want_isa=generic

# Everything below runs in a private mount namespace: the binds go with it.
log=$work/log
mkdir -p "$log"
export root log main_cmd test_cmd commit CI="${CI:-}" deb t_start
# The steps' progress reaches this output through fd 3; all else goes to logs.
exec 3>&1
unshare -m --propagation private bash -s >"$log/inner" 2>&1 <<'INNER'
set -u
for d in proc sys dev dev/pts; do mkdir -p "$root/$d" && mount --rbind "/$d" "$root/$d"; done
mkdir -p "$root/var/cache/apt/archives"
mount --bind /var/cache/apt/archives "$root/var/cache/apt/archives"
# A step's stdin is /dev/null: this shell reads its own script from stdin, so
# anything in a step that reads stdin swallows the steps after it. On f30adfc
# the steps after the test step never ran and left no status ("got none").
in_root() { # user command: a login-like environment, nothing of ours
	local user=$1
	shift
	local home=/root spec=0:0
	[ "$user" = root ] || { home=/home/$user spec=$(chroot "$root" id -u "$user"):$(chroot "$root" id -g "$user"); }
	chroot --userspec="$spec" "$root" env -i HOME="$home" USER="$user" LANG=C.UTF-8 \
		PATH=/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin \
		bash -c "cd && $*" </dev/null
}
step() { # name user command: its output in $log/NAME, its status in $log/NAME.rc
	local name=$1 user=$2 start=$SECONDS rc
	shift 2
	printf '# %5d s: %s, as %s: %s\n' $(($(date +%s) - t_start)) "$name" "$user" "$*" >&3
	# The lines that say where a long step is (make's goals, each test
	# suite's as it ends, the demo's commands) are shown as they come.
	in_root "$user" "$@" 2>&1 | tee "$log/$name" |
		grep --line-buffered -E '^(deps: |ok   |FAIL|skip: |[0-9]+ passed|\$ |make: )' | sed -u 's/^/#        /' >&3
	rc=${PIPESTATUS[0]}
	echo $rc >"$log/$name.rc"
	echo "$name $((SECONDS - start))" >>"$log/times"
	printf '# %5d s: %s: exit %d after %d s (log: %s)\n' $(($(date +%s) - t_start)) "$name" $rc \
		$((SECONDS - start)) "$log/$name" >&3
}
chroot "$root" useradd -m -s /bin/bash tester
# The package first, on the bare root: apt brings what it depends on. man-db
# and bash-completion as a user's machine has them. Then, as the user, in
# the home folder (no source tree), the commands README and the man page
# promise; bash completion as bash-completion loads it, on demand.
if [ -n "$deb" ]; then
	step pkg-install root "apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q /srv/tiertune.deb man-db bash-completion systemd"
	step pkg-topo tester "tiertune topo"
	step pkg-version tester 'v=$(dpkg-query -W -f "\${Version}" tiertune) && echo "package $v" && [ "$v" = "$(tiertune --version | sed -n "1s/^tiertune //p")" ] && case $v in *+git[0-9]*.g*) ;; *) false ;; esac'
	step pkg-auto tester "tiertune auto --source-node 0 --model spr-ddr5-2cxl"
	step pkg-man tester "man -P cat tiertune | grep -q 'weighted.interleave' && man -P cat tiertop >/dev/null"
	step pkg-completion tester ". /usr/share/bash-completion/bash_completion && { _completion_loader tiertune || :; } && COMP_WORDS=(tiertune sim) COMP_CWORD=1 && _tiertune && [ \"\${COMPREPLY[*]}\" = simulate ] && { _completion_loader tiertop || :; } && COMP_WORDS=(tiertop --vi) && _tiertop && [ \"\${COMPREPLY[*]}\" = --view ]"
	# capture of this machine, read back: topo --json the same but for the
	# root and the free memory (a live machine's moves by the second).
	step pkg-capture tester "tiertune capture -o cap.tar.gz && mkdir cap && tar -xzf cap.tar.gz -C cap && diff <(tiertune topo --json | grep -v -e sysfs_root -e mem_free_bytes) <(tiertune --sysfs-root cap topo --json | grep -v -e sysfs_root -e mem_free_bytes)"
	step pkg-units root "systemd-analyze verify --man=no /lib/systemd/system/tiertune-apply.service /lib/systemd/system/tiertune-metrics.service /lib/systemd/system/tiertune-metrics.timer && ! systemctl is-enabled -q tiertune-apply.service"
fi
step clone-root root "git clone -q /srv/tiertune.bundle tiertune && git -C tiertune checkout -q $commit"
step clone-user tester "git clone -q /srv/tiertune.bundle tiertune && git -C tiertune checkout -q $commit"
step deps-user-first tester "cd tiertune && make deps"
step main-root root "cd tiertune && $main_cmd"
step test-root root "cd tiertune && CI=$CI $test_cmd"
step isa root "cd tiertune && build/tiertune bench --kernel triad --size 4M --repeat 2 --json"
step main-user tester "cd tiertune && $main_cmd"
INNER
inner_rc=$?
[ $inner_rc -eq 0 ] || cat "$log/inner"
rc() { cat "$log/$1.rc" 2>/dev/null || echo missing; }
[ "$deb_rc" -eq 0 ] && [ -n "$deb" ]
tap $? "the Debian package builds, lintian reports no error and no warning" "$work/deb.log"
tap "$(rc pkg-install)" "apt installs the package in the fresh root" "$log/pkg-install"
tap "$(rc pkg-topo)" "installed, as a user outside the source tree: tiertune topo" "$log/pkg-topo"
tap "$(rc pkg-version)" "the package's version is the binary's, unique per commit ($(sed -n 's/^package //p' "$log/pkg-version" 2>/dev/null))" "$log/pkg-version"
[ "$(rc pkg-auto)" = 0 ] && grep -q "^SIMULATED: every figure comes from model '/usr/share/tiertune/models/spr-ddr5-2cxl.json'" "$log/pkg-auto"
tap $? "installed: tiertune auto --source-node 0 --model spr-ddr5-2cxl" "$log/pkg-auto"
tap "$(rc pkg-man)" "installed: man tiertune, man tiertop" "$log/pkg-man"
tap "$(rc pkg-completion)" "installed: bash completion of tiertune and tiertop" "$log/pkg-completion"
tap "$(rc pkg-capture)" "installed: tiertune capture of this machine reads back as it" "$log/pkg-capture"
tap "$(rc pkg-units)" "installed: the units verify, none enabled" "$log/pkg-units"
tap "$(rc clone-root)" "a clone of $commit in the fresh root" "$log/clone-root"
[ "$(rc deps-user-first)" != 0 ] && [ "$(rc deps-user-first)" != missing ]
tap $? "as a user without sudo, 'make deps' refuses" "$log/deps-user-first"
grep -q 'as root, run:' "$log/deps-user-first" && grep -q 'apt-get install' "$log/deps-user-first"
tap $? "and says what to run as root" "$log/deps-user-first"
tap "$(rc main-root)" "as root: $main_cmd" "$log/main-root"
# bench's header names the loops on its sizes line ("...; avx512 loops").
demo_isa=$(sed -n 's/^arrays of .*; \([a-z0-9]*\) loops$/\1/p' "$log/main-root" | head -1)
[ "$demo_isa" = "$want_isa" ]
tap $? "the demo's kernel loops are the widest this CPU runs ($demo_isa, want $want_isa)" "$log/main-root"
got_isa=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["isa"])' "$log/isa" 2>/dev/null)
[ "$(rc isa)" = 0 ] && [ "$got_isa" = "$want_isa" ]
tap $? "bench picks $want_isa loops (got ${got_isa:-none})" "$log/isa"
tap "$(rc test-root)" "as root: $test_cmd" "$log/test-root"
grep -E '^[0-9]+ passed, [0-9]+ failed|^1\.\.|^# QEMU exit|SKIP' "$log/test-root" | sed 's/^/# test command: /'
tap "$(rc clone-user)" "a clone of $commit for the user" "$log/clone-user"
tap "$(rc main-user)" "as the user: $main_cmd" "$log/main-user"
sed 's/^/# seconds: /' "$log/times" 2>/dev/null
finish
