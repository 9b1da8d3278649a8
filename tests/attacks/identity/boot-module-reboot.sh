# attack: identity/boot-module-reboot
# boundary: kernel surface
# profile: python
# modes: root rootless
# requires: probe-slot
# what: calls that replace or stop the kernel: kexec_load,
#   kexec_file_load, finit_module, delete_module, reboot, swapon (each with
#   arguments that are invalid once the permission checks pass, so that a
#   success changes nothing)
# expect: every call fails with EPERM, the profile's answer, before the
#   kernel looks at it
# control: outside, as root, the same calls reach the kernel: they fail
#   with the kernel's own errors (EINVAL, EBADF, ENOENT; ENOSYS where this
#   kernel was built without kexec or modules), never EPERM
# if it fails: the profile's `errno EPERM @reboot, @module, @swap`
#   (stdlib-policies/groups.ward), the seccomp program

attack() {
	local calls="kexec_load kexec_file_load finit_module delete_module reboot swapon" c
	# shellcheck disable=SC2086
	sbx -- /input/atk $calls
	for c in $calls; do
		check "$c: EPERM; $(why)" so_has "$c EPERM"
	done
	# shellcheck disable=SC2086
	outside -u root -- "$IN/atk" $calls
	control "outside as root, no call stops at EPERM; $(cwhy)" \
		test "$(grep -c ' EPERM$' "$CO")" = 0 -a "$(grep -c . "$CO")" = 6
	control "outside as root, reboot reaches the magic check (EINVAL); $(cwhy)" co_has "reboot EINVAL"
}
