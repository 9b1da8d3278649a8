# attack: identity/signal-host-process
# boundary: identity
# profile: python
# modes: root rootless
# requires: probe-slot
# what: signals a process of the host that runs as the same host user as
#   the sandbox (a stand-in the harness starts, its pid handed in: the
#   kernel would allow the signal by uid alone), by its pid and with
#   kill(-1, SIGKILL)
# expect: kill(pid): ESRCH; kill(-1) reaches only the sandbox's own
#   processes; the stand-in is alive afterwards
# control: outside, as the same host user, the same kill ends the
#   stand-in
# if it fails: the pid namespace (launcher/core/ns.c)

attack() {
	setpriv --reuid="$HUID" --regid="$HUID" --clear-groups \
		"$IN/atk" sleep 60 "$MARK-standin" >/dev/null 2>&1 &
	local standin=$!
	at_exit "kill -9 $standin; wait $standin"
	sleep 0.2
	sbx -- /input/atk kill "$standin" 9 kill-all 9
	check "kill(pid): ESRCH; $(why)" so_has "kill ESRCH"
	check "the stand-in is alive" kill -0 "$standin"
	outside -- "$IN/atk" kill "$standin" 9
	wait "$standin"
	control "outside, the same user kills it; $(cwhy)" co_has "kill ok"
	control "it is gone" eval "! kill -0 $standin 2>/dev/null"
}
