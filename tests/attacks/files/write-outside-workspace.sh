# attack: files/write-outside-workspace
# boundary: files
# profile: shell
# modes: root rootless
# requires: bash output-slot
# what: a shell script creates a file named with a marker in every
#   directory it can name outside its workspace: /, /usr, /usr/bin, /etc,
#   /bin, /var, /root, /home, /input, /proc, /dev, and the host's own
#   paths (/var/tmp, the harness's directory); then in /tmp, /work,
#   /dev/shm (the sandbox's own tmpfs) and /output, where it may
# expect: every write outside fails (EROFS, or ENOENT where the directory
#   does not exist inside, and in /proc); on the host, no file with the
#   marker exists anywhere but the output slot
# control: the write into /output, a slot, does appear on the host: the
#   search on the host would find a file the sandbox wrote
# if it fails: the read-only remount of the root and of every bind
#   (launcher/core/mounts.c), the `ro` of the profile's binds and slots,
#   stdlib-policies/base/core.ward

attack() {
	put write_everywhere.sh <<'SH'
mark=$1
shift
for d in "$@"; do
	if (: >"$d/$mark") 2>/dev/null; then
		echo "write $d ok"
	else
		err=$( (: >"$d/$mark") 2>&1)
		case $err in
		*"Read-only file system"*) echo "write $d EROFS" ;;
		*"No such file or directory"*) echo "write $d ENOENT" ;;
		*"Permission denied"*) echo "write $d EACCES" ;;
		*) echo "write $d other: $err" ;;
		esac
	fi
done
SH
	local outsides="/ /usr /usr/bin /etc /bin /var /root /home /input /proc /dev /var/tmp $T $CASE_T"
	sbx -- bash /input/write_everywhere.sh "$MARK" $outsides /tmp /work /dev/shm /output
	for d in / /usr /usr/bin /etc /bin /input /dev; do
		check "write $d: EROFS; $(why)" so_has "write $d EROFS"
	done
	for d in /var /root /home /proc /var/tmp "$T" "$CASE_T"; do
		check "write $d: ENOENT; $(why)" so_has "write $d ENOENT"
	done
	for d in /tmp /work /dev/shm /output; do
		check "write $d allowed; $(why)" so_has "write $d ok"
	done
	# On the host: the marker anywhere the sandbox could have reached.
	local found
	found=$(find / /usr /usr/bin /usr/local /etc /var /var/tmp /tmp /root /home /dev /dev/shm /run \
		-maxdepth 1 -name "*$MARK*" 2>/dev/null; find "$T" -name "*$MARK*" 2>/dev/null)
	check "no marker on the host outside the output slot: $found" \
		test "$(echo "$found" | grep -v "^$OUTD/" | grep -c .)" = 0
	control "the marker written into /output is on the host: $found" \
		test "$(echo "$found" | grep -c "^$OUTD/$MARK\$")" = 1
}
