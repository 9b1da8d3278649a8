# SPDX-License-Identifier: MIT
# bash tests/install/complete.bash COMPLETION_FILE LINE
#
# Drive a completion function the way bash's readline does, without a
# terminal: split LINE into COMP_WORDS as bash does (at blanks, and at runs
# of COMP_WORDBREAKS characters such as `='), place the cursor at the end of
# LINE or at a `_|_' marker in it, call the function registered for the
# command, and print COMPREPLY sorted, one per line. Then a line
# `nospace' if the function asked for -o nospace.
# shellcheck disable=SC2317 # compopt below is called by the sourced file
set -u
file=$1
line=$2
# shellcheck source=/dev/null
. "$file" || exit 2

point=${#line}
if [[ $line == *_\|_* ]]; then
	before=${line%%_\|_*}
	point=${#before}
	line=$before${line#*_\|_}
fi

breaks="=:><;|&("
words=()
starts=()
ends=()
i=0
n=${#line}
while ((i < n)); do
	c=${line:i:1}
	if [[ $c == [[:space:]] ]]; then
		i=$((i + 1))
		continue
	fi
	start=$i
	if [[ $breaks == *"$c"* ]]; then
		while ((i < n)) && [[ $breaks == *"${line:i:1}"* ]]; do i=$((i + 1)); done
	else
		quote=
		while ((i < n)); do
			c=${line:i:1}
			if [[ -n $quote ]]; then
				[[ $c == "$quote" ]] && quote=
			elif [[ $c == \" || $c == \' ]]; then
				quote=$c
			elif [[ $c == [[:space:]] || $breaks == *"$c"* ]]; then
				break
			fi
			i=$((i + 1))
		done
	fi
	words+=("${line:start:i-start}")
	starts+=("$start")
	ends+=("$i")
done

# The word the cursor is in or at the end of; else an empty word there.
cword=-1
for ((k = 0; k < ${#words[@]}; k++)); do
	if ((starts[k] < point && point <= ends[k])); then
		cword=$k
		break
	fi
done
if ((cword < 0)); then
	cword=0
	while ((cword < ${#words[@]} && starts[cword] < point)); do cword=$((cword + 1)); done
	words=("${words[@]:0:cword}" "" "${words[@]:cword}")
fi

COMP_WORDS=("${words[@]}")
COMP_CWORD=$cword
COMP_LINE=$line
COMP_POINT=$point
COMP_TYPE=9
COMP_KEY=9
COMPREPLY=()

spec=$(complete -p "${words[0]##*/}" 2>/dev/null) || {
	echo "no completion for ${words[0]}" >&2
	exit 2
}
func=$(printf '%s\n' "$spec" | sed -n 's/.* -F \([^ ]*\) .*/\1/p')

# compopt only works while readline completes: record what is asked.
nospace=
compopt()
{
	local a prev=
	for a in "$@"; do
		[[ $prev == -o && $a == nospace ]] && nospace=1
		prev=$a
	done
	return 0
}

"$func" "${words[0]}" "${words[cword]}" "${words[cword - 1]-}"
((${#COMPREPLY[@]})) && printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort
[[ -n $nospace ]] && echo nospace
exit 0
