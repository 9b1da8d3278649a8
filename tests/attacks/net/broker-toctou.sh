# attack: net/broker-toctou
# boundary: network
# profile: agent-net
# modes: root rootless
# requires: probe-slot net
# seeds: 000-network
# what: the socket broker's time of check against its time of use: one
#   thread connects again and again from a socket address that a second
#   thread flips, as fast as it can, between the allowed mirror
#   (192.0.2.10:443) and the attacker (198.51.100.7:4444), for 3 s, hoping
#   that the broker checks one and connects the other
# expect: connections to the mirror and refusals (the flip hits both),
#   never one to the attacker; the attacker's host sees nothing; the
#   report has the refusals, with the attacker's address
# control: outside the sandbox the same program reaches the attacker (its
#   host logs connections on 4444)
# if it fails: launcher/unprivileged/broker_net.c (the address is copied
#   once, checked, and the copy is what is connected), sockaddr.c

attack() {
	local seen
	net_note
	sbx -- /input/brk toctou "$ADDR_MIRROR" 443 "$ADDR_ATTACKER" 4444 3
	net_sync
	seen=$(net_seen)
	printf '%s\n' "$seen" >"$CASE_T/seen"
	check "the race ran both ways, never to the attacker; $(why)" \
		grep -qE '^toctou good [1-9][0-9]* evil 0 refused [1-9]' "$SO"
	check "the attacker's host saw nothing: $(grep -E " 4444( |$)" "$CASE_T/seen" | head -3)" \
		not grep -qE " 4444( |$)" "$CASE_T/seen"
	check "the report has the refusals" report_has \
		'[.denials.network[] | select(.call == "connect" and .address == "'"$ADDR_ATTACKER"'" and .port == 4444)] | length == 1'
	net_note
	outside -- "$IN/brk" toctou "$ADDR_MIRROR" 443 "$ADDR_ATTACKER" 4444 2
	net_sync
	seen=$(net_seen)
	printf '%s\n' "$seen" >"$CASE_T/seen"
	control "outside, the attacker is reached; $(cwhy)" \
		grep -qE '^toctou good [0-9]+ evil [1-9]' "$CO"
	control "outside, the attacker's host logs it" \
		grep -q "^net: conn 4444 " "$CASE_T/seen"
}
