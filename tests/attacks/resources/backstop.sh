# attack: resources/backstop
# boundary: lifecycle
# modes: root rootless
# requires: python3
# seeds: 000-runaway
# what: outlives the wall time by stopping the one process that enforces
#   it: a sleeper runs under the python profile with `wall 2s; grace 1s`
#   (a test policy: only those two limits differ), and the supervisor is
#   sent SIGSTOP just after the start (by the harness: the sandbox cannot
#   reach it) as soon as the sleeper runs, so that neither its SIGTERM at
#   the wall nor its SIGKILL after the grace can come
# expect: seen from outside (the host's process table, the sleeper by its
#   marker), counted from when the sleeper is first seen (init arms its
#   timer just before it starts the target, so a slow launch on a loaded
#   host moves both), the sleeper is still alive at 3.2 s (wall + grace
#   passed, the supervisor did nothing) and gone by 5 s, within a second
#   of init's own backstop timer at wall + grace + 1 s (4 s), which ended
#   the pid namespace; once sent SIGCONT, ward ends and writes its report
# control: outside, the same sleeper under a supervisor-only timer
#   (timeout -s KILL 2), that supervisor stopped the same way, is still
#   alive after 5 s
# if it fails: the backstop (arm_backstop and backstop in
#   launcher/core/init.c: setitimer at wall + grace + WARD_BACKSTOP_MARGIN_MS,
#   SIGALRM taken by init's sigwaitinfo loop)

# now_ms: the boot clock (CLOCK_BOOTTIME, as /proc/PID/stat's start times)
now_ms() { awk '{ print int($1 * 1000) }' /proc/uptime; }

# pids of the python sleepers that carry TAG, of the sandbox's host user
# (not ward nor the harness's wrappers, whose command lines hold it too)
sleepers() {
	local p
	for p in $(pgrep -U "$HUID" -f -- "$1"); do
		[ "$(cat "/proc/$p/comm" 2>/dev/null)" = python3 ] && echo "$p"
	done
}

attack() {
	local i p sup= t0 alive_at= gone_at= ctl stop_ctl run_at=
	derive_policy backstop python -E -e '/^[[:space:]]*(wall|grace)[[:space:]]/d' \
		-e '$a limits { wall 2s; grace 1s; }' || {
		fail "the test policy does not compile: $(head -c 300 "$T/pol/err")"
		return
	}
	# The control first, in parallel: a supervisor-only timer, stopped.
	setpriv --reuid="$HUID" --regid="$HUID" --clear-groups \
		timeout -s KILL 2 /usr/bin/python3 -c 'import time; time.sleep(60)' "$MARK-ctl" &
	ctl=$!
	at_exit "kill -9 $ctl 2>/dev/null; pkill -9 -U $HUID -f -- $MARK-ctl; wait $ctl 2>/dev/null"
	for i in $(seq 100); do
		[ -n "$(sleepers "$MARK-ctl")" ] && break
		sleep 0.02
	done
	kill -STOP "$ctl"
	t0=$(date +%s%N)
	sbx -b -p backstop -- python3 -c 'import time; time.sleep(60)' "$MARK-sbx"
	find_supervisor "$MARK-sbx"
	sup=$SUP
	[ -n "$sup" ] || { fail "the supervisor was not found"; return; }
	# Stopped once the sleeper runs (before, init would still wait for
	# its release, and nothing would run at all).
	for i in $(seq 250); do
		[ -n "$(sleepers "$MARK-sbx")" ] && break
		sleep 0.02
	done
	kill -STOP "$sup"
	at_exit "kill -CONT $sup 2>/dev/null"
	# From here on, times are counted from the sleeper's start as the
	# kernel has it (its fork by init, just after init armed the timer),
	# in the boot clock of /proc/uptime: a slow launch or a slow look at
	# the process table moves neither.
	p=$(sleepers "$MARK-sbx" | head -1)
	t0=$(awk -v tck="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); split($0, f, " "); print int(f[20] * 1000 / tck) }' "/proc/$p/stat" 2>/dev/null)
	[ -n "$t0" ] || { fail "the sleeper's start time was not read (pid ${p:-none})"; kill -CONT "$sup"; sbx_wait; return; }
	run_at=$(($(now_ms) - t0))
	while :; do
		local ms=$(($(now_ms) - t0))
		if [ -n "$(sleepers "$MARK-sbx")" ]; then
			[ "$ms" -ge 3200 ] && [ -z "$alive_at" ] && alive_at=$ms
		else
			gone_at=$ms
			break
		fi
		[ "$ms" -ge 8000 ] && break
		sleep 0.05
	done
	while [ $(($(now_ms) - t0)) -lt 5000 ]; do sleep 0.1; done
	stop_ctl=$(sleepers "$MARK-ctl")
	kill -CONT "$sup"
	sbx_wait
	check "the sleeper outlived wall + grace with the supervisor stopped (alive at ${alive_at:-never} ms)" \
		test -n "$alive_at"
	check "the sleeper was gone by 5 s, within a second of the backstop at 4 s (at ${gone_at:-not gone by 8000} ms; the supervisor stopped at ${run_at} ms)" \
		test -n "$gone_at" -a "${gone_at:-99999}" -le 5000
	check "ward ended once continued, with a report (status $rc)" test -s "$REP"
	check "the report says timeout, ended by the backstop ($(jq -c '{reason, t: .peaks.timers}' "$REP" 2>/dev/null))" \
		test "$(jq -r '.reason + " " + (.peaks.timers.ended_by_backstop | tostring)' "$REP" 2>/dev/null)" = "timeout true"
	control "outside, the sleeper under a stopped supervisor-only timer is alive after 5 s" \
		test -n "$stop_ctl"
}
