#!/bin/sh
# tests/attacks/run-cells.sh [PATTERN...]: the attack suite's file,
# identity and network attacks of the python profile, each sandboxed
# program run as a cell of a session (docs/spec.md part 7) instead of a
# run: $WARD is tests/attacks/lib/ward-cell, which starts `ward session
# start` with the shell driver, runs the program as one cell and hands the
# harness the cell's output, status and the session's run report. The
# harness judges them as it judges a run. Eight attacks are left out (they
# observe what a cell is not; lib/ward-cell says why). PATTERNs select, as
# for run.sh.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
cd "$top" || exit 2
if [ $# = 0 ]; then
	for f in tests/attacks/files/*.sh tests/attacks/identity/*.sh tests/attacks/net/*.sh; do
		grep -q '^# profile: python$' "$f" || continue
		n=${f#tests/attacks/}
		n=${n%.sh}
		case $n in
		identity/kill-supervisor | identity/init-cmdline | identity/x32-abi | \
			identity/int80 | identity/read-host-processes | \
			identity/tiocsti | identity/signal-host-process | \
			files/terminal-escape) continue ;;
		esac
		set -- "$@" "$n"
	done
fi
WARD_CELL_WARD=$top/$BUILD/ward WARD=$top/tests/attacks/lib/ward-cell \
	exec sh tests/attacks/run.sh "$@"
