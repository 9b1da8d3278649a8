#!/bin/sh
# Rewrite the pinned seccomp listings of tests/bpf-golden/ from the wardc
# given (default: build/wardc), and record what made them.
#
#   sh tools/update-bpf-golden.sh [WARDC]
#
# Then read `git diff tests/bpf-golden`: every changed instruction is a
# change in the program the kernel runs, and the commit says why it is
# right (tests/bpf-golden/README.md).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
WARDC=${1:-$top/build/wardc}
case $WARDC in /*) ;; *) WARDC=$PWD/$WARDC ;; esac
cd "$top/tests/bpf-golden/cases"
for src in *.ward; do
	for target in x86_64 aarch64; do
		out=${src%.ward}.$target.bpf
		"$WARDC" explain --bpf --target "$target" "$src" >"$out.tmp"
		mv "$out.tmp" "$out"
	done
done
{
	"$WARDC" --version | sed 's/ (.*//'
	printf 'libseccomp %s\n' "$(pkg-config --modversion libseccomp)"
} >../made-with
echo "rewrote $(ls ./*.bpf | wc -l) listings; review: git diff tests/bpf-golden"
