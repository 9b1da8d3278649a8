#!/bin/sh
# tests/bench/bench_seccomp.sh [BUILD_DIR]: the cost of a compiled seccomp
# program (x86_64): instructions and path lengths with libseccomp's binary
# tree and without it, and nanoseconds per syscall under the program next
# to no filter, for a constant-allowed, argument-checked and denied
# syscall. First a Docker-like allow-list, then, if BUILD_DIR/wardc exists,
# the stdlib python profile. ITERS (200000) calls per run, RUNS (7) runs,
# medians. The driver is built here from the few sources it needs.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-build}
case $BUILD in /*) ;; *) BUILD=$top/$BUILD ;; esac
CC=${CC:-cc}
ITERS=${ITERS:-200000}
RUNS=${RUNS:-7}

T=$(mktemp -d /tmp/ward-bench-seccomp.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
"$CC" -std=gnu11 -O2 -D_GNU_SOURCE -I"$top/common" -I"$top/compiler/codegen" \
	-o "$T/bench_seccomp" "$top/tests/bench/bench_seccomp.c" \
	"$top/compiler/codegen/seccomp_gen.c" "$top/compiler/codegen/seccomp_args.c" \
	"$top/compiler/codegen/bpf_info.c" "$top/common/blob_read.c" "$top/common/answer_ranges.c" \
	"$top/common/sha256.c" "$top/common/util.c" -lseccomp -lsodium || exit 1
"$T/bench_seccomp" -n "$ITERS" -r "$RUNS" || exit 1
if [ -x "$BUILD/wardc" ]; then
	echo
	"$BUILD/wardc" compile -I "$top/stdlib-policies" \
		"$top/stdlib-policies/python.ward" -o "$T/python.wardb" &&
		"$T/bench_seccomp" -n "$ITERS" -r "$RUNS" --blob "$T/python.wardb"
fi
