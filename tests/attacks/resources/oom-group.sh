# attack: resources/oom-group
# boundary: resources
# profile: python
# modes: root rootless
# requires: python3
# what: seed 000's "past a limit, end the whole process group": a forked
#   child allocates 1 GiB under the profile's 512M memory limit, and the
#   parent, once the child is gone, prints a line and exits 0 -- the run
#   would look fine if only the child died
# expect: the run ends with reason oom_killed and a non-zero exit status
#   (137), and the parent's line never reaches the caller
# control: the same program under a test policy that says `oom process;`
#   (only the victim dies, the kernel's own behaviour: that one line
#   added) prints the parent's line and exits 0
# if it fails: memory.oom.group (cgroup2) or the held-back killer and the
#   OOM notification (v1: launcher/core/cgroup_files.c, ward_cg_oom_watch;
#   the supervisor's loop, launcher/supervisor/supervise.c)

attack() {
	put oom.py <<'PY'
import os, sys
pid = os.fork()
if pid == 0:
    x = bytearray(1 << 30)
    os._exit(0)
os.waitpid(pid, 0)
print("parent-after-oom", flush=True)
PY
	sbx -- /usr/bin/python3 /input/oom.py
	if ! report_has '.cgroup.version.memory'; then
		skip "no memory cgroup in this mode (the profile's test copy): $(why)"
		return
	fi
	check "the run ended oom_killed; $(why)" reason_is oom_killed
	check "ward's exit status is 137; $(why)" rc_is 137
	check "the parent's later line never appeared" \
		sh -c "! grep -q parent-after-oom '$SO'"
	derive_policy oom-process python -e '$a limits { oom process; }' || {
		fail "the test policy does not compile: $(head -c 300 "$T/pol/err")"
		return
	}
	sbx -p oom-process -- /usr/bin/python3 /input/oom.py
	cp "$SO" "$CASE_T/process.out"
	control "with oom process, the parent goes on and prints its line (rc $rc)" \
		sh -c "grep -qx parent-after-oom '$CASE_T/process.out'"
}
