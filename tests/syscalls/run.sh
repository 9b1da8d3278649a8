#!/bin/sh
# tests/syscalls/run.sh: ward's syscall table, common/syscalls.tsv (written
# by tools/update-syscalls.sh from Linux 7.2's headers), against the kernel
# headers of this machine (Debian 12: linux-libc-dev for x86_64 and
# linux-libc-dev-arm64-cross for aarch64, Linux 6.1): every syscall those
# headers define is in the table with the same number on its target. The
# table is newer, so it may have more; test_syscall_table checks it
# against libseccomp's tables too.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
TSV=$top/common/syscalls.tsv
CC=${CC:-cc}
AARCH64_INC=${AARCH64_INC:-/usr/aarch64-linux-gnu/include}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# "name number" for every __NR_name of <asm/unistd.h>, as the compiler
# given in "$@" sees it (the preprocessor expands the generic headers'
# indirections, __NR_fcntl -> __NR3264_fcntl -> 25).
header_numbers() {
	echo '#include <asm/unistd.h>' | "$@" -E -dM - |
		sed -n 's/^#define __NR_\([a-z0-9_]*\) .*/\1/p' |
		grep -v -e '^syscalls$' -e '^arch_specific_syscall$' | sort -u >"$tmp/names"
	{
		echo '#include <asm/unistd.h>'
		sed 's/.*/ward_nr & __NR_&/' "$tmp/names"
	} | "$@" -E -P - | sed -n 's/^ward_nr \([a-z0-9_]*\) \([0-9]*\)$/\1 \2/p'
}

# check NAME COLUMN COMPILER...
check() {
	name=$1 col=$2
	shift 2
	header_numbers "$@" >"$tmp/hdr.$name"
	n=$(wc -l <"$tmp/hdr.$name")
	if [ "$n" -lt 250 ]; then
		echo "FAIL syscalls/headers-$name: only $n syscalls read from the headers"
		return
	fi
	awk -F '\t' -v c="$col" '!/^#/ && NF == 3 { print $1, $c }' "$TSV" >"$tmp/tsv.$name"
	bad=$(awk 'NR == FNR { t[$1] = $2; next }
		!($1 in t) { print $1 " (" $2 ") missing"; next }
		t[$1] != $2 { print $1 ": headers " $2 ", table " t[$1] }' \
		"$tmp/tsv.$name" "$tmp/hdr.$name")
	if [ -n "$bad" ]; then
		echo "FAIL syscalls/headers-$name: $(echo $bad)"
	else
		echo "PASS syscalls/headers-$name ($n syscalls of this machine's headers, all in the table)"
	fi
}

check x86_64 2 "$CC"
if [ -d "$AARCH64_INC/asm" ]; then
	check aarch64 3 "$CC" -nostdinc -I"$AARCH64_INC" -D__aarch64__
else
	echo "FAIL syscalls/headers-aarch64: no $AARCH64_INC (make deps installs linux-libc-dev-arm64-cross)"
fi

# The generator's own checks: sorted, well-formed.
if sh "$top/tools/gen-syscall-table.sh" "$TSV" >/dev/null; then
	echo "PASS syscalls/table-well-formed"
else
	echo "FAIL syscalls/table-well-formed: tools/gen-syscall-table.sh refused it"
fi
