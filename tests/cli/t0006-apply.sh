#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# apply, restore, export against copies of fixtures (whose writes follow the
# kernel's store rules, core/fixture-kernel.c): round trips, faults injected
# at each write, killed applies, per-source conflicts, profiles, every
# export format, bad input.
. "$(dirname "$0")/lib.sh"

WI=sys/kernel/mm/mempolicy/weighted_interleave
state=$TIERTUNE_STATE_DIR

# apply then restore: every fixture byte for byte as it was.
roundtrip() { # fixture check-after-apply apply-args...
	local fx=$1 want=$2 root before
	shift 2
	root=$(copy_fixture "$fx")
	before=$(tree_sum "$root")
	run "$TT" --sysfs-root "$root" apply "$@"
	is "$fx: apply $* exits 0, journal gone" "$rc:$(ls "$state" | grep -c journal)" "0:0"
	is "$fx: the values read back" "$(eval "$want")" "ok"
	run "$TT" --sysfs-root "$root" restore
	is "$fx: restore exits 0" "$rc" 0
	is "$fx: tree byte for byte as before" "$(tree_sum "$root")" "$before"
}
roundtrip spr-ddr5-2cxl '[ "$(cat $root/$WI/node0 $root/$WI/node1 $root/$WI/node2 $root/$WI/auto | tr "\n" " ")" = "5 2 1 false " ] && echo ok' \
	--weights 0:5,1:2,2:1
root=$(copy_fixture spr-ddr5-2cxl)
run "$TT" --sysfs-root "$root" apply --weights 0:5
is "apply says that writing a node weight turned auto mode off" \
	"$rc:$(grep -c "turned the kernel's auto mode off" "$WORK/out")" "0:1"
run "$TT" --sysfs-root "$root" restore
roundtrip 2s-genoa-cxl '[ "$(cat $root/$WI/node{0,1,2,3} | tr "\n" " ")" = "3 3 1 1 " ] && echo ok' \
	--weights 0:3,1:3,2:1,3:1
roundtrip xeon-max-hbm-flat '[ "$(cat $root/$WI/node2)" = 7 ] && echo ok' --weights 0:1,2:7
roundtrip qemu-3node-hmat '[ "$(cat $root/$WI/node2)" = 4 ] && echo ok' --weights 2:4
roundtrip rfc-4node '[ "$(cat $root/sys/devices/virtual/memory_tiering/memory_tier4/interleave_weight)" = "0:85,1:3,2:1,3:1" ] && echo ok' \
	--tier-weights 4:85,22:15 --source-node 0
roundtrip spr-ddr5-2cxl '[ "$(cat $root/$WI/node1)" = 2 ] && echo ok' --tier-weights 87:4 --source-node 0

# restore --auto and --defaults.
root=$(copy_fixture spr-ddr5-2cxl)
before=$(tree_sum "$root")
"$TT" --sysfs-root "$root" apply --weights 0:5,1:2,2:1 >/dev/null
run "$TT" --sysfs-root "$root" restore --auto
is "restore --auto: the kernel recomputes 25:3:3 from HMAT, the tree as before" \
	"$rc:$(tree_sum "$root")" "0:$before"
run "$TT" --sysfs-root "$root" restore --defaults
is "restore --defaults: weight 1 everywhere (and auto off, as any node write does)" \
	"$rc:$(cat "$root"/$WI/node{0,1,2} "$root/$WI/auto" | tr '\n' ' ')" "0:1 1 1 false "
root=$(copy_fixture 2s-genoa-cxl)
expect_bad_input 3 "no auto mode file" "$root" "$TT" --sysfs-root "$root" restore --auto
root=$(copy_fixture rfc-4node)
run "$TT" --sysfs-root "$root" restore --defaults
is "restore --defaults on the RFC: every source's tier weight 1" \
	"$rc:$(cat "$root"/sys/devices/virtual/memory_tiering/memory_tier{4,22}/interleave_weight | tr '\n' ' ')" \
	"0:0:1,1:1,2:1,3:1 0:1,1:1,2:1,3:1 "

# This VM's kernel has auto on and no bandwidth data: auto cannot come back.
root=$(copy_fixture vm-1node)
expect_bad_input 3 "cannot turn it back on" "$root" "$TT" --sysfs-root "$root" apply --weights 0:2
run "$TT" --sysfs-root "$root" apply --weights 0:2 --force
is "--force applies anyway, with a warning" "$rc:$(grep -c 'goes off for good' "$WORK/err")" "0:1"
run "$TT" --sysfs-root "$root" restore
is "restore brings the weight back and leaves auto off, as the kernel must" \
	"$rc:$(cat "$root/$WI/node0" "$root/$WI/__auto_type" | tr '\n' ' ')" "0:1 false "

# --dry-run writes nothing and says what it would.
root=$(copy_fixture spr-ddr5-2cxl)
before=$(tree_sum "$root")
run "$TT" --sysfs-root "$root" apply --weights 0:5,1:2 --dry-run
is "dry run: the writes and the auto side effect, nothing changed" \
	"$rc:$(grep -c '^echo ' "$WORK/out"):$(grep -c 'auto to false' "$WORK/out"):$( [ "$(tree_sum "$root")" = "$before" ] && echo same)" "0:2:1:same"

# Faults: a write that fails half-way, a read-back that differs, injected
# by the test front end (core/test-hooks.h): tiertune itself ignores them.
root=$(copy_fixture spr-ddr5-2cxl)
TIERTUNE_TEST_FIXTURE_FAULT=fail:1 TIERTUNE_STATE_DIR="$WORK/shipped-state" run "$TT" --sysfs-root "$root" apply --weights 0:5,1:2,2:1
is "the shipped tiertune reads no fault variable" "$rc:$(cat "$root/sys/kernel/mm/mempolicy/weighted_interleave/node0")" "0:5"
for fault in fail:1 fail:2 fail:3 garble:1 garble:3; do
	root=$(copy_fixture spr-ddr5-2cxl)
	before=$(tree_sum "$root")
	TIERTUNE_TEST_FIXTURE_FAULT=$fault run "$TT_BUILD/tests/tiertune-test" --sysfs-root "$root" apply --weights 0:5,1:2,2:1
	is "fault $fault: exit 1, old values back at once, no journal" \
		"$rc:$(grep -c 'put back' "$WORK/err"):$( [ "$(tree_sum "$root")" = "$before" ] && echo same):$(ls "$state" | grep -c journal)" \
		"1:1:same:0"
done
# SIGKILL before each write: the journal stays, other commands warn, the
# next restore (or apply) puts everything back.
for at in 1 2 3; do
	root=$(copy_fixture spr-ddr5-2cxl)
	before=$(tree_sum "$root")
	TIERTUNE_TEST_FIXTURE_FAULT=kill:$at run "$TT_BUILD/tests/tiertune-test" --sysfs-root "$root" apply --weights 0:5,1:2,2:1
	is "killed before write $at: the journal is left" "$rc:$(ls "$state" | grep -c 'apply.journal$')" "137:1"
	run "$TT" --sysfs-root "$root" topo
	is "killed before write $at: a read-only command warns with the way out" \
		"$rc:$(grep -c "run 'tiertune restore'" "$WORK/err")" "0:1"
	if [ "$at" = 3 ]; then
		run "$TT" --sysfs-root "$root" apply --weights 0:5 --dry-run
		run "$TT" --sysfs-root "$root" apply --weights 0:9
		is "the next apply first puts the old values back" "$rc:$(grep -c 'first put back' "$WORK/err")" "0:1"
		run "$TT" --sysfs-root "$root" restore --last
	else
		run "$TT" --sysfs-root "$root" restore
		is "killed before write $at: restore uses the journal" "$rc:$(grep -c 'from journal' "$WORK/out")" "0:1"
	fi
	is "killed before write $at: tree as before, journal gone" \
		"$( [ "$(tree_sum "$root")" = "$before" ] && echo same):$(ls "$state" | grep -c journal)" "same:0"
done

# Two applies cannot interleave: the second waits for the lock, up to
# TIERTUNE_LOCK_WAIT seconds, and is refused after (here at once).
root=$(copy_fixture spr-ddr5-2cxl)
mkdir -p "$state"
flock "$state/apply.lock" sleep 3 &
holder=$!
sleep 0.5
before=$(tree_sum "$root")
run env TIERTUNE_LOCK_WAIT=0 "$TT" --sysfs-root "$root" apply --weights 0:5
is "a second apply while one holds the lock: exit 1, nothing written" \
	"$rc:$(grep -c 'another tiertune is writing weights' "$WORK/err"):$( [ "$(tree_sum "$root")" = "$before" ] && echo same)" \
	"1:1:same"
run "$TT" --sysfs-root "$root" apply --weights 0:5
is "by default it waits for the lock, then writes" "$rc:$(cat "$root/sys/kernel/mm/mempolicy/weighted_interleave/node0")" "0:5"
wait "$holder"

# A journal that is garbage: named, nothing written.
root=$(copy_fixture spr-ddr5-2cxl)
mkdir -p "$state"
printf 'tiertune-journal 1\nwrite plain /etc/passwd x y\nroot /\n' >"$WORK/bad.journal"
expect_bad_input 2 "journal '$WORK/bad.journal' is not a tiertune journal (line 2)" "$root" \
	"$TT" --sysfs-root "$root" restore --journal "$WORK/bad.journal"
cp "$WORK/bad.journal" "$state/apply.journal"
expect_bad_input 2 "is not a tiertune journal" "$root" "$TT" --sysfs-root "$root" apply --weights 0:2
rm -f "$state/apply.journal"

# Per-source recommendations on an upstream kernel, from profiles.
root=$(copy_fixture 2s-genoa-cxl)
"$TT" --sysfs-root "$root" export --weights 0:1 --format json -o "$WORK/p.json"
profile() { # file recommendations-json
	python3 -c 'import json,sys; p=json.load(open(sys.argv[1])); p["recommendations"]=json.loads(sys.argv[3]); json.dump(p, open(sys.argv[2], "w"))' "$WORK/p.json" "$1" "$2"
}
profile "$WORK/disjoint.json" '[{"source_node":0,"interface":"upstream","weights":{"0":3,"2":1}},{"source_node":1,"interface":"upstream","weights":{"1":3,"3":1}}]'
profile "$WORK/overlap.json" '[{"source_node":0,"interface":"upstream","weights":{"0":3,"2":1}},{"source_node":1,"interface":"upstream","weights":{"1":3,"2":2}}]'
run "$TT" --sysfs-root "$root" apply --profile "$WORK/disjoint.json"
is "disjoint per-source vectors merge into one" "$rc:$(cat "$root"/$WI/node{0,1,2,3} | tr '\n' ' ')" "0:3 3 1 1 "
run "$TT" --sysfs-root "$root" restore
expect_bad_input 2 "source nodes 0 and 1 want node 2 at weights 1 and 2" "$root" \
	"$TT" --sysfs-root "$root" apply --profile "$WORK/overlap.json"
profile "$WORK/keyed.json" '[{"source_node":0,"interface":"upstream","weights":{"4":3,"22":1},"weights_keyed_by":"tier"}]'
expect_bad_input 2 "weights_keyed_by 'tier' does not match the upstream interface, whose weights are by node" "$root" \
	"$TT" --sysfs-root "$root" apply --profile "$WORK/keyed.json"
profile "$WORK/negative.json" '[{"source_node":0,"interface":"upstream","weights":{"0":-3}}]'
expect_bad_input 2 "the weight of id '0', -3, is not a whole number" "$root" \
	"$TT" --sysfs-root "$root" apply --profile "$WORK/negative.json"
profile "$WORK/nulls.json" '[{"source_node":null,"interface":"upstream","weights":{"0":3}},{"source_node":null,"interface":"upstream","weights":{"0":2}}]'
expect_bad_input 2 "two recommendations (no source node, no source node) want node 0 at weights 3 and 2" "$root" \
	"$TT" --sysfs-root "$root" apply --profile "$WORK/nulls.json"
run "$TT" --sysfs-root "$root" apply --profile "$WORK/overlap.json" --source-node 1
is "--source-node picks one, with a warning" \
	"$rc:$(grep -c 'every other source node will use' "$WORK/err"):$(cat "$root"/$WI/node{1,2} | tr '\n' ' ')" "0:1:3 2 "
run "$TT" --sysfs-root "$root" restore
spr=$(copy_fixture spr-ddr5-2cxl)
expect_bad_input 2 "is from host 'genoa-cxl-12' with hardware fingerprint" "$spr" \
	"$TT" --sysfs-root "$spr" apply --profile "$WORK/p.json"
run "$TT" --sysfs-root "$spr" apply --profile "$WORK/p.json" --force
is "a profile from another host with --force" "$rc:$(cat "$spr/$WI/node0")" "0:1"
run "$TT" --sysfs-root "$spr" restore
# A source node this machine does not have is refused by name, --force or
# not, also in a profile from another CPU model (it was applied silently).
profile "$WORK/src7.json" '[{"source_node":7,"interface":"upstream","weights":{"0":3,"1":1}}]'
expect_bad_input 3 "profile '$WORK/src7.json' names source node 7, which is not online (online: 0-2)" "$spr" \
	"$TT" --sysfs-root "$spr" apply --profile "$WORK/src7.json" --force
# simulated is a boolean: "yes" was read as false (a model's weights
# applied without the SIMULATED warning).
python3 -c 'import json, sys; p = json.load(open(sys.argv[1])); p["simulated"] = "yes"; json.dump(p, open(sys.argv[2], "w"))' \
	"$WORK/p.json" "$WORK/sim-yes.json"
expect_bad_input 2 "profile '$WORK/sim-yes.json': simulated is \"yes\", not true or false" "$spr" \
	"$TT" --sysfs-root "$spr" apply --profile "$WORK/sim-yes.json" --force
# A profile as 0.2.0 wrote it ("version": 1, "host", -1 for no source) still applies.
python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))
old = {"format": p["format"], "version": 1, "host": p["machine"], "run": None,
       "recommendations": [dict(r, source_node=-1) for r in p["recommendations"]]}
for r in old["recommendations"]:
    r.pop("weights_keyed_by")
json.dump(old, open(sys.argv[2], "w"))' "$WORK/p.json" "$WORK/v1.json"
run "$TT" --sysfs-root "$spr" apply --profile "$WORK/v1.json" --force
is "a version-1 profile (0.2.0's) applies" "$rc:$(cat "$spr/$WI/node0")" "0:1"
run "$TT" --sysfs-root "$spr" restore

# Bad input: nothing written, input named.
root=$(copy_fixture spr-ddr5-2cxl)
expect_bad_input 2 "weight '0' for node 1 out of range (1-255)" "$root" "$TT" --sysfs-root "$root" apply --weights 0:5,1:0
expect_bad_input 2 "weight '256' for node 1 out of range (1-255)" "$root" "$TT" --sysfs-root "$root" apply --weights 0:5,1:256
expect_bad_input 2 "node 9 is not online" "$root" "$TT" --sysfs-root "$root" apply --weights 9:1
expect_bad_input 2 "apply needs exactly one of" "$root" "$TT" --sysfs-root "$root" apply
rfc=$(copy_fixture rfc-4node)
expect_bad_input 2 "weight '101' for tier 4 out of range (0-100)" "$rfc" "$TT" --sysfs-root "$rfc" apply --tier-weights 4:101 --source-node 0
expect_bad_input 2 "tier 9 does not exist" "$rfc" "$TT" --sysfs-root "$rfc" apply --tier-weights 9:1 --source-node 0
expect_bad_input 2 "give --source-node N" "$rfc" "$TT" --sysfs-root "$rfc" apply --tier-weights 4:50
echo '{"format": "something else"}' >"$WORK/other.json"
expect_bad_input 2 "profile '$WORK/other.json' is not a tiertune profile" "$root" "$TT" --sysfs-root "$root" apply --profile "$WORK/other.json"
expect_bad_input 2 "profile '$WORK/bad.journal' is not JSON" "$root" "$TT" --sysfs-root "$root" apply --profile "$WORK/bad.journal"
if can_drop; then
	ttn=$(nobody_tt) # $WORK is now 755: nobody may read the copy, not write it
	expect_bad_input 3 "cannot open '$root/$WI/node0' for writing" "$root" \
		"${NOBODY[@]}" "$ttn" --sysfs-root "$root" apply --weights 0:5
	# Where auto mode cannot come back (vm-1node), permission is still
	# said first: no --force suggested, no --force warning, to a user who
	# could not write anyway.
	vm=$(copy_fixture vm-1node)
	chmod -R a+rX "$vm"
	for force in "" --force; do
		run "${NOBODY[@]}" "$ttn" --sysfs-root "$vm" apply --weights 0:2 $force
		is "not root, auto mode at stake${force:+, $force}: needs root said, nothing of auto mode or --force" \
			"$rc:$(grep -c 'needs root' "$WORK/err"):$(grep -c -e 'auto mode' -e 'force' "$WORK/err")" "3:1:0"
	done
else
	skip "the not-root check needs root and setpriv to drop to nobody"
	skip "the not-root check needs root and setpriv to drop to nobody"
	skip "the not-root check needs root and setpriv to drop to nobody"
fi

# Export: every format from the same weights.
root=$(copy_fixture spr-ddr5-2cxl)
fresh=$(copy_fixture spr-ddr5-2cxl)
"$TT" --sysfs-root "$root" apply --weights 0:6,1:2,2:1 >/dev/null
run "$TT" --sysfs-root "$fresh" export --weights 0:6,1:2,2:1 --format shell -o "$WORK/w.sh"
sh "$WORK/w.sh" "$fresh"
is "the shell script, run on a fresh copy, gives the tree apply gives" "$rc:$(tree_sum "$fresh")" "0:$(tree_sum "$root")"
run "$TT" --sysfs-root "$fresh" export --weights 0:6,1:2,2:1 --format json
is "json: a profile with the machine's fingerprint and weights" \
	"$(json '(j["format"], j["machine"]["hostname"], len(j["machine"]["fingerprint"]), j["recommendations"][0]["weights"])' <"$WORK/out")" \
	"('tiertune-profile', 'spr-cxl-07.lab', 16, {'0': 6, '1': 2, '2': 1})"
run "$TT" --sysfs-root "$fresh" export --weights 0:6,1:2,2:1 --format tmpfiles
is "tmpfiles: one 'w PATH - - - - VALUE' line per node" \
	"$(grep -v '^#' "$WORK/out" | awk 'NF == 7 && $1 == "w" && $2 ~ /^\/sys\/kernel\/mm\/mempolicy\/weighted_interleave\/node[0-9]+$/ && $3$4$5$6 == "----" {print $7}' | tr '\n' ' ')" "6 2 1 "
run "$TT" --sysfs-root "$rfc" export --tier-weights 4:85,22:15 --source-node 0 --format tmpfiles
is "tmpfiles for the RFC: src:weight per tier" "$(grep -v '^#' "$WORK/out" | awk '{print $1, $7}' | tr '\n' ' ')" "w 0:85 w 0:15 "
# numactl: the CPUs on the source node; a numactl without -w (2.0.16)
# gets the tiertune run line instead (t0040 has both).
mkdir -p "$WORK/numactl-new" && printf '#!/bin/sh\necho "--weighted-interleave= | -w <nodes>"\n' >"$WORK/numactl-new/numactl"
chmod +x "$WORK/numactl-new/numactl"
PATH="$WORK/numactl-new:$PATH" run "$TT" --sysfs-root "$fresh" export --weights 0:6,1:2,2:1 --source-node 0 --format numactl
is "numactl: the --weighted-interleave line" "$(grep -v '^#' "$WORK/out")" 'numactl --cpunodebind=0 --weighted-interleave=0-2 -- "$@"'
run "$TT" --sysfs-root "$fresh" export --weights 0:6,1:2,2:1 --format prometheus
is "prometheus: every sample line parses, recommended and current weights present" \
	"$(python3 -c '
import re, sys
lines = [l for l in open(sys.argv[1]).read().splitlines() if l and not l.startswith("#")]
ok = all(re.fullmatch(r"[a-z_]+(\{[a-z_]+=\"[^\"]*\"(,[a-z_]+=\"[^\"]*\")*\})? -?[0-9.e+-]+", l) for l in lines)
print(ok, sum("recommended" in l for l in lines), sum("current" in l for l in lines))' "$WORK/out")" "True 3 3"
expect_bad_input 2 "csv exports a run's trials" "$fresh" "$TT" --sysfs-root "$fresh" export --weights 0:1 --format csv
expect_bad_input 2 "option '--format' value 'yaml' is not one of: shell, json, tmpfiles, numactl, systemd, prometheus, csv, shares" "$fresh" "$TT" --sysfs-root "$fresh" export --weights 0:1 --format yaml

# From the database: a recorded run given a recommendation (the tuner's
# job, not yet built, so the test writes the row).
run "$TT" bench --kernel copy --size 4M --repeat 2 --record
bench_run=$("$TT" runs --json | json '[r["id"] for r in j["runs"] if r["kind"] == "bench"][0]')
python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("INSERT INTO recommendations (run_id, source_node, interface, weights, gain) VALUES (?, 0, \"upstream\", \"0:1\", 0.05)", (int(sys.argv[2]),)); c.commit()' "$TIERTUNE_DB" "$bench_run"
run "$TT" export --run "$bench_run" --format csv
is "csv: the run's trials, a row per node" "$rc:$(wc -l <"$WORK/out"):$(head -1 "$WORK/out" | cut -d, -f1-3)" "0:2:run,trial,kernel"
vm=$(copy_fixture vm-1node)
# The run was recorded on this machine; the fixture is another's.
expect_bad_input 2 "run $bench_run is from host" "$vm" "$TT" --sysfs-root "$vm" export --latest --format prometheus
run "$TT" --sysfs-root "$vm" export --latest --format prometheus --force
is "--latest finds the run with a recommendation; gain exported" "$rc:$(grep -c '^tiertune_gain_ratio{source_node="0"} 0.05$' "$WORK/out")" "0:1"
run "$TT" --sysfs-root "$vm" export --run "$bench_run" --format shell -o "$WORK/out.sh" --force
is "-o writes the file whole (no temp left)" "$rc:$(ls "$WORK" | grep -c 'out.sh.'):$(grep -c '^echo 1 > ' "$WORK/out.sh")" "0:0:1"
# Stored weights that are no weights (a damaged database, or one merged
# from elsewhere): named with the run, never applied ("weights '' are
# empty" before), and show marks them.
python3 -c 'import sqlite3, sys
d = sqlite3.connect(sys.argv[2]); sqlite3.connect(sys.argv[1]).backup(d)
d.execute("UPDATE recommendations SET weights = ? WHERE run_id = ?", ("0:5;rm -rf x", int(sys.argv[3]))); d.commit()' \
	"$TIERTUNE_DB" "$WORK/garbage.db" "$bench_run"
expect_bad_input 2 "run $bench_run: its recommendation for source node 0 holds weights '0:5;rm -rf x', which are not NODE:WEIGHT" \
	"$vm" "$TT" --db "$WORK/garbage.db" --sysfs-root "$vm" apply --run "$bench_run" --force
expect_bad_input 2 "holds weights '0:5;rm -rf x'" "$vm" \
	"$TT" --db "$WORK/garbage.db" --sysfs-root "$vm" export --latest --format shell --force
run "$TT" --db "$WORK/garbage.db" show "$bench_run"
is "show: stored text that is no weights, as it is" "$rc:$(grep -c " '0:5;rm -rf x' (not weights) " "$WORK/out")" "0:1"
# The kernel's auto-mode formula, for kernels without auto mode (6.9-6.15):
# on the QEMU layout's HMAT, 14:14:3 (its SOURCE note works it out).
q3=$(copy_fixture qemu-3node-hmat)
run "$TT" --sysfs-root "$q3" apply --weights auto
is "apply --weights auto writes the kernel's formula" "$rc:$(cat "$q3"/$WI/node{0,1,2} | tr '\n' ' ')" "0:14 14 3 "
run "$TT" --sysfs-root "$q3" apply --weights 0:14,1:14,2:4
is "values already as wanted are left alone, and it says so" \
	"$rc:$(grep -c ' -> ' "$WORK/out"):$(grep -c '2 already as wanted, left alone' "$WORK/out")" "0:1:1"
run "$TT" --sysfs-root "$q3" apply --weights 0:14,1:14,2:4
is "nothing to write is no error" "$rc:$(cat "$WORK/out")" "0:3 values are already as wanted: nothing to write"
run "$TT" --sysfs-root "$q3" restore --last
is "restore --last undoes the last apply, the one value it wrote" "$rc:$(cat "$q3"/$WI/node{0,1,2} | tr '\n' ' ')" "0:14 14 3 "
g=$(copy_fixture 2s-genoa-cxl)
expect_bad_input 3 "weights 'auto' need HMAT bandwidth" "$g" "$TT" --sysfs-root "$g" apply --weights auto

# restore --last steps back one apply each time, newest first, and says
# when none is left.
st=$(copy_fixture spr-ddr5-2cxl)
s0=$(tree_sum "$st")
"$TT" --sysfs-root "$st" apply --weights 0:5 >/dev/null
"$TT" --sysfs-root "$st" apply --weights 0:7 >/dev/null
run "$TT" --sysfs-root "$st" restore --last
is "the first restore --last undoes the newer apply" "$rc:$(cat "$st/$WI/node0")" "0:5"
run "$TT" --sysfs-root "$st" restore --last
is "the second undoes the one before: the copy as it was" "$rc:$(tree_sum "$st")" "0:$s0"
expect_bad_input 2 "left to undo (each restore --last undoes one, newest first)" "$st" \
	"$TT" --sysfs-root "$st" restore --last
"$TT" --sysfs-root "$st" apply --weights 0:9 >/dev/null
run "$TT" --sysfs-root "$st" restore --last
is "an apply after them is undone on its own" "$rc:$(tree_sum "$st")" "0:$s0"

# The history is bounded: past 1 MiB it becomes apply.history.1 (replacing
# the one before) when the next record goes in, and restore --last finds a
# root's newest apply in either file.
h1=$(copy_fixture spr-ddr5-2cxl) h2=$(copy_fixture 2s-genoa-cxl)
s1=$(tree_sum "$h1") s2=$(tree_sum "$h2")
"$TT" --sysfs-root "$h2" apply --weights 0:4,1:4,2:1,3:1 >/dev/null
rm -f "$state/apply.history.1"
head -c 1048576 /dev/zero | tr '\0' 'x' | fold -w 79 >>"$state/apply.history"
run "$TT" --sysfs-root "$h1" apply --weights 0:5,1:2,2:2
is "an apply past 1 MiB moves the history to .1 and starts a new one" \
	"$rc:$([ -f "$state/apply.history.1" ] && echo moved):$(($(stat -c %s "$state/apply.history") < 4096))" "0:moved:1"
run "$TT" --sysfs-root "$h1" restore --last
is "restore --last finds the apply in the new history" "$rc:$(tree_sum "$h1")" "0:$s1"
run "$TT" --sysfs-root "$h2" restore --last
is "and another root's apply in the moved one" "$rc:$(tree_sum "$h2")" "0:$s2"

# The auto-mode rule exists once (writer/auto-rule.c): a tiertune linked
# with a stricter one (tests/unit/strict-auto-rule.c: no write may turn auto
# mode off) refuses it from apply, auto --apply and --all-sources alike,
# where the real rule lets it through (HMAT can turn auto back on here).
# auto writes only weights that beat the kernel's auto mode beyond the noise
# while it is on (issue 20): the Xeon Max with CXL model's do at 60
# measurements. (The two-socket flat one's cost the other socket's tasks
# over every node since issue 43: nothing written.)
strict=$TT_BUILD/tests/tiertune-strict-auto
m=$TT_TOP/model/machines/spr-ddr5-2cxl.json
xm=$TT_TOP/model/machines/xeon-max-hbm-cxl.json
for cmd in "spr-ddr5-2cxl apply --weights 0:5,1:2,2:1" \
	"xeon-max-hbm-cxl auto --source-node 0 --model $xm --budget 60 --no-record --apply"; do
	sr=$(copy_fixture "${cmd%% *}")
	cmd=${cmd#* }
	echo true >"$sr/$WI/auto"
	s0=$(tree_sum "$sr")
	# shellcheck disable=SC2086
	run "$strict" --sysfs-root "$sr" $cmd
	is "strict rule: '${cmd%% --model*}' follows it (refused, nothing written)" \
		"$rc:$(grep -c "strict test rule (.*): this write turns the kernel's auto mode off" "$WORK/err"):$(tree_sum "$sr")" "3:1:$s0"
	# shellcheck disable=SC2086
	run "$TT" --sysfs-root "$sr" $cmd
	is "real rule: '${cmd%% --model*}' writes" "$rc:$(cat "$sr/$WI/auto")" "0:false"
done
# --all-sources reaches the same rule through the writer (writer/writer.c,
# TT_WRITER_AUTO_ALL), but no shipped model gives a set to write with auto
# mode on: SPR's single source keeps auto mode (no gain beyond the noise), and
# the two-socket models' sources want different global weights. So here: a
# run that keeps auto mode writes nothing under either rule, and says so as
# every output of a model's run is said: SIMULATED first.
sr=$(copy_fixture spr-ddr5-2cxl)
s0=$(tree_sum "$sr")
for t in "$strict" "$TT"; do
	run "$t" --sysfs-root "$sr" auto --all-sources --model "$m" --budget 40 --no-record --apply
	is "auto --all-sources --apply where every source keeps auto mode: nothing written ($(basename "$t"))" \
		"$rc:$(grep -c '^SIMULATED: --apply: nothing written: not every source' "$WORK/out"):$(tree_sum "$sr")" "0:1:$s0"
done
# Schema 4: a run whose recommendation is no weights (keep the kernel's auto
# mode, bind to local memory) is never written: apply --run says what the
# run recommends, writes nothing, exits 0.
ka=$(copy_fixture spr-ddr5-2cxl)
ka0=$(tree_sum "$ka")
"$TT" --sysfs-root "$ka" auto --source-node 0 --model "$TT_TOP/model/machines/spr-ddr5-2cxl.json" \
	--budget 40 >/dev/null 2>&1
ka_run=$("$TT" runs --json | json '[r["id"] for r in j["runs"] if r["kind"] == "auto"][0]')
for action in keep_auto bind_local; do
	python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("UPDATE recommendations SET action = ? WHERE run_id = ?", (sys.argv[3], int(sys.argv[2]))); c.commit()' \
		"$TIERTUNE_DB" "$ka_run" "$action"
	hist0=$(cat "$state/apply.history" 2>/dev/null | sha256sum)
	run "$TT" --sysfs-root "$ka" apply --run "$ka_run"
	is "apply --run of a $action recommendation: says so, writes nothing, exit 0" \
		"$rc:$(grep -c "^run $ka_run recommends .*source node 0.*: nothing written$" "$WORK/out"):$(tree_sum "$ka" | cut -c1-9):$(cat "$state/apply.history" 2>/dev/null | sha256sum | cut -c1-9)" \
		"0:1:$(echo "$ka0" | cut -c1-9):$(echo "$hist0" | cut -c1-9)"
	run "$TT" --sysfs-root "$ka" apply --run "$ka_run" --json
	is "apply --run --json of a $action recommendation: recommended_action, nothing written" \
		"$rc:$(json '[j["recommended_action"], j["written"], j["source_node"]]' <"$WORK/out")" "0:['$action', 0, 0]"
done
# apply --dry-run previews a plan without root: the weight files only root
# may write (here: read-only files, as another user) are said, the plan is
# shown, exit 0; the run is still refused.
nr=$(mktemp -d "${TMPDIR:-/tmp}/tiertune-nonroot.XXXXXX")
cp -a "$FIX/spr-ddr5-2cxl" "$nr/root"
chmod -R a+rX "$nr"
chmod 444 "$nr/root/$WI"/*
as_user() { if [ "$(id -u)" -eq 0 ]; then setpriv --reuid 65534 --regid 65534 --clear-groups "$@"; else "$@"; fi; }
if [ "$(id -u)" -ne 0 ] || command -v setpriv >/dev/null; then
	# As root, the other user runs a copy it can reach: the clone may sit
	# in a folder only root enters (/root in the fresh root).
	utt=$TT
	[ "$(id -u)" -ne 0 ] || utt=$(nobody_tt)
	run as_user env HOME="$nr" TIERTUNE_STATE_DIR="$nr/state" "$utt" --sysfs-root "$nr/root" apply --weights 0:5 --dry-run
	is "apply --dry-run without root: the plan, and what only root may write" \
		"$rc:$(grep -c "^echo 5 > $nr/root/$WI/node0$" "$WORK/out"):$(grep -c 'a run as root would write' "$WORK/err")" "0:1:1"
	run as_user env HOME="$nr" TIERTUNE_STATE_DIR="$nr/state" "$utt" --sysfs-root "$nr/root" apply --weights 0:5
	is "and the run without root is refused (exit 3), nothing written" "$rc:$(cat "$nr/root/$WI/node0")" "3:25"
else
	skip "running as root without setpriv (Debian package util-linux): no other user to preview as"
	skip "running as root without setpriv: no other user to preview as"
fi
rm -rf "$nr"
done_testing
