# attack: identity/nested-userns
# boundary: identity
# profile: python
# modes: root rootless
# requires: probe-slot
# seeds: 004-privilege
# what: creates new namespaces, the first step of most container escapes
#   (a nested user namespace makes the process root with capabilities over
#   new mount and network namespaces): unshare(CLONE_NEWUSER), clone with
#   CLONE_NEWUSER, unshare of mount, network, pid, ipc, uts and cgroup
#   namespaces, and setns
# expect: every call fails with EPERM (the profile's @namespaces rule and
#   its clone condition)
# control: outside, as the sandbox's host user, unshare(CLONE_NEWUSER) and
#   clone(CLONE_NEWUSER) succeed on this host
# if it fails: the profile's `allow clone if flags & clone-namespaces == 0`
#   and `errno EPERM @namespaces`; behind them, user.max_user_namespaces
#   = 0 inside (launcher/core/init.c; see identity/layers-kernel)

attack() {
	sbx -- /input/atk unshare user clone user unshare mnt unshare net unshare pid \
		unshare ipc unshare uts unshare cgroup setns /proc/self/ns/net
	check "all EPERM; $(why)" test "$(tr '\n' ' ' <"$SO")" = \
		"unshare EPERM clone EPERM unshare EPERM unshare EPERM unshare EPERM unshare EPERM unshare EPERM unshare EPERM setns EPERM "
	sbx -- /input/probe unshare-user
	check "probe: unshare-user EPERM; $(why)" so_has "unshare-user EPERM"
	outside -- "$IN/atk" unshare user
	control "outside, a user namespace is made; $(cwhy)" co_has "unshare ok"
	outside -- "$IN/atk" clone user
	control "outside, clone(CLONE_NEWUSER) works; $(cwhy)" co_has "clone ok"
}
