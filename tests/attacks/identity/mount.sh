# attack: identity/mount
# boundary: identity
# profile: python
# modes: root rootless
# requires: probe-slot
# seeds: 004-privilege
# what: the seed's checklist row "尝试 mount 报权限错误", and the rest of the
#   mount family: mount a tmpfs, bind / over /tmp, mount the cgroup
#   filesystem, unmount /proc, chroot and pivot_root
# expect: every call fails with EPERM, and the first layer is the one that
#   refused it: the report's seccomp denials list mount (capabilities
#   stand behind it, but a policy that allows mount has lost a layer)
# control: outside, as root in a private mount namespace of its own
#   (nothing reaches the host), the same calls succeed
# if it fails: the profile's `errno EPERM @mount`; behind it,
#   capabilities (see identity/layers-kernel)

attack() {
	local args=(mount-bind / /tmp mount-cgroup /tmp umount /proc chroot /tmp pivot_root /tmp /tmp)
	sbx -- /input/atk "${args[@]}"
	check "every call EPERM; $(why)" test "$(tr '\n' ' ' <"$SO")" = \
		"mount-bind EPERM mount-cgroup EPERM umount EPERM chroot EPERM pivot_root EPERM "
	check "the policy's seccomp filter refused mount (the report's denials): $(jq -c '.denials.seccomp' "$REP" 2>&1 | head -c 300)" \
		report_has '[.denials.seccomp[] | select(.syscall == "mount" and .errno == "EPERM")] | length > 0'
	sbx -- /input/probe mount
	check "probe mount: EPERM; $(why)" so_has "mount EPERM"
	outside -u root -- unshare -m --propagation private "$IN/atk" mount-bind / /tmp chroot /tmp
	control "outside, in a private mount namespace, root mounts; $(cwhy)" \
		test "$(tr '\n' ' ' <"$CO")" = "mount-bind ok chroot ok "
}
