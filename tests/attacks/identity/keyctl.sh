# attack: identity/keyctl
# boundary: kernel surface
# profile: python
# modes: root rootless
# requires: probe-slot
# what: reaches the kernel keyring, a frequent home of kernel bugs and of
#   other processes' secrets: joins a new session keyring
#   (KEYCTL_JOIN_SESSION_KEYRING)
# expect: EPERM
# control: outside, as the sandbox's host user, the same call succeeds
# if it fails: the profile's `errno EPERM @keyring` (stdlib-policies/
#   groups.ward), the seccomp program (launcher/core/exec.c)

attack() {
	sbx -- /input/probe keyctl
	check "keyctl: EPERM; $(why)" so_has "keyctl EPERM"
	outside -- "$IN/probe" keyctl
	control "outside, keyctl works; $(cwhy)" co_has "keyctl ok"
}
