# SPDX-License-Identifier: GPL-3.0-or-later
# bash completion for tiertop, installed by `make install`. The options and
# the values they take come from `tiertop --help` (tiertop's one option
# table), so they cannot drift from the binary; --collectors' names, one or a
# comma-separated list, from the collectors table tiertune and tiertop share
# (tiertune --completion-values=collectors).
_tiertop() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]} help arg
	# --opt=value: bash splits at '=' (COMP_WORDBREAKS), or the word holds it.
	if [[ $prev == = && $COMP_CWORD -ge 2 ]]; then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	elif [[ $cur == --*=* ]]; then
		prev=${cur%%=*} cur=${cur#*=}
	fi
	help=$(tiertop --help 2>/dev/null)
	case $prev in
	--sysfs-root)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -d -- "$cur"))
		return ;;
	--collectors)
		# The list's last name; the names before it stay as typed.
		local done=
		[[ $cur == *,* ]] && done=${cur%,*},
		COMPREPLY=($(compgen -P "$done" -W "$(tiertune --completion-values=collectors 2>/dev/null)" -- "${cur##*,}"))
		compopt -o nospace 2>/dev/null
		return ;;
	--*)
		# The option's argument as --help shows it: "nodes|tiers" lists
		# its values; an upper-case name (N, SECS, LIST) is free.
		arg=$(sed -n "s/^ *\(-., \)\{0,1\}$prev \([^ ]*\) .*/\2/p" <<<"$help")
		if [ -n "$arg" ]; then
			[[ $arg == *[a-z]* ]] && COMPREPLY=($(compgen -W "${arg//|/ }" -- "$cur"))
			return
		fi ;;
	esac
	[[ $cur == -* ]] && COMPREPLY=($(compgen -W "$(grep -oE -- '--[a-z][a-z-]*' <<<"$help" | sort -u)" -- "$cur"))
}
complete -F _tiertop tiertop
