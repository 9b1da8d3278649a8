#!/bin/sh
# tests/bpf-golden/run.sh: the seccomp program of a few small policies,
# instruction by instruction, as libpcap and nftables pin their code.
#
# For each cases/NAME.ward and each target, `wardc explain --bpf --target
# TARGET NAME.ward` must print cases/NAME.TARGET.bpf exactly. The
# differential oracle (tests/oracle, test_seccomp) says a program means
# what the policy says; this says the program has not changed unseen.
#
#   sh tests/bpf-golden/run.sh           compare
#   sh tools/update-bpf-golden.sh        rewrite the listings (then review
#                                        the diff: README.md says how)
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
WARDC=${WARDC:-$top/build/wardc}
case $WARDC in /*) ;; *) WARDC=$top/$WARDC ;; esac
unset WARD_PATH
export LC_ALL=C
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0

if [ ! -x "$WARDC" ]; then
	echo "FAIL bpf-golden: no wardc at $WARDC"
	exit 1
fi
# The listings come from libseccomp's code as much as from wardc's: say so
# when a difference may be an upgrade of it.
made=$(sed -n 's/^libseccomp //p' "$here/made-with")
have=$(pkg-config --modversion libseccomp 2>/dev/null || echo unknown)
hint=
[ "$made" = "$have" ] ||
	hint=" (made with libseccomp $made, this is $have)"

cd "$here/cases" || exit 2
n=0
for src in *.ward; do
	for target in x86_64 aarch64; do
		name=${src%.ward}.$target
		n=$((n + 1))
		if ! "$WARDC" explain --bpf --target "$target" "$src" \
			>"$tmp/got" 2>"$tmp/err"; then
			echo "FAIL bpf-golden/$name: $(head -2 "$tmp/err" | tr '\n' ' ')"
			fails=$((fails + 1))
		elif ! diff -u "$name.bpf" "$tmp/got" >"$tmp/diff"; then
			echo "FAIL bpf-golden/$name: the program changed$hint:"
			sed -n '3,14p' "$tmp/diff"
			fails=$((fails + 1))
		else
			echo "PASS bpf-golden/$name"
		fi
	done
done
[ "$n" -gt 0 ] || {
	echo "FAIL bpf-golden: no case"
	exit 1
}
[ "$fails" -eq 0 ]
