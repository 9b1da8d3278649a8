#!/bin/sh
# tests/net/run.sh: the network allow-list, attacked and observed from
# outside (docs/spec.md part 5). Root only. One line per test: "PASS name" or
# "FAIL name: why" ("SKIP name: why" where this host cannot show it).
#
# The harness builds its own little internet and nothing else is reachable:
#
#   sbx (where the sandbox runs) ── veth ── srv    10.77.1.2, fd77:1::2
#        10.77.1.1 fd77:1::1      ── veth ── meta   169.254.169.254,
#        169.254.169.1 fd00:ec2::1                   fd00:ec2::254
#        10.77.3.1 fd77:3::1      ── veth ── intra  10.77.3.2, fd77:3::2
#        lo: 127.0.0.1:9090 and @ward-net-host-PID, services of sbx itself
#
# Every namespace is made here; sbx has no default route (checked before
# the first test), so even a broken allow-list cannot send a packet to a
# real address. Each test host runs tests/net/testhost.py, whose packet
# counter logs every TCP/UDP packet that reaches it: "refused" means the
# client's errno AND no packet at the host (a marker datagram sent after
# the attempt, from outside the sandbox, proves the log is up to date).
#
# The sandbox is tests/net/netrun (launcher/core/net.c as the launcher drives
# it): a cgroup v2 directory below one this script makes under
# /sys/fs/cgroup/unified, the policy tests/net/allow.ward compiled by wardc,
# the child as uid 65534 without capabilities, with no_new_privs, the
# Landlock scope and the policy's seccomp filter. Everything made here is
# removed on every path (trap).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
# No ceiling on sandboxes at once unless the caller sets one: the host's
# queue (admission) is shared with whatever else runs on the machine, and
# its waits would add to the times measured here; tests/e2e/admission.sh
# tests the ceiling.
export WARD_MAX_SANDBOXES="${WARD_MAX_SANDBOXES:-0}"
WARDC=${WARDC:-$top/$BUILD/wardc}
CC=${CC:-cc}
PY=/usr/bin/python3

if [ "$(id -u)" != 0 ]; then
	echo "SKIP net: needs root (network namespaces, cgroup BPF)"
	exit 0
fi
CGROOT=/sys/fs/cgroup/unified
[ -f /sys/fs/cgroup/cgroup.controllers ] && CGROOT=/sys/fs/cgroup
if ! grep -q " $CGROOT cgroup2 " /proc/mounts; then
	echo "SKIP net: no cgroup2 mount at $CGROOT"
	exit 0
fi

id=$$
S=wn-sbx-$id
SRV=wn-srv-$id
META=wn-meta-$id
INTRA=wn-intra-$id
CG=$CGROOT/ward-net-test-$id
T=$(mktemp -d /tmp/ward-net.XXXXXX) || exit 1
chmod 755 "$T"
bgpids=
cleanup() {
	for p in $bgpids; do kill "$p" 2>/dev/null; done
	for p in $bgpids; do wait "$p" 2>/dev/null; done
	for n in "$S" "$SRV" "$META" "$INTRA"; do
		ip netns del "$n" 2>/dev/null
	done
	if [ -d "$CG" ]; then
		for d in "$CG"/*/; do [ -d "$d" ] && rmdir "$d" 2>/dev/null; done
		rmdir "$CG" 2>/dev/null
	fi
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

failures=0
pass() { echo "PASS net/$1"; }
fail() {
	echo "FAIL net/$1: $2"
	failures=$((failures + 1))
}
skip() { echo "SKIP net/$1: $2"; }

# ------------------------------------------------------------ tools
if ! "$CC" -static -O2 -o "$T/netprobe" "$top/tests/net/netprobe.c" 2>"$T/cc.log"; then
	fail build/netprobe "$(head -c 300 "$T/cc.log")"
	exit 1
fi
# From the sources (not $BUILD's libraries, which may be sanitized).
if ! "$CC" -O1 -D_GNU_SOURCE -I"$top/common" -I"$top/launcher/core" -o "$T/netrun" \
	"$top/tests/net/netrun.c" "$top/launcher/core/net.c" \
	"$top/common/blob_read.c" "$top/common/sha256.c" \
	"$top/common/util.c" $(pkg-config --libs libsodium) 2>"$T/cc.log"; then
	fail build/netrun "$(head -c 300 "$T/cc.log")"
	exit 1
fi
if ! "$WARDC" compile -I "$top/stdlib-policies" "$top/tests/net/allow.ward" \
	-o "$T/allow.wardb" 2>"$T/cc.log"; then
	fail build/policy "$(head -c 300 "$T/cc.log")"
	exit 1
fi
chmod 755 "$T/netprobe" "$T/netrun"
chmod 644 "$T/allow.wardb"

# ------------------------------------------------------------ the internet
in_ns() { # NS CMD...: run in a namespace, with the host's /sys kept
	n=$1
	shift
	nsenter --net=/run/netns/"$n" "$@"
}
link() { # HOSTNS SBX_IF SBX_ADDR4 HOST_ADDR4 PREFIX4 SBX_ADDR6 HOST_ADDR6
	ip -n "$S" link add "$2" type veth peer name eth0 netns "$1" &&
		ip -n "$S" addr add "$3/$5" dev "$2" &&
		ip -n "$1" addr add "$4/$5" dev eth0 &&
		ip -n "$S" addr add "$6/64" dev "$2" nodad &&
		ip -n "$1" addr add "$7/64" dev eth0 nodad &&
		ip -n "$S" link set "$2" up && ip -n "$1" link set eth0 up
}
setup_net() {
	for n in "$S" "$SRV" "$META" "$INTRA"; do
		ip netns add "$n" && ip -n "$n" link set lo up || return 1
	done
	link "$SRV" v-srv 10.77.1.1 10.77.1.2 24 fd77:1::1 fd77:1::2 &&
		link "$META" v-meta 169.254.169.1 169.254.169.254 16 \
			fd00:ec2::1 fd00:ec2::254 &&
		link "$INTRA" v-intra 10.77.3.1 10.77.3.2 24 fd77:3::1 fd77:3::2
}
if ! setup_net 2>"$T/ip.log"; then
	fail setup/namespaces "$(head -c 300 "$T/ip.log")"
	exit 1
fi
# The safety net: from sbx, nothing but the test links is routable.
for a in 1.1.1.1 10.0.0.1 192.168.1.1 172.16.0.1 2001:4860:4860::8888; do
	if in_ns "$S" ip route get "$a" >/dev/null 2>&1; then
		fail setup/isolated "sbx routes $a: stopping before any test"
		exit 1
	fi
done
pass setup/isolated

host() { # NS NAME ARGS...: start a test host
	ns=$1
	name=$2
	shift 2
	# nsenter execs python: $! is the host itself, for the cleanup.
	nsenter --net=/run/netns/"$ns" "$PY" "$top/tests/net/testhost.py" \
		"$T/$name.log" "$T/$name.ready" "$@" 2>"$T/$name.err" &
	bgpids="$bgpids $!"
}
host "$SRV" srv --tcp 8080,8081 --udp 5300,5301,53
host "$META" meta --tcp 80 --udp 53
host "$INTRA" intra --tcp 8080,443 --udp 53
host "$S" local --bind 127.0.0.1 --tcp 9090 --abstract "ward-net-host-$id"
for h in srv meta intra local; do
	i=0
	while [ ! -f "$T/$h.ready" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if [ ! -f "$T/$h.ready" ]; then
		fail setup/host-$h "not ready: $(head -c 300 "$T/$h.err")"
		exit 1
	fi
done
# Ping sockets allowed by the kernel in sbx, so that only ward refuses them.
in_ns "$S" sh -c 'echo "0 2147483647" >/proc/sys/net/ipv4/ping_group_range'

mkdir -p "$CG" || exit 1
run=0
# sandbox [NETRUN_OPTS] -- PROG ARGS: one run in a fresh cgroup.
sandbox() {
	opts=
	while [ "$1" != -- ]; do
		opts="$opts $1"
		shift
	done
	shift
	run=$((run + 1))
	mkdir "$CG/run$run" || return 4
	# shellcheck disable=SC2086
	in_ns "$S" "$T/netrun" -q $opts "$T/allow.wardb" "$CG/run$run" "$@"
	rc=$?
	rmdir "$CG/run$run" 2>/dev/null
	return $rc
}
probe() { sandbox -- "$T/netprobe" "$@"; }

# Host logs: note where they end, then after an attempt, send a marker to
# each host from outside the sandbox and wait until it arrives.
mark=0
note() { for hn in srv meta intra local; do eval "n_$hn=\$(wc -l <\"\$T/$hn.log\")"; done; }
sync_hosts() {
	mark=$((mark + 1))
	for hn in srv:10.77.1.2 meta:169.254.169.254 intra:10.77.3.2 local:127.0.0.1; do
		in_ns "$S" "$T/netprobe" mark "${hn#*:}" "m$mark" >/dev/null
	done
	synced=yes
	for hn in srv meta intra local; do
		i=0
		while ! grep -q "^mark m$mark\$" "$T/$hn.log"; do
			i=$((i + 1))
			[ $i -lt 100 ] || { synced="no ($hn)"; break; }
			sleep 0.05
		done
	done
}
# new HOST: the host's log lines since note(), markers left out.
new() { eval "tail -n +\$((n_$1 + 1)) \"\$T/$1.log\"" | grep -v '^mark '; }
# packets HOST [PORT]: TCP/UDP packets that reached HOST since note().
packets() {
	if [ $# -gt 1 ]; then
		new "$1" | grep -c "^pkt .* $2\$"
	else
		new "$1" | grep -c '^pkt '
	fi
}

# refused NAME EXPECT HOST PORT -- PROBE ARGS: the probe says EXPECT and
# HOST saw no packet at all.
refused() {
	name=$1 expect=$2 h=$3
	shift 5
	note
	out=$(probe "$@" 2>&1)
	sync_hosts
	n=$(packets "$h")
	case $out in
	"$expect"*) ;;
	*)
		fail "$name" "expected '$expect', got '$out'"
		return
		;;
	esac
	if [ "$synced" != yes ]; then
		fail "$name" "the host logs are not in sync: $synced"
	elif [ "$n" != 0 ]; then
		fail "$name" "$out, but $h saw $n packets: $(new "$h" | head -3 | tr '\n' ' ')"
	else
		pass "$name"
	fi
}

# allowed NAME HOST PORT -- PROBE ARGS: an echo comes back and HOST saw it.
allowed() {
	name=$1 h=$2 port=$3
	shift 4
	note
	out=$(probe "$@" 2>&1)
	sync_hosts
	n=$(packets "$h" "$port")
	case $out in
	"ok echo:hello")
		if [ "$n" -gt 0 ]; then pass "$name"; else fail "$name" "$h saw no packet"; fi
		;;
	*) fail "$name" "got '$out'" ;;
	esac
}

# ------------------------------------------------------------ TCP
allowed tcp4/allowed srv 8080 -- tcp 10.77.1.2 8080
allowed tcp6/allowed srv 8080 -- tcp fd77:1::2 8080
allowed tcp6/v4-mapped-allowed srv 8080 -- tcp ::ffff:10.77.1.2 8080
refused tcp4/other-port "err EPERM" srv - -- tcp 10.77.1.2 8081
refused tcp6/other-port "err EPERM" srv - -- tcp fd77:1::2 8081
refused tcp6/v4-mapped-other-port "err EPERM" srv - -- tcp ::ffff:10.77.1.2 8081
refused tcp4/intranet "err EPERM" intra - -- tcp 10.77.3.2 8080
refused tcp6/intranet "err EPERM" intra - -- tcp fd77:3::2 443
refused tcp4/metadata "err EPERM" meta - -- tcp 169.254.169.254 80
refused tcp6/metadata "err EPERM" meta - -- tcp fd00:ec2::254 80
refused tcp6/v4-mapped-metadata "err EPERM" meta - -- tcp ::ffff:169.254.169.254 80
refused tcp4/loopback-service "err EPERM" local - -- tcp 127.0.0.1 9090

# ------------------------------------------------------------ UDP
note
out=$(probe udp 10.77.1.2 5300 2>&1)
sync_hosts
if [ "$out" = "ok echo:hello" ] && [ "$(packets srv 5300)" -gt 0 ]; then
	pass udp4/sendto-allowed
else
	fail udp4/sendto-allowed "got '$out', srv saw $(packets srv 5300) packets"
fi
allowed_udp6() {
	note
	out=$(probe udpc fd77:1::2 5300 2>&1)
	sync_hosts
	if [ "$out" = "ok echo:hello" ] && [ "$(packets srv 5300)" -gt 0 ]; then
		pass udp6/connected-allowed
	else
		fail udp6/connected-allowed "got '$out'"
	fi
}
allowed_udp6
refused udp4/sendto-resolver "err EPERM" srv - -- udp 10.77.1.2 53
refused udp4/connected-resolver "err EPERM" srv - -- udpc 10.77.1.2 53
refused udp6/sendto-resolver "err EPERM" srv - -- udp fd77:1::2 53
refused udp4/sendto-metadata "err EPERM" meta - -- udp 169.254.169.254 53
refused udp6/connected-intranet "err EPERM" intra - -- udpc fd77:3::2 53
refused udp4/sendto-intranet "err EPERM" intra - -- udp 10.77.3.2 53
# The catch-all: a datagram the socket hooks let through (connected to an
# allowed destination) but whose packet carries IP options, which the
# egress program refuses.
refused udp4/egress-ip-options "err EPERM" srv - -- udpopt 10.77.1.2 5300

# Inbound: answers from the allowed peer arrive, a datagram from another
# port of the same host does not.
out=$(probe reflect 10.77.1.2 5300 5301 2>&1)
ctl=$(sandbox -n -- "$T/netprobe" reflect 10.77.1.2 5300 5301 2>&1)
if [ "$out" = "ok own" ] && [ "$ctl" = "leak 5301" ]; then
	pass udp4/receive-other-port
else
	fail udp4/receive-other-port "with programs '$out', without '$ctl'"
fi

# ------------------------------------------------------------ bind, listen
refused bind/tcp4-port "err EPERM" srv - -- bind 0.0.0.0 8000 tcp
refused bind/udp4-port "err EPERM" srv - -- bind 0.0.0.0 5353 udp
refused bind/tcp6-port "err EPERM" srv - -- bind :: 8000 tcp
out=$(probe bind 0.0.0.0 0 tcp 2>&1)
if [ "$out" = ok ]; then pass bind/port-0; else fail bind/port-0 "got '$out'"; fi

# listen() without bind: the kernel picks a port; an inbound connection
# from the test host must not get through (its SYN is dropped).
listen_test() { # NAME NETRUN_OPTS EXPECT_PROBE EXPECT_CLIENT DENIALS
	rm -f "$T/listen.out"
	# shellcheck disable=SC2086
	sandbox $2 -- "$T/netprobe" listen 3 >"$T/listen.out" 2>&1 &
	lp=$!
	i=0
	while ! grep -q '^port ' "$T/listen.out" 2>/dev/null && [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	port=$(sed -n 's/^port //p' "$T/listen.out")
	client=$(in_ns "$SRV" "$PY" -c "
import socket,sys
s=socket.socket(); s.settimeout(1)
try:
    s.connect(('10.77.1.1', int(sys.argv[1]))); print('connected')
except OSError as e:
    print('failed', type(e).__name__)
" "${port:-1}" 2>&1)
	wait "$lp"
	res=$(grep -v '^denied' "$T/listen.out" | tail -n 1)
	den=$(grep -c "^denied accept tcp 10.77.1.2:$port " "$T/listen.out")
	case "$res:$client:$den" in
	"$3:$4"*":$5") pass "$1" ;;
	*) fail "$1" "port ${port:-?}: sandbox '$res', client '$client', $den denials" ;;
	esac
}
listen_test listen/inbound-refused "-d" "ok nothing accepted" "failed" 1
listen_test listen/control-without-programs "-n" "accepted" "connected" 0

# ------------------------------------------------------------ sockets
# Refused by seccomp (the narrowed socket rule) before any program runs.
sock() { # NAME DOMAIN TYPE PROTO
	out=$(probe socket "$2" "$3" "$4" 2>&1)
	if [ "$out" = "err EAFNOSUPPORT" ]; then pass "seccomp/$1"; else fail "seccomp/$1" "got '$out'"; fi
}
sock netlink 16 3 0
sock packet 17 3 768
sock raw4 2 3 1
sock raw6 10 3 58
sock ping4 2 2 1
sock sctp4 2 1 132
out=$(probe socket 1 5 0 2>&1)
if [ "$out" = ok ]; then pass seccomp/unix-allowed; else fail seccomp/unix-allowed "got '$out'"; fi
out=$(probe socket 2 2049 0 2>&1) # SOCK_STREAM | SOCK_NONBLOCK
if [ "$out" = ok ]; then pass seccomp/tcp-nonblock-allowed; else fail seccomp/tcp-nonblock-allowed "got '$out'"; fi
# Behind seccomp, the create program: a ping socket, which the kernel
# itself would allow here (the control, outside the sandbox, as 65534).
ctl=$(in_ns "$S" setpriv --reuid=65534 --regid=65534 --clear-groups "$T/netprobe" socket 2 2 1 2>&1)
out=$(sandbox -S -d -- "$T/netprobe" socket 2 2 1 2>&1)
case "$ctl|$out" in
"ok|err EPERM"*"denied create ipv4 protocol 1 type 2 1"*) pass bpf/create-ping ;;
*) fail bpf/create-ping "control '$ctl', sandbox '$(echo "$out" | tr '\n' ' ')'" ;;
esac

# ------------------------------------------------------------ side doors
out=$(probe abstract "ward-net-host-$id" 2>&1)
ctl=$(sandbox -L -- "$T/netprobe" abstract "ward-net-host-$id" 2>&1)
if [ "$out" = "err EPERM" ] && [ "$ctl" = ok ]; then
	pass landlock/host-abstract-socket
else
	fail landlock/host-abstract-socket "scoped '$out', control '$ctl'"
fi
out=$(probe abstract-self 2>&1)
if [ "$out" = ok ]; then pass landlock/own-abstract-socket; else fail landlock/own-abstract-socket "got '$out'"; fi

# ------------------------------------------------------------ denials
note
out=$(sandbox -d -- /bin/sh -c "
$T/netprobe tcp 10.77.1.2 8081; $T/netprobe tcp 169.254.169.254 80
$T/netprobe tcp 169.254.169.254 80; $T/netprobe udp 10.77.1.2 53
$T/netprobe tcp fd77:3::2 443; $T/netprobe bind 0.0.0.0 8000 tcp
$T/netprobe tcp 10.77.1.2 8080" 2>&1)
want="denied connect tcp 10.77.1.2:8081 1
denied connect tcp 169.254.169.254:80 2
denied connect tcp [fd77:3::2]:443 1
denied sendmsg udp 10.77.1.2:53 1
denied bind tcp 0.0.0.0:8000 1"
got=$(printf '%s\n' "$out" | grep '^denied' | sort)
if [ "$got" = "$(printf '%s\n' "$want" | sort)" ]; then
	pass denials/recorded
else
	fail denials/recorded "got: $(printf '%s' "$got" | tr '\n' ';')"
fi
out=$(sandbox -d -- "$T/netprobe" many 10.77.1.2 20000 1100 2>&1)
nd=$(printf '%s\n' "$out" | grep -c '^denied connect')
ov=$(printf '%s\n' "$out" | sed -n 's/^denied overflow //p')
if printf '%s\n' "$out" | grep -q '^ok 1100 refused' && [ "$nd" = 1024 ] && [ "$ov" = 76 ]; then
	pass denials/bounded
else
	fail denials/bounded "$nd destinations, overflow '$ov': $(printf '%s' "$out" | head -2 | tr '\n' ' ')"
fi

# ------------------------------------------------------------ rootless
out=$(in_ns "$S" setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$T/netrun" -q "$T/allow.wardb" "$CG" "$T/netprobe" tcp 10.77.1.2 8080 2>&1)
rc=$?
case "$rc:$out" in
"3:netrun: the policy's network allow-list is enforced by eBPF programs"*"CAP_BPF and CAP_NET_ADMIN"*"net none"*)
	pass rootless/refused ;;
*) fail rootless/refused "exit $rc: $out" ;;
esac

# ------------------------------------------------------------ ward itself
# The same policy run by the launcher, end to end, once it runs allow-list
# policies (until then these tests say SKIP): the probe in the slot
# `tools`, the report's denials, the generated /etc/hosts, the Landlock
# scope applied by init, the rootless refusal.
WARD=${WARD:-$top/$BUILD/ward}
mkdir -p "$T/tools" && cp "$T/netprobe" "$T/tools/" && chmod 755 "$T/tools"
ward_run() { # REPORT PROG ARGS...: ward in sbx, as root
	rep=$1
	shift
	in_ns "$S" timeout 20 "$WARD" --report "$rep" --slot tools="$T/tools" \
		"$T/allow.wardb" -- "$@"
}
e2e=yes
# The probes answer on stdout; stderr is kept apart (a sanitizer build of
# ward may print warnings there).
out=$(ward_run "$T/w0.json" /tools/netprobe tcp 10.77.1.2 8080 2>"$T/w0.err")
if [ ! -x "$WARD" ]; then
	e2e="no launcher at $WARD"
elif grep -q "does not enforce yet" "$T/w0.err"; then
	e2e="this ward refuses allow-list policies still: $(cat "$T/w0.err")"
elif [ "$out" != "ok echo:hello" ]; then
	fail ward/allowed "got '$out' (stderr: $(head -c 300 "$T/w0.err"))"
	e2e="the first run failed"
else
	pass ward/allowed
fi
if [ "$e2e" = yes ]; then
	note
	out=$(ward_run "$T/w1.json" /bin/sh -c "
/tools/netprobe tcp 169.254.169.254 80; /tools/netprobe udp 10.77.1.2 53
/tools/netprobe tcp fd77:3::2 443; /tools/netprobe socket 16 3 0
/tools/netprobe abstract ward-net-host-$id; /tools/netprobe abstract-self" 2>"$T/w1.err")
	sync_hosts
	want="err EPERM
err EPERM
err EPERM
err EAFNOSUPPORT
err EPERM
ok"
	n=$(($(packets meta) + $(packets srv) + $(packets intra) + $(packets local)))
	if [ "$out" = "$want" ] && [ "$n" = 0 ]; then
		pass ward/refused-no-packet
	else
		fail ward/refused-no-packet "$n packets; got: $(printf '%s' "$out" | tr '\n' ';')"
	fi
	for d in "connect tcp 169.254.169.254:80" "sendmsg udp 10.77.1.2:53" \
		"connect tcp [fd77:3::2]:443"; do
		if grep -qF "$d" "$T/w1.json"; then
			pass "ward/report/$d"
		else
			fail "ward/report/$d" "not in the report: $(grep -o '"network".*' "$T/w1.json" | head -c 300)"
		fi
	done
	out=$(ward_run "$T/w2.json" /usr/bin/getent hosts srv 2>"$T/w2.err")
	case $out in
	"10.77.1.2"*srv*"fd77:1::2"*srv* | "fd77:1::2"*srv*) pass ward/etc-hosts ;;
	*) fail ward/etc-hosts "getent hosts srv: '$out'" ;;
	esac
	out=$(in_ns "$S" setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$WARD" --slot tools="$T/tools" "$T/allow.wardb" -- \
		/tools/netprobe tcp 10.77.1.2 8080 2>&1)
	case $out in
	*"needs CAP_BPF and CAP_NET_ADMIN"*"net none"*) pass ward/rootless-refused ;;
	*) fail ward/rootless-refused "got '$out'" ;;
	esac
else
	skip ward "$e2e"
fi

# ------------------------------------------------------------ /proc/net
skip procnet/host-view "the sandbox shares the network namespace, and /proc/<pid>/net shows it: see docs/spec.md part 5"

[ "$failures" -eq 0 ]
