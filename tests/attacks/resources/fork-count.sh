# attack: resources/fork-count
# boundary: resources
# profile: python
# modes: root
# requires: python3
# seeds: 000-runaway 004-fork-bomb
# needs: the real profile (cgroup pids limit)
# what: the seed's checklist row "fork 上百次后失败": os.fork in a loop,
#   every child waiting, until the kernel refuses; then exits
# expect: fork fails with EAGAIN before 256 children (the profile's pids
#   limit, counting init and the interpreter), the report has the
#   `pids_limit` flag and reason `exited`, and every child is gone after
#   the run
# control: outside, the same loop under the outer net only goes past 256
# if it fails: the pids controller of the run's cgroup

attack() {
	needs_real python || return
	put forks.py <<'PY'
import errno, os, signal, sys
kids, err = [], "none"
while len(kids) < 2000:
    try:
        pid = os.fork()
    except OSError as e:
        err = errno.errorcode[e.errno]
        break
    if pid == 0:
        signal.pause()
        os._exit(0)
    kids.append(pid)
print("fork", len(kids), err)
sys.stdout.flush()
for pid in kids:  # (for the control outside: leave nothing behind)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
PY
	sbx -- python3 /input/forks.py
	check "fork fails with EAGAIN before 256; $(why)" \
		awk '$1 == "fork" && $3 == "EAGAIN" && $2 < 256 && $2 > 200 { ok = 1 } END { exit !ok }' "$SO"
	check "reason exited, pids_limit flag; $(jq -c '{reason,flags}' "$REP")" \
		report_has '.reason == "exited" and (.flags | index("pids_limit"))'
	outside -t 20 -- prlimit --nproc=400 -- /usr/bin/python3 "$IN/forks.py"
	control "outside, more than 256 forks; $(cwhy)" \
		awk '$1 == "fork" && $2 > 256 { ok = 1 } END { exit !ok }' "$CO"
}
