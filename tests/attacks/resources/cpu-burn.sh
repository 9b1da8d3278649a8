# attack: resources/cpu-burn
# boundary: resources
# profile: python
# modes: root
# requires: python3
# seeds: 000-runaway
# needs: the real profile (cgroup cpu quota)
# what: the seed's checklist row "死循环只占满该配额": two processes
#   spinning for 4 seconds, on a 2-CPU host
# expect: the CPU time the run used, read from outside in the test's
#   cpuacct cgroup (which holds the run's), is at most the profile's half
#   CPU over the run's wall time (with 30% tolerance and 0.3 s for start),
#   and the report counts throttled periods
# control: outside, the same burn with no quota uses more than 0.8 CPU
#   over its wall time (two spinning processes on a shared 2-CPU host)
# if it fails: the cpu controller (cpu.cfs_quota_us / cpu.max) of the
#   run's cgroup, placement before the target runs

attack() {
	needs_real python || return
	local t0 t1 used wall
	put burn.py <<'PY'
import os, sys, time
end = time.time() + float(sys.argv[1])
pid = os.fork()
while time.time() < end:
    pass
if pid:
    os.wait()
PY
	used=$(cg_cpu_ns "${CG_RUN[2]}")
	t0=$(date +%s%N)
	sbx -- python3 /input/burn.py 4
	t1=$(date +%s%N)
	used=$(($(cg_cpu_ns "${CG_RUN[2]}") - used))
	wall=$((t1 - t0))
	check "CPU used $((used / 1000000)) ms over $((wall / 1000000)) ms of wall: at most half, +30%, +0.3 s" \
		test "$used" -le $((wall / 2 * 13 / 10 + 300000000))
	check "the report counts throttled periods; $(jq -c .peaks "$REP")" \
		report_has '.peaks.cpu_throttled_periods > 0'
	used=$(cg_cpu_ns "${CG_RUN[2]}")
	t0=$(date +%s%N)
	outside -- /usr/bin/python3 "$IN/burn.py" 2
	t1=$(date +%s%N)
	used=$(($(cg_cpu_ns "${CG_RUN[2]}") - used))
	wall=$((t1 - t0))
	control "outside, the burn uses more than 0.8 CPU: $((used / 1000000)) ms over $((wall / 1000000)) ms" \
		test "$used" -gt $((wall * 8 / 10))
}
