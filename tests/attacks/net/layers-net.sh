# attack: net/layers-net
# boundary: network
# modes: root rootless
# requires: none (a test policy of its own)
# seeds: 000-network
# profile: layers
# what: the network attacks again with no seccomp filter at all (the
#   test policy `layers`: the python profile's mounts and identity, and a
#   filter that allows every syscall, permissive in exactly that way), to
#   show what stops them behind seccomp: raw and packet sockets, a netlink
#   request to add an address, TCP to the attacker, the metadata address
#   and the host's loopback service, UDP to the resolver, ICMP echo, the
#   host's abstract unix socket
# expect: raw and packet sockets: EPERM (no CAP_NET_RAW in the init
#   namespace); TCP and ICMP out: ENETUNREACH (the sandbox's namespace has
#   only loopback); loopback: ECONNREFUSED (its own loopback); UDP:
#   ENETUNREACH; ICMP datagram socket: EACCES (the sandbox's namespace has
#   the default ping_group_range); abstract socket: ECONNREFUSED; no test
#   host sees anything
# control: outside, as root, the same program reaches every test host:
#   they log the connections, the datagram and the echo request
# if it fails: the network namespace (launcher/core/ns.c: CLONE_NEWNET, only
#   lo brought up in launcher/core/init.c), capabilities dropped

attack() {
	local seen
	local args=(socket raw socket packet connect "$ADDR_ATTACKER" 4444
		connect "$ADDR_METADATA" 80 connect 127.0.0.1 6379
		udp "$ADDR_RESOLVER" 53 exfil ping "$ADDR_ATTACKER"
		abstract "$ABSTRACT_HOST")
	net_note
	sbx -- /input/atk "${args[@]}"
	net_sync
	seen=$(net_seen)
	check "what stops each attack; $(why)" test "$(tr '\n' ' ' <"$SO")" = \
		"socket EPERM socket EPERM connect ENETUNREACH connect ENETUNREACH connect ECONNREFUSED udp ENETUNREACH ping EACCES abstract ECONNREFUSED "
	check "nothing reached the test hosts: $seen" test -z "$seen"
	net_note
	outside -u root -- "$IN/atk" "${args[@]}"
	net_sync
	seen=$(net_seen)
	control "outside as root, every call succeeds; $(cwhy)" \
		test "$(grep -c ' ok$' "$CO")" = 8
	control "outside, the test hosts log it all; $seen" \
		test "$(grep -cE '^net: conn (4444|80) |^local: conn 6379 |^net: dgram 53 |^net: icmp |^local: unix ' <<<"$seen")" = 6
}
