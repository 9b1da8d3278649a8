# attack: identity/layers-kernel
# boundary: kernel surface
# profile: layers
# modes: root rootless
# requires: none (a test policy of its own)
# what: the kernel-surface attacks again with no seccomp filter at all
#   (the test policy `layers`: the python profile's mounts and identity,
#   every syscall allowed: permissive in exactly that way), to show what
#   stands behind the filter: mount, unshare(CLONE_NEWUSER), unshare of a
#   mount namespace, setns into init's, ptrace of init, /proc/1/exe for
#   writing, open_by_handle_at of the host's root, bpf, clock_settime,
#   sethostname, reboot; and the calls that nothing but the filter stops:
#   perf_event_open, userfaultfd, io_uring, keyctl
# expect: mount EPERM, unshare-user ENOSPC (user.max_user_namespaces = 0
#   inside), unshare-mnt EPERM, setns EPERM, ptrace EPERM, /proc/1/exe
#   EACCES, open_by_handle_at EPERM, bpf EPERM, clock_settime EPERM,
#   sethostname EPERM, reboot EPERM; perf, userfaultfd, io_uring and
#   keyctl succeed: for them the profiles' filter is the only layer
# control: outside, as root, mount in a private namespace, ptrace of a
#   child, open_by_handle_at and bpf succeed
# if it fails: capabilities and securebits (launcher/core/init.c), the nested
#   user namespace limit (launcher/core/init.c step 4), init's dumpable flag

attack() {
	sbx -- /input/probe mount unshare-user unshare-mnt open-w /proc/1/exe bpf
	check "probe's attacks; $(why)" test "$(tr '\n' ' ' <"$SO")" = \
		"mount EPERM unshare-user ENOSPC unshare-mnt EPERM open-w EACCES bpf EPERM "
	sbx -- /input/atk setns /proc/1/ns/mnt ptrace 1 obh /usr 2 clock_settime \
		sethostname sandbox reboot perf userfaultfd io_uring
	check "atk's attacks; $(why)" test "$(tr '\n' ' ' <"$SO")" = \
		"setns EACCES ptrace EPERM obh EPERM clock_settime EPERM sethostname EPERM reboot EPERM perf ok userfaultfd ok io_uring ok "
	sbx -- /input/probe keyctl
	check "keyctl succeeds without the filter; $(why)" so_has "keyctl ok"
	outside -u root -- unshare -m --propagation private "$IN/atk" mount-bind / /tmp obh /usr 2
	control "outside as root, mount and open_by_handle_at succeed; $(cwhy)" \
		test "$(grep -c ' ok$' "$CO")" = 2
	outside -u root -- "$IN/probe" bpf
	control "outside as root, bpf succeeds; $(cwhy)" co_has "bpf ok"
}
