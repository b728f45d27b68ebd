# SPDX-License-Identifier: GPL-3.0-or-later
# bash completion for tiertop, installed by `make install`. The options and
# the values they take come from `tiertop --help` (tiertop's one option
# table), so they cannot drift from the binary.
_tiertop() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]} help arg
	help=$(tiertop --help 2>/dev/null)
	case $prev in
	--sysfs-root)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -d -- "$cur"))
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
