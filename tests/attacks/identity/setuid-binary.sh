# attack: identity/setuid-binary
# boundary: identity
# profile: python
# modes: root rootless
# requires: probe-slot
# seeds: 004-privilege
# what: runs setuid-root programs: a copy of a program made setuid root
#   on the host and handed in through the input slot (as a poisoned
#   dataset would), and the host's own setuid binaries bound with /usr
#   (mount, su)
# expect: the copy runs with every id 1000 (the sandbox user's) and no
#   capability (nosuid mounts, no_new_privs); mount(8) refuses as a normal
#   user and nothing is mounted
# control: outside, as the sandbox's host user, the same setuid copy runs
#   with effective uid 0: the observation tells a gained privilege
# if it fails: nosuid on every mount (launcher/core/mounts.c), no_new_privs
#   (launcher/core/init.c), the id maps (only one uid mapped)

attack() {
	cp "$IN/probe" "$IN/suid-probe"
	# Executable by the host uid of the sandbox only, for the time of the
	# test.
	chown "0:$HUID" "$IN/suid-probe" && chmod 4750 "$IN/suid-probe"
	at_exit "rm -f '$IN/suid-probe'"
	sbx -- /input/suid-probe ids caps
	check "every id 1000; $(why)" so_has "ids 1000 1000 1000 1000 1000 1000"
	check "no capability; $(why)" grep -q '^caps CapInh=0000000000000000 CapPrm=0000000000000000 CapEff=0000000000000000 ' "$SO"
	sbx -- /usr/bin/mount -t tmpfs none /tmp
	check "mount(8), setuid root on the host, refuses; $(why)" grep -q "must be superuser" "$SE"
	check "mount(8) failed; $(why)" test "$rc" != 0
	outside -- "$IN/suid-probe" ids
	control "outside, the setuid copy gives euid 0; $(cwhy)" co_has "ids $HUID 0 0 $HUID $HUID $HUID"
}
