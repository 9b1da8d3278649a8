# attack: net/metadata
# boundary: network
# profile: python
# modes: root rootless
# requires: python3
# seeds: 000-network 004-intranet-probe
# what: asks the cloud metadata service for credentials, as SSRF payloads
#   do: HTTP GET http://169.254.169.254/latest/meta-data/iam/ with urllib,
#   and its IPv6 twin (a test host holds both addresses, in a namespace of
#   the harness)
# expect: both requests fail (URLError: the socket is refused by seccomp,
#   EAFNOSUPPORT) and the metadata host sees no packet
# control: the same script outside the sandbox reaches the metadata host:
#   it logs the connection
# if it fails: the network namespace (net none), the profile's socket
#   rule; with an allow-list, the BPF programs (net issue)

attack() {
	# (169.254.169.254 here is a test host of the harness: an address of
	# the namespace NS_NET it made with `ip netns add`, routed only from
	# NS_HOST, where ward runs; lib/world.sh, net_world_init)
	local seen
	put metadata.py <<'PY'
import errno, sys, urllib.request
for url in sys.argv[1:]:
    try:
        urllib.request.urlopen(url, timeout=2)
        print("get", url, "ok")
    except urllib.error.URLError as e:
        r = e.reason
        print("get", url, errno.errorcode.get(getattr(r, "errno", None) or 0, "failed: %s" % r))
    except OSError as e:
        print("get", url, errno.errorcode.get(e.errno or 0, "failed: %s" % e))
    except Exception as e:  # the server answered, but not in HTTP
        print("get", url, "reached")
PY
	local u4="http://$ADDR_METADATA/latest/meta-data/iam/" u6="http://[$ADDR6_METADATA]/latest/meta-data/iam/"
	net_note
	sbx -- python3 /input/metadata.py "$u4" "$u6"
	net_sync
	seen=$(net_seen)
	check "IPv4 metadata: EAFNOSUPPORT; $(why)" so_has "get $u4 EAFNOSUPPORT"
	check "IPv6 metadata: EAFNOSUPPORT; $(why)" so_has "get $u6 EAFNOSUPPORT"
	check "nothing reached the test hosts: $seen" test -z "$seen"
	net_note
	outside -- /usr/bin/python3 "$IN/metadata.py" "$u4" "$u6"
	net_sync
	seen=$(net_seen)
	control "outside, the metadata host sees both requests; $(cwhy); $seen" \
		test "$(grep -c '^net: conn 80 ' <<<"$seen")" = 2
}
