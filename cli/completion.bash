# SPDX-License-Identifier: GPL-3.0-or-later
# bash completion for tiertune, installed by `make install`. The commands and
# each command's options come from tiertune itself (--completion-helper, from
# the option tables in cli/), so they cannot drift from the binary; so do the
# values of options: a choice's words from its table (COMMAND
# --completion-choices=OPTION: --strategy, --placement, --format, --objective,
# --order...), and --completion-values for models, kernels, collectors, the
# nodes of the --sysfs-root given (those with CPUs for --source-node) and the
# runs plot draws; other run ids from 'runs' on the --db given.
_tiertune() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]} cmd= i nargs=0
	local -a where=()
	# --opt=value: bash splits at '=' (COMP_WORDBREAKS), or the word holds it.
	if [[ $prev == = && $COMP_CWORD -ge 2 ]]; then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	elif [[ $cur == --*=* ]]; then
		prev=${cur%%=*} cur=${cur#*=}
	fi
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		--sysfs-root | --db)
			where+=("${COMP_WORDS[i]}")
			[[ ${COMP_WORDS[i + 1]} == = ]] && ((i++))
			where+=("${COMP_WORDS[i + 1]}")
			((i++)) ;;
		-*) ;;
		*) if [ -z "$cmd" ]; then cmd=${COMP_WORDS[i]}; else ((nargs++)); fi ;;
		esac
	done
	case $prev in
	--sysfs-root | --journal | --profile | -o | --output)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	--db)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	--model)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -W "$(tiertune --completion-values=models 2>/dev/null)" -- "$cur")
			$(compgen -f -X '!*.json' -- "$cur"))
		return ;;
	--kernel)
		COMPREPLY=($(compgen -W "$(tiertune --completion-values=kernels 2>/dev/null)" -- "$cur"))
		return ;;
	--traffic)
		COMPREPLY=($(compgen -W "$(tiertune --completion-values=kernels 2>/dev/null |
			grep -vx -e latency -e loaded-latency)" -- "$cur"))
		return ;;
	--source-node) # a node with CPUs: a CPU-less source is refused
		COMPREPLY=($(compgen -W "$(tiertune "${where[@]}" --completion-values=cpu-nodes 2>/dev/null)" -- "$cur"))
		return ;;
	--nodes)
		COMPREPLY=($(compgen -W "$(tiertune "${where[@]}" --completion-values=nodes 2>/dev/null)" -- "$cur"))
		return ;;
	--run)
		COMPREPLY=($(compgen -W "$(tiertune "${where[@]}" runs --limit 100 2>/dev/null | awk 'NR > 1 {print $1}')" -- "$cur"))
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
	# Any other option's words: a choice's, from the command's table.
	if [[ -n $cmd && $prev == --?* && $cur != -* ]]; then
		local words
		words=$(tiertune "$cmd" --completion-choices="${prev#--}" 2>/dev/null)
		if [ -n "$words" ]; then
			COMPREPLY=($(compgen -W "$words" -- "$cur"))
			return
		fi
	fi
	case $cmd in
	help)
		COMPREPLY=($(compgen -W "$(tiertune --completion-helper 2>/dev/null)" -- "$cur"))
		return ;;
	db)
		[[ $cur == -* ]] || { COMPREPLY=($(compgen -W "check migrate merge" -- "$cur")); return; } ;;
	show) # RUN
		[[ $cur == -* || $nargs -gt 0 ]] ||
			{ COMPREPLY=($(compgen -W "$(tiertune "${where[@]}" runs --limit 100 2>/dev/null | awk 'NR > 1 {print $1}')" -- "$cur")); return; } ;;
	plot) # RUN... (those it draws: auto, sweep, a matrix, loaded-latency curves)
		[[ $cur == -* ]] ||
			{ COMPREPLY=($(compgen -W "$(tiertune "${where[@]}" --completion-values=plot-runs 2>/dev/null)" -- "$cur")); return; } ;;
	esac
	if [[ $cur == -* ]]; then
		compopt -o nospace 2>/dev/null
		COMPREPLY=($(compgen -W "$(tiertune "$cmd" --completion-helper 2>/dev/null)" -- "$cur"))
		# a flag takes no value: a space after it
		[[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} != *= ]] && COMPREPLY[0]+=" "
	fi
}
complete -F _tiertune tiertune
