# attack: files/device-nodes
# boundary: files
# profile: python
# modes: root rootless
# requires: probe-slot
# what: opens the host's devices by name (/dev/vda-like disks, /dev/sda,
#   /dev/mem, /dev/kmem, /dev/port, /dev/kmsg), then makes its own nodes
#   with mknod: a block device with the numbers of the host's root disk
#   and /dev/mem's character device, in /tmp and in the output slot, and
#   reads them
# expect: the devices are absent (ENOENT), mknod fails with EACCES
#   (Landlock: no rule grants making device nodes) or, where the kernel
#   has no Landlock, EPERM (no CAP_MKNOD), no node appears in the output
#   directory on the host; /dev/null, the control inside, opens
# control: outside, as root, the same mknod calls in a scratch directory
#   succeed: the program reports success where nothing stops it
# if it fails: the dev entry of the mount table (only null, zero, full,
#   random, urandom, tty are bound), nodev on every mount
#   (launcher/core/mounts.c), capabilities (no CAP_MKNOD), Landlock
#   (launcher/core/landlock.c)

attack() {
	local disk majmin maj min
	disk=$(awk '$5 == "/" { print $3; exit }' /proc/self/mountinfo)
	maj=${disk%:*} min=${disk#*:}
	sbx -- /input/atk open-rd /dev/vda open-rd /dev/sda open-rd /dev/mem \
		open-rd /dev/kmem open-rd /dev/port open-rd /dev/kmsg open-rd /dev/null \
		mknod-blk /tmp/disk "$maj" "$min" mknod-blk /output/disk "$maj" "$min" \
		mknod-chr /tmp/mem mknod-chr /output/mem open-rd /tmp/disk
	for i in 1 2 3 4 5 6; do
		check "host device $i of 6 absent; $(why)" test "$(sed -n ${i}p "$SO")" = "open-rd ENOENT"
	done
	check "/dev/null opens; $(why)" test "$(sed -n 7p "$SO")" = "open-rd ok"
	check "mknod of the disk ($disk): EACCES or EPERM; $(why)" test "$(grep -cE '^mknod-blk (EACCES|EPERM)$' "$SO")" = 2
	check "mknod of /dev/mem: EACCES or EPERM; $(why)" test "$(grep -cE '^mknod-chr (EACCES|EPERM)$' "$SO")" = 2
	check "no node in the output slot" test -z "$(find "$OUTD" \( -type b -o -type c \))"
	mkdir "$CASE_T/devctl"
	outside -u root -- "$IN/atk" mknod-blk "$CASE_T/devctl/disk" "$maj" "$min" \
		mknod-chr "$CASE_T/devctl/mem"
	control "outside as root, the nodes are made; $(cwhy)" \
		test "$(tr '\n' ' ' <"$CO")" = "mknod-blk ok mknod-chr ok "
	rm -rf "$CASE_T/devctl"
}
