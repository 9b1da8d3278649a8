# attack: net/names-split-hello
# boundary: network
# profile: agent-net
# modes: root rootless
# requires: net python3
# seeds: 000-network
# what: domain fronting through an allowed name's address with the
#   ClientHello split over many writes (16 bytes each, 50 ms apart), so
#   that a relay judging the first packet sees no server name: a TLS
#   connection to index.test's address (allowed by name on 443) with
#   server name other.test (which the same server serves)
# expect: the connection is refused before the server hears of it (no
#   accept in its log), the report has the relay refused as another
#   name's server; the same split ClientHello naming index.test is read
#   whole and reaches the server (so the refusal is the name's)
# control: outside the sandbox the split ClientHello naming other.test
#   reaches the server: it logs the handshake with that name
# if it fails: launcher/unprivileged/relay.c, tls_hello.c (the ClientHello
#   is read whole, up to one record, before anything is connected)

attack() {
	local names
	[ "$NAMES_WORLD" = 1 ] || {
		fail "the names world did not come up: $(head -c 300 "$T/net/names-setup.err")"
		return
	}
	names_policy || { fail "the test policy does not compile: $(head -c 300 "$T/pol/err")"; return; }
	check "the test copy's network adds the two names only (wardc diff)" names_diff_ok
	cp "$NAMES_TOOLS/tlsprobe.py" "$T/net/tls/ca.pem" "$IN/" && chmod 644 "$IN/tlsprobe.py" "$IN/ca.pem"
	NET_RESOLV=$NAMES_RESOLV
	names_note
	sbx -p names-net -- python3 /input/tlsprobe.py /input/ca.pem index.test 443 other.test 16
	names=$(names_seen | tr '\n' ';')
	check "the fronted connection is refused; $(why)" grep -q '^refused' "$SO"
	check "the server saw no connection: $names" not grep -q "accept $ADDR_NAMES:443" <<<"$names"
	check "the report has the relay refused as another name's server" report_has \
		'any(.network.attempts[]; .relay != null and .relay.server_name == "other.test" and .relay.ended == "refused: another name'"'"'s server")'
	names_note
	sbx -p names-net -- python3 /input/tlsprobe.py /input/ca.pem index.test 443 index.test 16
	names=$(names_seen | tr '\n' ';')
	check "the split ClientHello naming index.test is read whole; $(why)" \
		so_has "ok $ADDR_NAMES hello $ADDR_NAMES"
	check "and the server has its handshake: $names" grep -q "tls $ADDR_NAMES:443 index.test" <<<"$names"
	names_note
	outside -- /usr/bin/python3 "$IN/tlsprobe.py" "$IN/ca.pem" index.test 443 other.test 16
	names=$(names_seen | tr '\n' ';')
	NET_RESOLV=
	control "outside, the fronted connection is made; $(cwhy)" co_has "ok $ADDR_NAMES hello $ADDR_NAMES"
	control "outside, the server logs other.test's handshake: $names" \
		grep -q "tls $ADDR_NAMES:443 other.test" <<<"$names"
}
