# attack: resources/disk-fill
# boundary: resources
# profile: shell
# modes: root rootless
# requires: bash
# seeds: 000-fill 004-disk-fill
# what: the seed's checklist row "dd 写入超过限制失败": dd of zeros into
#   /tmp, /work and /dev/shm, two files of 60 MiB each (one file would
#   meet the profile's 100 MiB file size limit first)
# expect: the second dd fails with "No space left on device" where the
#   tmpfs is full: both files together hold exactly 100 MiB in /tmp and
#   /work, 64 MiB in /dev/shm; the host's disk is untouched (its free
#   space moves by less than 64 MiB) and the run exits normally; the
#   report's flags say disk_full and its peaks show /tmp and /work full at
#   100 MiB (seed 000: every exceeded item on the record; each stays full
#   half a second, as the flag is a reading: docs/spec.md 4.7)
# control: outside, the same dd into a host directory writes past 100 MiB
#   (the file is removed at once): the size check would see a missing cap;
#   a run that fills nothing has no disk_full flag
# if it fails: the tmpfs size of the profile's fs section and of /dev/shm
#   (launcher/core/mounts.c), that the workspace is tmpfs and not a host
#   directory

attack() {
	local free0 free1
	put fill.sh <<'SH'
for d in /tmp /work /dev/shm; do
	dd if=/dev/zero of=$d/fill1 bs=1M count=60 2>/dev/null
	# (dd's message is kept in memory: the full tmpfs has no room for it)
	if err=$(dd if=/dev/zero of=$d/fill2 bs=1M count=60 status=none 2>&1); then r=ok
	else case $err in *"No space left"*) r=ENOSPC ;; *) r="other: $err" ;; esac; fi
	echo "fill $d $r $(($(stat -c %s $d/fill1) + $(stat -c %s $d/fill2)))"
	# (full for a while: the courier reads the mounts every 50 ms)
	sleep 0.5
	rm -f $d/fill1 $d/fill2
done
SH
	free0=$(df -B1 --output=avail / | tail -1)
	sbx -- bash /input/fill.sh
	free1=$(df -B1 --output=avail / | tail -1)
	check "/tmp full at 100 MiB; $(why)" so_has "fill /tmp ENOSPC 104857600"
	check "/work full at 100 MiB; $(why)" so_has "fill /work ENOSPC 104857600"
	check "/dev/shm full at 64 MiB; $(why)" so_has "fill /dev/shm ENOSPC 67108864"
	check "the run exited 0; $(why)" rc_is 0
	check "the host disk moved by less than 64 MiB ($free0 -> $free1)" \
		test $((free0 - free1)) -lt $((64 << 20))
	check "the report's flags say disk_full: $(jq -c .flags "$REP" 2>&1)" \
		test "$(jq '.flags | index("disk_full") != null' "$REP")" = true
	check "its peaks show /tmp and /work full at 100 MiB: $(jq -c '.peaks.mounts' "$REP" 2>&1 | head -c 400)" \
		test "$(jq '[.peaks.mounts[] | select((.path == "/tmp" or .path == "/work") and .full and .size == 104857600)] | length' "$REP")" = 2
	sbx -- true
	control "a run that fills nothing has no disk_full flag: $(jq -c .flags "$REP" 2>&1)" \
		test "$(jq '.flags | index("disk_full") == null' "$REP")" = true
	outside -- sh -c "dd if=/dev/zero of='$OUTD/ctl' bs=1M count=120 2>/dev/null; stat -c %s '$OUTD/ctl'; rm -f '$OUTD/ctl'"
	control "outside, dd writes 120 MiB; $(cwhy)" co_has 125829120
}
