#!/bin/sh
# bench_relay.sh BUILD_DIR: what the relay of a name rule costs (root only;
# docs/spec.md 5.11). In one network namespace made here, on its loopback
# device (10.78.1.2 on lo: loopback addresses themselves are never learned
# from an answer), the test's DNS server (tests/net/dnsserver.py) and a
# bulk server (relay_bulk.py) on ports 80 and 8080. Under
# tests/net/names.ward, rootless, one run of ward each way, interleaved:
#
#   relayed  index.test:80, allowed by name: the broker reads the request's
#            Host, then splices both ways
#   direct   10.78.1.2:8080, allowed by a literal rule: the broker connects
#            and hands the socket over
#
# Each run fetches MIB MiB (100) and prints its time to connect and to the
# first byte (the relay connects to the server only after the Host: its
# added latency is there) and its throughput from the first byte to the
# last. Goal: relayed at least 0.9 of direct.
set -u
BUILD=${1:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
ROUNDS=${ROUNDS:-31}
MIB=${MIB:-100}
PY=/usr/bin/python3
WARD=$top/$BUILD/ward

if [ "$(id -u)" != 0 ]; then
	echo "   skipped: needs root"
	exit 0
fi
N=wbr-$$
T=$(mktemp -d /tmp/ward-bench-relay.XXXXXX) || exit 1
chmod 755 "$T"
pids=
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	for p in $pids; do wait "$p" 2>/dev/null; done
	ip netns del "$N" 2>/dev/null
	rm -rf "/etc/netns/$N" "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
mkdir -p "$T/tools" && cp "$top/tests/bench/relay_bulk.py" "$T/tools/" &&
	chmod 755 "$T/tools" && chmod 644 "$T/tools/relay_bulk.py"
"$top/$BUILD/wardc" compile -I "$top/stdlib-policies" "$top/tests/net/names.ward" \
	-o "$T/p.wardb" || exit 1
chmod 644 "$T/p.wardb"
ip netns add "$N" && ip -n "$N" link set lo up &&
	ip -n "$N" addr add 10.78.1.2/32 dev lo || exit 1
mkdir -p "/etc/netns/$N" && echo "nameserver 10.78.1.2" >"/etc/netns/$N/resolv.conf"
ip netns exec "$N" "$PY" "$top/tests/net/dnsserver.py" "$T/dns.log" "$T/ready" \
	10.78.1.2 index.test=10.78.1.2 2>/dev/null &
pids="$pids $!"
ip netns exec "$N" "$PY" "$T/tools/relay_bulk.py" server 10.78.1.2 80 8080 &
pids="$pids $!"
i=0
while [ ! -f "$T/ready" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
sleep 0.3

one() { # HOST PORT: "CONNECT_US TTFB_US MIBPS"
	ip netns exec "$N" timeout 60 setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$WARD" --slot tools="$T/tools" "$T/p.wardb" -- \
		/usr/bin/python3 /tools/relay_bulk.py client "$1" "$2" "$MIB" 2>/dev/null
}
: >"$T/r" && : >"$T/d"
r=0
while [ $r -lt "$ROUNDS" ]; do
	one index.test 80 >>"$T/r"
	one 10.78.1.2 8080 >>"$T/d"
	r=$((r + 1))
done
"$PY" - "$T/r" "$T/d" "$MIB" <<'PY'
import statistics as st, sys
def rows(p):
    return [list(map(float, l.split())) for l in open(p) if l[0].isdigit()]
r, d = rows(sys.argv[1]), rows(sys.argv[2])
if not r or not d:
    print("   no figures (relayed %d, direct %d runs)" % (len(r), len(d)))
    sys.exit(1)
med = lambda xs, i: st.median(x[i] for x in xs)
print("   %s MiB, %d runs each way, interleaved, medians:" % (sys.argv[3], len(r)))
print("   relayed (name rule, port 80): %6.0f MiB/s, connect %5.0f us, first byte %5.0f us"
      % (med(r, 2), med(r, 0), med(r, 1)))
print("   direct  (address rule):       %6.0f MiB/s, connect %5.0f us, first byte %5.0f us"
      % (med(d, 2), med(d, 0), med(d, 1)))
print("   relayed / direct throughput: %.2f (goal >= 0.90); added time to first byte: %.0f us"
      % (med(r, 2) / med(d, 2), med(r, 1) - med(d, 1)))
PY
