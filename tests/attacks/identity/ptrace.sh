# attack: identity/ptrace
# boundary: identity
# profile: python
# modes: root rootless
# requires: probe-slot
# seeds: 004-privilege
# what: traces processes: PTRACE_ATTACH to a child of its own and to init
#   (pid 1, which holds the supervisor's pipes), and reads init's memory
#   with process_vm_readv
# expect: every call fails with EPERM
# control: outside, as the sandbox's host user, attaching to a child of
#   its own succeeds
# if it fails: the profile's `errno EPERM @debug`; behind it, init's
#   PR_SET_DUMPABLE(0) (launcher/core/init.c; see identity/layers-kernel)

attack() {
	sbx -- /input/atk ptrace-child ptrace 1 process_vm_readv 1
	check "every call EPERM; $(why)" test "$(tr '\n' ' ' <"$SO")" = \
		"ptrace-child EPERM ptrace EPERM process_vm_readv EPERM "
	outside -- "$IN/atk" ptrace-child
	control "outside, ptrace of a child works; $(cwhy)" co_has "ptrace-child ok"
}
