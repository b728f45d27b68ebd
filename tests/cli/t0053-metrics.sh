#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The metrics timer's textfile and typed weights for an absent node (issue
# 35's last findings): with the profile bad, the weights in sysfs now are
# still written, with the reason; the file 0644 whatever the umask, written
# through no link; apply/export --weights refuse a node not online, whose
# weight file a kernel before 6.16 still has.
. "$(dirname "$0")/lib.sh"

WI=sys/kernel/mm/mempolicy/weighted_interleave
NODE=sys/devices/system/node
export TIERTUNE_STATE_DIR=$WORK/state
export TIERTUNE_DB=$WORK/t.db

root=$(copy_fixture spr-ddr5-2cxl)
prom=$WORK/prom
mkdir "$prom"
"$TT" --sysfs-root "$root" export --weights 0:5,1:2,2:1 --format json -o "$WORK/p.json"
metrics() { # the metrics unit's command on the fixture copy, profile $1
	run "$TT" --sysfs-root "$root" export --profile "$1" --format prometheus \
		-o "$prom/tiertune.prom"
}

# 1. A good minute, then the weights changed by hand and the profile made
# bad: the file holds the weights now, and the reason.
metrics "$WORK/p.json"
is "a good profile: written, node 0's weight now and the profile ok" \
	"$rc:$(grep -c '^tiertune_weight_current{interface="upstream",node="0"} 25$' "$prom/tiertune.prom"):$(grep -c '^tiertune_profile_ok 1$' "$prom/tiertune.prom")" \
	"0:1:1"
echo 9 >"$root/$WI/node0"
# Its name holds a quote and a backslash, which the reason quotes.
bad=$WORK/'b"a\d.json'
printf '{"format": "tiertune-profile",\n' >"$bad"
metrics "$bad"
is "a bad profile: exit 2, and the file holds node 0 at 9 (sysfs now), not 25" \
	"$rc:$(grep -c '^tiertune_weight_current{interface="upstream",node="0"} 9$' "$prom/tiertune.prom"):$(grep -c 'node="0"} 25$' "$prom/tiertune.prom")" \
	"2:1:0"
is "no recommended weights from a bad profile" \
	"$(grep -c '^tiertune_weight_recommended{' "$prom/tiertune.prom")" 0
# The reason as a label: one line, its quote and backslashes escaped as
# the text format reads them (only \\ \" \n), naming the profile.
reason=$(grep '^tiertune_profile_ok{' "$prom/tiertune.prom")
is "the reason a label, escaped" \
	"$(grep -cF "tiertune_profile_ok{reason=\"profile '$WORK/b\\\"a\\\\\\\\d.json' is not JSON: " <<<"$reason"):${reason: -4}" "1:\"} 0"
is "the reason on stderr too" "$(grep -cF "error: profile '$WORK/b\"a\\\\d.json' is not JSON" "$WORK/err")" 1
# Every label value holds only the text format's escapes.
bad_esc=$(grep -v '^#' "$prom/tiertune.prom" | sed 's/\\[\\"n]//g' | grep -c '\\')
is "no escape the text format does not have" "$bad_esc" 0
# A profile from other hardware: the same.
sed 's/"fingerprint": "[0-9a-f]*"/"fingerprint": "0123456789abcdef"/' "$WORK/p.json" >"$WORK/other.json"
metrics "$WORK/other.json"
is "a profile from other hardware: exit 2, weights now written, the reason said" \
	"$rc:$(grep -c 'node="0"} 9$' "$prom/tiertune.prom"):$(grep -c '^tiertune_profile_ok{reason=".*fingerprint 0123456789abcdef.*"} 0$' "$prom/tiertune.prom")" \
	"2:1:1"

# 2. Mode 0644 whatever the umask; a link at the path replaced, its target
# left alone.
for m in 077 000; do
	rm -f "$prom/tiertune.prom"
	(umask $m && "$TT" --sysfs-root "$root" export --profile "$WORK/p.json" \
		--format prometheus -o "$prom/tiertune.prom")
	is "under umask $m the textfile is 0644" "$(stat -c %a "$prom/tiertune.prom")" 644
done
echo victim >"$prom/victim.prom"
rm -f "$prom/tiertune.prom"
ln -s victim.prom "$prom/tiertune.prom"
metrics "$WORK/p.json"
is "a link at the path: replaced by the file, its target untouched" \
	"$rc:$([ -L "$prom/tiertune.prom" ] && echo link || echo file):$(cat "$prom/victim.prom")" \
	"0:file:victim"
rm -f "$prom/tiertune.prom"
ln -s /dev/null "$prom/tiertune.prom"
metrics "$WORK/p.json"
is "a link to a device: refused (exit 2), the link left" \
	"$rc:$(readlink "$prom/tiertune.prom")" "2:/dev/null"
# Other formats keep a shell's > (t0017): the umask's mode.
(umask 077 && "$TT" --sysfs-root "$root" export --profile "$WORK/p.json" --format shell \
	-o "$WORK/s.sh")
is "a shell export keeps the umask's mode" "$(stat -c %a "$WORK/s.sh")" 600

# 3. Node 2 not online, its weight file still there (a kernel before 6.16
# keeps one per possible node).
old=$(copy_fixture spr-ddr5-2cxl)
rm -rf "${old:?}/$NODE/node2"
echo 0-1 >"$old/$NODE/online"
echo 0-1 >"$old/$NODE/has_memory"
echo "10 14" >"$old/$NODE/node0/distance"
echo "14 10" >"$old/$NODE/node1/distance"
echo 1 >"$old/sys/devices/virtual/memory_tiering/memory_tier87/nodelist"
run "$TT" --sysfs-root "$old" apply --weights 0:5,2:2
is "apply --weights for node 2 not online: exit 3, named, nothing written" \
	"$rc:$(grep -c -- '--weights names node 2, which is not online' "$WORK/err"):$(cat "$old/$WI/node0" "$old/$WI/node2" | tr '\n' ' ')" \
	"3:1:25 3 "
run "$TT" --sysfs-root "$old" export --weights 0:5,2:2 --format json -o "$WORK/never.json"
is "export --weights for node 2 not online: exit 3, named, no profile" \
	"$rc:$(grep -c -- '--weights names node 2, which is not online' "$WORK/err"):$([ -e "$WORK/never.json" ] && echo made || echo none)" \
	"3:1:none"
run "$TT" --sysfs-root "$old" apply --weights 0:5,1:2
is "the nodes there still apply" "$rc:$(cat "$old/$WI/node0" "$old/$WI/node1" | tr '\n' ' ')" "0:5 2 "

# 4. The metrics unit itself (issue 45): its conditions as systemd checks
# them before each run, then its command, the unit's paths mapped to this
# test's. With the profile deleted, a ConditionPathExists on it skipped
# every run and node_exporter served the last file's gauges for ever.
root=$(copy_fixture spr-ddr5-2cxl)
unit=$WORK/tiertune-metrics.service
sed -e "s|@bindir@|$(dirname "$TT")|g" -e "s|@docdir@|$TT_TOP/docs|g" \
	"$TT_TOP/systemd/tiertune-metrics.service.in" >"$unit"
map() { sed -e "s|/etc/tiertune/profile.json|$WORK/etc-profile.json|g" -e "s|/var/lib/prometheus/node-exporter|$prom|g"; }
unit_run() { # sets rc to the command's exit, or to 'skipped' by a condition
	local c cmd
	while read -r c; do
		case $c in
		ConditionPathExists=*) [ -e "${c#*=}" ] || { rc=skipped; return; } ;;
		ConditionPathIsDirectory=*) [ -d "${c#*=}" ] || { rc=skipped; return; } ;;
		esac
	done < <(grep '^Condition' "$unit" | map)
	cmd=$(sed -n 's/^ExecStart=//p' "$unit" | map)
	# shellcheck disable=SC2086 # the unit's words, as systemd splits them
	run "$TT" --sysfs-root "$root" ${cmd#* }
}
rm -f "$prom/tiertune.prom"
cp "$WORK/p.json" "$WORK/etc-profile.json"
unit_run
is "the unit with its profile: written, recommended weights, profile ok" \
	"$rc:$(grep -c '^tiertune_weight_recommended{' "$prom/tiertune.prom"):$(grep -c '^tiertune_profile_ok 1$' "$prom/tiertune.prom")" \
	"0:3:1"
rm "$WORK/etc-profile.json"
echo 7 >"$root/$WI/node0"
unit_run
is "the profile deleted: the unit still runs (exit 2, as with a bad profile), the weights now" \
	"$rc:$(grep -c '^tiertune_weight_current{interface="upstream",node="0"} 7$' "$prom/tiertune.prom")" "2:1"
is "... no recommended weights, and the gauges say the profile is missing" \
	"$(grep -c '^tiertune_weight_recommended{' "$prom/tiertune.prom"):$(grep -cF "tiertune_profile_ok{reason=\"cannot read profile '$WORK/etc-profile.json': No such file or directory\"} 0" "$prom/tiertune.prom")" \
	"0:1"
mv "$prom" "$WORK/prom-away"
unit_run
is "no node_exporter textfile folder: skipped, as before" "$rc" skipped
mv "$WORK/prom-away" "$prom"

done_testing
