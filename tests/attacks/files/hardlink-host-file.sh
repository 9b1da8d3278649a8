# attack: files/hardlink-host-file
# boundary: files
# profile: python
# modes: root rootless
# requires: python3 output-slot
# seeds: 000-traversal
# what: makes hard links to host files in places it can write, so that
#   they would outlive the run or be overwritten in place: the host's
#   python3 binary and /etc/passwd into the output slot, a file of the
#   input slot into the output slot (both slots may live on one host
#   filesystem), and through /proc/self/fd with AT_SYMLINK_FOLLOW
# expect: every link fails with EXDEV (different mounts; /etc/passwd is a
#   generated file: EXDEV too), and the host files keep one link
# control: outside, as root (the input file is root's, and the host's
#   fs.protected_hardlinks stops other users), `ln` of the same input file
#   into the output directory works and its link count rises: the
#   observation sees a link
# if it fails: every slot and bind is a mount of its own
#   (launcher/core/mounts.c); fs.protected_hardlinks on the host

attack() {
	echo data >"$IN/data.csv"
	put links.py <<'PY'
import errno, os
def attempt(name, fn):
    try:
        fn()
        print(name, "ok")
    except OSError as e:
        print(name, errno.errorcode[e.errno])
attempt("python3", lambda: os.link("/usr/bin/python3.11", "/output/python3"))
attempt("passwd", lambda: os.link("/etc/passwd", "/output/passwd"))
attempt("input", lambda: os.link("/input/data.csv", "/output/data.csv"))
fd = os.open("/input/data.csv", os.O_RDONLY)
attempt("procfd", lambda: os.link("/proc/self/fd/%d" % fd, "/output/viafd", follow_symlinks=True))
attempt("tmp", lambda: os.link("/input/data.csv", "/tmp/data.csv"))
PY
	sbx -- python3 /input/links.py
	for n in python3 passwd input procfd tmp; do
		check "link $n: EXDEV; $(why)" so_has "$n EXDEV"
	done
	check "python3 keeps one link" test "$(stat -c %h /usr/bin/python3.11)" = 1
	check "the input file keeps one link" test "$(stat -c %h "$IN/data.csv")" = 1
	check "nothing in the output slot" test -z "$(ls -A "$OUTD")"
	outside -u root -- ln "$IN/data.csv" "$OUTD/control-link"
	control "outside, the link is made and counted; $(cwhy)" \
		test "$(stat -c %h "$IN/data.csv")" = 2
	rm -f "$OUTD/control-link"
}
