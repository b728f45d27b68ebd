#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A fleet operator's hostile corners, on fixture copies: what is at an
# output path is never replaced, and writers sharing one state folder
# never leave weights half-written.
. "$(dirname "$0")/lib.sh"

WI=sys/kernel/mm/mempolicy/weighted_interleave
fx=$(copy_fixture spr-ddr5-2cxl)

# capture -o X.tar.gz where X.tar.gz is a link (dangling: access() saw
# nothing there and the archive replaced the operator's link).
ln -s "$WORK/elsewhere.tar.gz" "$WORK/cap.tar.gz"
run "$TT" --sysfs-root "$fx" capture -o "$WORK/cap.tar.gz"
is "capture onto a dangling link: exit 2, named, the link kept, nothing made where it points" \
	"$rc:$(grep -c "'$WORK/cap.tar.gz' exists" "$WORK/err"):$(wc -c <"$WORK/out"):$(readlink "$WORK/cap.tar.gz"):$([ -e "$WORK/elsewhere.tar.gz" ] && echo made)" \
	"2:1:0:$WORK/elsewhere.tar.gz:"

# Eight applies at once on one root and state folder: each writes all its
# weights or is refused by the lock (exit 1, saying so); the weights are
# then one of the vectors asked for, and restore, repeated, gives the copy
# back byte for byte.
before=$(tree_sum "$fx")
for i in 1 2 3 4 5 6 7 8; do
	("$TT" --sysfs-root "$fx" apply --weights "0:$((i + 1)),1:$i,2:1" >"$WORK/out$i" 2>"$WORK/err$i"
	 echo $? >"$WORK/rc$i") &
done
wait
ok=0 odd=0
for i in 1 2 3 4 5 6 7 8; do
	case $(cat "$WORK/rc$i") in
	0) ok=$((ok + 1)) ;;
	1) grep -q "another tiertune is writing weights" "$WORK/err$i" || odd=$((odd + 1)) ;;
	*) odd=$((odd + 1)) ;;
	esac
done
now="$(cat "$fx/$WI/node0"):$(cat "$fx/$WI/node1"):$(cat "$fx/$WI/node2")"
is "concurrent applies: each applied or refused by the lock, and the weights one vector asked for" \
	"$([ $ok -ge 1 ] && echo some):$odd:$(for i in 1 2 3 4 5 6 7 8; do [ "$now" = "$((i + 1)):$i:1" ] && echo one; done)" \
	"some:0:one"
for i in 1 2 3 4 5 6 7 8 9; do "$TT" --sysfs-root "$fx" restore >/dev/null 2>&1 || break; done
is "restore, repeated, undoes every apply that went through: the copy as before" "$(tree_sum "$fx")" "$before"
done_testing
