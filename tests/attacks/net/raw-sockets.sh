# attack: net/raw-sockets
# boundary: network
# profile: python
# modes: root rootless
# requires: probe-slot
# seeds: 000-network
# what: makes the sockets that bypass TCP/UDP or see the whole link: raw
#   IPv4 and IPv6 (ICMP), AF_PACKET (every frame), AF_NETLINK (the routing
#   tables), and plain TCP, UDP and IPv6 sockets
# expect: every socket() fails with EAFNOSUPPORT (the profile allows
#   AF_UNIX only), while an AF_UNIX socket, the control inside, is made
# control: outside, as root, the same program makes every one of these
#   sockets: the program reports success where nothing stops it
# if it fails: the profile's `allow socket if domain == AF_UNIX` and the
#   compiler's narrowing of socket() for `net none`
#   (compiler/codegen/seccomp_gen.c), the seccomp program (launcher/core/exec.c)

attack() {
	local kinds="raw raw6 packet netlink tcp udp tcp6 icmp"
	local args=() k
	for k in $kinds unix; do args+=(socket "$k"); done
	sbx -- /input/atk "${args[@]}"
	local i=1
	for k in $kinds; do
		check "socket $k: EAFNOSUPPORT; $(why)" test "$(sed -n ${i}p "$SO")" = "socket EAFNOSUPPORT"
		i=$((i + 1))
	done
	check "socket unix: ok; $(why)" test "$(sed -n ${i}p "$SO")" = "socket ok"
	outside -u root -- "$IN/atk" "${args[@]}"
	control "outside as root, every socket is made; $(cwhy)" \
		test "$(grep -c '^socket ok$' "$CO")" = 9
}
