#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The Ansible role (ansible/, issue 47): ansible-lint passes on it offline,
# and the example playbook, as make install ships it, runs with connection
# local on hosts that are trees (tiertune_root: a fixture copy with the
# package's units): the first run places the profile named by
# the host's fingerprint, writes the weights, enables the units and writes
# the metrics textfile; a second run changes nothing; check mode writes
# nothing and says what it would; a host of another fingerprint is left
# alone and reported.
. "$(dirname "$0")/lib.sh"

for tool in ansible-playbook ansible-lint systemctl; do
	command -v $tool >/dev/null || {
		skip "no $tool (mk/packages/check.debian: ansible-core, ansible-lint, systemd)"
		done_testing
		exit 0
	}
done
WI=sys/kernel/mm/mempolicy/weighted_interleave
# Ansible's own state (its temporary files, lint's cache) stays in $WORK.
export HOME=$WORK/home ANSIBLE_LOCAL_TEMP=$WORK/home/tmp ANSIBLE_NOCOLOR=1 NO_COLOR=1
mkdir -p "$HOME"

# Offline: in a network namespace of its own where the kernel lets us make
# one (a lint that reached for Galaxy fails there).
offline=
! unshare -rn true 2>/dev/null || offline="unshare -rn"
run env -C "$TT_TOP/ansible" $offline ansible-lint --nocolor
is "ansible-lint passes on the role and the playbook${offline:+ (no network)}" \
	"$rc:$(grep -c '^Passed with production profile: 0 failure(s), 0 warning(s)' "$WORK/out" "$WORK/err" | awk -F: '{ s += $NF } END { print s }')" "0:1"

# The package, installed once into a folder of its own: the role and the
# playbook are run from there, and its binary serves every host. A host: a
# fixture copy with the package's units where Debian has them, and
# node_exporter's folder.
pkg=$WORK/pkg
run make -s -C "$TT_TOP" BUILD="$TT_BUILD" DESTDIR="$pkg" PREFIX=/usr UNITDIR=/lib/systemd/system \
	UDEVDIR=/lib/udev/rules.d install
share=$pkg/usr/share/tiertune/ansible
is "the package ships the role and the playbook as the tree has them" \
	"$rc:$(diff -r --exclude=.ansible-lint "$TT_TOP/ansible" "$share" && echo same)" 0:same
host() { # fixture
	local r
	r=$(copy_fixture "$1")
	cp -a "$pkg/lib" "$r/"
	mkdir -p "$r/var/lib/prometheus/node-exporter"
	echo "$r"
}
spr=$(host spr-ddr5-2cxl)
# Another kind of machine, and one of that kind whose profile folder holds
# a profile named for its fingerprint but made on the first kind.
genoa=$(host 2s-genoa-cxl)
wrong=$(host 2s-genoa-cxl)

# The profile of one host of the kind, named by its fingerprint.
mkdir -p "$WORK/profiles" "$WORK/wrong-profiles"
run "$TT" --sysfs-root "$spr" topo --fingerprint
fp=$(cat "$WORK/out")
"$TT" --sysfs-root "$spr" export --weights 0:5,1:2,2:1 --format json -o "$WORK/profiles/$fp.json"
run "$TT" --sysfs-root "$genoa" topo --fingerprint
gfp=$(cat "$WORK/out")
cp "$WORK/profiles/$fp.json" "$WORK/wrong-profiles/$gfp.json"

# Each host a tree on this machine (connection local), the package's
# binary already installed (tiertune_install=none); no privilege to gain.
# The shipped site.yml is the playbook.
for h in spr genoa wrong; do
	r=${!h}
	d=$WORK/profiles
	[ $h != wrong ] || d=$WORK/wrong-profiles
	echo "$h tiertune_root=$r tiertune_bin=$pkg/usr/bin/tiertune tiertune_profiles_dir=$d"
done >"$WORK/hosts"
echo '[all:vars]
ansible_connection=local' >>"$WORK/hosts"
export ANSIBLE_PIPELINING=1
play() { run ansible-playbook -i "$WORK/hosts" "$share/site.yml" -e ansible_become=false -e tiertune_install=none "$@"; }
# changed HOST: its recap's changed and failed counts (tasks, not items).
changed() { sed -n "s/^$1 *: .*changed=\([0-9]*\) .*failed=\([0-9]*\) .*/changed=\1 failed=\2/p" "$WORK/out"; }
# outcome HOST: what site.yml's last task says of it.
outcome() { sed -n "/^ok: \[$1\] => {/,/^}/ s/^ *\"msg\": \"\(.*\)\"$/\1/p" "$WORK/out" | tail -1; }
# The trees as they are, links as links (a sysfs tree links back into
# itself).
snap() { for h in spr genoa wrong; do rm -rf "$WORK/before-$h" && cp -a "${!h}" "$WORK/before-$h"; done; }
same_tree() { diff -r --no-dereference "$WORK/before-$1" "${!1}" >"$WORK/diff" 2>&1; }

# Check mode on the new hosts: the plan shown, everything it would change
# counted, nothing written.
snap
play --check --diff --limit spr,genoa
is "check mode, first: exit 0, changes counted (profile folder, profile, weights, units, textfile)" \
	"$rc:$(changed spr):$(outcome spr)" "0:changed=5 failed=0:fingerprint $fp: would_apply"
is "check mode, first: the weights apply would write shown, the profile's text" \
	"$(grep -c "echo 5 > $spr/$WI/node0" "$WORK/out"):$(grep -c '^+    "fingerprint": "'"$fp"'",$' "$WORK/out")" "1:1"
same_tree spr
tap $? "check mode, first: nothing written under the host's root" "$(head -5 "$WORK/diff")"

# The first run: everything in place on the host of the kind, the other
# kind left alone, the misnamed profile refused.
play
is "first run: changed (profile folder, profile, weights, units, textfile)" \
	"$(changed spr):$(outcome spr)" "changed=5 failed=0:fingerprint $fp: applied"
is "first run: the weights written, auto mode off" \
	"$(cat "$spr/$WI/node0" "$spr/$WI/node1" "$spr/$WI/node2" "$spr/$WI/auto" | tr '\n' ' ')" "5 2 1 false "
cmp -s "$WORK/profiles/$fp.json" "$spr/etc/tiertune/profile.json"
is "first run: the profile placed, a file of mode 0644" \
	"$?:$(stat -c '%F %a' "$spr/etc/tiertune/profile.json")" "0:regular file 644"
is "first run: the boot unit and the metrics timer enabled (by systemctl, from their [Install])" \
	"$(readlink "$spr/etc/systemd/system/multi-user.target.wants/tiertune-apply.service"):$(readlink "$spr/etc/systemd/system/timers.target.wants/tiertune-metrics.timer")" \
	"/lib/systemd/system/tiertune-apply.service:/lib/systemd/system/tiertune-metrics.timer"
cp "$WORK/out" "$WORK/first.out"
first_rc=$rc
run "$pkg/usr/bin/tiertune" --sysfs-root "$spr" export --profile "$spr/etc/tiertune/profile.json" \
	--format prometheus -o "$WORK/unit.prom"
cmp -s "$WORK/unit.prom" "$spr/var/lib/prometheus/node-exporter/tiertune.prom"
is "first run: tiertune.prom holds the weights now, the bytes the metrics unit writes" \
	"$?:$(grep -c '^tiertune_weight_current{interface="upstream",node="0"} 5$' "$spr/var/lib/prometheus/node-exporter/tiertune.prom")" "0:1"
run env TIERTUNE_STATE_DIR="$spr/var/lib/tiertune" "$pkg/usr/bin/tiertune" --sysfs-root "$spr" restore --last --dry-run
is "first run: journalled in the host's state folder (restore --last would put back 25:3:3 and auto)" \
	"$rc:$(grep -c '^echo' "$WORK/out")" "0:4"
cp "$WORK/first.out" "$WORK/out"
is "another fingerprint: nothing changed" "$(changed genoa)" "changed=0 failed=0"
same_tree genoa
tap $? "another fingerprint: the host untouched (no profile, no unit, no weight)" "$(head -5 "$WORK/diff")"
is "another fingerprint: reported in the play and as the host's fact" \
	"$(grep -c "no profile for hardware fingerprint $gfp (no $WORK/profiles/$gfp.json): host left alone" "$WORK/out"):$(outcome genoa)" \
	"1:fingerprint $gfp: no_profile"
is "a profile named for this fingerprint, made on other hardware: that host fails, both named" \
	"$first_rc:$(changed wrong):$(grep -c "hardware fingerprint $fp; this root's is $gfp" "$WORK/out")" "2:changed=0 failed=1:1"
same_tree wrong
tap $? "... and nothing is placed or written there" "$(head -5 "$WORK/diff")"

# The second run, and check mode on the host as it now is: nothing to do.
snap
play --limit spr
is "second run: exit 0, nothing changed" "$rc:$(changed spr):$(outcome spr)" "0:changed=0 failed=0:fingerprint $fp: unchanged"
same_tree spr
tap $? "second run: nothing written" "$(head -5 "$WORK/diff")"
play --limit spr --check
is "check mode on the tuned host: exit 0, nothing would change" "$rc:$(changed spr)" "0:changed=0 failed=0"

done_testing
