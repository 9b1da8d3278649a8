# shellcheck shell=bash
# tests/attacks/lib/world.sh: the test world of the attack suite
# (tests/attacks/run.sh).
# Sourced by bash, as root. It provides:
#
#   world_init          a private temporary directory $T, cleaned on exit
#   safety_net_init     the outer cgroups every launch runs in ($NET_OK)
#   net_world_init      two network namespaces and the test hosts in them
#   policies_build      the stdlib profiles compiled, and test copies
#   launch ...          one run of ward under the safety net
#
# Nothing here sends a packet outside the namespaces it creates: ward
# itself runs in the namespace $NS_HOST, which routes only to $NS_NET, and
# has no default route (checked before anything runs).

PY=/usr/bin/python3
# The rootless mode's user: nobody, or the caller when it is not root.
NOBODY=65534
[ "$(id -u)" = 0 ] || NOBODY=$(id -u)

# ------------------------------------------------------------ cleanup
# Every resource is registered as it is made; on exit the actions run in
# reverse order, whatever path the script took.
_cleanup_actions=()
at_exit() { _cleanup_actions+=("$*"); }
_run_cleanup() {
	local i
	for ((i = ${#_cleanup_actions[@]} - 1; i >= 0; i--)); do
		eval "${_cleanup_actions[$i]}" >/dev/null 2>&1
	done
	_cleanup_actions=()
}

world_init() { # PREFIX
	T=$(mktemp -d "/tmp/$1.XXXXXX") || exit 1
	chmod 755 "$T"
	[ "${KEEP:-0}" = 1 ] || at_exit "rm -rf '$T'"
	trap _run_cleanup EXIT
	trap 'exit 1' INT TERM HUP
	mkdir -p "$T/bin" "$T/pol/src" "$T/net" "$T/runs"
	chmod 755 "$T/bin" "$T/pol" "$T/runs"
}

# ------------------------------------------------------------ safety net
# An outer cgroup under the harness's own cgroup, per controller: memory
# (hard limit, swap included), pids (pids.max) and cpuacct (to measure CPU
# from outside). Each launch joins a child of it (cg_new) before it execs
# anything, so whatever the sandbox does, the kernel stops it at the outer
# limits first; a test fails when the net was touched (net_touched). On
# cgroup2 alone, one cgroup with all three (_safety_net_v2).
NET_MEM_LIMIT=$((2048 << 20))
NET_PIDS_MAX=1024
NET_OK=0
CG_DIRS=()

_self_cgroup() { # CONTROLLER: our path in a v1 hierarchy
	awk -F: -v c="$1" '{ n = split($2, a, ","); for (i = 1; i <= n; i++)
		if (a[i] == c) print $3 }' /proc/self/cgroup
}

safety_net_init() { # NAME
	local c self base
	NET_NAME=$1
	CG_DIRS=()
	# Pure cgroup2 (tests/vm): one outer cgroup for all three.
	if [ ! -d /sys/fs/cgroup/memory ] && [ -f /sys/fs/cgroup/cgroup.controllers ]; then
		_safety_net_v2
		return
	fi
	for c in memory pids cpuacct; do
		[ -d "/sys/fs/cgroup/$c" ] || return 1
		self=$(_self_cgroup "$c")
		base="/sys/fs/cgroup/$c${self%/}/$NET_NAME"
		mkdir "$base" || return 1
		at_exit "cg_remove '$base'"
		CG_DIRS+=("$base")
	done
	CG_MEM=${CG_DIRS[0]} CG_PIDS=${CG_DIRS[1]} CG_CPU=${CG_DIRS[2]}
	echo $NET_MEM_LIMIT >"$CG_MEM/memory.limit_in_bytes" || return 1
	if [ -f "$CG_MEM/memory.memsw.limit_in_bytes" ]; then
		echo $NET_MEM_LIMIT >"$CG_MEM/memory.memsw.limit_in_bytes" || return 1
	fi
	echo $NET_PIDS_MAX >"$CG_PIDS/pids.max" || return 1
	NET_OK=1
}

# cgroup2: the outer cgroup below ours, giving memory, pids and cpu to its
# children; CG_MEM, CG_PIDS and CG_CPU are all it. Launches join a leaf of
# a test's cgroup (cg_new) and ward's runs go below the test's cgroup
# (--cgroup-base $CG_WARD_BASE), inside the net: by default a root ward
# in a leaf with processes would put them at the hierarchy's root.
CG_V2=0
_safety_net_v2() {
	local self base
	self=$(awk -F: '$1 == 0 { print $3 }' /proc/self/cgroup)
	base="/sys/fs/cgroup${self%/}/$NET_NAME"
	mkdir "$base" || return 1
	at_exit "cg_remove '$base'"
	echo "+memory +pids +cpu" >"$base/cgroup.subtree_control" || return 1
	echo $NET_MEM_LIMIT >"$base/memory.max" || return 1
	echo 0 >"$base/memory.swap.max" 2>/dev/null
	echo $NET_PIDS_MAX >"$base/pids.max" || return 1
	CG_DIRS=("$base")
	CG_MEM=$base CG_PIDS=$base CG_CPU=$base
	CG_V2=1 NET_OK=1
}

# What the attacks read of a cgroup, in either version.
cg_mem_peak() { # DIR: the highest memory use, in bytes
	if [ "$CG_V2" = 1 ]; then cat "$1/memory.peak"; else cat "$1/memory.max_usage_in_bytes"; fi
}
cg_cpu_ns() { # DIR: the CPU time used, in ns
	if [ "$CG_V2" = 1 ]; then
		# (printf: print would write 1.3e+10, which $(( )) refuses)
		awk '$1 == "usage_usec" { printf "%.0f\n", $2 * 1000 }' "$1/cpu.stat"
	else
		cat "$1/cpuacct.usage"
	fi
}
cg_mem_limit() { # DIR BYTES: a memory limit, swap included
	if [ "$CG_V2" = 1 ]; then
		echo "$2" >"$1/memory.max" && echo 0 >"$1/memory.swap.max"
	else
		echo "$2" >"$1/memory.limit_in_bytes" && echo "$2" >"$1/memory.memsw.limit_in_bytes"
	fi
}

# Kill what is left in a cgroup directory and its children, then remove
# them (children first).
cg_remove() {
	local d i
	[ -d "$1" ] || return 0
	for i in 1 2 3 4 5 6 7 8 9 10; do
		# shellcheck disable=SC2046
		kill -9 $(cat $(find "$1" -name cgroup.procs) 2>/dev/null) 2>/dev/null
		find "$1" -depth -type d -exec rmdir {} + 2>/dev/null
		[ -d "$1" ] || return 0
		sleep 0.2
	done
	return 1
}

# cg_new NAME: a child of each outer cgroup for one test; its procs files
# in $CG_JOIN (what a launch joins), the directories in $CG_RUN.
cg_new() {
	local d
	CG_RUN=() CG_JOIN=()
	[ "$NET_OK" = 1 ] || return 0
	if [ "$CG_V2" = 1 ]; then
		d=${CG_DIRS[0]}/$1
		mkdir "$d" "$d/sh" || return 1
		echo "+memory +pids +cpu" >"$d/cgroup.subtree_control" || return 1
		CG_RUN=("$d" "$d" "$d")
		CG_JOIN=("$d/sh/cgroup.procs")
		CG_WARD_BASE=${d#/sys/fs/cgroup}/ward
		return 0
	fi
	for d in "${CG_DIRS[@]}"; do
		mkdir "$d/$1" || return 1
		CG_RUN+=("$d/$1")
		CG_JOIN+=("$d/$1/cgroup.procs")
	done
}

# cg_procs: the processes still in this test's cgroups (any level below).
cg_procs() {
	local d
	for d in "${CG_RUN[@]}"; do
		find "$d" -name cgroup.procs -exec cat {} + 2>/dev/null
	done | sort -un | tr '\n' ' '
}

# net_touched: what of the outer net has been hit since the start ("" if
# nothing): the memory limit (failcnt) or pids.max (pids.events).
net_touched() {
	local f m
	[ "$NET_OK" = 1 ] || return 0
	if [ "$CG_V2" = 1 ]; then
		# (cgroup2 cannot reset it: counted from the last look)
		f=$(awk '$1 == "max" { print $2 }' "$CG_MEM/memory.events" 2>/dev/null)
		f=$((${f:-0} - ${NET_MEM_SEEN:-0}))
		NET_MEM_SEEN=$((NET_MEM_SEEN + f))
	else
		f=$(cat "$CG_MEM/memory.failcnt" 2>/dev/null)
	fi
	m=$(awk '$1 == "max" { print $2 }' "$CG_PIDS/pids.events" 2>/dev/null)
	[ "${f:-0}" != 0 ] && printf 'memory limit hit %s times; ' "$f"
	[ "${m:-0}" != 0 ] && printf 'pids.max hit %s times; ' "$m"
}

# ------------------------------------------------------------ the network
# NS_HOST stands for the host: ward runs here, with test services on its
# loopback and an abstract unix socket. NS_NET holds the "rest of the
# world", every address on one veth away:
#
#   NS_HOST 203.0.113.1  2001:db8:1::1 ── veth ── NS_NET 203.0.113.2
#     lo: 127.0.0.1:6379,5432,2375              lo: 198.51.100.7  attacker
#     @ward-attack-host-PID (abstract)              169.254.169.254 metadata
#                                                   10.200.0.5      intranet
#                                                   192.0.2.10      mirror
#                                                   192.0.2.53      resolver
#                                                   2001:db8:ec2::254, 2001:db8:10::10
#
# All of them exist only inside these two namespaces: NS_HOST has routes to
# them and no default route, so nothing else is reachable.
ADDR_ATTACKER=198.51.100.7
ADDR_METADATA=169.254.169.254
ADDR_INTRANET=10.200.0.5
ADDR_MIRROR=192.0.2.10
ADDR_RESOLVER=192.0.2.53
ADDR6_METADATA=2001:db8:ec2::254
ADDR6_MIRROR=2001:db8:10::10
NET_TCP_PORTS=22,80,443,4444,8080
NET_UDP_PORTS=53,123
HOST_TCP_PORTS=6379,5432,2375
NET_WORLD=0
# The names world (names_world_init): a third namespace NS_DNS, one veth
# from NS_HOST, holding the test's DNS server (ADDR_DNS) and a TLS host
# (ADDR_NAMES:443, certificates of a CA made here) that
# tests/net/dnsserver.py serves, as in tests/net/names.sh. NAMES_RESOLV
# names ADDR_DNS: a names attack sets NET_RESOLV to it, and run_netted
# then mounts it on /etc/resolv.conf in a mount namespace of that launch
# only (ward's DNS stub asks the resolver it names).
ADDR_DNS=192.0.2.54
ADDR_NAMES=192.0.2.20
NAMES_ZONE="index.test=$ADDR_NAMES,files.test=$ADDR_NAMES,a.files.test=$ADDR_NAMES,a.b.files.test=$ADDR_NAMES,evilfiles.test=$ADDR_NAMES,a.files.test.evil.test=$ADDR_NAMES,other.test=$ADDR_NAMES,meta.files.test=169.254.169.254,intranet.files.test=10.200.0.5,brief.files.test=$ADDR_NAMES/0"
NAMES_WORLD=0
NET_RESOLV=

in_ns() { # NS CMD...: in a namespace's network only (the host's /sys kept)
	local n=$1
	shift
	nsenter --net="/run/netns/$n" "$@"
}

# (nsenter itself in the background, not in_ns: a function run with & is a
# subshell, and $! would be that shell, whose kill leaves the server
# running; nsenter execs the server, so $! is the server.)
_testhost() { # NS NAME ARGS...
	local ns=$1 name=$2
	shift 2
	nsenter --net="/run/netns/$ns" "$PY" "$TESTHOST" \
		"$T/net/$name.log" "$T/net/$name.ready" "$@" \
		>/dev/null 2>"$T/net/$name.err" &
	at_exit "kill $!; wait $!"
}

_icmpcount() { # NS NAME
	nsenter --net="/run/netns/$1" "$PY" "$A/lib/icmpcount.py" \
		"$T/net/$2.icmp" "$T/net/$2.icmpready" >/dev/null 2>&1 &
	at_exit "kill $!; wait $!"
}

net_world_init() {
	local a i h
	NS_HOST=wa-h-$$ NS_NET=wa-n-$$
	ABSTRACT_HOST=ward-attack-host-$$
	for n in "$NS_HOST" "$NS_NET"; do
		ip netns add "$n" || return 1
		at_exit "ip netns del '$n'"
		ip -n "$n" link set lo up || return 1
	done
	ip -n "$NS_HOST" link add wa0 type veth peer name wa1 netns "$NS_NET" &&
		ip -n "$NS_HOST" addr add 203.0.113.1/24 dev wa0 &&
		ip -n "$NS_NET" addr add 203.0.113.2/24 dev wa1 &&
		ip -n "$NS_HOST" -6 addr add 2001:db8:1::1/64 dev wa0 nodad &&
		ip -n "$NS_NET" -6 addr add 2001:db8:1::2/64 dev wa1 nodad &&
		ip -n "$NS_HOST" link set wa0 up && ip -n "$NS_NET" link set wa1 up ||
		return 1
	for a in $ADDR_ATTACKER $ADDR_METADATA $ADDR_INTRANET $ADDR_MIRROR \
		$ADDR_RESOLVER; do
		ip -n "$NS_NET" addr add "$a/32" dev lo &&
			ip -n "$NS_HOST" route add "$a/32" via 203.0.113.2 || return 1
	done
	for a in $ADDR6_METADATA $ADDR6_MIRROR; do
		ip -n "$NS_NET" -6 addr add "$a/128" dev lo nodad &&
			ip -n "$NS_HOST" -6 route add "$a/128" via 2001:db8:1::2 ||
			return 1
	done
	# The safety check: from NS_HOST, no real address is routable.
	for a in 1.1.1.1 8.8.8.8 10.0.0.1 172.16.0.1 192.168.1.1 2001:4860:4860::8888; do
		if in_ns "$NS_HOST" ip route get "$a" >/dev/null 2>&1; then
			echo "FAIL setup/net-isolated: $NS_HOST routes $a; stopping"
			return 1
		fi
	done
	# Unprivileged ICMP echo sockets allowed in NS_HOST, so that only the
	# sandbox can refuse them (ping's own fallback).
	in_ns "$NS_HOST" sh -c 'echo "0 2147483647" >/proc/sys/net/ipv4/ping_group_range'
	_testhost "$NS_NET" net --tcp $NET_TCP_PORTS --udp $NET_UDP_PORTS
	_testhost "$NS_HOST" local --bind 127.0.0.1 --tcp $HOST_TCP_PORTS \
		--abstract "$ABSTRACT_HOST"
	_icmpcount "$NS_NET" net
	for h in net.ready local.ready net.icmpready; do
		i=0
		while [ ! -f "$T/net/$h" ] && [ $i -lt 100 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		if [ ! -f "$T/net/$h" ]; then
			echo "FAIL setup/test-hosts: $h: $(head -c 300 "$T/net/${h%.*}.err" 2>/dev/null)"
			return 1
		fi
	done
	NET_WORLD=1
	names_world_init >"$T/net/names-setup.err" 2>&1 && NAMES_WORLD=1
	return 0
}

# names_world_init: NS_DNS and its servers (see NAMES_ZONE). A names
# attack fails, with this setup's error, when it did not come up; the
# other attacks do not need it.
names_world_init() {
	local i d=$T/net/tls
	NS_DNS=wa-d-$$
	ip netns add "$NS_DNS" || return 1
	at_exit "ip netns del '$NS_DNS'"
	ip -n "$NS_DNS" link set lo up &&
		ip -n "$NS_HOST" link add wa2 type veth peer name wa3 netns "$NS_DNS" &&
		ip -n "$NS_DNS" addr add "$ADDR_DNS/32" dev wa3 &&
		ip -n "$NS_DNS" addr add "$ADDR_NAMES/32" dev wa3 &&
		ip -n "$NS_HOST" link set wa2 up && ip -n "$NS_DNS" link set wa3 up &&
		ip -n "$NS_DNS" route add 203.0.113.1/32 dev wa3 &&
		ip -n "$NS_HOST" route add "$ADDR_DNS/32" dev wa2 src 203.0.113.1 &&
		ip -n "$NS_HOST" route add "$ADDR_NAMES/32" dev wa2 src 203.0.113.1 ||
		return 1
	mkdir -p "$d" && (cd "$d" &&
		openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem \
			-days 2 -subj /CN=ward-attack-names-ca &&
		openssl req -newkey rsa:2048 -nodes -keyout srv.key -out srv.csr \
			-subj /CN=index.test &&
		printf 'subjectAltName=DNS:index.test,DNS:*.files.test,DNS:*.b.files.test,DNS:other.test\n' >srv.ext &&
		openssl x509 -req -in srv.csr -CA ca.pem -CAkey ca.key -CAcreateserial \
			-days 2 -extfile srv.ext -out srv.pem) || return 1
	chmod 644 "$d/ca.pem"
	echo "nameserver $ADDR_DNS" >"$T/net/resolv.conf" && chmod 644 "$T/net/resolv.conf"
	NAMES_RESOLV=$T/net/resolv.conf
	TLS_CERT=$d/srv.pem TLS_KEY=$d/srv.key nsenter --net="/run/netns/$NS_DNS" \
		"$PY" "$NAMES_SERVER" "$T/net/names.log" "$T/net/names.ready" \
		"$ADDR_DNS" "$NAMES_ZONE" "tls:$ADDR_NAMES:443" "$ADDR_NAMES:8443" \
		>/dev/null 2>"$T/net/names.err" &
	at_exit "kill $!; wait $!"
	i=0
	while [ ! -f "$T/net/names.ready" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -f "$T/net/names.ready" ] || { cat "$T/net/names.err"; return 1; }
	# The same safety check as NS_HOST's: nothing real is routable.
	for a in 1.1.1.1 8.8.8.8 10.0.0.1 192.168.1.1; do
		! in_ns "$NS_DNS" ip route get "$a" >/dev/null 2>&1 || return 1
	done
}

# names_note / names_seen: the names servers' log lines since the note
# (queries "query NAME TYPE FROM", "accept ADDR:PORT FROM", "tls ADDR:PORT
# SNI").
names_note() { NOTE_NAMES=$(wc -l <"$T/net/names.log"); }
names_seen() { tail -n +$((NOTE_NAMES + 1)) "$T/net/names.log"; }

# names_policy: the names attacks' test policy, names-net: the profile
# (agent-net, or the target standing for it) with index.test and
# *.files.test allowed on 443 by name at the top of its net section, and
# nothing else (its resolv.conf and nsswitch.conf follow from the names);
# names_diff_ok checks that with wardc diff: in its network part, the two
# name rules added and no other change.
names_policy() {
	derive_policy names-net agent-net \
		-e '/^[[:space:]]*net[[:space:]]*{[[:space:]]*$/a\    allow tcp name "index.test" port 443; allow tcp name "*.files.test" port 443;'
}
names_diff_ok() {
	local d
	d=$("$WARDC" diff "$T/pol/names-net.base.wardb" "$T/pol/names-net.wardb" | sed -n '/^network:/,/^[a-z]/p' | grep '^  [-+~]')
	[ "$(printf '%s\n' "$d" | wc -l)" = 2 ] &&
		printf '%s\n' "$d" | grep -qxF '  + allow: tcp name index.test port 443 (addresses learned at run time)' &&
		printf '%s\n' "$d" | grep -qxF '  + allow: tcp name *.files.test port 443 (addresses learned at run time)'
}

# net_note: remember where the test hosts' logs end.
net_note() {
	NOTE_NET=$(wc -l <"$T/net/net.log")
	NOTE_LOCAL=$(wc -l <"$T/net/local.log")
	NOTE_ICMP=$(wc -l <"$T/net/net.icmp")
}

_marks=0
# net_sync: a marker datagram from NS_HOST to each test host (port 9);
# once both have logged it, everything sent before it has been seen.
net_sync() {
	local i
	_marks=$((_marks + 1))
	in_ns "$NS_HOST" "$PY" -c '
import socket, sys
for a in sys.argv[2:]:
    socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(sys.argv[1].encode(), (a, 9))
' "m$$-$_marks" "$ADDR_RESOLVER" 127.0.0.1
	for h in net local; do
		i=0
		while ! grep -q "^mark m$$-$_marks\$" "$T/net/$h.log" && [ $i -lt 100 ]; do
			sleep 0.05
			i=$((i + 1))
		done
	done
	sleep 0.1 # ICMP has no marker: a moment for the counter
}

# net_seen: what reached the test hosts since net_note (markers left out):
# "net: LINE" and "local: LINE" lines.
net_seen() {
	tail -n +$((NOTE_NET + 1)) "$T/net/net.log" | grep -v '^mark ' | sed 's/^/net: /'
	tail -n +$((NOTE_LOCAL + 1)) "$T/net/local.log" | grep -v '^mark ' |
		grep -v "^pkt udp 127.0.0.1 127.0.0.1 9\$" | sed 's/^/local: /'
	tail -n +$((NOTE_ICMP + 1)) "$T/net/net.icmp" | sed 's/^/net: /'
}

# ------------------------------------------------------------ policies
# The policy under attack is $TARGET_BLOB (ward-attack's argument), known
# to the attacks as $TARGET_NAME (a stdlib profile's name when the project's
# suite runs the tool over that profile, "target" otherwise). Every other
# stdlib profile is compiled from $STDLIB as it is ($T/pol/NAME.wardb): the
# attacks use some of them as a second policy or a control. Each has a test
# copy without the limits that only the supervision issue enforces
# ($T/pol/NAME-nocg.wardb: memory, swap, cpu, pids, wall, grace, stdout,
# stderr, output removed, nothing else changed), for the target only when
# its source is known ($TARGET_SRC). A launch uses the real policy whenever
# ward accepts it (policy_for).
# ATTACK_PROFILES narrows the stdlib profiles for a selection that needs
# fewer (tests/vm: each probe and compile costs seconds under TCG).
PROFILES=${ATTACK_PROFILES:-python shell node cc strict agent-net}
# (`stdout text;` stays: the courier's, which needs no cgroup)
SUPERVISOR_LIMITS='(memory|swap|cpu|pids|wall|grace|output)[[:space:]]|(stdout|stderr)[[:space:]]+[0-9]'

compile_policy() { # SRC OUT
	"$WARDC" compile -I "$STDLIB" "$1" -o "$2" 2>"$T/pol/err" || {
		echo "FAIL setup/compile-$(basename "$2"): $(head -c 400 "$T/pol/err")"
		return 1
	}
	chmod 644 "$2"
}

policies_build() {
	local p list
	list=$TARGET_NAME
	for p in $PROFILES; do
		[ "$p" = "$TARGET_NAME" ] || list="$list $p"
	done
	PROFILES=$list
	cp "$TARGET_BLOB" "$T/pol/$TARGET_NAME.wardb" && chmod 644 "$T/pol/$TARGET_NAME.wardb" || return 1
	if [ -n "${TARGET_SRC:-}" ]; then
		cp "$TARGET_SRC" "$T/pol/src/$TARGET_NAME.ward" &&
			sed -E "/^[[:space:]]*($SUPERVISOR_LIMITS)/d" "$TARGET_SRC" \
				>"$T/pol/src/$TARGET_NAME-nocg.ward" &&
			compile_policy "$T/pol/src/$TARGET_NAME-nocg.ward" "$T/pol/$TARGET_NAME-nocg.wardb" ||
			return 1
	fi
	for p in $PROFILES; do
		[ "$p" = "$TARGET_NAME" ] && continue
		compile_policy "$STDLIB/$p.ward" "$T/pol/$p.wardb" || return 1
		cp "$STDLIB/$p.ward" "$T/pol/src/$p.ward"
		sed -E "/^[[:space:]]*($SUPERVISOR_LIMITS)/d" \
			"$STDLIB/$p.ward" >"$T/pol/src/$p-nocg.ward"
		compile_policy "$T/pol/src/$p-nocg.ward" "$T/pol/$p-nocg.wardb" || return 1
	done
}

# base_name NAME: the attack's own profile (its `# profile:`, when a stdlib
# profile: not the layers attacks' test policy) is the target; other names
# stay.
base_name() {
	if [ "$1" = "$TARGET_NAME" ] || { [ "$1" = "${PROFILE:-}" ] && [ -f "$STDLIB/$1.ward" ]; }; then
		echo "$TARGET_NAME"
	else
		echo "$1"
	fi
}

# base_src NAME: the source a test policy is derived from: the target's
# when NAME stands for it and its source is known, else the stdlib
# profile's ($T/pol/src/NAME.ward; its -nocg copy when the real one is
# refused). The derivation is recorded for the scorecard.
base_src() {
	local b
	b=$(base_name "$1")
	if [ "$b" = "$TARGET_NAME" ] && [ -z "${TARGET_SRC:-}" ]; then
		# No source of the target: the stdlib profile of that name.
		b=$1
		[ "$b" = "$TARGET_NAME" ] && b=python
		[ -n "${CASE_T:-}" ] && echo "test copies derived from the stdlib $b profile (no --source)" >>"$CASE_T/notes"
	fi
	if [ "$(accepted "$b")" = real ] || [ ! -f "$T/pol/src/$b-nocg.ward" ]; then
		echo "$T/pol/src/$b.ward"
	else
		echo "$T/pol/src/$b-nocg.ward"
	fi
}

# derive_policy NAME BASE SED-EXPR...: a test policy: the source of BASE
# (base_src) with the sed expressions applied; the source it came from,
# compiled, is $T/pol/NAME.base.wardb. The caller says in its header how
# it is more permissive and checks it with `wardc diff`.
derive_policy() {
	local name=$1 src
	src=$(base_src "$2")
	shift 2
	sed "$@" "$src" >"$T/pol/src/$name.ward" &&
		compile_policy "$src" "$T/pol/$name.base.wardb" &&
		compile_policy "$T/pol/src/$name.ward" "$T/pol/$name.wardb"
}

# mkblob_policy NAME ITEM...: a test blob made without wardc
# (tests/e2e/mkblob.c), for the layers behind seccomp.
mkblob_policy() {
	local name=$1
	shift
	"$T/bin/mkblob" "$T/pol/$name.wardb" "$@" >"$T/pol/err" 2>&1 &&
		chmod 644 "$T/pol/$name.wardb"
}

# ------------------------------------------------------------ launching
# MODE is root or rootless. HUID is the host uid of the sandbox user:
# rootless, the caller's (65534); as root, a uid of this run that no other
# process on the host has, so that "a process of HUID" is one of ours.
mode_ids() {
	if [ "$MODE" = root ]; then HUID=$ROOT_HUID; else HUID=$NOBODY; fi
}

pick_root_huid() {
	local u
	for u in $(seq $((61000 + $$ % 3000)) 64999); do
		getent passwd "$u" >/dev/null && continue
		pgrep -U "$u" >/dev/null && continue
		ROOT_HUID=$u
		return 0
	done
	return 1
}

_join=
_join_script() {
	_join="$T/bin/join.sh"
	cat >"$_join" <<'EOF'
#!/bin/sh
# join.sh PROCS... -- CMD...: enter the test's cgroups, then exec CMD.
while [ "$1" != -- ]; do
	echo $$ >"$1" || exit 121
	shift
done
shift
exec "$@"
EOF
	chmod 755 "$_join"
}

# run_netted [-u UID] [-t SECS] [-e VAR=VAL]... [-x] -- CMD...: run CMD in
# this test's cgroups, in NS_HOST, with the process limit and under
# timeout(1), as root or as UID. Sets rc. -x: exec it (for a background
# subshell, whose pid is then timeout's).
run_netted() {
	local uid= to=${LAUNCH_TIMEOUT:-60} envs=() pre=() x=0
	while [ "$1" != -- ]; do
		case $1 in
		-x) x=1 ;;
		-u) uid=$2; shift ;;
		-t) to=$2; shift ;;
		-e) envs+=("$2"); shift ;;
		esac
		shift
	done
	shift
	[ -n "$_join" ] || _join_script
	[ "$NET_WORLD" = 1 ] && pre+=(nsenter --net="/run/netns/$NS_HOST")
	# (a names attack's launches: the test's resolver, in a mount
	# namespace of this launch only)
	[ -n "${NET_RESOLV:-}" ] && pre+=(unshare -m --propagation private -- /bin/sh -c 'mount --bind "$0" /etc/resolv.conf && exec "$@"' "$NET_RESOLV")
	pre+=(prlimit --nproc=$NET_PIDS_MAX -- timeout -k 3 "$to")
	# (as a user, the rootless mode is the caller: no setpriv)
	[ -n "$uid" ] && [ "$uid" != "$(id -u)" ] && pre+=(setpriv --reuid="$uid" --regid="$uid" --clear-groups)
	pre+=(env -i PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin)
	[ -n "${ASAN_OPTIONS:-}" ] && pre+=("ASAN_OPTIONS=$ASAN_OPTIONS")
	[ -n "${UBSAN_OPTIONS:-}" ] && pre+=("UBSAN_OPTIONS=$UBSAN_OPTIONS")
	[ $x = 1 ] && exec "$_join" "${CG_JOIN[@]}" -- "${pre[@]}" "${envs[@]}" "$@"
	"$_join" "${CG_JOIN[@]}" -- "${pre[@]}" "${envs[@]}" "$@"
	rc=$?
}

# accepted PROFILE: real, nocg or none for this MODE (probe_profiles).
accepted() {
	local v
	v=$(grep "^$MODE $1 " "$T/pol/accepted" 2>/dev/null | cut -d' ' -f3)
	echo "${v:-none}"
}

# probe_profiles: for each mode and profile, does ward accept the real
# profile ("real"), only the test copy without supervisor limits ("nocg"),
# or neither ("none": the agent-net allow-list before the network issue,
# or rootless)? One run each (status 125 is a refusal); the refusal
# messages are kept in $T/pol/refusal-MODE-PROFILE[-nocg].
probe_profiles() {
	local m p d u v slots
	d="$T/pol/probe"
	mkdir -p "$d/in" "$d/out" && chmod 755 "$d" "$d/in" && chmod 777 "$d/out"
	: >"$T/pol/accepted"
	for m in $MODES; do
		u=
		[ $m = rootless ] && u=$NOBODY
		for p in $PROFILES; do
			v=none
			for suffix in "" -nocg; do
				[ -f "$T/pol/$p$suffix.wardb" ] || continue
				CG_JOIN=()
				slots=()
				blob_slots "$T/pol/$p$suffix.wardb" | grep -qx input && slots+=(--slot input="$d/in")
				blob_slots "$T/pol/$p$suffix.wardb" | grep -qx output && slots+=(--slot output="$d/out")
				run_netted ${u:+-u $u} -t 20 -- "$WARD" "${slots[@]}" \
					"$T/pol/$p$suffix.wardb" -- /usr/bin/true \
					>/dev/null 2>"$T/pol/refusal-$m-$p$suffix"
				# (env's own message: ward itself cannot be run by this user)
				if [ "$rc" != 125 ] && [ "$rc" != 124 ] &&
					! grep -q "^env: .*$WARD" "$T/pol/refusal-$m-$p$suffix"; then
					if [ -z "$suffix" ]; then v=real; else v=nocg; fi
					break
				fi
			done
			echo "$m $p $v" >>"$T/pol/accepted"
		done
	done
	rm -rf "$d"
}

# probe_target: what the target lets a program do, per mode, into
# $T/pol/can ("MODE WHAT" lines): the interpreters it runs (python3, sh,
# bash, node: each prints a word), the probe programs from its input slot
# (probe-slot: /input/probe runs), and from its explanation a writable
# output slot (output-slot), an export section (export), a network
# allow-list (net). An attack's `# requires:` is checked against it.
probe_target() {
	local m u d b ex
	d="$T/pol/probe"
	mkdir -p "$d/in" "$d/out" && chmod 755 "$d" "$d/in" && chmod 777 "$d/out"
	cp "$T/bin/probe" "$d/in/" && chmod 755 "$d/in/probe"
	: >"$T/pol/can"
	ex=$("$WARDC" explain "$TARGET_BLOB" 2>/dev/null)
	for m in $MODES; do
		MODE=$m
		case $(accepted "$TARGET_NAME") in
		real) b="$T/pol/$TARGET_NAME.wardb" ;;
		nocg) b="$T/pol/$TARGET_NAME-nocg.wardb" ;;
		*) continue ;;
		esac
		echo "$m runs" >>"$T/pol/can"
		u=
		[ $m = rootless ] && u=$NOBODY
		slots=()
		blob_slots "$b" | grep -qx input && slots+=(--slot input="$d/in")
		blob_slots "$b" | grep -qx output && slots+=(--slot output="$d/out")
		_can() { # WHAT CMD...
			local w=$1
			shift
			CG_JOIN=()
			run_netted ${u:+-u $u} -t 20 -- "$WARD" "${slots[@]}" "$b" -- "$@" \
				>"$d/so" 2>"$d/se"
			if grep -q 'ward-attack-ok\|^ids ' "$d/so"; then
				echo "$m $w" >>"$T/pol/can"
			else
				echo "$m $w-no rc=$rc $(head -c 160 "$d/se" | tr '\n' ' ')" >>"$T/pol/can"
			fi
		}
		_can python3 /usr/bin/python3 -c 'print("ward-attack-ok")'
		_can sh /bin/sh -c 'echo ward-attack-ok'
		_can bash /bin/bash -c 'echo ward-attack-ok'
		_can node /usr/bin/node -e 'console.log("ward-attack-ok")'
		if printf '%s\n' "$ex" | grep -qE '^ +[0-9]+ +/input +slot input .*exec'; then
			_can probe-slot /input/probe ids
		else
			echo "$m probe-slot-no the policy has no slot input at /input that can run programs" >>"$T/pol/can"
		fi
		if printf '%s\n' "$ex" | grep -qE '^ +[0-9]+ +/output +slot output .*rw'; then
			echo "$m output-slot" >>"$T/pol/can"
		else
			echo "$m output-slot-no the policy has no writable slot output at /output" >>"$T/pol/can"
		fi
		if printf '%s\n' "$ex" | grep -q '^export'; then
			echo "$m export" >>"$T/pol/can"
		else
			echo "$m export-no the policy has no export section" >>"$T/pol/can"
		fi
		if printf '%s\n' "$ex" | grep -q 'egress allow-list'; then
			echo "$m net" >>"$T/pol/can"
		else
			echo "$m net-no the policy has no network allow-list ($(printf '%s\n' "$ex" | sed -n '/^network/{n;p}' | sed 's/^ *//' | cut -c1-60))" >>"$T/pol/can"
		fi
	done
	rm -rf "$d"
}

# lacks MODE REQUIREMENTS...: why the target cannot run an attack that
# requires them in MODE ("" when it can).
lacks() {
	local m=$1 r why
	shift
	for r in "$@"; do
		# ("none (why)": the attack brings its own test policy)
		[ "$r" = none ] && return 0
		grep -qx "$m $r" "$T/pol/can" && continue
		why=$(grep -m1 "^$m $r-no" "$T/pol/can" | cut -d' ' -f3-)
		case $r in
		python3 | sh | bash | node) printf 'the policy does not run %s (%s)' "$r" "$(printf '%s' "$why" | cut -c1-110)" ;;
		*) printf '%s' "${why:-the policy lacks $r}" ;;
		esac
		return 0
	done
}

# refusal MODE PROFILE: why ward refused the real profile (one line).
refusal() {
	head -n 1 "$T/pol/refusal-$1-$2" 2>/dev/null | sed 's/^ward: //' |
		sed 's/, which this launcher does not enforce yet.*/: not enforced yet/' | cut -c1-300
}
