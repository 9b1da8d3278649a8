# attack: identity/io-uring
# boundary: kernel surface
# profile: python
# modes: root rootless
# requires: probe-slot
# what: sets up an io_uring, whose operations the seccomp filter never
#   sees (an io_uring can open, read, connect... behind the filter's back)
# expect: io_uring_setup fails with EPERM
# control: outside, as the sandbox's host user, the ring is made
# if it fails: the profile's `errno EPERM @io-uring`, the seccomp program

attack() {
	sbx -- /input/atk io_uring
	check "io_uring_setup: EPERM; $(why)" so_has "io_uring EPERM"
	outside -- "$IN/atk" io_uring
	control "outside, io_uring works; $(cwhy)" co_has "io_uring ok"
}
