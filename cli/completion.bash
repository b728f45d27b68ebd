# SPDX-License-Identifier: GPL-3.0-or-later
# bash completion for tiertune, installed by `make install`. The commands and
# each command's options come from tiertune itself (--completion-helper, from
# the option tables in cli/), so they cannot drift from the binary.
_tiertune() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]} cmd= i
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		--sysfs-root | --db) ((i++)) ;;
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	case $prev in
	--sysfs-root | --journal | --profile | -o)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	--db)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	esac
	if [ -z "$cmd" ]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "--sysfs-root --db --version --help" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$(tiertune --completion-helper 2>/dev/null)" -- "$cur"))
		fi
		return
	fi
	case $cmd in
	help)
		COMPREPLY=($(compgen -W "$(tiertune --completion-helper 2>/dev/null)" -- "$cur"))
		return ;;
	db)
		[[ $cur == -* ]] || { COMPREPLY=($(compgen -W "check migrate merge" -- "$cur")); return; } ;;
	esac
	if [[ $cur == -* ]]; then
		compopt -o nospace 2>/dev/null
		COMPREPLY=($(compgen -W "$(tiertune "$cmd" --completion-helper 2>/dev/null)" -- "$cur"))
		# a flag takes no value: a space after it
		[[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} != *= ]] && COMPREPLY[0]+=" "
	fi
}
complete -F _tiertune tiertune
