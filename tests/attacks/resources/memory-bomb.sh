# attack: resources/memory-bomb
# boundary: resources
# profile: python
# modes: root
# requires: python3
# seeds: 000-fill
# needs: the real profile (cgroup memory limit)
# what: the seed's `[0] * 10**9`: eight gigabytes of pointers, written
# expect: the OOM killer ends it inside the profile's 512 MiB: reason
#   `oom_killed` (137), the memory peak seen from outside (the test's
#   cgroup, which holds the run's) at most 512 MiB and a little of ward's
#   own, and the outer net's 2 GiB limit never touched
# control: outside, the same line in a cgroup limited to 768 MiB goes past
#   512 MiB before that limit stops it: the peak would show a missing
#   limit
# if it fails: the memory controller (memory.limit_in_bytes /
#   memory.max, swap: memsw / memory.swap.max), the OOM detection of the
#   report (memory.oom_control / memory.events, and the SIGKILL at the
#   limit cross-check)

attack() {
	needs_real python || return
	local peak cg
	sbx -- python3 -c '[0] * 10**9'
	peak=$(cg_mem_peak "${CG_RUN[0]}")
	check "reason oom_killed, 137; $(why); $(jq -c '{reason,flags,oom,peaks}' "$REP")" \
		report_has '.reason == "oom_killed" and .exit_code == 137'
	check "the peak seen from outside stays under 512 MiB + 32 MiB: $peak" \
		test "$peak" -le $(((512 + 32) << 20))
	check "the report's peak agrees: at most 512 MiB; $(jq -c .peaks "$REP")" \
		report_has '.peaks.memory_bytes <= 536870912 and .peaks.memory_bytes > 400000000'
	# The control, in a cgroup of its own below the test's.
	cg="${CG_RUN[0]}/control"
	mkdir "$cg" && cg_mem_limit "$cg" $((768 << 20))
	outside -u root -- sh -c "echo \$\$ >'$cg/cgroup.procs' && exec setpriv --reuid=$HUID --regid=$HUID --clear-groups /usr/bin/python3 -c '[0] * 10**9'"
	peak=$(cg_mem_peak "$cg")
	control "outside, the peak goes past 512 MiB: $peak" test "$peak" -gt $((600 << 20))
	rmdir "$cg"
}
