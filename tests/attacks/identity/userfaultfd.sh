# attack: identity/userfaultfd
# boundary: kernel surface
# profile: python
# modes: root rootless
# requires: probe-slot
# what: creates a userfaultfd (UFFD_USER_MODE_ONLY, allowed to
#   unprivileged users), the tool kernel exploits use to stall the kernel
#   in the middle of a copy and win races
# expect: EPERM
# control: outside, as the sandbox's host user, the same call succeeds
# if it fails: the profile's `errno EPERM ... userfaultfd`
#   (stdlib-policies/*.ward), the seccomp program

attack() {
	sbx -- /input/atk userfaultfd
	check "userfaultfd: EPERM; $(why)" so_has "userfaultfd EPERM"
	outside -- "$IN/atk" userfaultfd
	control "outside, userfaultfd works; $(cwhy)" co_has "userfaultfd ok"
}
