# attack: identity/init-cmdline
# boundary: identity
# profile: python
# modes: root rootless
# requires: python3
# what: reads init's /proc/1/cmdline and /proc/1/environ (init is a clone
#   of the supervisor: without a defence, cmdline is ward's whole command
#   line, readable whatever init's dumpability) looking for what the caller
#   passed ward: the report's host path, the slots' host paths, a marker in
#   ward's arguments and one in ward's environment; also /proc/1/comm
# expect: /proc/1/cmdline is `ward-init` and nothing else; /proc/1/environ
#   fails with EACCES; no host path nor marker appears in any output
# control: on the host, the supervisor's own /proc/PID/cmdline (the same
#   argv, read while the run is going on) holds the report's host path and
#   the marker: the observation would see them in a clone's cmdline
# if it fails: ward_forget_cmdline (launcher/core/cmdline.c: copies, zeroes
#   the argument and environment areas, PR_SET_MM_MAP), called first in
#   ward_init_main (launcher/core/init.c)

attack() {
	local i p sup=
	put init_cmdline.py <<'PY'
import errno, sys, time
for p in ("/proc/1/cmdline", "/proc/1/environ", "/proc/1/comm"):
    try:
        with open(p, "rb") as f:
            print("read %s %r" % (p, f.read()))
    except OSError as e:
        print("read %s %s" % (p, errno.errorcode[e.errno]))
sys.stdout.flush()
time.sleep(float(sys.argv[1]))
PY
	sbx -b -e "WARD_ATTACK_ENV=$MARK-env" -- python3 /input/init_cmdline.py 2 "$MARK-arg"
	find_supervisor "$MARK-arg"
	sup=$SUP
	# The control: the supervisor, whose clone init is, on the host.
	tr '\0' ' ' <"/proc/$sup/cmdline" >"$CASE_T/sup-cmdline" 2>/dev/null
	sbx_wait
	check "the run ended normally; $(why)" rc_is 0
	check "/proc/1/cmdline is ward-init; $(why)" so_has "read /proc/1/cmdline b'ward-init\\x00'"
	check "/proc/1/environ: EACCES; $(why)" so_has "read /proc/1/environ EACCES"
	check "no argument marker inside; $(why)" not_in_so "$MARK-arg"
	check "no environment marker inside; $(why)" not_in_so "$MARK-env"
	check "no report path inside; $(why)" not_in_so "$REP"
	check "no slot path inside; $(why)" not_in_so "$IN"
	control "on the host, the supervisor's cmdline holds the report path and the marker ($(head -c 300 "$CASE_T/sup-cmdline"))" \
		grep -qF -e "--report $REP" "$CASE_T/sup-cmdline"
	control "... and the marker" grep -qF -- "$MARK-arg" "$CASE_T/sup-cmdline"
}

not_in_so() { ! grep -qaF -- "$1" "$SO" "$SE"; }
