# attack: identity/x32-abi
# boundary: kernel surface
# profile: python
# modes: root rootless
# requires: probe-slot
# what: calls getpid through the x32 ABI (syscall number | 0x40000000),
#   the bypass that Kafel- and seccompiler-based filters missed: a filter
#   that compares only the number would see an unknown call and apply its
#   default
# expect: the program is killed by SIGSYS: status 159, report reason
#   `signaled` with signal 31, and it prints nothing after the call
# control: outside the sandbox the same call returns (ENOSYS: this kernel
#   has no x32 support), so the program would go on and print
# if it fails: the x32 check of the compiled filter ("x32 ABI:
#   KILL_PROCESS" in `wardc explain`; compiler/codegen/seccomp_gen.c)

attack() {
	sbx -- /input/probe x32
	check "killed by SIGSYS; $(why)" rc_is 159
	check "the report says signaled 31; $(cat "$REP")" report_has '.reason == "signaled" and .signal == 31'
	check "nothing after the call; $(why)" test -z "$(grep '^x32' "$SO")"
	outside -- "$IN/probe" x32
	control "outside, the call returns; $(cwhy)" grep -qE '^x32 (ok|ENOSYS)$' "$CO"
}
