#!/bin/sh
# Rewrite common/syscalls.tsv, ward's table of syscall names and numbers for
# its two targets, from a kernel's UAPI headers as Debian packages them
# (linux-libc-dev >= 6.12 is one package holding every architecture's
# <triplet>/asm/unistd_64.h, made by the kernel's `make headers_install`
# from arch/x86/entry/syscalls/syscall_64.tbl and scripts/syscall.tbl).
#
#   sh tools/update-syscalls.sh INCLUDE_DIR SOURCE > common/syscalls.tsv
#
# INCLUDE_DIR is the package's usr/include (dpkg-deb -x the .deb anywhere;
# nothing is installed); SOURCE is the line recorded in the table's header
# (the package, its version and the .deb's SHA-256). The table is written
# by this script only; tests/syscalls/run.sh checks it against the headers
# and libseccomp of the machine it runs on.
set -eu
INC=${1:?usage: update-syscalls.sh INCLUDE_DIR SOURCE}
SOURCE=${2:?usage: update-syscalls.sh INCLUDE_DIR SOURCE}
X86=$INC/x86_64-linux-gnu/asm/unistd_64.h
ARM=$INC/aarch64-linux-gnu/asm/unistd_64.h
for f in "$X86" "$ARM"; do
	[ -f "$f" ] || {
		echo "update-syscalls: no $f" >&2
		exit 2
	}
done

# "#define __NR_name 123" -> "name 123"; nothing else in these files is a
# plain number (__NR_syscalls and friends are dropped by name).
numbers() {
	sed -n 's/^#define __NR_\([a-z0-9_]*\)[ 	]\{1,\}\([0-9]\{1,\}\)$/\1 \2/p' "$1" |
		grep -v -e '^syscalls ' -e '^arch_specific_syscall '
}

cat <<EOF
# ward's syscall table: every syscall of x86_64 and aarch64 by name, with
# its number on each ("-" where that architecture has no such syscall).
# wardc resolves names here, not in libseccomp, whose 2.5.4 tables (Debian
# 12) end before Linux 6.8; the launcher names killed syscalls from it.
#
# Written by tools/update-syscalls.sh from the kernel's own tables, as
# exported to userspace (asm/unistd_64.h of x86_64 and aarch64):
#   $SOURCE
# Checked by tests/syscalls/run.sh against this machine's kernel headers
# and libseccomp. Do not edit by hand: regenerate from newer headers.
#
# name	x86_64	aarch64
EOF
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ward-syscalls.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM
export LC_ALL=C
numbers "$X86" | sort -k1,1 >"$TMP/x86_64"
numbers "$ARM" | sort -k1,1 >"$TMP/aarch64"
join -a1 -a2 -e - -o 0,1.2,2.2 "$TMP/x86_64" "$TMP/aarch64" | tr ' ' '\t'
