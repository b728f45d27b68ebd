#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Every command's options come from one table (cli/options.h): --help lists
# each one the parser takes and the parser takes each one --help lists, the
# help fits 80 columns, the man page describes every option in the command's
# section with every word of its choices, and bash completion offers them
# and their choices (tiertop's too). Unknown and incomplete options are
# errors naming the option.
. "$(dirname "$0")/lib.sh"

MAN="$TT_TOP/docs/tiertune.1"
# The man page's text for one command: from ".SS name" to the next heading.
man_section() { awk -v c="$1" '/^\.S[SH] / {on = ($1 == ".SS" && $2 == c)} on' "$MAN" | sed 's/\\-/-/g'; }
# Its words, fonts dropped ("\fBgrid\fR" is grid).
man_words() { man_section "$1" | sed 's/\\f[BIRP]//g'; }
# named SECTION WORD: the section names WORD, a whole word where a hyphen
# is part of a word (rfc is not rfcv1's, latency not loaded-latency's).
named() { man_words "$1" | grep -qE -- "(^|[^a-z0-9-])$2([^a-z0-9-]|\$)"; }
# in_bold SECTION WORD: WORD stands in one of the section's bold runs (the
# man page's lists of kernels and collectors are bold).
in_bold() {
	man_section "$1" | grep -oE '\\fB[^\\]*\\f[RP]' | sed -E 's/^\\fB//; s/\\f[RP]$//' | tr ' ,|' '\n\n\n' | grep -qxF -- "$2"
}
common=$(awk '/^\.SH COMMON OPTIONS/ {on = 1; next} /^\.SH / {on = 0} on' "$MAN" | sed 's/\\-/-/g')

commands=$("$TT" --completion-helper)
is "the command list comes from the table" "$(echo $commands | wc -w)" "$(grep -oE '\.run = cmd_' "$TT_TOP/cli/tiertune.c" | wc -l)"
for c in $commands; do
	opts=$("$TT" "$c" --completion-helper)
	run "$TT" "$c" --help
	help=$(cat "$WORK/out")
	missing= unparsed= undocumented=
	for o in $opts; do
		name=${o%=}
		grep -qE -- "(^|[ ,])$name( |$)" <<<"$help" || missing="$missing $name"
		# Recognised: whatever its value, the parser never calls it unknown.
		if [ "$o" != "$name" ]; then "$TT" "$c" "$name=x" --help >/dev/null 2>"$WORK/perr"
		else "$TT" "$c" "$name" --help >/dev/null 2>"$WORK/perr"; fi
		! grep -q 'unknown option' "$WORK/perr" || unparsed="$unparsed $name"
		case $name in --sysfs-root | --db | --json | --help)
			grep -q -- "$name" <<<"$common" || undocumented="$undocumented $name" ;;
		*) man_section "$c" | grep -q -- "$name" || undocumented="$undocumented $name" ;;
		esac
	done
	is "$c: --help exits 0 and lists every option" "$rc:${missing:-none}" "0:none"
	is "$c: every listed option parses" "${unparsed:-none}" none
	is "$c: the man page describes every option" "${undocumented:-none}" none
	# A choice's words are its table's (a strategy, export format,
	# placement, objective, interface): a new one is named in the man
	# page, as the strategies and formats were by hand.
	unnamed=
	for o in $opts; do
		[ "$o" != "${o%=}" ] || continue
		o=${o%=}
		for w in $("$TT" "$c" --completion-choices="${o#--}"); do
			named "$c" "$w" || unnamed="$unnamed $o=$w"
		done
	done
	is "$c: the man page names every choice of every option" "${unnamed:-none}" none
	is "$c: --help fits 80 columns" "$(awk 'length($0) > 80' "$WORK/out" | head -3)" ""
	expect_bad_input 2 "unknown option '--no-such-option'" - "$TT" "$c" --no-such-option
	# The usage line names the positional arguments only (options are the
	# table's); a command with none refuses one, naming it.
	is "$c: the usage line names no option" "$(head -1 <<<"$help" | grep -c -- '--[a-z]')" 0
	if [ "$(head -1 <<<"$help")" = "usage: tiertune $c [options]" ]; then
		expect_bad_input 2 "$c takes no argument, got 'extra'" - "$TT" "$c" extra
	fi
done
# The kernels and collectors the man page lists, held to their tables.
unnamed=
for k in $("$TT" --completion-values=kernels); do in_bold bench "$k" || unnamed="$unnamed $k"; done
is "the man page's bench section names every kernel of the table" "${unnamed:-none}" none
unnamed=
for k in $("$TT" --completion-values=collectors); do in_bold collectors "$k" || unnamed="$unnamed $k"; done
is "the man page's collectors section names every collector of the table" "${unnamed:-none}" none
# --completion-choices answers for an option the command has: another is
# refused, not answered with no words (t0013's choice check asked for
# "strategy=" and compared nothing).
expect_bad_input 2 "--completion-choices: auto has no option '--strategy='" - "$TT" auto --completion-choices=strategy=
expect_bad_input 2 "--completion-choices: topo has no option '--strategy'" - "$TT" topo --completion-choices=strategy
run "$TT" auto --completion-choices=budget
is "--completion-choices of a free value: no words, exit 0" "$rc:$(cat "$WORK/out")" "0:"
expect_bad_input 2 "option '--sysfs-root' needs a value" - "$TT" --sysfs-root
expect_bad_input 2 "option '--kernel' needs a value" - "$TT" bench --kernel
expect_bad_input 2 "option '--json' takes no value" - "$TT" topo --json=yes
expect_bad_input 2 "export has no JSON output" - "$TT" export --weights 0:1 --format shell --json

# One grammar with tiertop (core/options.h; t0012 holds tiertop to it): a
# unique prefix of a long name is the option, one of several is refused
# naming them all, an unlisted option answers to its whole name only, short
# flags cluster, and tiertune's own options before the command parse alike.
Q="$FIX/qemu-3node-hmat"
full=$("$TT" simulate --sysfs-root "$Q" --nodes 0-2 --weights 0:2,1:1,2:1 --pages 8 --json)
run "$TT" simulate --sysfs "$Q" --nod 0-2 --wei 0:2,1:1,2:1 --pag 8 --js
is "abbreviated options are the options they begin" "$rc:$(cat "$WORK/out")" "0:$full"
run "$TT" simulate --sysfs-root="$Q" --nod=0-2 --wei=0:2,1:1,2:1 --pag=8 --js
is "abbreviated options take --name=value" "$rc:$(cat "$WORK/out")" "0:$full"
run "$TT" --sys "$Q" simulate --nodes 0-2 --weights 0:2,1:1,2:1 --pages 8 --json
is "tiertune's own options abbreviate too" "$rc:$(cat "$WORK/out")" "0:$full"
expect_bad_input 2 "option '--t' is ambiguous: --threads, --thp, --traffic" - "$TT" bench --t 1
expect_bad_input 2 "unknown option '--completion'" - "$TT" simulate --completion
expect_bad_input 2 "option '--pages' value 'x' is not a number" - "$TT" simulate --sysfs-root "$Q" --nodes 0-2 --pag x
expect_bad_input 2 "option '--pages' needs a value" - "$TT" simulate --sysfs-root "$Q" --nodes 0-2 --pag
expect_bad_input 2 "unknown option '-x'" - "$TT" topo -hx
expect_bad_input 2 "unknown option '--bogus' before the command (see 'tiertune --help')" - "$TT" --bogus topo
expect_bad_input 2 "option '--db' needs a value" - "$TT" --d
run "$TT" export --sysfs-root "$Q" --weights 0:2,1:1,2:1 --format shell -o"$WORK/x.sh"
is "-oFILE is -o FILE" "$rc:$(grep -c '^echo' "$WORK/x.sh")" "0:3"

run "$TT" help --help
is "help --help is help's usage" "$rc:$(head -1 "$WORK/out")" "0:usage: tiertune help [options] [COMMAND]"
run "$TT" help
is "the overview fits 80 columns and names every command" \
	"$rc:$(awk 'length($0) > 80' "$WORK/out" | wc -l):$(grep -cE "^  ($(echo $commands | tr ' ' '|')) " "$WORK/out")" \
	"0:0:$(echo $commands | wc -w)"
# Each command's line is its summary's first sentence, whole: the one that
# ends at a '.' before a space or the end (capture's names ".tar.gz").
is "the overview's line of each command is its summary's first sentence" \
	"$(for c in $commands; do "$TT" "$c" --help | python3 -c 'import re, sys
text = sys.stdin.read().split("\n\n")[1]
print(sys.argv[1], re.match(r"(.*?)\.(\s|$)", " ".join(text.split()) + " ").group(1))' "$c"; done)" \
	"$(python3 -c 'import re, sys
cmd = None
lines = {}
for l in sys.stdin.read().split("\n"):
    m = re.match(r"  ([a-z]+) +(.*)", l)
    if m:
        cmd = m.group(1); lines[cmd] = m.group(2)
    elif cmd and l.startswith(" " * 13):
        lines[cmd] += " " + l.strip()
    else:
        cmd = None
for c in sys.argv[1:]:
    print(c, lines.get(c))' $commands <"$WORK/out")"

# Bash completion, from the same tables.
comp() { PATH="$(dirname "$TT"):$PATH" bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _tiertune; echo "${COMPREPLY[*]}"' _ "$TT_TOP/cli/completion.bash" tiertune "$@"; }
is "completion: a command" "$(comp simu)" simulate
is "completion: a command's options" "$(comp simulate --sta)" "--start-index="
is "completion: a flag takes a space" "$(comp bench --matr)" "--matrix "
is "completion: db's actions" "$(comp db m)" "migrate merge"
# Values, from the binary and the machine or database named.
is "completion: --kernel's kernels" "$(comp bench --kernel tr)" "triad triad-nt"
is "completion: --kernel=, split at '=' as bash does" "$(comp bench --kernel = sc)" "scale"
is "completion: --traffic offers bandwidth kernels only" "$(comp bench --traffic "" | grep -cw latency)" 0
is "completion: --model's shipped models, from the tree's binary anywhere" \
	"$(cd / && comp auto --model spr-ddr5)" "$(cd "$TT_TOP/model/machines" && ls spr-ddr5*.json | sed 's/\.json$//' | paste -sd' ')"
# A source is a node with CPUs (auto refuses a CPU-less one); --nodes
# takes memory nodes, CXL's CPU-less ones too (issue 44).
is "completion: --source-node's nodes with CPUs, of the --sysfs-root given" \
	"$(comp --sysfs-root "$FIX/spr-ddr5-2cxl" auto --source-node "")" "0"
is "completion: --nodes' nodes, CPU-less ones too" \
	"$(comp --sysfs-root "$FIX/spr-ddr5-2cxl" simulate --nodes "")" "0 1 2"
run "$TT" --db "$WORK/comp.db" auto --source-node 0 --model spr-ddr5-2cxl --budget 20
is "completion: show's run ids, of the --db given" "$(comp --db "$WORK/comp.db" show "")" 1
is "completion: apply --run's run ids" "$(comp --db "$WORK/comp.db" apply --run "")" 1
# A choice's words come from its table: the same as --help shows, the
# formats the same as --completion-values lists.
is "completion: --strategy's words are the table's (as --help shows them)" \
	"$(comp auto --strategy "")" \
	"$("$TT" auto --help | sed -nE 's/^ +--strategy ([a-z|]+)( .*)?$/\1/p' | tr '|' ' ')"
is "completion: --strategy=, split at '='" "$(comp auto --strategy = h)" hillclimb
choices() { "$TT" "$1" --completion-choices="$2" | paste -sd' '; }
is "completion: auto --placement's choices" "$(comp auto --placement "")" "$(choices auto placement)"
is "completion: bench --placement's choices" "$(comp bench --placement = b)" bind
is "completion: --objective's choices" "$(comp auto --objective "")" "$(choices auto objective)"
is "completion: rebalance --order's choices" "$(comp rebalance --order "")" "$(choices rebalance order)"
is "completion: bench --page-size's sizes, from the table its value is matched against" \
	"$(comp bench --page-size "")" "$(choices bench page-size)"
is "completion: --interface's interfaces (and both)" "$(comp export --interface "")" \
	"$("$TT" --version | sed -n 's/^interfaces: //p') both"
is "completion: --format's words are --completion-values=formats'" \
	"$(comp export --format "")" "$("$TT" --completion-values=formats | paste -sd' ')"
is "completion: a free value offers no words" "$(comp auto --budget "")" ""
is "completion: a flag's next word is not its value" "$(comp --db "$WORK/comp.db" show --json "")" 1
# plot offers the runs it draws (auto, sweep, a matrix, loaded-latency
# curves), not a triad bench it refuses; show offers every run.
run "$TT" --db "$WORK/comp.db" bench --kernel triad --size 4M --repeat 2 --record
is "completion: plot's run ids are those it draws; show's all" \
	"$(comp --db "$WORK/comp.db" plot ""):$(comp --db "$WORK/comp.db" show ""):$(comp --db "$WORK/comp.db" plot 1 "")" "1:2 1:1"

# tiertop's completion (tui/completion.bash): its options and their values,
# and its man page names every option and choice.
TOP="$TT_BUILD/tiertop"
if [ -x "$TOP" ]; then
	tcomp() { PATH="$(dirname "$TT"):$PATH" bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _tiertop; echo "${COMPREPLY[*]}"' _ "$TT_TOP/tui/completion.bash" tiertop "$@"; }
	is "tiertop completion: an option" "$(tcomp --vi)" --view
	# The words are --help's, as tui/completion.bash reads them.
	twords() { "$TOP" --help | sed -nE "s/^ +(-., )?--$1 ([a-z|]+) .*/\\2/p" | tr '|' ' '; }
	is "tiertop completion: --view's words" "$(tcomp --view "")" "$(twords view)"
	is "tiertop completion: --view=, split at '='" "$(tcomp --view = t)" tiers
	is "tiertop completion: --sort's words" "$(tcomp --sort = "")" "$(twords sort)"
	is "tiertop completion: --collectors' names" "$(tcomp --collectors nu)" numastat
	is "tiertop completion: the last name of a --collectors list" \
		"$(tcomp --collectors numastat,perf-u)" "numastat,perf-uncore"
	is "tiertop completion: a free value offers no words" "$(tcomp --delay "")" ""
	tman=$(sed 's/\\-/-/g; s/\\f[BIRP]//g' "$TT_TOP/docs/tiertop.1")
	unnamed=
	for o in $("$TOP" --help | grep -oE -- '--[a-z][a-z-]*' | sort -u); do
		grep -q -- "$o" <<<"$tman" || unnamed="$unnamed $o"
	done
	while read -r o arg; do
		for w in ${arg//|/ }; do grep -qw -- "$w" <<<"$tman" || unnamed="$unnamed $o=$w"; done
	done < <("$TOP" --help | sed -nE 's/^ +(-., )?(--[a-z-]+) ([a-z]+(\|[a-z]+)+) .*/\2 \3/p')
	is "tiertop: the man page names every option and choice" "${unnamed:-none}" none
fi
done_testing
