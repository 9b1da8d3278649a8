# attack: identity/kill-supervisor
# boundary: lifecycle
# profile: python
# modes: root rootless
# requires: python3
# seeds: 004-privilege
# what: kills the supervisor, to end the run without a report or to
#   escape its limits: the harness hands the program the supervisor's host
#   pid (it could be guessed), and the program sends it SIGKILL, sends
#   SIGKILL to init (pid 1), kill(-1, SIGKILL) to everything it may signal,
#   and pidfd_open of the supervisor's pid
# expect: the supervisor's pid does not exist inside (ESRCH for kill and
#   pidfd_open); init ignores the signal; the run ends normally: status 0
#   and a report with reason `exited`, and the supervisor was alive until
#   the end
# control: outside, as the supervisor's own user, SIGKILL to a process of
#   that user (a stand-in started for the purpose) lands: the process dies
# if it fails: the pid namespace (CLONE_NEWPID, launcher/core/ns.c), init as
#   PID 1 with no handler for SIGKILL (launcher/core/init.c)

attack() {
	local i sup p wuid
	put killsup.py <<'PY'
import errno, os, signal, sys, time
pid = int(sys.stdin.readline())
def attempt(name, fn):
    try:
        fn()
        print(name, "ok")
    except OSError as e:
        print(name, errno.errorcode[e.errno])
attempt("kill-supervisor", lambda: os.kill(pid, signal.SIGKILL))
attempt("pidfd-supervisor", lambda: os.pidfd_open(pid))
attempt("kill-init", lambda: os.kill(1, signal.SIGKILL))
attempt("kill-all", lambda: os.kill(-1, signal.SIGKILL))
time.sleep(0.5)
print("still here")
PY
	ctl_fifo
	sbx -b -s "$CTL_FIFO" -- python3 /input/killsup.py "$MARK"
	find_supervisor "$MARK"
	sup=$SUP
	[ -n "$sup" ] || fail "the supervisor was not found"
	# (on its stdin, a FIFO the harness holds open: the slots show the
	# sandbox nothing live, docs/spec.md 1.7.3)
	ctl_say "$sup"
	wuid=$(stat -c %u "/proc/$sup")
	sbx_wait
	check "the supervisor's pid: ESRCH; $(why)" so_has "kill-supervisor ESRCH"
	check "pidfd_open of it: ESRCH; $(why)" so_has "pidfd-supervisor ESRCH"
	check "init ignores SIGKILL and the run goes on; $(why)" so_has "still here"
	check "the run ended normally (0); $(why)" rc_is 0
	check "the report says exited; $(cat "$REP" 2>/dev/null)" reason_is exited
	# The control: a stand-in of the supervisor's user, killed from outside.
	setpriv --reuid="$wuid" --regid="$wuid" --clear-groups \
		"$IN/atk" sleep 30 "$MARK-standin" >/dev/null 2>&1 &
	local standin=$!
	at_exit "kill -9 $standin; wait $standin"
	sleep 0.3
	if [ "$wuid" = 0 ]; then
		outside -u root -- "$IN/atk" kill "$standin" 9
	else
		outside -u "$wuid" -- "$IN/atk" kill "$standin" 9
	fi
	wait "$standin"
	control "outside, the stand-in is killed; $(cwhy)" co_has "kill ok"
}
