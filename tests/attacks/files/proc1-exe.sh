# attack: files/proc1-exe
# boundary: files
# profile: python
# modes: root rootless
# requires: python3 probe-slot
# what: the runc escape (CVE-2019-5736): opens /proc/1/exe (init, a
#   clone of the host's ward binary) and /proc/self/exe (the host's
#   python3) for writing, reads init's memory and environment, and
#   ptraces it
# expect: /proc/1/exe: EACCES (init is not dumpable); /proc/self/exe:
#   EACCES or EROFS (a host file of root's on a read-only mount); /proc/1/mem and /proc/1/environ: EACCES; ptrace: EPERM; the
#   host's ward and python3 binaries have the same SHA-256 afterwards
# control: outside, as root, the same open for writing succeeds on a copy
#   of ward (not running, so not busy): the program reports success where
#   nothing stops it
# if it fails: PR_SET_DUMPABLE(0) before setup and again after the
#   credential change (launcher/core/init.c), the read-only binds, ptrace
#   refused by the profile (@debug)

attack() {
	local ward_sum py_sum
	ward_sum=$(sha256sum <"$WARD")
	py_sum=$(sha256sum </usr/bin/python3.11)
	sbx -- /input/atk open-w /proc/1/exe open-w /proc/self/exe open-rd /proc/1/mem \
		open-rd /proc/1/environ ptrace 1
	check "/proc/1/exe: EACCES; $(why)" test "$(sed -n 1p "$SO")" = "open-w EACCES"
	check "/proc/self/exe: EACCES or EROFS; $(why)" grep -qxE "open-w (EACCES|EROFS)" <(sed -n 2p "$SO")
	check "/proc/1/mem: EACCES; $(why)" test "$(sed -n 3p "$SO")" = "open-rd EACCES"
	check "/proc/1/environ: EACCES; $(why)" test "$(sed -n 4p "$SO")" = "open-rd EACCES"
	check "ptrace of init: EPERM; $(why)" so_has "ptrace EPERM"
	sbx -- python3 -c 'import errno
try:
    open("/proc/self/exe", "r+b")
    print("python-exe ok")
except OSError as e:
    print("python-exe", errno.errorcode[e.errno])'
	check "python's own /proc/self/exe: EACCES or EROFS; $(why)" grep -qxE "python-exe (EACCES|EROFS)" "$SO"
	check "ward unchanged on the host" test "$(sha256sum <"$WARD")" = "$ward_sum"
	check "python3 unchanged on the host" test "$(sha256sum </usr/bin/python3.11)" = "$py_sum"
	cp "$WARD" "$CASE_T/ward-copy"
	outside -u root -- "$IN/atk" open-w "$CASE_T/ward-copy"
	control "outside, opening a copy of ward for writing works; $(cwhy)" co_has "open-w ok"
}
