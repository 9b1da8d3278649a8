# attack: resources/fork-bomb
# boundary: resources
# profile: shell
# modes: root
# requires: bash
# seeds: 000-runaway 004-fork-bomb
# needs: the real profile (cgroup pids limit)
# what: the classic bash fork bomb, `:(){ :|:& };:`, left running
# expect: the kernel refuses forks past the profile's 256 tasks: the report
#   has the `pids_limit` flag, at most 256 tasks at its peak, and the run
#   ends at the 30 s wall with reason `timeout` (143: the profile's SIGTERM
#   ends the bomb's shell, or 137: its SIGKILL 5 s later); the outer net's
#   pids.max is never reached, and no process of the run is left
# control: outside, the same fork loop in a program (atk forkbomb) under
#   the outer net only makes more than 256 processes: the observation
#   would see a missing limit
# if it fails: the pids controller (launcher's cgroup code: pids.max of the
#   run's directory, v1 and v2), placement of init in the cgroup before the
#   target runs, the kill on timeout (cgroup.kill / freezer)

attack() {
	needs_real shell || return
	# (the shell waits on a sleeper started first: the bomb's own
	# processes are not its jobs)
	sbx -t 60 -- bash -c 'sleep 100 & :(){ :|:& };:; wait'
	check "reason timeout, status 143 or 137; $(why); $(jq -c '{reason,flags,exit_code}' "$REP")" \
		report_has '.reason == "timeout" and (.exit_code == 143 or .exit_code == 137)'
	check "the pids_limit flag; $(jq -c '{flags,pids_refused}' "$REP")" \
		report_has '(.flags | index("pids_limit")) and .pids_refused > 0'
	check "at most 256 tasks; $(jq -c .peaks "$REP")" report_has '.peaks.pids <= 256'
	outside -t 20 -- prlimit --nproc=400 -- "$IN/atk" forkbomb 0
	control "outside, the fork loop makes more than 256 processes; $(cwhy)" \
		test "$(awk '$1 == "forkbomb" { print $2 }' "$CO")" -gt 256
}
