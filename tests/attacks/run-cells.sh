#!/bin/sh
# tests/attacks/run-cells.sh [PATTERN...]: the attack suite's file,
# identity and network attacks of the python profile as cells of ONE
# session per mode (docs/spec.md part 7), as well as runs (run.sh).
# $WARD is tests/attacks/lib/ward-cell and lib/cells.sh ward-attack's
# hooks: each mode's shared session is started once (the shell driver,
# under the python profile, the sandbox's host uid, the safety net); every
# launch of a case below SHARED whose command line is the session's is one
# cell of it, judged by the harness as a run is, from outside, with the
# cell's reply as its report (its denials and its file diff, the cell's
# alone); after each case a quiet cell must hold none of the case's
# refusals or files. A cell that ends the session is said (the case's
# PASS/FAIL line and a "# MODE: ... a new session for the rest" line), and a
# new session takes the rest. Launches under another policy or with other
# options, and the cases below OWN, start a session of their own (as
# ward-cell always did); the cases below EXCLUDED are not run. PATTERNs
# select, as for run.sh. Then the controls: the suite's verdict on a
# policy that lets mount through, as cells, must break identity/mount;
# a cell that kills the session's driver must be seen to end the session,
# and the next attack must run, and hold, in a new one.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
cd "$top" || exit 2

# Cells of a session of their own (not the shared one), and why:
#   files/half-export files/zip-slip files/hardlink-host-file
#   files/slot-symlink files/device-nodes files/proc-host-facts
#   identity/supplementary-groups: judged (in part) by what the output slot
#     copies back to the host directory, or by the exporter's manifest,
#     which a session does once, at its end, not per cell;
#   files/other-run-tmpfs: two sandboxes at once, one looking for the
#     other's tmpfs;
#   files/env-secret, files/inherited-fd: the secret is in ward's
#     environment or descriptors when the run starts; the shared session
#     started before the case, and a cell's client hands the session
#     neither (it would hold vacuously);
#   identity/setuid-binary: its setuid-root copy must be root's and
#     executable by the sandbox uid only; the shared input directory is
#     the harness's, but the case removes the file at its end, and a copy
#     of the same name in a later session's overlay would be stale.
OWN="files/half-export files/zip-slip files/hardlink-host-file files/slot-symlink
files/device-nodes files/proc-host-facts identity/supplementary-groups
files/other-run-tmpfs files/env-secret files/inherited-fd identity/setuid-binary"
# Not run as cells at all, and why:
#   identity/kill-supervisor, identity/init-cmdline: they find ward's
#     supervisor by $WARD's executable or its command line, here the cell
#     client's;
#   identity/x32-abi, identity/int80: the run report's "signaled 31" is the
#     supervisor's word; a kill rule ends only the cell's process, whose
#     status only the driver reports (the sandbox's own word);
#   identity/read-host-processes: counts two processes in the sandbox's
#     /proc, where a session has three (init, the driver, the program);
#   identity/signal-host-process: its kill(-1, SIGKILL) kills the driver,
#     and with it the cell's output the attack judges (the session's end
#     is detected: the control below);
#   identity/tiocsti: needs --stdin (a cell's stdin is /dev/null).
# (files/terminal-escape is a cell of the shared session: its report's
# output.stdout is the cell's reply's, S's escaping of that cell's stream.)
EXCLUDED="identity/kill-supervisor identity/init-cmdline identity/x32-abi
identity/int80 identity/read-host-processes identity/signal-host-process
identity/tiocsti"
sel=
for f in tests/attacks/files/*.sh tests/attacks/identity/*.sh tests/attacks/net/*.sh; do
	grep -q '^# profile: python$' "$f" || continue
	n=${f#tests/attacks/}
	n=${n%.sh}
	case " $(echo $EXCLUDED) " in *" $n "*) continue ;; esac
	if [ $# -gt 0 ]; then
		ok=0
		for p in "$@"; do
			# shellcheck disable=SC2254
			case $n in $p) ok=1 ;; esac
		done
		[ $ok = 1 ] || continue
	fi
	sel="$sel $n"
done
SHARED=
for n in $sel; do
	case " $(echo $OWN) " in *" $n "*) ;; *) SHARED="$SHARED $n" ;; esac
done
echo "# as cells of one session per mode:$SHARED"
echo "# as cells of sessions of their own: $(echo $OWN)"
echo "# not run as cells: $(echo $EXCLUDED)"
# No ceiling on sandboxes at once unless the caller sets one (as tests/run.sh).
export WARD_MAX_SANDBOXES="${WARD_MAX_SANDBOXES:-0}"
export WARD_CELL_WARD="$top/$BUILD/ward" WARD="$top/tests/attacks/lib/ward-cell"
export WARD_ATTACK_HOOKS="$top/tests/attacks/lib/cells.sh" CELLS_SHARED="$SHARED"
# shellcheck disable=SC2086
[ -n "$sel" ] && sh tests/attacks/run.sh $sel
rc=$?
[ -n "$sel" ] || rc=0
[ $# -gt 0 ] && exit $rc
[ "$(id -u)" = 0 ] || exit $rc

# The controls (the whole selection only).
T=$(mktemp -d /tmp/ward-cells-ctl.XXXXXX) || exit 2
trap 'rm -rf "$T"' EXIT
p=0 f=0
S=$top/stdlib-policies
sed -e 's/^policy python;/policy python-mount;/' \
	-e 's/errno EPERM @privileged, @mount,/allow mount, umount2;\n    errno EPERM @privileged,/' \
	"$S/python.ward" >"$T/mount.ward"
"$top/$BUILD/wardc" compile -I "$S" "$T/mount.ward" -o "$T/mount.wardb" 2>"$T/err"
CELLS_SHARED="identity/mount" "$top/tools/ward-attack" --source "$T/mount.ward" \
	--attack identity/mount "$T/mount.wardb" >"$T/mount.out" 2>&1
if grep -q '^FAIL root/identity/mount: .*cells [0-9,]* of the shared session root#1' "$T/mount.out" &&
	grep -q '^FAIL rootless/identity/mount: .*cells [0-9,]* of the shared session rootless#1' "$T/mount.out"; then
	echo "PASS cells/control-mount-breaks (a policy that allows mount breaks identity/mount as a cell of the shared session)"
	p=$((p + 1))
else
	echo "FAIL cells/control-mount-breaks: $(grep -E '^(PASS|FAIL|SKIP)' "$T/mount.out" | cut -c1-300 | tr '\n' '|')"
	f=$((f + 1))
fi
"$top/$BUILD/wardc" compile -I "$S" "$S/python.ward" -o "$T/python.wardb" 2>"$T/err"
CELLS_SHARED="identity/signal-host-process identity/userfaultfd" "$top/tools/ward-attack" \
	--name python --source "$S/python.ward" --attack identity/signal-host-process \
	--attack identity/userfaultfd "$T/python.wardb" >"$T/death.out" 2>&1
if grep -q '^# root: .*ended.*during identity/signal-host-process: a new session for the rest' "$T/death.out" &&
	grep -q '^PASS root/identity/userfaultfd .*cells [0-9,]* of the shared session root#2' "$T/death.out" &&
	grep -q '^PASS root/cells/root#2-end' "$T/death.out"; then
	echo "PASS cells/control-session-death (a cell that kills the driver ends the session; it is said, and the next attack runs and holds in a new one)"
	p=$((p + 1))
else
	echo "FAIL cells/control-session-death: $(grep -E '^(#|PASS|FAIL|SKIP) .*(root|session)' "$T/death.out" | cut -c1-300 | tr '\n' '|')"
	f=$((f + 1))
fi
echo "$p passed, $f failed"
[ $rc = 0 ] && [ $f = 0 ]
