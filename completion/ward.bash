# SPDX-License-Identifier: MIT
# bash completion for wardc (the ward policy compiler) and ward (the
# launcher). Installed as share/bash-completion/completions/wardc, with
# `ward' a link to it; it can also be sourced directly. It needs nothing
# from the bash-completion package.
#
# wardc: commands; each command's options; --target, --format (per
# command), --color and -fdiagnostics-format values; -I directories; file
# arguments by kind (.ward sources, .wardb blobs, .json profiles); syscall
# names for `args'.
# ward: options; --slot NAME= with the slot names the policy on the line
# declares (asked of `wardc explain --format json'); --expect-digest with
# the policy's SHA-256; files for --report, --stdin, --stdout, --stderr,
# --trusted-key;
# cgroups for --cgroup-base; the policy, `--', then the program.

# The words of the line up to the cursor, with the pieces that bash splits
# at `=' (COMP_WORDBREAKS) joined again when nothing separated them:
# `--color=al' is one word here, three in COMP_WORDS. Sets _ward_words,
# _ward_cword and _ward_cur (the current word up to the cursor).
_ward_words()
{
	local i w lead rest start=0 pos=0 join
	_ward_words=()
	_ward_cur=
	for ((i = 0; i <= COMP_CWORD && i < ${#COMP_WORDS[@]}; i++)); do
		w=${COMP_WORDS[i]}
		rest=${COMP_LINE:pos}
		lead=${rest%%[![:space:]]*}
		pos=$((pos + ${#lead}))
		start=$pos
		pos=$((pos + ${#w}))
		if ((i == COMP_CWORD)); then
			if ((COMP_POINT >= start && COMP_POINT - start < ${#w})); then
				w=${w:0:COMP_POINT-start}
			fi
		fi
		join=0
		if ((i > 0 && ${#lead} == 0)); then
			[[ $w == "=" || ${_ward_words[-1]} == *= ]] && join=1
		fi
		if ((join)); then
			_ward_words[-1]+=$w
		else
			_ward_words+=("$w")
		fi
	done
	_ward_cword=$((${#_ward_words[@]} - 1))
	_ward_cur=${_ward_words[_ward_cword]}
}

# Offer CANDIDATES (one per line) that start with the current logical word
# (all of them if a second argument is given: compgen matched them, maybe
# after expanding a ~); readline replaces only the part after the last `=',
# so that part is cut off again.
_ward_reply()
{
	local cur=$_ward_cur c cut=
	if [[ ${COMP_WORDBREAKS-} == *=* && $cur == *=* ]]; then
		cut=${cur%"${cur##*=}"}
	fi
	local IFS=$'\n'
	for c in $1; do
		[[ -n $c ]] || continue
		[[ -n ${2-} || $c == "$cur"* ]] && COMPREPLY+=("${c#"$cut"}")
	done
	for c in "${COMPREPLY[@]}"; do
		if [[ $c == *= ]]; then
			compopt -o nospace 2>/dev/null
			break
		fi
	done
}

# _ward_files LEAD PREFIX EXTS: the paths starting with PREFIX that are
# directories or end in one of the extensions EXTS (space-separated; empty:
# any file), each with LEAD in front (the part of the logical word before
# the path, as in `input=').
_ward_files()
{
	local lead=$1 prefix=$2 f e out=()
	local -a exts
	read -ra exts <<<"$3"
	local IFS=$'\n'
	for f in $(compgen -f -- "$prefix"); do
		if [[ -d $f ]]; then
			out+=("$lead$f")
			continue
		fi
		if ((${#exts[@]} == 0)); then
			out+=("$lead$f")
			continue
		fi
		for e in "${exts[@]}"; do
			if [[ $f == *."$e" ]]; then
				out+=("$lead$f")
				break
			fi
		done
	done
	compopt -o filenames 2>/dev/null
	_ward_reply "${out[*]}" all
}

# _ward_dirs LEAD PREFIX: the directories starting with PREFIX.
_ward_dirs()
{
	local IFS=$'\n'
	compopt -o filenames 2>/dev/null
	_ward_reply "$(compgen -d -- "$2" | sed "s|^|$1|")" all
}

# The command to run for wardc: the one on the line (`./build/wardc') or,
# for ward, the wardc beside it, else the one on PATH.
_ward_wardc()
{
	local w=${COMP_WORDS[0]}
	w=${w/#\~/$HOME}
	if [[ $w == */* ]]; then
		[[ ${w##*/} == wardc ]] || w=${w%/*}/wardc
		[[ -x $w ]] && {
			printf '%s' "$w"
			return
		}
	fi
	command -v wardc
}

# A path as written on the line, for reading: no quotes, ~ expanded.
_ward_unquote()
{
	local p=$1
	p=${p#[\"\']}
	p=${p%[\"\']}
	printf '%s' "${p/#\~/$HOME}"
}

_wardc_commands='check compile explain diff fmt constants args lint export import keygen sign suggest replay'

_wardc()
{
	COMPREPLY=()
	_ward_words
	local cur=$_ward_cur cword=$_ward_cword
	local -a words=("${_ward_words[@]}")
	local cmd=${words[1]-} prev=${words[cword-1]-} opt val i

	if ((cword == 1)); then
		if [[ $cur == -* ]]; then
			_ward_reply $'-h\n--help\n--version'
		else
			_ward_reply "${_wardc_commands// /$'\n'}"
		fi
		return 0
	fi

	# The value of an option, written `--opt=VALUE' or `--opt VALUE'.
	opt='' val=''
	if [[ $cur == -*=* ]]; then
		opt=${cur%%=*} val=${cur#*=}
	elif [[ $prev == @(-I|-D|-o|-k|--target|--format|--threshold|--color|--retries|--queue) ]]; then
		opt=$prev val=$cur
	fi
	local lead=
	[[ $cur == -*=* ]] && lead=$opt=
	case $opt in
	-I)
		_ward_dirs "" "$val"
		return 0
		;;
	-o | -k)
		_ward_files "" "$val" ""
		return 0
		;;
	-D | --threshold | --retries | --queue)
		return 0
		;;
	--target)
		_ward_reply "$(printf '%s\n' x86_64 aarch64 | sed "s|^|$lead|")"
		return 0
		;;
	--color)
		_ward_reply "$(printf '%s\n' auto always never | sed "s|^|$lead|")"
		return 0
		;;
	-fdiagnostics-format)
		_ward_reply "$(printf '%s\n' text json | sed "s|^|$lead|")"
		return 0
		;;
	--format)
		local -a formats=()
		case $cmd in
		explain | diff) formats=(text json yaml) ;;
		lint)
			formats=(text json sarif)
			for ((i = 2; i < ${#COMP_WORDS[@]}; i++)); do
				[[ ${COMP_WORDS[i]} == --list-rules ]] &&
					formats=(text json markdown)
			done
			;;
		export) formats=(oci k8s) ;;
		esac
		((${#formats[@]})) &&
			_ward_reply "$(printf '%s\n' "${formats[@]}" | sed "s|^|$lead|")"
		return 0
		;;
	esac
	if [[ $cur == -I?* ]]; then
		_ward_dirs -I "${cur#-I}"
		return 0
	fi

	if [[ $cur == -* ]]; then
		local opts='-I -D --target= -Werror -fdiagnostics-format= --color= -h --help'
		case $cmd in
		compile) opts+=' -o --record' ;;
		explain) opts+=' --format= --bpf --retries= --queue=' ;;
		diff) opts+=' --format=' ;;
		fmt) opts+=' -w --check' ;;
		lint) opts+=' --format= --threshold= --list-rules -o' ;;
		export) opts+=' --format= -o' ;;
		import) opts+=' -o' ;;
		keygen) opts+=' -o' ;;
		sign) opts+=' -k -o' ;;
		suggest) opts+=' --from -o' ;;
		replay) opts+=' --ward' ;;
		esac
		_ward_reply "${opts// /$'\n'}"
		return 0
	fi

	case $cmd in
	check | compile | fmt | lint) _ward_files "" "$cur" ward ;;
	explain | diff | export) _ward_files "" "$cur" 'wardb ward' ;;
	sign) _ward_files "" "$cur" wardb ;;
	import) _ward_files "" "$cur" json ;;
	suggest) _ward_files "" "$cur" 'jsonl ward' ;;
	replay) _ward_files "" "$cur" 'json wardb' ;;
	args)
		local wardc
		wardc=$(_ward_wardc) || return 0
		_ward_reply "$("$wardc" args 2>/dev/null | sed -n 's/^\([a-z0-9_]*\)(.*/\1/p')"
		;;
	constants)
		local wardc
		wardc=$(_ward_wardc) || return 0
		_ward_reply "$("$wardc" constants 2>/dev/null | sed -n 's/^\([A-Za-z0-9_]*\) .*/\1/p')"
		;;
	esac
	return 0
}

# The policy named on ward's line (the first word that is neither an option
# nor an option's value, before `--'), anywhere on the line: options come
# before it, so it is often typed first and the options filled in after.
_ward_policy()
{
	local i w skip=0
	for ((i = 1; i < ${#COMP_WORDS[@]}; i++)); do
		w=${COMP_WORDS[i]}
		if ((i == COMP_CWORD)); then
			skip=0
			continue
		fi
		if ((skip)); then
			skip=0
			continue
		fi
		case $w in
		--) return 1 ;;
		--slot | --report | --record | --expect-digest | --trusted-key | --stdin | --stdout | --stderr | --cgroup-base | --upstream-proxy | --host-uid | --host-gid | --input | --export-dir | --manifest | --workspace-base) skip=1 ;;
		=) skip=1 ;;
		-*) ;;
		*)
			# the value of `--opt=VALUE' splits into --opt, =, VALUE
			[[ ${COMP_WORDS[i - 1]} == "=" ]] && continue
			_ward_unquote "$w"
			return 0
			;;
		esac
	done
	return 1
}

# The slot names a compiled (or source) policy declares.
_ward_slots()
{
	local wardc
	wardc=$(_ward_wardc) || return
	[[ -r $1 ]] || return
	# (export rules name their slot too: each name once)
	"$wardc" explain --format json -- "$1" 2>/dev/null |
		sed -n 's/^[[:space:]]*"slot": "\([^"]*\)".*/\1/p' | awk '!seen[$0]++'
}

_ward()
{
	COMPREPLY=()
	_ward_words
	local cur=$_ward_cur cword=$_ward_cword
	local -a words=("${_ward_words[@]}")
	local prev=${words[cword-1]-} opt val i policy

	# After `--': the program, then its arguments.
	for ((i = 1; i < cword; i++)); do
		if [[ ${words[i]} == -- ]]; then
			if ((i + 1 == cword)); then
				_ward_reply "$(compgen -c -- "$cur" | LC_ALL=C sort -u)"
				[[ $cur == */* ]] && _ward_files "" "$cur" ""
			else
				_ward_files "" "$cur" ""
			fi
			return 0
		fi
	done

	opt='' val=''
	if [[ $cur == --*=* ]]; then
		opt=${cur%%=*} val=${cur#*=}
	elif [[ $prev == @(--slot|--report|--record|--expect-digest|--trusted-key|--stdin|--stdout|--stderr|--cgroup-base|--upstream-proxy|--host-uid|--host-gid|--input|--export-dir|--manifest|--workspace-base) ]]; then
		opt=$prev val=$cur
	fi
	local lead=
	[[ $cur == --*=* ]] && lead=$opt=
	case $opt in
	--slot | --input)
		if [[ $val == *=* ]]; then
			# NAME=HOSTPATH: the host path
			_ward_files "$lead${val%%=*}=" "${val#*=}" ""
			return 0
		fi
		policy=$(_ward_policy) || return 0
		local given=() name out=()
		for ((i = 1; i < ${#words[@]}; i++)); do
			[[ ${words[i]} == @(--slot|--input) ]] && ((i + 1 != cword)) &&
				given+=("${words[i + 1]%%=*}")
			[[ ${words[i]} == @(--slot|--input)=* ]] && ((i != cword)) &&
				{ name=${words[i]#*=}; given+=("${name%%=*}"); }
		done
		while IFS= read -r name; do
			[[ -n $name && " ${given[*]} " != *" $name "* ]] &&
				out+=("$lead$name=")
		done < <(_ward_slots "$policy")
		local IFS=$'\n'
		_ward_reply "${out[*]}"
		return 0
		;;
	--report | --record | --stdout | --stderr | --manifest | --export-dir | --workspace-base | --queue-dir | --trusted-key)
		_ward_files "$lead" "$val" ""
		return 0
		;;
	--upstream-proxy)
		# an address and a port: nothing to offer
		return 0
		;;
	--cgroup-base)
		# cgroup paths, as the cgroup2 hierarchy shows them
		local mnt
		mnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts 2>/dev/null)
		[[ -n $mnt && -d $mnt ]] || return 0
		local IFS=$'\n' d out=()
		for d in $(compgen -d -- "$mnt${val:-/}"); do
			out+=("$lead${d#"$mnt"}/")
		done
		_ward_reply "${out[*]}"
		compopt -o nospace 2>/dev/null
		return 0
		;;
	--stdin)
		_ward_reply "$lead-"
		_ward_files "$lead" "$val" ""
		return 0
		;;
	--expect-digest)
		policy=$(_ward_policy) || return 0
		[[ -r $policy ]] || return 0
		local sum
		sum=$(sha256sum -- "$policy" 2>/dev/null) || return 0
		_ward_reply "$lead${sum%% *}"
		return 0
		;;
	--host-uid | --host-gid | --max-sandboxes | --queue-timeout)
		return 0
		;;
	esac

	if [[ $cur == -* ]]; then
		_ward_reply $'--slot=\n--input=\n--export-dir=\n--manifest=\n--workspace-base=\n--keep-workspace\n--replace\n--report=\n--record=\n--expect-digest=\n--trusted-key=\n--stdin=\n--stdout=\n--stderr=\n--cgroup-base=\n--upstream-proxy=\n--host-uid=\n--host-gid=\n--max-sandboxes=\n--queue-timeout=\n--queue-dir=\n-v\n--verbose\n-h\n--help\n-V\n--version\n--'
		return 0
	fi

	# The policy, then `--'.
	for ((i = 1; i < cword; i++)); do
		case ${words[i]} in
		--slot | --report | --record | --expect-digest | --trusted-key | --stdin | --stdout | --stderr | --cgroup-base | --upstream-proxy | --host-uid | --host-gid | --input | --export-dir | --manifest | --workspace-base) ((i++)) ;;
		-*) ;;
		*)
			_ward_reply --
			return 0
			;;
		esac
	done
	_ward_files "" "$cur" wardb
	return 0
}

complete -F _wardc wardc
complete -F _ward ward
