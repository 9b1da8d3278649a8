# attack: resources/broker-flood
# boundary: resources
# profile: python
# modes: root rootless
# requires: probe-slot
# what: floods the broker with notifications: 8 threads call reboot() (a
#   refusal the profile records) as fast as they can for 3 s; then the
#   same for 20 s while ward is sent SIGTERM after 1 s; then, under a test
#   copy of the profile that records its default refusals too (`syscalls
#   default errno ENOSYS log`), one call each of 84 syscall numbers no
#   kernel implements
# expect: the broker holds the flood back (at most 20000 calls a second,
#   4096 at once: the sandbox's calls wait in the kernel) and records it
#   in one entry that counts every call; ward answers the signal within 3
#   s (reason interrupted); the 84 syscalls take the table's 64 entries,
#   and the 20 others are counted as dropped: the report stays its size
# control: outside, the same threads make more than 100000 calls a second,
#   and the 84 calls are made
# if it fails: launcher/unprivileged/broker.c (RATE, BURST), records.c

attack() {
	local n t0 t1
	sbx -- /input/brk flood 3 8
	n=$(awk '$1 == "flood" { print $2 }' "$SO")
	check "held back: ${n:-?} calls in 3 s; $(why)" \
		test "${n:-0}" -gt 1000 -a "${n:-0}" -le $((3 * 20000 + 4096 + 2000))
	check "one entry, every call counted" report_has \
		"[.denials.seccomp[] | select(.syscall == \"reboot\")] | length == 1 and .[0].count == ${n:-0}"
	check "the broker says it held back" report_has '.network.broker.throttled >= 1'
	sbx -b -- /input/brk flood 20 8
	sleep 1
	t0=$(date +%s%N)
	kill -TERM "$SBX_PID" 2>/dev/null
	sbx_wait
	t1=$(date +%s%N)
	check "ward answered SIGTERM in $(((t1 - t0) / 1000000)) ms; $(jq -c '{reason}' "$REP" 2>/dev/null)" \
		test $(((t1 - t0) / 1000000)) -lt 3000
	check "reason interrupted" reason_is interrupted
	derive_policy python-logall python \
		-e 's/^syscalls default errno ENOSYS {/syscalls default errno ENOSYS log {/' || {
		fail "the test policy does not compile"
		return
	}
	sbx -p python-logall -- /input/brk distinct 340 423
	check "84 calls made; $(why)" so_has "distinct 84 ENOSYS 84"
	check "64 entries, 20 dropped, a report of $(stat -c %s "$REP") bytes" report_has \
		'(.denials.seccomp | length) == 64 and .denials.seccomp_dropped == 20'
	outside -- "$IN/brk" flood 2 8
	control "outside, more than 100000 a second; $(cwhy)" \
		awk '$1 == "flood" && $2 > 200000 { ok = 1 } END { exit !ok }' "$CO"
	outside -- "$IN/brk" distinct 340 423
	control "outside, the 84 calls are made; $(cwhy)" co_has "distinct 84 ENOSYS 84"
}
