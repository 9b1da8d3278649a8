#!/bin/sh
# tests/e2e/session.sh: `ward session` (docs/spec.md part 7) under the
# stdlib python profile, root and rootless (uid 65534: the profile less its
# cgroup limits, which a rootless ward on a host without delegation
# refuses). Run from tests/e2e/run.sh; the checks are in session.py. One
# line per test: PASS, FAIL or SKIP.
#
# Safety net: every session runs under timeout(1); the policy's own limits
# (512M memory, 256 tasks, 30 s) hold the memory test; the temporary
# directory goes on every path.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
WARD=${WARD:-$top/$BUILD/ward}
WARDC=${WARDC:-$top/$BUILD/wardc}
PY=/usr/bin/python3
if [ "$(id -u)" != 0 ]; then
	echo "SKIP session: needs root (root mode, and setpriv for rootless mode)"
	exit 0
fi
T=$(mktemp -d /tmp/ward-session-test.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
chmod 755 "$T"
mkdir -p "$T/in" "$T/out" "$T/export-root" "$T/export-rootless"
chmod 777 "$T/out" "$T/export-rootless"
failures=0
if ! "$WARDC" compile "$top/stdlib-policies/python.ward" -o "$T/py.wardb" >"$T/c.log" 2>&1 ||
	! sed -e '/^    memory 512M;/d' -e '/^    swap 0;/d' -e '/^    cpu 0.5;/d' \
		-e '/^    pids 256;/d' "$top/stdlib-policies/python.ward" >"$T/pyrl.ward" ||
	! "$WARDC" compile -I "$top/stdlib-policies" "$T/pyrl.ward" -o "$T/pyrl.wardb" >>"$T/c.log" 2>&1; then
	echo "FAIL session/compile: $(head -c 300 "$T/c.log")"
	exit 1
fi
# The network's refusals per cell: agent-net and a name rule (a DNS stub),
# whose refusals need no packet to leave (a destination not allowed, a name
# not allowed: NXDOMAIN from the stub, nobody asked); rootless, less its
# cgroup limits.
if ! sed -e 's/^policy agent-net;/policy agent-net-names;/' \
	-e 's|^    allow tcp mirror port 443;|&\n    allow tcp name "index.test" port 443;|' \
	"$top/stdlib-policies/agent-net.ward" >"$T/net.ward" ||
	! sed -e '/^    memory [0-9]/d' -e '/^    swap 0;/d' -e '/^    cpu [0-9]/d' \
		-e '/^    pids [0-9]/d' "$T/net.ward" >"$T/netrl.ward" ||
	! "$WARDC" compile -I "$top/stdlib-policies" "$T/net.ward" -o "$T/net.wardb" >>"$T/c.log" 2>&1 ||
	! "$WARDC" compile -I "$top/stdlib-policies" "$T/netrl.ward" -o "$T/netrl.wardb" >>"$T/c.log" 2>&1; then
	echo "FAIL session/compile-net: $(tail -c 300 "$T/c.log")"
	exit 1
fi
chmod 644 "$T"/*.wardb
WARD_SESSION_NET=$T/net.wardb timeout -k 5 300 "$PY" "$top/tests/e2e/session.py" root "$WARD" "$T/py.wardb" "$T" oom ||
	failures=$((failures + 1))
timeout -k 5 300 setpriv --reuid=65534 --regid=65534 --clear-groups \
	env -u XDG_RUNTIME_DIR WARD_SESSION_NET="$T/netrl.wardb" \
	"$PY" "$top/tests/e2e/session.py" rootless "$WARD" "$T/pyrl.wardb" "$T" ||
	failures=$((failures + 1))
[ "$failures" = 0 ]
