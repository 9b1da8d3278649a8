# attack: files/proc-sys-write
# boundary: files
# profile: shell
# modes: root rootless
# requires: bash
# what: writes the host's kernel settings through /proc: a pipe in
#   /proc/sys/kernel/core_pattern (the classic container escape: the
#   kernel runs it as root on the next crash), /proc/sys/vm/drop_caches,
#   /proc/sys/kernel/modprobe, and /proc/sysrq-trigger (with `h`, which
#   only logs)
# expect: every write fails (EACCES or EROFS) and the host's
#   core_pattern and modprobe are unchanged afterwards
# control: outside, as root, the same write of core_pattern (its own
#   value, so nothing changes) succeeds: the write path is open where
#   nothing stops it
# if it fails: the proc mount (a new instance for the sandbox's pid
#   namespace, owned by its user namespace: /proc/sys stays host root's),
#   capabilities, launcher/core/mounts.c

attack() {
	local core modprobe
	core=$(cat /proc/sys/kernel/core_pattern)
	modprobe=$(cat /proc/sys/kernel/modprobe 2>&1)
	put procsys.sh <<'SH'
w() { # FILE VALUE
	if err=$( (printf '%s\n' "$2" >"$1") 2>&1); then echo "write $1 ok"
	else
		case $err in
		*"Permission denied"*) echo "write $1 EACCES" ;;
		*"Read-only file system"*) echo "write $1 EROFS" ;;
		*"No such file"*) echo "write $1 ENOENT" ;;
		*) echo "write $1 other: $err" ;;
		esac
	fi
}
w /proc/sys/kernel/core_pattern "|/tmp/pwn %p"
w /proc/sys/vm/drop_caches 3
w /proc/sys/kernel/modprobe /tmp/pwn
w /proc/sysrq-trigger h
SH
	sbx -- bash /input/procsys.sh
	for f in /proc/sys/kernel/core_pattern /proc/sys/vm/drop_caches \
		/proc/sys/kernel/modprobe /proc/sysrq-trigger; do
		# (a kernel without modules or sysrq has no such file at all)
		if [ -e "$f" ]; then
			check "write $f refused; $(why)" grep -qxE "write $f (EACCES|EROFS)" "$SO"
		else
			check "write $f: ENOENT, as on the host; $(why)" so_has "write $f ENOENT"
		fi
	done
	check "the host's core_pattern is unchanged" test "$(cat /proc/sys/kernel/core_pattern)" = "$core"
	check "the host's modprobe is unchanged" test "$(cat /proc/sys/kernel/modprobe 2>&1)" = "$modprobe"
	outside -u root -- sh -c 'cat /proc/sys/kernel/core_pattern >/proc/sys/kernel/core_pattern && echo ok'
	control "outside as root, core_pattern is writable; $(cwhy)" co_has ok
}
