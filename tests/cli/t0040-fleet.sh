#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A fleet's pieces (docs/fleet.md): make install and uninstall, models by
# name from an installed copy, the systemd units (systemd-analyze verify)
# and the apply unit's own command on fixture copies: another fingerprint, a
# node not online yet, the node added; the shell and tmpfiles exports on a
# root that lacks a node; --interface both on a root with one interface.
. "$(dirname "$0")/lib.sh"

WI=sys/kernel/mm/mempolicy/weighted_interleave
NODE=sys/devices/system/node
# Its own state folder: the suites before it leave their journals and
# history in the shared one.
export TIERTUNE_STATE_DIR=$WORK/state
state=$TIERTUNE_STATE_DIR

# The license: GPL-3.0-or-later (LICENSE), an SPDX line in every source file.
run make -s -C "$TT_TOP" spdx-check
is "make spdx-check: every source file opens with its SPDX line" \
	"$rc:$(grep -cE '^spdx-check: [0-9]+ source files ok$' "$WORK/out")" "0:1"
is "LICENSE is the GPL, version 3" "$(sed -n 1,2p "$TT_TOP/LICENSE" | tr -s ' ' | sed 's/^ //')" \
	"GNU GENERAL PUBLIC LICENSE
Version 3, 29 June 2007"

# make install into a DESTDIR: the set README and the package promise.
dest=$WORK/dest
run make -s -C "$TT_TOP" BUILD="$TT_BUILD" DESTDIR="$dest" PREFIX=/usr/local install
is "make install exits 0" "$rc" 0
p=$dest/usr/local
missing=
for f in bin/tiertune share/man/man1/tiertune.1 share/bash-completion/completions/tiertune \
	share/doc/tiertune/json.md share/doc/tiertune/fleet.md \
	share/tiertune/models/spr-ddr5-2cxl.json share/tiertune/models/2s-genoa-cxl.json \
	share/tiertune/models/xeon-max-hbm-flat.json \
	share/tiertune/machines/spr-ddr5-2cxl/$WI/node2 share/tiertune/machines/2s-genoa-cxl/SOURCE \
	lib/systemd/system/tiertune-apply.service lib/systemd/system/tiertune-hotplug.service \
	lib/systemd/system/tiertune-metrics.service \
	lib/systemd/system/tiertune-metrics.timer lib/udev/rules.d/85-tiertune.rules; do
	[ -f "$p/$f" ] || missing="$missing $f"
done
if [ -x "$TT_BUILD/tiertop" ]; then
	for f in bin/tiertop share/man/man1/tiertop.1 share/bash-completion/completions/tiertop; do
		[ -f "$p/$f" ] || missing="$missing $f"
	done
fi
is "installed: binaries, man pages, completions, docs, models, machine trees, units" "${missing:-none}" none
is "the units name the installed binary (the hotplug unit starts the apply unit)" \
	"$(grep -h '^ExecStart=' "$p"/lib/systemd/system/*.service | cut -d' ' -f1 | sort -u | tr '\n' ' ')" \
	"ExecStart=/bin/sh ExecStart=/usr/local/bin/tiertune "

# A model by name, outside the source tree, from the installed data folder;
# its machine tree found beside it (../machines/NAME).
mkdir -p "$WORK/elsewhere"
run env -C "$WORK/elsewhere" TIERTUNE_DATADIR="$p/share/tiertune" "$p/bin/tiertune" --db "$WORK/m.db" auto \
	--source-node 0 --model spr-ddr5-2cxl --budget 20
is "auto --model NAME from an installed copy, outside the tree" \
	"$rc:$(grep -c "^SIMULATED: every figure comes from model '$p/share/tiertune/models/spr-ddr5-2cxl.json'" "$WORK/out"):$(grep -c "machines/spr-ddr5-2cxl" "$WORK/out")" \
	"0:1:1"
run env -C "$TT_TOP" "$TT" --db "$WORK/m.db" auto --source-node 0 --model 2s-genoa-cxl --budget 20
is "auto --model NAME in a checkout: model/machines/" "$rc" 0
expect_bad_input 2 \
	"no model 'spr-ddr5-2cxl': not a file here, nor spr-ddr5-2cxl.json in $WORK/none/models/" \
	- env -C "$WORK/elsewhere" TIERTUNE_DATADIR="$WORK/none" "$p/bin/tiertune" --db "$WORK/m.db" auto --source-node 0 --model spr-ddr5-2cxl
# The tree's own binary finds the tree's models wherever it is run from.
run env -C "$WORK/elsewhere" TIERTUNE_DATADIR="$WORK/none" "$TT" --db "$WORK/m.db" auto \
	--source-node 0 --model spr-ddr5-2cxl --budget 20
is "auto --model NAME with the tree's binary, run outside the tree: the tree's model/machines/" \
	"$rc:$(grep -c "^SIMULATED: every figure comes from model '$(cd "$(dirname "$TT")/.." && pwd -P)/model/machines/spr-ddr5-2cxl.json'" "$WORK/out")" \
	"0:1"

# make uninstall takes back every file install put there.
run make -s -C "$TT_TOP" BUILD="$TT_BUILD" DESTDIR="$dest" PREFIX=/usr/local uninstall
is "make uninstall: no file left" "$rc:$(find "$dest" -type f -o -type l | head -3)" "0:"

# The units, as systemd reads them (Documentation= man pages are not
# installed here: --man=no).
units=$WORK/units
mkdir -p "$units"
for f in "$TT_TOP"/systemd/*.in "$TT_TOP"/systemd/*.timer; do
	u=${f##*/}
	sed -e "s|@bindir@|$(dirname "$TT")|g" -e "s|@docdir@|$TT_TOP/docs|g" "$f" >"$units/${u%.in}"
done
if command -v systemd-analyze >/dev/null; then
	for u in "$units"/*; do
		run systemd-analyze verify --man=no "$u"
		is "systemd-analyze verify ${u##*/}" "$rc:$(cat "$WORK/err")" "0:"
	done
else
	skip "no systemd-analyze to verify the units with"
fi

# export --format systemd (issue 43): a drop-in for the program's service,
# one setting a line, ordered after the boot unit that writes the weights,
# each setting with the systemd it needs; accepted by systemd-analyze verify
# beside the units above. Whether the host's systemd has
# NUMAPolicy=weighted-interleave is asked of it: a fake systemd-analyze that
# accepts every unit stands for one that has it.
spr=$(copy_fixture spr-ddr5-2cxl)
mkdir -p "$WORK/sd-new"
printf '#!/bin/sh\n[ "$1" = --version ] && echo "systemd 262 (262)"\nexit 0\n' >"$WORK/sd-new/systemd-analyze"
chmod +x "$WORK/sd-new/systemd-analyze"
PATH="$WORK/sd-new:$PATH" run "$TT" --sysfs-root "$spr" export --weights 0:5,1:2,2:1 --source-node 0 --format systemd
cp "$WORK/out" "$WORK/dropin-new.conf"
is "systemd drop-in (a systemd with weighted-interleave): its settings, one a line" \
	"$rc:$(grep -v '^#' "$WORK/out" | grep . | tr '\n' ' ')" \
	"0:[Unit] Wants=tiertune-apply.service After=tiertune-apply.service [Service] CPUAffinity=0-31 NUMAPolicy=weighted-interleave NUMAMask=0-2 "
is "... each with the systemd it needs, the weights from the boot unit" \
	"$(grep -c 'pull request 42688 (merged 2026-06-22; Debian 12.s 252' "$WORK/out"):$(grep -c '^# NUMAMask=: systemd 243+' "$WORK/out"):$(grep -c "this host's systemd 262 (262) takes it" "$WORK/out"):$(grep -c '^#   tiertune export --weights 0:5,1:2,2:1 --format json -o /etc/tiertune/profile.json$' "$WORK/out")" \
	"1:1:1:1"
PATH="$WORK/sd-new:$PATH" run "$TT" --sysfs-root "$spr" export --weights 0:5,1:2,2:1 --source-node 0 --format systemd -- /usr/bin/app
is "... with '-- COMMAND' there: the service's own ExecStart= stays, said" \
	"$rc:$(grep -c '^ExecStart' "$WORK/out"):$(grep -c "^# (The service's own ExecStart= stays: systemd sets the policy for it.)$" "$WORK/out")" "0:0:1"
if command -v systemd-analyze >/dev/null; then
	sd=$(systemd-analyze --version | head -1)
	mkdir -p "$units/demo.service.d"
	printf '[Unit]\nDescription=a program tuned by tiertune\n[Service]\nExecStart=/bin/true\n' >"$units/demo.service"
	run "$TT" --sysfs-root "$spr" export --weights 0:5,1:2,2:1 --source-node 0 --format systemd -o "$units/demo.service.d/tiertune.conf"
	if grep -q '^NUMAPolicy=weighted-interleave$' "$units/demo.service.d/tiertune.conf"; then
		run systemd-analyze verify --man=no "$units/demo.service"
		is "this host's $sd has weighted-interleave: the drop-in verifies clean" "$rc:$(cat "$WORK/err")" "0:"
		skip "this host's systemd has weighted-interleave: no fallback drop-in to verify"
	else
		is "this host's $sd lacks weighted-interleave: said, with tiertune run in ExecStart= instead" \
			"$(grep -c "this host's $sd has no" "$units/demo.service.d/tiertune.conf"):$(grep -c '^#ExecStart=tiertune run --weights 0:5,1:2,2:1 --source-node 0 -- PROGRAM$' "$units/demo.service.d/tiertune.conf"):$(grep -c '^NUMAPolicy' "$units/demo.service.d/tiertune.conf")" \
			"1:1:0"
		run systemd-analyze verify --man=no "$units/demo.service"
		is "... and systemd-analyze verify takes it without a word" \
			"$rc:$(cat "$WORK/err"):$(grep -c '^CPUAffinity=0-31$' "$units/demo.service.d/tiertune.conf")" "0::1"
		# With the service's command after "--", the ExecStart= is written:
		# tiertune run by its path, each word as systemd splits it.
		run "$TT" --sysfs-root "$spr" export --weights 0:5,1:2,2:1 --source-node 0 --format systemd \
			-o "$units/demo.service.d/tiertune.conf" -- /usr/bin/app --port 80 "a b" '50%' '$HOME' ';' 'q"x'
		is "... with '-- COMMAND': the service's ExecStart= cleared, then through tiertune run" \
			"$rc:$(grep '^ExecStart=' "$units/demo.service.d/tiertune.conf" | tr '\n' '|')" \
			"0:ExecStart=|ExecStart=$TT run --weights 0:5,1:2,2:1 --source-node 0 -- /usr/bin/app --port 80 \"a b\" \"50%%\" \"\$\$HOME\" \\; \"q\\\"x\"|"
		run systemd-analyze verify --man=no "$units/demo.service"
		is "... and systemd-analyze verify takes that too" "$rc:$(cat "$WORK/err")" "0:"
		# The full drop-in: every line but the policy's is this systemd's.
		cp "$WORK/dropin-new.conf" "$units/demo.service.d/tiertune.conf"
		run systemd-analyze verify --man=no "$units/demo.service"
		is "the full drop-in on $sd: only NUMAPolicy=weighted-interleave is unknown" \
			"$rc:$(sed 's/^.*tiertune.conf:[0-9]*: //' "$WORK/err")" "0:Invalid NUMA policy type, ignoring: weighted-interleave"
	fi
else
	skip "no systemd-analyze to verify the drop-in with (mk/packages/check.debian: systemd)"
	skip "(the same)"
	skip "(the same)"
	skip "(the same)"
	skip "(the same)"
fi
expect_bad_input 2 "export takes a command only after '--', for --format systemd" \
	"$spr" "$TT" --sysfs-root "$spr" export --weights 0:5,1:2,2:1 --source-node 0 --format shell -- /usr/bin/app
expect_bad_input 2 "has a control character, which a unit file cannot hold" \
	"$spr" "$TT" --sysfs-root "$spr" export --weights 0:5,1:2,2:1 --source-node 0 --format systemd -- /usr/bin/app $'a\nb'

expect_bad_input 2 "the systemd drop-in runs the program on the CPUs of the node the weights are for: give --source-node N" \
	"$spr" "$TT" --sysfs-root "$spr" export --weights 0:5,1:2,2:1 --format systemd
out grep -q '^SUBSYSTEM=="memory", ACTION=="online", RUN+=.*is-enabled tiertune-apply.service || /bin/systemctl --no-block start tiertune-hotplug.service' \
	"$TT_TOP/systemd/85-tiertune.rules"
is "udev: a memory block onlined starts the hotplug unit when the apply unit is enabled" "$?" 0
# One apply per hot-add: the hotplug unit's own command, run on a memory
# folder of this test's (blocks onlined 0.5 s apart for 3 s, then one more
# while the apply runs) with a systemctl that logs: one start once the count
# has held still, and one more for the block that came during it (a fixed
# 2 s wait from the first event started the apply mid-burst and lost that
# block's event to systemd's merge).
hp=$(sed -n "s/^ExecStart=\/bin\/sh -c '\(.*\)'\$/\1/p" "$units/tiertune-hotplug.service" | sed 's/\$\$/$/g')
mem=$WORK/memory
mkdir -p "$mem"
printf '#!/bin/sh\necho "$(date +%%s.%%N) $*" >>%s/starts\nsleep 3\n' "$WORK" >"$WORK/systemctl"
chmod +x "$WORK/systemctl"
hp=$(printf '%s' "$hp" | sed "s|/sys/devices/system/memory|$mem|g; s|/bin/systemctl|$WORK/systemctl|")
: >"$WORK/starts"
for b in 0 1 2 3 4 5 6 7 8; do mkdir "$mem/memory$b" && echo offline >"$mem/memory$b/state"; done
sh -c "$hp" &
hpid=$!
for b in 0 1 2 3 4 5; do echo online >"$mem/memory$b/state"; sleep 0.5; done
# The first start comes 2 s after the last of those; the 7th block then
# onlines while that apply runs (the fake one takes 3 s).
while ! [ -s "$WORK/starts" ] && kill -0 $hpid 2>/dev/null; do sleep 0.1; done
early=$(wc -l <"$WORK/starts")
echo online >"$mem/memory6/state"
wait $hpid
is "the hotplug unit: one apply once a burst of blocks settles, one more for a block onlined during it" \
	"$early:$(wc -l <"$WORK/starts"):$(cut -d' ' -f2- "$WORK/starts" | sort -u)" \
	"1:2:start tiertune-apply.service"
is "the metrics unit: its textfile 0644 whatever the umask" \
	"$(grep -c '^UMask=0022$' "$units/tiertune-metrics.service")" 1
# Waiting for memory is no failure; before the workloads; the lock waited.
is "the apply unit: exit 3 a success, before basic.target, the lock waited for" \
	"$(grep -E '^(DefaultDependencies|Before|SuccessExitStatus|Environment)=' "$units/tiertune-apply.service" | tr '\n' ' ')" \
	"DefaultDependencies=no Before=basic.target shutdown.target SuccessExitStatus=3 Environment=TIERTUNE_LOCK_WAIT=1800 "

# The apply unit's own command, its profile path and the binary replaced,
# with --sysfs-root on a fixture copy.
unit_cmd() { # root profile
	local cmd
	cmd=$(sed -n 's/^ExecStart=//p' "$units/tiertune-apply.service")
	cmd=${cmd//\/etc\/tiertune\/profile.json/$2}
	set -- "$TT" --sysfs-root "$1" ${cmd#* }
	run "$@"
}
# A root as the machine is before its second CXL node's memory is onlined
# (dax/kmem after boot): node 2 neither online nor with a weight file.
before_hotplug() { # root
	rm -rf "$1/$NODE/node2" "$1/$WI/node2"
	echo 0-1 >"$1/$NODE/online"
	echo 0-1 >"$1/$NODE/has_memory"
	echo "10 14" >"$1/$NODE/node0/distance"
	echo "14 10" >"$1/$NODE/node1/distance"
	echo 1 >"$1/sys/devices/virtual/memory_tiering/memory_tier87/nodelist"
}
spr=$(copy_fixture spr-ddr5-2cxl)
"$TT" --sysfs-root "$spr" export --weights 0:5,1:2,2:1 --format json -o "$WORK/spr.json"
genoa=$(copy_fixture 2s-genoa-cxl)
"$TT" --sysfs-root "$genoa" export --weights 0:3,1:3,2:1,3:1 --format json -o "$WORK/genoa.json"

# Another machine's profile: nothing written, auto mode kept, both named.
before=$(tree_sum "$spr")
unit_cmd "$spr" "$WORK/genoa.json"
is "unit, another fingerprint: exit 2, nothing written, auto mode still on" \
	"$rc:$([ "$(tree_sum "$spr")" = "$before" ] && echo same):$(cat "$spr/$WI/auto")" "2:same:true"
is "unit, another fingerprint: the journal says why (both fingerprints)" \
	"$(grep -c "hardware fingerprint $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["machine"]["fingerprint"])' "$WORK/genoa.json"); this root's is" "$WORK/err")" 1

# Before hotplug: node 2 missing. Nothing written, the node named.
hot=$(copy_fixture spr-ddr5-2cxl)
before_hotplug "$hot"
before=$(tree_sum "$hot")
unit_cmd "$hot" "$WORK/spr.json"
is "unit, node 2 not online yet: exit 3, nothing written, auto mode still on" \
	"$rc:$([ "$(tree_sum "$hot")" = "$before" ] && echo same):$(cat "$hot/$WI/auto")" "3:same:true"
is "unit, node 2 not online yet: the node named" \
	"$(grep -c "names node 2, which is not online (online: 0-1): nothing written" "$WORK/err")" 1
is "unit, node 2 not online yet: no journal, no history" "$(ls "$state" 2>/dev/null | grep -c 'journal\|history')" 0

# The node's memory comes online: the tree as the machine has it now, and
# the unit runs again (the udev rule). Every weight written, read back,
# journalled in the undo history.
rm -rf "$hot"
cp -a "$FIX/spr-ddr5-2cxl" "$hot"
unit_cmd "$hot" "$WORK/spr.json"
is "unit after hotplug: exit 0, every weight written and read back" \
	"$rc:$(cat "$hot/$WI/node0" "$hot/$WI/node1" "$hot/$WI/node2" | tr '\n' ' '):$(grep -c '^3 values written and read back' "$WORK/out")" \
	"0:5 2 1 :1"
run "$TT" --sysfs-root "$hot" restore --last --dry-run
is "unit after hotplug: journalled (restore --last would put back 25:3:3 and auto)" \
	"$rc:$(grep -c '^echo' "$WORK/out"):$(grep -c 'echo true > .*auto' "$WORK/out")" "0:4:1"
unit_cmd "$hot" "$WORK/spr.json"
is "unit run again: nothing to write, nothing written" "$rc:$(cat "$hot/$WI/node0")" "0:5"

# The shell export checks every file before writing any: on the root before
# hotplug it writes nothing and creates nothing; its header and tmpfiles'
# say they are not all or nothing and name the unit.
hot=$(copy_fixture spr-ddr5-2cxl)
before_hotplug "$hot"
before=$(tree_sum "$hot")
"$TT" --sysfs-root "$spr" export --weights 0:5,1:2,2:1 --format shell -o "$WORK/w.sh"
run sh "$WORK/w.sh" "$hot"
is "shell export on a root without node 2: exit 1, nothing written or created, the file named" \
	"$rc:$([ "$(tree_sum "$hot")" = "$before" ] && echo same):$(grep -c "no $hot/$WI/node2" "$WORK/err")" "1:same:1"
for fmt in shell tmpfiles; do
	run "$TT" --sysfs-root "$spr" export --weights 0:5 --format $fmt
	is "$fmt export: its header says it is not all or nothing and names the unit" \
		"$(grep -c '^# NOT ALL OR NOTHING' "$WORK/out"):$(grep -c 'tiertune-apply.service' "$WORK/out")" "1:1"
done
if command -v shellcheck >/dev/null; then
	check "the shell export passes shellcheck" shellcheck "$WORK/w.sh"
else
	skip "no shellcheck"
fi

# --interface both on a root with one interface: the script for a mixed
# fleet, each interface written where it is, on this root the upstream one.
run "$TT" --sysfs-root "$spr" export --weights 0:5,1:2,2:1 --source-node 0 --format shell --interface both -o "$WORK/both.sh"
is "export --interface both on a root with one interface" "$rc" 0
both=$(copy_fixture spr-ddr5-2cxl)
run sh "$WORK/both.sh" "$both"
is "its script writes the interface the root has" \
	"$rc:$(cat "$both/$WI/node0" "$both/$WI/node1" "$both/$WI/node2" | tr '\n' ' ')" "0:5 2 1 "
rfc=$(copy_fixture rfc-4node)
run "$TT" --sysfs-root "$rfc" export --tier-weights 4:5,22:1 --source-node 0 --format shell --interface both -o "$WORK/both-rfc.sh"
run sh "$WORK/both-rfc.sh" "$rfc"
is "and on the RFC root, the RFC interface (source 0's entry; the shell writes the file as given)" \
	"$rc:$(cat "$rfc/sys/devices/virtual/memory_tiering/memory_tier4/interleave_weight")" "0:0:5"
# The earlier RFC shares that file's path: its root gets the plain number.
v1=$(copy_fixture rfcv1-4node)
run sh "$WORK/both-rfc.sh" "$v1"
is "and on the earlier RFC's root (rfcv1), its one number per tier" \
	"$rc:$(cat "$v1/sys/devices/virtual/memory_tiering/memory_tier4/interleave_weight")" "0:5"

# The metrics unit's export: from the profile, weights now and recommended.
run "$TT" --sysfs-root "$spr" export --profile "$WORK/spr.json" --format prometheus
is "export --profile FILE --format prometheus (the metrics unit)" \
	"$rc:$(grep -c '^tiertune_weight_recommended{interface="upstream",node="2"} 1$' "$WORK/out"):$(grep -c '^tiertune_weight_current{interface="upstream",node="0"} 25$' "$WORK/out")" \
	"0:1:1"
expect_bad_input 2 "is from host" "$spr" "$TT" --sysfs-root "$spr" export --profile "$WORK/genoa.json" --format shell

done_testing
