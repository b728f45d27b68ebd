# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by guest.sh (block, no_tty and $WI are its): tiertune rebalance
# (issue 37) on the 3-node kernel. pagemap --hold places 10007 pages on node
# 0 alone (MPOL_BIND) and keeps them; rebalance moves them to 5:3:2
# over nodes 0-2, and pagemap's own move_pages query (SIGUSR1) says where
# each page is now; check_rebalance.py holds each node's share to within 1%
# of its target, every page counted, and, with --order interleave, the pages
# page for page to tiertune simulate's order. Then the refusals, each with
# nothing moved.
rb_hold() { # name [pages [--thp]]: a held buffer on node 0, its pid in $rb_pid
	pagemap --mode bind --nodes 0 --pages "${2:-10007}" --offset 0 --hold $3 >/tmp/$1 2>&1 &
	rb_pid=$!
	i=0
	while ! grep -q '^held$' /tmp/$1 && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}
rb_requery() { # name pid: the pages' nodes again, pagemap's own query
	local seen
	seen=$(grep -c '^requeried$' /tmp/$1)
	kill -USR1 "$2"
	i=0
	while [ "$(grep -c '^requeried$' /tmp/$1)" -le "$seen" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	cat /tmp/$1
}

rb_hold rb-held
block rebalance-held cat /tmp/rb-held
block rebalance-dry tiertune rebalance --pid $rb_pid --weights 0:5,1:3,2:2 --json
block rebalance-move no_tty tiertune rebalance --pid $rb_pid --weights 0:5,1:3,2:2 --move --rate 64 --json
block rebalance-after rb_requery rb-held $rb_pid
block rebalance-numa-maps cat /proc/$rb_pid/numa_maps
block rebalance-recorded tiertune runs --json
kill $rb_pid
wait $rb_pid 2>/dev/null
block rebalance-gone tiertune rebalance --pid $rb_pid --weights 0:5,1:3,2:2 --move

# Page for page: the kernel's weighted-interleave order at 5:3:2.
rb_hold rb-il
block rebalance-il-move no_tty tiertune rebalance --pid $rb_pid --weights 0:5,1:3,2:2 --order interleave \
	--move --json
block rebalance-il-after rb_requery rb-il $rb_pid
start=$(sed -n 's/^start_index //p' /tmp/rb-il)
block rebalance-il-simulate tiertune simulate --nodes 0-2 --weights 0:5,1:3,2:2 --pages 10007 \
	--start-index "${start:-0}" --json
# Refusals: nothing moved (the buffer's nodes queried again after them).
block rebalance-offline tiertune rebalance --pid $rb_pid --weights 0:1,3:1 --move
block rebalance-kthread tiertune rebalance --pid 2 --weights 0:1 --move
block rebalance-refused-after rb_requery rb-il $rb_pid
kill $rb_pid
wait $rb_pid 2>/dev/null

# Huge pages: 20 THPs (10240 pages, 2 MiB-aligned) on node 0 go to 5:3:2
# whole (10, 6 and 4 of them), moved by their first address; smaps'
# AnonHugePages says they are still huge pages afterwards.
block rebalance-thp-enabled cat /sys/kernel/mm/transparent_hugepage/enabled
rb_hold rb-thp 10240 --thp
block rebalance-thp-dry tiertune rebalance --pid $rb_pid --weights 0:5,1:3,2:2 --json
block rebalance-thp-move no_tty tiertune rebalance --pid $rb_pid --weights 0:5,1:3,2:2 --move --json
block rebalance-thp-after rb_requery rb-thp $rb_pid
block rebalance-thp-smaps cat /proc/$rb_pid/smaps
block rebalance-thp-again tiertune rebalance --pid $rb_pid --weights 0:5,1:3,2:2 --json
kill $rb_pid
wait $rb_pid 2>/dev/null

# An exiting process (issue 45): killed (SIGKILL) at several points of a
# rate-limited --move (about 20 MiB at 2 MiB/s, some 10 s). The shell reaps
# it only afterwards, so tiertune meets it exiting or a zombie, whose mm is
# gone (move_pages: EINVAL), as well as reaped. Each run must end with what
# moved and the process said gone, recorded; or, killed while its pages were
# still being read, with nothing moved; never a raw move_pages error.
for at in 0.5 1.5 3 5; do
	rb_hold rb-kill
	(
		sleep $at
		kill -9 $rb_pid
	) &
	killer=$!
	block rebalance-kill-$at no_tty tiertune rebalance --pid $rb_pid --weights 0:5,1:3,2:2 --move \
		--rate 2 --json
	wait $killer
	wait $rb_pid 2>/dev/null
done
block rebalance-kill-recorded tiertune runs --json

# Private MAP_HUGETLB (issue 45): 20 huge pages from the pool, bound to node
# 0, go to 5:3:2 whole (10, 6 and 4 of them); each node's pool has room.
for n in 0 1 2; do
	echo 24 >/sys/devices/system/node/node$n/hugepages/hugepages-2048kB/nr_hugepages
done
block rebalance-htlb-pool cat /sys/devices/system/node/node0/hugepages/hugepages-2048kB/free_hugepages \
	/sys/devices/system/node/node1/hugepages/hugepages-2048kB/free_hugepages \
	/sys/devices/system/node/node2/hugepages/hugepages-2048kB/free_hugepages
rb_hold rb-htlb 10240 --hugetlb
block rebalance-htlb-dry tiertune rebalance --pid $rb_pid --weights 0:5,1:3,2:2 --json
block rebalance-htlb-move no_tty tiertune rebalance --pid $rb_pid --weights 0:5,1:3,2:2 --move --json
block rebalance-htlb-after rb_requery rb-htlb $rb_pid
block rebalance-htlb-smaps grep -A 20 anon_hugepage /proc/$rb_pid/smaps
kill $rb_pid
wait $rb_pid 2>/dev/null
for n in 0 1 2; do
	echo 0 >/sys/devices/system/node/node$n/hugepages/hugepages-2048kB/nr_hugepages
done

# A full target node (issue 45): node 2's free memory taken by its hugetlb
# pool, all but about 8 MiB above its zone's min watermark (which THP's
# recommended min_free_kbytes makes some 29 MiB here; a migration's
# allocation fails below it: with 30 MiB free 64 pages moved, with 57 MiB
# free all 5026). Safe: a pool page, as a migration target, is
# allocated __GFP_THISNODE, and such an allocation fails rather than
# invoking the OOM killer (mm/page_alloc.c __alloc_pages_may_oom: "The OOM
# killer may not free memory on a specific node"). 10007 pages (39 MiB)
# bound to node 0 go to 1:1 over nodes 0 and 2: node 2's 5004 pages do not
# all fit; those that fit move, the rest are named with the full node,
# recorded as failed with why (exit 1).
n2=/sys/devices/system/node/node2
free_kb=$(sed -n 's/.*MemFree: *\([0-9]*\) kB/\1/p' $n2/meminfo)
min=$(awk '/^Node 2, zone/ { z = $4 } z == "Normal" && $1 == "min" { print $2; exit }' /proc/zoneinfo)
echo $(((free_kb - ${min:-0} * 4 - 8192) / 2048)) >$n2/hugepages/hugepages-2048kB/nr_hugepages
block rebalance-full-free sh -c "grep MemFree $n2/meminfo; echo min watermark ${min:-?} pages"
rb_hold rb-full
block rebalance-full-move no_tty tiertune rebalance --pid $rb_pid --weights 0:1,2:1 --move --json
block rebalance-full-after rb_requery rb-full $rb_pid
block rebalance-full-runs tiertune runs --limit 1
block rebalance-full-runs-json tiertune runs --limit 1 --json
kill $rb_pid
wait $rb_pid 2>/dev/null
echo 0 >$n2/hugepages/hugepages-2048kB/nr_hugepages

# Page granularity (issue 45): 30 THPs on node 0 toward 3:2:2 in the
# kernel's interleave order cannot come within the default tolerance (one
# THP is 333 bp of the buffer): the dry run names the 2 MiB granularity
# and what would meet it, in text and JSON; that suggestion, taken, plans
# within its tolerance; --move ends NOT within tolerance with the note.
rb_hold rb-gran 15360 --thp
block rebalance-gran-dry tiertune rebalance --pid $rb_pid --weights 0:3,1:2,2:2 --order interleave
tiertune rebalance --pid $rb_pid --weights 0:3,1:2,2:2 --order interleave --json >/tmp/gran.json
block rebalance-gran-json cat /tmp/gran.json
# The suggestion's options, from the note's last clause ("--order shares
# meets it (N bp off)", "--tolerance T fits", "--order shares with
# --tolerance T fits").
alt=$(sed -n 's/^ *"granularity": ".*; \(--[^"]*\)",*$/\1/p' /tmp/gran.json |
	sed 's/ with / /; s/ meets it.*//; s/ fits.*//')
case $alt in --order*) order= ;; *) order="--order interleave" ;; esac
block rebalance-gran-alt echo "$alt"
block rebalance-gran-fits tiertune rebalance --pid $rb_pid --weights 0:3,1:2,2:2 $order $alt --json
block rebalance-gran-move no_tty tiertune rebalance --pid $rb_pid --weights 0:3,1:2,2:2 --order interleave \
	--move --json
kill $rb_pid
wait $rb_pid 2>/dev/null

# A cpuset (issue 45 review): move_pages answers EACCES for a target node
# the process's cpuset does not allow, which is no matter of credentials.
# Refused before any move when the weights name such a node; a cpuset
# narrowed 2 s into a --rate 2 move ends it with the node named, recorded
# with why.
cg=/sys/fs/cgroup
if mkdir -p $cg && mount -t cgroup2 none $cg && echo +cpuset >$cg/cgroup.subtree_control &&
	mkdir $cg/rb && echo 0-1 >$cg/rb/cpuset.mems; then
	rb_hold rb-cpuset
	echo $rb_pid >$cg/rb/cgroup.procs
	block rebalance-cpuset-status grep Mems_allowed_list /proc/$rb_pid/status
	block rebalance-cpuset tiertune rebalance --pid $rb_pid --weights 0:5,1:3,2:2 --move
	block rebalance-cpuset-after rb_requery rb-cpuset $rb_pid
	kill $rb_pid
	wait $rb_pid 2>/dev/null
	echo 0-2 >$cg/rb/cpuset.mems
	rb_hold rb-narrow
	echo $rb_pid >$cg/rb/cgroup.procs
	(
		sleep 2
		echo 0-1 >$cg/rb/cpuset.mems
	) &
	narrower=$!
	block rebalance-cpuset-narrow no_tty tiertune rebalance --pid $rb_pid --weights 0:5,1:3,2:2 \
		--move --rate 2 --json
	wait $narrower
	block rebalance-cpuset-narrow-runs tiertune runs --limit 1
	block rebalance-cpuset-narrow-show sh -c \
		'tiertune show $(tiertune runs --limit 1 --json | sed -n "s/^ *\"id\": \([0-9]*\),*$/\1/p" | head -n 1)'
	kill $rb_pid
	wait $rb_pid 2>/dev/null
else
	block rebalance-cpuset-status echo "no cgroup2 cpuset controller in the guest"
fi
