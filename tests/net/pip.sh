#!/bin/sh
# tests/net/pip.sh: `pip install` through names (issue 22's first "done
# when"), root and rootless (uid 65534), under the stdlib's pip-install
# profile compiled for the test's index: index.test, its files on
# *.files.test (docs/stdlib.md). Root only (it makes network namespaces).
# One line per test: "PASS name" or "FAIL name: why".
#
# The test's own little internet, made here and removed on every path:
#
#   sbx (where ward runs) ── veth ── srv   203.0.113.2: the test's DNS server
#        203.0.113.1/24                       (tests/net/dnsserver.py) and
#                                           index.test's HTTPS (the simple
#                                           index, tests/net/pypi.py);
#                                           203.0.113.4: dl.files.test's HTTPS
#                                           (the wheel);
#                                           203.0.113.5: an HTTP CONNECT proxy
#                                           (tests/net/connectproxy.py, for
#                                           ward --upstream-proxy), whose
#                                           own map sends index.test to
#                                           203.0.113.6 and dl.files.test to
#                                           203.0.113.7 (the same servers on
#                                           other addresses: a request seen
#                                           there came through the proxy)
#
# The addresses are TEST-NET-3's (RFC 5737), inside these namespaces only:
# the profile, like every policy without `allow answers`, refuses a DNS
# answer in a private range (docs/spec.md 5.11), so 10.x would fail here.
# sbx has no default route (checked first); its resolv.conf names
# 203.0.113.2. The certificates are the test CA's, made here; pip is given
# the CA with --cert, a file of the read-only input slot. The package is a
# pure-python wheel built here (tests/net/pypi.py wheel), never fetched.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
export WARD_MAX_SANDBOXES="${WARD_MAX_SANDBOXES:-0}"
WARDC=${WARDC:-$top/$BUILD/wardc}
WARD=${WARD:-$top/$BUILD/ward}
PY=/usr/bin/python3

if [ "$(id -u)" != 0 ]; then
	echo "SKIP net-pip: needs root (network namespaces)"
	exit 0
fi
if ! "$PY" -m pip --version >/dev/null 2>&1; then
	echo "FAIL net-pip/setup: Debian's python3-pip is not installed (make deps)"
	exit 1
fi
id=$$
S=wnp-sbx-$id
SRV=wnp-srv-$id
T=$(mktemp -d /tmp/ward-pip.XXXXXX) || exit 1
chmod 755 "$T"
bgpids=
CG_MADE=
cleanup() {
	for p in $bgpids; do kill "$p" 2>/dev/null; done
	for p in $bgpids; do wait "$p" 2>/dev/null; done
	ip netns del "$S" 2>/dev/null
	ip netns del "$SRV" 2>/dev/null
	for d in $CG_MADE; do
		for _ in 1 2 3 4 5; do
			find "$d" -depth -type d -exec rmdir {} + 2>/dev/null
			[ -d "$d" ] || break
			sleep 0.2
		done
	done
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
failures=0
pass() { echo "PASS net-pip/$1"; }
fail() {
	echo "FAIL net-pip/$1: $2"
	failures=$((failures + 1))
}

# ------------------------------------------------------------ what is served
mkdir -p "$T/in" "$T/wheels" "$T/rep" && chmod 755 "$T/in" "$T/wheels" && chmod 777 "$T/rep"
if ! whl=$("$PY" "$top/tests/net/pypi.py" wheel "$T/wheels" wardpkg 0.1 2>"$T/cc.log"); then
	fail build/wheel "$(head -c 300 "$T/cc.log")"
	exit 1
fi
if ! (cd "$T" &&
	openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out in/ca.pem \
		-days 2 -subj /CN=ward-pip-test-ca &&
	openssl req -newkey rsa:2048 -nodes -keyout srv.key -out srv.csr \
		-subj /CN=index.test &&
	printf 'subjectAltName=DNS:index.test,DNS:*.files.test\n' >srv.ext &&
	openssl x509 -req -in srv.csr -CA in/ca.pem -CAkey ca.key -CAcreateserial \
		-days 2 -extfile srv.ext -out srv.pem) >"$T/cc.log" 2>&1; then
	fail build/certificates "$(head -c 300 "$T/cc.log")"
	exit 1
fi
chmod 644 "$T/in/ca.pem"
# The stdlib profile, as a user compiles it for an index of their own.
if ! "$WARDC" compile -I "$top/stdlib-policies" -D pip_index=index.test \
	-D 'pip_files=*.files.test' "$top/stdlib-policies/pip-install.ward" \
	-o "$T/pip.wardb" 2>"$T/cc.log"; then
	fail build/policy "$(head -c 300 "$T/cc.log")"
	exit 1
fi
chmod 644 "$T/pip.wardb"

# ------------------------------------------------------------ the internet
setup_net() {
	ip netns add "$S" && ip netns add "$SRV" &&
		ip -n "$S" link set lo up && ip -n "$SRV" link set lo up &&
		ip -n "$S" link add v-srv type veth peer name eth0 netns "$SRV" &&
		ip -n "$S" addr add 203.0.113.1/24 dev v-srv &&
		ip -n "$SRV" addr add 203.0.113.2/24 dev eth0 &&
		ip -n "$SRV" addr add 203.0.113.4/24 dev eth0 &&
		ip -n "$SRV" addr add 203.0.113.5/24 dev eth0 &&
		ip -n "$SRV" addr add 203.0.113.6/24 dev eth0 &&
		ip -n "$SRV" addr add 203.0.113.7/24 dev eth0 &&
		ip -n "$S" link set v-srv up && ip -n "$SRV" link set eth0 up
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
echo "nameserver 203.0.113.2" >"$T/resolv.conf" && chmod 644 "$T/resolv.conf"
# A host without DNS for the outside (the upstream proxy's runs): its
# resolver is an address where nothing answers.
echo "nameserver 203.0.113.99" >"$T/resolv-none.conf" && chmod 644 "$T/resolv-none.conf"

# The profile's limits need cgroups (memory, pids, cpu). Root-mode ward
# makes its own; rootless ward is given a base delegated to 65534 here
# (what an administrator does, docs/spec.md 4.1), below which it makes its
# runs', removed at the end. (`ip netns exec` would mount a sysfs of the
# namespace's, without the host's cgroups: ward runs under nsenter --net,
# with the test's resolv.conf bound in a mount namespace of its own.)
# in_sbx CMD...: CMD in sbx, the test's resolv.conf ($RESOLV: another)
# its /etc/resolv.conf.
in_sbx() {
	nsenter --net=/run/netns/"$S" unshare -m sh -c \
		'mount --bind "$1" /etc/resolv.conf && shift && exec "$@"' - "${RESOLV:-$T/resolv.conf}" "$@"
}
CGB=
cgmnt() { # CONTROLLER: the mount point of its v1 hierarchy, or of cgroup2
	awk -v c="$1" '{ for (i = 7; i < NF && $i != "-"; i++) ; }
		$(i + 1) == "cgroup" && $NF ~ "(^|,)" c "(,|$)" { print $5; exit }' /proc/self/mountinfo
}
if [ -n "$(cgmnt memory)" ]; then
	CGB=/ward-pip-test-$id
	for c in memory pids cpu; do
		d=$(cgmnt $c)$CGB
		[ -n "$(cgmnt $c)" ] && mkdir "$d" && CG_MADE="$CG_MADE $d" &&
			chown -R 65534:65534 "$d" || {
			fail setup/cgroups "cannot make $d"
			exit 1
		}
	done
elif [ -f /sys/fs/cgroup/cgroup.controllers ]; then
	CGB=/ward-pip-test-$id
	d=/sys/fs/cgroup$CGB
	mkdir "$d" && CG_MADE="$CG_MADE $d" && chown -R 65534:65534 "$d" || {
		fail setup/cgroups "cannot make $d"
		exit 1
	}
fi

ZONE=index.test=203.0.113.2,dl.files.test=203.0.113.4,other.test=203.0.113.2
ip netns exec "$SRV" "$PY" "$top/tests/net/dnsserver.py" "$T/srv.log" "$T/dns.ready" \
	203.0.113.2 "$ZONE" 2>"$T/dns.err" &
bgpids="$bgpids $!"
ip netns exec "$SRV" "$PY" "$top/tests/net/pypi.py" serve "$T/srv.log" "$T/web.ready" \
	"$T/srv.pem" "$T/srv.key" "$T/wheels" index.test dl.files.test \
	203.0.113.2 203.0.113.4 203.0.113.6 203.0.113.7 2>"$T/web.err" &
bgpids="$bgpids $!"
ip netns exec "$SRV" "$PY" "$top/tests/net/connectproxy.py" "$T/srv.log" "$T/proxy.ready" \
	index.test=203.0.113.6,dl.files.test=203.0.113.7 203.0.113.5:3128:ok \
	203.0.113.5:3129:deny=dl.files.test 203.0.113.5:3130:garbage 203.0.113.5:3131:slow \
	2>"$T/proxy.err" &
bgpids="$bgpids $!"
i=0
while { [ ! -f "$T/dns.ready" ] || [ ! -f "$T/web.ready" ] || [ ! -f "$T/proxy.ready" ]; } && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
if [ ! -f "$T/dns.ready" ] || [ ! -f "$T/web.ready" ] || [ ! -f "$T/proxy.ready" ]; then
	fail setup/servers "not ready: $(head -c 300 "$T/dns.err") $(head -c 300 "$T/web.err") $(head -c 300 "$T/proxy.err")"
	exit 1
fi

# Control: the servers answer pip outside any sandbox (in sbx, asking the
# test's DNS server directly): what the sandbox does below can fail only
# because of the sandbox.
ctl=$T/ctl-site
if in_sbx env -i PATH=/usr/bin:/bin HOME="$T" PIP_CONFIG_FILE=/dev/null "$PY" -m pip install --disable-pip-version-check --no-input \
	--no-cache-dir --cert "$T/in/ca.pem" --index-url https://index.test/simple/ \
	--target "$ctl" wardpkg >"$T/ctl.log" 2>&1 &&
	[ -f "$ctl/wardpkg/__init__.py" ]; then
	pass control/pip-outside-ward
else
	fail control/pip-outside-ward "$(tail -c 400 "$T/ctl.log")"
fi

mark() { n_log=$(wc -l <"$T/srv.log"); }
seen() { tail -n +$((n_log + 1)) "$T/srv.log" | grep -c -- "$1"; }
in_report() {
	"$PY" -c "import json,sys; r=json.load(open(sys.argv[1])); sys.exit(0 if ($1) else 1)" "$rep" 2>/dev/null
}
# summary: the report's queries and connections, in a line.
summary() {
	"$PY" -c "import json,sys; n=json.load(open(sys.argv[1]))['network']
print('; '.join(['%s %s %s %s' % (q['name'], q['type'], q['verdict'], ','.join(q['addresses'])) for q in n['dns']] + ['%s %s:%s %s sni %s sent %d received %d %s' % (a['verdict'], a['address'], a['port'], a['name'], a['relay']['server_name'], a['relay']['sent'], a['relay']['received'], a['relay']['ended']) for a in n['attempts'] if a['relay']]))" "$rep" 2>&1
}
# run MODE SITE ARGS...: ward in sbx under the pip-install profile, the
# report in $rep, the input slot $T/in, the site slot SITE.
run() {
	m=$1 site=$2
	shift 2
	# (WARGS: more options of ward's, words without spaces)
	# shellcheck disable=SC2086
	set -- "$WARD" --report "$rep" ${WARGS:-} --slot input="$T/in" --slot site="$site" \
		"$T/pip.wardb" -- "$@"
	if [ "$m" = root ]; then
		in_sbx env -i PATH=/usr/bin:/bin timeout 150 "$@"
	else
		shift
		in_sbx env -i PATH=/usr/bin:/bin timeout 150 setpriv --reuid=65534 --regid=65534 \
			--clear-groups "$WARD" ${CGB:+--cgroup-base "$CGB"} "$@"
	fi
}
PIP="/usr/bin/python3 -m pip install --cert /input/ca.pem --index-url https://index.test/simple/ --target /site"

for m in root rootless; do
	site=$T/site-$m
	mkdir -p "$site" && chmod 777 "$site"
	rep=$T/rep/$m.json
	mark
	run $m "$site" /bin/sh -c "$PIP wardpkg && PYTHONPATH=/site /usr/bin/python3 -c 'import wardpkg; print(wardpkg.GREETING)'" \
		>"$T/w.out" 2>"$T/w.err"
	rc=$?
	# What pip fetched: the project's page from the index, the wheel from
	# the file host, each over TLS with its own server name.
	if [ $rc = 0 ] && [ "$(tail -n 1 "$T/w.out")" = "hello from wardpkg 0.1" ] &&
		[ -f "$site/wardpkg/__init__.py" ] &&
		[ "$(seen "get 203.0.113.2 index.test /simple/wardpkg/ 200")" -ge 1 ] &&
		[ "$(seen "get 203.0.113.4 dl.files.test /packages/$whl 200")" = 1 ] &&
		[ "$(seen "tls 203.0.113.4 dl.files.test")" -ge 1 ]; then
		pass $m/pip-install
	else
		fail $m/pip-install "rc $rc, out '$(tail -c 200 "$T/w.out")', err '$(tail -c 600 "$T/w.err")', log: $(tail -n +$((n_log + 1)) "$T/srv.log" | tr '\n' ';')"
	fi
	# The report: both names asked and answered with their addresses, and
	# each connection with its name, server name, bytes each way and end.
	if in_report "any(q['name'] == 'index.test' and q['type'] == 'A' and q['verdict'] == 'answered' and q['addresses'] == ['203.0.113.2'] for q in r['network']['dns']) and any(q['name'] == 'dl.files.test' and q['type'] == 'A' and q['verdict'] == 'answered' and q['addresses'] == ['203.0.113.4'] for q in r['network']['dns']) and any(a['verdict'] == 'allowed' and a['address'] == '203.0.113.2' and a['port'] == 443 and a['name'] == 'index.test' and a['relay']['server_name'] == 'index.test' and a['relay']['sent'] > 200 and a['relay']['received'] > 500 and a['relay']['ended'] == 'closed' for a in r['network']['attempts']) and any(a['verdict'] == 'allowed' and a['address'] == '203.0.113.4' and a['port'] == 443 and a['name'] == 'dl.files.test' and a['relay']['server_name'] == 'dl.files.test' and a['relay']['received'] > 1000 and a['relay']['ended'] == 'closed' for a in r['network']['attempts']) and all(a['verdict'] == 'allowed' or (a['verdict'] == 'local' and a['address'] == '127.0.0.53' and a['port'] == 53) for a in r['network']['attempts'])"; then
		pass "$m/report-queries-and-connections ($(summary))"
	else
		fail $m/report-queries-and-connections "$("$PY" -c "import json,sys; n=json.load(open(sys.argv[1]))['network']; print(json.dumps({'dns': n['dns'], 'attempts': n['attempts']}))" "$rep" 2>&1 | head -c 1500)"
	fi
done

# The profile refuses everything else: another name gets no address (and
# the test's server is never asked), and an index on another host cannot
# be used even by address.
for m in root rootless; do
	rep=$T/rep/$m-other.json
	mark
	out=$(run $m "$T/site-$m" /bin/sh -c "/usr/bin/python3 -m pip install --cert /input/ca.pem --index-url https://other.test/simple/ --target /site --retries 0 --timeout 5 wardpkg >/dev/null 2>&1; echo pip \$?; /usr/bin/python3 -c 'import socket
try:
    socket.create_connection((\"203.0.113.2\", 8443), timeout=5); print(\"connected\")
except OSError as e:
    print(\"refused\", e.errno)'" 2>"$T/w.err")
	if [ "$(echo $out)" = "pip 1 refused 1" ] && [ "$(seen "other.test")" = 0 ] &&
		in_report "any(q['name'] == 'other.test' and q['verdict'] == 'refused' for q in r['network']['dns'])"; then
		pass $m/other-index-refused
	else
		fail $m/other-index-refused "got '$(echo $out)', server saw other.test $(seen "other.test") times ($(head -c 300 "$T/w.err"))"
	fi
done

# ------------------------------------------------------------ upstream proxy
# ward --upstream-proxy: the broker asks the proxy for `CONNECT name:443`
# (the name judged from the ClientHello) instead of connecting to the
# address; the proxy's reply is read strictly and only a 2xx opens the
# tunnel. The proxy sends the names to other addresses of the same servers
# (203.0.113.6, .7) than the test's DNS gives (203.0.113.2, .4): a request
# served there came through the proxy, not straight from the broker.
# These runs are on a host without DNS (RESOLV: a resolver that does not
# exist): the stub answers the allowed names itself, with addresses of
# 198.18.0.0/15, and asks nobody (docs/spec.md 5.11).
RESOLV=$T/resolv-none.conf
proxied() { # the report's relayed connections: name status ended
	"$PY" -c "import json,sys; n=json.load(open(sys.argv[1]))['network']
print(n['upstream_proxy'], '; '.join('%s %s %s' % (a['relay']['server_name'], a['relay'].get('proxy_status', 'absent'), a['relay']['ended']) for a in n['attempts'] if a['relay']))" "$rep" 2>&1
}
for m in root rootless; do
	site=$T/site-proxy-$m
	mkdir -p "$site" && chmod 777 "$site"
	rep=$T/rep/$m-proxy.json
	mark
	WARGS="--upstream-proxy 203.0.113.5:3128" run $m "$site" /bin/sh -c "$PIP wardpkg && PYTHONPATH=/site /usr/bin/python3 -c 'import wardpkg; print(wardpkg.GREETING)'" \
		>"$T/w.out" 2>"$T/w.err"
	rc=$?
	# (Root mode with the cgroup programs, cgroup2: the proxy's ADDR:PORT
	# is one more destination of theirs, docs/spec.md 5.11; 3128 is no
	# port of the policy's.)
	if [ $rc = 0 ] && [ "$(tail -n 1 "$T/w.out")" = "hello from wardpkg 0.1" ] &&
		[ "$(seen "connect index.test:443 203.0.113.1 200")" -ge 1 ] &&
		[ "$(seen "connect dl.files.test:443 203.0.113.1 200")" = 1 ] &&
		[ "$(seen "get 203.0.113.6 index.test /simple/wardpkg/ 200")" -ge 1 ] &&
		[ "$(seen "get 203.0.113.7 dl.files.test /packages/$whl 200")" = 1 ] &&
		[ "$(seen "get 203.0.113.[24] ")" = 0 ] && [ "$(seen "query ")" = 0 ] &&
		in_report "r['network']['upstream_proxy'] == '203.0.113.5:3128' and all(q['synthetic'] and q['verdict'] == 'answered' and (q['addresses'] == [] if q['type'] == 'AAAA' else len(q['addresses']) == 1 and q['addresses'][0].startswith('198.1')) for q in r['network']['dns'] if q['name'] in ('index.test', 'dl.files.test')) and any(q['name'] == 'dl.files.test' and q['type'] == 'A' for q in r['network']['dns']) and any(a['name'] == 'index.test' and a['relay']['proxy_status'] == 200 and a['relay']['ended'] == 'closed' and a['relay']['received'] > 500 for a in r['network']['attempts']) and any(a['name'] == 'dl.files.test' and a['relay']['server_name'] == 'dl.files.test' and a['relay']['proxy_status'] == 200 and a['relay']['received'] > 1000 for a in r['network']['attempts'])"; then
		pass "$m/upstream-proxy ($(proxied))"
	else
		fail $m/upstream-proxy "rc $rc, out '$(tail -c 200 "$T/w.out")', err '$(tail -c 400 "$T/w.err")', log: $(tail -n +$((n_log + 1)) "$T/srv.log" | tr '\n' ';'), report: $(proxied)"
	fi
done

# The proxy given by its IPv4-mapped IPv6 form, root mode: the programs
# look such an address up as IPv4 (docs/spec.md 5.1), and so is the
# proxy's entry made.
rep=$T/rep/proxy-mapped.json
mark
WARGS="--upstream-proxy [::ffff:203.0.113.5]:3128" run root "$T/site-proxy-root" /bin/sh -c "$PIP --upgrade --force-reinstall wardpkg" >"$T/w.out" 2>"$T/w.err"
rc=$?
if [ $rc = 0 ] && [ "$(seen "connect dl.files.test:443 203.0.113.1 200")" = 1 ] &&
	in_report "r['network']['upstream_proxy'] == '[::ffff:203.0.113.5]:3128'"; then
	pass "root/upstream-proxy-v4-mapped ($(proxied))"
else
	fail root/upstream-proxy-v4-mapped "rc $rc, err '$(tail -c 300 "$T/w.err")', report: $(proxied)"
fi

# A proxy whose reply comes a byte at a time: read as it comes, the
# tunnel opened at its end and not before (nothing of it taken as the
# server's).
rep=$T/rep/proxy-slow.json
mark
WARGS="--upstream-proxy 203.0.113.5:3131" run rootless "$T/site-rootless" /bin/sh -c "$PIP --upgrade --force-reinstall wardpkg" >"$T/w.out" 2>"$T/w.err"
rc=$?
if [ $rc = 0 ] && [ "$(seen "get 203.0.113.7 dl.files.test /packages/$whl 200")" = 1 ] &&
	in_report "all(a['relay']['proxy_status'] == 200 and a['relay']['ended'] == 'closed' for a in r['network']['attempts'] if a['relay'])"; then
	pass "rootless/upstream-proxy-slow-reply ($(proxied))"
else
	fail rootless/upstream-proxy-slow-reply "rc $rc, err '$(tail -c 300 "$T/w.err")', report: $(proxied)"
fi

# A proxy that refuses a name (403): the connection ends there, on the
# record with the status, and nothing reached the file host.
rep=$T/rep/proxy-deny.json
mark
WARGS="--upstream-proxy 203.0.113.5:3129" run rootless "$T/site-rootless" /bin/sh -c "$PIP --retries 0 --timeout 5 --upgrade wardpkg" >"$T/w.out" 2>"$T/w.err"
rc=$?
if [ $rc != 0 ] && [ "$(seen "connect dl.files.test:443 203.0.113.1 403")" -ge 1 ] &&
	[ "$(seen "get 203.0.113.[247] dl.files.test")" = 0 ] &&
	in_report "any(a['name'] == 'dl.files.test' and a['relay']['proxy_status'] == 403 and a['relay']['ended'] == 'refused by the upstream proxy' and a['relay']['received'] == 0 for a in r['network']['attempts']) and any(a['name'] == 'index.test' and a['relay']['proxy_status'] == 200 for a in r['network']['attempts'])"; then
	pass "rootless/upstream-proxy-refuses ($(proxied))"
else
	fail rootless/upstream-proxy-refuses "rc $rc, log: $(tail -n +$((n_log + 1)) "$T/srv.log" | tr '\n' ';'), report: $(proxied)"
fi

# A reply that is no HTTP head: the tunnel never opens, nothing of the
# ClientHello reaches the proxy's far side.
rep=$T/rep/proxy-garbage.json
mark
WARGS="--upstream-proxy 203.0.113.5:3130" run rootless "$T/site-rootless" /bin/sh -c "$PIP --retries 0 --timeout 5 --upgrade wardpkg" >"$T/w.out" 2>"$T/w.err"
rc=$?
if [ $rc != 0 ] && [ "$(seen "connect index.test:443 203.0.113.1 garbage")" -ge 1 ] &&
	[ "$(seen "get ")" = 0 ] && [ "$(seen "tls ")" = 0 ] &&
	in_report "any(a['name'] == 'index.test' and a['relay']['proxy_status'] is None and a['relay']['ended'] == \"failed: the upstream proxy's reply is not HTTP\" and a['relay']['received'] == 0 for a in r['network']['attempts'])"; then
	pass "rootless/upstream-proxy-bad-reply ($(proxied))"
else
	fail rootless/upstream-proxy-bad-reply "rc $rc, log: $(tail -n +$((n_log + 1)) "$T/srv.log" | tr '\n' ';'), report: $(proxied)"
fi

RESOLV=

# A proxy named, not given by address: refused before anything runs.
rep=$T/rep/proxy-name.json
out=$(WARGS="--upstream-proxy proxy.test:3128" run rootless "$T/site-rootless" /bin/true 2>&1)
rc=$?
case "$rc|$out" in
"125|"*"--upstream-proxy \`proxy.test:3128\`: not an address"*) pass rootless/upstream-proxy-by-address-only ;;
*) fail rootless/upstream-proxy-by-address-only "rc $rc: $out" ;;
esac

[ "$failures" = 0 ]
