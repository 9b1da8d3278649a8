# attack: resources/wall-sleeper
# boundary: resources
# profile: python
# modes: root
# requires: python3
# seeds: 000-runaway
# needs: the real profile (wall time)
# what: the seed's checklist row "长时间任务被杀并返回超时原因": sleeps 100 s
#   under the profile's 30 s wall time
# expect: ward ends the run at 30 s (within 30-36 s of wall time, seen
#   from outside): the profile's SIGTERM at the wall ends python (its grace
#   of 5 s is not needed): reason `timeout`, status 143
# control: outside, the same sleeper is still alive after 3 s (it would
#   outlive a missing wall time); the harness kills it
# if it fails: the supervisor's wall timer and the kill of the whole
#   sandbox (launcher, part 4.3 of the spec)

attack() {
	needs_real python || return
	local t0 t1
	t0=$(date +%s%N)
	sbx -t 90 -- python3 -c 'import time; time.sleep(100)'
	t1=$(date +%s%N)
	check "reason timeout, 143; $(jq -c '{reason,exit_code,flags}' "$REP")" \
		report_has '.reason == "timeout" and .exit_code == 143'
	check "ended after 30-36 s ($(((t1 - t0) / 1000000)) ms)" \
		test $(((t1 - t0) / 1000000)) -ge 30000 -a $(((t1 - t0) / 1000000)) -le 36000
	setpriv --reuid="$HUID" --regid="$HUID" --clear-groups \
		/usr/bin/python3 -c 'import time; time.sleep(100)' "$MARK-ctl" &
	local p=$!
	at_exit "kill -9 $p; wait $p"
	sleep 3
	control "outside, the sleeper is alive after 3 s" kill -0 "$p"
}
