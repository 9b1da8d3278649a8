# attack: resources/double-fork-daemon
# boundary: lifecycle
# profile: python
# modes: root rootless
# requires: probe-slot
# seeds: 000-runaway
# what: a daemon meant to outlive the run: fork, setsid, fork again, the
#   grandchild re-executes itself as a 60 s sleeper with a marker in its
#   command line; the program returns at once
# expect: the run ends as soon as the program returns (within 10 s, not
#   60), and no process with the marker exists on the host afterwards
# control: outside the sandbox, the same daemon outlives its parent: the
#   host's process table shows the marker (the harness kills it)
# if it fails: init's exit ends the pid namespace (the kernel kills every
#   process in it), launcher/core/init.c; the cgroup kill on v1/v2

attack() {
	local t0 t1 p
	t0=$(date +%s)
	sbx -- /input/atk daemon 60 "$MARK-daemon"
	t1=$(date +%s)
	check "the daemon was started; $(why)" so_has "daemon started"
	check "the run ended within 10 s ($((t1 - t0)) s)" test $((t1 - t0)) -lt 10
	sleep 0.3
	check "no daemon on the host: $(pgrep -af "$MARK-daemon")" test -z "$(pgrep -f "$MARK-daemon")"
	outside -- "$IN/atk" daemon 60 "$MARK-ctl"
	# (up to 10 s for it to show: a slow kernel, the VM's TCG, takes its
	# time to fork twice)
	for _ in $(seq 100); do
		p=$(pgrep -f "$MARK-ctl") && break
		sleep 0.1
	done
	control "outside, the daemon outlives its parent" test -n "$p"
	[ -n "$p" ] && kill -9 $p
}
