# attack: resources/slot-disk-bound
# boundary: resources
# profile: shell
# modes: root rootless
# requires: sh output-slot
# seeds: 000-fill 004-disk-fill
# what: issue 15's measurement: 7 x 100 MiB of zeros written into the
#   read-write output slot, whose host path is a directory of the host's
#   disk (a bind of it once let 1,000 MiB through in 1.3 s)
# expect: the host directory gets at most the slot's size (the profile's
#   `slot output at /output rw size 100M`: what the courier copies back
#   from the slot's tmpfs), the report's flags say `disk_full` and its
#   peaks show the slot full at 100 MiB, the run exits 0, and the host
#   disk moves by less than 150 MiB
# control: outside, the same dd into the same host directory writes
#   120 MiB (removed at once): the size check would see an unbounded slot
# if it fails: the read-write slot's tmpfs (launcher/core/mounts.c,
#   do_rw_slot) and the courier's copy back (launcher/unprivileged/
#   slotfs.c); the slot's size in the profile

attack() {
	local free0 free1 held
	free0=$(df -B1 --output=avail / | tail -1)
	sbx -- sh -c 'for i in 1 2 3 4 5 6 7; do dd if=/dev/zero of=/output/f$i bs=1M count=100 2>/dev/null; done; echo wrote'
	free1=$(df -B1 --output=avail / | tail -1)
	held=$(du -sb "$OUTD" | cut -f1)
	check "the host slot holds at most 100 MiB (it holds $held); $(why)" \
		test "$held" -le $((100 * 1048576 + 65536))
	check "the report's flags say disk_full; $(why)" \
		report_has '.flags | index("disk_full") != null'
	check "the report shows the slot full at 100 MiB" \
		report_has '.peaks.mounts[] | select(.path == "/output") | .full and .bytes_peak == 104857600'
	check "the run exited 0; $(why)" rc_is 0
	check "the host disk moved by less than 150 MiB ($free0 -> $free1)" \
		test $((free0 - free1)) -lt $((150 << 20))
	rm -f "$OUTD"/f?
	outside -- sh -c "dd if=/dev/zero of='$OUTD/ctl' bs=1M count=120 2>/dev/null; stat -c %s '$OUTD/ctl'; rm -f '$OUTD/ctl'"
	control "outside, dd writes 120 MiB into the same directory; $(cwhy)" co_has 125829120
}
