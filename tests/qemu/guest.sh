# SPDX-License-Identifier: GPL-3.0-or-later
# Runs inside the QEMU guest (busybox sh, as root, on the real sysfs of a
# 3-node 6.12 kernel); lib.sh says how the output is marked for check.py.
. /lib.sh

echo # the console's first line carries escape codes
block uname uname -r
block topo tiertune topo --json
# What the kernel computed for demotion, to hold topo's own computation to.
block demotion sh -c 'dmesg | grep "Demotion targets for Node"'

# Kernel fidelity: one case a line, "NODES WEIGHTS PAGES OFFSET".
n=0
while read -r nodes weights pages offset; do
	n=$((n + 1))
	for nw in $(echo "$weights" | tr ',' ' '); do
		echo "${nw#*:}" >"$WI/node${nw%%:*}"
	done
	# Address-space randomisation is off (init), so both runs map the
	# buffer at the same address: the same buffer, placed two ways.
	pagemap --mode kernel --nodes "$nodes" --pages "$pages" --offset "$offset" >/tmp/kernel 2>&1
	start=$(sed -n 's/^start_index //p' /tmp/kernel)
	block "kernel-$n" cat /tmp/kernel
	block "exact-$n" pagemap --mode exact --nodes "$nodes" --weights "$weights" --pages "$pages" \
		--offset "$offset"
	block "simulate-$n" tiertune simulate --nodes "$nodes" --weights "$weights" --pages "$pages" \
		--start-index "${start:-0}" --json
done </cases.txt
for f in 0 1 2; do echo 1 >"$WI/node$f"; done

# apply and restore on the real sysfs.
block weights-before cat $WI/node0 $WI/node1 $WI/node2
block apply tiertune apply --weights 0:5,1:4,2:2
block weights-applied cat $WI/node0 $WI/node1 $WI/node2
block journal-after-apply ls /tmp/state
block restore tiertune restore
block weights-restored cat $WI/node0 $WI/node1 $WI/node2
block auto-mode ls $WI

# Every kernel under weights, placement verified.
# (The names from the JSON listing: the guest has no JSON parser, but each
# kernel's "name" is on a line of its own.)
for k in $(tiertune bench --list --json | sed -n 's/^ *"name": "\([^"]*\)".*/\1/p'); do
	case $k in
	loaded-latency) extra="--delays 0,1000 --point-ms 50" ;;
	*) extra="" ;;
	esac
	block "bench-$k" no_tty tiertune bench --kernel "$k" --nodes 0-2 --weights 0:3,1:2,2:1 --size 2M \
		--repeat 1 --json $extra
done
echo 2 >$WI/node2
block bench-kernel-placement no_tty tiertune bench --kernel triad --placement kernel --nodes 0,2 --size 4M \
	--repeat 1 --json
echo 1 >$WI/node2

# --- tiertop (issue 15): the process panel with several nodes, and the
# per-node demotion and promotion counters of a real 6.12 kernel. A
# process holds 10007 pages bound to weighted interleave over nodes 0-2
# at weights 5:3:2; check.py compares what tiertop lists with the kernel's
# own placement (move_pages) and with tiertune simulate.
if [ -x /bin/tiertop ]; then
	echo 5 >$WI/node0
	echo 3 >$WI/node1
	echo 2 >$WI/node2
	pagemap --mode kernel --nodes 0-2 --pages 10007 --offset 0 --hold >/tmp/held 2>&1 &
	held=$!
	i=0
	while ! grep -q '^held$' /tmp/held && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	block tiertop-held cat /tmp/held
	block tiertop-pid echo $held
	block tiertop-json tiertop --once --json -d 0.5
	block tiertop-text tiertop --once -d 0.5
	kill $held
	wait $held 2>/dev/null
	for f in 0 1 2; do echo 1 >"$WI/node$f"; done
fi

# ---- tiertune run (issue 23): the program under MPOL_WEIGHTED_INTERLEAVE
# over nodes 0-2 at the weights sysfs holds (5:3:2), its CPUs node 0's;
# pagemap --mode task touches 10007 pages under the task's policy and
# reports each page's node (move_pages). Then weights sysfs does not hold:
# refused, nothing written; --apply writes them for the program's run and
# puts the old ones back when it ends (issue 43). ----
echo 5 >$WI/node0
echo 3 >$WI/node1
echo 2 >$WI/node2
block run-place tiertune run --nodes 0-2 --source-node 0 -- sh -c \
	'sed -n "s/^Cpus_allowed_list:[[:space:]]*/cpus /p" /proc/self/status; exec pagemap --mode task --pages 10007'
block run-node0-cpus cat /sys/devices/system/node/node0/cpulist
block run-refused tiertune run --weights 0:4,1:2,2:1 --source-node 0 -- true
block run-weights-refused cat $WI/node0 $WI/node1 $WI/node2
block run-apply tiertune run --weights 0:4,1:2,2:1 --source-node 0 --apply -- sh -c \
	'exec pagemap --mode task --pages 7001'
block run-weights-applied cat $WI/node0 $WI/node1 $WI/node2
tiertune restore --last >/dev/null 2>&1
for f in 0 1 2; do echo 1 >"$WI/node$f"; done
# The unit's command (tiertune-apply.service) on the real sysfs: a profile
# of this machine applies; one whose fingerprint is another's writes nothing.
tiertune export --weights 0:6,1:2,2:1 --format json -o /tmp/unit.json >/dev/null 2>&1
sed 's/"fingerprint": "[0-9a-f]*"/"fingerprint": "0123456789abcdef"/' /tmp/unit.json >/tmp/unit-other.json
block unit-other tiertune apply --profile /tmp/unit-other.json
block unit-other-weights cat $WI/node0 $WI/node1 $WI/node2
block unit-apply tiertune apply --profile /tmp/unit.json
block unit-weights cat $WI/node0 $WI/node1 $WI/node2
tiertune restore --last >/dev/null 2>&1
for f in 0 1 2; do echo 1 >"$WI/node$f"; done

# ---- auto under the kernel's policy (issue 14): bench trials with the
# weights written per trial, and app mode; the weights back afterwards. ----
block auto-weights-before cat $WI/node0 $WI/node1 $WI/node2
# (The progress lines go to stderr, kept out of the JSON block.)
block auto-kernel sh -c 'tiertune auto --source-node 0 --placement kernel --size 2M --allow-cache-resident --allow-unstable --repeat 1 \
	--budget 20 --no-record --json 2>/tmp/auto-kernel.err'
block auto-weights-after-kernel cat $WI/node0 $WI/node1 $WI/node2
# The program records, each run, the weights sysfs holds while it runs, the
# policy it runs under and the CPUs it may use.
cat >/tmp/app.sh <<'APP'
#!/bin/sh
W=/sys/kernel/mm/mempolicy/weighted_interleave
pol=$(grep -m1 -o 'weighted interleave:[0-9,-]*' /proc/self/numa_maps)
cpus=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)
echo "$(cat $W/node0):$(cat $W/node1):$(cat $W/node2) ${pol:-none} $cpus" >>/tmp/app-runs
i=0
while [ $i -lt 200 ]; do i=$((i + 1)); done
APP
chmod +x /tmp/app.sh
# --allow-unstable: a run per measurement, whatever the guest's scheduler
# did (a run judged descheduled is otherwise run again); each trial's
# verdict is checked in the record.
block auto-app sh -c 'tiertune auto --source-node 0 --budget 20 --allow-unstable --json -- /tmp/app.sh \
	2>/tmp/auto-app.err >/tmp/auto-app.json; rc=$?; cat /tmp/auto-app.json; exit $rc'
block auto-app-runs cat /tmp/app-runs
# Recorded: the run's objective and its trials in seconds.
arun=$(sed -n 's/^ *"run": \([0-9]*\),*$/\1/p' /tmp/auto-app.json)
block auto-app-show tiertune show "${arun:-0}" --json
block auto-weights-after-app cat $WI/node0 $WI/node1 $WI/node2
# A program that writes a weight itself on its third run (the 1:1 baseline's
# first): that trial is discarded, said, and measured again.
cat >/tmp/app-move.sh <<'APP'
#!/bin/sh
echo x >>/tmp/move-runs
[ "$(wc -l </tmp/move-runs)" -ne 3 ] || echo 9 >/sys/kernel/mm/mempolicy/weighted_interleave/node1
APP
chmod +x /tmp/app-move.sh
block auto-app-move sh -c 'tiertune auto --source-node 0 --budget 20 --allow-unstable --json -- /tmp/app-move.sh \
	2>/tmp/auto-app-move.err'
block auto-app-move-err cat /tmp/auto-app-move.err
block auto-app-move-runs sh -c 'wc -l </tmp/move-runs'
block auto-weights-after-move cat $WI/node0 $WI/node1 $WI/node2
block auto-journal ls /tmp/state

# ---- auto with latency (issue 14): real trials of bench's loaded-latency
# kernel under exact placement, small arrays and the least budget (their
# curves, under TCG, are not monotone: --allow-unstable, as for every
# mechanics check here at 2M). Each
# writes its JSON to a file that the next can read a figure from (the
# guest has no JSON parser, but jansson puts each key on a line of its
# own). ----
lat_auto() { # name options...: the JSON, then the exit status
	local name=$1
	shift
	tiertune auto --source-node 0 --size 2M --allow-cache-resident --allow-unstable --repeat 1 --budget 20 --no-record --json "$@" \
		>/tmp/$name.json 2>/tmp/$name.err
	local rc=$?
	cat /tmp/$name.json
	return $rc
}
lat_median() { # the median of a run's trials' and baselines' latencies
	sed -n 's/^ *"lat_mean_ns": \([0-9.e+]*\),*$/\1/p' "$1" | sort -g |
		awk '{ v[NR] = $1 } END { if (NR) printf "%.0f\n", v[int((NR + 1) / 2)] }'
}
block auto-maxlat-loose lat_auto auto-maxlat-loose --max-latency 1000000
# A bound some trials miss: the median latency of the run above.
bound=$(lat_median /tmp/auto-maxlat-loose.json)
block auto-maxlat-bound echo "${bound:-none}"
block auto-maxlat-median lat_auto auto-maxlat-median --max-latency "${bound:-1000000}"
block auto-maxlat-median-err cat /tmp/auto-maxlat-median.err
block auto-maxlat-impossible lat_auto auto-maxlat-impossible --max-latency 1
block auto-maxlat-impossible-err cat /tmp/auto-maxlat-impossible.err
# The latency objective at a stated traffic: a quarter of the least
# bandwidth the loose run measured flat out. A TCG guest's bandwidth
# follows the host's load: a fixed 0.5 GB/s was over every candidate's
# capacity (0.3 GB/s) with four other jobs on a 2-CPU host, so the rate
# comes from what this guest measured, with room for the host to slow it
# 4x between the two runs.
rate=$(sed -n 's/^ *"bw_mean_bytes_s": \([0-9.e+]*\),*$/\1/p' /tmp/auto-maxlat-loose.json | sort -g |
	awk 'NR == 1 && $1 > 0 { printf "%.6g\n", $1 / 4e9 }')
block auto-latency-rate echo "${rate:-none}"
block auto-latency lat_auto auto-latency --objective latency --traffic-rate "${rate:-0.5}"
block auto-latency-err cat /tmp/auto-latency.err
block auto-latency-journal ls /tmp/state

# ---- tiertune capture (issue 23): the guest's machine into a tree, read
# back on the host by check.py (topo, hwloc), and a model of it written
# from real auto runs' measured profiles (from source nodes 0 and 1), which
# auto --model completes on the host. The tree crosses the serial line as
# a base64 tar.gz. ----
block capture-auto sh -c 'tiertune auto --source-node 0 --size 2M --allow-cache-resident --allow-unstable --repeat 1 \
	--budget 40 --no-record --json 2>/tmp/capture-auto.err >/tmp/capture-auto.json; rc=$?
	cat /tmp/capture-auto.json; exit $rc'
block capture-auto1 sh -c 'tiertune auto --source-node 1 --size 2M --allow-cache-resident --allow-unstable --repeat 1 \
	--budget 40 --no-record --json 2>/tmp/capture-auto1.err >/tmp/capture-auto1.json; rc=$?
	cat /tmp/capture-auto1.json; exit $rc'
block capture-live tiertune topo --json
block capture tiertune capture -o /tmp/capture --model-from /tmp/capture-auto.json \
	--model-from /tmp/capture-auto1.json
block capture-tree sh -c 'tar -czf - -C /tmp/capture . | base64'

# Further suites: each tests/qemu/guest-NAME.sh (run.sh copies them in) runs
# here, last, in a subshell with lib.sh's functions, from weights 1 and an
# empty state folder; its blocks are read on the host by check-NAME.py,
# which check.py runs after its own checks.
for hook in /guest-*.sh; do
	[ -e "$hook" ] || continue
	run_hook "$hook"
done
