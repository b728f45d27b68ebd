#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tiertop: frames from fixtures (columns, tier subtotals that add up, n/a
# reasons once, the process panel from fixture numa_maps files), a scripted
# collector whose values change between frames (initializing, stale), bad
# input, this machine's frame, a process started here under weighted
# interleave, and the interactive screen driven in tmux at 80x24.
. "$(dirname "$0")/lib.sh"

TOP="$TT_BUILD/tiertop"
if [ ! -x "$TOP" ]; then
	skip "tiertop is not built (no ncursesw: Debian package libncurses-dev)"
	done_testing
	exit 0
fi
G="$FIX/2s-genoa-cxl"

# --- one frame of the two-socket CXL fixture, as text
run "$TOP" --once -d 0.1 --sysfs-root "$G"
is "--once on a fixture exits 0 with nothing on stderr" "$rc:$(wc -c <"$WORK/err")" "0:0"
cp "$WORK/out" "$WORK/once"
is "header: host, kernel" "$(sed -n 1p "$WORK/once" | cut -c1-44)" \
	"tiertop  host genoa-cxl-12  kernel 6.12.48  "
is "header: interface and mode, source node, interval" \
	"$(sed -n 2p "$WORK/once")" "weights upstream (manual, no auto file)  source node 0  every 0.1 s"
is "columns, with their units" "$(grep '^NODE' "$WORK/once")" \
	"NODE TIER CPUS       GiB used/total  RD GB/s WR GB/s  WGT   WGT%  MEAS% ALLOC/s"
is "node rows grouped by tier, subtotals, total (no traffic counter: n/a, never 0)" \
	"$(sed -n '/^NODE/,/^$/p' "$WORK/once" | sed 1d | sed '$d')" \
	"   0    4 0-47           12.1/384.0      n/a     n/a    1  25.0%    n/a     n/a
   1    4 48-95          12.1/384.0      n/a     n/a    1  25.0%    n/a     n/a
 sum    4 nodes 0-1      24.1/768.0      n/a     n/a    2  50.0%    n/a     n/a
   2   22 CPU-less        0.4/256.0      n/a     n/a    1  25.0%    n/a     n/a
   3   22 CPU-less        0.4/256.0      n/a     n/a    1  25.0%    n/a     n/a
 sum   22 nodes 2-3       0.8/512.0      n/a     n/a    2  50.0%    n/a     n/a
 all                     25.0/1280.0     n/a     n/a    4 100.0%    n/a     n/a"
is "each n/a reason is said once, naming the missing source" \
	"$(grep -c '^READ WRITE MEAS%: n/a: no traffic counter here: perf-uncore: ' "$WORK/once"):$(grep -c '^ALLOC/s: n/a: nodeN/numastat has no numa_hit and numa_miss or cannot be read' "$WORK/once")" "1:1"
is "demotion: each node's targets as the kernel computes them, its demotion and promotion rates (nodeN/vmstat: the fixture's counters stand still)" \
	"$(sed -n '/^DEMOTION/,/^$/p' "$WORK/once" | sed 1d | sed '$d')" \
	"  NODE DEMOTED/s PROMOTED/s  DEMOTES TO
     0          0          0  preferred 2, allowed 2-3
     1          0          0  preferred 3, allowed 2-3
     2          0          0  none (lowest tier)
     3          0          0  none (lowest tier)
   all          0          0  (/proc/vmstat)"
# Linux 6.6 (the RFC fixture) counts demotions machine-wide only.
run "$TOP" --once -d 0.1 --sysfs-root "$FIX/rfc-4node"
is "6.6: per-node demotion n/a (never 0), promotion per node, machine-wide both" \
	"$(sed -n '/^DEMOTION/,/^$/p' "$WORK/out" | awk '$1 ~ /^[0-9]+$|^all$/ {print $1, $2, $3}')" \
	"0 n/a 0
1 n/a 0
2 n/a 0
3 n/a 0
all 0 0"
is "6.6: the footer says why, once" \
	"$(grep -c '^DEMOTED/s per node: n/a: nodeN/vmstat has no pgdemote_\* counter or cannot be$' "$WORK/out")" 1
run "$TOP" --json -n 2 -d 0.1 --sysfs-root "$FIX/rfc-4node"
is "6.6 JSON (second frame): demoted_pages_s null with its state, promoted_pages_s a number" \
	"$(sed -n 2p "$WORK/out" | json "[(d['node'], d['demoted_pages_s'], d['states'].get('demoted_pages_s'), d['promoted_pages_s']) for d in j['demotion_targets']][:2]")" \
	"[(0, None, 'n/a', 0.0), (1, None, 'n/a', 0.0)]"
is "processes panel: interleaved processes only, pages per node against the weights" \
	"$(sed -n '/^    PID/,/^$/p' "$WORK/once" | sed '$d')" \
	"    PID COMMAND         POLICY                      NODE     PAGES  SHARE   WANT
   4242 kv-cache        weighted interleave:0-3        0     30512  29.9%  25.0%
                                                       1     30512  29.9%  25.0%
                                                       2     20512  20.1%  25.0%
                                                       3     20512  20.1%  25.0%
   5150 stream-il       interleave:0-1                 0      5060  50.0%  50.0%
                                                       1      5060  50.0%  50.0%"
is "every line fits 80 columns" "$(awk 'length > 80' "$WORK/once" | wc -l)" 0

run "$TOP" --once -d 0.1 --view tiers --sysfs-root "$G"
is "--view tiers: subtotals and total only" \
	"$(sed -n '/^NODE/,/^$/p' "$WORK/out" | awk 'NR > 1 && NF {print $1, $2}')" "sum 4
sum 22
all 25.0/1280.0"

# resctrl MBM counts at the CPUs (a socket's traffic to all memory), not at
# the memory node: no node's share of the traffic can be made of it.
run "$TOP" --json -n 2 -d 0.1 --sysfs-root "$FIX/spr-ddr5-2cxl"
is "resctrl: READ from MBM, MEAS% n/a, and the footer says it counts at the CPUs" \
	"$(sed -n 2p "$WORK/out" | json "j['collectors'], j['nodes'][0]['states'].get('read_bytes_s'), j['nodes'][0]['measured_share'], j['nodes'][0]['states']['measured_share'], [n for n in j['notes'] if n.startswith('MEAS%: n/a: READ is what resctrl MBM counts: the traffic of each node')] != []")" \
	"['numastat', 'resctrl'] None None n/a True"
# A command name is escaped once: a tab shows as \t, not \\t.
R=$(copy_fixture 2s-genoa-cxl)
printf 'kv\tcache\n' >"$R/proc/4242/comm"
run "$TOP" --once -d 0.1 --sysfs-root "$R"
is "processes: a control character in a command shows escaped once" \
	"$(grep -E '^   4242 ' "$WORK/out" | awk '{print $2}')" 'kv\tcache'
run "$TOP" --once -d 0.1 --collectors numastat --sysfs-root "$G"
is "--collectors without a traffic counter: the footer says none was asked for, not that the machine has none" \
	"$(grep -c '^READ WRITE MEAS%: n/a: no traffic counter among the collectors asked for$' "$WORK/out"):$(grep -c 'no traffic counter here' "$WORK/out")" "1:0"

# No weight interface: WGT and the processes' WANT are n/a, the reason said once.
R=$(copy_fixture 2s-genoa-cxl)
rm -r "$R/sys/kernel/mm/mempolicy"
run "$TOP" --once -d 0.1 --sysfs-root "$R"
is "no weight interface: WGT n/a, WANT n/a for weighted interleave only, the reason once" \
	"$(grep -E '^   4242 |^   5150 ' "$WORK/out" | awk '{print $1, $NF}' | paste -sd, -):$(grep -c 'needs Linux 6.9+' "$WORK/out"):$(grep -c '^WANT n/a for weighted interleave: no weight interface (as WGT)$' "$WORK/out")" \
	"4242 n/a,5150 50.0%:1:1"

# --- the same frame as JSON: subtotals add up, shares sum to one
run "$TOP" --json -n 1 -d 0.1 --sysfs-root "$G"
is "--json -n 1: one line, exit 0" "$rc:$(wc -l <"$WORK/out")" "0:1"
is "JSON: schema, interface, nodes and their CPUs, tiers and their nodes, null (not 0) where n/a" \
	"$(json "j['schema_version'], j['interface'], [(n['node'], len(n['cpus'])) for n in j['nodes']], [(t['tier'], t['nodes']) for t in j['tiers']], j['nodes'][0]['read_bytes_s'], j['nodes'][0]['states']['read_bytes_s']" <"$WORK/out")" \
	"2 upstream [(0, 48), (1, 48), (2, 0), (3, 0)] [(4, [0, 1]), (22, [2, 3])] None n/a"
is "JSON: each tier's memory is the sum of its nodes', the total the sum of the tiers'" \
	"$(json "all(t['mem_total_bytes'] == sum(n['mem_total_bytes'] for n in j['nodes'] if n['tier'] == t['tier']) for t in j['tiers']) and j['total']['mem_total_bytes'] == sum(t['mem_total_bytes'] for t in j['tiers'])" <"$WORK/out")" True
is "JSON: weight shares sum to 1" \
	"$(json "round(sum(n['weight_share'] for n in j['nodes']), 9)" <"$WORK/out")" 1.0
is "JSON: the process panel, pages per node" \
	"$(json "[(p['pid'], p['policy'], [(n['node'], n['pages']) for n in p['nodes']]) for p in j['processes']]" <"$WORK/out")" \
	"[(4242, 'weighted interleave:0-3', [(0, 30512), (1, 30512), (2, 20512), (3, 20512)]), (5150, 'interleave:0-1', [(0, 5060), (1, 5060)])]"

# --- a scripted collector whose values change between frames
cat >"$WORK/script" <<'EOF'
metrics read_bytes@0:gauge write_bytes@0:gauge read_bytes@1:gauge write_bytes@1:gauge read_bytes@2:gauge write_bytes@2:gauge read_bytes@3:gauge write_bytes@3:gauge numa_hit@0 numa_miss@0 numa_hit@1 numa_miss@1 numa_hit@2 numa_miss@2 numa_hit@3 numa_miss@3 pgpromote_success pgdemote_kswapd pgdemote_direct pgdemote_kswapd@0 pgdemote_direct@0 pgdemote_kswapd@1 pgdemote_kswapd@2 pgdemote_kswapd@3 pgpromote_success@0 pgpromote_success@1 pgpromote_success@2 pgpromote_success@3
30000000000 10000000000 30000000000 10000000000 15000000000 5000000000 15000000000 5000000000 100 0 100 0 100 0 100 0 0 0 0 0 0 0 0 0 0 0 0 0
30000000000 10000000000 30000000000 10000000000 35000000000 5000000000 15000000000 5000000000 200 0 300 0 400 0 500 0 0 10 0 300 100 100 0 0 200 50 0 0
30000000000 10000000000 30000000000 10000000000 35000000000 5000000000 - 5000000000 300 0 500 0 700 0 900 0 0 20 0 900 100 400 0 0 400 50 0 0
error
EOF
export TIERTUNE_TEST_COLLECTOR_SCRIPT="$WORK/script"
# The scripted collector is in the test build's tiertop only.
run "$TOP" --json -n 1 -d 0.1 --sysfs-root "$G"
is "tiertop itself offers no scripted collector" "$rc:$(json "j['collectors'], j['simulated']" <"$WORK/out")" "0:['numastat'] False"
TOP_REAL=$TOP
TOP="$TT_BUILD/tests/tiertop-script"
run "$TOP" --json -n 5 -d 0.1 --sysfs-root "$G"
is "scripted: five frames" "$rc:$(wc -l <"$WORK/out")" "0:5"
frame() { sed -n "${1}p" "$WORK/out" | json "$2"; }
is "frame 1: initializing; a rate has no value yet, a level has" \
	"$(frame 1 "j['initializing'], j['nodes'][0]['states'].get('alloc_pages_s'), j['nodes'][0]['read_bytes_s']")" \
	"True initializing 30000000000.0"
is "frame 1: the collector is named simulated" \
	"$(frame 1 "j['collectors'], j['simulated']")" "['numastat', 'script'] True"
is "frame 1: demotion and promotion rates per node initializing" \
	"$(frame 1 "sorted(set(s for d in j['demotion_targets'] for s in d['states'].values()))")" "['initializing']"
is "frame 1: measured shares (40, 40, 20, 20 GB/s of 120)" \
	"$(frame 1 "[round(n['measured_share'] * 1000) for n in j['nodes']]")" "[333, 333, 167, 167]"
is "frame 2: node 2 read more, the shares moved" \
	"$(frame 2 "j['initializing'], [round(n['measured_share'] * 1000) for n in j['nodes']]")" \
	"False [286, 286, 286, 143]"
is "frame 2: tier subtotals add up (bandwidth, shares)" \
	"$(frame 2 "all(abs(t[k] - sum(n[k] for n in j['nodes'] if n['tier'] == t['tier'])) < 1e-6 for t in j['tiers'] for k in ('read_bytes_s', 'write_bytes_s', 'measured_share', 'weight_share'))")" True
is "frame 2: allocation and demotion rates are positive" \
	"$(frame 2 "all(n['alloc_pages_s'] > 0 for n in j['nodes']) and j['demoted_pages_s'] > 0")" True
is "frame 2: per node, node 0 demoted four times what node 1 did (400 and 100 pages), promoted half its demotions; the CXL nodes moved nothing" \
	"$(frame 2 "*(lambda d: (round(d[0]['demoted_pages_s'] / d[1]['demoted_pages_s'], 6), round(d[0]['promoted_pages_s'] / d[0]['demoted_pages_s'], 6), round(d[1]['promoted_pages_s'] / d[0]['promoted_pages_s'], 6), [(x['demoted_pages_s'], x['promoted_pages_s']) for x in d[2:]]))(j['demotion_targets'])")" \
	"4.0 0.5 0.25 [(0.0, 0.0), (0.0, 0.0)]"
is "frame 3: the rates moved (600 and 300 pages demoted; node 1 promoted none)" \
	"$(frame 3 "*(lambda d: (round(d[0]['demoted_pages_s'] / d[1]['demoted_pages_s'], 6), d[1]['promoted_pages_s']))(j['demotion_targets'])")" "2.0 0.0"
is "frame 4: the source failed: the per-node rates stale too" \
	"$(frame 4 "sorted(set(s for d in j['demotion_targets'] for s in d['states'].values()))")" "['stale']"
is "frame 3: node 3's read counter did not answer: stale, and no share for anyone" \
	"$(frame 3 "j['nodes'][3]['states']['read_bytes_s'], j['nodes'][0]['states']['measured_share'], j['tiers'][1]['states']['read_bytes_s']")" \
	"stale n/a stale"
is "frame 4: the source failed: every figure of it stale" \
	"$(frame 4 "sorted(set(s for n in j['nodes'] for s in n['states'].values()))")" "['stale']"
is "frame 5: after the script ended, still stale (never 0)" \
	"$(frame 5 "j['nodes'][0]['read_bytes_s'], j['nodes'][0]['states']['read_bytes_s']")" "None stale"
run "$TOP" --batch -n 3 -d 0.1 --sysfs-root "$G"
is "--batch -n 3: three frames as text" "$rc:$(grep -c '^tiertop  host' "$WORK/out")" "0:3"
is "--batch: the first frame says initializing, its rates init; the second does not" \
	"$(awk '/^tiertop/ {f++} f <= 2 && /^collectors|^   0 / {print f, ($NF ~ /^[0-9.]+[kM]?$/ ? "a rate" : $NF)}' "$WORK/out")" "1 [initializing]
1 init
2 (SIMULATED)
2 a rate"
is "--batch: the demotion rows, init in the first frame, rates in the second" \
	"$(awk '/^tiertop/ {f++} f <= 2 && /^DEMOTION/ {d = 1; next} d && /^$/ {d = 0} d && $1 ~ /^[02]$/ {print f, $1, ($2 ~ /^[0-9.]+[kM]?$/ && $2 > 0 ? "a rate" : $2), ($3 ~ /^[0-9.]+[kM]?$/ && $3 > 0 ? "a rate" : $3), $4}' "$WORK/out")" \
	"1 0 init init preferred
1 2 init init none
2 0 a rate a rate preferred
2 2 0 0 none"
is "--batch: each frame's sparkline ends with its own sample (120, 140 GB/s, then stale)" \
	"$(grep -E '^history  bw ' "$WORK/out" | sed 's/^[^|]*|\([^|]*\)|.*/\1/' | paste -sd, -)" "%@,%@?"
is "--batch: the simulated figures are labelled" \
	"$(grep -c '^SIMULATED: figures from the test script are not measured' "$WORK/out")" 3
unset TIERTUNE_TEST_COLLECTOR_SCRIPT
TOP=$TOP_REAL

run "$TOP" --help
is "--help: exit 0, usage with every option" "$rc:$(grep -c -- '--sysfs-root DIR' "$WORK/out")" "0:1"
is "--help fits 80 columns, as tiertune's does" "$(awk 'length > 80' "$WORK/out")" ""
# The keys come from one table (tui/screen.c): --help lists them, and the
# man page's KEYS documents exactly those.
is "--help's keys are the man page's KEYS" \
	"$(sed -n '/^keys:/,/^exit:/p' "$WORK/out" | sed '$d' | sed 's/^keys://' | tr ',' '\n' | awk 'NF {print $1}' | tr '/' '\n' | sort | paste -sd' ')" \
	"$(sed -n '/^\.SH KEYS/,/^\.SH /p' "$TT_TOP/docs/tiertop.1" | awk 'prev == ".TP" {print} {prev = $0}' | sed -E 's/^\.BR? //; s/\\-/-/g; s/"[^"]*"/ /g' | tr ' ' '\n' | awk 'NF' | sort | paste -sd' ')"
run "$TOP" --batch -n 2 -d 0.3 --sysfs-root "$G"
is "--batch with nothing to sample still paces its frames" \
	"$rc:$(grep -c '^tiertop  host' "$WORK/out")" "0:2"

# --- bad input: exit 2, the input named, nothing on stdout, the tree unchanged
R=$(copy_fixture 2s-genoa-cxl)
expect_bad_input 2 "'--bogus'" "$R" "$TOP" --once --bogus --sysfs-root "$R"
expect_bad_input 2 "option '--so' is ambiguous: --source-node, --sort" "$R" "$TOP" --once --so 1 --sysfs-root "$R"
# tiertune's grammar and messages (core/options.h): options named by their
# long name, values checked by the table's type.
expect_bad_input 2 "option '--once' takes no value" "$R" "$TOP" --once=1 --sysfs-root "$R"
expect_bad_input 2 "option '--iterations' value '0' out of range (1-1000000000)" "$R" "$TOP" --batch -n 0 --sysfs-root "$R"
expect_bad_input 2 "option '--delay' value '-1' out of range (0.1-3600)" "$R" "$TOP" --batch -d -1 --sysfs-root "$R"
expect_bad_input 2 "option '--delay' value 'x' is not a number" "$R" "$TOP" --once -d x --sysfs-root "$R"
expect_bad_input 2 "option '--view' value 'both' is not one of: nodes, tiers" "$R" "$TOP" --once --view both --sysfs-root "$R"
expect_bad_input 2 "option '--sort' value 'size' is not one of: pages, skew, pid" "$R" "$TOP" --once --sort size --sysfs-root "$R"
expect_bad_input 2 "option '--iterations' needs a value" - "$TOP" --once -n
expect_bad_input 2 "--once and --batch exclude each other" "$R" "$TOP" --once --batch --sysfs-root "$R"
expect_bad_input 2 "--iterations goes with --batch or --json" "$R" "$TOP" --once -n 2 --sysfs-root "$R"
expect_bad_input 2 "tiertop takes no argument, got 'extra'" "$R" "$TOP" --once extra --sysfs-root "$R"
# A unique prefix is the option, as in tiertune (t0013); short flags cluster.
run "$TOP" --onc --vi tiers --sor pid --del 0.2 --sysfs-r "$R"
is "abbreviated options: --once, --view, --sort, --delay, --sysfs-root" "$rc:$(grep -c '^tiertop  host' "$WORK/out")" "0:1"
run "$TOP" -bn2 -d0.2 --sysfs-root "$R"
is "clustered short options: -bn2 is -b -n 2" "$rc:$(grep -c '^tiertop  host' "$WORK/out")" "0:2"
expect_bad_input 2 "unknown collector 'nope'" "$R" "$TOP" --once --collectors nope --sysfs-root "$R"
expect_bad_input 2 "collector 'numastat' named twice" "$R" "$TOP" --once --collectors numastat,numastat --sysfs-root "$R"
expect_bad_input 2 "sysfs root '$WORK/none'" - "$TOP" --once --sysfs-root "$WORK/none"
expect_bad_input 2 "source node 9" "$R" "$TOP" --once --source-node 9 --sysfs-root "$R"
expect_bad_input 2 "needs a terminal" "$R" "$TOP" --sysfs-root "$R"

# --- this machine, read first
run "$TOP" --once -d 0.2
is "--once here exits 0" "$rc" 0
is "the header names this host" "$(sed -n 1p "$WORK/out" | awk '{print $3}')" \
	"$(cat /proc/sys/kernel/hostname)"
want_nodes=$(node_list /sys/devices/system/node/has_memory | wc -l)
run "$TOP" --json -n 2 -d 0.2
is "one row per memory node here" "$(sed -n 2p "$WORK/out" | json "len(j['nodes'])")" "$want_nodes"
if compgen -G '/sys/devices/system/node/node*/numastat' >/dev/null; then
	is "numastat here: allocation rates measured by the second frame (else each node's cell states)" \
		"$(sed -n 2p "$WORK/out" | json "'all' if all(n['alloc_pages_s'] is not None for n in j['nodes']) else [(n['node'], n.get('states')) for n in j['nodes']]")" all
else
	skip "no nodeN/numastat on this kernel"
fi

# --- processes under weighted interleave on this machine: one started under
# it (set_mempolicy, then exec), one with a 64 MiB mapping bound to it
# (mbind); each appears with its policy, and the mapping's pages are all
# there (page conservation) where the weights put them (within 5 points)
mems=$(node_list /sys/devices/system/node/has_memory | paste -sd, -)
memlist=$(python3 -c "import sys
n = sorted(int(x) for x in sys.argv[1].split(','))
out, i = [], 0
while i < len(n):
    j = i
    while j + 1 < len(n) and n[j + 1] == n[j] + 1: j += 1
    out.append(str(n[i]) if i == j else '%d-%d' % (n[i], n[j])); i = j + 1
print(','.join(out))" "$mems")
cat >"$WORK/wi.py" <<'EOF'
import ctypes, mmap, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
arch = os.uname().machine
SET_MEMPOLICY, MBIND = {"x86_64": (238, 237), "aarch64": (237, 235)}[arch]
ready, nodes, how = sys.argv[1], sys.argv[2], sys.argv[3]
mask = 0
for n in nodes.split(","):
    mask |= 1 << int(n)
m = (ctypes.c_ulong * 16)(mask)
MPOL_WEIGHTED_INTERLEAVE = 6  # maxnode is the number of bits + 1
if how == "task":
    if libc.syscall(SET_MEMPOLICY, MPOL_WEIGHTED_INTERLEAVE, m, 1025) != 0:
        open(ready, "w").write("refused errno %d\n" % ctypes.get_errno())
        sys.exit(0)
    open(ready, "w").write("ready\n")
    os.execvp("sleep", ["sleep", "60"])
size = 64 << 20
buf = mmap.mmap(-1, size)
addr = ctypes.addressof(ctypes.c_char.from_buffer(buf))
if libc.syscall(MBIND, ctypes.c_void_p(addr), ctypes.c_ulong(size), MPOL_WEIGHTED_INTERLEAVE,
                m, 1025, 0) != 0:
    open(ready, "w").write("refused errno %d\n" % ctypes.get_errno())
    sys.exit(0)
for i in range(0, size, 4096):
    buf[i] = 1
open(ready, "w").write("ready\n")
time.sleep(60)
EOF
case $(uname -m) in
x86_64 | aarch64)
	python3 "$WORK/wi.py" "$WORK/ready-task" "$mems" task >"$WORK/wi-task.out" 2>&1 &
	task_pid=$!
	python3 "$WORK/wi.py" "$WORK/ready-vma" "$mems" vma >"$WORK/wi-vma.out" 2>&1 &
	vma_pid=$!
	for _ in $(seq 100); do [ -s "$WORK/ready-task" ] && [ -s "$WORK/ready-vma" ] && break; sleep 0.1; done
	if [ "$(cat "$WORK/ready-task" "$WORK/ready-vma" 2>/dev/null | grep -c '^ready$')" -ne 2 ]; then
		skip "this kernel refuses MPOL_WEIGHTED_INTERLEAVE (Linux 6.9+): $(cat "$WORK/ready-task" "$WORK/ready-vma" "$WORK"/wi-*.out 2>/dev/null | head -1)"
	else
		run "$TOP" --json -n 1 -d 0.1
		proc() { json "[$1 for p in j['processes'] if p['pid'] == $2]" <"$WORK/out"; }
		is "a process started under weighted interleave: listed with its command and policy" \
			"$(proc "(p['command'], p['policy'])" "$task_pid")" \
			"[('sleep', 'weighted interleave:$memlist')]"
		is "its resident pages are on its policy's nodes" \
			"$(proc "all(n['node'] in [$mems] for n in p['nodes']) and p['pages'] > 0" "$task_pid")" "[True]"
		is "a mapping bound to weighted interleave: listed with its policy" \
			"$(proc "p['policy']" "$vma_pid")" "['weighted interleave:$memlist']"
		is "its 16384 pages are all counted, on its policy's nodes" \
			"$(proc "(p['pages'], all(n['node'] in [$mems] for n in p['nodes']))" "$vma_pid")" \
			"[(16384, True)]"
		is "each node holds the share the weights imply, within 5 points" \
			"$(proc "all(abs(n['share'] - n['want_share']) <= 0.05 for n in p['nodes'])" "$vma_pid")" "[True]"
	fi
	kill "$task_pid" "$vma_pid" 2>/dev/null
	wait "$task_pid" "$vma_pid" 2>/dev/null
	;;
*)
	skip "set_mempolicy/mbind syscall numbers known here for x86_64 and aarch64 only"
	;;
esac

# --- the interactive screen in tmux at 80x24, on a fixture copy
if ! command -v tmux >/dev/null; then
	skip "no tmux here (Debian package tmux): the interactive screen is not driven"
else
	R2=$(copy_fixture 2s-genoa-cxl)
	W2="$R2/sys/kernel/mm/mempolicy/weighted_interleave"
	# T, screen and wait_for (5 s): lib.sh
	# weight N:W PROMPT AFTER: w, the prompt, N:W typed, then what shows
	weight() {
		T send-keys -t tt w
		wait_for "$2"
		T send-keys -t tt "$1" Enter
		wait_for "$3"
	}
	T -f /dev/null new-session -d -s tt -x 80 -y 24 "env -u TMUX PS1='tt-prompt\$ ' bash --norc --noprofile"
	T send-keys -t tt "stty -g >'$WORK/stty.before'; clear" Enter
	wait_for '^tt-prompt\$ $'
	T send-keys -t tt "'$TOP' --sysfs-root '$R2' -d 0.5" Enter
	wait_for '^NODE TIER'
	is "screen: the frame at 80x24, header first, key bar last" \
		"$(screen | sed -n 1p | cut -c1-26):$(screen | sed -n 24p | cut -c1-12)" \
		"tiertop  host genoa-cxl-12:q quit h hel"
	T send-keys -t tt t
	wait_for '^ sum   22' && sleep 0.3
	is "screen: t switches to the tier view (subtotals only)" \
		"$(screen | grep -cE '^   [0-3]    ')" 0
	T send-keys -t tt t
	wait_for '^   2   22 CPU-less'
	T send-keys -t tt h
	wait_for '^tiertop keys'
	is "screen: h opens the help" "$(screen | grep -c '^  w        write a weight')" 1
	T resize-window -t tt -x 90 -y 26
	for _ in $(seq 50); do [ "$(screen | wc -l)" -eq 26 ] && break; sleep 0.1; done
	sleep 0.3
	is "screen: a resize redraws the help, it does not close it" "$(screen | grep -c '^tiertop keys')" 1
	T resize-window -t tt -x 80 -y 24
	for _ in $(seq 50); do [ "$(screen | wc -l)" -eq 24 ] && break; sleep 0.1; done
	T send-keys -t tt Space
	wait_for '^NODE TIER'
	# Every size a terminal can be: tiertop looped at 100% CPU at 11
	# columns (no room after "collectors ") and read past a buffer under
	# 11. After each, it still answers: back at 80x24 the frame returns.
	small_ok=1
	for size in 1x1 3x2 10x5 11x24 12x3 17x40 40x1 200x60; do
		T resize-window -t tt -x "${size%x*}" -y "${size#*x}"
		sleep 0.3
		T resize-window -t tt -x 80 -y 24
		if ! wait_for '^NODE TIER'; then
			small_ok=0
			echo "no frame after $size" | diag
			break
		fi
	done
	is "screen: every size from 1x1 draws and tiertop still answers" "$small_ok" 1
	# Reading numa_maps walks a process's pages under its mmap lock: with
	# the panel hidden, none is read (the access time stays put).
	NM="$R2/proc/4242/numa_maps"
	touch -a -d '2 days ago' "$NM" && cat "$NM" >/dev/null
	atime_ok=0
	if [ "$(stat -c %X "$NM")" -gt $(($(date +%s) - 3600)) ]; then
		atime_ok=1
		touch -a -d '2 days ago' "$NM"
		sleep 6
		is "screen: with the processes panel hidden, no process's numa_maps is read" \
			"$(($(stat -c %X "$NM") < $(date +%s) - 3600))" 1
	else
		skip "this filesystem does not keep access times: the idle scanner is not checked"
	fi
	T send-keys -t tt P
	wait_for '^   4242 kv-cache'
	[ "$(stat -c %X "$NM")" -lt $(($(date +%s) - 3600)) ] && sleep 1
	is "screen: P scans at once (or the filesystem keeps no access time)" \
		"$(($(stat -c %X "$NM") > $(date +%s) - 3600 || atime_ok == 0))" 1
	is "screen: P opens the processes panel" \
		"$(screen | grep -c '^PROCESSES using interleave')" 1
	is "screen: a panel cut at the bottom says so, and how much is hidden" \
		"$(screen | grep -cE '^\.\.\. [0-9]+ more lines: a taller terminal, or .t. \(tier view\), shows them$')" 1
	for want in skew pid pages; do
		T send-keys -t tt o
		wait_for "^PROCESSES using interleave .*sort $want\$"
		is "screen: o sorts the processes by $want (kv-cache first either way)" \
			"$(screen | grep -oE 'sort [a-z]+$'):$(screen | grep -E '^ +[0-9]+ [a-z]' | awk '{print $1}' | head -1)" \
			"sort $want:4242"
	done
	weight '2:3' 'node:weight to write' '^wrote .+/sys/kernel/mm/mempolicy/'
	is "screen: w writes a weight through apply (file, row, message)" \
		"$(cat "$W2/node2"):$(screen | grep -E '^   2   22' | awk '{print $7, $8}')" \
		"3:3 50.0%"
	T send-keys -t tt u
	wait_for '^undid the change'
	is "screen: u undoes it" "$(cat "$W2/node2"):$(screen | grep -E '^   2   22' | awk '{print $7}')" "1:1"
	is "database: the write and its undo recorded as tiertune apply and restore record theirs" \
		"$(out "$TT" runs --json | json "[(r['kind'], r['command'], r['status'], r['host']) for r in j['runs'] if r['command'].startswith('tiertop')]")" \
		"[('restore', 'tiertop: u', 'done', 'genoa-cxl-12'), ('apply', 'tiertop: w 2:3', 'done', 'genoa-cxl-12')]"
	is "database: their apply-log rows, file, old and new value, as tiertune apply writes them" \
		"$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("select group_concat(w, \"; \") from (select r.kind || \" \" || a.interface || \" \" || a.file || \" \" || a.old_value || \"->\" || a.new_value || \" \" || a.outcome as w from apply_log a join runs r on r.id = a.run_id where r.command like \"tiertop:%\" order by a.id)").fetchone()[0])' "$TIERTUNE_DB")" \
		"apply upstream /sys/kernel/mm/mempolicy/weighted_interleave/node2 1->3 written; restore upstream /sys/kernel/mm/mempolicy/weighted_interleave/node2 3->1 written"
	weight '2:0' 'node:weight to write' '^not written'
	is "screen: a weight apply refuses is refused, and why" \
		"$(screen | sed -n 24p | cut -c1-60):$(cat "$W2/node2")" \
		"not written: weight '0' for node 2 out of range (1-255):1"
	weight '2:4' 'node:weight to write' '^wrote .+/sys/kernel/mm/mempolicy/'
	is "screen: a second write" "$(cat "$W2/node2")" 4
	weight '2:4' 'node:weight to write' '^nothing written'
	is "screen: a weight already as typed is left alone (no write, no empty undo step)" \
		"$(screen | sed -n 24p | sed 's/ *$//'):$(cat "$W2/node2")" \
		"nothing written: 2:4 is already as wanted:4"
	T resize-window -t tt -x 100 -y 30
	for _ in $(seq 50); do [ "$(screen | wc -l)" -eq 30 ] && screen | sed -n 30p | grep -q '^q quit' && break; sleep 0.1; done
	is "screen: a resize redraws at the new size (key bar on the last of 30 lines)" \
		"$(screen | wc -l):$(screen | sed -n 30p | cut -c1-6)" "30:q quit"
	T resize-window -t tt -x 80 -y 24
	T send-keys -t tt q
	wait_for '^tt-prompt\$ $'
	T send-keys -t tt "stty -g >'$WORK/stty.after'" Enter
	sleep 0.5
	is "screen: q gives the terminal back (prompt, modes as before)" \
		"$(T display -p -t tt '#{alternate_on}'):$(cmp -s "$WORK/stty.before" "$WORK/stty.after" && echo same)" \
		"0:same"
	run "$TT" --sysfs-root "$R2" restore --last
	is "tiertune restore --last undoes tiertop's write (its history is apply's)" \
		"$rc:$(cat "$W2/node2")" "0:1"
	run "$TT" runs --json
	is "database: tiertop's second write, then the restore, newest first" \
		"$(json "[(r['kind'], r['command'].split(' --sysfs-root')[0].rsplit('/', 1)[-1]) for r in j['runs']][:2]" <"$WORK/out")" \
		"[('restore', 'tiertune'), ('apply', 'tiertop: w 2:4')]"
	# Past the ends of the + and - steps (-d allows 0.1 to 3600 s), a key
	# does not move the interval the wrong way.
	for d in "0.2 - every 0.2 s" "45 - every 30.0 s" "45 + every 45.0 s"; do
		set -- $d
		T send-keys -t tt "clear; '$TOP' --sysfs-root '$R2' -d $1" Enter
		wait_for '^NODE TIER'
		T send-keys -t tt -- "$2"
		wait_for '^interval' && sleep 0.2
		is "screen: -d $1 then $2: $3 $4 $5" "$(screen | sed -n 2p | grep -oE 'every .*')" "$3 $4 $5"
		T send-keys -t tt q
		wait_for '^tt-prompt\$ '
	done
	# A narrow, short terminal: the header keeps the time, and the help,
	# cut short, says so.
	T resize-window -t tt -x 50 -y 12
	T send-keys -t tt "clear; '$TOP' --sysfs-root '$R2' -d 0.5" Enter
	wait_for '^NODE TIER'
	is "screen at 50x12: the header keeps the time (the kernel release gives way)" \
		"$(screen | sed -n 1p | grep -cE '^tiertop  host genoa-cxl-12  [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{8}$')" 1
	T send-keys -t tt h
	wait_for '^tiertop keys'
	is "screen at 50x12: the help cut short says how much is hidden (no tier view hint there)" \
		"$(screen | grep -cE '^\.\.\. [0-9]+ more lines: a taller terminal shows them$')" 1
	T send-keys -t tt Space
	wait_for '^NODE TIER'
	T send-keys -t tt q
	wait_for '^tt-prompt\$ '
	T resize-window -t tt -x 80 -y 24
	T send-keys -t tt "clear; TERM=bogus-term '$TOP' --sysfs-root '$R2'; echo rc=\$?" Enter
	wait_for '^rc='
	is "screen: a TERM this system does not know: tiertop's error names it, with a hint, exit 1" \
		"$(screen | grep -cF "tiertop: error: cannot start the screen on terminal type 'bogus-term' (TERM)"):$(screen | grep -c '^hint: '):$(screen | grep -oE '^rc=[0-9]+')" \
		"1:1:rc=1"
	# SEGV and QUIT dump a core where the host allows one: not here.
	T send-keys -t tt "ulimit -c 0" Enter
	for sig in TERM SEGV QUIT; do
		T send-keys -t tt "clear; '$TOP' --sysfs-root '$R2' -d 0.5" Enter
		wait_for '^NODE TIER'
		shell=$(T display -p -t tt '#{pane_pid}')
		pid=$(pgrep -P "$shell" -x tiertop)
		kill -"$sig" "$pid"
		wait_for '^tt-prompt\$ '
		T send-keys -t tt "stty -g >'$WORK/stty.after'" Enter
		sleep 0.5
		is "screen: SIG$sig mid-run gives the terminal back (shell prompt, not raw mode)" \
			"$(T display -p -t tt '#{alternate_on}'):$(cmp -s "$WORK/stty.before" "$WORK/stty.after" && echo same)" \
			"0:same"
		is "screen: after SIG$sig the prompt shows, the frame is gone" \
			"$(screen | grep -c '^NODE TIER')" 0
	done
	# Any terminal size draws and quits (issue 21: 11 columns looped for
	# ever in the footer's word wrap, deaf to q; 1-10 read before the text).
	for size in 11x24 1x1 5x3 40x10 200x60; do
		T resize-window -t tt -x "${size%x*}" -y "${size#*x}"
		T send-keys -t tt "clear; '$TOP' --sysfs-root '$R2' -d 0.2" Enter
		shell=$(T display -p -t tt '#{pane_pid}')
		pid=
		for _ in $(seq 50); do
			pid=$(pgrep -P "$shell" -x tiertop) && break
			sleep 0.1
		done
		sleep 1
		T send-keys -t tt q
		for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		is "screen: at ${size} tiertop draws and q quits it" \
			"${pid:+started}:$(kill -0 "$pid" 2>/dev/null && echo running || echo ended)" "started:ended"
		if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid"; T send-keys -t tt "stty sane" Enter; fi
	done
	T resize-window -t tt -x 80 -y 24
	for _ in $(seq 50); do [ "$(screen | wc -l)" -eq 24 ] && break; sleep 0.1; done
	# A process whose numa_maps read never returns (here a FIFO no one
	# writes; on a live system, a stalled mmap lock) holds the scan, not
	# the quit: q and TERM end tiertop while the scan is blocked.
	R4=$(copy_fixture 2s-genoa-cxl)
	rm "$R4/proc/4242/numa_maps" && mkfifo "$R4/proc/4242/numa_maps"
	for how in q TERM; do
		T send-keys -t tt "clear; '$TOP' --sysfs-root '$R4' -d 0.2" Enter
		wait_for '^NODE TIER'
		shell=$(T display -p -t tt '#{pane_pid}')
		pid=$(pgrep -P "$shell" -x tiertop)
		T send-keys -t tt P
		wait_for '^PROCESSES'
		sleep 0.5
		if [ "$how" = q ]; then T send-keys -t tt q; else kill -TERM "$pid"; fi
		for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		is "screen: $how ends tiertop while its /proc scan is blocked on a numa_maps read" \
			"${pid:+started}:$(kill -0 "$pid" 2>/dev/null && echo running || echo ended)" "started:ended"
		if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid"; T send-keys -t tt "stty sane" Enter; fi
		wait_for '^tt-prompt\$ '
	done
	# The RFC interface (a tier's weight for the viewed source node), and
	# the keys s, + -, p and r.
	R3=$(copy_fixture rfc-4node)
	MT="$R3/sys/devices/virtual/memory_tiering"
	T send-keys -t tt "clear; '$TOP' --sysfs-root '$R3' -d 0.5" Enter
	wait_for '^NODE TIER'
	is "rfc screen: the interface, source node 0, every 0.5 s" "$(screen | sed -n 2p)" \
		"weights rfc  source node 0  every 0.5 s"
	T send-keys -t tt s
	wait_for 'source node 1  every'
	is "screen: s views the next node with CPUs" "$(screen | sed -n 2p)" \
		"weights rfc  source node 1  every 0.5 s"
	weight '22:5' 'tier:weight to write' '^wrote .+/sys/devices/virtual/'
	is "rfc: w writes source 1's entry of tier 22, the other entries and tier 4 unchanged" \
		"$(cat "$MT/memory_tier22/interleave_weight"):$(cmp -s "$MT/memory_tier4/interleave_weight" "$FIX/rfc-4node/sys/devices/virtual/memory_tiering/memory_tier4/interleave_weight" && echo same)" \
		"0:2,1:5,2:1,3:1:same"
	is "rfc: the rows show tier 22's new weight split over its two nodes (5 -> 3 each)" \
		"$(screen | grep -E '^   [23]   22' | awk '{print $1, $7}' | paste -sd, -)" "2 3,3 3"
	T send-keys -t tt u
	wait_for '^undid the change'
	is "rfc: u puts both files back byte for byte" \
		"$(for t in 4 22; do cmp -s "$MT/memory_tier$t/interleave_weight" "$FIX/rfc-4node/sys/devices/virtual/memory_tiering/memory_tier$t/interleave_weight" && echo same; done | paste -sd, -)" \
		"same,same"
	T send-keys -t tt +
	wait_for 'every 1.0 s$'
	is "screen: + lengthens the interval (header and status bar)" \
		"$(screen | sed -n 2p | grep -oE 'every .*'):$(screen | sed -n 24p | sed 's/ *$//')" "every 1.0 s:interval 1.0 s"
	T send-keys -t tt -- -
	wait_for 'every 0.5 s$'
	is "screen: - shortens it again" "$(screen | sed -n 24p | sed 's/ *$//')" "interval 0.5 s"
	wait_for '^collectors numastat$'
	T send-keys -t tt p
	wait_for '\[paused\]$'
	is "screen: p pauses (the collectors line says so)" "$(screen | sed -n 3p)" "collectors numastat  [paused]"
	T send-keys -t tt p
	wait_for '^collectors numastat$'
	is "screen: p again resumes" "$(screen | sed -n 3p)" "collectors numastat"
	# Weights changed behind tiertop's back show after r, not before.
	echo "0:4,1:9,2:1,3:1" >"$MT/memory_tier4/interleave_weight"
	sleep 1
	is "screen: weights changed outside are not re-read by themselves" \
		"$(screen | grep -E '^   0    4' | awk '{print $7}')" 2
	T send-keys -t tt r
	wait_for '^topology and weights re-read'
	wait_for '^   0    4 0-31 .*  5 '
	is "screen: r re-reads them (source 1's tier 4 weight 9 -> 5 a node)" \
		"$(screen | grep -E '^   [01]    4' | awk '{print $1, $7}' | paste -sd, -):$(screen | sed -n 2p)" \
		"0 5,1 5:weights rfc  source node 1  every 0.5 s"
	# A node half gone as r reads (hot-remove): what was read before
	# stays on the screen, and the status bar says why; r again once the
	# node is whole.
	mv "$R3/sys/devices/system/node/node3/meminfo" "$WORK/meminfo3"
	T send-keys -t tt r
	wait_for '^not re-read'
	is "screen: r on a node half gone keeps the frame read before, and names the file" \
		"$(screen | grep -c '^   3   22 CPU-less'):$(screen | tail -3 | sed 's/ *$//' | tr -d '\n' | grep -c 'node3/meminfo')" "1:1"
	mv "$WORK/meminfo3" "$R3/sys/devices/system/node/node3/meminfo"
	T send-keys -t tt r
	wait_for '^topology and weights re-read'
	is "screen: r again once the node is whole" "$(screen | grep -c '^   3   22 CPU-less')" 1
	T send-keys -t tt q
	wait_for '^tt-prompt\$ '
	# A user on the live system is told why a weight cannot be written.
	if can_drop; then
		mkdir -p "$WORK/nobody" && cp "$TOP" "$WORK/nobody/tiertop" && chmod 755 "$WORK" "$WORK/nobody"
		T send-keys -t tt "clear; ${NOBODY[*]} '$WORK/nobody/tiertop' -d 0.5" Enter
		wait_for '^NODE TIER'
		weight '0:1' 'node:weight to write' '^not written'
		# The bar takes a second line rather than cut the message short.
		is "screen: as a user, w says that writing weights needs root, the whole message" \
			"$(screen | sed -n '23,24p' | sed 's/ *$//' | paste -sd' ' -)" \
			"not written: writing weights needs root (the kernel's weight files are root's): run tiertop as root"
		T send-keys -t tt q
		wait_for '^tt-prompt\$ '
	else
		skip "not root or no setpriv: the user's refusal to write is not checked"
	fi
	T kill-server
fi

done_testing
