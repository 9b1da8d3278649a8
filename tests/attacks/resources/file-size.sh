# attack: resources/file-size
# boundary: resources
# profile: cc
# modes: root rootless
# requires: sh
# seeds: 000-fill 004-disk-fill
# what: issue 24's second trace: one file written past the profile's
#   `filesize 100M` (dd of 101 MiB, SIGXFSZ ignored so that the write
#   fails with EFBIG instead of killing dd) into /tmp, whose 200 MiB
#   tmpfs has room for it: only the file size limit can stop it
# expect: dd fails with "File too large" and the file ends at exactly
#   100 MiB; the report's flags say `filesize_limit` and not `disk_full`
#   (a limit of its own, seed 000: every exceeded item on the record), its
#   peaks name the file (`file_at_filesize`) and show /tmp not full; the
#   run exits 0
# control: outside, the same dd writes all 101 MiB (removed at once): the
#   size check would see a missing limit; and inside, a file of 99 MiB is
#   written whole and the report has no `filesize_limit` flag
# if it fails: the target's RLIMIT_FSIZE (ward_set_rlimits, launcher/core/
#   hardening.c), the courier's reading after the run (mounts_after,
#   launcher/unprivileged/courier.c; ward_slotfs_at_size, slotfs.c)

attack() {
	sbx -- /bin/sh -c 'trap "" XFSZ
		if err=$(dd if=/dev/zero of=/tmp/big bs=1M count=101 status=none 2>&1); then r=ok
		else case $err in *"File too large"*) r=EFBIG ;; *) r="other: $err" ;; esac; fi
		echo "big $r $(stat -c %s /tmp/big)"'
	check "dd got EFBIG at 100 MiB; $(why)" so_has "big EFBIG 104857600"
	check "the run exited 0; $(why)" rc_is 0
	check "the report's flags say filesize_limit, not disk_full: $(jq -c .flags "$REP" 2>&1)" \
		report_has '(.flags | index("filesize_limit") != null) and (.flags | index("disk_full") == null)'
	check "its peaks name the file, /tmp not full: $(jq -c '.peaks.mounts[] | select(.path == "/tmp")' "$REP" 2>&1 | head -c 300)" \
		report_has '.peaks.mounts[] | select(.path == "/tmp") | .file_at_filesize == "big" and (.full | not)'
	sbx -- /bin/sh -c 'dd if=/dev/zero of=/tmp/fine bs=1M count=99 status=none && stat -c "fine %s" /tmp/fine'
	control "inside, 99 MiB are written whole; $(why)" so_has "fine 103809024"
	control "... and that run has no filesize_limit flag: $(jq -c .flags "$REP" 2>&1)" \
		report_has '.flags | index("filesize_limit") == null'
	outside -- sh -c "dd if=/dev/zero of='$OUTD/ctl' bs=1M count=101 2>/dev/null; stat -c %s '$OUTD/ctl'; rm -f '$OUTD/ctl'"
	control "outside, dd writes all 101 MiB; $(cwhy)" co_has 105906176
}
