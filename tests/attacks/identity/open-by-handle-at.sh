# attack: identity/open-by-handle-at
# boundary: kernel surface
# profile: python
# modes: root rootless
# requires: probe-slot
# what: the "shocker" escape: open_by_handle_at with a forged handle for
#   inode 2 (the root directory) of the filesystem behind the read-only
#   /usr bind, which would open the host's whole root filesystem
# expect: EPERM, and nothing of the host's root is listed
# control: outside, as root, the same call on the host's /usr opens the
#   root filesystem and lists it (etc, var, root...)
# if it fails: the profile's `errno EPERM @privileged`; behind it,
#   capabilities (no CAP_DAC_READ_SEARCH in the initial user namespace;
#   see identity/layers-kernel)

attack() {
	sbx -- /input/atk obh /usr 2
	check "open_by_handle_at: EPERM; $(why)" so_has "obh EPERM"
	check "no listing of the host's root; $(why)" test -z "$(grep '^obh-sees' "$SO")"
	outside -u root -- "$IN/atk" obh /usr 2
	control "outside as root, the host's root is opened; $(cwhy)" co_has "obh ok"
	control "... and listed; $(cwhy)" grep -q '^obh-sees.* etc' "$CO"
}
