# attack: net/loopback-portscan
# boundary: network
# profile: python
# modes: root rootless
# requires: python3
# seeds: 000-network 004-intranet-probe
# what: scans the loopback interface for the host's local services
#   (a database, a Docker API: test listeners on 127.0.0.1 of the
#   namespace ward runs in), ports 1-1024 and the usual ones, and tries
#   the host's abstract unix socket
# expect: no port answers (socket creation refused: EAFNOSUPPORT), the
#   abstract socket is refused (ECONNREFUSED: another network namespace),
#   and the host's listeners log nothing
# control: the same scan outside the sandbox finds the three services
#   open and the listeners log the connections
# if it fails: the network namespace of the sandbox (its own loopback),
#   launcher/core/ns.c; for the abstract socket, the namespace (net none) or
#   Landlock's scoping (allow-lists)

attack() {
	local seen
	put scan.py <<'PY'
import errno, socket, sys
ports = list(range(1, 1025)) + [int(p) for p in sys.argv[2].split(",")]
open_ports, errs = [], set()
for p in ports:
    try:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.settimeout(0.5)
        s.connect(("127.0.0.1", p))
        open_ports.append(p)
        s.close()
    except OSError as e:
        errs.add(errno.errorcode.get(e.errno, str(e)))
print("open", ",".join(map(str, open_ports)) or "none")
print("errors", ",".join(sorted(errs)))
try:
    u = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    u.connect("\0" + sys.argv[1])
    print("abstract connected")
except OSError as e:
    print("abstract", errno.errorcode[e.errno])
PY
	net_note
	sbx -- python3 /input/scan.py "$ABSTRACT_HOST" "$HOST_TCP_PORTS"
	net_sync
	seen=$(net_seen)
	check "no port open; $(why)" so_has "open none"
	check "every attempt EAFNOSUPPORT; $(why)" so_has "errors EAFNOSUPPORT"
	check "abstract socket: ECONNREFUSED; $(why)" so_has "abstract ECONNREFUSED"
	check "the host's listeners saw nothing: $seen" test -z "$seen"
	net_note
	outside -- /usr/bin/python3 "$IN/scan.py" "$ABSTRACT_HOST" "$HOST_TCP_PORTS"
	net_sync
	seen=$(net_seen)
	control "outside, the scan finds the services; $(cwhy)" co_has "open $HOST_TCP_PORTS"
	control "outside, the abstract socket answers; $(cwhy)" co_has "abstract connected"
	control "outside, the listeners log it: $seen" grep -q "^local: unix $ABSTRACT_HOST" <<<"$seen"
}
