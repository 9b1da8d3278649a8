#!/bin/sh
# tests/net/names.sh: allow rules by domain name, the DNS stub and the
# connections its answers lead to (issue 22; docs/spec.md 5.11), root and
# rootless (uid 65534). Root only (it makes network namespaces). One line
# per test: "PASS name" or "FAIL name: why".
#
# The test's own little internet, made here and removed on every path:
#
#   sbx (where ward runs) ── veth ── srv   10.78.1.2: the test's DNS server
#        10.78.1.1/24                       (tests/net/dnsserver.py), TLS on
#        169.254.0.0/16 routed there        443 (the test's CA), TCP hosts on
#                                           8443 and 8080;
#                                           10.78.1.3:443, an address no
#                                           answer gives; 169.254.169.254:443,
#                                           the "metadata server"; 10.99.0.7:443,
#                                           a private host outside the
#                                           policy's `allow answers`
#
# sbx has no default route (checked first), and its resolv.conf
# (/etc/netns/NAME/resolv.conf, which `ip netns exec` mounts) names
# 10.78.1.2: the host's resolver, as ward sees it. The zone answers
# index.test, a.files.test, meta.files.test (169.254.169.254) and other.test
# (which ward must never ask for), and logs every query and connection.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
export WARD_MAX_SANDBOXES="${WARD_MAX_SANDBOXES:-0}"
WARDC=${WARDC:-$top/$BUILD/wardc}
WARD=${WARD:-$top/$BUILD/ward}
CC=${CC:-cc}
PY=/usr/bin/python3

if [ "$(id -u)" != 0 ]; then
	echo "SKIP net-names: needs root (network namespaces)"
	exit 0
fi
id=$$
S=wnm-sbx-$id
SRV=wnm-srv-$id
T=$(mktemp -d /tmp/ward-names.XXXXXX) || exit 1
chmod 755 "$T"
bgpids=
cleanup() {
	for p in $bgpids; do kill "$p" 2>/dev/null; done
	for p in $bgpids; do wait "$p" 2>/dev/null; done
	ip netns del "$S" 2>/dev/null
	ip netns del "$SRV" 2>/dev/null
	rm -rf "/etc/netns/$S" "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
failures=0
pass() { echo "PASS net-names/$1"; }
fail() {
	echo "FAIL net-names/$1: $2"
	failures=$((failures + 1))
}

# ------------------------------------------------------------ tools
mkdir -p "$T/tools" "$T/rep" && chmod 755 "$T/tools" && chmod 777 "$T/rep"
if ! "$CC" -O2 -Wall -Werror -o "$T/tools/nameprobe" "$top/tests/net/nameprobe.c" 2>"$T/cc.log"; then
	fail build/nameprobe "$(head -c 300 "$T/cc.log")"
	exit 1
fi
chmod 755 "$T/tools/nameprobe"
cp "$top/tests/net/tlsprobe.py" "$top/tests/net/dnsflood.py" "$T/tools/" &&
	chmod 644 "$T/tools/tlsprobe.py" "$T/tools/dnsflood.py"
# The test's CA and its servers' certificate (every name of the zone).
if ! (cd "$T/tools" &&
	openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem \
		-days 2 -subj /CN=ward-names-test-ca &&
	openssl req -newkey rsa:2048 -nodes -keyout srv.key -out srv.csr \
		-subj /CN=index.test &&
	printf 'subjectAltName=DNS:index.test,DNS:*.files.test,DNS:other.test\n' >srv.ext &&
	openssl x509 -req -in srv.csr -CA ca.pem -CAkey ca.key -CAcreateserial \
		-days 2 -extfile srv.ext -out srv.pem) >"$T/cc.log" 2>&1; then
	fail build/certificates "$(head -c 300 "$T/cc.log")"
	exit 1
fi
chmod 644 "$T/tools/ca.pem"
export TLS_CERT="$T/tools/srv.pem" TLS_KEY="$T/tools/srv.key"
if ! "$WARDC" compile -I "$top/stdlib-policies" "$top/tests/net/names.ward" \
	-o "$T/names.wardb" 2>"$T/cc.log"; then
	fail build/policy "$(head -c 300 "$T/cc.log")"
	exit 1
fi
chmod 644 "$T/names.wardb"
# The same policy opening all of 10/8 to answers (the control of the
# private answer below), one opening none (the test's own 10.78.1.2
# refused then), and one for a session (its Python driver asks FIONREAD of
# its pipes, as the python profile allows).
sed 's|allow answers 10.78.1.0/24;|allow answers 10.0.0.0/8;|' "$top/tests/net/names.ward" >"$T/names-10.ward"
sed '/allow answers/d' "$top/tests/net/names.ward" >"$T/names-none.ward"
sed 's/allow ioctl if request == TCGETS || request == FIONBIO;/allow ioctl if request == TCGETS || request == FIONBIO || request == FIONREAD;/' \
	"$top/tests/net/names.ward" >"$T/names-session.ward"
for v in 10 none session; do
	if ! grep -q "allow answers 10.0.0.0/8" "$T/names-10.ward" ||
		grep -q "allow answers" "$T/names-none.ward" ||
		! grep -q "FIONREAD" "$T/names-session.ward" ||
		! "$WARDC" compile -I "$top/stdlib-policies" "$T/names-$v.ward" \
			-o "$T/names-$v.wardb" 2>"$T/cc.log"; then
		fail build/policy-$v "$(head -c 300 "$T/cc.log")"
		exit 1
	fi
	chmod 644 "$T/names-$v.wardb"
done

# ------------------------------------------------------------ the internet
setup_net() {
	ip netns add "$S" && ip netns add "$SRV" &&
		ip -n "$S" link set lo up && ip -n "$SRV" link set lo up &&
		ip -n "$S" link add v-srv type veth peer name eth0 netns "$SRV" &&
		ip -n "$S" addr add 10.78.1.1/24 dev v-srv &&
		ip -n "$SRV" addr add 10.78.1.2/24 dev eth0 &&
		ip -n "$SRV" addr add 10.78.1.3/24 dev eth0 &&
		ip -n "$SRV" addr add 169.254.169.254/16 dev eth0 &&
		ip -n "$S" link set v-srv up && ip -n "$SRV" link set eth0 up &&
		ip -n "$S" route add 169.254.0.0/16 dev v-srv &&
		ip -n "$SRV" addr add 10.99.0.7/32 dev eth0 &&
		ip -n "$S" route add 10.99.0.7/32 dev v-srv
}
if ! setup_net 2>"$T/ip.log"; then
	fail setup/namespaces "$(head -c 300 "$T/ip.log")"
	exit 1
fi
for a in 1.1.1.1 10.0.0.1 192.168.1.1 172.16.0.1 2001:4860:4860::8888; do
	if ip netns exec "$S" ip route get "$a" >/dev/null 2>&1; then
		fail setup/isolated "sbx routes $a: stopping before any test"
		exit 1
	fi
done
pass setup/isolated
mkdir -p "/etc/netns/$S" && echo "nameserver 10.78.1.2" >"/etc/netns/$S/resolv.conf"

ZONE=index.test=10.78.1.2,files.test=10.78.1.2,evilfiles.test=10.78.1.2,a.files.test.evil.test=10.78.1.2,a.files.test=10.78.1.2,meta.files.test=169.254.169.254,private.files.test=10.99.0.7,other.test=10.78.1.2,brief.files.test=10.78.1.2/0
ip netns exec "$SRV" "$PY" "$top/tests/net/dnsserver.py" "$T/srv.log" "$T/srv.ready" \
	10.78.1.2 "$ZONE" tls:10.78.1.2:443 10.78.1.2:80 10.78.1.2:8443 10.78.1.2:8080 \
	10.78.1.3:443 169.254.169.254:443 tls:10.99.0.7:443 2>"$T/srv.err" &
bgpids="$bgpids $!"
i=0
while [ ! -f "$T/srv.ready" ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
if [ ! -f "$T/srv.ready" ]; then
	fail setup/servers "not ready: $(head -c 300 "$T/srv.err")"
	exit 1
fi

nrep=0
rep=
# run MODE PROG ARGS...: one run of ward in sbx; its report in $rep
# (chosen before, by newrep: run is called in $(...)).
newrep() {
	nrep=$((nrep + 1))
	rep=$T/rep/w$nrep.json
}
blob=$T/names.wardb
run() {
	m=$1
	shift
	if [ "$m" = root ]; then
		ip netns exec "$S" timeout 30 "$WARD" --report "$rep" \
			--slot tools="$T/tools" "$blob" -- "$@"
	else
		ip netns exec "$S" timeout 30 setpriv --reuid=65534 --regid=65534 \
			--clear-groups "$WARD" --report "$rep" \
			--slot tools="$T/tools" "$blob" -- "$@"
	fi
}
in_report() {
	"$PY" -c "import json,sys; r=json.load(open(sys.argv[1])); sys.exit(0 if ($1) else 1)" "$rep" 2>/dev/null
}
query() { # NAME TYPE VERDICT: a query of the report's
	echo "any(q['name'] == '$1' and q['type'] == '$2' and q['verdict'] == '$3' for q in r['network']['dns'])"
}
# seen PATTERN: lines of the servers' log since the mark
mark() { n_log=$(wc -l <"$T/srv.log"); }
seen() { tail -n +$((n_log + 1)) "$T/srv.log" | grep -c -- "$1"; }

for m in root rootless; do
	# An allowed name resolves (through the stub, which asks the test's
	# server) and connects, exact and by wildcard.
	TLS="/usr/bin/python3 /tools/tlsprobe.py /tools/ca.pem"
	# An allowed name resolves (through the stub, which asks the test's
	# server) and connects, exact and by wildcard, relayed (443, TLS):
	# its server name, bytes each way and end on the record.
	for name in index.test a.files.test; do
		mark
		newrep
		out=$(run $m $TLS $name 443 $name 2>"$T/w.err")
		if [ "$out" = "ok 10.78.1.2 hello 10.78.1.2" ] &&
			[ "$(seen "tls 10.78.1.2:443 $name")" = 1 ] &&
			[ "$(seen "query $name 1 10.78.1.1")" -ge 1 ] &&
			in_report "$(query $name A answered) and any(q['addresses'] == ['10.78.1.2'] for q in r['network']['dns']) and any(a['verdict'] == 'allowed' and a['address'] == '10.78.1.2' and a['port'] == 443 and a['name'] == '$name' and a['relay']['server_name'] == '$name' and a['relay']['ended'] == 'closed' and a['relay']['sent'] > 200 and a['relay']['received'] > 200 for a in r['network']['attempts'])"; then
			pass $m/allowed/$name
		else
			fail $m/allowed/$name "got '$out' ($(head -c 300 "$T/w.err")), log: $(tail -n +$((n_log + 1)) "$T/srv.log" | tr '\n' ';') $(grep -o '"relay": [^}]*}' "$rep")"
		fi
	done

	# Fronting: another name's server through an allowed name's address,
	# and no server name at all: refused before the server hears of it.
	for sni in other.test -; do
		mark
		newrep
		out=$(run $m $TLS index.test 443 $sni 2>"$T/w.err")
		want="refused: another name's server"
		[ "$sni" = - ] && want="refused: no server name"
		if [ "${out%% *}" = refused ] && [ "$(seen "accept 10.78.1.2:443")" = 0 ] &&
			in_report "any(a['verdict'] == 'refused' and a['relay'] and a['relay']['ended'] == \"$want\" and a['relay']['sent'] == 0 for a in r['network']['attempts'])"; then
			pass $m/sni-refused/$sni
		else
			fail $m/sni-refused/$sni "got '$out', accepted $(seen "accept 10.78.1.2:443"), $(grep -o '"relay": [^}]*}' "$rep")"
		fi
	done

	# The same refusal as a cell of a session: in that cell's denials.
	if [ $m = root ]; then
		out=$(ip netns exec "$S" timeout 60 "$PY" "$top/tests/net/names_session.py" "$WARD" "$T/names-session.wardb" "$T/tools" 2>"$T/w.err")
	else
		out=$(ip netns exec "$S" timeout 60 setpriv --reuid=65534 --regid=65534 --clear-groups \
			env -u XDG_RUNTIME_DIR "$PY" "$top/tests/net/names_session.py" "$WARD" "$T/names-session.wardb" "$T/tools" 2>"$T/w.err")
	fi
	if [ "$out" = ok ]; then
		pass $m/sni-refused-cell-denial
	else
		fail $m/sni-refused-cell-denial "$out $(head -c 300 "$T/w.err")"
	fi

	# Plain HTTP on a name rule's port 80: the Host is checked the same way.
	for host in index.test other.test; do
		mark
		newrep
		out=$(run $m $TLS index.test 80 http:$host 2>"$T/w.err")
		if [ $host = index.test ]; then
			[ "$out" = "ok 10.78.1.2 hello 10.78.1.2" ] &&
				in_report "any(a['relay'] and a['relay']['server_name'] == 'index.test' and a['relay']['ended'] == 'closed' for a in r['network']['attempts'])"
		else
			[ "${out%% *}" = refused ] && [ "$(seen "accept 10.78.1.2:80")" = 0 ] &&
				in_report "any(a['relay'] and a['relay']['server_name'] == 'other.test' and a['relay']['ended'] == \"refused: another name's server\" for a in r['network']['attempts'])"
		fi
		if [ $? = 0 ]; then
			pass $m/http-host/$host
		else
			fail $m/http-host/$host "got '$out' ($(head -c 300 "$T/w.err")) $(grep -o '"relay": [^}]*}' "$rep")"
		fi
	done

	# A ClientHello written 40 bytes at a time: still read whole.
	mark
	newrep
	out=$(run $m $TLS index.test 443 index.test 40 2>"$T/w.err")
	if [ "$out" = "ok 10.78.1.2 hello 10.78.1.2" ] && [ "$(seen "tls 10.78.1.2:443 index.test")" = 1 ]; then
		pass $m/split-client-hello
	else
		fail $m/split-client-hello "got '$out' ($(head -c 300 "$T/w.err"))"
	fi

	# other.test: no address, on the record, never asked of the server.
	mark
	newrep
	out=$(run $m /tools/nameprobe resolve other.test 2>"$T/w.err")
	if [ "$out" = "noaddr EAI_NONAME" ] && [ "$(seen "query other.test")" = 0 ] &&
		in_report "$(query other.test A refused)"; then
		pass $m/other-name-no-address
	else
		fail $m/other-name-no-address "got '$out', server asked $(seen "query other.test") times"
	fi

	# An address no answer gave: refused, no packet reached it.
	mark
	newrep
	out=$(run $m /bin/sh -c "/tools/nameprobe resolve index.test >/dev/null; /tools/nameprobe connectip 10.78.1.3 443" 2>"$T/w.err")
	if [ "$out" = "refused EPERM" ] && [ "$(seen "accept 10.78.1.3")" = 0 ]; then
		pass $m/unanswered-address-refused
	else
		fail $m/unanswered-address-refused "got '$out', accepted $(seen "accept 10.78.1.3")"
	fi

	# An allowed name's address on a port its rule does not name.
	mark
	newrep
	out=$(run $m /tools/nameprobe connect index.test 8443 2>"$T/w.err")
	if [ "$out" = "refused EPERM" ] && [ "$(seen "accept 10.78.1.2:8443")" = 0 ]; then
		pass $m/name-other-port-refused
	else
		fail $m/name-other-port-refused "got '$out'"
	fi

	# A literal rule keeps working beside the names.
	newrep
	out=$(run $m /tools/nameprobe connectip 10.78.1.2 8080 2>"$T/w.err")
	if [ "$out" = "ok 10.78.1.2 hello 10.78.1.2" ]; then
		pass $m/literal-rule
	else
		fail $m/literal-rule "got '$out' ($(head -c 300 "$T/w.err"))"
	fi

	# A query sent straight to the test's DNS server: refused.
	mark
	newrep
	out=$(run $m /tools/nameprobe rawdns 10.78.1.2 index.test 2>"$T/w.err")
	if [ "$out" = "noanswer EPERM" ] && [ "$(seen "query index.test")" = 0 ]; then
		pass $m/direct-dns-refused
	else
		fail $m/direct-dns-refused "got '$out', server saw $(seen "query index.test")"
	fi

	# An answer naming the metadata address: not passed back, never
	# reachable (not even after the answer, by address).
	mark
	newrep
	out=$(run $m /bin/sh -c "/tools/nameprobe resolve meta.files.test; /tools/nameprobe connectip 169.254.169.254 443" 2>"$T/w.err")
	if [ "$(echo $out)" = "noaddr EAI_NODATA refused EPERM" ] &&
		[ "$(seen "accept 169.254.169.254")" = 0 ] &&
		in_report "any(q['name'] == 'meta.files.test' and q['blocked'] == ['169.254.169.254'] and q['addresses'] == [] for q in r['network']['dns'])"; then
		pass $m/metadata-answer-not-reachable
	else
		fail $m/metadata-answer-not-reachable "got '$(echo $out)', accepted $(seen "accept 169.254.169.254")"
	fi

	# An answer naming a private address (10.99.0.7, in 10/8 but outside
	# the policy's `allow answers 10.78.1.0/24`): not passed back, never
	# reachable. Control: the same under a policy opening all of 10/8
	# reaches it (so the refusal is the refused range's, not the world's).
	for v in 24 10; do
		[ $v = 10 ] && blob=$T/names-10.wardb
		mark
		newrep
		# (the connect after a refusal by address: a TLS probe's
		# refusal prints Python's words, the control needs its TLS)
		probe="/tools/nameprobe connectip 10.99.0.7 443"
		[ $v = 10 ] && probe="$TLS 10.99.0.7 443 private.files.test"
		out=$(run $m /bin/sh -c "/tools/nameprobe resolve private.files.test; $probe" 2>"$T/w.err")
		blob=$T/names.wardb
		if [ $v = 24 ]; then
			[ "$(echo $out)" = "noaddr EAI_NODATA refused EPERM" ] &&
				[ "$(seen "accept 10.99.0.7")" = 0 ] &&
				in_report "any(q['name'] == 'private.files.test' and q['blocked'] == ['10.99.0.7'] and q['addresses'] == [] for q in r['network']['dns']) and any(a['verdict'] == 'refused' and a['address'] == '10.99.0.7' for a in r['network']['attempts'])"
		else
			[ "$(echo $out)" = "addr 10.99.0.7 ok 10.99.0.7 hello 10.99.0.7" ] &&
				[ "$(seen "tls 10.99.0.7:443 private.files.test")" = 1 ]
		fi
		if [ $? = 0 ]; then
			pass $m/private-answer-not-reachable/$v
		else
			fail $m/private-answer-not-reachable/$v "got '$(echo $out)' ($(head -c 200 "$T/w.err")), accepted $(seen "accept 10.99.0.7"), $(grep -o '"dns": [^]]*]' "$rep" | head -c 300)"
		fi
	done

	# Without `allow answers` the test's own 10.78.1.2 is private too.
	blob=$T/names-none.wardb
	newrep
	out=$(run $m /tools/nameprobe resolve index.test 2>"$T/w.err")
	blob=$T/names.wardb
	if [ "$out" = "noaddr EAI_NODATA" ] &&
		in_report "any(q['name'] == 'index.test' and q['blocked'] == ['10.78.1.2'] for q in r['network']['dns'])"; then
		pass $m/private-refused-by-default
	else
		fail $m/private-refused-by-default "got '$out'"
	fi

	# Repeated queries are counted, with their first time.
	newrep
	run $m /bin/sh -c "/tools/nameprobe resolve index.test; /tools/nameprobe resolve index.test" >/dev/null 2>&1
	if in_report "any(q['name'] == 'index.test' and q['type'] == 'A' and q['count'] >= 2 and q['first'] for q in r['network']['dns']) and r['network']['dns_dropped'] == 0"; then
		pass $m/queries-counted
	else
		fail $m/queries-counted "$(grep -o '"dns": [^]]*]' "$rep" | head -c 300)"
	fi
done

# getaddrinfo(AF_UNSPEC) asks A and AAAA at once on one socket: both
# answered (AAAA empty here), both on the record.
newrep
out=$(run rootless getent ahosts index.test 2>"$T/w.err" | awk '{print $1}' | sort -u | tr '\n' ' ')
if [ "$out" = "10.78.1.2 " ] && in_report "$(query index.test A answered) and $(query index.test AAAA answered)"; then
	pass rootless/a-and-aaaa
else
	fail rootless/a-and-aaaa "got '$out' ($(head -c 200 "$T/w.err"))"
fi

# A name asked in another case, with the root's dot: the same name.
newrep
out=$(run rootless $TLS INDEX.Test. 443 index.test 2>"$T/w.err")
if [ "$out" = "ok 10.78.1.2 hello 10.78.1.2" ] && in_report "$(query index.test A answered)"; then
	pass rootless/case-and-dot
else
	fail rootless/case-and-dot "got '$out'"
fi

# A wildcard that would match too much: *.files.test covers names under
# files.test only, not files.test itself, not a name that merely ends in
# "files.test", not one that has it in the middle. The server would answer
# each; the stub asks it none.
mark
newrep
out=$(run rootless /bin/sh -c 'for n in files.test evilfiles.test a.files.test.evil.test; do /tools/nameprobe resolve $n; done' 2>"$T/w.err")
if [ "$(echo $out)" = "noaddr EAI_NONAME noaddr EAI_NONAME noaddr EAI_NONAME" ] &&
	[ "$(seen "files.test")" = 0 ] &&
	in_report "$(query files.test A refused) and $(query evilfiles.test A refused) and $(query a.files.test.evil.test A refused)"; then
	pass rootless/wildcard-matches-no-more
else
	fail rootless/wildcard-matches-no-more "got '$(echo $out)', server asked $(seen "files.test")"
fi

# A flood of names: every query answered (NXDOMAIN), the record capped at
# 64 entries and the rest counted, the test's server asked for none.
mark
newrep
out=$(run rootless /bin/sh -c 'i=0; while [ $i -lt 80 ]; do /tools/nameprobe resolve n$i.flood.test; i=$((i + 1)); done' 2>"$T/w.err" | grep -c "noaddr EAI_NONAME")
if [ "$out" = 80 ] && [ "$(seen "flood.test")" = 0 ] &&
	in_report "len(r['network']['dns']) == 64 and r['network']['dns_dropped'] >= 16"; then
	pass rootless/query-flood-capped
else
	fail rootless/query-flood-capped "$out answered, $(grep -o '"dns_dropped": [0-9]*' "$rep")"
fi

# A flood from one process, as fast as it can send: bounded (the run ends
# in its time, the record stays at 64 entries and counts the rest, nothing
# reaches the test's server) and the stub still answers after it.
mark
newrep
t0=$(date +%s)
out=$(run rootless /usr/bin/python3 /tools/dnsflood.py 20000 2>"$T/w.err")
t1=$(date +%s)
set -- $out
if [ "${1:-}" = sent ] && [ "${2:-0}" -ge 1000 ] && [ "${4:-0}" -ge 1000 ] &&
	[ "${5:-}" = 10.78.1.2 ] && [ $((t1 - t0)) -lt 25 ] && [ "$(seen "flood.test")" = 0 ] &&
	in_report "len(r['network']['dns']) == 64 and r['network']['dns_dropped'] >= 900"; then
	pass "rootless/query-flood-one-process ($(echo $out))"
else
	fail rootless/query-flood-one-process "got '$out' in $((t1 - t0)) s ($(head -c 200 "$T/w.err")), $(grep -o '"dns_dropped": [0-9]*' "$rep")"
fi

# The TTL: an answer of TTL 0 serves for the floor (5 s), then the address
# is no longer reachable by that answer.
mark
newrep
out=$(run rootless /bin/sh -c "/tools/nameprobe resolve brief.files.test >/dev/null; $TLS 10.78.1.2 443 brief.files.test; sleep 6; /tools/nameprobe connectip 10.78.1.2 443" 2>"$T/w.err")
if [ "$(echo $out)" = "ok 10.78.1.2 hello 10.78.1.2 refused EPERM" ]; then
	pass rootless/ttl-expires
else
	fail rootless/ttl-expires "got '$(echo $out)'"
fi

[ "$failures" = 0 ]
