#!/bin/sh
# bench_net.sh BUILD_DIR: what the network allow-list costs (root only).
#
#  1. connect latency to an allowed test host, with the policy's eBPF
#     programs attached and without them, in pairs (net_connect.c): a test
#     host across a veth (srv, in its own namespace) and one on the
#     loopback of the sandbox's namespace. Target: under 5% added.
#  2. the time to set the programs up for a run: create and fill the maps,
#     load the programs, attach them (launcher/core/net.c, ward_net_setup), on a
#     fresh cgroup each time as a launch does.
#
# Everything runs in network namespaces made here (no traffic leaves them)
# and cgroups below one made here; all removed on exit.
set -u
BUILD=${1:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
CC=${CC:-cc}
ROUNDS=${ROUNDS:-20}
BATCH=${BATCH:-250}
SETUPS=${SETUPS:-30}

if [ "$(id -u)" != 0 ]; then
	echo "   skipped: needs root"
	exit 0
fi
CGROOT=/sys/fs/cgroup/unified
[ -f /sys/fs/cgroup/cgroup.controllers ] && CGROOT=/sys/fs/cgroup
id=$$
S=wb-sbx-$id
H=wb-srv-$id
CG=$CGROOT/ward-net-bench-$id
T=$(mktemp -d /tmp/ward-bench-net.XXXXXX) || exit 1
chmod 755 "$T"
pids=
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	for p in $pids; do wait "$p" 2>/dev/null; done
	ip netns del "$S" 2>/dev/null
	ip netns del "$H" 2>/dev/null
	for d in "$CG"/*/*/ "$CG"/*/; do [ -d "$d" ] && rmdir "$d" 2>/dev/null; done
	rmdir "$CG" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

"$CC" -static -O2 -o "$T/netprobe" "$top/tests/net/netprobe.c" || exit 1
"$CC" -O2 -D_GNU_SOURCE -I"$top/common" -I"$top/launcher/core" -o "$T/net_connect" \
	"$top/tests/bench/net_connect.c" "$top/launcher/core/net.c" \
	"$top/common/blob_read.c" "$top/common/answer_ranges.c" "$top/common/port_slots.c" "$top/common/sha256.c" \
	"$top/common/util.c" $(pkg-config --libs libsodium) || exit 1
# The tests' policy, and the loopback host.
sed 's/^\tallow udp srv port 5300;/&\n\tallow tcp 127.0.0.1 port 9090;/' \
	"$top/tests/net/allow.ward" >"$T/bench.ward"
"$top/$BUILD/wardc" compile -I "$top/stdlib-policies" "$T/bench.ward" \
	-o "$T/bench.wardb" || exit 1

ip netns add "$S" && ip netns add "$H" &&
	ip -n "$S" link set lo up && ip -n "$H" link set lo up &&
	ip -n "$S" link add v0 type veth peer name eth0 netns "$H" &&
	ip -n "$S" addr add 10.77.1.1/24 dev v0 &&
	ip -n "$H" addr add 10.77.1.2/24 dev eth0 &&
	ip -n "$S" link set v0 up && ip -n "$H" link set eth0 up || exit 1
# The hosts: netprobe serve, which accepts without lagging behind.
nsenter --net=/run/netns/"$H" "$T/netprobe" serve 10.77.1.2 8080 >"$T/srv.ready" &
pids="$pids $!"
nsenter --net=/run/netns/"$S" "$T/netprobe" serve 127.0.0.1 9090 >"$T/lo.ready" &
pids="$pids $!"
i=0
while { [ ! -s "$T/srv.ready" ] || [ ! -s "$T/lo.ready" ]; } && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
mkdir -p "$CG" || exit 1
pct() { awk -v a="$1" -v b="$2" 'BEGIN {if (b > 0) printf "%+.1f%%", a / b * 100; else print "?"}'; }

# Paired measurements (tests/bench/net_connect.c): one process, sockets
# made in a cgroup with the programs and in one without, connects timed
# alternately, so that the machine's load falls on both alike.
for target in "10.77.1.2 8080 veth" "127.0.0.1 9090 loopback"; do
	set -- $target
	mkdir -p "$CG/$3"
	r=$(nsenter --net=/run/netns/"$S" "$T/net_connect" connect \
		"$T/bench.wardb" "$CG/$3" "$1" "$2" "$ROUNDS" "$BATCH") || exit 1
	set -- $r "$3"
	echo "   connect to an allowed host ($4), median of $((ROUNDS * BATCH)) pairs: $1 us without the programs, $2 us with them; paired difference $3 us ($(pct "$3" "$1"))"
done

r=$("$T/net_connect" setup "$T/bench.wardb" "$CG" "$SETUPS") || exit 1
set -- $r
echo "   setup (maps, load, attach) on a fresh cgroup: median $1 ms, min $2 ms, max $3 ms over $SETUPS runs"
