#!/bin/sh
# bench_broker.sh BUILD_DIR: what the broker costs (root; docs/spec.md
# 4.8 and 5.10).
#
#  1. a refused call recorded by the broker against one refused by the
#     kernel and an allowed one, inside ward under the python profile
#     (callcost.c: batches of each kind in turn, medians);
#  2. connect latency to an allowed test host through the socket broker
#     (inside ward, root and rootless) against a direct connect from the
#     same namespace, runs alternated (netprobe loop: the median of each
#     run's connects);
#  3. launch time of /usr/bin/true with an allow-list and with `net none`,
#     the policies otherwise the same, interleaved (launchbench), rootless
#     (nsenter and setpriv alone, the floor of both, beside them).
#
# Everything runs in network namespaces made here; all removed on exit.
set -u
BUILD=${1:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
case $BUILD in /*) ;; *) BUILD=$top/$BUILD ;; esac
CC=${CC:-cc}
WARD=$BUILD/ward
WARDC=$BUILD/wardc
ROUNDS=${ROUNDS:-10}
CONNECTS=${CONNECTS:-300}
RUNS=${RUNS:-100}

if [ "$(id -u)" != 0 ]; then
	echo "   skipped: needs root"
	exit 0
fi
id=$$
S=wbb-sbx-$id
H=wbb-srv-$id
T=$(mktemp -d /tmp/ward-bench-broker.XXXXXX) || exit 1
chmod 755 "$T"
pids=
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	for p in $pids; do wait "$p" 2>/dev/null; done
	ip netns del "$S" 2>/dev/null
	ip netns del "$H" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

mkdir -p "$T/tools" "$T/in" "$T/out" && chmod 755 "$T/tools" "$T/in" && chmod 777 "$T/out"
"$CC" -static -O2 -o "$T/tools/netprobe" "$top/tests/net/netprobe.c" || exit 1
"$CC" -static -O2 -o "$T/in/callcost" "$top/tests/bench/callcost.c" || exit 1
"$CC" -O2 -o "$T/launchbench" "$top/tests/bench/launchbench.c" || exit 1
chmod 755 "$T/tools/netprobe" "$T/in/callcost"
"$WARDC" compile -I "$top/stdlib-policies" "$top/stdlib-policies/python.ward" \
	-o "$T/python.wardb" || exit 1
"$WARDC" compile -I "$top/stdlib-policies" "$top/tests/net/allow-tcp.ward" \
	-o "$T/allow.wardb" || exit 1
sed -e '/^net {/,/^}/d' -e 's|^use base/core;|use base;|' \
	"$top/tests/net/allow-tcp.ward" >"$T/none.ward"
"$WARDC" compile -I "$top/stdlib-policies" "$T/none.ward" -o "$T/none.wardb" || exit 1
chmod 644 "$T"/*.wardb

# 1. The cost of a call, by the way it is refused.
r=$("$WARD" --slot input="$T/in" --slot output="$T/out" "$T/python.wardb" -- \
	/input/callcost 30 2000 2>/dev/null) || exit 1
set -- $r
echo "   a refused call, inside ward under the python profile (median ns a call, 30 rounds of 2000):"
echo "     recorded by the broker (reboot: errno EPERM, group marked log): $2"
echo "     refused by the kernel (ioctl: errno ENOTTY): $4"
echo "     allowed (getppid): $6"

# 2. Connect latency: through the broker, and directly.
ip netns add "$S" && ip netns add "$H" &&
	ip -n "$S" link set lo up && ip -n "$H" link set lo up &&
	ip -n "$S" link add v0 type veth peer name eth0 netns "$H" &&
	ip -n "$S" addr add 10.77.1.1/24 dev v0 &&
	ip -n "$H" addr add 10.77.1.2/24 dev eth0 &&
	ip -n "$S" link set v0 up && ip -n "$H" link set eth0 up || exit 1
nsenter --net=/run/netns/"$H" "$T/tools/netprobe" serve 10.77.1.2 8080 >"$T/srv.ready" &
pids="$pids $!"
i=0
while [ ! -s "$T/srv.ready" ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
med() { sort -n | awk '{ v[NR] = $1 } END { print (NR ? v[int((NR + 1) / 2)] : "?") }'; }
: >"$T/direct" && : >"$T/root" && : >"$T/rootless"
i=0
while [ $i -lt "$ROUNDS" ]; do
	nsenter --net=/run/netns/"$S" "$T/tools/netprobe" loop "$CONNECTS" 10.77.1.2 8080 |
		awk '{ print $2 }' >>"$T/direct"
	nsenter --net=/run/netns/"$S" "$WARD" --slot tools="$T/tools" "$T/allow.wardb" -- \
		/tools/netprobe loop "$CONNECTS" 10.77.1.2 8080 2>/dev/null | awk '{ print $2 }' >>"$T/root"
	nsenter --net=/run/netns/"$S" setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$WARD" --slot tools="$T/tools" "$T/allow.wardb" -- \
		/tools/netprobe loop "$CONNECTS" 10.77.1.2 8080 2>/dev/null | awk '{ print $2 }' >>"$T/rootless"
	i=$((i + 1))
done
d=$(med <"$T/direct") ro=$(med <"$T/root") rl=$(med <"$T/rootless")
echo "   connect to an allowed host across a veth, median us of $ROUNDS alternated runs of $CONNECTS:"
echo "     direct: $d; through the broker: $rl rootless, $ro root (with the cgroup programs)"

# 3. Launch time, with and without an allow-list.
asuser="setpriv --reuid=65534 --regid=65534 --clear-groups"
"$T/launchbench" "$RUNS" -1 /dev/null \
	"allow-list nsenter --net=/run/netns/$S $asuser $WARD --slot tools=$T/tools $T/allow.wardb -- /usr/bin/true" \
	"net-none nsenter --net=/run/netns/$S $asuser $WARD --slot tools=$T/tools $T/none.wardb -- /usr/bin/true" \
	"nsenter nsenter --net=/run/netns/$S $asuser /usr/bin/true" |
	sed 's/^/   /'
