# attack: identity/bpf
# boundary: kernel surface
# profile: python
# modes: root rootless
# requires: probe-slot
# what: loads into the kernel's BPF machinery (the verifier is a classic
#   escalation path): creates a BPF array map
# expect: EPERM
# control: outside, as root, the same call creates the map (unprivileged
#   BPF is disabled on this host, so the control needs root)
# if it fails: the profile's `errno EPERM @privileged` (bpf is in it),
#   capabilities (no CAP_BPF), kernel.unprivileged_bpf_disabled

attack() {
	sbx -- /input/probe bpf
	check "bpf: EPERM; $(why)" so_has "bpf EPERM"
	outside -u root -- "$IN/probe" bpf
	control "outside as root, bpf works; $(cwhy)" co_has "bpf ok"
}
