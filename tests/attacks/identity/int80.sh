# attack: identity/int80
# boundary: kernel surface
# profile: python
# modes: root rootless
# requires: probe-slot
# what: calls getpid through the i386 ABI (`int 0x80` from a 64-bit
#   program), where the syscall numbers differ: a filter that ignores the
#   architecture field would judge the wrong call
# expect: the program is killed by SIGSYS (status 159, report reason
#   `signaled`, signal 31)
# control: outside the sandbox, the same call returns a pid. (On hosts
#   whose hypervisor has no int 0x80 entry, it dies with SIGSEGV outside
#   any sandbox: the attack is then reported SKIP, not PASS)
# if it fails: the architecture check of the compiled filter ("other
#   architectures: KILL_PROCESS" in `wardc explain`)

attack() {
	outside -- "$IN/probe" int80
	if [ "$crc" != 0 ]; then
		_verdict CONTROL "int 0x80 outside"
		skip "int 0x80 dies with status $crc outside any sandbox on this host"
		return
	fi
	control "outside, int 0x80 returns a pid; $(cwhy)" co_has "int80 ok"
	sbx -- /input/probe int80
	check "killed by SIGSYS; $(why)" rc_is 159
	check "the report says signaled 31" report_has '.reason == "signaled" and .signal == 31'
}
