#!/bin/sh
# tests/net/run.sh: the network, attacked and observed from outside
# (docs/spec.md part 5). Root only (it makes network namespaces; ward runs
# in it as root and, dropped to uid 65534, rootless). One line per test:
# "PASS name" or "FAIL name: why" ("SKIP name: why" where this host cannot
# show it).
#
# The harness builds its own little internet and nothing else is reachable:
#
#   sbx (where ward runs) ── veth ── srv    10.77.1.2, fd77:1::2
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
# Two layers, each tested on its own:
#   broker/MODE/...  ward itself, in sbx, root and rootless: the sandbox
#                    in a network namespace of its own, the socket broker
#                    making its connections (tests/net/allow.ward; rootless
#                    allow-tcp.ward, the same without UDP, which needs the
#                    second layer)
#   programs/...     the cgroup programs alone, as the broker's sockets
#                    meet them in root mode: tests/net/netrun attaches them
#                    to a cgroup v2 directory below one this script makes
#                    under /sys/fs/cgroup/unified and runs the probe there,
#                    in sbx's namespace, as uid 65534 without capabilities
# Everything made here is removed on every path (trap).
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
if ! "$CC" -O1 -D_GNU_SOURCE -I"$top/common" -I"$top/launcher/core" -I"$top/launcher/lib" -o "$T/netrun" \
	"$top/tests/net/netrun.c" "$top/launcher/core/net.c" "$top/launcher/lib/upstream.c" \
	"$top/common/blob_read.c" "$top/common/answer_ranges.c" "$top/common/port_slots.c" "$top/common/sha256.c" \
	"$top/common/util.c" $(pkg-config --libs libsodium) 2>"$T/cc.log"; then
	fail build/netrun "$(head -c 300 "$T/cc.log")"
	exit 1
fi
for pol in allow allow-tcp; do
	if ! "$WARDC" compile -I "$top/stdlib-policies" "$top/tests/net/$pol.ward" \
		-o "$T/$pol.wardb" 2>"$T/cc.log"; then
		fail build/policy-$pol "$(head -c 300 "$T/cc.log")"
		exit 1
	fi
	chmod 644 "$T/$pol.wardb"
done
# The same policy with `net none` (base: base/core's /etc/hosts is made
# from the pinned hosts), for the runs without an allow-list.
sed -e '/^net {/,/^}/d' -e 's|^use base/core;|use base;|' \
	"$top/tests/net/allow-tcp.ward" >"$T/none.ward"
if ! "$WARDC" compile -I "$top/stdlib-policies" "$T/none.ward" \
	-o "$T/none.wardb" 2>"$T/cc.log" || grep -q '^net {' "$T/none.ward"; then
	fail build/policy-none "$(head -c 300 "$T/cc.log")"
	exit 1
fi
chmod 644 "$T/none.wardb"
chmod 755 "$T/netprobe" "$T/netrun"

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
# (PROBE_OPTS: options of netrun's, e.g. -a ADDR:PORT)
probe() {
	# shellcheck disable=SC2086
	sandbox ${PROBE_OPTS:-} -- "$T/netprobe" "$@"
}

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

# ------------------------------------------------------------ the programs
# The second layer on its own: what the cgroup programs let a socket of the
# broker's do (netrun, no broker in front).

# TCP
allowed programs/tcp4/allowed srv 8080 -- tcp 10.77.1.2 8080
allowed programs/tcp6/allowed srv 8080 -- tcp fd77:1::2 8080
allowed programs/tcp6/v4-mapped-allowed srv 8080 -- tcp ::ffff:10.77.1.2 8080
refused programs/tcp4/other-port "err EPERM" srv - -- tcp 10.77.1.2 8081
refused programs/tcp6/other-port "err EPERM" srv - -- tcp fd77:1::2 8081
refused programs/tcp6/v4-mapped-other-port "err EPERM" srv - -- tcp ::ffff:10.77.1.2 8081
refused programs/tcp4/intranet "err EPERM" intra - -- tcp 10.77.3.2 8080
refused programs/tcp6/intranet "err EPERM" intra - -- tcp fd77:3::2 443
refused programs/tcp4/metadata "err EPERM" meta - -- tcp 169.254.169.254 80
refused programs/tcp6/metadata "err EPERM" meta - -- tcp fd00:ec2::254 80
refused programs/tcp6/v4-mapped-metadata "err EPERM" meta - -- tcp ::ffff:169.254.169.254 80
refused programs/tcp4/loopback-service "err EPERM" local - -- tcp 127.0.0.1 9090

# ward --upstream-proxy's ADDR:PORT in root mode (net.h:
# ward_net_setup_also): one more destination, that one only. A network no
# rule named (intra), whose entry starts empty: its port reached, another
# port and another address not.
PROBE_OPTS="-a 10.77.3.2:443"
allowed programs/also/proxy-reached intra 443 -- tcp 10.77.3.2 443
refused programs/also/proxy-other-port "err EPERM" intra - -- tcp 10.77.3.2 8080
refused programs/also/another-address "err EPERM" srv - -- tcp 10.77.1.2 443
# Given in its IPv4-mapped form: looked up as IPv4, its entry is made in
# the IPv4 trie (in the IPv6 one, the connect would be refused).
PROBE_OPTS="-a [::ffff:10.77.3.2]:443"
allowed programs/also/proxy-v4-mapped-reached intra 443 -- tcp 10.77.3.2 443
PROBE_OPTS="-a [fd77:3::2]:443"
allowed programs/also/proxy6-reached intra 443 -- tcp fd77:3::2 443
refused programs/also/proxy6-other-port "err EPERM" intra - -- tcp fd77:3::2 8080
# The address of a rule (srv's, 8080): its entry keeps the rule's port and
# gains the proxy's (programs/tcp4/other-port above: 8081 refused without).
PROBE_OPTS="-a 10.77.1.2:8081"
allowed programs/also/merged-rule-kept srv 8080 -- tcp 10.77.1.2 8080
allowed programs/also/merged-proxy-port srv 8081 -- tcp 10.77.1.2 8081
refused programs/also/merged-no-more "err EPERM" meta - -- tcp 169.254.169.254 80
PROBE_OPTS=

# ------------------------------------------------------------ UDP
note
out=$(probe udp 10.77.1.2 5300 2>&1)
sync_hosts
if [ "$out" = "ok echo:hello" ] && [ "$(packets srv 5300)" -gt 0 ]; then
	pass programs/udp4/sendto-allowed
else
	fail programs/udp4/sendto-allowed "got '$out', srv saw $(packets srv 5300) packets"
fi
allowed_udp6() {
	note
	out=$(probe udpc fd77:1::2 5300 2>&1)
	sync_hosts
	if [ "$out" = "ok echo:hello" ] && [ "$(packets srv 5300)" -gt 0 ]; then
		pass programs/udp6/connected-allowed
	else
		fail programs/udp6/connected-allowed "got '$out'"
	fi
}
allowed_udp6
refused programs/udp4/sendto-resolver "err EPERM" srv - -- udp 10.77.1.2 53
refused programs/udp4/connected-resolver "err EPERM" srv - -- udpc 10.77.1.2 53
refused programs/udp6/sendto-resolver "err EPERM" srv - -- udp fd77:1::2 53
refused programs/udp4/sendto-metadata "err EPERM" meta - -- udp 169.254.169.254 53
refused programs/udp6/connected-intranet "err EPERM" intra - -- udpc fd77:3::2 53
refused programs/udp4/sendto-intranet "err EPERM" intra - -- udp 10.77.3.2 53
# The catch-all: a datagram the socket hooks let through (connected to an
# allowed destination) but whose packet carries IP options, which the
# egress program refuses.
refused programs/udp4/egress-ip-options "err EPERM" srv - -- udpopt 10.77.1.2 5300

# Inbound: answers from the allowed peer arrive, a datagram from another
# port of the same host does not.
out=$(probe reflect 10.77.1.2 5300 5301 2>&1)
ctl=$(sandbox -n -- "$T/netprobe" reflect 10.77.1.2 5300 5301 2>&1)
if [ "$out" = "ok own" ] && [ "$ctl" = "leak 5301" ]; then
	pass programs/udp4/receive-other-port
else
	fail programs/udp4/receive-other-port "with programs '$out', without '$ctl'"
fi

# ------------------------------------------------------------ bind, listen
refused programs/bind/tcp4-port "err EPERM" srv - -- bind 0.0.0.0 8000 tcp
refused programs/bind/udp4-port "err EPERM" srv - -- bind 0.0.0.0 5353 udp
refused programs/bind/tcp6-port "err EPERM" srv - -- bind :: 8000 tcp
out=$(probe bind 0.0.0.0 0 tcp 2>&1)
if [ "$out" = ok ]; then pass programs/bind/port-0; else fail programs/bind/port-0 "got '$out'"; fi

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
listen_test programs/listen/inbound-refused "-d" "ok nothing accepted" "failed" 1
listen_test programs/listen/control-without-programs "-n" "accepted" "connected" 0

# ------------------------------------------------------------ sockets
# The create program: a ping socket, which the kernel itself would allow
# here (the control, as 65534, without the programs).
ctl=$(sandbox -n -- "$T/netprobe" socket 2 2 1 2>&1)
out=$(sandbox -d -- "$T/netprobe" socket 2 2 1 2>&1)
case "$ctl|$out" in
"ok|err EPERM"*"denied create ipv4 protocol 1 type 2 1"*) pass programs/create-ping ;;
*) fail programs/create-ping "control '$ctl', with programs '$(echo "$out" | tr '\n' ' ')'" ;;
esac

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
	pass programs/denials/recorded
else
	fail programs/denials/recorded "got: $(printf '%s' "$got" | tr '\n' ';')"
fi
out=$(sandbox -d -- "$T/netprobe" many 10.77.1.2 20000 1100 2>&1)
nd=$(printf '%s\n' "$out" | grep -c '^denied connect')
ov=$(printf '%s\n' "$out" | sed -n 's/^denied overflow //p')
if printf '%s\n' "$out" | grep -q '^ok 1100 refused' && [ "$nd" = 1024 ] && [ "$ov" = 76 ]; then
	pass programs/denials/bounded
else
	fail programs/denials/bounded "$nd destinations, overflow '$ov': $(printf '%s' "$out" | head -2 | tr '\n' ' ')"
fi

# ------------------------------------------------------------ the broker
# ward itself, in sbx: the probe in the slot `tools`, the report read after
# each run. The probes answer on stdout; stderr is kept apart (a sanitizer
# build of ward may print warnings there). Root mode runs allow.ward (TCP and UDP, the cgroup programs
# beside the broker); rootless runs allow-tcp.ward (the same without UDP:
# the broker alone).
WARD=${WARD:-$top/$BUILD/ward}
mkdir -p "$T/tools" "$T/rep" && cp "$T/netprobe" "$T/tools/" &&
	chmod 755 "$T/tools" && chmod 777 "$T/rep"
nrep=0
rep=
# ward_run MODE PROG ARGS...: one run of ward in sbx; its report in $rep.
# It runs in $(...): the report's name is chosen before (newrep), here.
newrep() {
	nrep=$((nrep + 1))
	rep=$T/rep/w$nrep.json
}
# $blob, when set, is the policy instead (none.wardb).
blob=
ward_run() {
	m=$1
	shift
	if [ "$m" = root ]; then
		in_ns "$S" timeout 30 "$WARD" --report "$rep" \
			--slot tools="$T/tools" "${blob:-$T/allow.wardb}" -- "$@"
	else
		in_ns "$S" timeout 30 setpriv --reuid=65534 --regid=65534 \
			--clear-groups "$WARD" --report "$rep" \
			--slot tools="$T/tools" "${blob:-$T/allow-tcp.wardb}" -- "$@"
	fi
}
# in_report FILTER: the python expression, on the report as r, is true.
in_report() {
	"$PY" -c "import json,sys; r=json.load(open(sys.argv[1])); sys.exit(0 if ($1) else 1)" "$rep" 2>/dev/null
}
attempt() { # VERDICT CALL PROTO ADDR PORT: an attempt of the report
	echo "any(a['verdict'] == '$1' and a['call'] == '$2' and a['protocol'] == '$3' and a['address'] == '$4' and a['port'] == $5 for a in r['network']['attempts'])"
}
denied() { # CALL PROTO ADDR PORT ERRNO: a refused attempt in denials.network
	echo "any(d.get('layer') == 'broker' and d['call'] == '$1' and d['protocol'] == '$2' and d['address'] == '$3' and d['port'] == $4 and d['errno'] == '$5' for d in r['denials']['network'])"
}
# ward_below PID: the first process of $WARD at or below PID (timeout,
# setpriv and nsenter exec or fork on the way): ward's supervisor.
ward_below() {
	for p in $1 $(ps -o pid= --ppid "$1") $(for c in $(ps -o pid= --ppid "$1"); do ps -o pid= --ppid "$c"; done); do
		if [ "$(readlink "/proc/$p/exe" 2>/dev/null)" = "$(readlink -f "$WARD")" ]; then
			echo "$p"
			return
		fi
	done
}
# status_of PID: its ids, capabilities and seccomp state, on one line.
status_of() {
	[ -n "$1" ] && grep -E '^(Uid|CapEff|NoNewPrivs|Seccomp|Seccomp_filters):' \
		"/proc/$1/status" 2>/dev/null | tr -s ':\t ' ' ' | tr '\n' ' ' | sed 's/ $//'
}
# b_allowed MODE NAME HOST PORT ADDR: an echo comes back, HOST saw it, the
# report has the attempt allowed.
b_allowed() {
	m=$1 name=broker/$1/$2 h=$3 port=$4 addr=$5
	note
	newrep
	out=$(ward_run "$m" /tools/netprobe tcp "$addr" "$port" 2>"$T/w.err")
	sync_hosts
	n=$(packets "$h" "$port")
	if [ "$out" != "ok echo:hello" ]; then
		fail "$name" "got '$out' (stderr: $(head -c 300 "$T/w.err"))"
	elif [ "$n" = 0 ]; then
		fail "$name" "$h saw no packet"
	elif ! in_report "$(attempt allowed connect tcp "${6:-$addr}" "$port")"; then
		fail "$name" "not in the report: $(grep -o '"attempts".*' "$rep" | head -c 300)"
	else
		pass "$name"
	fi
}
# b_refused MODE NAME EXPECT HOST PORT ADDR [REPORTED]: the probe says
# EXPECT, HOST saw no packet, the refusal is in the report (when PORT is
# not -).
b_refused() {
	m=$1 name=broker/$1/$2 expect=$3 h=$4 port=$5 addr=$6
	note
	newrep
	out=$(ward_run "$m" /tools/netprobe tcp "$addr" "$port" 2>"$T/w.err")
	sync_hosts
	n=$(packets "$h")
	if [ "$out" != "$expect" ]; then
		fail "$name" "expected '$expect', got '$out' (stderr: $(head -c 200 "$T/w.err"))"
	elif [ "$synced" != yes ]; then
		fail "$name" "the host logs are not in sync: $synced"
	elif [ "$n" != 0 ]; then
		fail "$name" "$h saw $n packets: $(new "$h" | head -3 | tr '\n' ' ')"
	elif [ -n "${7:-}" ] && ! in_report "$(denied connect tcp "$7" "$port" EPERM)"; then
		fail "$name" "not in the report's denials: $(grep -o '"denials".*' "$rep" | head -c 400)"
	else
		pass "$name"
	fi
}

for mode in root rootless; do
	b_allowed $mode tcp4/allowed srv 8080 10.77.1.2
	b_allowed $mode tcp6/allowed srv 8080 fd77:1::2
	b_allowed $mode tcp6/v4-mapped-allowed srv 8080 ::ffff:10.77.1.2 10.77.1.2
	b_refused $mode tcp4/other-port "err EPERM" srv 8081 10.77.1.2 10.77.1.2
	b_refused $mode tcp6/other-port "err EPERM" srv 8081 fd77:1::2 fd77:1::2
	b_refused $mode tcp6/v4-mapped-other-port "err EPERM" srv 8081 ::ffff:10.77.1.2 10.77.1.2
	b_refused $mode tcp4/intranet "err EPERM" intra 8080 10.77.3.2 10.77.3.2
	b_refused $mode tcp6/intranet "err EPERM" intra 443 fd77:3::2 fd77:3::2
	b_refused $mode tcp4/metadata "err EPERM" meta 80 169.254.169.254 169.254.169.254
	b_refused $mode tcp6/metadata "err EPERM" meta 80 fd00:ec2::254 fd00:ec2::254
	b_refused $mode tcp6/v4-mapped-metadata "err EPERM" meta 80 ::ffff:169.254.169.254 169.254.169.254
	# 127.0.0.1 is the sandbox's own loopback: nothing listens there, and
	# sbx's service on its loopback sees nothing.
	b_refused $mode tcp4/loopback-is-its-own "err ECONNREFUSED" local 9090 127.0.0.1

	# An established connection is never connected again nor
	# disconnected (the broker answers for it).
	newrep
	out=$(ward_run $mode /tools/netprobe unspec 10.77.1.2 8080 2>"$T/w.err")
	if [ "$out" = "err EOPNOTSUPP" ] && in_report "any(d['call'] == 'connect' and d['errno'] == 'EOPNOTSUPP' for d in r['denials']['network'])"; then
		pass broker/$mode/tcp4/no-disconnect
	else
		fail broker/$mode/tcp4/no-disconnect "got '$out'"
	fi

	# The sandbox's namespace is its own: sbx's sockets are not in its
	# /proc/net (its listener on 9090, its abstract name, and the
	# socket the broker made for the sandbox's own connection to srv,
	# which is sbx's too), its abstract names are not reachable. The
	# controls: the sandbox's own listener is listed (its /proc/net/tcp
	# is read and lists what is there), and the same probes in sbx,
	# outside ward, list everything.
	newrep
	in_out=$(ward_run $mode /bin/sh -c "/tools/netprobe procnet tcp 9090;
/tools/netprobe procnet unix ward-net-host-$id;
/tools/netprobe abstract ward-net-host-$id; /tools/netprobe procnet-own;
/tools/netprobe procnet-peer 10.77.1.2 8080" 2>"$T/w.err")
	ctl=$(in_ns "$S" sh -c "$T/netprobe procnet tcp 9090;
$T/netprobe procnet unix ward-net-host-$id;
$T/netprobe abstract ward-net-host-$id; $T/netprobe procnet-own;
$T/netprobe procnet-peer 10.77.1.2 8080" 2>&1)
	if [ "$(echo $in_out)" = "not listed not listed err ECONNREFUSED listed not listed" ] &&
		[ "$(echo $ctl)" = "listed listed ok listed listed" ] &&
		in_report "$(attempt allowed connect tcp 10.77.1.2 8080)"; then
		pass broker/$mode/procnet/host-view
	else
		fail broker/$mode/procnet/host-view "sandbox '$(echo $in_out)', control '$(echo $ctl)'"
	fi
	# net none: the namespace is the sandbox's own too (procnet says
	# "err ..." when it cannot read /proc/net, never "not listed").
	newrep
	blob=$T/none.wardb
	in_out=$(ward_run $mode /bin/sh -c "/tools/netprobe procnet tcp 9090;
/tools/netprobe procnet unix ward-net-host-$id;
/tools/netprobe abstract ward-net-host-$id" 2>"$T/w.err")
	blob=
	if [ "$(echo $in_out)" = "not listed not listed err ECONNREFUSED" ] &&
		in_report "r['network']['mode'] == 'none' and r['network']['layers'] == ['namespace'] and not any(d['call'] == 'socket' for d in r['denials']['network'])"; then
		pass broker/$mode/procnet/host-view-net-none
	else
		fail broker/$mode/procnet/host-view-net-none "sandbox '$(echo $in_out)' (control: '$(echo $ctl)')"
	fi
	# net none, TCP to 198.51.100.7 (no route in sbx): socket() is
	# refused, and the attempt is a network denial on the record. The
	# control: the run above, which tried nothing, has none.
	newrep
	blob=$T/none.wardb
	out=$(ward_run $mode /tools/netprobe tcp 198.51.100.7 4444 2>"$T/w.err")
	blob=
	if [ "$out" = "err EAFNOSUPPORT" ] &&
		in_report "[(d['layer'], d['call'], d['family'], d['protocol'], d['errno'], d['count']) for d in r['denials']['network']] == [('broker', 'socket', 'ipv4', 'tcp', 'EAFNOSUPPORT', 1)] and len(r['network']['attempts']) == 1"; then
		pass broker/$mode/net-none-attempt-recorded
	else
		fail broker/$mode/net-none-attempt-recorded "got '$out'; $(grep -o '"denials".*' "$rep" | head -c 400)"
	fi
	newrep
	out=$(ward_run $mode /tools/netprobe abstract-self 2>"$T/w.err")
	if [ "$out" = ok ]; then pass broker/$mode/own-abstract-socket; else fail broker/$mode/own-abstract-socket "got '$out'"; fi

	# Families refused by the program (socket() narrowed), on the record.
	newrep
	out=$(ward_run $mode /bin/sh -c "/tools/netprobe socket 16 3 0;
/tools/netprobe socket 17 3 768; /tools/netprobe socket 2 3 1;
/tools/netprobe socket 10 3 58; /tools/netprobe socket 2 2 1;
/tools/netprobe socket 2 1 132; /tools/netprobe socket 1 5 0" 2>"$T/w.err")
	if [ "$(echo $out)" = "err EAFNOSUPPORT err EAFNOSUPPORT err EAFNOSUPPORT err EAFNOSUPPORT err EAFNOSUPPORT err EAFNOSUPPORT ok" ] &&
		in_report "sum(1 for d in r['denials']['network'] if d['call'] == 'socket') == 6"; then
		pass broker/$mode/socket-families
	else
		fail broker/$mode/socket-families "got '$(echo $out)'"
	fi

	# Which layers enforced the run.
	want="['namespace', 'broker', 'cgroup-bpf']"
	[ $mode = rootless ] && want="['namespace', 'broker']"
	newrep
	ward_run $mode /tools/netprobe tcp 10.77.1.2 8080 >/dev/null 2>&1
	if in_report "str(r['network']['layers']) == \"$want\" and r['mode'] == '$mode'"; then
		pass broker/$mode/layers
	else
		fail broker/$mode/layers "$(grep -o '"layers": [^]]*]' "$rep")"
	fi

	# Every attempt on the record, in a table of a fixed size: 200
	# refused connects to 200 ports of srv take the broker's 128 entries
	# (WARD_RECORD_NET), each with its destination, count and first
	# time, and the other 72 are counted as dropped; srv sees nothing.
	note
	newrep
	out=$(ward_run $mode /tools/netprobe many 10.77.1.2 20000 200 2>"$T/w.err")
	sync_hosts
	n=$(packets srv)
	if [ "$out" = "ok 200 refused" ] && [ "$synced" = yes ] && [ "$n" = 0 ] &&
		in_report "len(r['network']['attempts']) == 128 and r['network']['attempts_dropped'] == 72 and r['denials']['network_dropped'] == 72 and len([d for d in r['denials']['network'] if d['layer'] == 'broker']) == 128 and all(a['verdict'] == 'refused' and a['family'] == 'ipv4' and a['protocol'] == 'tcp' and a['address'] == '10.77.1.2' and 20000 <= a['port'] < 20200 and a['count'] == 1 and a['first'] for a in r['network']['attempts'])"; then
		pass broker/$mode/attempts-bounded
	else
		fail broker/$mode/attempts-bounded "got '$out', srv saw $n packets, report: $(grep -o '"attempts_dropped": [0-9a-z]*' "$rep"), $("$PY" -c "import json,sys; r=json.load(open(sys.argv[1])); print(len(r['network']['attempts']))" "$rep" 2>&1)"
	fi

	# The broker has no privilege and a seccomp filter of its own: the
	# child of ward's supervisor that holds the sandbox's notification
	# listener, read from outside while the sandbox sleeps. The controls:
	# the supervisor it was forked from has no filter (rootless: no
	# no_new_privs either; root: uid 0 and capabilities), so what the
	# broker has it got for itself, and its status is read right.
	newrep
	(ward_run $mode /bin/sleep 3 >/dev/null 2>"$T/w.err") &
	wp=$!
	sup='' brk='' i=0
	while [ -z "$brk" ] && [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
		sup=$(ward_below "$wp")
		[ -n "$sup" ] || continue
		for c in $(ps -o pid= --ppid "$sup"); do
			[ "$(readlink "/proc/$c/ns/net")" = "$(readlink "/proc/$sup/ns/net")" ] || continue
			for fd in "/proc/$c/fd/"*; do
				[ "$(readlink "$fd" 2>/dev/null)" = "anon_inode:seccomp notify" ] && brk=$c
			done
		done
	done
	bst=$(status_of "$brk")
	sst=$(status_of "$sup")
	wait "$wp"
	# The broker: four non-zero uids, no capability, no_new_privs, a
	# filter more than the supervisor's. The supervisor: root mode, uid
	# 0 with capabilities; rootless, no no_new_privs and no filter.
	why=$(printf '%s\n%s\n' "$bst" "$sst" | awk -v mode=$mode '
NR == 1 { for (i = 1; i < NF; i++) b[$i] = $(i + 1); bz = ($2 * $3 * $4 * $5 != 0) }
NR == 2 { for (i = 1; i < NF; i++) s[$i] = $(i + 1); su = $2 $3 $4 $5 }
END {
	if (!bz) print "broker uid"
	else if (b["CapEff"] != "0000000000000000") print "broker capabilities"
	else if (b["NoNewPrivs"] != 1 || b["Seccomp"] != 2) print "broker no_new_privs or seccomp mode"
	else if (b["Seccomp_filters"] <= s["Seccomp_filters"]) print "broker filters"
	else if (mode == "root" && (su != "0000" || s["CapEff"] == "0000000000000000")) print "control: the supervisor is not root"
	else if (mode != "root" && (s["NoNewPrivs"] != 0 || s["Seccomp"] != 0)) print "control: the supervisor is filtered"
}')
	if [ -n "$bst" ] && [ -n "$sst" ] && [ -z "$why" ]; then
		pass broker/$mode/broker-unprivileged-filtered
	else
		fail broker/$mode/broker-unprivileged-filtered "${why:-not found}: broker ${brk:-?} '$bst'; supervisor ${sup:-?} '$sst'"
	fi
done

# UDP: root mode (the cgroup programs check every datagram of the host's
# sockets beside the broker).
note
newrep
out=$(ward_run root /tools/netprobe udp 10.77.1.2 5300 2>"$T/w.err")
sync_hosts
if [ "$out" = "ok echo:hello" ] && [ "$(packets srv 5300)" -gt 0 ] &&
	in_report "$(attempt allowed sendto udp 10.77.1.2 5300)"; then
	pass broker/root/udp4/sendto-allowed
else
	fail broker/root/udp4/sendto-allowed "got '$out', srv saw $(packets srv 5300) packets"
fi
note
newrep
out=$(ward_run root /tools/netprobe udpc fd77:1::2 5300 2>"$T/w.err")
sync_hosts
if [ "$out" = "ok echo:hello" ] && [ "$(packets srv 5300)" -gt 0 ]; then
	pass broker/root/udp6/connected-allowed
else
	fail broker/root/udp6/connected-allowed "got '$out'"
fi
for t in "sendto-resolver udp 10.77.1.2 53 srv" "connected-resolver udpc 10.77.1.2 53 srv" \
	"sendto-metadata udp 169.254.169.254 53 meta"; do
	set -- $t
	note
	newrep
	out=$(ward_run root /tools/netprobe "$2" "$3" "$4" 2>"$T/w.err")
	sync_hosts
	call=sendto
	[ "$2" = udpc ] && call=connect
	if [ "$out" = "err EPERM" ] && [ "$(packets "$5")" = 0 ] &&
		in_report "$(denied $call udp "$3" "$4" EPERM)"; then
		pass broker/root/udp4/$1
	else
		fail broker/root/udp4/$1 "got '$out', $5 saw $(packets "$5") packets"
	fi
done

# Rootless, a policy the broker alone cannot hold (UDP rules) is refused,
# with the reason and the way out.
out=$(in_ns "$S" setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$WARD" --slot tools="$T/tools" "$T/allow.wardb" -- \
	/tools/netprobe tcp 10.77.1.2 8080 2>&1)
case $out in
*"has UDP rules"*"CAP_BPF and CAP_NET_ADMIN"*"run ward as root, or allow TCP only"*) pass broker/rootless/udp-refused ;;
*) fail broker/rootless/udp-refused "got '$out'" ;;
esac

# The pinned hosts are the sandbox's /etc/hosts.
newrep
# (`getent hosts` prints one address, the IPv6 one here: the IPv4 pin
# is asked for on its own)
out=$(ward_run root /usr/bin/getent hosts srv 2>"$T/w.err")
newrep
out4=$(ward_run root /usr/bin/getent ahostsv4 srv 2>>"$T/w.err")
case "$out|$out4" in
"fd77:1::2"*srv*"|10.77.1.2"*"STREAM srv"*) pass broker/etc-hosts ;;
*) fail broker/etc-hosts "getent hosts srv: '$out', getent ahostsv4 srv: '$out4'" ;;
esac

[ "$failures" -eq 0 ]
