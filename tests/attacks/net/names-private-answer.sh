# attack: net/names-private-answer
# boundary: network
# profile: agent-net
# modes: root rootless
# requires: net python3
# seeds: 000-network 004-intranet-probe
# what: DNS rebinding to the inside: under a test copy of the profile that
#   also allows index.test and *.files.test on 443 by name, resolves two
#   allowed names whose answers (from the harness's own DNS server,
#   lib/world.sh names_world_init) name the metadata address
#   (meta.files.test: 169.254.169.254) and an intranet host
#   (intranet.files.test: 10.200.0.5, private 10/8), then connects to
#   each address on 443 anyway
# expect: the DNS server is asked for both and answers, yet no address
#   comes back to the sandbox (the report has each blocked), both
#   connects are refused (EPERM) and the test hosts see no connection
# control: outside the sandbox the same script, with the same resolver,
#   gets both addresses and reaches both hosts (the test host logs two
#   connections on 443)
# if it fails: the compiler's refused ranges (compiler/check/sema_net.c
#   refused_ranges, common/answer_ranges.c), the reader
#   (common/blob_read.c read_refused), launcher/unprivileged/dns.c

attack() {
	# (169.254.169.254 and 10.200.0.5 here are test hosts of the harness:
	# addresses of the namespace NS_NET it made with `ip netns add`, routed
	# only from NS_HOST, where ward and the control run; the DNS server is
	# in NS_DNS, made the same way; lib/world.sh, net_world_init and
	# names_world_init. No packet leaves those namespaces.)
	local seen names
	[ "$NAMES_WORLD" = 1 ] || {
		fail "the names world did not come up: $(head -c 300 "$T/net/names-setup.err")"
		return
	}
	names_policy ||
		{ fail "the test policy does not compile: $(head -c 300 "$T/pol/err")"; return; }
	check "the test copy's network adds the two names only (wardc diff)" names_diff_ok
	put answers.py <<'PY'
import errno, socket, sys
for name, addr in zip(sys.argv[1::2], sys.argv[2::2]):
    try:
        print("resolve", name, socket.gethostbyname(name))
    except OSError:
        print("resolve", name, "none")
    s = socket.socket()
    s.settimeout(5)
    try:
        s.connect((addr, 443))
        print("connect", addr, "ok")
    except OSError as e:
        print("connect", addr, errno.errorcode.get(e.errno, str(e)))
PY
	NET_RESOLV=$NAMES_RESOLV
	net_note
	names_note
	sbx -p names-net -- python3 /input/answers.py meta.files.test "$ADDR_METADATA" \
		intranet.files.test "$ADDR_INTRANET"
	net_sync
	seen=$(net_seen)
	names=$(names_seen | tr '\n' ';')
	check "the DNS server was asked for both; $names" \
		sh -c "echo '$names' | grep -q 'query meta.files.test 1 ' && echo '$names' | grep -q 'query intranet.files.test 1 '"
	check "no address for the metadata name; $(why)" so_has "resolve meta.files.test none"
	check "no address for the intranet name; $(why)" so_has "resolve intranet.files.test none"
	check "the metadata address is refused: EPERM" so_has "connect $ADDR_METADATA EPERM"
	check "the intranet address is refused: EPERM" so_has "connect $ADDR_INTRANET EPERM"
	check "the test hosts saw no connection: $seen" not grep -q "^net: conn 443 " <<<"$seen"
	check "the report has both answers blocked" report_has \
		'any(.network.dns[]; .name == "meta.files.test" and .blocked == ["'"$ADDR_METADATA"'"] and .addresses == []) and any(.network.dns[]; .name == "intranet.files.test" and .blocked == ["'"$ADDR_INTRANET"'"] and .addresses == [])'
	net_note
	outside -- /usr/bin/python3 "$IN/answers.py" meta.files.test "$ADDR_METADATA" \
		intranet.files.test "$ADDR_INTRANET"
	net_sync
	seen=$(net_seen)
	NET_RESOLV=
	control "outside, both names resolve; $(cwhy)" \
		sh -c "grep -qxF 'resolve meta.files.test $ADDR_METADATA' '$CO' && grep -qxF 'resolve intranet.files.test $ADDR_INTRANET' '$CO'"
	control "outside, both hosts are reached: $seen" \
		test "$(grep -c '^net: conn 443 ' <<<"$seen")" = 2
}
