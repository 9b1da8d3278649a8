#!/bin/sh
# make bench: every benchmark script, one after the other (they compete for
# two cores otherwise). Figures are printed, never asserted: targets are
# checked by reading them, on a quiet machine.
set -u
BUILD=${1:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
status=0
for b in tests/bench/bench_*.sh; do
	[ -f "$b" ] || continue
	echo "== $(basename "$b" .sh)"
	sh "$b" "$BUILD" || { echo "   (failed: $?)"; status=1; }
	echo
done
exit $status
