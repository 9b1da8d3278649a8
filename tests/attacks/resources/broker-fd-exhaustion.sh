# attack: resources/broker-fd-exhaustion
# boundary: resources
# profile: agent-net
# modes: root rootless
# requires: probe-slot net
# what: makes the broker hold as many sockets as it can: under a test copy
#   of agent-net that also allows 192.0.2.99:443 (an address the test
#   world routes to a namespace that drops what it gets: a SYN there is
#   never answered), 200 threads each start a blocking connect there and
#   keep waiting, 4 s
# expect: the broker holds at most its 64 connects in progress, and the
#   other threads fail at once with EAGAIN; every process of ward's
#   together holds fewer than 64 + 16 descriptors more than in a run that
#   holds no connect (measured first); the run ends on
#   its own, and the report has the attempts
# control: outside, the same 200 connects are all held at once (the
#   program has more than 200 descriptors, none failed)
# if it fails: launcher/unprivileged/broker_net.c (WARD_PENDING_MAX, pend)

# The descriptors of every process of this build's ward.
ward_fds() {
	local p exe n=0 want
	want=$(readlink -f "$WARD")
	for p in /proc/[0-9]*; do
		exe=$(readlink "$p/exe" 2>/dev/null) || continue
		[ "$exe" = "$want" ] || continue
		n=$((n + $(ls "$p/fd" 2>/dev/null | wc -l)))
	done
	echo $n
}

attack() {
	local hole=192.0.2.99 most=0 base=0 n i
	ip -n "$NS_HOST" route add "$hole/32" via 203.0.113.2 || {
		fail "cannot route $hole"
		return
	}
	at_exit "ip -n '$NS_HOST' route del '$hole/32'"
	derive_policy agent-net-hole agent-net \
		-e "s|^    allow tcp mirror port 443;|    allow tcp mirror port 443;\n    allow tcp $hole port 443;|" || {
		fail "the test policy does not compile"
		return
	}
	# ward's own descriptors in a run that holds no connect: the budget
	# is those and the broker's 64, with a margin of 16
	sbx -b -p agent-net-hole -- /input/brk pending "$hole" 443 0 2
	for i in 1 2 3; do
		sleep 0.4
		n=$(ward_fds)
		[ "$n" -gt "$base" ] && base=$n
	done
	sbx_wait
	sbx -b -p agent-net-hole -- /input/brk pending "$hole" 443 200 4
	for i in 1 2 3 4 5 6 7; do
		sleep 0.5
		n=$(ward_fds)
		[ "$n" -gt "$most" ] && most=$n
	done
	sbx_wait
	check "64 in progress at most, the rest EAGAIN at once; $(why)" \
		grep -qE '^pending threads 200 eagain 13[6-9] other 0 connected 0 ' "$SO"
	check "ward's processes held $most descriptors at the most, $base without connects" \
		test "$base" -gt 0 -a "$most" -lt $((base + 64 + 16))
	check "the run ended on its own" rc_is 0
	check "the report has the attempts" report_has \
		'[.network.attempts[] | select(.address == "'"$hole"'" and .port == 443)] | length >= 1'
	outside -- "$IN/brk" pending "$hole" 443 200 2
	control "outside, all 200 are held; $(cwhy)" \
		awk '$1 == "pending" && $5 == 0 && $11 > 200 { ok = 1 } END { exit !ok }' "$CO"
}
