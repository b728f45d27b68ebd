#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A fleet operator's hostile corners, on fixture copies: what is at an
# output path is never replaced nor a planted link followed, and writers sharing one state folder
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

# export -o a link another user planted in a sticky world-writable folder
# (/tmp): the kernel's protected_symlinks would refuse to follow it, and
# export must not follow it either (it resolved it and replaced the file
# it named); the operator's own link there is still followed.
if [ "$(id -u)" -eq 0 ]; then
	mkdir "$WORK/tmp" && chmod 1777 "$WORK/tmp"
	echo precious >"$WORK/victim"
	ln -s "$WORK/victim" "$WORK/tmp/profile.sh" && chown -h nobody "$WORK/tmp/profile.sh"
	run "$TT" --sysfs-root "$fx" export --weights 0:5,1:2 --format shell -o "$WORK/tmp/profile.sh"
	is "export -o another user's link in a sticky folder: exit 2, named, its target untouched" \
		"$rc:$(grep -c "'$WORK/tmp/profile.sh' is a symbolic link another user" "$WORK/err"):$(cat "$WORK/victim")" \
		"2:1:precious"
	: >"$WORK/mine.sh" && ln -s "$WORK/mine.sh" "$WORK/tmp/mine.sh"
	run "$TT" --sysfs-root "$fx" export --weights 0:5,1:2 --format shell -o "$WORK/tmp/mine.sh"
	is "export -o one's own link there: followed, as a shell's > would" \
		"$rc:$(head -c 9 "$WORK/mine.sh")" "0:#!/bin/sh"
else
	skip "planting another user's link needs root (chown)"
	skip "planting another user's link needs root (chown)"
fi

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
got="$([ $ok -ge 1 ] && echo some):$odd:$(for i in 1 2 3 4 5 6 7 8; do [ "$now" = "$((i + 1)):$i:1" ] && echo one; done)"
is "concurrent applies: each applied or refused by the lock, and the weights one vector asked for" \
	"$got" "some:0:one"
[ "$got" = "some:0:one" ] ||
	for i in 1 2 3 4 5 6 7 8; do # each apply's exit and stderr, for the failure above
		echo "apply $i (0:$((i + 1)),1:$i,2:1): exit $(cat "$WORK/rc$i"); weights now $now"
		head -5 "$WORK/err$i"
	done | diag
for i in 1 2 3 4 5 6 7 8 9; do "$TT" --sysfs-root "$fx" restore >/dev/null 2>&1 || break; done
is "restore, repeated, undoes every apply that went through: the copy as before" "$(tree_sum "$fx")" "$before"
done_testing
