# attack: net/names-ttl-reuse
# boundary: network
# profile: agent-net
# modes: root rootless
# requires: net python3
# seeds: 000-network
# what: keeps using an address after its name's answer ran out: resolves
#   brief.files.test (an allowed name whose answer has TTL 0, which the
#   stub serves for its floor of 5 s), connects to it by TLS, waits 6 s and
#   connects again to the same address with the same server name, without
#   asking DNS again
# expect: the first connection reaches the server, the second is refused
#   (EPERM) and the server sees one handshake only; the report has the
#   second refused
# control: outside the sandbox the same two connections both reach the
#   server (two handshakes logged)
# if it fails: launcher/unprivileged/dns.c (learn, learned_match: the
#   TTL's floor and ceiling), broker_net.c

attack() {
	local names script
	[ "$NAMES_WORLD" = 1 ] || {
		fail "the names world did not come up: $(head -c 300 "$T/net/names-setup.err")"
		return
	}
	names_policy || { fail "the test policy does not compile: $(head -c 300 "$T/pol/err")"; return; }
	check "the test copy's network adds the two names only (wardc diff)" names_diff_ok
	cp "$NAMES_TOOLS/tlsprobe.py" "$T/net/tls/ca.pem" "$IN/" && chmod 644 "$IN/tlsprobe.py" "$IN/ca.pem"
	script='p=$1; shift; python3 "$p/tlsprobe.py" "$p/ca.pem" brief.files.test 443 brief.files.test; sleep 6; python3 "$p/tlsprobe.py" "$p/ca.pem" "$1" 443 brief.files.test'
	NET_RESOLV=$NAMES_RESOLV
	names_note
	sbx -p names-net -- /bin/sh -c "$script" sh /input "$ADDR_NAMES"
	names=$(names_seen | tr '\n' ';')
	check "the first connection is made; $(why)" \
		test "$(head -n 1 "$SO")" = "ok $ADDR_NAMES hello $ADDR_NAMES"
	check "the second, after the TTL, is refused (EPERM); $(why)" \
		test "$(sed -n 2p "$SO")" = "refused PermissionError 1"
	check "the server saw one handshake: $names" \
		test "$(grep -o "tls $ADDR_NAMES:443 brief.files.test" <<<"$names" | wc -l)" = 1
	check "the report has the second refused" report_has \
		'any(.network.attempts[]; .verdict == "refused" and .address == "'"$ADDR_NAMES"'" and .port == 443)'
	names_note
	outside -- /bin/sh -c "${script//python3/\/usr\/bin\/python3}" sh "$IN" "$ADDR_NAMES"
	names=$(names_seen | tr '\n' ';')
	NET_RESOLV=
	control "outside, both connections are made; $(cwhy)" \
		test "$(grep -c "^ok $ADDR_NAMES hello" "$CO")" = 2
	control "outside, the server logs two handshakes: $names" \
		test "$(grep -o "tls $ADDR_NAMES:443 brief.files.test" <<<"$names" | wc -l)" = 2
}
