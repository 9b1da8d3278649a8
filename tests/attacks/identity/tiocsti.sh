# attack: identity/tiocsti
# boundary: identity
# profile: python
# modes: root rootless
# requires: probe-slot
# what: CVE-2017-5226: given the caller's terminal as its stdin, the
#   program pushes a command into the terminal's input queue with TIOCSTI,
#   for the caller's shell to run once the sandbox has exited. The
#   harness runs ward in a terminal (script(1)) and then reads that
#   terminal for two seconds, as the caller's shell would
# expect: the sandbox is killed at the call (the profile's `kill ioctl if
#   request == TIOCSTI`): status 159, report reason `seccomp_violation`
#   naming ioctl; the reader gets nothing
# control: outside the sandbox, the same program in the same terminal
#   injects the text and the reader gets it
# if it fails: the profile's kill rule on TIOCSTI; behind it, setsid() in
#   init (no controlling terminal; launcher/core/init.c step 3, tested without
#   seccomp by tests/e2e tiocsti)

attack() {
	local text cmd
	text="echo-$MARK"
	ward_cmd cmd -w --stdin -w - -- /input/atk tiocsti 0 "$text" || {
		skip "no policy"
		return
	}
	local u=
	[ "$MODE" = rootless ] && u=$NOBODY
	rc=0
	SO="$CASE_T/tty.out" SE=/dev/null
	# (script's own stdin stays open without data: at its end, script
	# would send an end-of-file to the terminal, and the read end early)
	run_netted ${u:+-u $u} -e SHELL=/bin/bash -- script -qec "$cmd </dev/tty; echo status=\$?; read -t 2 x; echo GOT:\$x" /dev/null >"$SO" 2>&1 < <(sleep 5)
	check "killed by SIGSYS (159); $(why)" grep -q '^status=159' <(tr -d '\r' <"$SO")
	check "the report names the call: seccomp_violation, ioctl; $(cat "$REP" 2>/dev/null)" \
		report_has '.reason == "seccomp_violation" and .denials.seccomp[0].syscall == "ioctl"'
	check "the reader got nothing; $(why)" grep -qx 'GOT:' <(tr -d '\r' <"$SO")
	outside -e SHELL=/bin/bash -- script -qec "$IN/atk tiocsti 0 $text; read -t 2 x; echo GOT:\$x" /dev/null < <(sleep 5)
	control "outside, the reader gets the injected text; $(cwhy)" \
		grep -qx "GOT:$text" <(tr -d '\r' <"$CO")
}
