# attack: net/names-query-flood
# boundary: network
# profile: agent-net
# modes: root rootless
# requires: net python3
# seeds: 000-network
# what: a flood of DNS queries at the sandbox's stub: 20000 distinct names
#   under flood.test, as fast as one process can send them, hoping to
#   exhaust the broker, grow the record without bound or push the queries
#   on to the resolver; then one ordinary lookup of index.test
# expect: the run ends by itself, in its time; the record holds 64
#   entries and counts at least 900 dropped; the harness's DNS server is
#   asked for no flood name; the stub still answers index.test after it
# control: outside the sandbox the same flood sent to the DNS server
#   reaches it (it logs flood.test queries)
# if it fails: launcher/unprivileged/dns.c (16 datagrams a wake-up, the
#   broker's flood control), report_net.c (the cap)

attack() {
	local names n
	[ "$NAMES_WORLD" = 1 ] || {
		fail "the names world did not come up: $(head -c 300 "$T/net/names-setup.err")"
		return
	}
	names_policy || { fail "the test policy does not compile: $(head -c 300 "$T/pol/err")"; return; }
	check "the test copy's network adds the two names only (wardc diff)" names_diff_ok
	cp "$NAMES_TOOLS/dnsflood.py" "$IN/" && chmod 644 "$IN/dnsflood.py"
	NET_RESOLV=$NAMES_RESOLV
	names_note
	sbx -p names-net -t 40 -- python3 /input/dnsflood.py 20000
	names=$(names_seen)
	check "the run ended by itself (status 0); $(why)" rc_is 0
	check "the flood was sent and answered; $(why)" \
		grep -qE '^sent [0-9]{4,} answered [0-9]{4,}$' "$SO"
	check "the stub still answers index.test after it; $(why)" so_has "$ADDR_NAMES"
	check "the DNS server was asked for no flood name: $(grep -c flood.test <<<"$names")" \
		not grep -q 'flood\.test' <<<"$names"
	check "the record is capped at 64 entries, the rest counted" report_has \
		'(.network.dns | length) == 64 and .network.dns_dropped >= 900'
	names_note
	outside -- /usr/bin/python3 "$IN/dnsflood.py" 2000 "$ADDR_DNS"
	sleep 0.5
	n=$(names_seen | grep -c 'flood\.test')
	NET_RESOLV=
	control "outside, the flood reaches the DNS server ($n queries logged); $(cwhy)" \
		test "$n" -ge 100
}
