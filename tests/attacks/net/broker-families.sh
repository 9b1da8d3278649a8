# attack: net/broker-families
# boundary: network
# profile: agent-net
# modes: root rootless
# requires: probe-slot net
# seeds: 000-network
# what: what the broker was not made for: netlink, packet, raw and ping
#   sockets; an IP socket connected with the address of another family
#   (unix, packet, an unknown one); a connection to the allowed mirror
#   disconnected (AF_UNSPEC) and aimed at the attacker (198.51.100.7:4444)
# expect: the four sockets fail with EAFNOSUPPORT, the odd addresses with
#   the kernel's own errors (nothing connects), the disconnect with
#   EOPNOTSUPP and the second connect with EISCONN (the broker's socket
#   stays connected to the mirror); the attacker's host sees nothing; the
#   report has the refused sockets and the refused disconnect
# control: outside, as root, the sockets are made and the disconnected
#   socket reaches the attacker (its host logs the connection)
# if it fails: compiler/codegen/net_rules.c (socket() narrowed),
#   launcher/unprivileged/broker_net.c (connect_again)

attack() {
	local seen
	net_note
	sbx -- /input/brk families "$ADDR_MIRROR" 443 "$ADDR_ATTACKER" 4444
	net_sync
	seen=$(net_seen)
	printf '%s\n' "$seen" >"$CASE_T/seen"
	check "the sockets: EAFNOSUPPORT; $(why)" test "$(grep -c '^socket-.* EAFNOSUPPORT$' "$SO")" = 4
	check "the odd addresses connect nowhere; $(why)" \
		bash -c '! grep -q "^connect-[a-z-]*address ok\|^connect-unknown-family ok" "$1"' _ "$SO"
	check "the mirror, then no disconnect, no re-aim; $(why)" \
		bash -c 'grep -qx "connect-good ok" "$1" && grep -qx "disconnect EOPNOTSUPP" "$1" && grep -qx "connect-evil EISCONN" "$1"' _ "$SO"
	check "the attacker's host saw nothing: $(grep -E " 4444( |$)" "$CASE_T/seen" | head -3)" \
		not grep -qE " 4444( |$)" "$CASE_T/seen"
	check "the report: 4 refused sockets and the refused disconnect" report_has \
		'([.denials.network[] | select(.call == "socket")] | length) == 4 and ([.denials.network[] | select(.call == "connect" and .errno == "EOPNOTSUPP")] | length) == 1'
	net_note
	outside -u root -- "$IN/brk" families "$ADDR_MIRROR" 443 "$ADDR_ATTACKER" 4444
	net_sync
	seen=$(net_seen)
	printf '%s\n' "$seen" >"$CASE_T/seen"
	control "outside as root, the sockets are made and re-aimed; $(cwhy)" \
		bash -c 'test "$(grep -c "^socket-.* ok$" "$1")" = 4 && grep -qx "connect-evil ok" "$1"' _ "$CO"
	control "outside, the attacker's host logs it" \
		grep -q "^net: conn 4444 " "$CASE_T/seen"
}
