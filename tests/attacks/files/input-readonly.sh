# attack: files/input-readonly
# boundary: files
# profile: shell
# modes: root rootless
# requires: bash
# what: tampers with the input slot, the caller's data: overwrites,
#   deletes, renames, chmods and truncates its files, and creates new ones.
#   On the host the directory and the file are writable by everyone, so
#   that only the read-only mount can stop it
# expect: every change fails with EROFS and the input directory on the
#   host has the same listing and checksums afterwards
# control: outside, as root, a write into the input directory changes its
#   checksum: the comparison sees tampering
# if it fails: the slot's `ro` (stdlib profile fs section), the
#   read-only attribute of slot mounts (launcher/core/mounts.c)

# snap: the slot's listing (the directory itself and its entries, not its
# parent, which the harness writes to), modes, times and contents.
snap() {
	(cd "$IN" && stat -c '%n %a %s %Y' . ./* && cat ./*) | sha256sum
}

attack() {
	local before
	echo "a,b" >"$IN/data.csv"
	chmod 666 "$IN/data.csv"
	chmod 777 "$IN"
	put tamper.sh <<'SH'
t() { # NAME CMD...
	n=$1
	shift
	if err=$("$@" 2>&1); then echo "$n ok"
	else
		case $err in *"Read-only file system"*) echo "$n EROFS" ;; *) echo "$n other: $err" ;; esac
	fi
}
t overwrite sh -c 'echo x >/input/data.csv'
t append sh -c 'echo x >>/input/data.csv'
t remove rm -f /input/data.csv
t rename mv /input/data.csv /input/moved.csv
t chmod chmod 600 /input/data.csv
t truncate truncate -s 0 /input/data.csv
t create touch /input/new
t mkdir mkdir /input/dir
SH
	before=$(snap)
	sbx -- bash /input/tamper.sh
	for n in overwrite append remove rename chmod truncate create mkdir; do
		check "$n: EROFS; $(why)" so_has "$n EROFS"
	done
	check "the input directory is unchanged" \
		test "$(snap)" = "$before"
	outside -u root -- sh -c "echo x >>'$IN/data.csv'"
	control "outside, a write changes the checksum" \
		test "$(snap)" != "$before"
}
