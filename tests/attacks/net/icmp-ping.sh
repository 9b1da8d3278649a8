# attack: net/icmp-ping
# boundary: network
# profile: python
# modes: root rootless
# requires: probe-slot
# seeds: 000-network
# what: "ping 外网" of the seed's checklist: an ICMP echo request to a
#   host outside (198.51.100.7 and the metadata address, test hosts in a
#   namespace of the harness), the way ping(8) sends it unprivileged (an
#   ICMP datagram socket)
# expect: the socket is refused (EAFNOSUPPORT) and the test hosts count no
#   echo request
# control: the same program outside the sandbox, as the sandbox's host
#   user, sends the echo requests: the test hosts count them
# if it fails: the network namespace (net none), the profile's socket
#   rule

attack() {
	local seen
	net_note
	sbx -- /input/atk ping "$ADDR_ATTACKER" ping "$ADDR_METADATA"
	net_sync
	seen=$(net_seen)
	check "ping: EAFNOSUPPORT twice; $(why)" test "$(grep -c '^ping EAFNOSUPPORT$' "$SO")" = 2
	check "no echo request arrived: $seen" test -z "$seen"
	net_note
	outside -- "$IN/atk" ping "$ADDR_ATTACKER" ping "$ADDR_METADATA"
	net_sync
	seen=$(net_seen)
	control "outside, both echo requests arrive; $(cwhy); $seen" \
		test "$(grep -c '^net: icmp ' <<<"$seen")" = 2
}
